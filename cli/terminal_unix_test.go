//go:build unix

package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/progress"
)

// A terminal for the real binary: a pseudo-terminal that answers the
// background-colour query as a terminal does, and keeps what was written.
// The test holds the terminal's other end open too: Linux may answer a
// read of a terminal whose last other end closed with EIO while output
// is still on its way, and a line the program wrote last was lost so.
type ptyRun struct {
	cmd       *exec.Cmd
	ptmx, tty *os.File
	mu        sync.Mutex
	buf       bytes.Buffer
	done      chan struct{}
	// exited is closed when the program has ended, with its error.
	exited  chan struct{}
	waitErr error
	drained sync.Once
}

// endMark is written after the program ended: the output before it is
// all of the program's.
const endMark = "<<the program ended>>"

// onTerminal starts toolgate on a 200x40 terminal with env (and no more).
func onTerminal(t *testing.T, env []string, args ...string) *ptyRun {
	t.Helper()
	cmd := exec.Command(toolgateBinary(t), args...)
	cmd.Env = append([]string{"TERM=xterm-256color", "LANG=en_US.UTF-8", "HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}, env...)
	ptmx, tty, err := pty.Open()
	require.NoError(t, err)
	require.NoError(t, pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 200}))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	require.NoError(t, cmd.Start())
	r := &ptyRun{cmd: cmd, ptmx: ptmx, tty: tty, done: make(chan struct{}), exited: make(chan struct{})}
	go r.read()
	go func() {
		r.waitErr = cmd.Wait()
		close(r.exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-r.exited
		_ = tty.Close()
		<-r.done
		_ = ptmx.Close()
	})
	return r
}

func (r *ptyRun) read() {
	defer close(r.done)
	chunk := make([]byte, 4096)
	for {
		n, err := r.ptmx.Read(chunk)
		r.mu.Lock()
		r.buf.Write(chunk[:n])
		r.mu.Unlock()
		if bytes.Contains(chunk[:n], []byte("\x1b]11;?")) {
			// A dark background, then the device attributes that end
			// the query.
			_, _ = r.ptmx.WriteString("\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\\x1b[?62;22c")
		}
		if err != nil {
			return // EIO once no one holds the terminal
		}
	}
}

func (r *ptyRun) text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Replace(r.buf.String(), endMark, "", 1)
}

// drain, once the program has ended, reads the terminal up to the end
// mark (every byte the program wrote comes before it) and closes it.
func (r *ptyRun) drain(t *testing.T) {
	t.Helper()
	r.drained.Do(func() {
		_, err := r.tty.WriteString(endMark)
		require.NoError(t, err)
		for {
			r.mu.Lock()
			seen := strings.Contains(r.buf.String(), endMark)
			r.mu.Unlock()
			if seen {
				break
			}
			select {
			case <-r.done:
				t.Fatalf("the terminal closed before the end mark; it has:\n%q", r.text())
			case <-time.After(5 * time.Millisecond):
			}
		}
		_ = r.tty.Close()
		<-r.done
	})
}

// waitFor waits until the screen's text (escapes taken out) has want.
// The deadline is only there so that a broken program fails the test
// instead of hanging it.
func (r *ptyRun) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(stripTerminal(r.text()), want) {
		select {
		case <-r.exited:
			r.drain(t)
			require.Contains(t, stripTerminal(r.text()), want, "the program ended")
			return
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q on the terminal; it has:\n%q", want, r.text())
		}
	}
}

// exit waits for the program to end and returns everything written.
func (r *ptyRun) exit(t *testing.T) (string, int) {
	t.Helper()
	<-r.exited
	r.drain(t)
	code := 0
	if ee, ok := r.waitErr.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, r.waitErr)
	}
	return r.text(), code
}

var terminalSeq = regexp.MustCompile(`\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])`)

// stripTerminal is what a terminal shows as text: escapes out, carriage
// returns out.
func stripTerminal(s string) string {
	return strings.ReplaceAll(terminalSeq.ReplaceAllString(s, ""), "\r", "")
}

// progress --reset on a terminal asks with huh's confirm: y resets, n
// and ctrl+c keep.
func TestResetAsksOnTheTerminal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		key   string
		reset bool
	}{{"y", true}, {"n", false}, {"\x03", false}} {
		t.Run(strings.ReplaceAll(tc.key, "\x03", "ctrl+c"), func(t *testing.T) {
			state := t.TempDir()
			path := filepath.Join(state, "toolgate", "progress.json")
			p := progress.New()
			p.MarkWalked("unknown-tool")
			require.NoError(t, progress.Store{Path: path}.Merge(progress.New(), p))

			r := onTerminal(t, []string{"XDG_STATE_HOME=" + state}, "progress", "--reset")
			r.waitFor(t, "Reset the progress in "+path+"?")
			r.waitFor(t, "y Yes") // the help line: the form is drawn and listening
			_, err := r.ptmx.WriteString(tc.key)
			require.NoError(t, err)
			out, code := r.exit(t)
			assert.Equal(t, 0, code)
			_, err = os.Stat(path)
			if tc.reset {
				assert.Contains(t, stripTerminal(out), "Progress reset.")
				assert.True(t, os.IsNotExist(err), "reset")
			} else {
				assert.Contains(t, stripTerminal(out), "Kept.")
				assert.NoError(t, err, "kept")
			}
		})
	}
}

