// Package scenarios loads toolgate's scenarios: YAML files, one scenario a
// file, each with its title and story in English and Chinese, the full
// assess input and the verdict it is expected to get. The built-in ones are
// embedded in the binary. Every scenario is checked against assess when it
// is loaded: a scenario whose expected verdict is not what assess says is a
// load error that names the file.
package scenarios

import (
	"embed"
	"fmt"
	"path"
	"slices"
	"strconv"

	"toolgate/assess"
	"toolgate/decode"
)

// Text is a text in both languages. A missing translation falls back to the
// other language.
type Text struct {
	En string `yaml:"en" json:"en,omitempty"`
	Zh string `yaml:"zh" json:"zh,omitempty"`
}

// In returns the text in a language. A text with no translation falls
// back to the other language, marked so that the learner sees it is not
// theirs ("[en] ..." or "[中文] ..."); an empty text stays empty.
func (t Text) In(l assess.Lang) string {
	switch {
	case l == assess.Chinese && t.Zh != "", l == assess.English && t.En != "":
		return pickText(l, t)
	case t.En != "":
		return "[en] " + t.En
	case t.Zh != "":
		return "[中文] " + t.Zh
	}
	return ""
}

func pickText(l assess.Lang, t Text) string {
	if l == assess.Chinese {
		return t.Zh
	}
	return t.En
}

// Scenario is one worked case.
type Scenario struct {
	// Number is the scenario's place in the list, from 1.
	Number int
	// File is where the scenario came from, e.g. "data/04-write-without-approval.yaml".
	File  string
	ID    string
	Title Text
	Story Text
	// Scene sets the scene while a question about the scenario is open
	// (the quiz, the poll, the presenter's "ask the room"): the situation
	// without its conclusion. The Story, which may say the lesson, shows
	// once the question is answered.
	Scene        Text
	Injected     Text
	DoesNotProve Text
	Notes        Text
	// Case is the scenario's body on its track: its input and the
	// answer expected; nil in a Scenario nobody filled in, which has no
	// track.
	Case Case
	// injectedAt is where injected.en and injected.zh are in the file
	// (line, column), for InjectedProblems.
	injectedAt [2][2]int
}

// file is the YAML shape of a scenario file.
type file struct {
	ID           string `yaml:"id"`
	Track        string `yaml:"track"`
	Title        Text   `yaml:"title"`
	Story        Text   `yaml:"story"`
	Scene        Text   `yaml:"scene"`
	Injected     Text   `yaml:"injected"`
	DoesNotProve Text   `yaml:"doesNotProve"`
	Notes        Text   `yaml:"notes"`
	Input        any    `yaml:"input"`
	Expect       *struct {
		Status           *string   `yaml:"status"`
		Code             *string   `yaml:"code"`
		MissingArguments []string  `yaml:"missingArguments"`
		EffectStatus     *string   `yaml:"effectStatus"`
		Diagnostics      *[]string `yaml:"diagnostics"`
		Pending          *[]string `yaml:"pending"`
		Error            *string   `yaml:"error"`
		Class            *string   `yaml:"class"`
	} `yaml:"expect"`
}

// Builtin returns the built-in scenarios: the files of data/, read and
// checked against the core at test time and kept in the binary as Go
// values (builtin_gen.go, TestBuiltinIsGenerated), so that starting the
// trainer reads and checks nothing; it cost 10-40 ms of the first frame.
// Each call returns values of its own.
func Builtin() []Scenario { return builtinScenarios() }

func isScenarioFile(name string) bool {
	switch path.Ext(name) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// tooLarge is the problem of a file larger than MaxFileSize, however it
// was found.
var tooLarge = fmt.Sprintf("file is larger than %d bytes, the most a scenario may have", MaxFileSize)

// Combine joins scenario lists, in order, into one: a second scenario
// with an id already used is a problem naming both files and is left out.
// The result is ordered by track and numbered from 1 within each track.
func Combine(lists ...[]Scenario) ([]Scenario, Problems) {
	var out []Scenario
	var problems Problems
	ids := map[string]string{}
	for _, list := range lists {
		for _, s := range list {
			if other, dup := ids[s.ID]; dup {
				problems = append(problems, Problem{File: s.File, Msg: decode.ClipQuotes(fmt.Sprintf("id %q is already used by %s", s.ID, other))})
				continue
			}
			ids[s.ID] = s.File
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b Scenario) int {
		return slices.Index(Tracks, a.Track()) - slices.Index(Tracks, b.Track())
	})
	count := map[Track]int{}
	for i := range out {
		count[out[i].Track()]++
		out[i].Number = count[out[i].Track()]
	}
	return out, problems
}

// Track is the scenario's track, from its case; 0, not a track, for a
// scenario without one.
func (s Scenario) Track() Track {
	if s.Case == nil {
		return 0
	}
	return s.Case.Track()
}

// Check compares the expected answer with what the track's core says. A
// scenario without a case is an error.
func (s Scenario) Check() error {
	if s.Case == nil {
		return fmt.Errorf("scenario %q has no track", s.ID)
	}
	return s.Case.Check()
}

// Find returns the scenario with this id, or with this number in the
// track.
func Find(all []Scenario, track Track, key string) (Scenario, bool) {
	for _, s := range all {
		if s.ID == key || s.Track() == track && strconv.Itoa(s.Number) == key {
			return s, true
		}
	}
	return Scenario{}, false
}

// InTrack returns the scenarios of one track, in order.
func InTrack(all []Scenario, track Track) []Scenario {
	var out []Scenario
	for _, s := range all {
		if s.Track() == track {
			out = append(out, s)
		}
	}
	return out
}

//go:embed templates/*.yaml
var templates embed.FS

// Template is a commented scenario file to start from, for a track.
func Template(track Track) ([]byte, error) {
	if !track.Valid() {
		return nil, fmt.Errorf("%s: want %s", track, TrackNames())
	}
	return templates.ReadFile("templates/" + track.String() + ".yaml")
}
