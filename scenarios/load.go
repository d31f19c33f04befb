package scenarios

import (
	"io/fs"
	"os"
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
	var r Report
	var loaded []Scenario
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			r.Problems = append(r.Problems, Problem{File: p, Msg: cleanPathError(err)})
			r.Bad++
			continue
		}
		var names []string
		if info.IsDir() {
			_ = filepath.WalkDir(p, func(name string, d fs.DirEntry, err error) error {
				if err != nil {
					r.Problems = append(r.Problems, Problem{File: name, Msg: cleanPathError(err)})
					return nil
				}
				if !d.IsDir() && isScenarioFile(name) {
					names = append(names, name)
				}
				return nil
			})
			slices.Sort(names)
		} else {
			names = []string{p}
		}
		for _, name := range names {
			r.Files++
			data, err := readLimited(os.DirFS(filepath.Dir(name)), filepath.Base(name))
			if err != nil {
				r.Problems = append(r.Problems, Problem{File: name, Msg: cleanPathError(err)})
				r.Bad++
				continue
			}
			s, err := Parse(name, data)
			if err != nil {
				r.Problems = append(r.Problems, err.(Problems)...)
				r.Bad++
				continue
			}
			loaded = append(loaded, s)
		}
	}
	var dup Problems
	r.Scenarios, dup = Combine(loaded)
	r.Problems = append(r.Problems, dup...)
	r.Bad += len(dup)
	return r
}

// cleanPathError drops the path a *fs.PathError repeats, since problems
// already start with the file.
func cleanPathError(err error) string {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}
