package cli_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"toolgate/assess"
)

// mdDoc is what a CommonMark parser (goldmark, with GFM tables) makes of
// a handout.
type mdDoc struct {
	headings map[int][]string
	// strong are the texts set in bold; stray are texts that still
	// carry a "**" the parser did not take as emphasis.
	strong, stray, items []string
	tables               int
}

func parseMarkdown(t *testing.T, src string) mdDoc {
	t.Helper()
	source := []byte(src)
	root := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(source))
	d := mdDoc{headings: map[int][]string{}}
	err := ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			d.headings[n.Level] = append(d.headings[n.Level], plain(n, source))
		case *ast.Emphasis:
			if n.Level == 2 {
				d.strong = append(d.strong, plain(n, source))
			}
		case *ast.ListItem:
			d.items = append(d.items, plain(n, source))
		case *ast.Text:
			if s := string(n.Segment.Value(source)); strings.Contains(s, "**") {
				d.stray = append(d.stray, s)
			}
		case *extast.Table:
			d.tables++
		}
		return ast.WalkContinue, nil
	})
	require.NoError(t, err)
	return d
}

// plain is a node's text without its markup.
func plain(n ast.Node, source []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch c := c.(type) {
			case *ast.Text:
				b.Write(c.Segment.Value(source))
			case *ast.String:
				b.Write(c.Value)
			case *ast.CodeSpan:
				for ch := c.FirstChild(); ch != nil; ch = ch.NextSibling() {
					if tx, ok := ch.(*ast.Text); ok {
						b.Write(tx.Segment.Value(source))
					}
				}
				return ast.WalkSkipChildren, nil
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// The handouts and the lecture notes are CommonMark as a parser reads
// it: every bold label is bold (no "**" left in the text), in both
// languages; every scenario has its own heading under a heading for its
// track; the tables are tables; and the non-goals of seed 000 are there
// once, after the admission scenarios.
func TestHandoutsParseAsCommonMark(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "zh"} {
		l, _ := assess.ParseLang(lang)
		t.Run("trace --all "+lang, func(t *testing.T) {
			out, _, code := run(t, "", nil, "trace", "--all", "--format", "md", "--lang", lang)
			require.Equal(t, 0, code)
			d := parseMarkdown(t, out)
			assert.Empty(t, d.stray, "a ** the parser did not take as bold")
			if lang == "en" {
				assert.Equal(t, []string{"Admission", "Correlation audit", "Outcomes"}, d.headings[1])
			} else {
				assert.Equal(t, []string{"准入判断", "关联审计", "结果分类"}, d.headings[1])
			}
			scenariosSeen := 0
			seen := map[string]bool{}
			for _, h := range d.headings[2] {
				assert.False(t, seen[h], "heading %q twice", h)
				seen[h] = true
				if strings.Contains(h, map[string]string{"en": "Scenario ", "zh": "场景 "}[lang]) {
					scenariosSeen++
				}
			}
			assert.Equal(t, 30, scenariosSeen)
			assert.Equal(t, 30*2, d.tables, "an inputs and a steps table per scenario")
			check := map[string]string{"en": "Input check, not a rule", "zh": "输入检查，不是规则"}[lang]
			assert.Equal(t, 14, count(d.headings[3], check), "the input check, a section of its own in every admission walk")
			aside := map[string]string{"en": "Trainer's note, not the book's (step 5):", "zh": "训练器的补充，不是本书的规则（步骤 5）"}[lang]
			assert.Contains(t, d.strong, aside, "a trainer's note is marked as the trainer's")
			injected := map[string]string{"en": "Injected:", "zh": "注入重点"}[lang]
			assert.Contains(t, d.strong, injected)
			nonGoals := map[string]string{"en": "What this decision does not do", "zh": "这个判断不做什么"}[lang]
			assert.Equal(t, 1, count(d.headings[2], nonGoals))
			for _, g := range assess.NonGoals(l) {
				assert.Contains(t, d.items, g)
			}
		})
		t.Run("trace 1 "+lang, func(t *testing.T) {
			out, _, _ := run(t, "", nil, "trace", "1", "--format", "md", "--lang", lang)
			d := parseMarkdown(t, out)
			assert.Empty(t, d.stray)
			assert.Empty(t, d.headings[1], "one track: no track heading")
			assert.Equal(t, 2, d.tables)
			assert.Contains(t, d.strong, map[string]string{"en": "does NOT prove:", "zh": "不能推导"}[lang])
			assert.Contains(t, d.strong, map[string]string{"en": "this scenario does not prove:", "zh": "本场景不证明"}[lang])
		})
		t.Run("notes "+lang, func(t *testing.T) {
			out, _, code := run(t, "", nil, "notes", "--lang", lang)
			require.Equal(t, 0, code)
			d := parseMarkdown(t, out)
			assert.Empty(t, d.stray)
			assert.Contains(t, d.strong, map[string]string{"en": "Story:", "zh": "故事"}[lang])
			assert.Equal(t, 1, count(d.headings[2], map[string]string{"en": "What this decision does not do", "zh": "这个判断不做什么"}[lang]))
			for _, g := range assess.NonGoals(l) {
				assert.Contains(t, d.items, g)
			}
		})
	}
	out, _, _ := run(t, "", nil, "notes", "--track", "audit")
	assert.NotContains(t, out, "What this decision does not do", "the non-goals are the admission decision's")
}

func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}
