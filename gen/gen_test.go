package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSameSeedSameBytes(t *testing.T) {
	draw := func(seed uint64) [][]byte {
		r := rand.New(rand.NewPCG(seed, 7))
		var out [][]byte
		for i := range 2000 {
			out = append(out, Admission(r), Audit(r), Decision(r, 1+i%8), Refusal(r), NewBatch(r).JSON())
		}
		return out
	}
	require.Equal(t, draw(1), draw(1))
	require.NotEqual(t, draw(1), draw(2))
}

func TestOneNonBlankLine(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 7))
	for range 20_000 {
		for _, text := range [][]byte{Admission(r), Audit(r)} {
			require.NotContains(t, string(text), "\n")
			require.NotEmpty(t, bytes.Trim(text, " \t\r"), "a blank line is skipped, not answered")
		}
	}
}

func TestBatchJSON(t *testing.T) {
	open := false
	b := Batch{Requested: []string{"A", ""}, Results: []string{"😀", "\"\n"}, Closed: &open}
	require.JSONEq(t, `{"requested":["A",""],"results":["😀","\"\n"],"closed":false}`, string(b.JSON()))
	require.Equal(t, `{"requested":[],"results":[]}`, string(Batch{}.JSON()))
}

func TestDecisionPanicsOutsideRules(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	require.Panics(t, func() { Decision(r, 0) })
	require.Panics(t, func() { Decision(r, 9) })
}

// The tests below ask the Node implementation (scripts/node/toolgate.js,
// written from docs/decision.md alone) what the generated inputs get.

// codes are the verdict codes of docs/decision.md §2 by rule; rule 7 also answers
// approval_<status> for any status.
var codes = map[int][]string{
	1: {"unknown_tool", "tool_version_mismatch"},
	2: {"correlation_conflict"},
	3: {"invalid_arguments"},
	4: {"environment_not_ready"},
	5: {"timed_out_without_readback"},
	6: {"tool_result_not_verified"},
	7: {"approval_missing", "approval_scope_mismatch", "approval_expired", "approval_revoked", "approval_Active"},
	8: {"admission_allowed"},
}

// ruleOf is the rule that answers code.
func ruleOf(code string) int {
	for rule, cs := range codes {
		if slices.Contains(cs, code) {
			return rule
		}
	}
	if strings.HasPrefix(code, "approval_") {
		return 7
	}
	return 0
}

// refusalClass tells the input check's refusal classes (docs/decision.md §1) apart
// by the Node implementation's messages.
var refusalClass = regexp.MustCompile(`^line \d+: .*?: (not JSON|not an object|member name twice|unknown member|want |null where a string|null element|required|absent from an approval|empty in an approval|request ID .* listed twice)`)

var classNames = map[string]string{
	"not JSON": "not_json", "not an object": "not_object", "member name twice": "duplicate_member",
	"unknown member": "unknown_member", "want ": "wrong_type", "null where a string": "null_string",
	"null element": "null_id", "required": "required_absent",
	"absent from an approval": "approval_status", "empty in an approval": "approval_status",
}

// answer is one line of the Node implementation's output.
type answer struct {
	Code        string   `json:"code"`
	Error       string   `json:"error"`
	Diagnostics []string `json:"diagnostics"`
	Pending     []string `json:"pending"`
}

// class is the refusal class of a, "" when a is not a refusal.
func (a answer) class() string {
	if a.Error == "" {
		return ""
	}
	m := refusalClass.FindStringSubmatch(a.Error)
	if m == nil {
		return "unclassified: " + a.Error
	}
	if strings.HasPrefix(m[1], "request ID") {
		return "duplicate_request"
	}
	return classNames[m[1]]
}

// runNode answers inputs with the Node implementation in mode (assess or
// audit), one process over a temporary JSON Lines file.
func runNode(t *testing.T, mode string, inputs [][]byte) []answer {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not on PATH: " + err.Error())
	}
	file := filepath.Join(t.TempDir(), mode+".jsonl")
	require.NoError(t, os.WriteFile(file, append(bytes.Join(inputs, []byte("\n")), '\n'), 0o600))
	cmd := exec.CommandContext(t.Context(), node, filepath.Join("..", "scripts", "node", "toolgate.js"), mode, file)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if !(err == nil || errors.As(err, &exit) && exit.ExitCode() == 1) {
		require.NoError(t, err, "node: %s", stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	require.Len(t, lines, len(inputs), "one answer a line")
	answers := make([]answer, len(lines))
	for i, line := range lines {
		require.NoError(t, json.Unmarshal([]byte(line), &answers[i]), "line %d: %s", i+1, line)
	}
	return answers
}

// logCounts lists counts, most first.
func logCounts(t *testing.T, title string, counts map[string]int) {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if c := counts[b] - counts[a]; c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "\n  %7d  %s", counts[k], k)
	}
	t.Logf("%s:%s", title, b.String())
}

