//go:build !linux

package safefile

import "io/fs"

func writeNew(path string, data []byte, perm fs.FileMode) error {
	return writeNewTemp(path, data, perm)
}
