package classroom

// Each test here is an item of issue 24, made against a real server on
// loopback with x/crypto/ssh clients, and what must come of it now.

import (
	"context"
	"io"
	"net"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"toolgate/classroom/config"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"
)

// loopbacks are the addresses a test may connect from: 127.0.0.1, and
// up to three more of 127/8 where the system lets it.
func loopbacks() []string {
	from := []string{"127.0.0.1"}
	for _, ip := range []string{"127.0.0.2", "127.0.0.3", "127.0.0.4"} {
		if canBind(ip) {
			from = append(from, ip)
		}
	}
	return from
}

// memKB is this process's heap and resident memory, after a GC that
// gives freed memory back (resident memory on Linux, 0 elsewhere).
func memKB() (heap, rss int) {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if runtime.GOOS == "linux" {
		rss = status("VmRSS")[0]
	}
	return int(ms.HeapAlloc >> 10), rss
}

// hangUp logs in, asks for a 300×100 PTY and a shell, and hangs up at
// once: without waiting for the shell's reply when quick, else just
// after it.
func hangUp(addr, from string, quick bool) error {
	c, err := dialer{from: from, auth: answerAll("tulip")}.dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		return err
	}
	if err := sess.RequestPty("xterm-256color", 100, 300, gossh.TerminalModes{}); err != nil {
		return err
	}
	if quick {
		_, err = sess.SendRequest("shell", false, nil)
		return err
	}
	_ = sess.Shell() // the server may be gone before it answers
	return nil
}

// hangUps makes n hang-ups from workers goroutines spread over from.
func hangUps(addr string, from []string, n, workers int) error {
	var next atomic.Int64
	return all(workers, func(w int) error {
		for {
			i := int(next.Add(1))
			if i > n {
				return nil
			}
			if err := hangUp(addr, from[i%len(from)], i%2 == 0); err != nil {
				return err
			}
		}
	})
}

// Item 1: students who hang up right after the shell request crashed the
// server (Bubble Tea's Kill racing its Run: "sync: unlock of unlocked
// mutex") or left renderers running for good. 500 of them, under -race
// too, leave no goroutine of theirs and the memory where it was.
func TestHangUpsLeaveNothing(t *testing.T) {
	// Serial: counts goroutines and measures memory, which other tests would add to.
	srv, addr, _ := start(t, config.Config{ClassCode: "tulip", MaxSessions: 1000}, Lecture{})
	from := loopbacks()
	empty := func() bool { return srv.ActiveSessions() == 0 && srv.Room().Stats().Sessions == 0 }
	// A first round runs the code once (what is mapped then stays).
	require.NoError(t, hangUps(addr, from, 20, 4))
	waitUntil(t, "the first round ends", empty)
	waitUntil(t, "its goroutines end", func() bool { return !sessionLeftovers.MatchString(goroutines()) })
	baseG := runtime.NumGoroutine()
	baseHeap, baseRSS := memKB()

	require.NoError(t, hangUps(addr, from, 500, 8))
	waitUntil(t, "the sessions end", empty)
	if pollUntil(leakPatience(t), func() bool {
		return !sessionLeftovers.MatchString(goroutines()) && runtime.NumGoroutine() <= baseG+2
	}) != nil {
		var left []string
		for _, g := range strings.Split(goroutines(), "\n\n") {
			if sessionLeftovers.MatchString(g) {
				left = append(left, g)
			}
		}
		t.Fatalf("goroutines %d, %d before; a session's outlive it:\n%s", runtime.NumGoroutine(), baseG,
			strings.Join(left[:min(len(left), 5)], "\n\n"))
	}
	// A session left behind at 300×100 holds megabytes.
	heap, rss := memKB()
	t.Logf("heap %d KB before, %d KB after 500 hang-ups; RSS %d KB, %d KB", baseHeap, heap, baseRSS, rss)
	assert.Less(t, heap, baseHeap+16<<10, "the heap back near the baseline")
	if baseRSS > 0 && !raceOn {
		assert.Less(t, rss, baseRSS+64<<10, "RSS back near the baseline")
	}
}

// sizes records the window sizes a server's programs are drawn at.
type sizes struct {
	mu  sync.Mutex
	all []config.Size
}

func (s *sizes) saw(msg tea.Msg) {
	if w, ok := msg.(tea.WindowSizeMsg); ok {
		s.mu.Lock()
		s.all = append(s.all, config.Size{Width: w.Width, Height: w.Height})
		s.mu.Unlock()
	}
}

func (s *sizes) largest() config.Size {
	s.mu.Lock()
	defer s.mu.Unlock()
	var m config.Size
	for _, z := range s.all {
		m = config.Size{Width: max(m.Width, z.Width), Height: max(m.Height, z.Height)}
	}
	return m
}

