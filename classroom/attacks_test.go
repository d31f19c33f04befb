package classroom

// Each test here is one attack of issue 11, made against a real server on
// loopback with x/crypto/ssh clients, and what must come of it now.

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"toolgate/classroom/config"
	"toolgate/classroom/room"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"
)

// leakPatience bounds a wait whose failure is "it never happens": long
// past what a busy machine needs, short of the package's timeout.
func leakPatience(t testing.TB) time.Time {
	if p, bound := patience(t), time.Now().Add(time.Minute); p.Before(bound) {
		return p
	}
	return time.Now().Add(time.Minute)
}

func newKey(t testing.TB) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	s, err := gossh.NewSignerFromKey(priv)
	require.NoError(t, err)
	return s
}

func keysFile(t testing.TB, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "keys")
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	return path
}

func authorized(s gossh.Signer) string {
	return strings.TrimSpace(string(gossh.MarshalAuthorizedKey(s.PublicKey())))
}

// queryOnly offers a public key whose private half it does not have: the
// server's answer to the unsigned query says the key would do, and the
// signature that follows is refused — what `ssh -i lecturer` does with
// lecturer.pub alone at hand. The login then goes on to the next method.
type queryOnly struct{ pub gossh.PublicKey }

func (q queryOnly) PublicKey() gossh.PublicKey { return q.pub }
func (q queryOnly) Sign(io.Reader, []byte) (*gossh.Signature, error) {
	return &gossh.Signature{Format: "not-a-signature"}, nil
}

// Item 1: the lecturer's public key and the class code (or an open room)
// make a student, not a presenter; only a signed login with the key leads.
func TestPresenterKeyWithoutItsPrivateHalf(t *testing.T) {
	t.Parallel()
	lecturer := newKey(t)
	for _, tc := range []struct {
		name string
		cfg  config.Config
		code string
	}{
		{"class code", config.Config{ClassCode: "tulip"}, "tulip"},
		{"open room", config.Config{Open: true}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.PresenterKeys = keysFile(t, authorized(lecturer))
			srv, addr, log := start(t, tc.cfg, Lecture{})
			attacker := connectWith(t, dialer{auth: []gossh.AuthMethod{
				gossh.PublicKeys(queryOnly{lecturer.PublicKey()}), answer(tc.code)}}, addr, ptyOpts{})
			attacker.waitFor(t, "Scenarios")
			assert.Equal(t, 1, srv.Room().Stats().Students, "the attacker is a student")
			assert.NotContains(t, attacker.screen(), "You lead the room")
			assert.Contains(t, log.String(), "as student (keyboard-interactive)")

			// The lecturer, with the private key, leads.
			real := connectWith(t, dialer{user: "lecturer", auth: []gossh.AuthMethod{gossh.PublicKeys(lecturer)}}, addr, ptyOpts{})
			real.waitFor(t, "You lead the room")
			assert.Contains(t, log.String(), "as presenter (public key)")
		})
	}
}

// Item 2: a huge PTY is clamped, the student is told, and the server's
// memory stays bounded (6000×6000 was a 36M-cell frame: out of memory).
func TestPTYSizeIsClamped(t *testing.T) {
	// Serial: measures the heap, which other tests would grow.
	_, addr, log := start(t, config.Config{ClassCode: "tulip"}, Lecture{})
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	s := connectWith(t, dialer{auth: answerAll("tulip")}, addr, ptyOpts{width: 6000, height: 6000})
	s.waitFor(t, "Your terminal is 6000×6000; drawn at most 300×100.")
	require.NoError(t, s.sess.WindowChange(6000, 6000))
	require.NoError(t, s.send("j"))
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	assert.Less(t, int64(after.HeapAlloc)-int64(before.HeapAlloc), int64(200<<20), "heap growth")
	assert.Contains(t, log.String(), "300x100")

	// A resize past the limit later in the session is said too.
	later := connectWith(t, dialer{auth: answerAll("tulip")}, addr, ptyOpts{width: 120, height: 40})
	later.waitFor(t, "Scenarios")
	require.NoError(t, later.sess.WindowChange(3000, 4000))
	later.waitFor(t, "Your terminal is 4000×3000; drawn at most 300×100.")
}

