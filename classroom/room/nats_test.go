package room

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/classroom/config"
	"toolgate/classroom/natshost"
	"toolgate/tui"
)

const roomToken = "a-token-for-the-tests-only"

// natsServer is a NATS server of the test's own, on loopback: port 0
// picks a free port; store keeps its JetStream files (a restart on the
// same port and store is the same server).
func natsServer(t *testing.T, port int, store string) (*natshost.Host, string) {
	t.Helper()
	srv, err := natshost.Start(config.Room{Listen: fmt.Sprintf("127.0.0.1:%d", port), Name: "test", Token: roomToken, StoreDir: store}, "", testLogf(t))
	require.NoError(t, err)
	t.Cleanup(func() { srv.Shutdown(); srv.WaitForShutdown() })
	return srv, srv.URL()
}

// quick is the pace of a test's front-ends: a beat every 50 ms, gone
// after 2 s unheard.
func quick(r config.Room) config.Room {
	r.Beat, r.Dead, r.OpTimeout, r.ReconnectWait = 50*time.Millisecond, 2*time.Second, 10*time.Second, 50*time.Millisecond
	return r
}

// frontEnd joins the room at url as a front-end whose presence is quick.
func frontEnd(t *testing.T, url string) *Shared {
	t.Helper()
	sr, err := OpenShared(context.Background(), quick(config.Room{URL: url, Name: "lecture", Token: roomToken}), testLogf(t))
	require.NoError(t, err)
	t.Cleanup(sr.Close)
	return sr
}

// testLogf logs to the test until it ends: NATS's goroutines may have a
// word after that, which t.Logf would not take.
func testLogf(t *testing.T) func(string, ...any) {
	var mu sync.Mutex
	done := false
	t.Cleanup(func() { mu.Lock(); done = true; mu.Unlock() })
	return func(format string, v ...any) {
		mu.Lock()
		defer mu.Unlock()
		if !done {
			t.Logf(format, v...)
		}
	}
}

// converge waits until every front-end counts want and has the stats.
func converge(t *testing.T, what string, want map[int]int, stats Stats, fes ...*Shared) {
	t.Helper()
	waitUntil(t, what, func() bool {
		for _, fe := range fes {
			got := fe.Stats()
			got.Peak, got.Anonymous = 0, 0 // Join: every answer here is without an identity
			if !assert.ObjectsAreEqual(want, fe.Counts()) || got != stats {
				return false
			}
		}
		return true
	})
}

