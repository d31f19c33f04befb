package classroom

import (
	"bytes"
	"fmt"
	"io"
	"testing"
	"time"

	"toolgate/classroom/config"

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
		srv, addr, _ := start(b, config.Config{ClassCode: "tulip", MaxSessions: 200, Idle: time.Minute}, Lecture{})
		b.StartTimer()
		clients := make([]*gossh.Client, 200)
		err := all(len(clients), func(i int) error {
			c, err := lightSession(addr)
			clients[i] = c
			return err
		})
		b.StopTimer()
		if err != nil {
			b.Error(err)
		}
		for _, c := range clients {
			if c != nil {
				c.Close()
			}
		}
		_ = srv.Close()
		b.StartTimer()
	}
}
