package scenarios

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"

	"toolgate/assess"
	"toolgate/decode"
)

// fields are the known keys of each part of a scenario file; a key not
// listed is reported, every one of them, not only the first.
var fields = map[string][]string{
	"":             {"id", "track", "title", "scene", "story", "injected", "doesNotProve", "notes", "input", "expect"},
	"title":        {"en", "zh"},
	"scene":        {"en", "zh"},
	"story":        {"en", "zh"},
	"injected":     {"en", "zh"},
	"doesNotProve": {"en", "zh"},
	"notes":        {"en", "zh"},
	"expect": {"status", "code", "missingArguments", "effectStatus", // admission
		"diagnostics", "pending", "error", // audit
		"class"}, // outcome
}

// expectFields are the expect keys a track may use.
func expectFields(t Track) []string {
	switch t {
	case TrackAdmission:
		return []string{"status", "code", "missingArguments", "effectStatus"}
	case TrackAudit:
		return []string{"diagnostics", "pending", "error"}
	case TrackOutcome:
		return []string{"class"}
	}
	return nil
}

// Parse reads one scenario file (YAML, or JSON for a name ending in
// .json) and checks it against its track's core. name is used in
// problems. The error, if any, is Problems: every problem found, each
// with its line and column where known.
func Parse(name string, data []byte) (Scenario, error) {
	p := fileParser{name: name, data: data}
	s := p.parse()
	if len(p.problems) > 0 {
		return s, p.problems
	}
	return s, nil
}

type fileParser struct {
	name     string
	data     []byte
	ast      *ast.File
	doc      *ast.DocumentNode
	problems Problems
}

func (p *fileParser) add(yamlPath, format string, args ...any) {
	line, col := p.at(yamlPath)
	p.problems = append(p.problems, Problem{File: p.name, Line: line, Col: col, Msg: decode.ClipQuotes(fmt.Sprintf(format, args...))})
}

func (p *fileParser) parse() Scenario {
	g, problem := guard(p.name, p.data)
	if problem != nil {
		p.problems = append(p.problems, *problem)
		return Scenario{}
	}
	p.ast, p.doc, p.data = g.file, g.doc, g.data
	if path.Ext(p.name) == ".json" {
		dec := jsontext.NewDecoder(bytes.NewReader(p.data))
		if _, err := dec.ReadValue(); err != nil {
			off := dec.InputOffset()
			var sx *jsontext.SyntacticError
			if errors.As(err, &sx) {
				off = sx.ByteOffset
			}
			line, col := position(p.data, int(min(off, int64(len(p.data)))))
			p.problems = append(p.problems, Problem{File: p.name, Line: line, Col: col,
				Msg: "not JSON (a .json scenario must be JSON; YAML goes in .yaml)"})
			return Scenario{}
		}
	}
	p.unknownFields()
	if len(p.problems) > 0 {
		return Scenario{}
	}
	var fl file
	if err := yaml.UnmarshalWithOptions(p.data, &fl, yaml.DisallowUnknownField()); err != nil {
		p.problems = append(p.problems, yamlProblem(p.name, err))
		return Scenario{}
	}
	s := Scenario{File: p.name, ID: fl.ID, Title: fl.Title, Story: fl.Story, Scene: fl.Scene,
		Injected: fl.Injected, DoesNotProve: fl.DoesNotProve, Notes: fl.Notes}
	for i, lang := range []string{"en", "zh"} {
		s.injectedAt[i][0], s.injectedAt[i][1] = p.at("$.injected." + lang)
	}
	if s.ID == "" {
		p.add("", "id: required, a name unique among the scenarios (e.g. write-after-expiry)")
	} else if at := BadIDAt(s.ID); at > 0 {
		p.add("$.id", "id %q: character %d is not allowed: want lowercase letters, digits and -, not first (^[a-z0-9][a-z0-9-]*$)", s.ID, at)
	}
	if s.Title.En == "" && s.Title.Zh == "" {
		p.add("$.title", "title: required in at least one language (en or zh)")
	}
	track := TrackAdmission
	if fl.Track != "" {
		var err error
		if track, err = ParseTrack(fl.Track); err != nil {
			p.add("$.track", "track %q: want %s", fl.Track, TrackNames())
			return s
		}
	}
	if fl.Input == nil {
		p.add("", "input: required")
	}
	if fl.Expect == nil {
		p.add("", "expect: required")
	}
	if fl.Input == nil || fl.Expect == nil {
		return s
	}
	s.Case = p.input(p.expect(track, fl))
	if len(p.problems) > 0 || s.Case == nil {
		return s
	}
	if err := s.Check(); err != nil {
		var where string
		switch track {
		case TrackAdmission:
			where = "$.expect.code"
		case TrackAudit:
			where = "$.expect.diagnostics"
		case TrackOutcome:
			where = "$.expect.class"
		}
		if fl.Expect.Error != nil {
			where = "$.expect.error"
		}
		p.add(where, "%v", err)
	}
	return s
}

