package classroom

import (
	"context"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/classroom/config"
	"toolgate/classroom/natshost"
	"toolgate/classroom/room"
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

// frontEnd joins the room at url as a front-end whose presence is
// quick: a beat every 50 ms, gone after 2 s unheard.
func frontEnd(t *testing.T, url string) *room.Shared {
	t.Helper()
	sr, err := room.OpenShared(context.Background(), config.Room{URL: url, Name: "lecture", Token: roomToken,
		Beat: 50 * time.Millisecond, Dead: 2 * time.Second, OpTimeout: 10 * time.Second, ReconnectWait: 50 * time.Millisecond}, testLogf(t))
	require.NoError(t, err)
	t.Cleanup(sr.Close)
	return sr
}

// inbox collects what the room posts to one session.
type inbox struct {
	mu   sync.Mutex
	msgs []tui.RoomMsg
}

func (b *inbox) send(m tui.RoomMsg) { b.mu.Lock(); b.msgs = append(b.msgs, m); b.mu.Unlock() }

// sees waits until the latest message posted satisfies ok: the room
// delivers asynchronously.
func (b *inbox) sees(t *testing.T, ok func(tui.RoomMsg) bool) {
	t.Helper()
	waitUntil(t, "a message the test expects", func() bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		return len(b.msgs) > 0 && ok(b.msgs[len(b.msgs)-1])
	})
}

// last waits for a first message and returns the latest.
func (b *inbox) last(t *testing.T) tui.RoomMsg {
	t.Helper()
	var m tui.RoomMsg
	waitUntil(t, "a first message", func() bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		if len(b.msgs) == 0 {
			return false
		}
		m = b.msgs[len(b.msgs)-1]
		return true
	})
	return m
}

// converge waits until every front-end counts want and has the stats.
func converge(t *testing.T, what string, want map[int]int, stats room.Stats, fes ...*room.Shared) {
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

// TestSharedRoomOutage: NATS goes away: every front-end's room freezes
// with a notice, and nothing crashes; an answer given meanwhile is kept;
// NATS comes back (same port, same store) and the room goes on where it
// was.
func TestSharedRoomOutage(t *testing.T) {
	// Serial: restarts NATS on the port it had, which another test could take meanwhile.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(t, l.Close())
	store := t.TempDir()
	ns, url := natsServer(t, port, store)
	a, b := frontEnd(t, url), frontEnd(t, url)
	var lecturerBox, studentBox inbox
	lecturer := a.Join(room.Presenter, lecturerBox.send)
	student := b.Join(room.Student, studentBox.send)
	defer lecturer.Leave()
	defer student.Leave()
	_, addr, _ := start(t, config.Config{ClassCode: "tulip"}, Lecture{Room: b})
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
	student.Answer(7)
	lecturer.Reveal() // lost: the room is frozen
	assert.Equal(t, room.Stats{Sessions: 3, Students: 2, Peak: 3}, b.Stats(), "the numbers stay as they were")

	ns2, _ := natsServer(t, port, store)
	defer ns2.Shutdown()
	// The room is back on both.
	lecturerBox.sees(t, func(m tui.RoomMsg) bool { return m.Frozen == tui.NotFrozen })
	studentBox.sees(t, func(m tui.RoomMsg) bool { return m.Frozen == tui.NotFrozen })
	screen.waitFor(t, "The room is back.")
	// Both answers given while frozen are counted: the screen's rule 7
	// went to the room as soon as it was picked, before its code.
	converge(t, "the answers given while frozen are counted", map[int]int{7: 2}, room.Stats{Sessions: 3, Students: 2, Answered: 2}, a, b)
	lecturer.Reveal()
	studentBox.sees(t, func(m tui.RoomMsg) bool { return m.Revealed && m.Live == "write-without-approval" })
}

// TestSharedRoomOverSSH: three front-ends serve one room; the lecturer
// on one, the notes screen and students on the others, over SSH. One
// front-end closes mid-poll: its students are told and may come back
// through another; the histogram follows; it restarts and catches up;
// the lecturer takes the room back through another front-end.
func TestSharedRoomOverSSH(t *testing.T) {
	t.Parallel()
	_, url := natsServer(t, 0, t.TempDir())
	var srvs []*Server
	var rooms []*room.Shared
	var addrs []string
	serveFrontEnd := func() int {
		fe := frontEnd(t, url)
		srv, addr, _ := start(t, config.Config{ClassCode: "tulip", PresenterCode: "orchid", NotesCode: "fern"}, Lecture{Room: fe})
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
	converge(t, "the restarted front-end catches up", map[int]int{7: 2}, room.Stats{Sessions: 4, Students: 2, Answered: 2}, rooms[0], rooms[1], rooms[i])
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
