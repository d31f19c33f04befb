package scenarios

import (
	"fmt"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"toolgate/decode"
)

// Limits on a scenario file: a lecturer's file is a few kilobytes, so
// these are far above any real scenario and far below trouble.
const (
	// MaxFileSize is the largest file read.
	MaxFileSize = 1 << 20
	// maxNesting is the deepest nesting of lists and maps.
	maxNesting = 64
	// maxNodes is the most values a file may stand for once its aliases
	// are expanded: a YAML "alias bomb" stands for billions.
	maxNodes = 100_000
)

// guard checks what must hold before a file is decoded: text, not too
// deep, aliases that do not expand without bound. It returns the parsed
// file for positions, or a Problem.
func guard(name string, data []byte) (*ast.File, *Problem) {
	if len(data) == 0 {
		return nil, &Problem{File: name, Msg: "empty file: want a scenario (toolgate new writes one to start from)"}
	}
	if len(data) > MaxFileSize {
		return nil, &Problem{File: name, Msg: fmt.Sprintf("file is %d bytes, more than the %d a scenario may have", len(data), MaxFileSize)}
	}
	if off := invalidUTF8(data); off >= 0 {
		line, col := position(data, off)
		return nil, &Problem{File: name, Line: line, Col: col, Msg: "invalid UTF-8: a scenario file is UTF-8 text"}
	}
	if off := tooDeep(data); off >= 0 {
		line, col := position(data, off)
		return nil, &Problem{File: name, Line: line, Col: col, Msg: fmt.Sprintf("nested more than %d levels deep", maxNesting)}
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		p := yamlProblem(name, err)
		return nil, &p
	}
	c := counter{anchors: map[string]int{}}
	for _, doc := range f.Docs {
		if n := c.count(doc.Body, 0); n > maxNodes || c.over != nil {
			where := c.over
			if where == nil {
				where = doc.Body
			}
			pos := where.GetToken().Position
			return nil, &Problem{File: name, Line: pos.Line, Col: pos.Column,
				Msg: fmt.Sprintf("aliases expand to more than %d values (a YAML alias bomb?)", maxNodes)}
		}
	}
	if len(f.Docs) > 1 {
		pos := f.Docs[1].GetToken().Position
		return nil, &Problem{File: name, Line: pos.Line, Col: pos.Column, Msg: "more than one YAML document: one scenario a file"}
	}
	return f, nil
}

func invalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}

// tooDeep finds where flow nesting ([ and { outside quotes and comments)
// or block indentation goes past maxNesting, before a parser has to
// recurse there.
func tooDeep(data []byte) int {
	depth, indent := 0, 0
	lineStart := true
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '"' || c == '\'':
			// Skip the quoted scalar ("\"" escapes in double quotes, ''
			// in single ones simply closes and reopens).
			for i++; i < len(data) && data[i] != c; i++ {
				if c == '"' && data[i] == '\\' {
					i++
				}
			}
		case c == '#' && (i == 0 || data[i-1] == ' ' || data[i-1] == '\t' || data[i-1] == '\n'):
			for i < len(data) && data[i] != '\n' {
				i++
			}
			i-- // let the newline be seen below
		case c == '[' || c == '{':
			depth++
			if depth > maxNesting {
				return i
			}
		case c == ']' || c == '}':
			depth--
		}
		if i < 0 || i >= len(data) {
			continue
		}
		switch data[i] {
		case '\n':
			lineStart, indent = true, 0
		case ' ':
			if lineStart {
				indent++
				// Two spaces a level is the least block YAML needs here.
				if indent > 2*maxNesting {
					return i
				}
			}
		default:
			lineStart = false
		}
	}
	return -1
}

func position(data []byte, off int) (line, col int) { return decode.Advance(1, 1, data[:off]) }

// counter counts the values a YAML tree stands for with its aliases
// expanded, remembering each anchor's count so that the counting itself
// stays linear however the aliases multiply.
type counter struct {
	anchors map[string]int
	over    ast.Node
}

func (c *counter) count(n ast.Node, depth int) int {
	if n == nil || c.over != nil {
		return 0
	}
	if depth > maxNesting*2 {
		c.over = n
		return 0
	}
	total := 1
	switch n := n.(type) {
	case *ast.MappingNode:
		for _, v := range n.Values {
			total += c.count(v, depth+1)
		}
	case *ast.MappingValueNode:
		total += c.count(n.Key, depth+1) + c.count(n.Value, depth+1)
	case *ast.SequenceNode:
		for _, v := range n.Values {
			total += c.count(v, depth+1)
		}
	case *ast.AnchorNode:
		total = c.count(n.Value, depth+1)
		if name, ok := n.Name.(*ast.StringNode); ok {
			c.anchors[name.Value] = total
		}
	case *ast.AliasNode:
		if name, ok := n.Value.(*ast.StringNode); ok {
			total = c.anchors[name.Value]
		}
	case *ast.TagNode:
		total += c.count(n.Value, depth+1)
	case *ast.MappingKeyNode:
		total += c.count(n.Value, depth+1)
	}
	if total > maxNodes && c.over == nil {
		c.over = n
	}
	return min(total, maxNodes+1)
}
