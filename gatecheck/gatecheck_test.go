package gatecheck_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/gatecheck"
	"toolgate/scenarios"
	"toolgate/vectors"
)

// gateBin is the test gate of testdata/harness/gate, built once.
var gateBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "toolgate-gate-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	gateBin = filepath.Join(dir, "gate")
	build := exec.Command("go", "build", "-o", gateBin, "../testdata/harness/gate")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the test gate: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func vecs(t *testing.T, track scenarios.Track) []vectors.Vector {
	t.Helper()
	vs, err := vectors.For(track, scenarios.Builtin())
	require.NoError(t, err)
	return vs
}

func check(t *testing.T, track scenarios.Track, timeout time.Duration, args ...string) (gatecheck.Report, error) {
	t.Helper()
	return gatecheck.Run(context.Background(), gatecheck.Options{Track: track, Vectors: vecs(t, track),
		Command: append([]string{gateBin, "-track", track.String()}, args...), Timeout: timeout})
}

func TestFaithfulGateAgrees(t *testing.T) {
	for _, track := range scenarios.Tracks {
		t.Run(track.String(), func(t *testing.T) {
			r, err := check(t, track, 0)
			require.NoError(t, err)
			assert.Len(t, r.Answers, len(vecs(t, track)))
			assert.Zero(t, r.Disagreements())
			var out bytes.Buffer
			gatecheck.WriteText(&out, r, assess.English)
			assert.Contains(t, out.String(), "the gate agrees with toolgate on every vector")
			assert.NotContains(t, out.String(), "DISAGREE")
		})
	}
}

func disagreeing(r gatecheck.Report) []string {
	var ids []string
	for _, a := range r.Answers {
		if !a.Agree() {
			ids = append(ids, a.Vector.ID)
		}
	}
	return ids
}

func TestPlantedBugsAreCaught(t *testing.T) {
	tests := []struct {
		bug  string
		want []string
		diff string
	}{
		{"empty-scope-as-absent", []string{"rule/7/scope-empty-is-a-value", "rule/7/scope-empty-not-matched-by-unscoped-approval"},
			"code: want \"admission_allowed\", got \"approval_scope_mismatch\""},
		{"approval-before-environment", []string{"rule/4/before-rule-7"},
			"status: want \"blocked\", got \"requires_approval\""},
		{"sorted-missing", []string{"rule/3/missing-in-contract-order-not-alphabetical", "rule/3/name-of-an-inherited-property"},
			`missingArguments: want ["title","noteId"], got ["noteId","title"]`},
		{"approval-not-active", []string{"scenario/expired-approval", "rule/7/approval-expired", "rule/7/approval-revoked",
			"rule/7/approval-status-case", "rule/7/approval-status-spells-approval-missing", "rule/7/approval-status-with-spaces",
			"rule/7/approval-status-unicode", "rule/7/not-active-before-scope"},
			`code: want "approval_expired", got "approval_not_active"`},
		{"dedupe-missing", []string{"scenario/name-required-twice", "rule/3/listed-twice-missing-twice"},
			`missingArguments: want ["noteId","noteId"], got ["noteId"]`},
		{"scope-defaults-to-name", []string{"scenario/write-without-approval-scope", "rule/7/scope-absent-is-not-the-tool-name",
			"rule/7/scope-absent-matched-by-unscoped-approval"},
			`code: want "approval_scope_mismatch", got "admission_allowed"`},
		{"no-trim", []string{"scenario/blank-argument", "rule/3/argument-whitespace", "rule/3/argument-tab-newline",
			"rule/3/argument-no-break-space", "rule/3/argument-ideographic-space", "rule/3/argument-byte-order-mark",
			"rule/3/argument-line-separator", "rule/3/argument-thin-and-hair-spaces"},
			`code: want "invalid_arguments", got "admission_allowed"`},
		{"any-entry-of-a-name", []string{"scenario/two-tools-one-name", "rule/1/only-the-first-entry-of-a-name-is-read"},
			`code: want "tool_version_mismatch"`},
		// Issue 30, item 5: a port of the book and of the input check that
		// reads JSON as encoding/json does (a lone surrogate escape becomes
		// U+FFFD): 241 of 242. docs/decision.md §1 refuses that text, in
		// request.arguments too; the vector is right.
		{"surrogate-as-replacement", []string{"json/lone-surrogate"},
			"admits an input toolgate's input check refuses: answering allowed to it fails open"},
	}
	for _, tt := range tests {
		t.Run(tt.bug, func(t *testing.T) {
			r, err := check(t, scenarios.TrackAdmission, 0, "-bug", tt.bug)
			require.NoError(t, err)
			assert.ElementsMatch(t, tt.want, disagreeing(r))
			var out bytes.Buffer
			gatecheck.WriteText(&out, r, assess.English)
			assert.Contains(t, out.String(), tt.diff)
			assert.Contains(t, out.String(), "why toolgate expects it:")
			assert.Contains(t, out.String(), fmt.Sprintf("%d disagree", len(tt.want)))
			// The last line names the vectors, a long report above it.
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			assert.Equal(t, "disagree on: "+strings.Join(disagreeing(r), ", "), lines[len(lines)-1])
		})
	}
	r, err := check(t, scenarios.TrackAdmission, 0, "-bug", "scope-defaults-to-name")
	require.NoError(t, err)
	var out bytes.Buffer
	gatecheck.WriteText(&out, r, assess.English)
	s := out.String()
	// The trace says why rule 7 fires, from the vector's own values.
	assert.Contains(t, s, `7 ➤ Write not approved — notes_update's effectClass is "reversible_write" (a write); the approval's scope is "notes_update", the tool's approvalScope is absent`)
	assert.Regexp(t, `✗ 7 Write not approved\s+\d+/\d+`, s, "the summary marks the rule")
	assert.Regexp(t, `✗ approval_scope_mismatch\s+\d+/\d+`, s)
	assert.Regexp(t, `✓ 4 Environment not ready\s+(\d+)/(\d+)`, s)
	var zh bytes.Buffer
	gatecheck.WriteText(&zh, r, assess.Chinese)
	assert.Contains(t, zh.String(), "toolgate 为什么这样预期")
}

