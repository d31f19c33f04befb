package classroom

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

	"toolgate/assess"
	"toolgate/tui"
)

const roomToken = "a-token-for-the-tests-only"

// natsServer is a NATS server of the test's own, on loopback: port 0
// picks a free port; store keeps its JetStream files (a restart on the
// same port and store is the same server).
func natsServer(t *testing.T, port int, store string) (*natsHost, string) {
	t.Helper()
	srv, _, err := hostNATS(SharedRoomConfig{Listen: fmt.Sprintf("127.0.0.1:%d", port), Room: "test", Token: roomToken, StoreDir: store,
		Log: testLogf(t)}, "")
	require.NoError(t, err)
	t.Cleanup(func() { srv.Shutdown(); srv.WaitForShutdown() })
	return srv, srv.ClientURL()
}

// frontEnd joins the room at url as a front-end whose presence is
// quick: a beat every 50 ms, gone after 2 s unheard.
func frontEnd(t *testing.T, url string) *SharedRoom {
	t.Helper()
	sr, err := OpenSharedRoom(SharedRoomConfig{URL: url, Room: "lecture", Token: roomToken,
		Log:  testLogf(t),
		beat: 50 * time.Millisecond, dead: 2 * time.Second, opTimeout: 10 * time.Second, reconnectWait: 50 * time.Millisecond})
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
func converge(t *testing.T, what string, want map[int]int, stats Stats, fes ...*SharedRoom) {
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
	fes := []*SharedRoom{frontEnd(t, url), frontEnd(t, url), frontEnd(t, url)}
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
	students[1].Answer(4, 0) // no question open: not counted
	lecturer.Open()
	for i := range boxes {
		boxes[i].sees(t, func(m tui.RoomMsg) bool { return m.Open && m.Round == 1 })
	}
	for i, step := range []int{7, 7, 4, 3, 7} {
		students[i].Answer(step, assess.CodeApprovalMissing)
	}
	students[3].Answer(7, 0) // a second answer replaces the first
	lecturer.Answer(1, 0)    // the presenter does not vote
	notes.Answer(1, 0)       // nor the notes screen
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
	poll := fes[1].state.Poll
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
	back.Answer(3, 0)
	fes = []*SharedRoom{fes[0], fes[1], again}
	want = map[int]int{7: 2, 4: 1, 3: 1}
	converge(t, "the restarted front-end counts as the others", want, Stats{Sessions: 6, Students: 4, Answered: 4}, fes...)

	// The presenter's connection dropped; they log in through another
	// front-end and take the room back.
	var secondBox inbox
	second := fes[2].Join(Presenter, secondBox.send)
	defer second.Leave()
	assert.True(t, second.(*natsClient).TookOver())
	lecturerBox.sees(t, func(m tui.RoomMsg) bool { return m.Ending == TakenOver })
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
	for _, bad := range []string{`{"live":"\u001b[2J"}`, `{"step":-3}`, `{"leader":"me"}`, `not json`, `{"round":99999999999}`} {
		_, err := kv.PutString(ctx, stateKey, bad)
		require.NoError(t, err)
	}
	_, err = kv.PutString(ctx, stateKey, strings.Repeat("x", 2000))
	assert.Error(t, err, "the bucket refuses a value over 1 KB")
	fe.mu.Lock()
	poll := fe.state.Poll
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

// TestSharedRoomOutage: NATS goes away: every front-end's room freezes
// with a notice, and nothing crashes; an answer given meanwhile is kept;
// NATS comes back (same port, same store) and the room goes on where it
// was.
func TestSharedRoomOutage(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(t, l.Close())
	store := t.TempDir()
	ns, url := natsServer(t, port, store)
	a, b := frontEnd(t, url), frontEnd(t, url)
	var lecturerBox, studentBox inbox
	lecturer := a.Join(Presenter, lecturerBox.send)
	student := b.Join(Student, studentBox.send)
	defer lecturer.Leave()
	defer student.Leave()
	_, addr, _ := start(t, Config{ClassCode: "tulip", Room: b})
	screen := connect(t, addr, "tulip")
	screen.waitFor(t, "Scenarios")
	lecturer.Go("write-without-approval", 0)
	lecturer.Open()
	studentBox.sees(t, func(m tui.RoomMsg) bool { return m.Open })
	screen.waitFor(t, "Predict first")

	ns.Shutdown()
	ns.WaitForShutdown()
	studentBox.sees(t, func(m tui.RoomMsg) bool { return m.Frozen == tui.FrozenForNow })
	screen.waitFor(t, "Room out of reach: frozen")
	require.NoError(t, screen.send("7"))
	screen.waitFor(t, "which code?")
	screen.waitFor(t, "Room out of reach: frozen") // a key does not clear it
	assert.Equal(t, tui.FrozenForNow, studentBox.last(t).Frozen)
	lecturerBox.sees(t, func(m tui.RoomMsg) bool { return m.Frozen == tui.FrozenForNow }) // both front-ends are frozen
	student.Answer(7, 0)
	lecturer.Reveal() // lost: the room is frozen
	assert.Equal(t, Stats{Sessions: 3, Students: 2, Peak: 3}, b.Stats(), "the numbers stay as they were")

	ns2, _ := natsServer(t, port, store)
	defer ns2.Shutdown()
	// The room is back on both.
	lecturerBox.sees(t, func(m tui.RoomMsg) bool { return m.Frozen == tui.NotFrozen })
	studentBox.sees(t, func(m tui.RoomMsg) bool { return m.Frozen == tui.NotFrozen })
	screen.waitFor(t, "The room is back.")
	converge(t, "the answer given while frozen is counted", map[int]int{7: 1}, Stats{Sessions: 3, Students: 2, Answered: 1}, a, b)
	lecturer.Reveal()
	studentBox.sees(t, func(m tui.RoomMsg) bool { return m.Revealed && m.Live == "write-without-approval" })
}

// TestSharedRoomHost: a front-end that hosts the NATS server (loopback:
// no TLS) and one that joins it with an NKey made on first start.
func TestSharedRoomHost(t *testing.T) {
	dir := t.TempDir()
	seed := filepath.Join(dir, "room.nk")
	host, err := OpenSharedRoom(SharedRoomConfig{Listen: "127.0.0.1:0", Room: "lecture", NKeyFile: seed, StoreDir: dir})
	require.NoError(t, err)
	defer host.Close()
	assert.True(t, strings.HasPrefix(host.PublicKey, "U"))
	assert.Empty(t, host.Fingerprint, "no TLS on loopback")
	guest, err := OpenSharedRoom(SharedRoomConfig{URL: host.URL, Room: "lecture", NKeyFile: seed})
	require.NoError(t, err)
	defer guest.Close()
	_, err = OpenSharedRoom(SharedRoomConfig{URL: host.URL, Room: "lecture", Token: "not-the-room-s-token"})
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
	cert, err := roomCertificate(dir, "127.0.0.1")
	require.NoError(t, err)
	fp := certFingerprint(cert.Certificate[0])
	again, err := roomCertificate(dir, "127.0.0.1")
	require.NoError(t, err)
	assert.Equal(t, fp, certFingerprint(again.Certificate[0]), "kept across restarts")
	tc, err := clientTLS(SharedRoomConfig{Fingerprint: "SHA256:else"})
	require.NoError(t, err)
	assert.Error(t, tc.VerifyConnection(stateWith(cert)))
	tc, err = clientTLS(SharedRoomConfig{Fingerprint: fp})
	require.NoError(t, err)
	assert.NoError(t, tc.VerifyConnection(stateWith(cert)))

	assert.NoError(t, CheckRoomURL("nats://127.0.0.1:4222", false))
	assert.ErrorContains(t, CheckRoomURL("nats://10.1.2.3:4222", false), "TLS")
	assert.NoError(t, CheckRoomURL("tls://10.1.2.3:4222", false))
	assert.Error(t, CheckRoomURL("nats://user:pw@127.0.0.1:4222", false))
	assert.Error(t, CheckRoomURL("http://127.0.0.1:4222", false))
}

// TestRoomCertificateIsNeverReplaced: the host's certificate is made
// once; a pair that cannot be read (truncated, half of it gone) is an
// error naming the file, and left as it is — never a new pair whose new
// fingerprint no joining front-end pinned.
func TestRoomCertificateIsNeverReplaced(t *testing.T) {
	dir := t.TempDir()
	certPath, keyPath := filepath.Join(dir, "room-cert.pem"), filepath.Join(dir, "room-key.pem")
	cert, err := roomCertificate(dir, "10.1.2.3")
	require.NoError(t, err)
	fp := certFingerprint(cert.Certificate[0])
	info, err := os.Stat(keyPath)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the key is the host's alone")
	certPEM, err := os.ReadFile(certPath)
	require.NoError(t, err)
	keyPEM, err := os.ReadFile(keyPath)
	require.NoError(t, err)

	require.NoError(t, os.WriteFile(certPath, certPEM[:len(certPEM)/2], 0o644))
	_, err = roomCertificate(dir, "10.1.2.3")
	assert.ErrorContains(t, err, certPath, "a truncated certificate is an error")
	got, _ := os.ReadFile(certPath)
	assert.Equal(t, certPEM[:len(certPEM)/2], got, "and is not written over")

	require.NoError(t, os.Remove(certPath))
	_, err = roomCertificate(dir, "10.1.2.3")
	assert.ErrorContains(t, err, certPath+" is missing", "a key alone is an error")
	assert.NoFileExists(t, certPath)

	require.NoError(t, os.WriteFile(certPath, certPEM, 0o644))
	require.NoError(t, os.Remove(keyPath))
	_, err = roomCertificate(dir, "10.1.2.3")
	assert.ErrorContains(t, err, keyPath+" is missing", "a certificate alone is an error")

	require.NoError(t, os.WriteFile(keyPath, keyPEM, 0o600))
	again, err := roomCertificate(dir, "10.1.2.3")
	require.NoError(t, err)
	assert.Equal(t, fp, certFingerprint(again.Certificate[0]), "restored, the same fingerprint")
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

// TestSharedRoomOverSSH: three front-ends serve one room; the lecturer
// on one, the notes screen and students on the others, over SSH. One
// front-end closes mid-poll: its students are told and may come back
// through another; the histogram follows; it restarts and catches up;
// the lecturer takes the room back through another front-end.
func TestSharedRoomOverSSH(t *testing.T) {
	_, url := natsServer(t, 0, t.TempDir())
	var srvs []*Server
	var rooms []*SharedRoom
	var addrs []string
	serveFrontEnd := func() int {
		fe := frontEnd(t, url)
		srv, addr, _ := start(t, Config{ClassCode: "tulip", PresenterCode: "orchid", NotesCode: "fern", Room: fe})
		srvs, rooms, addrs = append(srvs, srv), append(rooms, fe), append(addrs, addr)
		return len(srvs) - 1
	}
	for range 3 {
		serveFrontEnd()
	}
	lecturer := connect(t, addrs[0], "orchid")
	lecturer.waitFor(t, "You lead the room")
	notes := connect(t, addrs[1], "fern")
	notes.waitFor(t, "Unknown tool — rule 0 of 8")
	students := []*session{connect(t, addrs[1], "tulip"), connect(t, addrs[2], "tulip"), connect(t, addrs[2], "tulip")}
	for _, s := range students {
		s.waitFor(t, "Scenarios")
	}
	require.NoError(t, lecturer.send("4"))
	for _, s := range students {
		// The live scenario, its title held back until the reveal.
		s.waitFor(t, "» 4 · · ·")
	}
	notes.waitFor(t, "Write without approval — rule 0 of 8")
	require.NoError(t, lecturer.send("o"))
	for i, keys := range []string{"71", "4", "73"} {
		s := students[i]
		s.waitFor(t, "Predict first")
		require.NoError(t, s.send(keys[:1]))
		if len(keys) > 1 {
			s.waitFor(t, "which code?")
			require.NoError(t, s.send(keys[1:]))
		}
		s.waitFor(t, "Wait for the reveal")
	}
	// The answers by rule are on the notes screen until the reveal.
	notes.waitFor(t, "rule 4: 1 · rule 7: 2 · answered 3 of 3")
	lecturer.waitFor(t, "answered 3 of 3")

	// Front-end 2 closes mid-poll: its two students are told, and the
	// lecturer's histogram loses their answers.
	ctx, cancel := context.WithTimeout(context.Background(), time.Until(patience(t)))
	defer cancel()
	require.NoError(t, srvs[2].Shutdown(ctx))
	rooms[2].Close()
	for _, s := range students[1:] {
		require.True(t, s.closed(t))
		assert.Contains(t, flat(s.raw()), "This server is closing, the lecture goes on")
	}
	notes.waitFor(t, "rule 7: 1 · answered 1 of 1")

	// One of them comes back through front-end 0 and answers again.
	back := connect(t, addrs[0], "tulip")
	back.waitFor(t, "Predict first")
	require.NoError(t, back.send("7"))
	back.waitFor(t, "which code?")
	require.NoError(t, back.send("3"))
	notes.waitFor(t, "rule 7: 2 · answered 2 of 2")

	// Front-end 2 restarts and catches up: same counts, the question
	// open to a student who connects there.
	i := serveFrontEnd()
	converge(t, "the restarted front-end catches up", map[int]int{7: 2}, Stats{Sessions: 4, Students: 2, Answered: 2}, rooms[0], rooms[1], rooms[i])
	late := connect(t, addrs[i], "tulip")
	late.waitFor(t, "Predict first")
	require.NoError(t, late.send("4"))
	notes.waitFor(t, "rule 4: 1 · rule 7: 2 · answered 3 of 3")

	// The lecturer's laptop dies; they log in through front-end 1 and
	// lead again; the old session is told.
	again := connect(t, addrs[1], "orchid")
	again.waitFor(t, "You lead the room")
	require.True(t, lecturer.closed(t))
	assert.Contains(t, flat(lecturer.raw()), "Another presenter logged in")
	again.waitFor(t, "answered 3 of 3")
	require.NoError(t, again.send("v"))
	students[0].waitFor(t, "Right: rule 7, approval_missing")
	late.waitFor(t, "You said rule 4")
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
		st, err := decodeState(e.Value())
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
			assert.Empty(t, m.Ending, "the presenter is told nothing ended")
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
