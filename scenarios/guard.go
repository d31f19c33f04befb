package scenarios

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"toolgate/decode"
)

// Limits on a scenario file: a lecturer's file is a few kilobytes, so
// these are far above any real scenario and far below trouble.
const (
	// MaxFileSize is the largest file read.
	MaxFileSize = 1 << 20
	// maxNesting is the deepest nesting of lists and maps, the file's own
	// top-level mapping counting as the first level.
	maxNesting = 64
	// maxNodes is the most values a file may stand for once its aliases
	// are expanded: a YAML "alias bomb" stands for billions.
	maxNodes = 100_000
)

// bom is the UTF-8 byte order mark some editors put first in a file.
var bom = []byte("\ufeff")

// guarded is a file that passed the guard: its text (without a byte
// order mark) and its one document.
type guarded struct {
	data []byte
	file *ast.File
	// doc is the scenario's document: the first that is not a directive.
	doc *ast.DocumentNode
}

// guard checks what must hold before a file is decoded: text, not too
// deep, no tags, aliases that neither expand without bound nor contain
// themselves, one document. Depth and tags are read from go-yaml's own
// tokens before its parser (which recurses once a level) runs; the tokens
// are made in one linear pass. It returns the parsed file, or a Problem.
func guard(name string, data []byte) (guarded, *Problem) {
	// A byte order mark is not part of the text; positions count from
	// after it, as editors show them.
	data = bytes.TrimPrefix(data, bom)
	if len(data) == 0 {
		return guarded{}, &Problem{File: name, Msg: "empty file: want a scenario (toolgate new writes one to start from)"}
	}
	if len(data) > MaxFileSize {
		return guarded{}, &Problem{File: name, Msg: tooLarge}
	}
	if off := invalidUTF8(data); off >= 0 {
		line, col := position(data, off)
		return guarded{}, &Problem{File: name, Line: line, Col: col, Msg: "invalid UTF-8: a scenario file is UTF-8 text"}
	}
	tokens, deep := tokenize(data)
	if deep != nil {
		return guarded{}, tokenProblem(name, deep, fmt.Sprintf("nested more than %d levels deep", maxNesting))
	}
	for _, tk := range tokens {
		if tk.Type == token.TagType {
			return guarded{}, tokenProblem(name, tk, fmt.Sprintf("tag %s: a scenario's values are plain YAML (strings, numbers, true/false, null, lists, mappings); remove the tag, and quote the value if it is a string", decode.Clip(tk.Value)))
		}
	}
	f, err := parser.Parse(tokens, 0)
	if err != nil {
		p := yamlProblem(name, err)
		return guarded{}, &p
	}
	// A directive (%YAML 1.2) comes as a document of its own; it only
	// says which YAML the file is written in.
	var docs []*ast.DocumentNode
	for _, d := range f.Docs {
		if _, directive := d.Body.(*ast.DirectiveNode); !directive {
			docs = append(docs, d)
		}
	}
	if len(docs) > 1 {
		var pos *token.Position
		if docs[1].Body != nil {
			pos = docs[1].GetToken().Position
		} else if docs[1].Start != nil {
			pos = docs[1].Start.Position
		}
		p := Problem{File: name, Msg: "more than one YAML document: one scenario a file"}
		if pos != nil {
			p.Line, p.Col = pos.Line, pos.Column
		}
		return guarded{}, &p
	}
	g := guarded{data: data, file: f}
	if len(docs) == 1 {
		g.doc = docs[0]
		c := counter{anchors: map[string]int{}, open: map[string]bool{}}
		if n := c.count(g.doc.Body); n > maxNodes || c.problem != "" {
			where := c.over
			if where == nil {
				where = g.doc.Body
			}
			msg := c.problem
			if msg == "" {
				msg = fmt.Sprintf("aliases expand to more than %d values (a YAML alias bomb?)", maxNodes)
			}
			return guarded{}, tokenProblem(name, where.GetToken(), msg)
		}
	}
	return g, nil
}

// tokenize makes go-yaml's tokens of data and finds the first token
// nested past maxNesting, if any. go-yaml's lexer keeps a token for every
// bracket, so a file that goes too deep is first looked at in its opening
// part: the lexer reads left to right, so the tokens of a part are those
// of the whole file up to where it is cut, and too deep there is too deep.
func tokenize(data []byte) (token.Tokens, *token.Token) {
	for _, n := range []int{64 << 10, 256 << 10} {
		if n >= len(data) {
			break
		}
		for n > 0 && !utf8.RuneStart(data[n]) {
			n--
		}
		if _, deep := nesting(lexer.Tokenize(string(data[:n])), maxNesting); deep != nil {
			return nil, deep
		}
	}
	tokens := lexer.Tokenize(string(data))
	_, deep := nesting(tokens, maxNesting)
	return tokens, deep
}

