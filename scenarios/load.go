package scenarios

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"

	"toolgate/safefile"
)

// Report is what loading files found: the scenarios that loaded, how many
// files were read, and every problem.
type Report struct {
	Scenarios []Scenario
	// Files is how many scenario files were read (or tried).
	Files int
	// Bad is how many of them had a problem (and were left out).
	Bad int
	// Skipped is how many paths were not read as scenario files: named
	// but missing, or not regular files (a named pipe would block the
	// reader for ever, a device never ends).
	Skipped  int
	Problems Problems
}

// LoadPaths loads scenario files and directories (searched recursively
// for *.yaml, *.yml and *.json) from the file system, the way a lecturer
// names them. A file with a problem is left out and the rest still load;
// only regular files are opened.
func LoadPaths(paths ...string) Report {
	var l loader
	for _, p := range paths {
		info, err := os.Stat(p)
		switch {
		case err != nil:
			l.skip(p, cleanPathError(err))
		case info.IsDir():
			l.dir(os.DirFS(p), p, func(name string) ([]byte, error) {
				return safefile.ReadRegular(filepath.Join(p, filepath.FromSlash(name)), MaxFileSize)
			})
		case !info.Mode().IsRegular():
			l.skip(p, (&safefile.NotRegularError{Mode: info.Mode()}).Error())
		default:
			l.file(p, func() ([]byte, error) { return safefile.ReadRegular(p, MaxFileSize) })
		}
	}
	return l.done()
}

// loader reads scenario files one by one into a Report.
type loader struct {
	r      Report
	loaded []Scenario
}

// skip reports a path that is not read.
func (l *loader) skip(file, msg string) {
	l.r.Problems = append(l.r.Problems, Problem{File: file, Msg: msg})
	l.r.Skipped++
}

// dir loads every scenario file under fsys in path order, reading each
// with read; shown names start with prefix.
func (l *loader) dir(fsys fs.FS, prefix string, read func(name string) ([]byte, error)) {
	var names []string
	_ = fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			l.skip(path.Join(prefix, name), cleanPathError(err))
		case !d.IsDir() && isScenarioFile(name):
			names = append(names, name)
		}
		return nil
	})
	slices.Sort(names)
	for _, name := range names {
		l.file(path.Join(prefix, name), func() ([]byte, error) { return read(name) })
	}
}

// file loads one scenario file; shown is its name in problems.
func (l *loader) file(shown string, read func() ([]byte, error)) {
	data, err := read()
	var nr *safefile.NotRegularError
	if errors.As(err, &nr) {
		l.skip(shown, nr.Error())
		return
	}
	l.r.Files++
	if err != nil {
		var tl *safefile.TooLargeError
		msg := cleanPathError(err)
		if errors.As(err, &tl) {
			msg = tooLarge
		}
		l.r.Problems = append(l.r.Problems, Problem{File: shown, Msg: msg})
		l.r.Bad++
		return
	}
	s, err := Parse(shown, data)
	if err != nil {
		l.r.Problems = append(l.r.Problems, err.(Problems)...)
		l.r.Bad++
		return
	}
	l.loaded = append(l.loaded, s)
}

// done numbers what loaded and reports ids used twice.
func (l *loader) done() Report {
	var dup Problems
	l.r.Scenarios, dup = Combine(l.loaded)
	l.r.Problems = append(l.r.Problems, dup...)
	l.r.Bad += len(dup)
	return l.r
}

// cleanPathError drops the path a *fs.PathError repeats, since problems
// already start with the file.
func cleanPathError(err error) string {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}
