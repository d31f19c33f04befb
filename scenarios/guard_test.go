package scenarios

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gen writes random YAML whose nesting it knows: block mappings and
// sequences (compact "- - x", "- k: v", and sequences at their key's
// column), flow collections, and text meant to fool a scanner — keys with
// apostrophes, brackets in quotes and comments, anchors on keys.
type gen struct {
	r *rand.Rand
	b strings.Builder
}

var tricky = []string{"it's", `"a[b{c"`, `'x]}y'`, "plain", "q: 'don''t [", "1e400", "[a, b]"}

func (g *gen) scalar() string {
	s := tricky[g.r.IntN(len(tricky))]
	if strings.Contains(s, ": ") || strings.HasPrefix(s, "[") {
		return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
	}
	return s
}

// flow writes a flow value nested depth levels (0: a scalar).
func (g *gen) flow(depth int) {
	if depth == 0 {
		g.b.WriteString(g.scalar())
		return
	}
	if g.r.IntN(2) == 0 {
		g.b.WriteString("[")
		g.flow(depth - 1)
		if g.r.IntN(2) == 0 {
			g.b.WriteString(", " + g.scalar())
		}
		g.b.WriteString("]")
		return
	}
	g.b.WriteString("{k" + fmt.Sprint(g.r.IntN(9)) + ": ")
	g.flow(depth - 1)
	g.b.WriteString("}")
}

// mapping writes a block mapping at column indent whose deepest value is
// depth levels below it (the mapping itself is one).
func (g *gen) mapping(indent, depth int) {
	pad := strings.Repeat(" ", indent)
	if g.r.IntN(3) == 0 {
		g.b.WriteString(pad + "other: it's # a comment with [[[ and {{\n")
	}
	key := "k"
	if g.r.IntN(4) == 0 {
		key = "&anchor" + fmt.Sprint(g.r.IntN(1000)) + " k"
	}
	g.b.WriteString(pad + key + ":")
	g.value(indent, depth-1, true)
}

// sequence writes a block sequence at column indent.
func (g *gen) sequence(indent, depth int) {
	pad := strings.Repeat(" ", indent)
	if g.r.IntN(3) == 0 {
		g.b.WriteString(pad + "- " + g.scalar() + "\n")
	}
	g.b.WriteString(pad + "-")
	g.value(indent, depth-1, false)
}

// value writes, after a key or a "-" at column indent, a value depth
// levels deep: inline (a scalar or flow), or a block collection below.
func (g *gen) value(indent, depth int, afterKey bool) {
	if depth == 0 || g.r.IntN(4) == 0 {
		g.b.WriteString(" ")
		g.flow(depth)
		g.b.WriteString("\n")
		return
	}
	switch g.r.IntN(4) {
	case 0:
		if afterKey {
			// A sequence at its key's column.
			g.b.WriteString("\n")
			g.sequence(indent, depth)
			return
		}
		fallthrough
	case 1:
		g.b.WriteString("\n")
		g.sequence(indent+2, depth)
	case 2:
		g.b.WriteString("\n")
		g.mapping(indent+2, depth)
	default:
		if afterKey {
			g.b.WriteString("\n")
			g.mapping(indent+2, depth)
			return
		}
		// Compact: "- - x" or "- k: v" on the "-" line.
		g.b.WriteString(" ")
		inner := strings.Builder{}
		saved := g.b
		g.b = inner
		if g.r.IntN(2) == 0 {
			g.sequence(indent+2, depth)
		} else {
			g.mapping(indent+2, depth)
		}
		text := g.b.String()
		g.b = saved
		g.b.WriteString(strings.TrimLeft(text, " "))
	}
}

// TestNestingIsExact: on random YAML built to a known depth, the depth the
// guard reads from the tokens is that depth, whatever quotes, comments and
// apostrophes the text holds; and go-yaml parses every such text.
func TestNestingIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 2026))
	for i := range 2000 {
		g := &gen{r: r}
		depth := 1 + r.IntN(12)
		if r.IntN(2) == 0 {
			g.mapping(0, depth)
		} else {
			g.sequence(0, depth)
		}
		text := g.b.String()
		_, err := parser.ParseBytes([]byte(text), 0)
		require.NoError(t, err, "case %d:\n%s", i, text)
		got, _ := nesting(lexer.Tokenize(text), depth)
		require.Equal(t, depth, got, "case %d:\n%s", i, text)
	}
}

func TestNestingLimit(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		over       bool
	}{
		{"64 flow levels in the top mapping", "a: " + strings.Repeat("[", 63) + strings.Repeat("]", 63), false},
		{"65", "a: " + strings.Repeat("[", 64) + strings.Repeat("]", 64), true},
		{"an apostrophe before it changes nothing", "t: it's\na: " + strings.Repeat("[", 64) + strings.Repeat("]", 64), true},
		{"compact sequences", strings.Repeat("- ", 64) + "x", false},
		{"compact sequences, 65", strings.Repeat("- ", 65) + "x", true},
	} {
		_, over := nesting(lexer.Tokenize(tt.text), maxNesting)
		assert.Equal(t, tt.over, over != nil, tt.name)
	}
}
