//go:build unix

package cli_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNotRegularFilesAreSkipped: a named pipe called *.yaml in a
// scenario directory used to hang validate, list and the trainer (opening
// it waits for a writer); a link to /dev/zero never ends. Both are
// skipped with a word, in validate and wherever scenarios are loaded, and
// the other files still load.
func TestNotRegularFilesAreSkipped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o600))
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero.json")))
	good, err := os.ReadFile("../examples/timeout-read-back.yaml")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "good.yaml"), good, 0o600))

	out, _, code := run(t, "", nil, "validate", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, filepath.Join(dir, "pipe.yaml")+": not a regular file (a named pipe)\n")
	assert.Contains(t, out, filepath.Join(dir, "zero.json")+": not a regular file (a character device)\n")
	assert.Contains(t, out, "1 file checked: 1 valid, 0 with problems; 2 paths skipped (2 problems)\n")

	out, errOut, code := run(t, "", nil, "--scenarios", dir, "list", "--only")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "course-")
	assert.Contains(t, errOut, "toolgate: skipped: "+filepath.Join(dir, "pipe.yaml")+": not a regular file (a named pipe)")

	out, _, code = run(t, "", nil, "validate", filepath.Join(dir, "pipe.yaml"))
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "pipe.yaml: not a regular file (a named pipe)\n0 files checked")
}

// TestProgressThatIsNotAFile: progress.json as a named pipe used to hang
// toolgate progress; as a link to /dev/zero it read 1.4 GB.
func TestProgressThatIsNotAFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "progress.json")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	_, errOut, code := run(t, "", map[string]string{"PROGRESS": fifo}, "progress")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "is a named pipe, not a regular file: not read, and nothing is saved over it")

	zero := filepath.Join(t.TempDir(), "progress.json")
	require.NoError(t, os.Symlink("/dev/zero", zero))
	_, errOut, code = run(t, "", map[string]string{"PROGRESS": zero}, "progress")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "is a character device, not a regular file")
}
