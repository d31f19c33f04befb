//go:build !windows

package safefile

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// WriteFile replaces path with data atomically (renameio: a temporary file
// beside it, synced, renamed over it), then syncs the directory so that
// the rename itself survives a crash. The temporary file is named as
// renameio names it, a dot, the file's name and digits; Leftovers finds
// those a killed process left behind.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	t, err := renameio.NewPendingFile(path, renameio.WithTempDir(dir), renameio.WithPermissions(perm))
	if err != nil {
		return err
	}
	// A no-op once replaced. Before, it removes the temporary file; one it
	// cannot remove is what Leftovers finds, and the error that matters
	// is the one returned below.
	defer func() { _ = t.Cleanup() }()
	if _, err := t.Write(data); err != nil {
		return err
	}
	afterWrite()
	if err := t.CloseAtomicallyReplace(); err != nil {
		return err
	}
	return syncDir(dir)
}

// writeNewTemp is WriteNew with a named temporary file: renameio's, then
// a hard link to path, then the temporary name removed.
func writeNewTemp(path string, data []byte, perm fs.FileMode) error {
	t, err := renameio.NewPendingFile(path, renameio.WithTempDir(filepath.Dir(path)), renameio.WithPermissions(perm))
	if err != nil {
		return err
	}
	// Removes the temporary name. The data is synced, and once linked,
	// path is whole: a temporary name left behind is what Leftovers
	// finds, no reason to say the write failed.
	defer func() { _ = t.Cleanup() }()
	if _, err := t.Write(data); err != nil {
		return err
	}
	if err := t.Sync(); err != nil {
		return err
	}
	afterWrite()
	return os.Link(t.Name(), path)
}
