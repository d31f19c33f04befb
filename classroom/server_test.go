package classroom

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"toolgate/scenarios"
)

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

// start serves on 127.0.0.1:0 and returns the address.
func start(t testing.TB, cfg Config) (*Server, string, *lockedLog) {
	t.Helper()
	log := &lockedLog{}
	cfg.Log = log
	cfg.Listen = "127.0.0.1:0"
	cfg.HostKeyPath = filepath.Join(t.TempDir(), "host_ed25519")
	if cfg.Scenarios == nil {
		cfg.Scenarios = scenarios.MustBuiltin()
	}
	srv, err := New(cfg)
	require.NoError(t, err)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return srv, l.Addr().String(), log
}

// session is a student's (or the lecturer's) terminal: an SSH client with
// a PTY, whose screen output is collected.
type session struct {
	t      testing.TB
	client *gossh.Client
	sess   *gossh.Session
	in     io.WriteCloser
	// term is a terminal emulator the output is played into, so that the
	// screen can be read as a person sees it; mu guards it and out.
	term *vt.Emulator
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
	// ended tells the goroutine that returns the terminal's answers to
	// stop.
	ended atomic.Bool
}

func dial(_ testing.TB, addr, user, code string) (*gossh.Client, error) {
	return gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User: user,
		Auth: []gossh.AuthMethod{gossh.KeyboardInteractive(func(_, _ string, qs []string, _ []bool) ([]string, error) {
			answers := make([]string, len(qs))
			for i := range qs {
				answers[i] = code
			}
			return answers, nil
		})},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), // a test's own server on loopback
		Timeout:         10 * time.Second,
	})
}