// TestABookPortPassesTheDecisionLayer: a gate without toolgate's input
// check — the book's bare function — agrees on every decision vector, and
// is told by vector which inputs it lets through that the check refuses.
func TestABookPortPassesTheDecisionLayer(t *testing.T) {
	decision := vectors.InLayer(vecs(t, scenarios.TrackAdmission), vectors.LayerDecision)
	r, err := gatecheck.Run(context.Background(), gatecheck.Options{Track: scenarios.TrackAdmission, Vectors: decision,
		Command: []string{gateBin, "-bug", "book-port"}})
	require.NoError(t, err)
	assert.Zero(t, r.Disagreements(), "the book's function is the decision")

	input := vectors.InLayer(vecs(t, scenarios.TrackAdmission), vectors.LayerInput)
	r, err = gatecheck.Run(context.Background(), gatecheck.Options{Track: scenarios.TrackAdmission, Vectors: input,
		Command: []string{gateBin, "-bug", "book-port"}})
	require.NoError(t, err)
	admitted := disagreeing(r)
	for _, id := range []string{"json/duplicate-field-in-environment", "unknown/top-level-typo", "json/duplicate-record"} {
		assert.Contains(t, admitted, id, "a bare port lets %s through", id)
	}
	assert.NotContains(t, admitted, "json/environment-missing", "the port crashes on it: refused, not admitted")
	var out bytes.Buffer
	gatecheck.WriteText(&out, r, assess.English)
	assert.Contains(t, out.String(), "fails open")
	assert.Contains(t, out.String(), `expected:  a refusal ({"error":…}), or any answer but allowed`)
	assert.NotContains(t, out.String(), "Decision: by code", "a layer that was not run is not reported")
	assert.Contains(t, out.String(), "Input check, toolgate's own")
	assert.Regexp(t, `✗ a member name twice\s+\d+/\d+`, out.String())
	assert.Contains(t, out.String(), fmt.Sprintf(", and %d more\n", len(admitted)-12), "the last line names twelve")
}

