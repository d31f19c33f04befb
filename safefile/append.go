package safefile

import (
	"io/fs"
	"os"
)

// OpenAppend opens the regular file at path for appending, as a log is
// written: created with perm when it does not exist (an existing file
// keeps its mode), every write at its end. Anything else — a named pipe,
// a device, a directory, a socket, or a symbolic link to one — is refused
// before it is opened (opening a device can do something, writing a
// named pipe blocks until somebody reads), and what was opened is checked
// again, in case the path changed in between.
func OpenAppend(path string, perm fs.FileMode) (*os.File, error) {
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		return nil, &NotRegularError{Mode: info.Mode()}
	}
	f, err := openAppend(path, perm)
	if err != nil {
		return nil, err
	}
	// Nothing is written yet: a close that fails loses nothing.
	info, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		_ = f.Close()
		return nil, &NotRegularError{Mode: info.Mode()}
	}
	return f, nil
}