// The request filter clamps the PTY and every resize.
func TestRequestsAreClamped(t *testing.T) {
	t.Parallel()
	s := &Server{cfg: config.Config{MaxPTY: config.Size{Width: 500, Height: 200}}, lec: Lecture{now: time.Now}}
	st := newConnState(nil)
	in := make(chan *gossh.Request, 4)
	out := make(chan *gossh.Request, 4)
	in <- &gossh.Request{Type: "pty-req", Payload: gossh.Marshal(&ptyRequest{Term: "xterm", Columns: 6000, Rows: 6000})}
	in <- &gossh.Request{Type: "window-change", Payload: gossh.Marshal(&windowChange{Columns: 80, Rows: 9000})}
	close(in)
	s.checkRequests(nil, st, in, out)
	var p ptyRequest
	req := <-out
	require.NoError(t, gossh.Unmarshal(req.Payload, &p))
	assert.Equal(t, [2]uint32{500, 200}, [2]uint32{p.Columns, p.Rows})
	assert.Equal(t, config.Size{Width: 80, Height: 200}, st.window(), "a resize is clamped too")
	_, ok := <-out
	assert.False(t, ok, "the resize went to the trainer, not to the library")
}

func canBind(ip string) bool {
	l, err := net.Listen("tcp", ip+":0")
	if err != nil {
		return false
	}
	_ = l.Close()
	return true
}

// rawConns opens n TCP connections from the address from ("" any) that
// say nothing.
func rawConns(t testing.TB, addr, from string, n int) []net.Conn {
	t.Helper()
	d := net.Dialer{}
	if from != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(from)}
	}
	conns := make([]net.Conn, 0, n)
	for range n {
		c, err := d.Dial("tcp", addr)
		require.NoError(t, err)
		t.Cleanup(func() { _ = c.Close() })
		conns = append(conns, c)
	}
	return conns
}

// admitted tells whether the server took c in (it sends its version
// line) or closed it at once.
func admitted(t testing.TB, c net.Conn) bool {
	t.Helper()
	_ = c.SetReadDeadline(patience(t))
	buf := make([]byte, 8)
	n, err := io.ReadFull(c, buf)
	if n == 8 && strings.HasPrefix(string(buf), "SSH-2.0-") {
		return true
	}
	var ne net.Error
	require.False(t, errors.As(err, &ne) && ne.Timeout(), "neither admitted nor closed")
	return false
}

// waitClosed waits until the server closes c.
func waitClosed(t testing.TB, c net.Conn) {
	t.Helper()
	_ = c.SetReadDeadline(leakPatience(t))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("the server never closed the connection")
	}
}

// Item 3: connections that do not log in are closed at the deadline,
// whatever they are doing.
func TestConnectionsThatDoNotLogInAreClosed(t *testing.T) {
	t.Parallel()
	srv, addr, _ := start(t, config.Config{ClassCode: "tulip", LoginTimeout: 300 * time.Millisecond}, Lecture{})
	idle := rawConns(t, addr, "", 20)
	for _, c := range idle {
		waitClosed(t, c)
	}
	// Logged in, but never asking for a shell: closed as well.
	if c, err := dial(addr, "tulip"); err == nil {
		done := make(chan struct{})
		go func() { _ = c.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Until(leakPatience(t))):
			t.Fatal("a login without a session stays open")
		}
	}
	// The client may see the close a moment before the server counts it.
	waitUntil(t, "every place is given back", func() bool { open, waiting := srv.gate.counts(); return open == 0 && waiting == 0 })
}

