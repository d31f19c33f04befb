package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// writeNew writes into an unnamed file of the directory (O_TMPFILE), so
// that a process killed before the link leaves nothing behind, then links
// it to path. File systems without O_TMPFILE get a named temporary file.
func writeNew(path string, data []byte, perm fs.FileMode) error {
	fd, err := unix.Open(filepath.Dir(path), unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return writeNewTemp(path, data, perm)
	}
	f := os.NewFile(uintptr(fd), path)
	// The data is synced before the file gets its name: a close after
	// that has nothing to say about it, and once linked, path is whole.
	defer func() { _ = f.Close() }()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	afterWrite()
	err = unix.Linkat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(fd), unix.AT_FDCWD, path, unix.AT_SYMLINK_FOLLOW)
	if errors.Is(err, unix.ENOENT) {
		// No /proc: a named temporary file after all.
		return writeNewTemp(path, data, perm)
	}
	if err != nil {
		return &os.LinkError{Op: "link", Old: "(unnamed file)", New: path, Err: err}
	}
	return nil
}
