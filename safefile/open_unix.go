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
