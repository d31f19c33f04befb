package classroom

// The load suite measures; its figures depend on the machine, so it runs
// only with TOOLGATE_LOAD=1 (make load), never in the default go test.
// The server runs in a child process (this test binary, see TestMain), so
// that its goroutines and resident memory are its own, not the clients'.
//
//	TOOLGATE_LOAD=1 go test ./classroom -run Load -v -timeout 30m

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"toolgate/classroom/config"
	"toolgate/classroom/room"
	"toolgate/scenarios"
)

const (
	loadEnv  = "TOOLGATE_LOAD"
	childEnv = "TOOLGATE_LOAD_CHILD"
)

func TestMain(m *testing.M) {
	if cfg := os.Getenv(childEnv); cfg != "" {
		os.Exit(serveChild(cfg))
	}
	os.Exit(m.Run())
}

func needLoad(t *testing.T) {
	t.Helper()
	if os.Getenv(loadEnv) == "" {
		t.Skip("a load test: TOOLGATE_LOAD=1 (make load)")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/PID/status")
	}
}

// childConfig is what a child server is given: a Config, whose Room may
// name a shared room to join.
type childConfig = config.Config

// childStats is what a child server reports, after a GC that returns
// freed memory to the system.
type childStats struct {
	Goroutines, RSSKB, HeapKB int
	// RSS is the anonymous memory (the heap, stacks, the runtime's) and
	// the file pages (the binary's code as it is run, shared).
	AnonKB, FileKB            int
	Sessions, Open, Waiting   int
	Failures, Evictions, Peak int
	Students, Answered        int
	// Phones are the phones in the room here, WebConns the page's
	// connections.
	Phones, WebConns int
	// The runtime's view, in KB.
	SysKB, HeapSysKB, HeapReleasedKB, HeapIdleKB, StackSysKB, MSpanSysKB, GCSysKB, OtherSysKB int
}

// status reads fields of /proc/self/status, in KB.
func status(fields ...string) []int {
	data, _ := os.ReadFile("/proc/self/status")
	out := make([]int, len(fields))
	for _, line := range strings.Split(string(data), "\n") {
		for i, f := range fields {
			if strings.HasPrefix(line, f+":") {
				out[i], _ = strconv.Atoi(strings.Fields(line)[1])
			}
		}
	}
	return out
}

// serveChild is the child process: it serves, prints its address, and
// answers "stats" lines on stdin until stdin closes.
func serveChild(raw string) int {
	var cc childConfig
	if err := json.Unmarshal([]byte(raw), &cc); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	dir, _ := os.MkdirTemp("", "toolgate-load")
	defer os.RemoveAll(dir)
	var rm room.Room
	if cc.Room.Shared() {
		sr, err := room.OpenShared(context.Background(), cc.Room, func(f string, v ...any) { fmt.Fprintf(os.Stderr, f+"\n", v...) })
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		defer sr.Close()
		rm = sr
	}
	cc.HostKeyPath = filepath.Join(dir, "host")
	srv, err := New(cc, Lecture{Scenarios: scenarios.Builtin(), Log: os.Stderr, Room: rm})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	go func() { _ = srv.Serve(l) }()
	fmt.Printf("listening %s\n", l.Addr())
	if cc.Web.On() {
		wl, err := net.Listen("tcp", cc.Web.Listen)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		go func() { _ = srv.ServeWeb(wl, nil) }()
		fmt.Printf("web %s\n", wl.Addr())
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		runtime.GC()
		debug.FreeOSMemory()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		open, waiting := srv.gate.counts()
		st := srv.Room().Stats()
		kb := status("VmRSS", "RssAnon", "RssFile")
		phones, conns := 0, 0
		if w := srv.Web(); w != nil {
			phones, conns = w.Phones(), w.Conns()
		}
		out, _ := json.Marshal(childStats{Phones: phones, WebConns: conns, Goroutines: runtime.NumGoroutine(), RSSKB: kb[0], AnonKB: kb[1], FileKB: kb[2], HeapKB: int(ms.HeapAlloc >> 10),
			Sessions: srv.ActiveSessions(), Open: open, Waiting: waiting, Failures: int(srv.failures.Load()),
			Evictions: int(srv.evictions.Load()), Peak: st.Peak, Students: st.Students, Answered: st.Answered,
			SysKB: int(ms.Sys >> 10), HeapSysKB: int(ms.HeapSys >> 10), HeapReleasedKB: int(ms.HeapReleased >> 10), HeapIdleKB: int(ms.HeapIdle >> 10),
			StackSysKB: int(ms.StackSys >> 10), MSpanSysKB: int(ms.MSpanSys >> 10), GCSysKB: int(ms.GCSys >> 10), OtherSysKB: int(ms.OtherSys >> 10)})
		fmt.Println(string(out))
	}
	_ = srv.Close()
	return 0
}

