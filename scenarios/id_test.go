package scenarios

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 24, item 9: ids are ^[a-z0-9][a-z0-9-]*$; where one goes wrong
// is said.
func TestBadIDAt(t *testing.T) {
	for id, want := range map[string]int{
		"write-after-expiry": 0, "a": 0, "0-9": 0,
		"../esc/pwned": 1, "-lead": 1, "Upper": 1, "sp ace": 3, "esc\x1b": 4, "é": 1, "ok-\u202e": 4,
	} {
		assert.Equal(t, want, BadIDAt(id), "%q", id)
	}
}

// Issue 24, item 9: a what-if copy is written in the directory given,
// whatever the id holds.
func TestSaveCopyStaysInItsDirectory(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "work")
	require.NoError(t, os.Mkdir(dir, 0o755))
	s := Builtin()[0]
	for _, id := range []string{"../esc/pwned", "/etc/passwd", "..", "a/../../b"} {
		s.ID = id
		name, err := SaveCopy(dir, s)
		require.NoError(t, err, id)
		assert.Equal(t, dir, filepath.Dir(name), id)
	}
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "nothing beside the directory")
}
