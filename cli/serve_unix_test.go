//go:build unix

package cli_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/cli"
)

// serve --log FILE (or TOOLGATE_LOG): the server's log lines are appended
// to a file made with mode 0600; what is not a regular file is refused at
// start, by the flag's or the variable's name.
func TestServeLog(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "serve.log")
	require.NoError(t, os.WriteFile(path, []byte("yesterday's line\n"), 0o600))
	logTo := func(env map[string]string, args ...string) (string, int) {
		var out, errb bytes.Buffer
		e := cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
			Getenv: func(k string) string { return env[k] },
			Serve: func(o cli.ServeOptions) error {
				if o.Log == nil {
					return errors.New("no log")
				}
				_, err := fmt.Fprintf(o.Log, "a line for %s\n", o.LogPath)
				return err
			}}
		code := cli.Run(append([]string{"serve", "--open"}, args...), e)
		return errb.String(), code
	}
	stderr, code := logTo(nil, "--log", path)
	require.Equal(t, 0, code, stderr)
	stderr, code = logTo(map[string]string{"TOOLGATE_LOG": path})
	require.Equal(t, 0, code, stderr)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "yesterday's line\na line for "+path+"\na line for "+path+"\n", string(data), "appended, never truncated")

	fresh := filepath.Join(dir, "new.log")
	_, code = logTo(nil, "--log", fresh)
	require.Equal(t, 0, code)
	info, err := os.Stat(fresh)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "only its owner reads the log")

	got, _, code := serve(map[string]string{"TOOLGATE_CLASS_CODE": "tulip"})
	require.Equal(t, 0, code)
	assert.Nil(t, got.Log, "no --log: stderr")

	fifo := filepath.Join(dir, "pipe")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{nil, []string{"--log", fifo}, "--log " + fifo + ": a named pipe, not a regular file"},
		{map[string]string{"TOOLGATE_LOG": "/dev/null"}, nil, "TOOLGATE_LOG=/dev/null: a character device, not a regular file"},
		{nil, []string{"--log", dir}, "--log " + dir + ": a directory, not a regular file"},
		{nil, []string{"--log", filepath.Join(dir, "no", "such", "dir.log")}, "no such file or directory"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			stderr, code := logTo(tc.env, tc.args...)
			assert.Equal(t, cli.ExitUsage, code)
			assert.Contains(t, stderr, tc.want)
		})
	}
}

// Issue 23.10: a signal that comes once the server has said anything at
// start is a goodbye, never the default action that kills it without its
// last log lines: its handler is in place before the first line. Each
// case signals as soon as the log has a byte, as a supervisor that stops
// a server it saw start would; the server ends with status 0 and logs
// why — also while it waits for a shared room's NATS.
func TestServeSignalAtStartIsAGoodbye(t *testing.T) {
	t.Parallel()
	bin := toolgateBinary(t)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"a room of its own", nil, "terminated: telling 0 sessions the lecture is over"},
		{"waiting for the room's NATS", []string{"--room", "lecture", "--room-url", "nats://127.0.0.1:1", "--room-token", "a-token-for-the-tests-only"},
			"terminated: stopped before serving"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := t.TempDir()
			logPath := filepath.Join(state, "serve.log")
			cmd := exec.Command(bin, append([]string{"serve", "--open", "--listen", "127.0.0.1:0", "--log", logPath}, tc.args...)...)
			cmd.Env = []string{"XDG_STATE_HOME=" + state, "HOME=" + state, "PATH=" + os.Getenv("PATH")}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			require.NoError(t, cmd.Start())
			deadline := time.Now().Add(time.Minute) // only so that a broken start fails
			for {
				if info, err := os.Stat(logPath); err == nil && info.Size() > 0 {
					break
				}
				if time.Now().After(deadline) {
					// stderr is the process's to write until Wait returns.
					_ = cmd.Process.Kill()
					_ = cmd.Wait()
					t.Fatalf("no start; stderr:\n%s", stderr.String())
				}
				time.Sleep(time.Millisecond)
			}
			require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
			require.NoError(t, cmd.Wait(), "stderr:\n%s", stderr.String())
			data, err := os.ReadFile(logPath)
			require.NoError(t, err)
			assert.Regexp(t, `\d\d:\d\d:\d\d `+tc.want+`\n$`, string(data))
		})
	}
}
