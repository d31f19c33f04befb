package safefile

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadRegularCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(path, make([]byte, 101), 0o600))
	_, err := ReadRegular(path, 100)
	var tl *TooLargeError
	require.ErrorAs(t, err, &tl)
	assert.EqualError(t, err, "file is larger than 100 bytes")
	data, err := ReadRegular(path, 101)
	require.NoError(t, err)
	assert.Len(t, data, 101)
}

func TestWriteFileReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "progress.json")
	require.NoError(t, WriteFile(path, []byte("one"), 0o600))
	require.NoError(t, WriteFile(path, []byte("two"), 0o600))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "two", string(data))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left")
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o600), info.Mode().Perm())
}

func TestWriteNewNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.yaml")
	require.NoError(t, WriteNew(path, []byte("first"), 0o644))
	err := WriteNew(path, []byte("second"), 0o644)
	require.Error(t, err)
	assert.True(t, errors.Is(err, fs.ErrExist), "%v", err)
	data, _ := os.ReadFile(path)
	assert.Equal(t, "first", string(data))
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1, "no temporary file left")

	// The fallback with a named temporary file behaves the same.
	other := filepath.Join(dir, "y.yaml")
	require.NoError(t, writeNewTemp(other, []byte("a"), 0o644))
	assert.ErrorIs(t, writeNewTemp(other, []byte("b"), 0o644), fs.ErrExist)
	entries, _ = os.ReadDir(dir)
	assert.Len(t, entries, 2)
}

func TestLeftovers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "progress.json")
	for _, name := range []string{"progress.json", ".progress.json123", ".progress.json-42", ".progress.jsonx", ".progress.json", "other"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o600))
	}
	got, err := Leftovers(path)
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(dir, ".progress.json-42"), filepath.Join(dir, ".progress.json123")}, got)
}

// TestKilledWhileWriting kills a process with SIGKILL after it wrote its
// data but before the data got its name: WriteNew leaves nothing behind
// (Linux: the data had no name yet); WriteFile leaves a temporary file
// that Leftovers finds.
func TestKilledWhileWriting(t *testing.T) {
	if mode := os.Getenv("SAFEFILE_KILL_HELPER"); mode != "" {
		afterWrite = func() {
			os.Stdout.WriteString("written\n")
			select {} // wait to be killed
		}
		path := os.Getenv("SAFEFILE_KILL_PATH")
		if mode == "new" {
			_ = WriteNew(path, []byte("data"), 0o644)
		} else {
			_ = WriteFile(path, []byte("data"), 0o644)
		}
		os.Exit(3)
	}
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL")
	}
	for _, mode := range []string{"new", "replace"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "x.yaml")
			cmd := exec.Command(os.Args[0], "-test.run", "^TestKilledWhileWriting$")
			cmd.Env = append(os.Environ(), "SAFEFILE_KILL_HELPER="+mode, "SAFEFILE_KILL_PATH="+path)
			out, err := cmd.StdoutPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			line, err := bufio.NewReader(out).ReadString('\n')
			require.NoError(t, err)
			require.Equal(t, "written\n", line)
			require.NoError(t, cmd.Process.Kill())
			_ = cmd.Wait()
			left, err := Leftovers(path)
			require.NoError(t, err)
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			if mode == "new" && runtime.GOOS == "linux" {
				assert.Empty(t, entries, "an unnamed file vanishes with its process")
				return
			}
			assert.Len(t, left, 1, "the temporary file is found")
			assert.Len(t, entries, 1, "and is all there is: the name was never written")
		})
	}
}
