package classroom

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"toolgate/classroom/config"
	"toolgate/scenarios"
)

// No wait in these tests has a short wall-clock deadline: a wait ends on
// the event it waits for, and gives up only near the test's own deadline
// (go test -timeout), so that a busy machine makes a test slower, never
// red.

// patience is how long a wait may last before the test gives up.
func patience(t testing.TB) time.Time {
	if tt, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if d, ok := tt.Deadline(); ok {
			return d.Add(-time.Until(d) / 10)
		}
	}
	return time.Now().Add(5 * time.Minute)
}

// waitUntil polls cond until it holds, or fails the test (call it on the
// test's goroutine only).
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	if err := pollUntil(patience(t), cond); err != nil {
		t.Fatalf("gave up waiting: %s", what)
	}
}

// pollUntil polls cond until it holds or the deadline passes.
func pollUntil(deadline time.Time, cond func() bool) error {
	for !cond() {
		if time.Now().After(deadline) {
			return errors.New("deadline passed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

// lockedLog is a log the server writes from many goroutines.
type lockedLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// start serves cfg (its zeros the defaults) and l on 127.0.0.1:0 and
// returns the address.
func start(t testing.TB, cfg config.Config, l Lecture) (*Server, string, *lockedLog) {
	t.Helper()
	log := &lockedLog{}
	l.Log = log
	cfg.Listen = "127.0.0.1:0"
	cfg.HostKeyPath = filepath.Join(t.TempDir(), "host_ed25519")
	if l.Scenarios == nil {
		l.Scenarios = scenarios.Builtin()
	}
	if l.closeGrace == 0 {
		l.closeGrace = 100 * time.Millisecond
	}
	srv, err := New(cfg, l)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return srv, ln.Addr().String(), log
}

// answer is a keyboard-interactive client that types code at every prompt.
func answer(code string) gossh.AuthMethod {
	return gossh.KeyboardInteractive(func(_, _ string, qs []string, _ []bool) ([]string, error) {
		answers := make([]string, len(qs))
		for i := range qs {
			answers[i] = code
		}
		return answers, nil
	})
}

// dialer is how a test client connects.
type dialer struct {
	user string
	auth []gossh.AuthMethod
	// from is the local address to connect from ("" is the default).
	from string
}

func (d dialer) dial(addr string) (*gossh.Client, error) {
	nd := net.Dialer{Timeout: time.Minute}
	if d.from != "" {
		nd.LocalAddr = &net.TCPAddr{IP: net.ParseIP(d.from)}
	}
	conn, err := nd.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	user := d.user
	if user == "" {
		user = "student"
	}
	c, chans, reqs, err := gossh.NewClientConn(conn, addr, &gossh.ClientConfig{
		User:            user,
		Auth:            d.auth,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), // a test's own server on loopback
	})
	if err != nil {
		_ = conn.Close()
		return nil, err
	}
	return gossh.NewClient(c, chans, reqs), nil
}

func dial(addr, code string) (*gossh.Client, error) {
	return dialer{auth: []gossh.AuthMethod{answer(code)}}.dial(addr)
}

// session is a student's (or the lecturer's) terminal: an SSH client with
// a PTY, whose screen output is collected.
type session struct {
	client *gossh.Client
	sess   *gossh.Session
	in     io.WriteCloser
	// term is a terminal emulator the output is played into, so that the
	// screen can be read as a person sees it; mu guards it and out.
	term *vt.Emulator
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
	// changed is signalled after each output: a wait on the screen that
	// looks only then costs nothing between frames.
	changed chan struct{}
	// ended tells the goroutine that returns the terminal's answers to
	// stop.
	ended atomic.Bool
}

// ptyOpts is the terminal a session asks for.
type ptyOpts struct {
	width, height int
	lang          string
	none          bool // no PTY at all
}

// open starts the trainer on a logged-in client; it never touches t, so
// it may run on any goroutine.
func open(c *gossh.Client, o ptyOpts) (*session, error) {
	if o.width == 0 {
		o.width, o.height = 120, 40
	}
	sess, err := c.NewSession()
	if err != nil {
		return nil, err
	}
	if o.lang != "" {
		_ = sess.Setenv("LANG", o.lang)
	}
	if !o.none {
		if err := sess.RequestPty("xterm-256color", o.height, o.width, gossh.TerminalModes{}); err != nil {
			return nil, err
		}
	}
	in, err := sess.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := sess.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := sess.StderrPipe()
	if err != nil {
		return nil, err
	}
	s := &session{client: c, sess: sess, in: in, done: make(chan struct{}), changed: make(chan struct{}, 1), term: vt.NewEmulator(min(o.width, 600), min(o.height, 300))}
	go func() {
		defer close(s.done)
		buf := make([]byte, 32<<10)
		for {
			n, err := stdout.Read(buf)
			s.mu.Lock()
			s.out.Write(buf[:n])
			_, _ = s.term.Write(buf[:n])
			s.mu.Unlock()
			select {
			case s.changed <- struct{}{}:
			default:
			}
			if err != nil {
				// Wake the answers goroutine with a query of our own, so it
				// ends without closing the emulator under its Read.
				s.ended.Store(true)
				s.mu.Lock()
				_, _ = s.term.Write([]byte(ansi.RequestPrimaryDeviceAttributes))
				s.mu.Unlock()
				return
			}
		}
	}()
	go func() {
		// The terminal's answers to the program's queries go back, as a
		// real terminal's would.
		buf := make([]byte, 1024)
		for {
			n, err := s.term.Read(buf)
			if err != nil || s.ended.Load() {
				return
			}
			_, _ = in.Write(buf[:n])
		}
	}()
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := stderr.Read(buf)
			s.mu.Lock()
			s.out.Write(buf[:n])
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	if err := sess.Shell(); err != nil {
		return nil, err
	}
	return s, nil
}

// connect logs in with code and starts the trainer in a 120×40 PTY.
func connect(t testing.TB, addr, code string) *session {
	t.Helper()
	return connectWith(t, dialer{auth: []gossh.AuthMethod{answer(code)}}, addr, ptyOpts{})
}

func connectWith(t testing.TB, d dialer, addr string, o ptyOpts) *session {
	t.Helper()
	c, err := d.dial(addr)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	s, err := open(c, o)
	require.NoError(t, err)
	return s
}

// screen is what the terminal shows now.
func (s *session) screen() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.term.String()
}

// raw is everything the session printed, without escape codes: for the
// lines printed before a session is closed.
func (s *session) raw() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ansi.Strip(s.out.String())
}

// await waits until the screen shows text, or the deadline passes.
func (s *session) await(text string, deadline time.Time) error {
	if pollUntil(deadline, func() bool { return strings.Contains(s.screen(), text) }) != nil {
		return fmt.Errorf("never saw %q; screen:\n%s", text, s.screen())
	}
	return nil
}

// waitFor waits until the screen shows text (test goroutine only).
func (s *session) waitFor(t testing.TB, text string) {
	t.Helper()
	if err := s.await(text, patience(t)); err != nil {
		t.Fatal(err)
	}
}

// sees waits until the screen shows text, looking after each output
// only, and returns when it saw it.
func (s *session) sees(text string, deadline time.Time) (time.Time, error) {
	timeout := time.NewTimer(time.Until(deadline))
	defer timeout.Stop()
	for {
		if strings.Contains(s.screen(), text) {
			return time.Now(), nil
		}
		select {
		case <-s.changed:
		case <-s.done:
			if strings.Contains(s.screen(), text) {
				return time.Now(), nil
			}
			return time.Time{}, fmt.Errorf("closed before it showed %q", text)
		case <-timeout.C:
			return time.Time{}, fmt.Errorf("never saw %q; screen:\n%s", text, s.screen())
		}
	}
}

func (s *session) send(keys string) error {
	_, err := s.in.Write([]byte(keys))
	return err
}

// closed waits for the server to end the session.
func (s *session) closed(t testing.TB) bool {
	select {
	case <-s.done:
		return true
	case <-time.After(time.Until(patience(t))):
		return false
	}
}