func tokenProblem(name string, tk *token.Token, msg string) *Problem {
	p := &Problem{File: name, Msg: msg}
	if tk != nil && tk.Position != nil {
		p.Line, p.Col = tk.Position.Line, tk.Position.Column
	}
	return p
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

// block is an open block collection: a sequence or a mapping, and the
// column its entries start at.
type block struct {
	col int
	seq bool
}

// nesting follows the nesting of lists and maps through the tokens, the
// way the parser will build it: it returns the deepest level reached and
// the token that opens the first level past limit, or nil. Flow collections ([ and {) nest by their
// brackets; block ones by the column of their entries ("- " and "key:"):
// an entry right of the open collection's opens a new one inside it, and
// one left of it closes it. A sequence may start at its key's column
// ("key:\n- a"), and is then inside that key's mapping.
func nesting(tokens token.Tokens, limit int) (deepest int, over *token.Token) {
	var blocks []block
	flow := 0
	reach := func(tk *token.Token) {
		deepest = max(deepest, len(blocks)+flow)
		if over == nil && len(blocks)+flow > limit {
			over = tk
		}
	}
	// flowStart is the first token of the outermost flow collection, so
	// that a flow collection used as a key ([a, b]: c) starts there.
	var flowStart *token.Token
	for i, tk := range tokens {
		switch tk.Type {
		case token.DocumentHeaderType, token.DocumentEndType:
			blocks, flow = blocks[:0], 0
			continue
		case token.SequenceStartType, token.MappingStartType:
			if flow == 0 {
				flowStart = tk
			}
			flow++
			reach(tk)
			continue
		case token.SequenceEndType, token.MappingEndType:
			flow = max(flow-1, 0)
			continue
		default:
			// An entry, a key or a scalar: below.
		}
		if flow > 0 {
			continue
		}
		var seq bool
		switch tk.Type {
		case token.SequenceEntryType:
			seq = true
		case token.MappingKeyType:
		case token.MappingValueType:
			tk = keyStart(tokens, i, flowStart)
		default:
			continue
		}
		col := tk.Position.Column
		// Close the collections this entry is left of; a key at the
		// column of a sequence that started at its mapping's column ends
		// that sequence.
		for len(blocks) > 0 {
			top := blocks[len(blocks)-1]
			if top.col > col || top.col == col && top.seq && !seq {
				blocks = blocks[:len(blocks)-1]
				continue
			}
			break
		}
		if n := len(blocks); n > 0 && blocks[n-1].col == col && blocks[n-1].seq == seq {
			continue // one more entry of the open collection
		}
		blocks = append(blocks, block{col: col, seq: seq})
		reach(tk)
	}
	return deepest, over
}

// keyStart is the first token of the key whose ":" is tokens[i]: the
// token before it, or the flow collection it closes, with any anchor
// (an "&" and its name) or tag before it on the same line. An empty key
// (": x") starts at the ":".
func keyStart(tokens token.Tokens, i int, flowStart *token.Token) *token.Token {
	colon := tokens[i]
	sameLine := func(j int) bool { return j >= 0 && tokens[j].Position.Line == colon.Position.Line }
	if !sameLine(i - 1) {
		return colon
	}
	j := i - 1
	if t := tokens[j].Type; (t == token.SequenceEndType || t == token.MappingEndType) && flowStart != nil {
		for j > 0 && tokens[j] != flowStart {
			j--
		}
	}
	for {
		switch {
		case sameLine(j-2) && tokens[j-2].Type == token.AnchorType:
			j -= 2 // "&" and the anchor's name
		case sameLine(j-1) && tokens[j-1].Type == token.TagType:
			j--
		default:
			return tokens[j]
		}
	}
}

func position(data []byte, off int) (line, col int) { return decode.Advance(1, 1, data[:off]) }

// counter counts the values a YAML tree stands for with its aliases
// expanded, remembering each anchor's count so that the counting itself
// stays linear however the aliases multiply. An alias inside its own
// anchor would stand for a value that contains itself.
type counter struct {
	anchors map[string]int
	// open are the anchors whose values are being counted.
	open    map[string]bool
	over    ast.Node
	problem string
}

func (c *counter) count(n ast.Node) int {
	if n == nil || c.over != nil {
		return 0
	}
	total := 1
	switch n := n.(type) {
	case *ast.MappingNode:
		for _, v := range n.Values {
			total += c.count(v)
		}
	case *ast.MappingValueNode:
		total += c.count(n.Key) + c.count(n.Value)
	case *ast.SequenceNode:
		for _, v := range n.Values {
			total += c.count(v)
		}
	case *ast.AnchorNode:
		name := anchorName(n.Name)
		c.open[name] = true
		total = c.count(n.Value)
		delete(c.open, name)
		c.anchors[name] = total
	case *ast.AliasNode:
		name := anchorName(n.Value)
		if c.open[name] {
			c.over = n
			c.problem = fmt.Sprintf("alias *%s is inside the value of its own anchor &%s: a value cannot contain itself", decode.Clip(name), decode.Clip(name))
			return 0
		}
		total = c.anchors[name]
	case *ast.TagNode:
		total += c.count(n.Value)
	case *ast.MappingKeyNode:
		total += c.count(n.Value)
	}
	if total > maxNodes && c.over == nil {
		c.over = n
	}
	return min(total, maxNodes+1)
}

func anchorName(n ast.Node) string {
	if s, ok := n.(*ast.StringNode); ok {
		return s.Value
	}
	if n == nil {
		return ""
	}
	return n.String()
}