// child is a server in a child process.
type child struct {
	addr string
	// web is the phones' page's address ("" when not served).
	web string
	in  io.WriteCloser
	out *bufio.Scanner
}

func startChild(t *testing.T, cc childConfig) *child {
	t.Helper()
	raw, err := json.Marshal(cc)
	require.NoError(t, err)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+string(raw))
	cmd.Stderr = io.Discard
	if testing.Verbose() && os.Getenv("TOOLGATE_LOAD_LOG") != "" {
		cmd.Stderr = os.Stderr
	}
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = in.Close(); _ = cmd.Wait() })
	c := &child{in: in, out: bufio.NewScanner(stdout)}
	require.True(t, c.out.Scan(), "the child serves")
	c.addr = strings.TrimPrefix(c.out.Text(), "listening ")
	if cc.Web.On() {
		require.True(t, c.out.Scan(), "the child serves the page")
		c.web = "http://" + strings.TrimPrefix(c.out.Text(), "web ")
	}
	return c
}

func (c *child) stats(t *testing.T) childStats {
	t.Helper()
	_, err := io.WriteString(c.in, "stats\n")
	require.NoError(t, err)
	require.True(t, c.out.Scan())
	var st childStats
	require.NoError(t, json.Unmarshal(c.out.Bytes(), &st))
	return st
}

// settle waits until the child has no session and no connection left.
func (c *child) settle(t *testing.T) childStats {
	t.Helper()
	var st childStats
	waitUntil(t, "the child server is empty", func() bool {
		st = c.stats(t)
		return st.Sessions == 0 && st.Open == 0
	})
	return st
}

// settleTo waits until the child is empty and its goroutines are back
// within 10% of base, for at most a minute, and returns how it is then.
func (c *child) settleTo(t *testing.T, base childStats) childStats {
	t.Helper()
	began := time.Now()
	var st childStats
	_ = pollUntil(leakPatience(t), func() bool {
		st = c.stats(t)
		return st.Sessions == 0 && st.Open == 0 && st.Goroutines*10 <= base.Goroutines*11
	})
	t.Logf("the child settled in %v", time.Since(began).Round(100*time.Millisecond))
	return c.stats(t)
}

