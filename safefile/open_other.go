//go:build !unix

package safefile

import "os"

func openNoWait(path string) (*os.File, error) { return os.Open(path) }

func isUnsupported(error) bool { return true }