// Item 3: connections waiting to log in are capped per address and in
// total. At the caps a new connection takes the place of the one that
// has made least progress (a silent one, the longest silent first); only
// connections that have logged in keep theirs whatever comes, and when
// every place is such a new one is refused.
func TestWaitingConnectionsAreCapped(t *testing.T) {
	t.Parallel()
	for _, ip := range []string{"127.0.0.2", "127.0.0.3"} {
		if !canBind(ip) {
			t.Skipf("cannot connect from %s here", ip)
		}
	}
	srv, addr, log := start(t, config.Config{ClassCode: "tulip", MaxWaiting: 6, MaxWaitingPerAddress: 4}, Lecture{})
	flood := rawConns(t, addr, "127.0.0.1", 10)
	for _, c := range flood[:6] {
		waitClosed(t, c)
	}
	for _, c := range flood[6:] {
		assert.True(t, admitted(t, c), "the 4 newest of the address wait")
	}
	assert.Equal(t, 1, strings.Count(log.String(), "closed a connection from 127.0.0.1 waiting to log in, for a new one: it had not sent its version"),
		"a flood is one line of log")

	student := connectWith(t, dialer{from: "127.0.0.2", auth: answerAll("tulip")}, addr, ptyOpts{})
	student.waitFor(t, "Scenarios")

	// 4 + 3 > 6: the longest silent of all goes.
	more := rawConns(t, addr, "127.0.0.3", 3)
	for _, c := range more {
		assert.True(t, admitted(t, c))
	}
	waitClosed(t, flood[6])
	waitUntil(t, "6 wait", func() bool { _, waiting := srv.gate.counts(); return waiting == 6 })

	// Logged in, without a session yet: never put out.
	for _, c := range append(flood, more...) {
		_ = c.Close()
	}
	waitUntil(t, "the places are given back", func() bool { _, waiting := srv.gate.counts(); return waiting == 0 })
	for _, from := range []string{"127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.3", "127.0.0.3"} {
		c, err := dialer{from: from, auth: answerAll("tulip")}.dial(addr)
		require.NoError(t, err)
		t.Cleanup(func() { _ = c.Close() })
	}
	assert.False(t, admitted(t, rawConns(t, addr, "127.0.0.1", 1)[0]), "4 logged in from the address")
	assert.Contains(t, log.String(), "refused a connection from 127.0.0.1: too many connections from this address waiting to log in")
	assert.False(t, admitted(t, rawConns(t, addr, "127.0.0.2", 1)[0]), "6 logged in in all")
	assert.Contains(t, log.String(), "refused a connection from 127.0.0.2: too many connections waiting to log in")
	_, waiting := srv.gate.counts()
	assert.Equal(t, 6, waiting)
	student.waitFor(t, "Scenarios")
}

// Item 3: near the descriptor limit, new connections are refused at once
// and the students in the room keep theirs.
func TestConnectionsAreRefusedNearTheDescriptorLimit(t *testing.T) {
	t.Parallel()
	_, addr, log := start(t, config.Config{ClassCode: "tulip"}, Lecture{fdLimit: fdReserve + 3})
	assert.Contains(t, log.String(), "the file descriptor limit (67) leaves room for 3 connections")
	student := connect(t, addr, "tulip")
	student.waitFor(t, "Scenarios")
	conns := rawConns(t, addr, "", 4)
	got := []bool{}
	for _, c := range conns {
		got = append(got, admitted(t, c))
	}
	assert.Equal(t, []bool{true, true, false, false}, got)
	assert.Contains(t, log.String(), "near the file descriptor limit")
	require.NoError(t, student.send("2"))
	student.waitFor(t, "Scenario 2")
}

