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
	defer os.Remove(tmp.Name()) // nothing left to remove once renamed
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
	defer os.Remove(tmp.Name())
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
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