// Item 2: a size report typed in the session (ESC[8;H;Wt, ESC[48;…t)
// redrew it at that size, past --max-pty: the size comes only from the
// PTY and window-change requests.
func TestSizeReportsDoNotResize(t *testing.T) {
	t.Parallel()
	var seen sizes
	_, addr, _ := start(t, config.Config{ClassCode: "tulip"}, Lecture{sawMsg: seen.saw})
	s := connect(t, addr, "tulip")
	s.waitFor(t, "Scenarios")
	require.NoError(t, s.send("\x1b[8;1024;1024t\x1b[48;256;4096;1;1t\x1b[4;4000;4000t\x1b[6;20;20t"))
	// Keys are taken in order: once "2" has opened scenario 2, the
	// reports before it have been taken, or dropped.
	require.NoError(t, s.send("2"))
	s.waitFor(t, "Scenario 2")
	assert.Equal(t, config.Size{Width: 120, Height: 40}, seen.largest(), "drawn at the PTY's size only")

	// The window-change request still resizes, clamped.
	require.NoError(t, s.sess.WindowChange(50, 200))
	waitUntil(t, "the resize", func() bool { return seen.largest() == config.Size{Width: 200, Height: 50} })
}

// Item 2: of what a terminal can send, keys and the mouse reach the
// program, and one answer to each mode the session asked about.
func TestInputFilter(t *testing.T) {
	t.Parallel()
	f := newInputFilter()
	for _, ev := range []uv.Event{
		uv.WindowSizeEvent{Width: 1024, Height: 1024}, uv.PixelSizeEvent{Width: 4096, Height: 4096}, uv.CellSizeEvent{},
		uv.CursorPositionEvent{}, uv.FocusEvent{}, uv.BlurEvent{}, uv.PrimaryDeviceAttributesEvent{},
		uv.BackgroundColorEvent{}, uv.ClipboardEvent{}, uv.TerminalVersionEvent{}, uv.KeyboardEnhancementsEvent{},
		uv.CapabilityEvent{}, uv.KeyReleaseEvent{}, uv.PasteEvent{}, uv.ModeReportEvent{Mode: ansi.ModeFocusEvent},
	} {
		assert.False(t, f.pass(ev), "%T", ev)
	}
	for _, ev := range []uv.Event{uv.KeyPressEvent{Code: 'j'}, uv.MouseClickEvent{}, uv.MouseWheelEvent{}, uv.MouseMotionEvent{}, uv.MouseReleaseEvent{}} {
		assert.True(t, f.pass(ev), "%T", ev)
	}
	sync := uv.ModeReportEvent{Mode: ansi.ModeSynchronizedOutput, Value: ansi.ModeSet}
	assert.True(t, f.pass(sync), "the answer to the session's question")
	assert.False(t, f.pass(sync), "a second answer nobody asked for")
}

// counter counts the input events a server's programs take (keys, and
// the terminal's answers to the session's questions), and their views.
type counter struct{ keys, views atomic.Int64 }

func (c *counter) msg(m tea.Msg) {
	switch m.(type) {
	case tea.KeyPressMsg, tea.ModeReportMsg:
		c.keys.Add(1)
	}
}

func (c *counter) view() { c.views.Add(1) }

// Item 7: keys are handed to a session's program at most eventRate a
// second (a burst of eventBurst); beyond, the reading waits.
func TestKeyFloodIsCapped(t *testing.T) {
	t.Parallel()
	clock := newFakeClock() // still: no key token comes back
	var n counter
	_, addr, _ := start(t, config.Config{ClassCode: "tulip"}, Lecture{now: clock.now, sawMsg: n.msg})
	s := connect(t, addr, "tulip")
	s.waitFor(t, "Scenarios")
	require.NoError(t, s.send(strings.Repeat("jk", 500)))
	waitUntil(t, "the burst is taken", func() bool { return n.keys.Load() >= eventBurst })
	assert.EqualValues(t, eventBurst, n.keys.Load(), "the clock stands still: no key past the burst")
	clock.advance(1e9)
	waitUntil(t, "a second's worth more", func() bool { return n.keys.Load() >= eventBurst+eventRate })
	assert.EqualValues(t, eventBurst+eventRate, n.keys.Load())
}