func gateError(t *testing.T, err error) *gatecheck.GateError {
	t.Helper()
	var ge *gatecheck.GateError
	require.True(t, errors.As(err, &ge), "want a *GateError, got %v", err)
	return ge
}

// TestMisbehavingGates: a gate that hangs, exits early, prints garbage,
// floods or writes one line too many ends the check with a *GateError
// that says what happened and shows its stderr, and never a hang of the
// check itself. The timeouts here only ever expire for gates that never
// answer, so the outcome does not depend on the machine's speed.
func TestMisbehavingGates(t *testing.T) {
	tests := []struct {
		misbehave string
		timeout   time.Duration
		msg       string
		stderr    string
	}{
		{"hang", 300 * time.Millisecond, "no answer to input 1 (scenario/unknown-tool) within 300ms", ""},
		{"exit-early", 0, "the gate stopped answering after 3 of 242 inputs (exit status 3): input 4 (scenario/write-without-approval) got no answer", "panic: assignment to entry in nil map (input 4)"},
		{"garbage", 0, "answer 3 (to scenario/read-only-candidate) is not an answer: not JSON: \\u001b[31mok", ""},
		{"flood", 0, "answer 1 (to scenario/unknown-tool) is longer than 1048576 bytes", ""},
		{"extra-line", 0, "the gate wrote more lines than it was given inputs", ""},
	}
	for _, tt := range tests {
		t.Run(tt.misbehave, func(t *testing.T) {
			_, err := check(t, scenarios.TrackAdmission, tt.timeout, "-misbehave", tt.misbehave)
			ge := gateError(t, err)
			assert.Contains(t, ge.Msg, tt.msg)
			assert.NotContains(t, ge.Msg, "\x1b", "escape sequences from the gate are never printed raw")
			assert.Contains(t, ge.Stderr, tt.stderr)
			var out bytes.Buffer
			gatecheck.WriteFailure(&out, ge, assess.English)
			assert.Contains(t, out.String(), "the check stopped: ")
		})
	}
	t.Run("exit status", func(t *testing.T) {
		_, err := check(t, scenarios.TrackAdmission, 0, "-misbehave", "exit-early")
		assert.Contains(t, gateError(t, err).Msg, "exit status 3")
	})
}

func TestGateThatDoesNotEnd(t *testing.T) {
	// Every answer comes, then the gate sleeps instead of ending: the
	// answers count, a note says it was stopped.
	// Only the wait for its end is short: the answers may take as long as
	// a busy machine needs.
	r, err := gatecheck.Run(context.Background(), gatecheck.Options{Track: scenarios.TrackOutcome, Vectors: vecs(t, scenarios.TrackOutcome),
		Command: []string{gateBin, "-track", "outcome", "-misbehave", "slow-exit"}, EndTimeout: 300 * time.Millisecond})
	require.NoError(t, err)
	assert.Zero(t, r.Disagreements())
	require.Len(t, r.Notes, 1)
	assert.Contains(t, r.Notes[0], "it was stopped")
}

func TestStderrIsBounded(t *testing.T) {
	r, err := check(t, scenarios.TrackOutcome, 0, "-misbehave", "stderr-flood")
	require.NoError(t, err)
	assert.Zero(t, r.Disagreements())
	assert.LessOrEqual(t, len(r.Stderr), gatecheck.MaxStderr+100)
}

func TestCannotRun(t *testing.T) {
	_, err := gatecheck.Run(context.Background(), gatecheck.Options{Track: scenarios.TrackAdmission, Vectors: vecs(t, scenarios.TrackAdmission),
		Command: []string{filepath.Join(t.TempDir(), "no-such-gate")}})
	assert.Contains(t, gateError(t, err).Msg, "cannot run")
	_, err = gatecheck.Run(context.Background(), gatecheck.Options{})
	assert.Contains(t, gateError(t, err).Msg, "no command")
}

