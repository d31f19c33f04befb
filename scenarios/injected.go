package scenarios

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"toolgate/assess"
	"toolgate/decode"
)

// An injected line says, in a few words, what the scenario injects
// ("record timed_out with effectStatus: unknown"). When a lecturer edits
// the input and not the line, the line teaches what the input no longer
// holds. InjectedProblems finds what of that can be told from the text
// alone:
//
//   - a field of the input format named with a value — "effectStatus:
//     unknown", "isError true", "effectStatus 为 read_back", a what-if
//     "a.b: x → y" (the value after the arrow) — when no field of that
//     name is in the input, or none has that value;
//   - a name written like a value or a field (snake_case such as
//     timed_out or not_run, camelCase such as documentId) that is nowhere
//     in the input, unless it is a word of the verdicts (a status, code,
//     outcome class or rule id).
//
// Everything else is prose and is not checked: "no approval snapshot",
// "environment ready", "requested A, B" — a negation or a plain word
// cannot be told from a claim by its text.

// pairFields are the input fields whose value an injected line may name.
var pairFields = []string{"effectStatus", "verificationStatus", "effectClass", "approvalScope", "correlationId",
	"isError", "errorKind", "found", "closed"}

var (
	reInjectedPair = regexp.MustCompile(`(?:^|[^\w.])(?:[\w]+\.)*(` + strings.Join(pairFields, "|") + `)(\s*[:=：]\s*|\s+为\s*|\s+is\s+|\s+)("[^"]*"|'[^']*'|[\w.-]+)(?:\s*→\s*("[^"]*"|'[^']*'|[\w.-]+))?`)
	// reValueLike is a bare word that reads as a value, not prose: a
	// snake_case name, a boolean, a number.
	reValueLike     = regexp.MustCompile(`^(?:[\w-]*_[\w-]*|true|false|-?\d[\d.]*)$`)
	reWord          = regexp.MustCompile(`\w+`)
	reInjectedToken = regexp.MustCompile(`[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*`)
)

// InjectedProblems are the places where the scenario's injected line, in
// either language, says something its input contradicts (see above).
func (s Scenario) InjectedProblems() Problems {
	values, names := inputFacts(s)
	var out Problems
	for i, text := range []string{s.Injected.En, s.Injected.Zh} {
		if text == "" {
			continue
		}
		lang := [2]string{"en", "zh"}[i]
		add := func(format string, args ...any) {
			out = append(out, Problem{File: s.File, Line: s.injectedAt[i][0], Col: s.injectedAt[i][1],
				Msg: decode.ClipQuotes("injected." + lang + ": " + fmt.Sprintf(format, args...))})
		}
		paired := map[string]bool{}
		for _, m := range reInjectedPair.FindAllStringSubmatch(text, -1) {
			field, sep, value := m[1], m[2], unquote(strings.TrimRight(m[3], "."))
			if m[4] != "" {
				value = unquote(strings.TrimRight(m[4], "."))
			}
			if strings.TrimSpace(sep) == "" && !strings.HasPrefix(m[3], `"`) && !reValueLike.MatchString(value) {
				continue // "effectClass the trainer does not know": prose
			}
			paired[field], paired[value] = true, true
			if value == "absent" || value == "缺失" {
				continue
			}
			have, ok := values[field]
			if !ok {
				add("says %s %s, but the input has no %s", field, value, field)
				continue
			}
			if !slices.Contains(have, value) {
				add("says %s %s, but the input's %s is %s", field, value, field, strings.Join(quoteAll(have), ", "))
			}
		}
		for _, tok := range reInjectedToken.FindAllString(text, -1) {
			if paired[tok] || names[tok] || verdictWord(tok) || slices.Contains(pairFields, tok) {
				continue
			}
			add("mentions %s, which is nowhere in the input", tok)
		}
	}
	return out
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') {
		return s[1 : len(s)-1]
	}
	return s
}

func quoteAll(values []string) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = strconv.Quote(v)
	}
	return out
}

// inputFacts flattens the scenario's input: the values of every field by
// its name (the last part of its path), and every key, string and list
// element, as names.
func inputFacts(s Scenario) (values map[string][]string, names map[string]bool) {
	var in any
	switch c := s.Case.(type) {
	case AdmissionCase:
		in = c.Input
	case AuditCase:
		in = c.Input
	case OutcomeCase:
		in = c.Input
	}
	values, names = map[string][]string{}, map[string]bool{}
	if in == nil {
		return values, names
	}
	b, err := json.Marshal(in)
	if err != nil {
		return values, names
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return values, names
	}
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch v := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				names[k] = true
				walk(k, v[k])
			}
		case []any:
			for _, e := range v {
				walk(key, e)
			}
		case string:
			names[v] = true
			for _, w := range reWord.FindAllString(v, -1) {
				names[w] = true
			}
			values[key] = append(values[key], v)
		case nil:
		default:
			text := fmt.Sprint(v)
			names[text] = true
			values[key] = append(values[key], text)
		}
	}
	walk("", v)
	return values, names
}

// verdictWord reports a word of the verdicts: a status, a code, an
// outcome class, a rule id.
func verdictWord(w string) bool {
	var st assess.Status
	var oc assess.OutcomeClass
	if _, _, err := assess.ParseCode(w); err == nil {
		return true
	}
	if st.UnmarshalText([]byte(w)) == nil || oc.UnmarshalText([]byte(w)) == nil {
		return true
	}
	for r := assess.RuleToolInContract; r <= assess.RuleAllow; r++ {
		if r.ID() == w {
			return true
		}
	}
	return false
}
