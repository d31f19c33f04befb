// Package scenarios loads toolgate's scenarios: YAML files, one scenario a
// file, each with its title and story in English and Chinese, the full
// assess input and the verdict it is expected to get. The built-in ones are
// embedded in the binary. Every scenario is checked against assess when it
// is loaded: a scenario whose expected verdict is not what assess says is a
// load error that names the file.
package scenarios

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"

	"toolgate/assess"
	"toolgate/decode"
)

//go:embed data
var builtin embed.FS

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

// In returns the text in a language, or in the other one when it lacks a
// translation.
func (t Text) In(l assess.Lang) string {
	if l == assess.Chinese && t.Zh != "" || t.En == "" {
		return t.Zh
	}
	return t.En
}

// Expect is the answer a scenario says its track's core gives: an
// admission verdict, an audit's diagnostics (or input error), or an
// outcome class.
type Expect struct {
	// Admission.
	Status           assess.Status
	Code             assess.Code
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
	s := e.Status.String() + "/" + e.Code.String()
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
	File         string
	ID           string
	Track        string
	Title        Text
	Story        Text
	Injected     Text
	DoesNotProve Text
	Notes        Text
	// The input, for the scenario's track.
	Input   assess.Input
	Audit   assess.AuditInput
	Outcome assess.OutcomeInput
	Expect  Expect
}

