package cli_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVectorsCommand(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, "", nil, "vectors")
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Greater(t, len(lines), 150)
	var first struct {
		ID     string         `json:"id"`
		Layer  string         `json:"layer"`
		Input  jsontext.Value `json:"input"`
		Expect jsontext.Value `json:"expect"`
	}
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &first))
	assert.Equal(t, "scenario/unknown-tool", first.ID)
	assert.Equal(t, "decision", first.Layer)
	assert.JSONEq(t, `{"status":"rejected","code":"unknown_tool","correlationId":"request-1"}`, string(first.Expect))

	// Each input, fed to toolgate assess, gets the expected line; the
	// input layer is what the check refuses, the decision layer what it
	// answers. Inputs are kept byte for byte (a lone surrogate too).
	var inputs, expects []string
	layers := map[string]int{}
	for _, l := range lines {
		var v struct {
			Layer  string         `json:"layer"`
			Input  jsontext.Value `json:"input"`
			Expect jsontext.Value `json:"expect"`
		}
		require.NoError(t, json.Unmarshal([]byte(l), &v, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)), l)
		require.Equal(t, v.Layer == "input", strings.HasPrefix(string(v.Expect), `{"error":`), "an input vector, and only one, expects a refusal: %s", l)
		layers[v.Layer]++
		inputs = append(inputs, string(v.Input))
		expects = append(expects, string(v.Expect))
	}
	assert.Len(t, layers, 2, "both layers")
	answers, _, _ := run(t, strings.Join(inputs, "\n"), nil, "assess")
	got := strings.Split(strings.TrimSpace(answers), "\n")
	require.Len(t, got, len(expects))
	for i := range got {
		if strings.Contains(expects[i], `"error"`) {
			assert.Contains(t, got[i], `{"error":`, lines[i])
			continue
		}
		assert.JSONEq(t, expects[i], got[i], lines[i])
	}

	out, _, code = run(t, "", nil, "vectors", "--track", "audit")
	require.Equal(t, 0, code)
	assert.Contains(t, out, `{"id":"seed/duplicate-missing-unknown","layer":"decision","input":{"requested":["A","B"],"results":["A","A","C"]},"expect":{"diagnostics":["duplicate:A","missing:B","unknown:C"],"pending":[]}}`)
	_, errOut, code := run(t, "", nil, "vectors", "--track", "nope")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `--track "nope"`)
	out, _, code = run(t, "", nil, "--scenarios", "../examples", "vectors")
	require.Equal(t, 0, code)
	assert.Contains(t, out, `"id":"scenario/course-version-bump"`, "a lecturer's scenarios are vectors too")
}

// TestCheckCommand runs `toolgate check` on the test gate of
// testdata/harness/gate, built here with the Go toolchain.
func TestCheckCommand(t *testing.T) {
	t.Parallel()
	gate := filepath.Join(t.TempDir(), "gate")
	build := exec.Command("go", "build", "-o", gate, "../testdata/harness/gate")
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))

	stdout, _, code := run(t, "", nil, "check", "--", gate)
	assert.Equal(t, 0, code, stdout)
	assert.Contains(t, stdout, "the gate agrees with toolgate on every vector")

	stdout, _, code = run(t, "", nil, "check", gate, "-bug", "approval-before-environment")
	assert.Equal(t, 1, code, "flags after CMD are CMD's")
	assert.Contains(t, stdout, "✗ DISAGREE  rule/4/before-rule-7")
	assert.Contains(t, stdout, `differs:   code: want "environment_not_ready", got "approval_missing"`)
	assert.Contains(t, stdout, `4 ➤ Environment not ready — environment has no status: absent is not "ready"`)
	assert.Regexp(t, `✗ 4 Environment not ready\s+\d+/\d+`, stdout)

	// A bare port of the book's function: it gives the book's verdict on
	// every input the check accepts, and is told by vector which of the
	// others it lets through.
	stdout, _, code = run(t, "", nil, "check", "--layer", "decision", "--", gate, "-bug", "book-port")
	assert.Equal(t, 0, code, stdout)
	assert.Contains(t, stdout, "the gate agrees with toolgate on every vector")
	assert.NotContains(t, stdout, "DISAGREE")
	stdout, _, code = run(t, "", nil, "check", "--", gate, "-bug", "book-port")
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout, "✗ DISAGREE  field/contract.tools[0].requiredArguments/absent\n")
	assert.Contains(t, stdout, "  differs:   admits an input toolgate's input check refuses: answering allowed to it fails open")
	assert.Regexp(t, `✗ an unknown member \(a typo\)\s+0/\d+`, stdout)
	assert.Regexp(t, `✓ 7 Write not approved\s+(\d+)/(\d+)`, stdout, "the decision layer still agrees")
	stdout, _, code = run(t, "", nil, "check", "--layer", "input", "--", gate)
	assert.Equal(t, 0, code, stdout)
	assert.Regexp(t, `✓ a member name twice\s+\d+/\d+`, stdout)
	_, stderr, code := run(t, "", nil, "check", "--layer", "book", "--", gate)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `--layer "book": want decision, input or all`)

	stdout, _, code = run(t, "", nil, "check", "--track", "audit", "--lang", "zh", "--", gate, "-track", "audit")
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "这个门与 toolgate 在每个向量上都一致")

	_, stderr, code = run(t, "", nil, "check", "--timeout", "200ms", "--", gate, "-misbehave", "hang")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "no answer to input 1 (scenario/unknown-tool) within 200ms")

	_, stderr, code = run(t, "", nil, "check", "--", gate, "-misbehave", "exit-early")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "the gate stopped answering after 3 of")
	assert.Contains(t, stderr, "  | gate: panic: assignment to entry in nil map (input 4)")

	_, stderr, code = run(t, "", nil, "check", "--timeout", "0s", "--", gate)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--timeout 0s")
	_, _, code = run(t, "", nil, "check")
	assert.Equal(t, 2, code, "no command")
}
