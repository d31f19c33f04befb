// Package vectors makes conformance vectors: inputs of a track, each with
// the answer toolgate's core gives, for testing someone else's gate. A
// vector's input is JSON text exactly as a gate would read it (so it can
// be wrong: a field of the wrong type, a typo, a duplicate name), and its
// expected answer is what `toolgate assess` (or `audit`, or the outcome
// classification) answers for that text — computed here by decode and
// assess, never written down by hand, so the vectors cannot drift from the
// core.
package vectors

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/scenarios"
)

// The layers a vector tests: toolgate's input check, or the book's
// decision on an input the check accepts.
const (
	LayerDecision = "decision"
	LayerInput    = "input"
)

// Vector is one input and the answer expected for it.
type Vector struct {
	// ID names the vector, e.g. "scenario/write-without-approval" or
	// "field/approval.scope/null".
	ID string `json:"id"`
	// Layer is LayerInput when toolgate's input check refuses the input
	// (a gate passes by refusing it, or by answering anything but
	// allowed), else LayerDecision (a gate passes by giving the expected
	// answer).
	Layer string `json:"layer"`
	// Input is one JSON text, compact, on one line.
	Input jsontext.Value `json:"input"`
	// Expect is the answer: for admission a verdict
	// {status, code, correlationId, missingArguments?, effectStatus?}; for
	// the audit {diagnostics, pending}; for outcomes {class}; for an input
	// the core refuses {"error": "..."} (a gate's message need not match).
	Expect jsontext.Value `json:"expect"`
}

// Answer is the expected answer decoded: exactly one of its parts is set.
type Answer struct {
	Verdict *assess.Verdict
	Audit   *assess.AuditResult
	Class   assess.OutcomeClass
	// Error is the core's message for an input it refuses.
	Error string
	// Refused says the input check refused the input (Error is its
	// message, Reason what it is about: decode.Reason); an Error without
	// it is the decision's own (the audit of a batch that lists a request
	// twice).
	Refused bool
	Reason  string
}

// Layer is the layer of the vector this answer is expected for.
func (a Answer) Layer() string {
	if a.Refused {
		return LayerInput
	}
	return LayerDecision
}

type errorAnswer struct {
	Error string `json:"error"`
}

type classAnswer struct {
	Class assess.OutcomeClass `json:"class"`
}

// Expected is the answer the core gives for one input of a track; for a
// value that is not a track, an error answer that says so.
func Expected(track scenarios.Track, input []byte) Answer {
	switch track {
	case scenarios.TrackAdmission:
		in, err := decode.Input(input)
		if err != nil {
			return Answer{Error: err.Error(), Refused: true, Reason: decode.Reason(err)}
		}
		v := assess.Assess(&in)
		return Answer{Verdict: &v}
	case scenarios.TrackAudit:
		in, err := decode.Audit(input)
		if err != nil {
			return Answer{Error: err.Error(), Refused: true, Reason: decode.Reason(err)}
		}
		r, err := assess.Audit(in)
		if err != nil {
			return Answer{Error: err.Error()}
		}
		return Answer{Audit: &r}
	case scenarios.TrackOutcome:
		in, err := decode.Outcome(input)
		if err != nil {
			return Answer{Error: err.Error(), Refused: true, Reason: decode.Reason(err)}
		}
		class, _, err := assess.Classify(in)
		if err != nil {
			return Answer{Error: err.Error()}
		}
		return Answer{Class: class}
	}
	return Answer{Error: fmt.Sprintf("%s: want %s", track, scenarios.TrackNames())}
}

// JSON is the answer as a gate writes it: one compact line.
func (a Answer) JSON() jsontext.Value {
	var v any
	switch {
	case a.Error != "":
		v = errorAnswer{a.Error}
	case a.Verdict != nil:
		v = a.Verdict
	case a.Audit != nil:
		v = a.Audit
	default:
		v = classAnswer{a.Class}
	}
	b, err := json.Marshal(v, json.Deterministic(true))
	if err != nil {
		panic(fmt.Sprintf("vectors: an answer of the core does not marshal: %v", err))
	}
	return b
}

// For lists a track's vectors: first every scenario of the track in
// list (built-in and the lecturer's), then the generated ones. IDs are
// unique.
func For(track scenarios.Track, list []scenarios.Scenario) ([]Vector, error) {
	if !track.Valid() {
		return nil, fmt.Errorf("%s: want %s", track, scenarios.TrackNames())
	}
	var out []Vector
	for _, s := range scenarios.InTrack(list, track) {
		raw, err := s.Case.Encode()
		if err != nil {
			return nil, fmt.Errorf("scenario %s: %w", s.ID, err)
		}
		out = append(out, make1(track, "scenario/"+s.ID, raw))
	}
	var gen []generated
	switch track {
	case scenarios.TrackAdmission:
		gen = admission()
	case scenarios.TrackAudit:
		gen = audit()
	case scenarios.TrackOutcome:
		gen = outcome()
	}
	for _, g := range gen {
		out = append(out, make1(track, g.id, g.raw))
	}
	seen := map[string]bool{}
	for _, v := range out {
		if seen[v.ID] {
			return nil, fmt.Errorf("vector id %q made twice", v.ID)
		}
		seen[v.ID] = true
	}
	return out, nil
}

