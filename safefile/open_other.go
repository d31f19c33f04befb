//go:build !unix

package safefile

import "os"

func openNoWait(path string) (*os.File, error) { return os.Open(path) }

func isUnsupported(error) bool { return true }

func openAppend(path string, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
}