// fakeClock is a clock a test moves by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)} }

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// Item 4: wrong codes from one address are throttled — answered late,
// never locked out (issue 24 item 5: a hall behind one NAT is one
// address); a student who mistyped twice still gets in.
func TestWrongCodesAreThrottledPerAddress(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	srv, addr, log := start(t, config.Config{ClassCode: "tulip", LoginFailures: 5}, Lecture{failDelay: time.Millisecond, failRefill: time.Hour, now: clock.now})

	var mu sync.Mutex
	tries := 0
	typist := gossh.RetryableAuthMethod(gossh.KeyboardInteractive(func(_, _ string, qs []string, _ []bool) ([]string, error) {
		mu.Lock()
		defer mu.Unlock()
		tries++
		code := "tuilp"
		if tries == 3 {
			code = "tulip"
		}
		return []string{code}, nil
	}), 3)
	student := connectWith(t, dialer{auth: []gossh.AuthMethod{typist}}, addr, ptyOpts{})
	student.waitFor(t, "Scenarios")

	// Three more guesses use up the address's five quick answers: the
	// next wrong code waits for its turn (here one an hour).
	for range 3 {
		_, err := dial(addr, "guess")
		require.Error(t, err)
	}
	waiting := make(chan error, 1)
	go func() { _, err := dial(addr, "guess"); waiting <- err }()
	waitUntil(t, "the sixth wrong code is checked", func() bool { return srv.failures.Load() == 6 })
	later := connect(t, addr, "tulip")
	later.waitFor(t, "Scenarios")
	select {
	case <-waiting:
		t.Fatal("the wrong code was answered before its turn")
	default:
	}
	assert.Equal(t, 1, strings.Count(log.String(), "auth failure from 127.0.0.1"), "a flood is a line every 10 s")
	assert.NotContains(t, log.String(), "refused unchecked")
}

// goroutines is every goroutine's stack.
func goroutines() string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// sessionLeftovers are the frames a session's goroutines run in.
var sessionLeftovers = regexp.MustCompile(`bubbletea/v2\.\(\*Program\)|ultraviolet\.\(\*TerminalReader\)|classroom\.pumpKeys|classroom\.\(\*Server\)\.runTrainer|classroom\.\(\*member\)\.deliver`)

// Item 5: sessions that paste 200 KB of keys and hang up leave nothing
// behind.
func TestPasteAndDisconnectLeavesNothing(t *testing.T) {
	// Serial: counts the sessions' goroutines left, which other tests would add to.
	srv, addr, _ := start(t, config.Config{ClassCode: "tulip"}, Lecture{})
	keys := strings.Repeat("jk", 50<<10) + "\x1b[200~" + strings.Repeat("x", 100<<10)
	for range 5 {
		c, err := dial(addr, "tulip")
		require.NoError(t, err)
		s, err := open(c, ptyOpts{})
		require.NoError(t, err)
		require.NoError(t, s.await("Scenarios", patience(t)))
		require.NoError(t, s.send(keys))
		_ = c.Close()
	}
	waitUntil(t, "the sessions end", func() bool { return srv.ActiveSessions() == 0 && srv.Room().Stats().Sessions == 0 })
	if pollUntil(leakPatience(t), func() bool { return !sessionLeftovers.MatchString(goroutines()) }) != nil {
		var left []string
		for _, g := range strings.Split(goroutines(), "\n\n") {
			if sessionLeftovers.MatchString(g) {
				left = append(left, g)
			}
		}
		t.Fatalf("a session's goroutines outlive it:\n%s", strings.Join(left, "\n\n"))
	}
}

// Item 6: the what-if save key writes nothing on the server.
func TestServedSessionWritesNoFile(t *testing.T) {
	// Serial: t.Chdir changes the whole process.
	dir := t.TempDir()
	t.Chdir(dir)
	_, addr, _ := start(t, config.Config{ClassCode: "tulip"}, Lecture{})
	s := connect(t, addr, "tulip")
	s.waitFor(t, "Scenarios")
	require.NoError(t, s.send("1"))
	s.waitFor(t, "Scenario 1")
	require.NoError(t, s.send("w"))
	s.waitFor(t, "What if…")
	// Change a knob, so there is an experiment to save; then save, and
	// leave what-if: keys are handled in order, so once what-if is gone
	// the save key has been handled.
	require.NoError(t, s.send("\x1b[C"))
	s.waitFor(t, "WHAT-IF")
	require.NoError(t, s.send("sw"))
	waitUntil(t, "what-if ends", func() bool { return !strings.Contains(s.screen(), "What if…") })
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing written in the server's working directory")
	assert.NotContains(t, s.raw(), "saved as")
}

