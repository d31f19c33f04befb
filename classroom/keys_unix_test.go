//go:build unix

package classroom

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"toolgate/classroom/config"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"
)

// returns waits, on the test's goroutine, for f to return in another: a
// read that blocks fails the test near its deadline instead of hanging it.
func returns[T any](t *testing.T, what string, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	var got T
	waitUntil(t, what, func() bool {
		select {
		case got = <-done:
			return true
		default:
			return false
		}
	})
	return got
}

// A keys file that is a named pipe is refused at start, and one that
// becomes a pipe while serving admits nobody — at once: opening a pipe
// to read waits for a writer, and the keys' lock would hold every key
// login behind it.
func TestKeysFileThatIsAPipe(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "keys")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	err := returns(t, "loading a pipe as keys returns", func() error {
		_, err := loadKeySet(fifo, func(string, ...any) {}, time.Now)
		return err
	})
	assert.ErrorContains(t, err, fifo+": not a regular file (a named pipe)")

	clock := newFakeClock()
	alice := newKey(t)
	path := keysFile(t, authorized(alice))
	_, addr, log := start(t, config.Config{AuthorizedKeys: path, ClassCode: "tulip"}, Lecture{now: clock.now})
	login := func() error {
		c, err := dialer{auth: []gossh.AuthMethod{gossh.PublicKeys(alice)}}.dial(addr)
		if err == nil {
			_ = c.Close()
		}
		return err
	}
	require.NoError(t, login())

	require.NoError(t, os.Remove(path))
	require.NoError(t, syscall.Mkfifo(path, 0o600))
	clock.advance(2 * keysRecheck)
	assert.Error(t, returns(t, "a key login returns", login), "keys that cannot be read admit nobody")
	assert.Contains(t, log.String(), "keys: "+path+": not a regular file (a named pipe)")
	s := connect(t, addr, "tulip")
	s.waitFor(t, "Scenarios")
}
