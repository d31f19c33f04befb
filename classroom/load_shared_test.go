package classroom

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"toolgate/classroom/config"

	"github.com/stretchr/testify/require"
)

// TestLoadSharedRoom: 1,000 students across three front-ends (each a
// child process) sharing one room through a NATS server (in this
// process), the lecturer on the first: how long they take to connect,
// what a student costs each front-end, and how long a lecturer's key
// takes to reach every student's screen (p50/p99). TOOLGATE_LOAD_STUDENTS
// makes the room smaller.
func TestLoadSharedRoom(t *testing.T) {
	// Serial: measures memory and time on the whole machine (make load).
	needLoad(t)
	students := 1000
	if n, err := strconv.Atoi(os.Getenv("TOOLGATE_LOAD_STUDENTS")); err == nil && n > 0 {
		students = n
	}
	_, url := natsServer(t, 0, t.TempDir())
	const frontEnds = 3
	var fes []*child
	for range frontEnds {
		fes = append(fes, startChild(t, childConfig{ClassCode: "tulip", PresenterCode: "orchid", MaxSessions: students/frontEnds + 10,
			Idle: time.Hour, Room: config.Room{URL: url, Name: "lecture", Token: roomToken}}))
	}
	for _, fe := range fes {
		fe.warmUp(t)
	}
	base := make([]childStats, frontEnds)
	for i, fe := range fes {
		base[i] = fe.settle(t)
	}
	lecturer := connect(t, fes[0].addr, "orchid")
	lecturer.waitFor(t, "You lead the room")
	require.NoError(t, lecturer.send("2"))
	lecturer.waitFor(t, "Scenario 2 · ")

	// Students connect 50 at a time (a hall does not press Enter in the
	// same millisecond), spread across the front-ends.
	deadline := patience(t)
	sessions := make([]*session, students)
	took := make([]time.Duration, students)
	t.Cleanup(func() {
		for _, s := range sessions {
			if s != nil {
				s.client.Close()
			}
		}
	})
	began := time.Now()
	sem := make(chan struct{}, 50)
	require.NoError(t, all(students, func(i int) error {
		sem <- struct{}{}
		defer func() { <-sem }()
		start := time.Now()
		c, err := dial(fes[i%frontEnds].addr, "tulip")
		if err != nil {
			return err
		}
		s, err := open(c, ptyOpts{width: 100, height: 30})
		if err != nil {
			c.Close()
			return err
		}
		sessions[i] = s
		if _, err := s.sees("Scenario 2 · ", deadline); err != nil {
			return err
		}
		took[i] = time.Since(start)
		return nil
	}))
	connected := time.Since(began)
	t.Logf("%d students across %d front-ends connected and drew the live scenario in %v (50 at a time; one login to its first frame: %s)",
		students, frontEnds, connected.Round(time.Millisecond), percentiles(took))
	for i, fe := range fes {
		st := fe.stats(t)
		n := (students + frontEnds - 1 - i) / frontEnds
		if i == 0 {
			n++ // the lecturer
		}
		t.Logf("front-end %d: %d sessions, RSS %d MB (from %d MB), %d goroutines: %d KB RSS a session, heap %d KB a session",
			i, st.Sessions, st.RSSKB>>10, base[i].RSSKB>>10, st.Goroutines, (st.RSSKB-base[i].RSSKB)/n, (st.HeapKB-base[i].HeapKB)/n)
	}

	// The lecturer's key, to every student's screen.
	lag := func(keys, lecturerSees string, studentSees func(i int) string) []time.Duration {
		t.Helper()
		lags := make([]time.Duration, students)
		var mu sync.Mutex
		sent := time.Now()
		require.NoError(t, lecturer.send(keys))
		require.NoError(t, all(students, func(i int) error {
			at, err := sessions[i].sees(studentSees(i), deadline)
			mu.Lock()
			lags[i] = at.Sub(sent)
			mu.Unlock()
			return err
		}))
		lecturer.waitFor(t, lecturerSees)
		return lags
	}
	t.Logf("a new live scenario (key 4), to every student's screen: %s", percentiles(lag("4", "» 4 ", same("» 4 · · ·"))))
	t.Logf("the question opens (key o), to every student's screen: %s", percentiles(lag("o", "Question 1 is open", same("Predict first"))))

	// Every student answers; the lecturer's histogram counts them all,
	// and every front-end counts the same.
	began = time.Now()
	counts := map[string]int{}
	for i := range students {
		counts[[]string{"4", "7"}[i%2]]++
	}
	require.NoError(t, all(students, func(i int) error {
		s := sessions[i]
		if err := s.send([]string{"4", "7"}[i%2]); err != nil {
			return err
		}
		if i%2 == 1 {
			if _, err := s.sees("which code?", deadline); err != nil {
				return err
			}
			if err := s.send("1"); err != nil {
				return err
			}
		}
		_, err := s.sees("Wait for the reveal", deadline)
		return err
	}))
	answered := time.Since(began)
	want := fmt.Sprintf("rule 4: %d · rule 7: %d · answered %d of %d", counts["4"], counts["7"], students, students)
	waitUntil(t, "the lecturer's histogram counts every answer", func() bool { return strings.Contains(flat(lecturer.screen()), want) })
	t.Logf("%d answers sent in %v; on the lecturer's histogram after %v", students, answered.Round(time.Millisecond), time.Since(began).Round(time.Millisecond))
	for i, fe := range fes {
		waitUntil(t, fmt.Sprintf("front-end %d counts every answer", i), func() bool { return fe.stats(t).Answered == students })
	}
	t.Logf("every front-end counts %d answers", students)
	t.Logf("the reveal (key v), to every student's screen: %s", percentiles(lag("v", "Question 1 revealed", func(i int) string {
		return []string{"You said rule 4", "Right: rule 7"}[i%2]
	})))
}

func same(text string) func(int) string { return func(int) string { return text } }

// percentiles are p50, p99 and the largest of ds.
func percentiles(ds []time.Duration) string {
	s := slices.Clone(ds)
	slices.Sort(s)
	at := func(p float64) time.Duration { return s[min(len(s)-1, int(p*float64(len(s))))].Round(time.Millisecond) }
	return fmt.Sprintf("p50 %v, p99 %v, max %v", at(0.50), at(0.99), s[len(s)-1].Round(time.Millisecond))
}