// Item 7: a session computes its view at most once a frame, whatever
// number of messages it takes; the last state is drawn when the frame
// is over.
func TestViewsAreCoalesced(t *testing.T) {
	t.Parallel()
	var n counter
	_, addr, _ := start(t, config.Config{ClassCode: "tulip"}, Lecture{frame: 1 << 62, sawMsg: n.msg, sawView: n.view})
	c, err := dial(addr, "tulip")
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	s, err := open(c, ptyOpts{})
	require.NoError(t, err)
	require.NoError(t, s.send(strings.Repeat("jk", 50)))
	waitUntil(t, "the keys are taken", func() bool { return n.keys.Load() >= 100 })
	assert.EqualValues(t, 1, n.views.Load(), "one frame: the first (this test's frame never ends)")

	// A frame of the usual length: the newest state is on the screen.
	_, addr, _ = start(t, config.Config{ClassCode: "tulip"}, Lecture{})
	s = connect(t, addr, "tulip")
	s.waitFor(t, "Scenarios")
	require.NoError(t, s.send(strings.Repeat("j", 30)+"2"))
	s.waitFor(t, "Scenario 2")
}

// Item 7: window-change requests are taken at most resizeRate a second
// (a burst of resizeBurst); the client waits for the rest.
func TestWindowChangesAreRateLimited(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	srv, addr, _ := start(t, config.Config{ClassCode: "tulip"}, Lecture{now: clock.now})
	s := connect(t, addr, "tulip")
	s.waitFor(t, "Scenarios")
	for i := range 200 {
		_, err := s.sess.SendRequest("window-change", false, gossh.Marshal(&windowChange{Columns: uint32(80 + i%40), Rows: 30}))
		require.NoError(t, err)
	}
	waitUntil(t, "the burst is taken", func() bool { return srv.resizes.Load() >= resizeBurst })
	assert.EqualValues(t, resizeBurst, srv.resizes.Load(), "the clock stands still: no resize past the burst")
	clock.advance(1e9)
	waitUntil(t, "a second's worth more", func() bool { return srv.resizes.Load() >= resizeBurst+resizeRate })
	assert.EqualValues(t, resizeBurst+resizeRate, srv.resizes.Load())
}

// Item 5: every code is checked as its digest, in constant time (the
// codes themselves, in config.TestCodes); no code set admits nobody.
func TestCodes(t *testing.T) {
	t.Parallel()
	given := codeDigest("tulip")
	assert.True(t, codeMatches(given, "tulip"))
	assert.False(t, codeMatches(given, "tulipX"))
	assert.False(t, codeMatches(codeDigest(""), ""), "no code set admits nobody")
}

// Item 5: behind one NAT, connections that sent wrong codes and wait
// for their answer held the waiting places of the address: they now wait
// out of them (at most MaxWaiting such; past it the oldest goes), and a
// student with the right code from the same address gets in; a silent
// connection gives its place up too.
func TestRightCodeIsNeverKeptOutByOthers(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	srv, addr, log := start(t, config.Config{ClassCode: "tulip", MaxWaiting: 6, MaxWaitingPerAddress: 4}, Lecture{failDelay: time.Hour, now: clock.now})
	errs := make(chan error, 8)
	for i := range 8 {
		go func() { _, err := dial(addr, "guess"); errs <- err }()
		waitUntil(t, "the wrong code is checked", func() bool { return srv.failures.Load() == int64(i+1) })
	}
	student := connect(t, addr, "tulip")
	student.waitFor(t, "Scenarios")
	require.Error(t, <-errs, "two of them were closed: six wait at most")
	require.Error(t, <-errs)
	assert.Contains(t, log.String(), "closed a connection from 127.0.0.1 waiting to log in, for a new one: it had sent a wrong code")
	open, _ := srv.gate.counts()
	assert.Equal(t, 7, open, "six wrong codes wait for their answer, the student is in")

	// Silent connections: their places go to a new one once the server
	// has waited versionGrace for their first byte.
	srv2, addr2, _ := start(t, config.Config{ClassCode: "tulip", MaxWaitingPerAddress: 4}, Lecture{now: clock.now})
	silent := rawConns(t, addr2, "", 4)
	for _, c := range silent {
		require.True(t, admitted(t, c))
	}
	waitUntil(t, "four wait, read", func() bool { _, w := srv2.gate.counts(); return w == 4 && srv2.gate.allRead() })
	clock.advance(versionGrace)
	other := connect(t, addr2, "tulip")
	other.waitFor(t, "Scenarios")
}