func make1(track scenarios.Track, id string, raw []byte) Vector {
	v := jsontext.Value(bytes.Clone(raw))
	if err := v.Compact(); err != nil {
		// Generated inputs may be wrong for toolgate, never for JSON.
		panic(fmt.Sprintf("vectors: %s is not JSON: %v", id, err))
	}
	a := Expected(track, v)
	return Vector{ID: id, Layer: a.Layer(), Input: v, Expect: a.JSON()}
}

// generated is one made-up input.
type generated struct {
	id  string
	raw []byte
}

// tree is a JSON value being built: map[string]any, []any, string,
// float64, bool or nil.
type tree = any

func parse(s string) tree {
	var v tree
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		panic(fmt.Sprintf("vectors: a base input is not JSON: %v", err))
	}
	return v
}

// absent is the value that deletes a field.
type absentT struct{}

var absent = absentT{}

// with returns a deep copy of base with the value at path (dotted, with
// numbers for array elements: "contract.tools.0.name") set, or deleted
// for absent.
func with(base tree, path string, value any) tree {
	c := deepCopy(base)
	parts := strings.Split(path, ".")
	cur := c
	for i, p := range parts {
		last := i == len(parts)-1
		switch node := cur.(type) {
		case map[string]any:
			if last {
				if value == absent {
					delete(node, p)
				} else {
					node[p] = value
				}
				return c
			}
			cur = node[p]
		case []any:
			var n int
			if _, err := fmt.Sscan(p, &n); err != nil || n < 0 || n >= len(node) {
				panic("vectors: bad path " + path)
			}
			if last {
				if value == absent {
					panic("vectors: cannot delete an array element: " + path)
				}
				node[n] = value
				return c
			}
			cur = node[n]
		default:
			panic("vectors: bad path " + path)
		}
	}
	return c
}

func deepCopy(v tree) tree {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		s := make([]any, len(v))
		for i, x := range v {
			s[i] = deepCopy(x)
		}
		return s
	}
	return v
}

func marshal(v tree) []byte {
	b, err := json.Marshal(v, json.Deterministic(true))
	if err != nil {
		panic(fmt.Sprintf("vectors: %v", err))
	}
	return b
}

// dotted turns "contract.tools.0.name" into "contract.tools[0].name", the
// way toolgate names fields (decode.Dotted; the names here hold no "/").
func dotted(path string) string {
	return decode.Dotted(jsontext.Pointer("/"+strings.ReplaceAll(path, ".", "/")), false)
}

// fieldCase is one of the four cases where implementations differ.
type fieldCase struct {
	name  string
	value any
}

// caseSet lists absent, null, "" and a wrong type for a field whose right
// type is kind (string, array or object).
func caseSet(kind string) []fieldCase {
	cases := []fieldCase{{"absent", absent}, {"null", nil}, {"empty-string", ""}}
	switch kind {
	case "string":
		cases = append(cases, fieldCase{"wrong-type-number", 42.0})
	case "array":
		cases = append(cases, fieldCase{"wrong-type-string", "x"}, fieldCase{"empty-array", []any{}})
	case "object":
		cases = append(cases, fieldCase{"wrong-type-array", []any{}}, fieldCase{"empty-object", map[string]any{}})
	}
	return cases
}

// InLayer keeps the vectors of a layer: LayerDecision, LayerInput, or
// every vector for "all".
func InLayer(vs []Vector, layer string) []Vector {
	if layer == "all" {
		return vs
	}
	var out []Vector
	for _, v := range vs {
		if v.Layer == layer {
			out = append(out, v)
		}
	}
	return out
}

// Write writes vectors as JSON Lines, one {"id","layer","input","expect"}
// a line. The input is written byte for byte as it was made: its escapes,
// a duplicate name or a lone surrogate are the point of some vectors.
func Write(w io.Writer, vs []Vector) error {
	var b []byte
	for _, v := range vs {
		b = append(b[:0], `{"id":`...)
		var err error
		if b, err = jsontext.AppendQuote(b, v.ID); err != nil {
			return fmt.Errorf("vector %s: %w", v.ID, err)
		}
		b = append(b, `,"layer":"`...)
		b = append(b, v.Layer...)
		b = append(b, `","input":`...)
		b = append(b, v.Input...)
		b = append(b, `,"expect":`...)
		b = append(b, v.Expect...)
		b = append(b, "}\n"...)
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}