// Item 7: the lecturer reconnects and takes the room back; a second
// presenter login takes over explicitly.
func TestPresenterReconnectsAndTakesOver(t *testing.T) {
	t.Parallel()
	srv, addr, log := start(t, config.Config{ClassCode: "tulip", PresenterCode: "orchid"}, Lecture{})
	first := connect(t, addr, "orchid")
	first.waitFor(t, "You lead the room")
	student := connect(t, addr, "tulip")
	student.waitFor(t, "Scenarios")

	// The lecturer's connection drops; they log in again and lead.
	first.client.Close()
	waitUntil(t, "the room forgets the lecturer", func() bool { return srv.Room().Stats().Sessions == 1 })
	second := connect(t, addr, "orchid")
	second.waitFor(t, "You lead the room")
	require.NoError(t, second.send("4"))
	student.waitFor(t, "Scenario 4")

	// A second presenter login while one leads: it takes over, and the
	// session that led is told and closed.
	third := connect(t, addr, "orchid")
	third.waitFor(t, "You lead the room")
	require.True(t, second.closed(t), "the ousted presenter's session ends")
	assert.Contains(t, second.raw(), "Another presenter logged in")
	assert.Contains(t, log.String(), "took the room over")
	require.NoError(t, third.send("5"))
	student.waitFor(t, "Scenario 5")
	waitUntil(t, "the ousted session has left the room", func() bool { return srv.Room().Stats() == room.Stats{Sessions: 2, Peak: 2, Students: 1} })
}

// Item 8: whatever the flags, keyboard-interactive asks for the code.
func TestOpenRoomPromptsForThePresenterCode(t *testing.T) {
	t.Parallel()
	_, addr, _ := start(t, config.Config{Open: true, PresenterCode: "orchid"}, Lecture{failDelay: time.Millisecond})
	var mu sync.Mutex
	var prompts []string
	typing := func(code string) gossh.AuthMethod {
		return gossh.KeyboardInteractive(func(_, _ string, qs []string, _ []bool) ([]string, error) {
			mu.Lock()
			prompts = append(prompts, qs...)
			mu.Unlock()
			return []string{code}, nil
		})
	}
	lecturer := connectWith(t, dialer{auth: []gossh.AuthMethod{typing("orchid")}}, addr, ptyOpts{})
	lecturer.waitFor(t, "You lead the room")
	student := connectWith(t, dialer{auth: []gossh.AuthMethod{typing("")}}, addr, ptyOpts{})
	student.waitFor(t, "Scenarios")
	assert.NotContains(t, student.screen(), "You lead the room")
	_, err := dialer{auth: []gossh.AuthMethod{typing("orchdi")}}.dial(addr)
	assert.Error(t, err, "a wrong presenter code is a failed login, not a free guess")
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{"Presenter code (students: just press Enter) / 主讲口令（学生直接按回车）: "}, slicesCompact(prompts))
}

func slicesCompact(s []string) []string {
	var out []string
	for _, v := range s {
		if len(out) == 0 || out[len(out)-1] != v {
			out = append(out, v)
		}
	}
	return out
}

// Item 9: a bad line in the keys file is reported with its line and
// skipped, at start and when the file changes while serving; the good
// keys still log in, and a key taken out no longer does.
func TestBadKeyLinesAreReportedAndSkipped(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	alice, bob := newKey(t), newKey(t)
	path := keysFile(t, authorized(alice), "ssh-ed25519 not-base64", authorized(bob))
	_, addr, log := start(t, config.Config{AuthorizedKeys: path}, Lecture{now: clock.now})
	assert.Contains(t, log.String(), "keys "+path+":2: skipped: not a public key")
	login := func(k gossh.Signer) error {
		c, err := dialer{auth: []gossh.AuthMethod{gossh.PublicKeys(k)}}.dial(addr)
		if err == nil {
			_ = c.Close()
		}
		return err
	}
	require.NoError(t, login(alice))
	require.NoError(t, login(bob))

	// While serving: a bad line appended, bob taken out.
	require.NoError(t, os.WriteFile(path, []byte(authorized(alice)+"\n\nfrom=\"10.0.0.0/8\" "+authorized(bob)+"\nssh-rsa AAAA\n"), 0o600))
	future := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(path, future, future))
	clock.advance(2 * keysRecheck)
	require.NoError(t, login(alice), "the good key still logs in")
	assert.Error(t, login(bob), "a key with options is skipped, not read without them")
	assert.Contains(t, log.String(), "keys "+path+":3: skipped: options are not supported")
	assert.Contains(t, log.String(), "keys "+path+":4: skipped: not a public key")
}