// all runs f for i in [0, n) on n goroutines and returns the first error:
// failures come back to the test goroutine, which alone may fail the test.
func all(n int, f func(i int) error) error {
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(i); err != nil {
				errs <- fmt.Errorf("%d: %w", i, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// flat is a screen as one line, without the panels' borders.
func flat(screen string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(screen, "│", " ")), " ")
}

func within(t *testing.T, what string, base, now int, pct float64) {
	t.Helper()
	t.Logf("%s: %d at baseline, %d now (%+.1f%%)", what, base, now, 100*float64(now-base)/float64(base))
	assert.LessOrEqual(t, float64(now), float64(base)*(1+pct/100), "%s back within %.0f%% of the baseline", what, pct)
}

// TestLoadTwoHundredStudents: a lecturer and 200 students connect at once,
// step through a scenario and answer the poll, with the counts matching
// what was sent; a 500-connection flood beyond the cap leaves the room
// usable; after everyone leaves, the goroutines are back to the baseline.
// The lecture is given twice: the first leaves the Go runtime's
// bookkeeping for its heap peak (spans, GC metadata), which the runtime
// keeps for reuse; the second must leave RSS within 10% of where the
// first left it — nothing of a session accumulates.
func TestLoadTwoHundredStudents(t *testing.T) {
	// Serial: measures memory and time on the whole machine (make load).
	needLoad(t)
	students := 200
	if n, err := strconv.Atoi(os.Getenv("TOOLGATE_LOAD_STUDENTS")); err == nil && n > 0 {
		students = n // a smaller room, to try the test itself
	}
	srv := startChild(t, childConfig{ClassCode: "tulip", PresenterCode: "orchid", MaxSessions: students + 1, Idle: time.Hour})
	srv.warmUp(t)
	base := srv.settle(t)
	t.Logf("baseline: %s", base)
	lecture(t, srv, students, 1)
	first := srv.settleTo(t, base)
	t.Logf("after the first lecture: %s", first)
	within(t, "goroutines", base.Goroutines, first.Goroutines, 10)
	lecture(t, srv, students, 3)
	second := srv.settleTo(t, first)
	t.Logf("after the second lecture: %s", second)
	within(t, "goroutines", base.Goroutines, second.Goroutines, 10)
	within(t, "RSS (KB) after the second lecture, from after the first", first.RSSKB, second.RSSKB, 10)
	t.Logf("RSS after the first lecture, from the fresh baseline: %+.1f%% (heap %d KB → %d KB)",
		100*float64(first.RSSKB-base.RSSKB)/float64(base.RSSKB), base.HeapKB, first.HeapKB)
}

func (st childStats) String() string {
	return fmt.Sprintf("%d goroutines, RSS %d KB (anon %d, file %d), heap %d KB in use; runtime: heap sys %d KB (released %d), spans %d KB, GC %d KB, stacks %d KB",
		st.Goroutines, st.RSSKB, st.AnonKB, st.FileKB, st.HeapKB, st.HeapSysKB, st.HeapReleasedKB, st.MSpanSysKB, st.GCSysKB, st.StackSysKB)
}

// warmUp serves one session, so that what a first session sets up once
// (the runtime's pools, the scenarios' renders) is in the baseline.
func (c *child) warmUp(t *testing.T) {
	t.Helper()
	warm, err := dial(c.addr, "tulip")
	require.NoError(t, err)
	ws, err := open(warm, ptyOpts{})
	require.NoError(t, err)
	require.NoError(t, ws.await("Scenarios", patience(t)))
	_ = warm.Close()
}

// lecture is one lecture: students connect, step, answer a poll, then a
// flood comes and a second poll is answered through it; then everyone
// leaves. question is the number the room gives the first poll.
func lecture(t *testing.T, srv *child, students, question int) {
	lecturer := connect(t, srv.addr, "orchid")
	lecturer.waitFor(t, "You lead the room")
	require.NoError(t, lecturer.send("2")) // scenario 2 is live: students follow
	lecturer.waitFor(t, "Scenario 2 · ")
	deadline := patience(t)
	sessions := make([]*session, students)
	began := time.Now()
	base := srv.stats(t)
	require.NoError(t, all(students, func(i int) error {
		c, err := dial(srv.addr, "tulip")
		if err != nil {
			return err
		}
		s, err := open(c, ptyOpts{})
		if err != nil {
			c.Close()
			return err
		}
		sessions[i] = s
		return s.await("Scenarios", deadline)
	}))
	t.Logf("%d students connected and drew their first frame in %v", students, time.Since(began).Round(time.Millisecond))
	t.Cleanup(func() {
		for _, s := range sessions {
			if s != nil {
				s.client.Close()
			}
		}
	})
	idle := srv.stats(t)
	t.Logf("%d idle sessions: %d KB RSS, %d goroutines: %d KB RSS a session", students+1, idle.RSSKB, idle.Goroutines,
		(idle.RSSKB-base.RSSKB)/students)

	began = time.Now()
	require.NoError(t, all(students, func(i int) error {
		s := sessions[i]
		if err := s.send("e"); err != nil { // the live scenario, to its verdict
			return err
		}
		return s.await("REJECTED / invalid_arguments", deadline)
	}))
	t.Logf("%d students stepped to a verdict in %v", students, time.Since(began).Round(time.Millisecond))

	counts := map[string]int{}
	for i := range students {
		counts[[]string{"4", "7", "7", "3"}[i%4]]++
	}
	want := fmt.Sprintf("rule 3: %d · rule 4: %d · rule 7: %d", counts["3"], counts["4"], counts["7"])
	poll := func(keys, open string) time.Duration {
		t.Helper()
		began := time.Now()
		require.NoError(t, lecturer.send(keys))
		lecturer.waitFor(t, open)
		require.NoError(t, all(students, func(i int) error {
			s := sessions[i]
			if err := s.await("Predict first", deadline); err != nil {
				return err
			}
			keys := []string{"4", "71", "71", "3"}[i%4]
			if err := s.send(keys[:1]); err != nil {
				return err
			}
			if len(keys) == 2 {
				if err := s.await("which code?", deadline); err != nil {
					return err
				}
				if err := s.send(keys[1:]); err != nil {
					return err
				}
			}
			return s.await("Wait for the reveal", deadline)
		}))
		waitUntil(t, "the room counts every answer", func() bool { return srv.stats(t).Answered == students })
		// The presenter's histogram may wrap; read it as one line.
		waitUntil(t, "the presenter sees every answer", func() bool {
			return strings.Contains(flat(lecturer.screen()), fmt.Sprintf("answered %d of %d", students, students))
		})
		took := time.Since(began)
		assert.Contains(t, flat(lecturer.screen()), want, "the poll counts what was sent")
		return took
	}
	t.Logf("a poll, %d answers counted right: %v", students, poll("4o", fmt.Sprintf("Question %d is open", question)).Round(time.Millisecond))
	peak := srv.stats(t)
	t.Logf("in the poll: %d sessions, %d KB RSS, %d goroutines", peak.Sessions, peak.RSSKB, peak.Goroutines)

	// The flood: 500 connections beyond the cap, from the students' own
	// address — 300 that say nothing, 200 that log in to a full room.
	require.NoError(t, lecturer.send("v"))
	sessions[1].waitFor(t, "Right: rule 7")
	var raw []net.Conn
	var mu sync.Mutex
	refused, full := 0, 0
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range raw {
			c.Close()
		}
	})
	floodDone := make(chan error, 1)
	go func() {
		floodDone <- all(20, func(i int) error {
			for range 15 {
				if c, err := net.Dial("tcp", srv.addr); err == nil {
					mu.Lock()
					raw = append(raw, c)
					mu.Unlock()
				}
			}
			for range 10 {
				c, err := dial(srv.addr, "tulip")
				if err != nil {
					// Refused while the waiting places are taken: fine.
					mu.Lock()
					refused++
					mu.Unlock()
					continue
				}
				if s, err := open(c, ptyOpts{}); err == nil {
					<-s.done
					if strings.Contains(s.raw(), "the room is full") {
						mu.Lock()
						full++
						mu.Unlock()
					}
				}
				c.Close()
			}
			return nil
		})
	}()
	during := poll("o", fmt.Sprintf("Question %d is open", question+1))
	t.Logf("a poll during the flood: %v", during.Round(time.Millisecond))
	require.NoError(t, <-floodDone)
	flood := srv.stats(t)
	mu.Lock()
	t.Logf("the flood: of 200 logins %d were told the room is full, %d refused while the waiting places were taken; then %d connections open, %d waiting; %d KB RSS",
		full, refused, flood.Open, flood.Waiting, flood.RSSKB)
	for _, c := range raw {
		c.Close()
	}
	mu.Unlock()
	for _, s := range sessions {
		s.client.Close()
	}
	lecturer.client.Close()
}