// TestSharedRoomThreeFrontEnds: three front-ends and a NATS server in one
// process, students spread across them, the presenter on one: the same
// counts everywhere, however often an answer arrives; a killed front-end's
// students drop out; a restarted one catches up; the presenter takes the
// room over through another front-end.
func TestSharedRoomThreeFrontEnds(t *testing.T) {
	_, url := natsServer(t, 0, t.TempDir())
	fes := []*Shared{frontEnd(t, url), frontEnd(t, url), frontEnd(t, url)}
	var lecturerBox, notesBox inbox
	boxes := make([]inbox, 5)
	lecturer := fes[0].Join(Presenter, lecturerBox.send)
	require.True(t, lecturer.Presenter())
	notes := fes[1].Join(Notes, notesBox.send)
	at := []int{0, 1, 1, 2, 2}
	var students []Member
	for i, fe := range at {
		students = append(students, fes[fe].Join(Student, boxes[i].send))
	}
	t.Cleanup(func() {
		for _, s := range students {
			s.Leave()
		}
		lecturer.Leave()
		notes.Leave()
	})
	converge(t, "every front-end hears of the others", map[int]int{}, Stats{Sessions: 7, Students: 5}, fes...)

	students[0].Go("demo", 0) // a student cannot lead
	lecturer.Go("write-without-approval", 0)
	for i := range boxes {
		boxes[i].sees(t, func(m tui.RoomMsg) bool { return m.Live == "write-without-approval" })
	}
	lecturer.Go("write-without-approval", 3)
	notesBox.sees(t, func(m tui.RoomMsg) bool { return m.Step == 3 })
	students[1].Answer(4) // no question open: not counted
	lecturer.Open()
	for i := range boxes {
		boxes[i].sees(t, func(m tui.RoomMsg) bool { return m.Open && m.Round == 1 })
	}
	for i, step := range []int{7, 7, 4, 3, 7} {
		students[i].Answer(step)
	}
	students[3].Answer(7) // a second answer replaces the first
	lecturer.Answer(1)    // the presenter does not vote
	notes.Answer(1)       // nor the notes screen
	want := map[int]int{7: 4, 4: 1}
	converge(t, "the same counts on every front-end", want, Stats{Sessions: 7, Students: 5, Answered: 5}, fes...)
	lecturerBox.sees(t, func(m tui.RoomMsg) bool { return m.Answered == 5 && m.Students == 5 && m.Counts[7] == 4 })
	notesBox.sees(t, func(m tui.RoomMsg) bool { return m.Answered == 5 && m.Counts[4] == 1 })
	assert.Nil(t, boxes[0].last(t).Counts, "students see no counts")

	// However often an answer arrives, it is one: the same message
	// again, and again under a new id.
	nc, err := nats.Connect(url, nats.Token(roomToken))
	require.NoError(t, err)
	defer nc.Close()
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	fes[1].mu.Lock()
	poll := fes[1].st.Poll
	fes[1].mu.Unlock()
	subject := fmt.Sprintf("toolgate.lecture.ans.%d.%s.%d", poll, fes[1].ID(), 2)
	for i := range 3 {
		_, err := js.Publish(context.Background(), subject, []byte("7"), jetstream.WithMsgID(fmt.Sprintf("again-%d", i)))
		require.NoError(t, err)
	}
	converge(t, "a repeated answer counts once", want, Stats{Sessions: 7, Students: 5, Answered: 5}, fes...)

	// A front-end dies mid-poll: its two students drop out of "answered
	// N of M", and their answers out of the histogram.
	fes[2].crash()
	live := fes[:2]
	want = map[int]int{7: 2, 4: 1} // students 3 and 4 (on the dead one) said 3 and 7
	converge(t, "the dead front-end's students drop out", want, Stats{Sessions: 5, Students: 3, Answered: 3}, live...)
	lecturerBox.sees(t, func(m tui.RoomMsg) bool { return m.Answered == 3 && m.Students == 3 })

	// It restarts (a new front-end to the others) and catches up: the
	// live scenario, the open question, the counts.
	again := frontEnd(t, url)
	var backBox inbox
	back := again.Join(Student, backBox.send)
	defer back.Leave()
	backBox.sees(t, func(m tui.RoomMsg) bool { return m.Live == "write-without-approval" && m.Open && m.Round == 1 })
	back.Answer(3)
	fes = []*Shared{fes[0], fes[1], again}
	want = map[int]int{7: 2, 4: 1, 3: 1}
	converge(t, "the restarted front-end counts as the others", want, Stats{Sessions: 6, Students: 4, Answered: 4}, fes...)

	// The presenter's connection dropped; they log in through another
	// front-end and take the room back.
	var secondBox inbox
	second := fes[2].Join(Presenter, secondBox.send)
	defer second.Leave()
	assert.True(t, second.(*natsClient).TookOver())
	lecturerBox.sees(t, func(m tui.RoomMsg) bool { return m.Ending == tui.TakenOver })
	waitUntil(t, "one leads at a time", func() bool { return !lecturer.Presenter() && second.Presenter() })
	lecturer.Reveal() // no longer leads: ignored
	second.Reveal()
	backBox.sees(t, func(m tui.RoomMsg) bool { return m.Revealed })
	boxes[0].sees(t, func(m tui.RoomMsg) bool { return m.Revealed })
	secondBox.sees(t, func(m tui.RoomMsg) bool { return m.Revealed && m.Counts[3] == 1 })

	// A new scenario starts with no answers, on every front-end.
	second.Go("unknown-tool", 0)
	converge(t, "a new scenario clears the answers", map[int]int{}, Stats{Sessions: 6, Students: 4}, fes...)
}