// connect logs in and starts the trainer in a PTY of the given size.
func connect(t testing.TB, addr, code string, lang string, pty bool) *session {
	t.Helper()
	c, err := dial(t, addr, "student", code)
	require.NoError(t, err)
	sess, err := c.NewSession()
	require.NoError(t, err)
	if lang != "" {
		_ = sess.Setenv("LANG", lang)
	}
	if pty {
		require.NoError(t, sess.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}))
	}
	in, err := sess.StdinPipe()
	require.NoError(t, err)
	stderr, err := sess.StderrPipe()
	require.NoError(t, err)
	s := &session{t: t, client: c, sess: sess, in: in, done: make(chan struct{}), term: vt.NewEmulator(120, 40)}
	stdout, err := sess.StdoutPipe()
	require.NoError(t, err)
	go func() {
		defer close(s.done)
		buf := make([]byte, 32<<10)
		for {
			n, err := stdout.Read(buf)
			s.mu.Lock()
			s.out.Write(buf[:n])
			_, _ = s.term.Write(buf[:n])
			s.mu.Unlock()
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
	require.NoError(t, sess.Shell())
	t.Cleanup(func() { _ = c.Close() })
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

// waitFor waits until the output contains text, or fails.
func (s *session) waitFor(text string) {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(s.screen(), text) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatalf("never saw %q; screen:\n%s", text, tail(s.screen(), 3000))
}

func (s *session) send(keys string) {
	s.t.Helper()
	_, err := s.in.Write([]byte(keys))
	require.NoError(s.t, err)
}

// closed waits for the server to end the session.
func (s *session) closed() bool {
	select {
	case <-s.done:
		return true
	case <-time.After(10 * time.Second):
		return false
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func TestWrongCodeIsRefused(t *testing.T) {
	_, addr, log := start(t, Config{ClassCode: "tulip"})
	_, err := dial(t, addr, "student", "daisy")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unable to authenticate")
	assert.Eventually(t, func() bool { return strings.Contains(log.String(), "auth failure from 127.0.0.1") }, 5*time.Second, 20*time.Millisecond)
	assert.NotContains(t, log.String(), "daisy", "the log never holds a code")
}

func TestNoPTYIsRefused(t *testing.T) {
	_, addr, _ := start(t, Config{ClassCode: "tulip"})
	s := connect(t, addr, "tulip", "", false)
	require.True(t, s.closed())
	assert.Contains(t, s.raw(), "Requires an active PTY")
}

func TestCommandsAreRefused(t *testing.T) {
	_, addr, _ := start(t, Config{ClassCode: "tulip"})
	c, err := dial(t, addr, "student", "tulip")
	require.NoError(t, err)
	defer c.Close()
	sess, err := c.NewSession()
	require.NoError(t, err)
	out, err := sess.CombinedOutput("cat /etc/passwd")
	require.Error(t, err)
	assert.Contains(t, string(out), "toolgate serves the interactive trainer only")
	sub, err := c.NewSession()
	require.NoError(t, err)
	assert.Error(t, sub.RequestSubsystem("sftp"), "no subsystems")
	_, err = c.Dial("tcp", "127.0.0.1:22")
	assert.Error(t, err, "no port forwarding")
}

func TestNoLoginWithoutAWay(t *testing.T) {
	_, err := New(Config{Scenarios: scenarios.MustBuiltin(), HostKeyPath: filepath.Join(t.TempDir(), "k")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--open")
}

func TestTheLecture(t *testing.T) {
	srv, addr, log := start(t, Config{ClassCode: "tulip", PresenterCode: "orchid"})
	lecturer := connect(t, addr, "orchid", "", true)
	lecturer.waitFor("You lead the room")
	students := []*session{connect(t, addr, "tulip", "", true), connect(t, addr, "tulip", "zh_CN.UTF-8", true), connect(t, addr, "tulip", "", true)}
	students[0].waitFor("Scenarios")
	students[1].waitFor("场景")

	lecturer.send("4")
	for _, s := range students[:1] {
		s.waitFor("Scenario 4 · Write without approval")
	}
	students[1].waitFor("场景 4 · 写入缺批准")
	lecturer.send("o")
	students[0].waitFor("Predict first: which rule fires?")
	students[1].waitFor("先预测：哪条规则会触发？")

	students[0].send("7")
	students[0].waitFor("which code?")
	students[0].send("1")
	students[1].send("4")
	students[2].waitFor("Predict first")
	students[2].send("7")
	students[2].waitFor("which code?")
	students[2].send("3")
	students[0].waitFor("Wait for the reveal")
	lecturer.waitFor("rule 4: 1 · rule 7: 2 · answered 3 of 3")

	lecturer.send("v")
	students[0].waitFor("Right: rule 7, approval_missing")
	students[1].waitFor("你选的是 规则 4")
	students[2].waitFor("You said rule 7, approval_scope_mismatch")
	assert.Equal(t, 4, srv.Room().Stats().Sessions)

	// A student leaves abruptly; the room forgets them.
	students[2].client.Close()
	assert.Eventually(t, func() bool { return srv.Room().Stats().Sessions == 3 }, 10*time.Second, 20*time.Millisecond)
	assert.Eventually(t, func() bool { return strings.Contains(log.String(), "disconnect") }, 5*time.Second, 20*time.Millisecond)

	// The end of the lecture reaches everyone.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	go func() { _ = srv.Shutdown(ctx) }()
	students[0].waitFor("The lecture is over")
	assert.True(t, students[0].closed())
}

func TestIdleSessionsAreClosed(t *testing.T) {
	_, addr, log := start(t, Config{ClassCode: "tulip", Idle: 300 * time.Millisecond})
	s := connect(t, addr, "tulip", "", true)
	s.waitFor("Scenarios")
	s.waitFor("this session ends")
	require.True(t, s.closed(), "the idle session is closed")
	assert.Eventually(t, func() bool { return strings.Contains(log.String(), "disconnect") }, 5*time.Second, 20*time.Millisecond)

	busy := connect(t, addr, "tulip", "", true)
	busy.waitFor("Scenarios")
	for range 10 {
		time.Sleep(100 * time.Millisecond)
		busy.send("j") // a key every 100 ms keeps it open past the limit
	}
	select {
	case <-busy.done:
		t.Fatal("a session with keys coming is not idle")
	default:
	}
}

func TestTheRoomIsCapped(t *testing.T) {
	srv, addr, _ := start(t, Config{ClassCode: "tulip", MaxSessions: 2})
	a := connect(t, addr, "tulip", "", true)
	b := connect(t, addr, "tulip", "", true)
	a.waitFor("Scenarios")
	b.waitFor("Scenarios")
	full := connect(t, addr, "tulip", "", true)
	require.True(t, full.closed())
	assert.Contains(t, full.raw(), "the room is full")
	a.client.Close()
	assert.Eventually(t, func() bool { return srv.ActiveSessions() == 1 }, 10*time.Second, 20*time.Millisecond)
	again := connect(t, addr, "tulip", "", true)
	again.waitFor("Scenarios")
}

// TestTwoHundredSessions fills the room: a lecturer and 199 students
// connect at once, each student steps through a scenario and answers the
// poll; the counts match the answers sent; after everyone leaves, no
// session's goroutine is left.
func TestTwoHundredSessions(t *testing.T) {
	if testing.Short() {
		t.Skip("200 SSH sessions")
	}
	before := runtime.NumGoroutine()
	srv, addr, _ := start(t, Config{ClassCode: "tulip", PresenterCode: "orchid", MaxSessions: 200, Idle: time.Minute})
	lecturer := connect(t, addr, "orchid", "", true)
	lecturer.waitFor("You lead the room")

	const students = 199
	sessions := make([]*session, students)
	var wg sync.WaitGroup
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := connect(t, addr, "tulip", "", true)
			s.waitFor("Scenarios")
			s.send("2e") // scenario 2, to its verdict
			s.waitFor("REJECTED / invalid_arguments")
			sessions[i] = s
		}()
	}
	wg.Wait()
	require.Equal(t, students+1, srv.Room().Stats().Sessions)

	lecturer.send("4o")
	want := map[int]int{}
	for i, s := range sessions {
		wg.Add(1)
		rule := []int{4, 7, 7, 3}[i%4]
		want[rule]++
		go func() {
			defer wg.Done()
			s.waitFor("Predict first")
			if rule == 7 {
				s.send("7")
				s.waitFor("which code?")
				s.send("1")
			} else {
				s.send(strconv.Itoa(rule))
			}
			s.waitFor("Wait for the reveal")
		}()
	}
	wg.Wait()
	assert.Equal(t, want, srv.Room().Counts(), "the poll counts what was sent")
	lecturer.waitFor(fmt.Sprintf("answered %d of %d", students, students))

	for _, s := range sessions {
		s.client.Close()
	}
	lecturer.client.Close()
	assert.Eventually(t, func() bool { return srv.ActiveSessions() == 0 && srv.Room().Stats().Sessions == 0 },
		20*time.Second, 50*time.Millisecond)
	// The clients' own reader goroutines end with their connections; what
	// is left over the baseline would be a leak.
	if !assert.Eventually(t, func() bool { return runtime.NumGoroutine() <= before+10 }, 20*time.Second, 100*time.Millisecond,
		"goroutines: %d before, %d after", before, runtime.NumGoroutine()) {
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		t.Log(string(buf[:min(n, 20000)]))
	}
}