// TestLoadPasteAndDisconnect: 60 sessions paste 100 KB of keys and hang
// up; goroutines come back to the baseline, and a second round leaves
// RSS within 10% of where the first left it.
func TestLoadPasteAndDisconnect(t *testing.T) {
	// Serial: measures memory and time on the whole machine (make load).
	needLoad(t)
	srv := startChild(t, childConfig{ClassCode: "tulip", MaxSessions: 200, Idle: time.Hour})
	srv.warmUp(t)
	base := srv.settle(t)
	t.Logf("baseline: %s", base)
	keys := strings.Repeat("jk", 25<<10) + "\x1b[200~" + strings.Repeat("x", 50<<10)
	round := func() {
		deadline := patience(t)
		require.NoError(t, all(60, func(int) error {
			c, err := dial(srv.addr, "tulip")
			if err != nil {
				return err
			}
			defer c.Close()
			s, err := open(c, ptyOpts{})
			if err != nil {
				return err
			}
			if err := s.await("Scenarios", deadline); err != nil {
				return err
			}
			return s.send(keys)
		}))
	}
	round()
	first := srv.settleTo(t, base)
	t.Logf("after 60 pastes: %s", first)
	within(t, "goroutines", base.Goroutines, first.Goroutines, 10)
	round()
	second := srv.settleTo(t, first)
	t.Logf("after 60 more: %s", second)
	within(t, "goroutines", base.Goroutines, second.Goroutines, 10)
	within(t, "RSS (KB) after the second round, from after the first", first.RSSKB, second.RSSKB, 10)
	t.Logf("RSS after the first round, from the fresh baseline: %+.1f%% (heap %d KB → %d KB)",
		100*float64(first.RSSKB-base.RSSKB)/float64(base.RSSKB), base.HeapKB, first.HeapKB)
}