// TestSharedRoomTakesNothingUnchecked: what arrives from NATS is bounded:
// a state that is not one, answers on strange subjects or out of range,
// an oversized presence, a thousand made-up front-ends.
func TestSharedRoomTakesNothingUnchecked(t *testing.T) {
	_, url := natsServer(t, 0, t.TempDir())
	fe := frontEnd(t, url)
	var box inbox
	lecturer := fe.Join(Presenter, box.send)
	defer lecturer.Leave()
	lecturer.Go("write-without-approval", 0)
	lecturer.Open()
	box.sees(t, func(m tui.RoomMsg) bool { return m.Open })

	nc, err := nats.Connect(url, nats.Token(roomToken))
	require.NoError(t, err)
	defer nc.Close()
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	kv, err := js.KeyValue(context.Background(), "toolgate-lecture")
	require.NoError(t, err)
	ctx := context.Background()
	for _, bad := range []string{`{"live":"\u001b[2J"}`, `{"step":-3}`, `{"leader":"me"}`, `not json`, `{"round":99999999999}`,
		`{"revealed":true,"final":{"counts":{"-1":3}}}`, `{"revealed":true,"final":{"answered":-1}}`, `{"revealed":true,"final":{"answered":1,"anonymous":2}}`} {
		_, err := kv.PutString(ctx, stateKey, bad)
		require.NoError(t, err)
	}
	_, err = kv.PutString(ctx, stateKey, strings.Repeat("x", maxStateBytes+1))
	assert.Error(t, err, "the bucket refuses a value over 16 KB")
	fe.mu.Lock()
	poll := fe.st.Poll
	fe.mu.Unlock()
	for _, a := range []struct{ subject, body string }{
		{fmt.Sprintf("toolgate.lecture.ans.%d.%s.1", poll, strings.Repeat("z", 16)), "7"},
		{fmt.Sprintf("toolgate.lecture.ans.%d.0123456789abcdef.0", poll), "7"},
		{fmt.Sprintf("toolgate.lecture.ans.%d.0123456789abcdef.1", poll), "99999"},
		{fmt.Sprintf("toolgate.lecture.ans.%d.0123456789abcdef.2", poll), "seven"},
	} {
		_, err := js.Publish(ctx, a.subject, []byte(a.body))
		require.NoError(t, err)
	}
	_, err = js.Publish(ctx, fmt.Sprintf("toolgate.lecture.ans.%d.0123456789abcdef.3", poll), []byte(strings.Repeat("1", 1000)))
	assert.Error(t, err, "the stream refuses an answer over 512 bytes")
	_, err = js.Publish(ctx, fmt.Sprintf("toolgate.lecture.ans.%d.0123456789abcdef.4", poll), []byte(strings.Repeat("1", 100)))
	require.NoError(t, err, "the front-end refuses one over 16")
	require.NoError(t, nc.Publish("toolgate.lecture.here", []byte(`{"fe":"`+strings.Repeat("a", 400)+`","students":5}`)))
	for i := range 1000 {
		require.NoError(t, nc.Publish("toolgate.lecture.here", fmt.Appendf(nil, `{"fe":"%016x","students":2000000,"sessions":-4}`, i)))
	}
	require.NoError(t, nc.Flush())
	waitUntil(t, "the made-up front-ends are heard, up to the cap", func() bool {
		fe.mu.Lock()
		defer fe.mu.Unlock()
		return len(fe.peers) == maxPeers
	})
	st := fe.Stats()
	assert.Equal(t, maxPeers*maxCount, st.Students, "each counts at most %d", maxCount)
	assert.Equal(t, 1, st.Sessions, "no negative sessions")
	assert.Empty(t, fe.Counts(), "no bad answer counts")
	last := box.last(t)
	assert.Equal(t, "write-without-approval", last.Live, "no bad state is taken")
	assert.True(t, last.Open)
	assert.True(t, lecturer.Presenter())
}

