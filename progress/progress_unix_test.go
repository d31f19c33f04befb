//go:build unix

package progress_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/progress"
)

// TestNotARegularFile: a named pipe would block the reader for ever and
// /dev/zero never ends; neither is read, moved or saved over.
func TestNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	zero := filepath.Join(dir, "zero.json")
	require.NoError(t, os.Symlink("/dev/zero", zero))
	for path, kind := range map[string]string{fifo: "a named pipe", zero: "a character device"} {
		s := progress.Store{Path: path}
		_, _, err := s.Load()
		require.Error(t, err)
		assert.Contains(t, err.Error(), "is "+kind+", not a regular file")
		err = s.Merge(progress.New(), progress.New())
		require.Error(t, err, "nothing is saved over it")
		assert.Contains(t, err.Error(), kind)
	}
	info, err := os.Lstat(zero)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, info.Mode().Type(), "the link is left as it was")
}
