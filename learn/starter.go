package learn

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"text/template"

	"toolgate/safefile"
)

// The starters, one directory a language; a file name ending in ".in"
// loses it when written (a go.mod here would make its directory another
// module, which go:embed refuses).
//
//go:embed _starters
var starters embed.FS

// Files lists the files of a language's starter, as Init writes them, in
// order: the decision first.
func Files(l Lang) []string {
	entries, err := fs.ReadDir(starters, "_starters/"+l.String())
	if err != nil {
		panic("learn: no starter for " + l.String())
	}
	out := []string{l.DecisionFile()}
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".in")
		if name != l.DecisionFile() {
			out = append(out, name)
		}
	}
	return append(out, "README.md")
}

// Starter is the content of one file of a language's starter.
func Starter(l Lang, name string) ([]byte, error) {
	if name == "README.md" {
		t, err := template.ParseFS(starters, "_starters/README.md.tmpl")
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		err = t.Execute(&b, map[string]string{"Title": l.Title(), "Decision": l.DecisionFile(), "Tests": l.TestCommand()})
		return b.Bytes(), err
	}
	data, err := starters.ReadFile(path.Join("_starters", l.String(), name))
	if errors.Is(err, fs.ErrNotExist) {
		data, err = starters.ReadFile(path.Join("_starters", l.String(), name+".in"))
	}
	return data, err
}

// Written says what Init did with each file of the starter.
type Written struct {
	// New are the files written; Kept those already there, left as they
	// are.
	New, Kept []string
}

// Init writes a language's starter into dir (made when missing). A file
// that is already there is the learner's and is never overwritten
// (safefile.WriteNew): it is kept and listed in Kept, so that Init can
// also put back a file the learner removed.
func Init(dir string, l Lang) (Written, error) {
	var w Written
	if !l.valid() {
		return w, fmt.Errorf("no such language %v", l)
	}
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return w, fmt.Errorf("%s is %s, not a directory", dir, safefile.Kind(info.Mode()))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return w, err
	}
	for _, name := range Files(l) {
		data, err := Starter(l, name)
		if err != nil {
			return w, fmt.Errorf("starter %s/%s: %w", l, name, err)
		}
		p := filepath.Join(dir, name)
		switch err := safefile.WriteNew(p, data, 0o644); {
		case errors.Is(err, fs.ErrExist):
			w.Kept = append(w.Kept, name)
		case err != nil:
			return w, fmt.Errorf("writing %s: %w", p, err)
		default:
			w.New = append(w.New, name)
		}
	}
	return w, nil
}