// TestSharedRoomHost: a front-end that hosts the NATS server (loopback:
// no TLS) and one that joins it with an NKey made on first start.
func TestSharedRoomHost(t *testing.T) {
	dir := t.TempDir()
	seed := filepath.Join(dir, "room.nk")
	ctx := context.Background()
	host, err := OpenShared(ctx, config.Room{Listen: "127.0.0.1:0", Name: "lecture", NKeyFile: seed, StoreDir: dir}, nil)
	require.NoError(t, err)
	defer host.Close()
	assert.True(t, strings.HasPrefix(host.PublicKey, "U"))
	assert.Empty(t, host.Fingerprint, "no TLS on loopback")
	guest, err := OpenShared(ctx, config.Room{URL: host.URL, Name: "lecture", NKeyFile: seed}, nil)
	require.NoError(t, err)
	defer guest.Close()
	_, err = OpenShared(ctx, config.Room{URL: host.URL, Name: "lecture", Token: "not-the-room-s-token"}, nil)
	assert.Error(t, err, "no credentials, no room")
	var box inbox
	lecturer := host.Join(Presenter, box.send)
	defer lecturer.Leave()
	var sbox inbox
	s := guest.Join(Student, sbox.send)
	defer s.Leave()
	lecturer.Go("write-without-approval", 0)
	sbox.sees(t, func(m tui.RoomMsg) bool { return m.Live == "write-without-approval" })
}

// TestSharedRoomTLS: a host off loopback speaks TLS with a certificate
// made on first start; a front-end that pins its fingerprint gets in, one
// that pins another does not. (The host listens on 127.0.0.2, loopback
// to the kernel; Loopback is told otherwise.)
func TestSharedRoomTLS(t *testing.T) {
	dir := t.TempDir()
	cert, err := natshost.Certificate(dir, "127.0.0.1")
	require.NoError(t, err)
	fp := natshost.Fingerprint(cert.Certificate[0])
	again, err := natshost.Certificate(dir, "127.0.0.1")
	require.NoError(t, err)
	assert.Equal(t, fp, natshost.Fingerprint(again.Certificate[0]), "kept across restarts")
	tc, err := clientTLS(config.Room{Fingerprint: "SHA256:else"})
	require.NoError(t, err)
	assert.Error(t, tc.VerifyConnection(stateWith(cert)))
	tc, err = clientTLS(config.Room{Fingerprint: fp})
	require.NoError(t, err)
	assert.NoError(t, tc.VerifyConnection(stateWith(cert)))
}

// TestNKeySeedFile: a host makes the seed once (mode 0600) and reads the
// same one back; a joining front-end makes none; a file too large to be
// a seed is refused unread.
func TestNKeySeedFile(t *testing.T) {
	dir := t.TempDir()
	seed := filepath.Join(dir, "sub", "room.nk")
	_, err := loadNKey(seed, false)
	assert.ErrorIs(t, err, fs.ErrNotExist, "a front-end that joins makes no seed")
	kp, err := loadNKey(seed, true)
	require.NoError(t, err)
	info, err := os.Stat(seed)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	again, err := loadNKey(seed, true)
	require.NoError(t, err)
	pub1, _ := kp.PublicKey()
	pub2, _ := again.PublicKey()
	assert.Equal(t, pub1, pub2, "made once, then read")

	big := filepath.Join(dir, "big.nk")
	require.NoError(t, os.WriteFile(big, make([]byte, maxSeedFile+1), 0o600))
	_, err = loadNKey(big, true)
	assert.ErrorContains(t, err, "too long")
}

func stateWith(cert tls.Certificate) tls.ConnectionState {
	c, _ := x509.ParseCertificate(cert.Certificate[0])
	return tls.ConnectionState{PeerCertificates: []*x509.Certificate{c}}
}

