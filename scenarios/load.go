package scenarios

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
)

// Report is what loading files found: the scenarios that loaded, how many
// files were read, and every problem.
type Report struct {
	Scenarios []Scenario
	Files     int
	// Bad is how many files had a problem (and were left out).
	Bad      int
	Problems Problems
}

// LoadPaths loads scenario files and directories (searched recursively
// for *.yaml, *.yml and *.json) from the file system, the way a lecturer
// names them. A file with a problem is left out and the rest still load.
func LoadPaths(paths ...string) Report {
	var l loader
	for _, p := range paths {
		info, err := os.Stat(p)
		switch {
		case err != nil:
			l.problem(p, err)
		case info.IsDir():
			l.dir(os.DirFS(p), p)
		default:
			l.file(os.DirFS(filepath.Dir(p)), filepath.Base(p), p)
		}
	}
	return l.done()
}

// loader reads scenario files one by one into a Report.
type loader struct {
	r      Report
	loaded []Scenario
}

func (l *loader) problem(file string, err error) {
	l.r.Problems = append(l.r.Problems, Problem{File: file, Msg: cleanPathError(err)})
	l.r.Bad++
}

// dir loads every scenario file under fsys in path order; shown names
// start with prefix.
func (l *loader) dir(fsys fs.FS, prefix string) {
	var names []string
	_ = fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			l.problem(path.Join(prefix, name), err)
		case !d.IsDir() && isScenarioFile(name):
			names = append(names, name)
		}
		return nil
	})
	slices.Sort(names)
	for _, name := range names {
		l.file(fsys, name, path.Join(prefix, name))
	}
}

// file loads one scenario file; shown is its name in problems.
func (l *loader) file(fsys fs.FS, name, shown string) {
	l.r.Files++
	data, err := readLimited(fsys, name)
	if err != nil {
		l.problem(shown, err)
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