// Item 6: one student with many sessions had as many votes. Now the
// sessions of a client that offers a key (OpenSSH offers its keys before
// it asks for a code) vote once; sessions without a key vote once each,
// and the presenter sees how many did.
func TestOneVoteAnIdentity(t *testing.T) {
	t.Parallel()
	srv, addr, _ := start(t, config.Config{ClassCode: "tulip", PresenterCode: "orchid"}, Lecture{})
	lecturer := connect(t, addr, "orchid")
	lecturer.waitFor(t, "You lead the room")
	key := newKey(t)
	var students []*session
	for range 6 {
		students = append(students, connectWith(t, dialer{auth: []gossh.AuthMethod{gossh.PublicKeys(key), answer("tulip")}}, addr, ptyOpts{}))
	}
	students = append(students, connect(t, addr, "tulip"), connect(t, addr, "tulip"))
	for _, s := range students {
		s.waitFor(t, "Scenarios")
	}
	require.NoError(t, lecturer.send("4"))
	require.NoError(t, lecturer.send("o"))
	for _, s := range students {
		s.waitFor(t, "Predict first")
		require.NoError(t, s.send("4"))
		s.waitFor(t, "Wait for the reveal")
	}
	// How many answered shows on the presenter's screen; what, only at
	// the reveal.
	lecturer.waitFor(t, "answered 3 of 8 · 2 without a key")
	require.NoError(t, lecturer.send("v"))
	lecturer.waitFor(t, "rule 4: 3 · answered 3 of 8 · 2 without a key")
	st := srv.Room().Stats()
	assert.Equal(t, [3]int{3, 2, 8}, [3]int{st.Answered, st.Anonymous, st.Students})
}

// Item 6: --max-sessions-per-address, for a hall not behind one NAT.
func TestSessionsPerAddressAreCapped(t *testing.T) {
	t.Parallel()
	srv, addr, log := start(t, config.Config{ClassCode: "tulip", MaxSessionsPerAddress: 2}, Lecture{})
	a, b := connect(t, addr, "tulip"), connect(t, addr, "tulip")
	a.waitFor(t, "Scenarios")
	b.waitFor(t, "Scenarios")
	third := connect(t, addr, "tulip")
	require.True(t, third.closed(t))
	assert.Contains(t, third.raw(), "Sorry, 2 sessions are open from your address already")
	assert.Contains(t, log.String(), "refused a session from 127.0.0.1: 2 open from this address")
	if canBind("127.0.0.2") {
		other := connectWith(t, dialer{from: "127.0.0.2", auth: answerAll("tulip")}, addr, ptyOpts{})
		other.waitFor(t, "Scenarios")
	}
	a.client.Close()
	waitUntil(t, "a place is back", func() bool {
		srv.sourcesMu.Lock()
		defer srv.sourcesMu.Unlock()
		return srv.bySource["127.0.0.1"] == 1
	})
	again := connect(t, addr, "tulip")
	again.waitFor(t, "Scenarios")
}

// Item 5, again: 60 clients from the hall's address that send
// "SSH-2.0-" and nothing more, and reconnect as soon as they are closed,
// held every waiting place of --max-sessions 20 (40): the gate freed
// only a place silent for 2 s, and their new connections were always
// younger, so right codes were refused. A new connection now takes the
// place of the one that has made least progress: the flood's, never a
// student's past its version line; all 12 students get in.
func TestSilentReconnectsKeepNoRightCodeOut(t *testing.T) {
	t.Parallel()
	srv, addr, _ := start(t, config.Config{ClassCode: "tulip", MaxSessions: 20}, Lecture{})
	ctx, stop := context.WithDeadline(context.Background(), leakPatience(t))
	var flood sync.WaitGroup
	defer flood.Wait()
	defer stop()
	var conns atomic.Int64
	for range 60 {
		flood.Go(func() { silentReconnects(ctx, addr, &conns) })
	}
	waitUntil(t, "the flood holds every waiting place", func() bool { _, waiting := srv.gate.counts(); return waiting == 40 })
	in := 0
	for range 12 {
		c, err := dial(addr, "tulip")
		if err != nil {
			t.Logf("refused: %v", err)
			continue
		}
		in++
		_ = c.Close()
	}
	stop()
	flood.Wait()
	t.Logf("the flood made %d connections", conns.Load())
	assert.Equal(t, 12, in, "every right code gets in")
}

// allRead reports whether the server has read every connection.
func (g *gate) allRead() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for c := range g.conns {
		if !c.read {
			return false
		}
	}
	return true
}

// silentReconnects connects to addr, sends "SSH-2.0-" and nothing more,
// and connects again as soon as the server closes the connection, until
// ctx ends; n counts the connections.
func silentReconnects(ctx context.Context, addr string, n *atomic.Int64) {
	d := net.Dialer{Timeout: time.Minute}
	for ctx.Err() == nil {
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			continue
		}
		n.Add(1)
		stop := context.AfterFunc(ctx, func() { _ = c.Close() })
		if _, err := c.Write([]byte("SSH-2.0-")); err == nil {
			_, _ = io.Copy(io.Discard, c)
		}
		stop()
		_ = c.Close()
	}
}