// file is the YAML shape of a scenario file.
type file struct {
	ID           string `yaml:"id"`
	Track        string `yaml:"track"`
	Title        Text   `yaml:"title"`
	Story        Text   `yaml:"story"`
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

// Builtin loads the embedded scenarios.
func Builtin() ([]Scenario, error) {
	sub, err := fs.Sub(builtin, "data")
	if err != nil {
		return nil, err
	}
	return LoadFS(sub, "data")
}

// MustBuiltin is Builtin for callers that cannot go on without the
// embedded scenarios; they are checked by the package's tests.
func MustBuiltin() []Scenario {
	s, err := Builtin()
	if err != nil {
		panic(err)
	}
	return s
}

// LoadFS loads every *.yaml file of fsys, in file-name order, and numbers
// them from 1. prefix is put before file names in errors. All problems are
// returned together.
func LoadFS(fsys fs.FS, prefix string) ([]Scenario, error) {
	var names []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path.Ext(p) == ".yaml" {
			names = append(names, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var out []Scenario
	var errs []error
	ids := map[string]string{}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		shown := path.Join(prefix, name)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", shown, err))
			continue
		}
		s, err := Parse(shown, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if other, dup := ids[s.ID]; dup {
			errs = append(errs, fmt.Errorf("%s: id %q is already used by %s", shown, s.ID, other))
			continue
		}
		ids[s.ID] = shown
		out = append(out, s)
	}
	// Tracks in their order, files in name order within a track, numbered
	// from 1 in each track.
	slices.SortStableFunc(out, func(a, b Scenario) int {
		return slices.Index(Tracks, a.Track) - slices.Index(Tracks, b.Track)
	})
	count := map[string]int{}
	for i := range out {
		count[out[i].Track]++
		out[i].Number = count[out[i].Track]
	}
	return out, errors.Join(errs...)
}

// Parse reads one scenario file and checks it against assess. name is used
// in errors.
func Parse(name string, data []byte) (Scenario, error) {
	var f file
	if err := yaml.UnmarshalWithOptions(data, &f, yaml.DisallowUnknownField()); err != nil {
		return Scenario{}, yamlError(name, err)
	}
	s := Scenario{File: name, ID: f.ID, Track: f.Track, Title: f.Title, Story: f.Story,
		Injected: f.Injected, DoesNotProve: f.DoesNotProve, Notes: f.Notes}
	switch {
	case f.ID == "":
		return s, fmt.Errorf("%s: id: required", name)
	case f.Title.En == "" && f.Title.Zh == "":
		return s, fmt.Errorf("%s: title: required in at least one language", name)
	case f.Expect == nil:
		return s, fmt.Errorf("%s: expect: required", name)
	case f.Input == nil:
		return s, fmt.Errorf("%s: input: required", name)
	}
	if s.Track == "" {
		s.Track = TrackAdmission
	}
	if !slices.Contains(Tracks, s.Track) {
		return s, fmt.Errorf("%s: track %q: want %s", at(name, data, "$.track"), s.Track, strings.Join(Tracks, ", "))
	}
	ex := f.Expect
	// Each track has its own expected fields; another track's is a mistake.
	foreign := map[string][]struct {
		set  bool
		path string
	}{
		TrackAdmission: {{ex.Diagnostics != nil, "diagnostics"}, {ex.Pending != nil, "pending"}, {ex.Error != nil, "error"}, {ex.Class != nil, "class"}},
		TrackAudit: {{ex.Status != nil, "status"}, {ex.Code != nil, "code"}, {ex.MissingArguments != nil, "missingArguments"},
			{ex.EffectStatus != nil, "effectStatus"}, {ex.Class != nil, "class"}},
		TrackOutcome: {{ex.Status != nil, "status"}, {ex.Code != nil, "code"}, {ex.MissingArguments != nil, "missingArguments"},
			{ex.EffectStatus != nil, "effectStatus"}, {ex.Diagnostics != nil, "diagnostics"}, {ex.Pending != nil, "pending"}, {ex.Error != nil, "error"}},
	}
	for _, fld := range foreign[s.Track] {
		if fld.set {
			return s, fmt.Errorf("%s: expect.%s: not a field of a %s scenario", at(name, data, "$.expect."+fld.path), fld.path, s.Track)
		}
	}

	raw, err := json.Marshal(f.Input)
	if err != nil {
		return s, fmt.Errorf("%s: input: %v", name, err)
	}
	switch s.Track {
	case TrackAdmission:
		if err := s.Expect.Status.UnmarshalText([]byte(deref(ex.Status))); err != nil {
			return s, fmt.Errorf("%s: expect.status: %v", at(name, data, "$.expect.status"), err)
		}
		if err := s.Expect.Code.UnmarshalText([]byte(deref(ex.Code))); err != nil {
			return s, fmt.Errorf("%s: expect.code: %v", at(name, data, "$.expect.code"), err)
		}
		s.Expect.MissingArguments, s.Expect.EffectStatus = ex.MissingArguments, deref(ex.EffectStatus)
		s.Input, err = decode.Input(raw)
	case TrackAudit:
		s.Expect.Error = deref(ex.Error)
		if ex.Diagnostics != nil {
			s.Expect.Diagnostics = *ex.Diagnostics
		}
		if ex.Pending != nil {
			s.Expect.Pending = *ex.Pending
		}
		if s.Expect.Diagnostics == nil && s.Expect.Error == "" {
			return s, fmt.Errorf("%s: expect: an audit scenario expects diagnostics (may be []) or an error", at(name, data, "$.expect"))
		}
		s.Audit, err = decode.Audit(raw)
	case TrackOutcome:
		if err := s.Expect.Class.UnmarshalText([]byte(deref(ex.Class))); err != nil {
			return s, fmt.Errorf("%s: expect.class: %v", at(name, data, "$.expect.class"), err)
		}
		s.Outcome, err = decode.Outcome(raw)
	}
	if err != nil {
		return s, inputErrors(name, data, err)
	}
	if err := s.Check(); err != nil {
		where := map[string]string{TrackAdmission: "$.expect.code", TrackAudit: "$.expect.diagnostics", TrackOutcome: "$.expect.class"}[s.Track]
		if s.Track == TrackAudit && ex.Error != nil {
			where = "$.expect.error"
		}
		return s, fmt.Errorf("%s: %v", at(name, data, where), err)
	}
	return s, nil
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// inputErrors places decoding errors at their line and column.
func inputErrors(name string, data []byte, err error) error {
	var list decode.Errors
	if !errors.As(err, &list) {
		var one *decode.Error
		if !errors.As(err, &one) {
			return fmt.Errorf("%s: input: %v", name, err)
		}
		list = decode.Errors{one}
	}
	errs := make([]error, len(list))
	for i, e := range list {
		path := "input"
		if e.Path != "" {
			path += "." + e.Path
		}
		errs[i] = fmt.Errorf("%s: %s: %s", at(name, data, "$."+path), path, e.Msg)
	}
	return errors.Join(errs...)
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
	if v.Status == e.Status && v.Code == e.Code &&
		slices.Equal(v.MissingArguments, e.MissingArguments) && v.EffectStatus == e.EffectStatus {
		return nil
	}
	got := Expect{Status: v.Status, Code: v.Code, MissingArguments: v.MissingArguments, EffectStatus: v.EffectStatus}
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

// yamlError turns a go-yaml error ("[2:1] unknown field ...") into the
// compiler style "name:2:1: unknown field ...".
func yamlError(name string, err error) error {
	msg, _, _ := strings.Cut(yaml.FormatError(err, false, false), "\n")
	if pos, rest, ok := strings.Cut(strings.TrimPrefix(msg, "["), "] "); ok && strings.HasPrefix(msg, "[") {
		return fmt.Errorf("%s:%s: %s", name, pos, rest)
	}
	return fmt.Errorf("%s: %s", name, msg)
}

// at is name:line:column of a YAML path in data, or of its nearest parent
// that exists; just name when no position is known.
func at(name string, data []byte, yamlPath string) string {
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return name
	}
	for {
		p, err := yaml.PathString(yamlPath)
		if err == nil {
			if node, err := p.FilterFile(f); err == nil && node != nil {
				pos := node.GetToken().Position
				return fmt.Sprintf("%s:%d:%d", name, pos.Line, pos.Column)
			}
		}
		// Walk up to the nearest existing parent.
		i := max(strings.LastIndexAny(yamlPath, ".["), 0)
		if i <= 1 {
			return name
		}
		yamlPath = yamlPath[:i]
	}
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
