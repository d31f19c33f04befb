package watch

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestAChangeIsTold: writing a file in a watched directory (or a new
// directory under it) calls back; stop ends the watching.
func TestAChangeIsTold(t *testing.T) {
	dir := t.TempDir()
	calls := make(chan struct{}, 16)
	stop, err := Paths([]string{dir}, func() { calls <- struct{}{} })
	require.NoError(t, err)
	defer stop()

	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("id: a\n"), 0o644))
	waitCall(t, calls)

	sub := filepath.Join(dir, "more")
	require.NoError(t, os.Mkdir(sub, 0o755))
	waitCall(t, calls)
	// Give the watcher the new directory before writing in it: its Create
	// event is what adds it.
	require.Eventually(t, func() bool {
		// No require here: Eventually runs this off the test goroutine.
		if os.WriteFile(filepath.Join(sub, "b.yaml"), []byte("id: b\n"), 0o644) != nil {
			return false
		}
		select {
		case <-calls:
			return true
		case <-time.After(time.Second):
			return false
		}
	}, time.Minute, 10*time.Millisecond)
}

func TestAMissingPathIsAnError(t *testing.T) {
	_, err := Paths([]string{filepath.Join(t.TempDir(), "nope")}, func() {})
	require.Error(t, err)
}

// waitCall waits for a callback; the bound is only there so that a broken
// watcher fails the test instead of hanging it.
func waitCall(t *testing.T, calls chan struct{}) {
	t.Helper()
	select {
	case <-calls:
	case <-time.After(time.Minute):
		t.Fatal("no callback after a change")
	}
}
