//go:build unix

package safefile

import (
	"errors"
	"os"
	"syscall"
)

// openNoWait opens path for reading without waiting: opening a named
// pipe for reading otherwise blocks until a writer comes.
func openNoWait(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

func isUnsupported(err error) bool {
	return errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP)
}

// openAppend opens path to append without waiting: a named pipe with
// nobody reading fails at once (ENXIO) instead of blocking.
func openAppend(path string, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NONBLOCK, perm)
}
