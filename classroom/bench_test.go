package classroom

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// lightSession connects a session with a PTY and waits for the trainer's
// first frame, reading (and dropping) everything after it.
func lightSession(addr string) (*gossh.Client, error) {
	c, err := dial(addr, "tulip")
	if err != nil {
		return nil, err
	}
	sess, err := c.NewSession()
	if err != nil {
		c.Close()
		return nil, err
	}
	if err := sess.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}); err != nil {
		c.Close()
		return nil, err
	}
	out, _ := sess.StdoutPipe()
	if err := sess.Shell(); err != nil {
		c.Close()
		return nil, err
	}
	seen := make(chan struct{})
	go func() {
		var buf bytes.Buffer
		chunk := make([]byte, 16<<10)
		for {
			n, err := out.Read(chunk)
			if buf.Len() < 1<<16 {
				buf.Write(chunk[:n])
				if bytes.Contains(buf.Bytes(), []byte("Scenarios")) {
					close(seen)
					buf.Grow(1 << 16) // stop looking
					_, _ = io.Copy(io.Discard, out)
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	select {
	case <-seen:
		return c, nil
	case <-time.After(30 * time.Second):
		c.Close()
		return nil, fmt.Errorf("no first frame")
	}
}

// BenchmarkConnect200 is the time for a whole room of 200 sessions to
// connect at once and see their first frame.
//
//	go test ./classroom -run '^$' -bench Connect200 -benchtime 3x
func BenchmarkConnect200(b *testing.B) {
	for b.Loop() {
		// A fresh server each time: the rate limiter remembers this
		// address's last 200 connections.
		b.StopTimer()
		srv, addr, _ := start(b, Config{ClassCode: "tulip", MaxSessions: 200, Idle: time.Minute})
		b.StartTimer()
		clients := make([]*gossh.Client, 200)
		var wg sync.WaitGroup
		var failed sync.Once
		for i := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := lightSession(addr)
				if err != nil {
					failed.Do(func() { b.Error(err) })
					return
				}
				clients[i] = c
			}()
		}
		wg.Wait()
		b.StopTimer()
		for _, c := range clients {
			if c != nil {
				c.Close()
			}
		}
		_ = srv.Close()
		b.StartTimer()
	}
}

// TestMeasureIdleSessions is a measured run, not a test: it builds the
// binary, serves, connects 200 idle sessions and reads the server's
// resident memory before and after.
//
//	TOOLGATE_MEASURE=1 go test ./classroom -run MeasureIdle -v
func TestMeasureIdleSessions(t *testing.T) {
	if os.Getenv("TOOLGATE_MEASURE") == "" {
		t.Skip("a measured run: TOOLGATE_MEASURE=1")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "toolgate")
	build := exec.Command("go", "build", "-o", bin, "..")
	out, err := build.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	cmd := exec.Command(bin, "serve", "--listen", "127.0.0.1:23999", "--class-code", "tulip",
		"--host-key", filepath.Join(dir, "key"), "--max-sessions", "250")
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	time.Sleep(time.Second)
	rss := func() int {
		data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "VmRSS:") {
				kb, _ := strconv.Atoi(strings.Fields(line)[1])
				return kb
			}
		}
		return 0
	}
	before := rss()
	startAt := time.Now()
	var clients []*gossh.Client
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := lightSession("127.0.0.1:23999")
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			clients = append(clients, c)
			mu.Unlock()
		}()
	}
	wg.Wait()
	took := time.Since(startAt)
	time.Sleep(2 * time.Second)
	after := rss()
	t.Logf("200 sessions connected and drew their first frame in %v", took.Round(time.Millisecond))
	t.Logf("server RSS: %d KB idle, %d KB with 200 idle sessions: %d KB a session", before, after, (after-before)/200)
	for _, c := range clients {
		c.Close()
	}
}