func TestAdmissionReachesEveryCodeAndRefusal(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 11))
	inputs := make([][]byte, 20_000)
	for i := range inputs {
		inputs[i] = Admission(r)
	}
	answers := runNode(t, "assess", inputs)
	reached, refusals, rules := map[string]int{}, map[string]int{}, map[int]int{}
	for _, a := range answers {
		if c := a.class(); c != "" {
			refusals[c]++
		} else {
			reached[a.Code]++
			rules[ruleOf(a.Code)]++
		}
	}
	logCounts(t, "codes", reached)
	logCounts(t, "refusals", refusals)
	for rule := 1; rule <= 8; rule++ {
		for _, c := range codes[rule] {
			require.NotZero(t, reached[c], "rule %d: %s never reached", rule, c)
		}
		require.Greater(t, rules[rule], len(inputs)/40, "rule %d decides too few inputs", rule)
	}
	for _, c := range []string{"not_json", "not_object", "duplicate_member", "unknown_member", "wrong_type", "null_string", "required_absent", "approval_status"} {
		require.NotZero(t, refusals[c], "refusal class %s never reached", c)
	}
	for c := range refusals {
		require.NotContains(t, c, "unclassified")
	}
	accepted := len(inputs) - sum(refusals)
	t.Logf("%d of %d accepted by the input check", accepted, len(inputs))
	require.InDelta(t, 2.0/3, float64(accepted)/float64(len(inputs)), 0.08, "about two thirds should pass the input check")
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func TestDecisionAndRefusalKeepTheirWord(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	var inputs [][]byte
	var rules []int // 0: a Refusal
	for i := range 6000 {
		rule := i % 9
		rules = append(rules, rule)
		if rule == 0 {
			inputs = append(inputs, Refusal(r))
		} else {
			inputs = append(inputs, Decision(r, rule))
		}
	}
	answers := runNode(t, "assess", inputs)
	for i, a := range answers {
		if rules[i] == 0 {
			require.NotEmpty(t, a.Error, "Refusal gave an input the check accepts: %s", inputs[i])
			continue
		}
		require.Empty(t, a.Error, "Decision(%d) gave an input the check refuses: %s", rules[i], inputs[i])
		require.Equal(t, rules[i], ruleOf(a.Code), "Decision(%d) answered %s: %s", rules[i], a.Code, inputs[i])
	}
}

func TestAuditReachesEveryDiagnosticAndRefusal(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 12))
	inputs := make([][]byte, 5000)
	for i := range inputs {
		inputs[i] = Audit(r)
	}
	counts := map[string]int{}
	for _, a := range runNode(t, "audit", inputs) {
		if c := a.class(); c != "" {
			counts["refused: "+c]++
			continue
		}
		for _, d := range a.Diagnostics {
			counts[d[:strings.IndexByte(d, ':')]]++
		}
		if len(a.Pending) > 0 {
			counts["pending"]++
		}
		if slices.Contains(a.Diagnostics, "missing:") || slices.Contains(a.Diagnostics, "unknown:") || slices.Contains(a.Diagnostics, "duplicate:") {
			counts["an empty ID"]++
		}
		if len(a.Diagnostics) == 0 && len(a.Pending) == 0 {
			counts["clean"]++
		}
	}
	logCounts(t, "audit", counts)
	for _, c := range []string{"missing", "unknown", "duplicate", "pending", "an empty ID", "clean",
		"refused: not_json", "refused: not_object", "refused: duplicate_member", "refused: unknown_member",
		"refused: wrong_type", "refused: null_id", "refused: required_absent", "refused: duplicate_request"} {
		require.NotZero(t, counts[c], "%s never reached", c)
	}
}

func TestBlankDrawsEveryTrimCharacter(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	seen := map[rune]bool{}
	empty := false
	for range 5000 {
		s := blank(r)
		empty = empty || s == ""
		for _, c := range s {
			require.Contains(t, jsTrim, c, "%U is not in String.prototype.trim's set", c)
			seen[c] = true
		}
	}
	require.True(t, empty, `"" is blank too`)
	require.Len(t, seen, len(jsTrim))
	require.Len(t, jsTrim, 25, "U+0009–U+000D, U+0020, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF")
	for _, c := range "\u0085\u180e\u200b" {
		require.NotContains(t, jsTrim, c, "%U is not white space to String.prototype.trim", c)
	}
}

// TestEdgesArePlainValues: what the exported draws hand out is usable
// outside gen — an argument value is as encoding/json decodes it (no tree
// type of gen's), an approval status never "" (the input check refuses
// it), a blank only characters of trim's set — and ApprovalStatuses is a
// copy.
func TestEdgesArePlainValues(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 7))
	var plainValue func(v any) bool
	plainValue = func(v any) bool {
		switch v := v.(type) {
		case string, json.Number, bool, nil:
			return true
		case []any:
			return !slices.ContainsFunc(v, func(x any) bool { return !plainValue(x) })
		case map[string]any:
			for _, x := range v {
				if !plainValue(x) {
					return false
				}
			}
			return true
		}
		return false
	}
	kinds := map[string]bool{}
	for range 20_000 {
		v, omit := Argument(r)
		require.True(t, plainValue(v), "%#v", v)
		kinds[fmt.Sprintf("%T/%v", v, omit)] = true
		require.NotEmpty(t, ApprovalStatus(r))
		for _, c := range Blank(r) {
			require.Contains(t, jsTrim, c)
		}
	}
	require.Len(t, kinds, 7, "string, number, bool, null, array, object, left out: %v", kinds)
	s := ApprovalStatuses()
	s[0] = "changed"
	require.NotEqual(t, "changed", ApprovalStatuses()[0])
}
