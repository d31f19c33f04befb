package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestImportMCPCommand(t *testing.T) {
	t.Parallel()
	fs := "../testdata/harness/mcp/filesystem-tools-list.json"
	out, errOut, code := run(t, "", nil, "import", "mcp", fs, "--contract-version", "fs-1")
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "{\n  \"version\": \"fs-1\",\n  \"tools\": [\n"))
	assert.Contains(t, errOut, "toolgate: read 14 tools from "+fs+" (a JSON-RPC response to tools/list)")
	assert.Contains(t, errOut, "annotations are hints from the server, not guarantees")
	assert.Contains(t, errOut, "toolgate: create_directory → reversible_write (destructiveHint: false)")

	data, err := os.ReadFile(fs)
	require.NoError(t, err)
	fromStdin, _, code := run(t, string(data), nil, "import", "mcp", "-", "--contract-version", "fs-1")
	require.Equal(t, 0, code)
	assert.Equal(t, out, fromStdin, "a file and standard input give the same bytes")

	_, errOut, code = run(t, "", nil, "import", "mcp", "../testdata/harness/mcp/bad-annotation.json")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "bad-annotation.json:4:36: result.tools[1].annotations.readOnlyHint: want boolean, got string")
	_, errOut, code = run(t, "", nil, "import", "mcp", "no-such-file.json")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "no-such-file.json")
	_, errOut, code = run(t, "{}", nil, "import", "mcp", "--arguments", "{}")
	assert.Equal(t, 1, code, "the input is read first: {} is not a tool list")
	assert.Contains(t, errOut, "neither a tools/list response")
}

// TestImportScenarioValidates is the session of the issue: import a tool
// list, make a scenario of one call, validate it, trace it.
func TestImportScenarioValidates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, errOut, code := run(t, "", nil, "import", "mcp", "../testdata/harness/mcp/filesystem-tools-list.json", "--scenario", "write_file")
	require.Equal(t, 0, code, errOut)
	file := filepath.Join(dir, "write-file.yaml")
	require.NoError(t, os.WriteFile(file, []byte(out), 0o644))
	assert.Contains(t, out, "id: mcp-write-file")
	assert.Contains(t, out, "code: approval_missing")

	vout, _, code := run(t, "", nil, "validate", file)
	assert.Equal(t, 0, code, vout)
	assert.Contains(t, vout, "1 file checked: 1 valid")

	tout, _, code := run(t, "", nil, "--scenarios", dir, "trace", "mcp-write-file")
	require.Equal(t, 0, code)
	assert.Contains(t, tout, `write_file's effectClass is "irreversible_write" (a write) and there is no approval snapshot`)
	assert.Contains(t, tout, "Path to allowed (over the what-if knobs):\n  Approval → active")

	_, errOut, code = run(t, "", nil, "import", "mcp", "../testdata/harness/mcp/filesystem-tools-list.json", "--scenario", "format_disk")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `--scenario "format_disk": no such tool`)
	_, errOut, code = run(t, "", nil, "import", "mcp", "../testdata/harness/mcp/filesystem-tools-list.json", "--scenario", "move_file", "--arguments", "[1]")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--arguments: want a JSON object")
}

func TestImportTranscriptIntoAudit(t *testing.T) {
	t.Parallel()
	out, errOut, code := run(t, "", nil, "import", "transcript", "../testdata/harness/transcripts/anthropic-missing-result.json")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "as Anthropic Messages")
	assert.Contains(t, errOut, "toolgate: batch 1: [1] (line 3): 2 tool_use → [2] (line 7): 2 tool_result")
	audit, _, code := run(t, out, nil, "audit")
	require.Equal(t, 0, code)
	assert.Equal(t, `{"diagnostics":["missing:toolu_01RnM3eT8kq2Vb7cXw4Jd9Lh","unknown:toolu_01Xx9Zz8Yy7Ww6Vv5Uu4Tt3S"],"pending":[]}`+"\n", audit)

	out, errOut, code = run(t, "", nil, "import", "transcript", "--closed", "../testdata/harness/transcripts/mcp-session.jsonl")
	require.Equal(t, 0, code)
	assert.Contains(t, errOut, "as an MCP JSON-RPC message log")
	audit, _, _ = run(t, out, nil, "audit")
	assert.Equal(t, `{"diagnostics":["missing:client:4","unknown:?:9"],"pending":[]}`+"\n", audit)

	_, errOut, code = run(t, "", nil, "import", "transcript", "--format", "bard", "../testdata/harness/transcripts/mcp-session.jsonl")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `--format "bard"`)
	_, errOut, code = run(t, "not json", nil, "import", "transcript")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "-:1:1: not JSON: 1 line of text and no JSON value (line 1: not json)")
}

