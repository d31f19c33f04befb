package classroom

import (
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"os"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/classroom/config"
	"toolgate/classroom/web"
)

// loadPhone is a phone of the load client: its own connections (one
// for its event stream, one for its requests), on loopback only.
func loadPhone(base string) *phoneClient {
	jar, _ := cookiejar.New(nil)
	return &phoneClient{base: base, c: &http.Client{Jar: jar, Transport: &http.Transport{MaxConnsPerHost: 2, MaxIdleConnsPerHost: 1},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// phonesRound is a poll round of phones: the question open, every phone
// answering, the presenter's count; it returns how long after the last
// answer the presenter's screen showed the whole count, and how long
// the reveal took to reach every phone.
func phonesRound(t *testing.T, lecturer *session, phones []*phoneClient) (lag, reveal time.Duration) {
	t.Helper()
	n := len(phones)
	require.NoError(t, lecturer.send("o"))
	deadline := patience(t)
	for _, p := range phones {
		p.sees(t, "the question on every phone", func(s web.State) bool { return s.Open && s.Question != nil })
	}
	var last atomic.Int64
	sem := make(chan struct{}, 100)
	require.NoError(t, all(n, func(i int) error {
		sem <- struct{}{}
		defer func() { <-sem }()
		status, err := phones[i].answer(1 + i%8)
		if err != nil {
			return err
		}
		if status != http.StatusNoContent {
			return fmt.Errorf("answer: %d", status)
		}
		now := time.Now().UnixNano()
		for {
			old := last.Load()
			if now <= old || last.CompareAndSwap(old, now) {
				break
			}
		}
		return nil
	}))
	seen, err := lecturer.sees(fmt.Sprintf("answered %d of %d", n, n), deadline)
	require.NoError(t, err)
	lag = max(seen.Sub(time.Unix(0, last.Load())), 0)
	require.NoError(t, lecturer.send("v"))
	began := time.Now()
	for _, p := range phones {
		p.sees(t, "the reveal on every phone", func(s web.State) bool { return s.Revealed && s.Reveal != nil })
	}
	return lag, time.Since(began)
}

// joinPhones joins n phones to the page at each base in turn, 50 at a
// time, each following the room.
func joinPhones(t *testing.T, bases []string, n int) []*phoneClient {
	t.Helper()
	phones := make([]*phoneClient, n)
	t.Cleanup(func() {
		for _, p := range phones {
			if p != nil {
				p.stop()
				p.c.CloseIdleConnections()
			}
		}
	})
	sem := make(chan struct{}, 50)
	require.NoError(t, all(n, func(i int) error {
		sem <- struct{}{}
		defer func() { <-sem }()
		p := loadPhone(bases[i%len(bases)])
		status, err := p.join("tulip")
		if err != nil {
			return err
		}
		if status != http.StatusSeeOther {
			return fmt.Errorf("join: %d", status)
		}
		if err := p.follow(); err != nil {
			return err
		}
		phones[i] = p
		return nil
	}))
	return phones
}

// TestLoadPhones: 1,000 phones on one front-end (a child process) and a
// poll round: how long after the last answer the presenter's SSH screen
// has the whole count, memory per connected phone; then 1,000 phones on
// two front-ends sharing a room through NATS. TOOLGATE_LOAD_PHONES
// makes the hall smaller.
func TestLoadPhones(t *testing.T) {
	needLoad(t)
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("TOOLGATE_LOAD_PHONES")); err == nil && v > 0 {
		n = v
	}
	web := config.Web{Listen: "127.0.0.1:0", MaxConns: 4 * n}
	t.Run("one front-end", func(t *testing.T) {
		fe := startChild(t, childConfig{ClassCode: "tulip", PresenterCode: "orchid", Idle: time.Hour, Web: web})
		fe.settle(t)
		lecturer := connect(t, fe.addr, "orchid")
		lecturer.waitFor(t, "You lead the room")
		require.NoError(t, lecturer.send("4"))
		lecturer.waitFor(t, "Scenario 4 · ")
		// The baseline has the lecturer's session (a whole TUI) in it.
		base := fe.stats(t)
		began := time.Now()
		phones := joinPhones(t, []string{fe.web}, n)
		joined := time.Since(began)
		var st childStats
		waitUntil(t, "every phone's stream is open", func() bool { st = fe.stats(t); return st.Phones == n && st.WebConns >= n })
		perPhone := float64(st.AnonKB-base.AnonKB) / float64(n)
		t.Logf("%d phones joined in %v; %d connections; RSS anon %d KB → %d KB: %.1f KB a phone; heap %d KB → %d KB; goroutines %d → %d",
			n, joined.Round(time.Millisecond), st.WebConns, base.AnonKB, st.AnonKB, perPhone, base.HeapKB, st.HeapKB, base.Goroutines, st.Goroutines)
		lag, reveal := phonesRound(t, lecturer, phones)
		t.Logf("poll round: the presenter's count complete %v after the last answer; the reveal on every phone in %v", lag.Round(time.Millisecond), reveal.Round(time.Millisecond))
		assert.Less(t, perPhone, 100.0, "under 100 KB a connected phone")
		assert.Equal(t, n, fe.stats(t).Answered)
	})
	t.Run("two front-ends sharing a room", func(t *testing.T) {
		_, url := natsServer(t, 0, t.TempDir())
		var fes []*child
		var bases []string
		for range 2 {
			fe := startChild(t, childConfig{ClassCode: "tulip", PresenterCode: "orchid", Idle: time.Hour, Web: web,
				Room: config.Room{URL: url, Name: "lecture", Token: roomToken}})
			fes = append(fes, fe)
			bases = append(bases, fe.web)
		}
		lecturer := connect(t, fes[0].addr, "orchid")
		lecturer.waitFor(t, "You lead the room")
		require.NoError(t, lecturer.send("4"))
		lecturer.waitFor(t, "Scenario 4 · ")
		phones := joinPhones(t, bases, n)
		waitUntil(t, "both front-ends count every phone", func() bool {
			return fes[0].stats(t).Students == n && fes[1].stats(t).Students == n
		})
		lag, reveal := phonesRound(t, lecturer, phones)
		counts := []int{fes[0].stats(t).Phones, fes[1].stats(t).Phones}
		t.Logf("shared room, phones per front-end %v: the presenter's count complete %v after the last answer; the reveal on every phone in %v",
			counts, lag.Round(time.Millisecond), reveal.Round(time.Millisecond))
		assert.True(t, slices.Equal(counts, []int{n / 2, n - n/2}))
	})
}
