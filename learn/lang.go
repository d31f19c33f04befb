// Package learn is toolgate's exercise track: the learner writes the
// book's decision, assessToolInvocation, in their own language, and
// toolgate runs it over its conformance vectors on every save, rule by
// rule, red then green (toolgate learn). It writes the starter (Init),
// builds and runs the learner's gate through gatecheck (Check), turns the
// result into what a learner sees (NewBoard: a stage per rule, the first
// failing vector with toolgate's own walk, hints that never give code),
// and shows it as text (WriteText) or as a Bubble Tea view that re-runs on
// every save (Model, Watch).
//
// The learner's program is untrusted: it runs under gatecheck's limits
// (timeouts, bounded lines and stderr, killed when the check ends), and
// its build step under the same kind of limits here.
package learn

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Lang is a programming language a learner writes the gate in.
type Lang uint8

// The languages of the starter.
const (
	JavaScript Lang = iota + 1
	Python
	Go
	Java
)

type langInfo struct {
	name, title string
	aliases     []string
	// decision is the file the learner edits; fn the function's name.
	decision, fn string
	// sources are the file name endings whose change re-runs the gate.
	sources []string
	// tests is how to run the book's seven tests in the starter.
	tests string
}

var langs = [...]langInfo{
	JavaScript: {"js", "JavaScript", []string{"javascript", "node", "mjs"}, "assess.mjs", "assessToolInvocation",
		[]string{".mjs", ".js", ".cjs", ".json"}, "node --test"},
	Python: {"py", "Python", []string{"python", "python3"}, "assess.py", "assess_tool_invocation",
		[]string{".py"}, "python3 -m unittest"},
	Go: {"go", "Go", []string{"golang"}, "assess.go", "assessToolInvocation",
		[]string{".go", "go.mod"}, "go test"},
	Java: {"java", "Java", nil, "Assess.java", "assessToolInvocation",
		[]string{".java"}, "javac -d out *.java && java -cp out AssessTest"},
}

// Langs lists the languages in order.
func Langs() []Lang { return []Lang{JavaScript, Python, Go, Java} }

func (l Lang) valid() bool { return l >= JavaScript && l <= Java }

func (l Lang) info() langInfo {
	if l.valid() {
		return langs[l]
	}
	return langInfo{}
}

// String is the language's short name: js, py, go or java; it is also
// the key of its progress.
func (l Lang) String() string {
	if l.valid() {
		return langs[l].name
	}
	return fmt.Sprintf("Lang(%d)", uint8(l))
}

// Title is the language's name for people.
func (l Lang) Title() string { return l.info().title }

// DecisionFile is the file the learner edits.
func (l Lang) DecisionFile() string { return l.info().decision }

// Function is the decision's name in the language.
func (l Lang) Function() string { return l.info().fn }

// TestCommand runs the book's seven tests in the starter's directory.
func (l Lang) TestCommand() string { return l.info().tests }

// ParseLang reads a language's name: js, py, go or java (or javascript,
// node, python, python3, golang).
func ParseLang(s string) (Lang, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, l := range Langs() {
		if s == langs[l].name || slices.Contains(langs[l].aliases, s) {
			return l, nil
		}
	}
	return 0, fmt.Errorf("unknown language %q: want js, py, go or java", s)
}

// Relevant reports whether a change to the file named name (a base name)
// should re-run the gate: one of the language's source files, and not an
// editor's backup or swap file.
func (l Lang) Relevant(name string) bool {
	if strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") || strings.HasPrefix(name, "#") {
		return false
	}
	for _, s := range l.info().sources {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// Detect finds the language of a starter in dir by its decision file.
func Detect(dir string) (Lang, error) {
	var found []Lang
	for _, l := range Langs() {
		if info, err := os.Stat(filepath.Join(dir, l.DecisionFile())); err == nil && info.Mode().IsRegular() {
			found = append(found, l)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			return 0, fmt.Errorf("%s: no such directory (start one with 'toolgate learn init --lang js %s')", dir, dir)
		}
		return 0, fmt.Errorf("%s holds no starter: none of assess.mjs, assess.py, assess.go, Assess.java is there (start one with 'toolgate learn init --lang js %s')", dir, dir)
	}
	names := make([]string, len(found))
	for i, l := range found {
		names[i] = l.String()
	}
	return 0, fmt.Errorf("%s holds starters for %s: say which with --code %s", dir, strings.Join(names, " and "), names[0])
}

// toolchain is how to build and run a language's gate.
type toolchain struct {
	// need are the programs that must be on PATH.
	need []string
	// build, when set, compiles the gate in the learner's directory into
	// out (a directory of toolgate's, outside it); nil for none.
	build func(out string) []string
	// run is the gate's command, run in the learner's directory.
	run func(out string) []string
}

func (l Lang) toolchain() toolchain {
	switch l {
	case Python:
		return toolchain{need: []string{"python3"}, run: func(string) []string { return []string{"python3", "-u", "harness.py"} }}
	case Go:
		return toolchain{need: []string{"go"},
			build: func(out string) []string { return []string{"go", "build", "-o", filepath.Join(out, "gate"), "."} },
			run:   func(out string) []string { return []string{filepath.Join(out, "gate")} }}
	case Java:
		return toolchain{need: []string{"javac", "java"},
			build: func(out string) []string {
				// javac on the JIT's first tier starts in half the time.
				return []string{"javac", "-J-XX:TieredStopAtLevel=1", "-J-Xshare:auto", "-encoding", "UTF-8", "-d", out,
					"Assess.java", "Json.java", "Harness.java"}
			},
			run: func(out string) []string {
				return []string{"java", "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", out, "Harness"}
			}}
	case JavaScript:
		return toolchain{need: []string{"node"}, run: func(string) []string { return []string{"node", "harness.mjs"} }}
	}
	// Every Lang comes from Langs, ParseLang or Detect.
	panic("learn: no toolchain for " + l.String())
}

// Missing lists the programs the language needs that are not on PATH.
func (l Lang) Missing() []string {
	var out []string
	for _, p := range l.toolchain().need {
		if _, err := exec.LookPath(p); err != nil {
			out = append(out, p)
		}
	}
	return out
}
