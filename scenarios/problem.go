package scenarios

import (
	"errors"
	"fmt"
	"strings"

	"github.com/goccy/go-yaml"

	"toolgate/decode"
)

// Problem is one thing wrong with a scenario file, where it is known.
type Problem struct {
	File      string
	Line, Col int
	Msg       string
}

// Error is the compiler style editors jump to: file:line:column: message.
func (p Problem) Error() string {
	if p.Line == 0 {
		return p.File + ": " + p.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Col, p.Msg)
}

// Problems is every problem found, in the order found.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// yamlProblem turns a go-yaml error ("[2:1] unknown field ...") into a
// Problem.
func yamlProblem(name string, err error) Problem {
	var te *yaml.TypeError
	if errors.As(err, &te) && te.Token != nil {
		// "cannot unmarshal []interface {} into Go struct field file.ID"
		// speaks Go; say it in the file's terms.
		field := "value"
		if te.StructFieldName != nil {
			field = lowerFirst(strings.TrimPrefix(*te.StructFieldName, "file."))
		}
		return Problem{File: name, Line: te.Token.Position.Line, Col: te.Token.Position.Column,
			Msg: fmt.Sprintf("%s: want %s, got %s", field, decode.KindOf(te.DstType), decode.KindOf(te.SrcType))}
	}
	msg, _, _ := strings.Cut(yaml.FormatError(err, false, false), "\n")
	if pos, rest, ok := strings.Cut(strings.TrimPrefix(msg, "["), "] "); ok && strings.HasPrefix(msg, "[") {
		var line, col int
		if _, err := fmt.Sscanf(pos, "%d:%d", &line, &col); err == nil {
			return Problem{File: name, Line: line, Col: col, Msg: decode.ClipQuotes(rest)}
		}
	}
	return Problem{File: name, Msg: decode.ClipQuotes(msg)}
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	if s == "ID" {
		return "id"
	}
	return strings.ToLower(s[:1]) + s[1:]
}
