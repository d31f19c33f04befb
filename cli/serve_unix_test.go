//go:build unix

package cli_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/cli"
)

// serve --log FILE (or TOOLGATE_LOG): the server's log lines are appended
// to a file made with mode 0600; what is not a regular file is refused at
// start, by the flag's or the variable's name.
func TestServeLog(t *testing.T) {
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
