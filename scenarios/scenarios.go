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
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"

	"toolgate/assess"
	"toolgate/decode"
)

//go:embed data/*.yaml
var builtin embed.FS

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

// Expect is the verdict a scenario says assess gives.
type Expect struct {
	Status           assess.Status `yaml:"status"`
	Code             assess.Code   `yaml:"code"`
	MissingArguments []string      `yaml:"missingArguments"`
	EffectStatus     string        `yaml:"effectStatus"`
}

func (e Expect) String() string {
	s := e.Status.String() + "/" + e.Code.String()
	if len(e.MissingArguments) > 0 {
		s += " [" + strings.Join(e.MissingArguments, ", ") + "]"
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
	Input        assess.Input
	Expect       Expect
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
		Status           string   `yaml:"status"`
		Code             string   `yaml:"code"`
		MissingArguments []string `yaml:"missingArguments"`
		EffectStatus     string   `yaml:"effectStatus"`
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
	names, err := fs.Glob(fsys, "*.yaml")
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
		s.Number = len(out) + 1
		out = append(out, s)
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
		s.Track = "admission"
	}
	if err := s.Expect.Status.UnmarshalText([]byte(f.Expect.Status)); err != nil {
		return s, fmt.Errorf("%s: expect.status: %v", at(name, data, "$.expect.status"), err)
	}
	if err := s.Expect.Code.UnmarshalText([]byte(f.Expect.Code)); err != nil {
		return s, fmt.Errorf("%s: expect.code: %v", at(name, data, "$.expect.code"), err)
	}
	s.Expect.MissingArguments, s.Expect.EffectStatus = f.Expect.MissingArguments, f.Expect.EffectStatus

	raw, err := json.Marshal(f.Input)
	if err != nil {
		return s, fmt.Errorf("%s: input: %v", name, err)
	}
	in, err := decode.Input(raw)
	if err != nil {
		var list decode.Errors
		if !errors.As(err, &list) {
			var one *decode.Error
			errors.As(err, &one)
			list = decode.Errors{one}
		}
		errs := make([]error, len(list))
		for i, e := range list {
			errs[i] = fmt.Errorf("%s: input.%v", at(name, data, "$.input."+e.Path), e)
		}
		return s, errors.Join(errs...)
	}
	s.Input = in
	if err := s.Check(); err != nil {
		return s, fmt.Errorf("%s: %v", at(name, data, "$.expect.code"), err)
	}
	return s, nil
}

// Check compares the expected verdict with what assess says.
func (s Scenario) Check() error {
	v, trace := assess.Explain(&s.Input)
	e := s.Expect
	if v.Status == e.Status && v.Code == e.Code &&
		slices.Equal(v.MissingArguments, e.MissingArguments) && v.EffectStatus == e.EffectStatus {
		return nil
	}
	got := Expect{Status: v.Status, Code: v.Code, MissingArguments: v.MissingArguments, EffectStatus: v.EffectStatus}
	fired := trace.Fired()
	return fmt.Errorf("expected %s, assess says %s (rule %d fired: %s)",
		e, got, fired.Rule, fired.Explanation(assess.English))
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

// Find returns the scenario with this number or id.
func Find(all []Scenario, key string) (Scenario, bool) {
	for _, s := range all {
		if s.ID == key || fmt.Sprint(s.Number) == key {
			return s, true
		}
	}
	return Scenario{}, false
}