// TestLoadLargestTerminal: what a session costs at the usual size and at
// the largest sizes it may be drawn at.
func TestLoadLargestTerminal(t *testing.T) {
	// Serial: measures memory and time on the whole machine (make load).
	needLoad(t)
	for _, tc := range []struct{ asked, limit config.Size }{
		{config.Size{Width: 120, Height: 40}, config.Size{}}, {config.Size{Width: 6000, Height: 6000}, config.Size{Width: 300, Height: 100}}, {config.Size{Width: 6000, Height: 6000}, config.Size{Width: 500, Height: 200}},
	} {
		srv := startChild(t, childConfig{ClassCode: "tulip", MaxSessions: 200, Idle: time.Hour, MaxPTY: tc.limit})
		base := srv.settle(t)
		const n = 10
		var sessions []*session
		for range n {
			s := connectWith(t, dialer{auth: answerAll("tulip")}, srv.addr, ptyOpts{width: tc.asked.Width, height: tc.asked.Height})
			s.waitFor(t, "Scenarios")
			sessions = append(sessions, s)
		}
		st := srv.stats(t)
		t.Logf("%d sessions asking for %dx%d (limit %v): %d KB RSS a session", n, tc.asked.Width, tc.asked.Height, tc.limit, (st.RSSKB-base.RSSKB)/n)
		for _, s := range sessions {
			s.client.Close()
		}
	}
}

// joinAll logs n students in at once and waits for each one's first
// frame: how long each took, how many failed, and their clients.
func joinAll(addr string, n int) (took []time.Duration, failed int, clients []*gossh.Client) {
	var mu sync.Mutex
	_ = all(n, func(int) error {
		began := time.Now()
		c, err := lightSession(addr)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			failed++
			return nil
		}
		took = append(took, time.Since(began))
		clients = append(clients, c)
		return nil
	})
	return took, failed, clients
}

