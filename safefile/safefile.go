// Package safefile is how toolgate reads the files it is pointed at and
// writes the files it keeps. Reading opens only regular files (a named pipe
// would block for ever, /dev/zero never ends) and reads no more than a cap.
// Writing is whole or not at all: a temporary file in the same directory,
// synced, then renamed over the old one (github.com/google/renameio/v2) or
// linked to a name that must not exist yet, and the directory synced after,
// so that a crash leaves the old state or the new one.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// NotRegularError is a path that names something other than a regular file.
type NotRegularError struct {
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string { return "not a regular file (" + Kind(e.Mode) + ")" }

// Kind names a kind of file for people: "a directory", "a named pipe", ...
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a regular file"
	}
	return "an irregular file"
}

// TooLargeError is a file larger than the most a reader takes.
type TooLargeError struct {
	Max int64
}

func (e *TooLargeError) Error() string { return fmt.Sprintf("file is larger than %d bytes", e.Max) }

// ReadRegular reads the regular file at path, following symbolic links,
// and refuses anything else before reading a byte: the open itself does
// not wait for a named pipe's writer. It reads at most max+1 bytes, and a
// file larger than max is a *TooLargeError.
func ReadRegular(path string, max int64) ([]byte, error) {
	f, err := openNoWait(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // only read
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &NotRegularError{Mode: info.Mode()}
	}
	if info.Size() > max {
		return nil, &TooLargeError{Max: max}
	}
	// The size may change while reading (a file being written): the
	// limit holds whatever it grows to.
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &TooLargeError{Max: max}
	}
	return data, nil
}

// WriteNew writes data to path, which must not exist: never over an
// existing file, even one created a moment before. The data is written and
// synced under no name (Linux) or a temporary one, then linked to path —
// a link fails when path exists — and the directory synced. It returns an
// error satisfying errors.Is(err, fs.ErrExist) when path exists.
func WriteNew(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := writeNew(path, data, perm); err != nil {
		return err
	}
	return syncDir(dir)
}

// afterWrite runs once the data is written, before it gets its name: the
// tests stop a process there to kill it.
var afterWrite = func() {}

// Leftovers lists the temporary files for path that a process killed while
// writing left behind. Only a caller that knows no write to path is under
// way (one holding a lock) may remove them.
func Leftovers(path string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	prefix := "." + filepath.Base(path)
	var out []string
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || rest == "" || !e.Type().IsRegular() || strings.Trim(rest, "-0123456789") != "" {
			continue
		}
		out = append(out, filepath.Join(filepath.Dir(path), e.Name()))
	}
	return out, nil
}

// syncDir makes a rename or link in dir durable. A directory that cannot
// be opened or synced (some file systems refuse) is not an error: the file
// itself is already whole.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer func() { _ = d.Close() }() // only synced: Sync says how that went
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) && !isUnsupported(err) {
		return err
	}
	return nil
}
