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

func TestOpenAppend(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "serve.log")
	f, err := OpenAppend(path, 0o600)
	require.NoError(t, err)
	_, err = f.WriteString("one\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o600), info.Mode().Perm())

	f, err = OpenAppend(path, 0o600)
	require.NoError(t, err)
	_, err = f.WriteAt([]byte("x"), 0)
	assert.Error(t, err, "opened to append: no write anywhere else")
	_, err = f.WriteString("two\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "one\ntwo\n", string(data))

	// Through a symbolic link to a regular file: fine.
	link := filepath.Join(dir, "link.log")
	require.NoError(t, os.Symlink(path, link))
	f, err = OpenAppend(link, 0o600)
	require.NoError(t, err)
	f.Close()

	fifo := filepath.Join(dir, "pipe")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	null := filepath.Join(dir, "null.log")
	require.NoError(t, os.Symlink("/dev/null", null))
	for name, want := range map[string]string{
		fifo: "not a regular file (a named pipe)",
		null: "not a regular file (a character device)",
		dir:  "not a regular file (a directory)",
	} {
		_, err := OpenAppend(name, 0o600)
		assert.EqualError(t, err, want, name)
	}

	// Should the path become a named pipe between the look and the open,
	// the open does not wait for a reader: it fails at once.
	_, err = openAppend(fifo, 0o600)
	assert.ErrorIs(t, err, syscall.ENXIO)
}
