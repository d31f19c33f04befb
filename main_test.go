//go:build unix

package main

import (
	"bytes"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Alternate screen on and off (DEC mode 1049), as Bubble Tea writes them.
const (
	altScreenOn  = "\x1b[?1049h"
	altScreenOff = "\x1b[?1049l"
)

// TestSignalsRestoreTheTerminal runs the trainer on a pseudo-terminal and
// ends it with each signal that can end it: the terminal must be left out
// of the alternate screen. SIGHUP (a closed ssh session, a closed
// terminal window) used to kill it with the screen still switched.
func TestSignalsRestoreTheTerminal(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "toolgate")
	build := exec.Command("go", "build", "-o", bin, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM, syscall.SIGQUIT, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			home := t.TempDir()
			cmd := exec.Command(bin, "--no-save", "--theme", "dark")
			cmd.Env = []string{"HOME=" + home, "XDG_STATE_HOME=" + home, "TERM=xterm-256color", "LANG=en_US.UTF-8"}
			ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
			require.NoError(t, err)
			defer ptmx.Close()
			screen := &output{seen: make(chan struct{})}
			screen.done.Add(1)
			go screen.read(ptmx)
			<-screen.seen // the first frame is drawn in the alternate screen
			require.NoError(t, cmd.Process.Signal(sig))
			err = cmd.Wait()
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				status := exit.Sys().(syscall.WaitStatus)
				assert.False(t, status.Signaled(), "killed by %v without restoring the terminal", status.Signal())
			}
			text := screen.wait()
			last := bytes.LastIndex(text, []byte(altScreenOn))
			assert.Greater(t, bytes.LastIndex(text, []byte(altScreenOff)), last, "the alternate screen is left after %v", sig)
		})
	}
}

// output collects what the program writes to its terminal.
type output struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	seen chan struct{}
	once sync.Once
	done sync.WaitGroup
}

func (o *output) read(r io.Reader) {
	defer o.done.Done()
	chunk := make([]byte, 4096)
	for {
		n, err := r.Read(chunk)
		o.mu.Lock()
		o.buf.Write(chunk[:n])
		// The first frame: the trainer, or on a first start the screen
		// of what the decision does not do.
		if bytes.Contains(o.buf.Bytes(), []byte(altScreenOn)) &&
			(bytes.Contains(o.buf.Bytes(), []byte("Scenarios")) || bytes.Contains(o.buf.Bytes(), []byte("What this decision does not do"))) {
			o.once.Do(func() { close(o.seen) })
		}
		o.mu.Unlock()
		if err != nil {
			// EIO once the program has exited and everything was read.
			o.once.Do(func() { close(o.seen) })
			return
		}
	}
}

func (o *output) wait() []byte {
	o.done.Wait()
	o.mu.Lock()
	defer o.mu.Unlock()
	return bytes.Clone(o.buf.Bytes())
}