// TestImportTranscriptAudit: --audit imports and audits in one command,
// so a failed import is not hidden behind a pipe's last command.
func TestImportTranscriptAudit(t *testing.T) {
	t.Parallel()
	out, errOut, code := run(t, "", nil, "import", "transcript", "--audit", "../testdata/transcripts/anthropic/missing.json")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, `{"diagnostics":["missing:toolu_01Ar4Cv9Hx2Mq7Ln5Tz8Wk3P"],"pending":[]}`+"\n", out)
	assert.Contains(t, errOut, "toolgate: batch 1: messages[1] (line 6): 2 tool_use → messages[2] (line 10): 1 tool_result: missing:toolu_01Ar4Cv9Hx2Mq7Ln5Tz8Wk3P")

	// The same as import | audit.
	batches, _, code := run(t, "", nil, "import", "transcript", "../testdata/transcripts/anthropic/missing.json")
	require.Equal(t, 0, code)
	audit, _, _ := run(t, batches, nil, "audit")
	assert.Equal(t, out, audit)

	// printf '' | toolgate audit answers nothing and exits 0; the import
	// says the input is empty, and --audit fails with it.
	_, _, code = run(t, "", nil, "audit")
	assert.Equal(t, 0, code, "audit of no batches: nothing to answer")
	out, errOut, code = run(t, "", nil, "import", "transcript", "--audit")
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "-: empty: no JSON value")

	// A cut log: audited as far as it goes, the cut reported, exit 1.
	out, errOut, code = run(t, "", nil, "import", "transcript", "--audit", "../testdata/transcripts/mcp/banner-cut.jsonl")
	assert.Equal(t, 1, code)
	assert.Equal(t, `{"diagnostics":[],"pending":["client:2"]}`+"\n", out)
	assert.Contains(t, errOut, "banner-cut.jsonl:9:1: the input ends inside the value that starts here: audited what came before it")
	assert.Contains(t, errOut, "2 lines that are not JSON skipped (line 1: Secure MCP Filesystem Server running on stdio")

	// A transcript with no tool call says so.
	_, errOut, code = run(t, `[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]`, nil, "import", "transcript", "--audit")
	assert.Equal(t, 0, code)
	assert.Contains(t, errOut, "0 batches (no tool call in 2 elements: nothing to audit)")

	// --format that does not fit the transcript is refused, not 0 batches.
	_, errOut, code = run(t, "", nil, "import", "transcript", "--format", "openai", "../testdata/transcripts/openai-chat/request.json")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "with --format openai: this is a Chat Completions message with tool_calls, not OpenAI Responses items; --format openai-chat reads it")
}

func TestHarnessHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"import", "--help"}, {"import", "mcp", "--help"}, {"import", "transcript", "--help"},
		{"vectors", "--help"}, {"check", "--help"}, {"validate", "--help"}} {
		out, _, code := run(t, "", nil, args...)
		assert.Equal(t, 0, code, args)
		assert.Contains(t, out, "EXAMPLES", args)
	}
}

func TestValidateCoverage(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, "", nil, "validate", "--coverage")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "Coverage of 14 admission, 8 audit and 8 outcome scenarios (built-in)")
	assert.Regexp(t, `✗ 4 Environment not ready\s+never`, out, "the book's seven tests never make rule 4 decide")
	assert.Regexp(t, `✓ 8 Admit\s+read-only-candidate, demo, write-without-approval-scope, \+1 more`, out)
	assert.Regexp(t, `✓ approval_<status>\s+expired-approval`, out)
	assert.Regexp(t, `✗ approval_scope_mismatch\s+never`, out)
	assert.Regexp(t, `✓ 5 passed: record timed out, but effectStatus is absent, not "unknown": rule 5 asks for "unknown" exactly, so it does not fire\s+timed-out-no-effect-status`, out,
		"an edge the table does not say is a branch of its own")
	assert.Contains(t, out, "Never exercised (")

	out, _, code = run(t, "", nil, "validate", "--coverage", "../examples")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "3 files checked: 3 valid")
	assert.Contains(t, out, "Coverage of 3 admission, 0 audit and 0 outcome scenarios (../examples)")
	assert.Regexp(t, `✓ approval_<status>\s+course-expired-approval-irreversible`, out)

	out, _, code = run(t, "", nil, "validate", "--coverage", "--lang", "zh")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "覆盖情况：14 个准入")
	_, errOut, code := run(t, "", nil, "validate")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "which files?")
}
