package scenarios

import (
	"io"
	"io/fs"

	"toolgate/safefile"
)

// LoadFS loads every scenario file of fsys (*.yaml, *.yml, *.json, in
// subdirectories too), in path order, and numbers them within each track.
// prefix is put before file names in problems. It returns what loaded and
// every problem found; a file with a problem is left out.
func LoadFS(fsys fs.FS, prefix string) ([]Scenario, error) {
	var l loader
	l.dir(fsys, prefix, func(name string) ([]byte, error) { return readLimited(fsys, name) })
	r := l.done()
	if len(r.Problems) > 0 {
		return r.Scenarios, r.Problems
	}
	return r.Scenarios, nil
}

// readLimited reads a file, refusing one larger than MaxFileSize without
// reading all of it.
func readLimited(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, &safefile.TooLargeError{Max: MaxFileSize}
	}
	return data, nil
}