// Item 10: what a client sends is quoted in the log: no forged lines, no
// escape sequences on the lecturer's terminal.
func TestLogQuotesWhatClientsSend(t *testing.T) {
	t.Parallel()
	_, addr, log := start(t, config.Config{ClassCode: "tulip"}, Lecture{failDelay: time.Millisecond})
	forged := "x\n15:00:00 connect 10.0.0.1:1 user \"ada\" as presenter (public key)\x1b[2J\x1b]0;pwned\a"
	_, err := dialer{user: forged, auth: answerAll("wrong")}.dial(addr)
	require.Error(t, err)
	s := connectWith(t, dialer{user: forged, auth: answerAll("tulip")}, addr, ptyOpts{})
	s.waitFor(t, "Scenarios")
	s.client.Close()
	waitUntil(t, "the disconnect is logged", func() bool { return strings.Contains(log.String(), "disconnect") })
	out := log.String()
	assert.NotContains(t, out, "\x1b", "no escape sequence reaches the log")
	assert.NotContains(t, out, "\a")
	line := regexp.MustCompile(`^\d\d:\d\d:\d\d `)
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		assert.Regexp(t, line, l, "every line is the server's own")
		assert.NotRegexp(t, `^\d\d:\d\d:\d\d 15:00:00`, l)
	}
	assert.Contains(t, out, `user "x\n15:00:00 connect`)
}

// Issue 21, item 19: the login asks in both languages (the client's
// locale comes only after it).
func TestTheClassCodeIsAskedInBothLanguages(t *testing.T) {
	t.Parallel()
	_, addr, _ := start(t, config.Config{ClassCode: "tulip"}, Lecture{failDelay: time.Millisecond})
	var prompts []string
	var instruction string
	var mu sync.Mutex
	auth := gossh.KeyboardInteractive(func(_, instr string, qs []string, _ []bool) ([]string, error) {
		mu.Lock()
		defer mu.Unlock()
		prompts, instruction = append(prompts, qs...), instr
		return []string{"tulip"}, nil
	})
	s := connectWith(t, dialer{auth: []gossh.AuthMethod{auth}}, addr, ptyOpts{})
	s.waitFor(t, "Scenarios")
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{"Class code / 课堂口令: "}, prompts)
	assert.Contains(t, instruction, "欢迎")
}

// A student with the class code who logs in and out in a loop is not a
// flood of lines: an address's sessions are logged within a budget (a
// hall's worth at once, then two lines a second), and the next line let
// through says how many were held back. Before, 8 clients on loopback
// wrote 11,634 lines (1.3 MB) in 10 s.
func TestSessionLinesAreWithinABudget(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	srv, addr, log := start(t, config.Config{ClassCode: "tulip"}, Lecture{now: clock.now, sessionLogBurst: 4})
	session := func() {
		s := connect(t, addr, "tulip")
		s.waitFor(t, "Scenarios")
		s.client.Close()
		waitUntil(t, "the session ends", func() bool { return srv.ActiveSessions() == 0 })
	}
	for range 6 {
		session()
	}
	lines := func() int {
		return strings.Count(log.String(), " connect 127.0.0.1") + strings.Count(log.String(), " disconnect 127.0.0.1")
	}
	waitUntil(t, "the first sessions are logged", func() bool { return lines() >= 4 })
	assert.Equal(t, 4, lines(), "the burst, then nothing:\n%s", log.String())
	clock.advance(time.Minute)
	session()
	waitUntil(t, "the budget is back", func() bool { return lines() >= 6 })
	assert.Contains(t, log.String(), "8 lines of sessions from this address were held back")
}