// unknownFields reports every key the format does not know, outside input
// (whose fields the decoder checks).
func (p *fileParser) unknownFields() {
	if p.doc == nil {
		return
	}
	top, ok := p.doc.Body.(*ast.MappingNode)
	if !ok {
		if p.doc.Body != nil {
			p.add("", "want a mapping of fields (id, title, input, expect, ...)")
		}
		return
	}
	var walk func(m *ast.MappingNode, part string)
	walk = func(m *ast.MappingNode, part string) {
		for _, mv := range m.Values {
			key := mv.Key.String()
			if sn, ok := mv.Key.(*ast.StringNode); ok {
				key = sn.Value // without the quotes of a JSON key
			}
			known := fields[part]
			if !slices.Contains(known, key) {
				pos := mv.Key.GetToken().Position
				where := key
				if part != "" {
					where = part + "." + key
				}
				msg := fmt.Sprintf("%s: unknown field", decode.Clip(where))
				if hint := decode.Closest(key, known); hint != "" {
					msg += fmt.Sprintf(" (did you mean %s?)", hint)
				}
				p.problems = append(p.problems, Problem{File: p.name, Line: pos.Line, Col: pos.Column, Msg: msg})
				continue
			}
			if part == "" && key != "input" {
				if sub, ok := mv.Value.(*ast.MappingNode); ok && fields[key] != nil {
					walk(sub, key)
				}
			}
		}
	}
	walk(top, "")
}

// expect reads the expected answer of a track's case: the case, with no
// input yet.
func (p *fileParser) expect(track Track, fl file) Case {
	ex := fl.Expect
	set := map[string]bool{
		"status": ex.Status != nil, "code": ex.Code != nil, "missingArguments": ex.MissingArguments != nil,
		"effectStatus": ex.EffectStatus != nil, "diagnostics": ex.Diagnostics != nil, "pending": ex.Pending != nil,
		"error": ex.Error != nil, "class": ex.Class != nil,
	}
	own := expectFields(track)
	for _, k := range fields["expect"] {
		if set[k] && !slices.Contains(own, k) {
			p.add("$.expect."+k, "expect.%s: not a field of the %s track (it has %s)", k, track, strings.Join(own, ", "))
		}
	}
	switch track {
	case TrackAdmission:
		var c AdmissionCase
		if ex.Status == nil || ex.Code == nil {
			p.add("$.expect", "expect: an admission scenario expects a status and a code")
			return c
		}
		if err := c.Expect.Status.UnmarshalText([]byte(*ex.Status)); err != nil {
			p.add("$.expect.status", "expect.status: %v", err)
		}
		code, status, err := assess.ParseCode(*ex.Code)
		if err != nil {
			p.add("$.expect.code", "expect.code: %v", err)
		}
		c.Expect.Code, c.Expect.ApprovalStatus = code, status
		c.Expect.MissingArguments, c.Expect.EffectStatus = ex.MissingArguments, deref(ex.EffectStatus)
		return c
	case TrackAudit:
		var c AuditCase
		c.Expect.Error = deref(ex.Error)
		if ex.Diagnostics != nil {
			c.Expect.Diagnostics = *ex.Diagnostics
		}
		if ex.Pending != nil {
			c.Expect.Pending = *ex.Pending
		}
		if c.Expect.Diagnostics == nil && c.Expect.Error == "" {
			p.add("$.expect", "expect: an audit scenario expects diagnostics (may be []) or an error")
		}
		return c
	case TrackOutcome:
		var c OutcomeCase
		if err := c.Expect.Class.UnmarshalText([]byte(deref(ex.Class))); err != nil {
			p.add("$.expect.class", "expect.class: %v", err)
		}
		return c
	}
	p.add("$.track", "%s: want %s", track, TrackNames())
	return nil
}

