//go:build unix

package safefile

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadRegularRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.yaml")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	zero := filepath.Join(dir, "zero.json")
	require.NoError(t, os.Symlink("/dev/zero", zero))

	// Without the non-blocking open this would wait for a writer for ever.
	_, err := ReadRegular(fifo, 1<<20)
	assert.EqualError(t, err, "not a regular file (a named pipe)")
	_, err = ReadRegular(zero, 1<<20)
	assert.EqualError(t, err, "not a regular file (a character device)")
	_, err = ReadRegular(dir, 1<<20)
	assert.EqualError(t, err, "not a regular file (a directory)")
	_, err = ReadRegular(filepath.Join(dir, "nope"), 1<<20)
	assert.ErrorIs(t, err, fs.ErrNotExist)
}
