// Package importer turns artefacts of real agent harnesses into toolgate
// inputs: an MCP server's tools/list answer (or a model API's tools
// parameter) into a contract (and a scenario around it), and a model
// transcript — Anthropic Messages, OpenAI Chat Completions and Responses,
// an MCP JSON-RPC log, a Claude Code session log, Gemini, LangChain,
// Vercel AI SDK, Bedrock Converse, a Codex CLI rollout — into
// correlation-audit batches, read as a stream.
//
// Everything it reads is untrusted: the input is bounded in size, in
// nesting and in what is held at once, and every problem is an error that
// names the place (line and column, and the field) — never a panic.
package importer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"toolgate/decode"
)

// Limits on what is read.
const (
	// MaxInput is the most bytes of a tool list (import mcp).
	MaxInput = 32 << 20
	// MaxDepth is the deepest nesting of arrays and objects accepted.
	MaxDepth = 128
)

// Error is a problem in the input, with where it is. Line and Column are
// 1-based (byte columns, as Go's compiler counts); 0 when unknown.
type Error struct {
	Name         string
	Line, Column int
	// Path names the field, e.g. "result.tools[2].annotations.readOnlyHint".
	Path string
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Name)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ReadAll reads r up to MaxInput bytes; a larger input is an error, and
// nothing past the limit is read.
func ReadAll(r io.Reader, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return nil, &Error{Name: name, Msg: err.Error()}
	}
	if len(data) > MaxInput {
		return nil, &Error{Name: name, Msg: fmt.Sprintf("larger than %d MiB, the most toolgate imports", MaxInput>>20)}
	}
	return data, nil
}

// values splits data into its JSON values (one value, JSON Lines, or
// values separated by whitespace), each checked to be JSON and not nested
// deeper than MaxDepth.
func values(name string, data []byte) ([]decode.Value, error) {
	// One value may be as large as the whole input; the stream's own
	// depth limit is looser than MaxDepth, which tooDeep checks.
	s := decode.NewStreamMax(bytes.NewReader(data), MaxInput)
	var out []decode.Value
	for {
		v, err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, &Error{Name: name, Msg: err.Error()}
		}
		if v.Err != nil {
			e := &Error{Name: name, Line: v.Line, Column: v.Column, Msg: v.Err.Error()}
			if deep, ok := errors.AsType[*decode.TooDeep](v.Err); ok {
				e.Line, e.Column = deep.Line, deep.Column
			}
			return nil, e
		}
		// Raw is the stream's buffer, which the next value overwrites.
		v.Raw = bytes.Clone(v.Raw)
		if off, ok := tooDeep(v.Raw); ok {
			line, col := v.Position(off)
			return nil, &Error{Name: name, Line: line, Column: col, Msg: fmt.Sprintf("nested deeper than %d levels", MaxDepth)}
		}
		// Duplicate names are for the decoders to report, with the field;
		// invalid UTF-8 is not JSON, before any guess at the format.
		if nj := decode.NotJSONIn(v.Raw, jsontext.AllowInvalidUTF8(false)); nj != nil {
			line, col := v.Position(nj.Offset)
			return nil, &Error{Name: name, Line: line, Column: col, Msg: "not JSON: " + nj.Msg}
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, &Error{Name: name, Msg: "empty: no JSON value"}
	}
	return out, nil
}

// tooDeep finds where nesting passes MaxDepth, counting brackets outside
// strings.
func tooDeep(raw []byte) (int64, bool) {
	depth, inString, escaped := 0, false, false
	for i, c := range raw {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			if depth > MaxDepth {
				return int64(i), true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return 0, false
}

// lenient decodes JSON from the outside world: unknown members are
// allowed (the protocols grow), duplicate names and invalid UTF-8 are not.
var lenient = json.JoinOptions(
	jsontext.AllowDuplicateNames(false),
	jsontext.AllowInvalidUTF8(false),
)

// unmarshal decodes raw (a part of value v, starting at byte base of v)
// into out; an error names the line, column and the field, with prefix
// before the field path.
func unmarshal(name string, v decode.Value, raw []byte, base int64, prefix string, out any) error {
	err := json.Unmarshal(raw, out, lenient)
	if err == nil {
		return nil
	}
	path, msg, off := decode.Describe(err, true)
	e := &Error{Name: name, Path: join(prefix, path), Msg: msg}
	if off >= 0 {
		e.Line, e.Column = v.Position(base + off)
	}
	return e
}

// at is an error at a field of value v, placed at the value's start when
// the field's own place is not known.
func at(name string, v decode.Value, path, format string, args ...any) *Error {
	return &Error{Name: name, Line: v.Line, Column: v.Column, Path: path, Msg: fmt.Sprintf(format, args...)}
}

func join(prefix, path string) string {
	switch {
	case prefix == "":
		return path
	case path == "":
		return prefix
	case strings.HasPrefix(path, "["):
		return prefix + path
	}
	return prefix + "." + path
}

// members reads the top-level members of an object value and where
// each value starts. An error says why raw is not an object of unique
// names.
func members(raw []byte) (map[string]member, error) {
	if k := jsontext.Value(raw).Kind(); k != '{' {
		return nil, fmt.Errorf("want object, got %s", decode.JSONKind(k))
	}
	dec := jsontext.NewDecoder(strings.NewReader(string(raw)), jsontext.AllowDuplicateNames(true))
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	out := map[string]member{}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		name := tok.String() // a token is void after the next read
		val, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		val = bytes.Clone(val) // the decoder reuses its buffer
		if _, seen := out[name]; seen {
			return nil, fmt.Errorf("duplicate field %q", name)
		}
		out[name] = member{Raw: val, Offset: dec.InputOffset() - int64(len(val))}
	}
	return out, nil
}

// member is one member's value and its byte offset in the object's text.
type member struct {
	Raw    jsontext.Value
	Offset int64
}

// str reads a JSON string member; ok is false when absent or null.
func str(m map[string]member, key string) (string, bool, error) {
	v, present := m[key]
	if !present || v.Raw.Kind() == 'n' {
		return "", false, nil
	}
	if v.Raw.Kind() != '"' {
		return "", false, fmt.Errorf("want string, got %s", decode.JSONKind(v.Raw.Kind()))
	}
	var s string
	if err := json.Unmarshal(v.Raw, &s); err != nil {
		return "", false, err
	}
	return s, true, nil
}

// offsetOf finds where the value at pointer (e.g. "/tools/2/name") starts
// in raw; ok is false when there is no such value.
func offsetOf(raw []byte, pointer string) (int64, bool) {
	if pointer == "" {
		return 0, true
	}
	dec := jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	for {
		before := dec.InputOffset()
		tok, err := dec.ReadToken()
		if err != nil {
			return 0, false
		}
		if k := tok.Kind(); k == '}' || k == ']' {
			continue
		}
		kind, n := dec.StackIndex(dec.StackDepth())
		if kind == '{' && n%2 == 1 {
			continue // a member's name
		}
		if string(dec.StackPointer()) == pointer {
			// before is where the previous token ended: skip the space,
			// colon or comma after it.
			for before < int64(len(raw)) && strings.ContainsRune(" \t\r\n:,", rune(raw[before])) {
				before++
			}
			return before, true
		}
	}
}

// fieldAt is an error at the field named by pointer in value v (the
// value's start when the field is not found); path is how it is named.
func fieldAt(name string, v decode.Value, pointer, path, format string, args ...any) *Error {
	e := at(name, v, path, format, args...)
	if off, ok := offsetOf(v.Raw, pointer); ok {
		e.Line, e.Column = v.Position(off)
	}
	return e
}
