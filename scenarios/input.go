package scenarios

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"toolgate/decode"
)

// jsonNumber is the grammar of a JSON number (RFC 8259).
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// inputJSON writes a scenario's input as the JSON text that toolgate
// assess would be given, so that the scenario means exactly what that JSON
// means. A plain scalar written as JSON writes a number is that number,
// however large: go-yaml reads 1e400, 1e10 and integers past 64 bits as
// strings, JSON does not. Other YAML numbers (0x1F, 1_000) keep go-yaml's
// value; .inf and .nan, which JSON has no way to write, are a problem.
// Aliases stand for their anchor's value.
type inputWriter struct {
	// anchors are every anchor of the document, in order, for aliases
	// to find the last one before them.
	anchors []*ast.AnchorNode
	// done holds each anchor's value once written.
	done map[*ast.AnchorNode][]byte
}

// problemAt is a problem inside the input at a node.
type problemAt struct {
	path string
	node ast.Node
	msg  string
}

func (e *problemAt) Error() string { return e.path + ": " + e.msg }

func newInputWriter(doc ast.Node) *inputWriter {
	w := &inputWriter{done: map[*ast.AnchorNode][]byte{}}
	ast.Walk(anchorCollector{w}, doc)
	slices.SortStableFunc(w.anchors, func(a, b *ast.AnchorNode) int {
		pa, pb := a.GetToken().Position, b.GetToken().Position
		if pa.Line != pb.Line {
			return pa.Line - pb.Line
		}
		return pa.Column - pb.Column
	})
	return w
}

type anchorCollector struct{ w *inputWriter }

func (a anchorCollector) Visit(n ast.Node) ast.Visitor {
	if an, ok := n.(*ast.AnchorNode); ok {
		a.w.anchors = append(a.w.anchors, an)
	}
	return a
}

// write appends the JSON text of node n, found at path, to b.
func (w *inputWriter) write(b []byte, n ast.Node, path string) ([]byte, error) {
	switch n := n.(type) {
	case nil, *ast.NullNode:
		return append(b, "null"...), nil
	case *ast.BoolNode:
		return strconv.AppendBool(b, n.Value), nil
	case *ast.IntegerNode:
		if lit := n.Token.Value; jsonNumber.MatchString(lit) {
			return append(b, lit...), nil
		}
		return fmt.Append(b, n.Value), nil
	case *ast.FloatNode:
		if lit := n.Token.Value; jsonNumber.MatchString(lit) {
			return append(b, lit...), nil
		}
		return strconv.AppendFloat(b, n.Value, 'g', -1, 64), nil
	case *ast.InfinityNode, *ast.NanNode:
		return nil, &problemAt{path, n, fmt.Sprintf("%s: JSON has no infinity or NaN, so no input can hold it", n.GetToken().Value)}
	case *ast.StringNode:
		if n.Token.Type == token.StringType && jsonNumber.MatchString(n.Value) {
			return append(b, n.Value...), nil
		}
		return jsontext.AppendQuote(b, n.Value)
	case *ast.LiteralNode:
		return jsontext.AppendQuote(b, n.Value.Value)
	case *ast.SequenceNode:
		b = append(b, '[')
		for i, v := range n.Values {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = w.write(b, v, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case *ast.MappingNode:
		return w.object(b, n.Values, path)
	case *ast.MappingValueNode:
		return w.object(b, []*ast.MappingValueNode{n}, path)
	case *ast.AnchorNode:
		if v, ok := w.done[n]; ok {
			return append(b, v...), nil
		}
		v, err := w.write(nil, n.Value, path)
		if err != nil {
			return nil, err
		}
		w.done[n] = v
		return append(b, v...), nil
	case *ast.AliasNode:
		an := w.anchorBefore(n)
		if an == nil {
			return nil, &problemAt{path, n, fmt.Sprintf("alias *%s: no anchor &%s before it", decode.Clip(anchorName(n.Value)), decode.Clip(anchorName(n.Value)))}
		}
		return w.write(b, an, path)
	}
	return nil, &problemAt{path, n, fmt.Sprintf("a %s cannot be part of an input", n.Type())}
}

// object writes a mapping's pairs; a merge key (<<) adds the pairs of the
// mappings it names that the mapping does not have itself.
func (w *inputWriter) object(b []byte, pairs []*ast.MappingValueNode, path string) ([]byte, error) {
	b = append(b, '{')
	var seen []string
	first := true
	add := func(key string, v ast.Node) error {
		if slices.Contains(seen, key) {
			return nil
		}
		seen = append(seen, key)
		if !first {
			b = append(b, ',')
		}
		first = false
		var err error
		if b, err = jsontext.AppendQuote(b, key); err != nil {
			return err
		}
		b = append(b, ':')
		b, err = w.write(b, v, path+"."+key)
		return err
	}
	var merges []ast.Node
	for _, mv := range pairs {
		if _, merge := mv.Key.(*ast.MergeKeyNode); merge {
			merges = append(merges, mv.Value)
			continue
		}
		key, err := keyText(mv.Key, path)
		if err != nil {
			return nil, err
		}
		if err := add(key, mv.Value); err != nil {
			return nil, err
		}
	}
	for _, m := range merges {
		for _, src := range w.mergeSources(m) {
			for _, mv := range src {
				key, err := keyText(mv.Key, path)
				if err != nil {
					return nil, err
				}
				if err := add(key, mv.Value); err != nil {
					return nil, err
				}
			}
		}
	}
	return append(b, '}'), nil
}

// mergeSources are the mappings a merge key's value names: one mapping
// (or alias of one), or a list of them.
func (w *inputWriter) mergeSources(n ast.Node) [][]*ast.MappingValueNode {
	switch v := n.(type) {
	case *ast.AliasNode:
		if an := w.anchorBefore(v); an != nil {
			return w.mergeSources(an.Value)
		}
	case *ast.AnchorNode:
		return w.mergeSources(v.Value)
	case *ast.MappingNode:
		return [][]*ast.MappingValueNode{v.Values}
	case *ast.MappingValueNode:
		return [][]*ast.MappingValueNode{{v}}
	case *ast.SequenceNode:
		var out [][]*ast.MappingValueNode
		for _, e := range v.Values {
			out = append(out, w.mergeSources(e)...)
		}
		return out
	}
	return nil
}

// anchorBefore is the last anchor of the alias's name before it.
func (w *inputWriter) anchorBefore(alias *ast.AliasNode) *ast.AnchorNode {
	name := anchorName(alias.Value)
	at := alias.GetToken().Position
	var found *ast.AnchorNode
	for _, an := range w.anchors {
		p := an.GetToken().Position
		if p.Line > at.Line || p.Line == at.Line && p.Column >= at.Column {
			break
		}
		if anchorName(an.Name) == name {
			found = an
		}
	}
	return found
}

// keyText is a mapping key as a JSON name.
func keyText(k ast.MapKeyNode, path string) (string, error) {
	switch k := k.(type) {
	case *ast.StringNode:
		return k.Value, nil
	case *ast.AnchorNode:
		if v, ok := k.Value.(ast.MapKeyNode); ok {
			return keyText(v, path)
		}
	case *ast.MappingKeyNode:
		if s, ok := k.Value.(*ast.StringNode); ok {
			return s.Value, nil
		}
	case ast.ScalarNode:
		return k.GetToken().Value, nil
	}
	return "", &problemAt{path, k, "a key must be a string"}
}