// input decodes the scenario's input from the JSON it stands for, with
// the decoder toolgate assess uses, into the case.
func (p *fileParser) input(c Case) Case {
	node := p.inputNode()
	raw, err := newInputWriter(p.doc.Body).write(nil, node, "input")
	if err != nil {
		var pa *problemAt
		if errors.As(err, &pa) {
			pos := pa.node.GetToken().Position
			p.problems = append(p.problems, Problem{File: p.name, Line: pos.Line, Col: pos.Column, Msg: decode.Clip(pa.path) + ": " + pa.msg})
			return c
		}
		p.add("$.input", "input: %v", err)
		return c
	}
	switch cc := c.(type) {
	case AdmissionCase:
		cc.Input, err = decode.Input(raw)
		c = cc
	case AuditCase:
		cc.Input, err = decode.Audit(raw)
		c = cc
	case OutcomeCase:
		cc.Input, err = decode.Outcome(raw)
		c = cc
	case nil:
		return nil
	}
	if err == nil {
		return c
	}
	var list decode.Errors
	if !errors.As(err, &list) {
		var one *decode.Error
		if !errors.As(err, &one) {
			p.add("$.input", "input: %v", err)
			return c
		}
		list = decode.Errors{one}
	}
	for _, e := range list {
		where := "input"
		if e.Path != "" {
			where += "." + e.Path
		}
		p.add("$."+where, "%s: %s", where, e.Msg)
	}
	return c
}

// inputNode is the value of the top-level input field.
func (p *fileParser) inputNode() ast.Node {
	if top, ok := p.doc.Body.(*ast.MappingNode); ok {
		for _, mv := range top.Values {
			if k, ok := mv.Key.(*ast.StringNode); ok && k.Value == "input" {
				return mv.Value
			}
		}
	}
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// at finds the line and column of a YAML path, or of its nearest parent
// that exists; 0, 0 when none does.
func (p *fileParser) at(yamlPath string) (line, col int) {
	if p.ast == nil || yamlPath == "" {
		return 0, 0
	}
	for {
		yp, err := yaml.PathString(yamlPath)
		if err == nil {
			if node, err := yp.FilterFile(p.ast); err == nil && node != nil {
				pos := node.GetToken().Position
				return pos.Line, pos.Column
			}
		}
		i := max(strings.LastIndexAny(yamlPath, ".["), 0)
		if i <= 1 {
			return 0, 0
		}
		yamlPath = yamlPath[:i]
	}
}

// BadIDAt is where an id goes wrong: the position (from 1, in
// characters) of the first character not allowed, 0 if none is. An id is
// ^[a-z0-9][a-z0-9-]*$: it names files (a what-if copy is ID-whatif-N.yaml)
// and is shown everywhere, so it holds no path, no space and no control
// character.
func BadIDAt(id string) int {
	for i, r := range []rune(id) {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' && i > 0) {
			return i + 1
		}
	}
	return 0
}
