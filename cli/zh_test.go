package cli_test

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/progress"
	"toolgate/scenarios"
	"toolgate/walk"
)

// What may stay ASCII in a Chinese text: field names, codes, values,
// IDs, numbers, and the words the seeds themselves leave in English.
var (
	zhQuoted   = regexp.MustCompile("\"[^\"\\n]*\"|“[^”]*”|'[^'\\n]*'|`[^`]*`")
	zhCall     = regexp.MustCompile(`[A-Za-z_]\w*\([^)]*\)`)
	zhDiag     = regexp.MustCompile(`\b(?:duplicate|missing|unknown):[^\s，。；、）"]+`)
	zhFlag     = regexp.MustCompile(`--[a-z][a-z-]*`)
	zhPosition = regexp.MustCompile(`\S+:\d+:\d+`)
	zhToken    = regexp.MustCompile(`[A-Za-z0-9_.\[\]#/+\-]*[A-Za-z0-9_\]]`)
	zhPunct    = regexp.MustCompile(`[,;:?!()]`)
	zhCamel    = regexp.MustCompile(`^[A-Za-z][a-z]+[A-Z]`)
	zhCaps     = regexp.MustCompile(`^[A-Z][A-Z_]*$`)
	// zhSymbol is the effect_unknown mark, a lone "?" (look.StatusSymbol).
	zhSymbol = regexp.MustCompile(`(^|\s|：)\?\s`)
	// zhWords are the English words the seeds use in Chinese (Harness,
	// Schema, the protocols and vendors) and the bare values and statuses
	// a learner types.
	zhWords = map[string]bool{
		"Harness": true, "Schema": true, "JSON": true, "JSON-RPC": true, "MCP": true, "SDK": true, "Git": true,
		"OpenAI": true, "Anthropic": true, "ID": true, "UTF-8": true, "YAML": true, "toolgate": true,
		"ready": true, "active": true, "expired": true, "degraded": true, "accepted": true, "succeeded": true,
		"unknown": true, "null": true, "true": true, "false": true, "allowed": true, "rejected": true, "blocked": true,
		"found": true, "pending": true, "none": true, "closed": true, "requested": true, "results": true,
		"error": true, "result": true, "contract": true, "request": true, "environment": true, "approval": true,
		"admission": true, "audit": true, "outcome": true, "demo": true,
		"missing": true, "duplicate": true, "failed": true, "title": true, "API": true, "d": true,
		// The members the book's function reads (environment.status,
		// approval.scope), the book's update tool's argument names and
		// values (field, value, complete), and JavaScript's trim.
		"status": true, "scope": true, "field": true, "value": true, "complete": true, "trim": true,
	}
)

// nonChinese reports what in a Chinese text is neither Chinese nor a
// field name, code or value: an English word, or ASCII punctuation where
// Chinese has its own (，；：？！（）).
func nonChinese(text string) []string {
	s := zhQuoted.ReplaceAllString(text, "〇")
	s = zhCall.ReplaceAllString(s, "〇")
	s = zhDiag.ReplaceAllString(s, "〇")
	s = zhFlag.ReplaceAllString(s, "〇")
	s = zhPosition.ReplaceAllString(s, "〇")
	s = zhSymbol.ReplaceAllString(s, "$1〇 ")
	var bad []string
	s = zhToken.ReplaceAllStringFunc(s, func(tok string) string {
		switch {
		case tok == "-" || tok == "/":
			return tok
		case zhWords[tok], strings.ContainsAny(tok, "_.[#0123456789-"), zhCamel.MatchString(tok), zhCaps.MatchString(tok):
			// a field, code, value, id or a code in capitals (a headline)
			return "〇"
		}
		bad = append(bad, tok)
		return "〇"
	})
	for _, p := range zhPunct.FindAllString(s, -1) {
		bad = append(bad, "ASCII "+p+" in "+text)
	}
	return bad
}

