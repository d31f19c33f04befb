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
	"strings"

	"toolgate/assess"
	"toolgate/decode"
)

// The tracks, in the order they are shown.
const (
	TrackAdmission = "admission"
	TrackAudit     = "audit"
	TrackOutcome   = "outcome"
)

// Tracks lists the tracks in order.
var Tracks = []string{TrackAdmission, TrackAudit, TrackOutcome}

// TrackTitle names a track for people.
func TrackTitle(track string, l assess.Lang) string {
	titles := map[string]Text{
		TrackAdmission: {En: "Admission", Zh: "准入判断"},
		TrackAudit:     {En: "Correlation audit", Zh: "关联审计"},
		TrackOutcome:   {En: "Outcomes", Zh: "结果分类"},
	}
	return titles[track].In(l)
}

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

// Expect is the answer a scenario says its track's core gives: an
// admission verdict, an audit's diagnostics (or input error), or an
// outcome class.
type Expect struct {
	// Admission. ApprovalStatus is the status in approval_<status>.
	Status           assess.Status
	Code             assess.Code
	ApprovalStatus   string
	MissingArguments []string
	EffectStatus     string
	// Audit: the diagnostics and pending IDs, or Error, text the audit's
	// input error must contain.
	Diagnostics []string
	Pending     []string
	Error       string
	// Outcome.
	Class assess.OutcomeClass
}

func (e Expect) admissionString() string {
	s := e.Status.String() + "/" + e.Code.Name(e.ApprovalStatus)
	if len(e.MissingArguments) > 0 {
		s += " [" + strings.Join(e.MissingArguments, ", ") + "]"
	}
	return s
}

func auditString(diagnostics, pending []string, errText string) string {
	if errText != "" {
		return "input error " + strconv.Quote(errText)
	}
	s := "diagnostics [" + strings.Join(diagnostics, " ") + "]"
	if len(pending) > 0 {
		s += " pending [" + strings.Join(pending, " ") + "]"
	}
	return s
}

// Scenario is one worked case.
type Scenario struct {
	// Number is the scenario's place in the list, from 1.
	Number int
	// File is where the scenario came from, e.g. "data/04-write-without-approval.yaml".
	File  string
	ID    string
	Track string
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
	// The input, for the scenario's track.
	Input   assess.Input
	Audit   assess.AuditInput
	Outcome assess.OutcomeInput
	Expect  Expect
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
		return slices.Index(Tracks, a.Track) - slices.Index(Tracks, b.Track)
	})
	count := map[string]int{}
	for i := range out {
		count[out[i].Track]++
		out[i].Number = count[out[i].Track]
	}
	return out, problems
}

// Check compares the expected answer with what the track's core says.
func (s Scenario) Check() error {
	e := s.Expect
	switch s.Track {
	case TrackAudit:
		r, err := assess.Audit(s.Audit)
		switch {
		case err != nil && e.Error != "" && strings.Contains(err.Error(), e.Error):
			return nil
		case err != nil:
			return fmt.Errorf("expected %s, the audit says input error %q", auditString(e.Diagnostics, e.Pending, e.Error), err.Error())
		case e.Error == "" && slices.Equal(r.Diagnostics, e.Diagnostics) && slices.Equal(r.Pending, orEmpty(e.Pending)):
			return nil
		}
		return fmt.Errorf("expected %s, the audit says %s", auditString(e.Diagnostics, e.Pending, e.Error), auditString(r.Diagnostics, r.Pending, ""))
	case TrackOutcome:
		class, _, err := assess.Classify(s.Outcome)
		if err != nil {
			return err
		}
		if class != e.Class {
			return fmt.Errorf("expected class %s, the classification says %s", e.Class, class)
		}
		return nil
	}
	v, trace := assess.Explain(&s.Input)
	if v.Status == e.Status && v.CodeName() == e.Code.Name(e.ApprovalStatus) &&
		slices.Equal(v.MissingArguments, e.MissingArguments) && v.EffectStatus == e.EffectStatus {
		return nil
	}
	got := Expect{Status: v.Status, Code: v.Code, ApprovalStatus: v.ApprovalStatus, MissingArguments: v.MissingArguments, EffectStatus: v.EffectStatus}
	fired := trace.Fired()
	return fmt.Errorf("expected %s, assess says %s (rule %d fired: %s)",
		e.admissionString(), got.admissionString(), fired.Rule, fired.Explanation(assess.English))
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Find returns the scenario with this id, or with this number in the
// track.
func Find(all []Scenario, track, key string) (Scenario, bool) {
	for _, s := range all {
		if s.ID == key || s.Track == track && strconv.Itoa(s.Number) == key {
			return s, true
		}
	}
	return Scenario{}, false
}

// InTrack returns the scenarios of one track, in order.
func InTrack(all []Scenario, track string) []Scenario {
	var out []Scenario
	for _, s := range all {
		if s.Track == track {
			out = append(out, s)
		}
	}
	return out
}

//go:embed templates/*.yaml
var templates embed.FS

// Template is a commented scenario file to start from, for a track.
func Template(track string) ([]byte, error) {
	if !slices.Contains(Tracks, track) {
		return nil, fmt.Errorf("track %q: want %s", track, strings.Join(Tracks, ", "))
	}
	return templates.ReadFile("templates/" + track + ".yaml")
}