func TestCompare(t *testing.T) {
	want := []byte(`{"status":"rejected","code":"invalid_arguments","correlationId":"c","missingArguments":["a","b"]}`)
	tests := []struct {
		name, line string
		diffs      []string
		problem    string
	}{
		{"same", `{"code":"invalid_arguments","status":"rejected","correlationId":"c","missingArguments":["a","b"]}`, nil, ""},
		{"extra members are ignored", `{"status":"rejected","code":"invalid_arguments","correlationId":"c","missingArguments":["a","b"],"trace":[1]}`, nil, ""},
		{"order of missing arguments", `{"status":"rejected","code":"invalid_arguments","correlationId":"c","missingArguments":["b","a"]}`,
			[]string{`missingArguments: want ["a","b"], got ["b","a"]`}, ""},
		{"names are case-sensitive", `{"Status":"rejected","code":"invalid_arguments","correlationId":"c","missingArguments":["a","b"]}`,
			[]string{`status: want "rejected", got absent`}, ""},
		{"an error instead", `{"error":"no"}`, []string{"want an answer, got an input error: \"no\""}, ""},
		{"not JSON", `allowed`, nil, "not JSON"},
		{"an array", `["rejected"]`, nil, "not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diffs, problem := gatecheck.Compare(scenarios.TrackAdmission, "decision", want, []byte(tt.line))
			assert.Equal(t, tt.diffs, diffs)
			assert.Equal(t, tt.problem, problem)
		})
	}
	allowed := []byte(`{"status":"allowed","code":"admission_allowed","correlationId":"c"}`)
	diffs, _ := gatecheck.Compare(scenarios.TrackAdmission, "decision", allowed, []byte(`{"status":"allowed","code":"admission_allowed","correlationId":"c","missingArguments":[]}`))
	assert.Equal(t, []string{"missingArguments: want absent, got []"}, diffs, "docs/decision.md §2: missingArguments only with invalid_arguments")
	diffs, _ = gatecheck.Compare(scenarios.TrackAudit, "decision", []byte(`{"diagnostics":[],"pending":[]}`), []byte(`{"diagnostics":[]}`))
	assert.Empty(t, diffs, "an audit answer may leave out an empty list")
	diffs, _ = gatecheck.Compare(scenarios.TrackAdmission, "decision", []byte(`{"error":"x"}`), []byte(`{"error":{"code":1}}`))
	assert.Empty(t, diffs, "any error agrees with an expected error")
}

// TestCompareInputLayer: on an input the check refuses, a gate agrees by
// refusing it or by answering anything but allowed; allowed fails open.
func TestCompareInputLayer(t *testing.T) {
	refused := []byte(`{"error":"environment.status: duplicate field"}`)
	for line, ok := range map[string]bool{
		`{"error":"duplicate member"}`:                                                   true,
		`{"status":"blocked","code":"environment_not_ready","correlationId":"c"}`:        true,
		`{"status":"requires_approval","code":"approval_undefined","correlationId":"c"}`: true,
		`{"status":"allowed","code":"admission_allowed","correlationId":"c"}`:            false,
		`{"status":"allowed"}`: false,
	} {
		diffs, problem := gatecheck.Compare(scenarios.TrackAdmission, "input", refused, []byte(line))
		assert.Empty(t, problem, line)
		assert.Equal(t, ok, len(diffs) == 0, line)
		if !ok {
			assert.Contains(t, diffs[0], "fails open", line)
		}
	}
	diffs, _ := gatecheck.Compare(scenarios.TrackAudit, "input", []byte(`{"error":"results[0]: want string"}`), []byte(`{"diagnostics":[],"pending":[]}`))
	assert.NotEmpty(t, diffs, "an audit input the check refuses must be refused")
}

func TestSanitize(t *testing.T) {
	assert.Equal(t, `\u001b[2Jhi\x80 ok`+"\n", gatecheck.Sanitize([]byte("\x1b[2Jhi\x80 ok\n")))
	assert.Equal(t, "中文\ttab", gatecheck.Sanitize([]byte("中文\ttab")))
	assert.False(t, strings.ContainsRune(gatecheck.Sanitize([]byte("a\x07b\rc")), '\r'))
}