// notes on a terminal: glamour's styled page, wrapped; the help and the
// trace text are coloured (fang and the trace see the terminal).
func TestStyledOnTheTerminal(t *testing.T) {
	t.Parallel()
	colour := regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|9[0-7])[;m]`)

	r := onTerminal(t, nil, "notes", "--scenario", "4")
	out, code := r.exit(t)
	require.Equal(t, 0, code)
	assert.Regexp(t, colour, out)
	text := stripTerminal(out)
	assert.Contains(t, text, "Ask the room first: Which rule fires")
	assert.NotContains(t, text, "**")

	r = onTerminal(t, []string{"NO_COLOR=1"}, "notes", "--scenario", "4")
	out, _ = r.exit(t)
	assert.NotRegexp(t, colour, out, "NO_COLOR")
	assert.NotContains(t, stripTerminal(out), "**", "still styled")

	r = onTerminal(t, nil, "trace", "--help")
	out, code = r.exit(t)
	require.Equal(t, 0, code)
	assert.Regexp(t, colour, out, "fang sees the terminal through the checked output")
	assert.Contains(t, stripTerminal(out), "EXAMPLES")

	r = onTerminal(t, nil, "trace", "4")
	out, _ = r.exit(t)
	assert.Regexp(t, colour, out)
}

// The bash completion script, sourced in bash, completes as TAB would:
// bash calls the function with COMP_WORDS, the function calls toolgate.
func TestBashCompletion(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash here")
	}
	bin := toolgateBinary(t)
	script := `
source /usr/share/bash-completion/bash_completion 2>/dev/null ||
_get_comp_words_by_ref() { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }
source <(toolgate completion bash)
compopt() { :; }  # only inside a real completion
tab() {
  COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
  COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}; COMP_TYPE=9; COMPREPLY=()
  __start_toolgate toolgate "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"
  echo "$*|${COMPREPLY[*]}"
}
tab toolgate trace write
tab toolgate trace 1
tab toolgate trace --track audit 2
tab toolgate --theme h
tab toolgate list --format ""
tab toolgate notes --scenario outcome-inv
tab toolgate tr
tab toolgate --track au
`
	cmd := exec.Command(bash, "--norc", "--noprofile", "-c", script)
	cmd.Env = []string{"PATH=" + filepath.Dir(bin) + ":" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Equal(t, strings.Join([]string{
		"toolgate trace write|write-without-approval write-without-approval-scope",
		"toolgate trace 1|1 10 11 12 13 14",
		"toolgate trace --track audit 2|2",
		"toolgate --theme h|high-contrast",
		"toolgate list --format |text json",
		"toolgate notes --scenario outcome-inv|outcome-invalid-arguments outcome-invalid-arguments-legacy",
		"toolgate tr|trace",
		"toolgate --track au|audit",
	}, "\n")+"\n", string(out))
}

// serve --log: what the server says at start goes to stderr and to the
// log; its log lines (here the signal that ends it) to the log only.
func TestServeLogsToTheFile(t *testing.T) {
	t.Parallel()
	bin := toolgateBinary(t)
	state := t.TempDir()
	logPath := filepath.Join(state, "serve.log")
	cmd := exec.Command(bin, "serve", "--open", "--listen", "127.0.0.1:0", "--log", logPath)
	cmd.Env = []string{"XDG_STATE_HOME=" + state, "HOME=" + state, "PATH=" + os.Getenv("PATH")}
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(time.Minute) // only so that a broken start fails
	for !strings.Contains(stderr.String(), "the log goes to") {
		require.True(t, time.Now().Before(deadline), "no start; stderr:\n%s", stderr.String())
		time.Sleep(20 * time.Millisecond)
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, cmd.Wait())

	data, err := os.ReadFile(logPath)
	require.NoError(t, err)
	log := string(data)
	assert.Regexp(t, `^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d toolgate: started, pid \d+\n`, log)
	assert.Contains(t, log, "toolgate: WARNING: --open: anyone who can reach 127.0.0.1:0 gets in")
	assert.Contains(t, log, "toolgate: serving on 127.0.0.1:0")
	assert.Contains(t, log, "toolgate: fingerprint SHA256:")
	assert.Regexp(t, `\d\d:\d\d:\d\d terminated: telling 0 sessions the lecture is over\n`, log)
	assert.Contains(t, stderr.String(), "toolgate: serving on 127.0.0.1:0")
	assert.Contains(t, stderr.String(), "toolgate: the log goes to "+logPath)
	assert.NotContains(t, stderr.String(), "telling 0 sessions", "the log lines go to the file only")
	info, err := os.Stat(logPath)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