// TestSharedRoomStateLost: the room's state is deleted or purged from the
// bucket (or NATS came back without its store): the presenter who led
// still leads, is not told another took over, and writes the lead back.
// A state that names a session of this front-end that is not a presenter
// makes nobody here lead.
func TestSharedRoomStateLost(t *testing.T) {
	_, url := natsServer(t, 0, t.TempDir())
	fe := frontEnd(t, url)
	var box, studentBox inbox
	lecturer := fe.Join(Presenter, box.send)
	defer lecturer.Leave()
	student := fe.Join(Student, studentBox.send)
	defer student.Leave()
	require.True(t, lecturer.Presenter())
	me := fmt.Sprintf("%s.%d", fe.ID(), lecturer.(*natsClient).m.id)

	nc, err := nats.Connect(url, nats.Token(roomToken))
	require.NoError(t, err)
	defer nc.Close()
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	ctx := context.Background()
	kv, err := js.KeyValue(ctx, "toolgate-lecture")
	require.NoError(t, err)
	leaderInBucket := func() string {
		e, err := kv.Get(ctx, stateKey)
		if err != nil {
			return ""
		}
		st, err := decodePosition(e.Value())
		if err != nil {
			return ""
		}
		return st.Leader
	}
	waitUntil(t, "the lead is in the bucket", func() bool { return leaderInBucket() == me })

	for _, lose := range []func() error{
		func() error { return kv.Delete(ctx, stateKey) },
		func() error { return kv.Purge(ctx, stateKey) },
	} {
		require.NoError(t, lose())
		waitUntil(t, "the lead is written back", func() bool { return leaderInBucket() == me })
		assert.True(t, lecturer.Presenter(), "the presenter still leads")
		select {
		case <-lecturer.Ended():
			t.Fatal("the presenter's session is not ended")
		default:
		}
		box.mu.Lock()
		for _, m := range box.msgs {
			assert.Equal(t, tui.NoGoodbye, m.Ending, "the presenter is told nothing ended")
		}
		box.mu.Unlock()
	}
	lecturer.Go("write-without-approval", 0)
	studentBox.sees(t, func(m tui.RoomMsg) bool { return m.Live == "write-without-approval" })

	// A state naming the student as the leader: a student leads nothing.
	forged := fmt.Sprintf(`{"leader":"%s.%d"}`, fe.ID(), student.(*natsClient).m.id)
	_, err = kv.PutString(ctx, stateKey, forged)
	require.NoError(t, err)
	studentBox.sees(t, func(m tui.RoomMsg) bool { return m.Live == "" })
	assert.False(t, student.Presenter(), "only a presenter leads")
}

// lines collects a log's lines.
type lines struct {
	mu  sync.Mutex
	all []string
}

func (l *lines) log(format string, v ...any) {
	l.mu.Lock()
	l.all = append(l.all, fmt.Sprintf(format, v...))
	l.mu.Unlock()
}

func (l *lines) count(substr string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, line := range l.all {
		if strings.Contains(line, substr) {
			n++
		}
	}
	return n
}

// Issue 24, item 3: a front-end that cannot reach NATS at start tries again, and
// joins once NATS is there.
func TestFrontEndWaitsForNATS(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(t, l.Close())
	var log lines
	joined := make(chan error, 1)
	go func() {
		sr, err := OpenShared(context.Background(), quick(config.Room{URL: fmt.Sprintf("nats://127.0.0.1:%d", port), Name: "lecture", Token: roomToken}), log.log)
		if err == nil {
			t.Cleanup(sr.Close)
		}
		joined <- err
	}()
	waitUntil(t, "a first attempt fails", func() bool { return log.count("again in") > 0 })
	natsServer(t, port, t.TempDir())
	require.NoError(t, <-joined)
	assert.Equal(t, 1, log.count("reached NATS at"))
}

// Issue 24, item 3: through the front, TLS is between the front-end and NATS, as
// before: a front-end that pins the host's certificate joins; one that
// pins another is refused, and not tried again.
func TestNATSFrontKeepsTLS(t *testing.T) {
	var log lines
	h, err := natshost.Start(config.Room{Listen: "127.0.0.1:0", Name: "test", Token: roomToken, StoreDir: t.TempDir(), TLS: true}, "", log.log)
	require.NoError(t, err)
	t.Cleanup(func() { h.Shutdown(); h.WaitForShutdown() })
	fp := h.Fingerprint()
	require.NotEmpty(t, fp)
	url := h.URL()
	require.True(t, strings.HasPrefix(url, "tls://"), url)
	join := func(pin string) error {
		sr, err := OpenShared(context.Background(), quick(config.Room{URL: url, Name: "lecture", Token: roomToken, Fingerprint: pin}), log.log)
		if err == nil {
			sr.Close()
		}
		return err
	}
	require.NoError(t, join(fp))
	require.ErrorContains(t, join("SHA256:"+strings.Repeat("A", 43)), "certificate")
	assert.Zero(t, log.count("again in"), "a wrong certificate is not tried again")
}