func TestNonChineseFindsLeaks(t *testing.T) {
	t.Parallel()
	assert.Empty(t, nonChinese(`记录超时且 effectStatus 是 "unknown"：没有人知道效果如何`))
	assert.Empty(t, nonChinese(`findNote(note-7) 正常运行，duplicate:A 与 requested[1] 的 JSON-RPC 错误 -32602`))
	assert.NotEmpty(t, nonChinese(`error：requested[1]: duplicate request ID "A": which request would a result answer?`))
	assert.NotEmpty(t, nonChinese(`结果 2: "A"`))
	assert.NotEmpty(t, nonChinese(`批次已结束, 所以`))
}

// Every text a learner sees in Chinese mode is Chinese, field names,
// codes and values aside: the walk of every scenario (steps, verdict,
// details), the scenarios' own texts, the core's texts, and what the
// commands print with --lang zh.
func TestChineseModeIsChinese(t *testing.T) {
	t.Parallel()
	check := func(where, text string) {
		t.Helper()
		if bad := nonChinese(text); len(bad) > 0 {
			t.Errorf("%s: %q\n  not Chinese: %q", where, text, bad)
		}
	}
	zh := assess.Chinese
	for _, s := range scenarios.Builtin() {
		for name, text := range map[string]scenarios.Text{"title": s.Title, "story": s.Story, "injected": s.Injected,
			"doesNotProve": s.DoesNotProve, "notes": s.Notes} {
			check(s.ID+" "+name, text.In(zh))
		}
		w := walk.Of(s, zh)
		check(s.ID+" heading", w.Heading)
		check(s.ID+" readsBy", w.ReadsBy)
		if c := w.Check; c != nil {
			check(s.ID+" check", c.Title+c.Explanation)
		}
		for i, st := range w.Steps {
			for _, text := range []string{st.Title, st.Question, st.Explanation, st.Aside} {
				check(s.ID+" step "+string(rune('1'+i)), text)
			}
		}
		for _, d := range w.Verdict.Details {
			check(s.ID+" "+d.Key, d.Label+"："+d.Text)
		}
		check(s.ID+" headline", w.Verdict.Headline)
	}
	for _, g := range assess.NonGoals(zh) {
		check("non-goal", g)
	}
	check("allowed is not", assess.AllowedIsNot(zh))
	for r := assess.RuleToolInContract; r <= assess.RuleAllow; r++ {
		check(r.ID(), r.Title(zh)+r.Question(zh)+r.Caveat(zh))
	}
	for _, c := range assess.Codes() {
		check(c.String(), c.Meaning(zh))
	}
	for c := assess.ClassProtocolError; c <= assess.ClassFound; c++ {
		check(c.String(), c.Title(zh)+c.Question(zh)+c.Next(zh)+c.Mistake(zh)+c.Advice(zh)+c.MCP(zh))
	}

	path := filepath.Join(t.TempDir(), "progress.json")
	p := progress.New()
	p.MarkWalked("demo")
	p.Record("write-without-approval", progress.Answer{Said: "rule 7, approval_not_active", Half: true, Decided: "rule 7, approval_missing", Caveat: "wrong"})
	p.Last = "demo"
	require.NoError(t, progress.Store{Path: path}.Merge(progress.New(), p))
	for _, args := range [][]string{
		{"trace", "--all"}, {"trace", "--all", "--format", "md"}, {"notes"}, {"list"}, {"progress"},
	} {
		out, errOut, code := run(t, "", map[string]string{"PROGRESS": path}, append(args, "--lang", "zh")...)
		require.Equal(t, 0, code, args)
		require.Empty(t, errOut)
		for _, line := range strings.Split(out, "\n") {
			line = strings.Trim(line, "|-* #>")
			check(strings.Join(args, " "), line)
		}
	}
	out, errOut, _ := run(t, `{"requested":["A","A"],"results":["A"]}`+"\n"+`{"requested":"A"}`+"\n"+`{"requested":[],"results":[null]}`+"\n"+
		`{"results":[],"closed":null}`+"\n", nil, "audit", "--lang", "zh")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e struct{ Error string }
		require.NoError(t, json.Unmarshal([]byte(line), &e))
		require.NotEmpty(t, e.Error)
		check("audit", e.Error)
	}
	check("audit", strings.TrimPrefix(strings.TrimSpace(errOut), "toolgate: "))
}
