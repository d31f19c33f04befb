package safefile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// renameio does not build on Windows; there the temporary file is
// os.CreateTemp's, named as renameio names it (a dot, the name, digits),
// and os.Rename replaces the file (MoveFileEx with MOVEFILE_REPLACE_EXISTING).

// WriteFile replaces path with data: a synced temporary file beside it,
// renamed over it.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	tmp, err := pendingFile(path, perm)
	if err != nil {
		return err
	}
	// Nothing is left to remove once renamed; before, a temporary file it
	// cannot remove is what Leftovers finds.
	defer func() { _ = os.Remove(tmp.Name()) }()
	if err := writeSync(tmp, data); err != nil {
		return err
	}
	afterWrite()
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// writeNewTemp writes a synced temporary file and links it to path.
func writeNewTemp(path string, data []byte, perm fs.FileMode) error {
	tmp, err := pendingFile(path, perm)
	if err != nil {
		return err
	}
	// Removes the temporary name. Once linked, path is whole: a temporary
	// name left behind is what Leftovers finds, no reason to say the write
	// failed.
	defer func() { _ = os.Remove(tmp.Name()) }()
	if err := writeSync(tmp, data); err != nil {
		return err
	}
	afterWrite()
	return os.Link(tmp.Name(), path)
}

func pendingFile(path string, perm fs.FileMode) (*os.File, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"*")
	if err != nil {
		return nil, err
	}
	_ = f.Chmod(perm)
	return f, nil
}

func writeSync(f *os.File, data []byte) error {
	// A failed write or sync is the error to report; the close after it
	// has nothing to add.
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}