func closeAll(clients []*gossh.Client) {
	for _, c := range clients {
		_ = c.Close()
	}
}

// TestLoadJoinUnderAttack: 200 students log in through one address (a
// hall behind one NAT) while an attacker at the same address sends wrong
// codes as fast as 200 connections let it (each waits at most a second
// for its answers, then starts again): every student gets in, and the
// attacker's codes are checked at a rate the log and the CPU bear.
func TestLoadJoinUnderAttack(t *testing.T) {
	// Serial: measures memory and time on the whole machine (make load).
	needLoad(t)
	students := 200
	if n, err := strconv.Atoi(os.Getenv("TOOLGATE_LOAD_STUDENTS")); err == nil && n > 0 {
		students = n
	}
	srv := startChild(t, childConfig{ClassCode: "tulip", MaxSessions: students + 1, Idle: time.Hour})
	srv.warmUp(t)
	srv.settle(t)
	quiet, failed, clients := joinAll(srv.addr, students)
	t.Logf("no attack: %d of %d in; time to the first frame %s", len(quiet), students, percentiles(quiet))
	closeAll(clients)
	assert.Zero(t, failed)
	srv.settle(t)
	// The logins of one address are rate-limited past a burst of a room
	// (MaxSessions+20, then MaxSessions/10 a second): give it back.
	time.Sleep(12 * time.Second)

	before := srv.stats(t)
	stop := make(chan struct{})
	var tries atomic.Int64
	var wg sync.WaitGroup
	const attackers = 200
	began := time.Now()
	for range attackers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			guess := gossh.RetryableAuthMethod(answer("guess"), 100)
			for {
				select {
				case <-stop:
					return
				default:
				}
				tries.Add(1)
				conn, err := net.Dial("tcp", srv.addr)
				if err != nil {
					continue
				}
				_ = conn.SetDeadline(time.Now().Add(time.Second))
				c, chans, reqs, err := gossh.NewClientConn(conn, srv.addr, &gossh.ClientConfig{User: "x", Auth: []gossh.AuthMethod{guess},
					HostKeyCallback: gossh.InsecureIgnoreHostKey()})
				if err == nil {
					_ = gossh.NewClient(c, chans, reqs).Close()
				}
				_ = conn.Close()
			}
		}()
	}
	time.Sleep(3 * time.Second) // the attack is at full speed
	under, failed, clients := joinAll(srv.addr, students)
	close(stop)
	wg.Wait()
	span := time.Since(began)
	after := srv.stats(t)
	closeAll(clients)
	checked := after.Failures - before.Failures
	t.Logf("under attack: %d of %d in; time to the first frame %s", len(under), students, percentiles(under))
	t.Logf("the attacker: %d connections in %v, %d codes checked (%.0f a second), %d of its connections closed for new ones",
		tries.Load(), span.Round(100*time.Millisecond), checked, float64(checked)/span.Seconds(), after.Evictions-before.Evictions)
	assert.Zero(t, failed, "every student gets in")
}

// TestLoadIdleKeepsBusySessions: keys keep a session open past the idle
// limit (a matter of time, so here and not in the default tests).
func TestLoadIdleKeepsBusySessions(t *testing.T) {
	// Serial: measures memory and time on the whole machine (make load).
	needLoad(t)
	_, addr, _ := start(t, config.Config{ClassCode: "tulip", Idle: time.Second}, Lecture{})
	busy := connect(t, addr, "tulip")
	busy.waitFor(t, "Scenarios")
	for range 30 {
		time.Sleep(100 * time.Millisecond)
		require.NoError(t, busy.send("j"))
	}
	select {
	case <-busy.done:
		t.Fatal("a session with keys coming is not idle")
	default:
	}
}
