//go:build linux

package cli_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// Issue 23.10, the first word: the server's first line on stderr (the
// codes it made) is said with its shutdown handler already in place. The
// test holds the server inside that very write — its stderr is a full
// pipe — and signals it there, as a supervisor that saw the line would;
// the server must end with a goodbye and status 0, not the default action.
func TestServeSignalAtItsFirstWordIsAGoodbye(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/syscall"); err != nil {
		t.Skip("no /proc/PID/syscall to see where the server waits")
	}
	bin := toolgateBinary(t)
	state := t.TempDir()
	logPath := filepath.Join(state, "serve.log")
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	defer pr.Close()
	size, err := unix.FcntlInt(pw.Fd(), unix.F_GETPIPE_SZ, 0)
	require.NoError(t, err)
	_, err = pw.Write(bytes.Repeat([]byte{'.'}, size)) // fills the pipe: the server's first write waits
	require.NoError(t, err)

	cmd := exec.Command(bin, "serve", "--listen", "127.0.0.1:0", "--log", logPath)
	cmd.Env = []string{"XDG_STATE_HOME=" + state, "HOME=" + state, "PATH=" + os.Getenv("PATH")}
	cmd.Stderr = pw
	require.NoError(t, cmd.Start())
	require.NoError(t, pw.Close())
	drained := make(chan string, 1)
	defer func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			go func() { _, _ = io.Copy(io.Discard, pr) }()
			_ = cmd.Wait()
		}
	}()

	writing := fmt.Sprintf("%d 0x2 ", syscall.SYS_WRITE) // write(2, ...)
	deadline := time.Now().Add(time.Minute)              // only so that a broken start fails
	for !inSyscall(cmd.Process.Pid, writing) {
		require.True(t, time.Now().Before(deadline), "the server never wrote to stderr")
		time.Sleep(time.Millisecond)
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	go func() {
		b, _ := io.ReadAll(pr)
		drained <- string(b)
	}()
	err = cmd.Wait()
	stderr := strings.TrimLeft(<-drained, ".")
	require.NoError(t, err, "stderr:\n%s", stderr)
	assert.True(t, strings.HasPrefix(stderr, "toolgate: class code: "), "the first word is the class code made:\n%s", stderr)
	data, err := os.ReadFile(logPath)
	require.NoError(t, err)
	assert.Regexp(t, `\d\d:\d\d:\d\d terminated: telling 0 sessions the lecture is over\n$`, string(data))
}

// inSyscall says whether a thread of the process pid waits in the system
// call that /proc/PID/task/TID/syscall starts with prefix.
func inSyscall(pid int, prefix string) bool {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/syscall", pid))
	for _, p := range tasks {
		if b, err := os.ReadFile(p); err == nil && strings.HasPrefix(string(b), prefix) {
			return true
		}
	}
	return false
}
