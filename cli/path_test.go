package cli_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTracePathToAllowed(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, "", nil, "trace", "4", "--format", "json")
	require.Equal(t, 0, code)
	var got struct {
		PathToAllowed struct {
			Allowed, Reachable bool
			Changes            []struct {
				Knob, Option string
				Edits        []struct {
					Path     string
					From, To any
				}
			}
			Alternatives [][]struct{ Knob, Option string }
			Fire         []struct {
				Rule    int
				Changes []struct{ Knob, Option string }
				Verdict *struct{ Status, Code string }
			}
		} `json:"pathToAllowed"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got, json.MatchCaseInsensitiveNames(true)))
	p := got.PathToAllowed
	assert.False(t, p.Allowed)
	assert.True(t, p.Reachable)
	require.Len(t, p.Changes, 1)
	assert.Equal(t, "approval", p.Changes[0].Knob)
	assert.Equal(t, "active", p.Changes[0].Option)
	require.Len(t, p.Changes[0].Edits, 2)
	assert.Equal(t, "approval.status", p.Changes[0].Edits[0].Path)
	assert.Nil(t, p.Changes[0].Edits[0].From, "the approval was absent")
	assert.Equal(t, "active", p.Changes[0].Edits[0].To)
	require.Len(t, p.Fire, 6, "rules 1–6 passed")
	assert.Equal(t, 4, p.Fire[3].Rule)
	assert.Equal(t, "environment_not_ready", p.Fire[3].Verdict.Code)

	out, _, _ = run(t, "", nil, "trace", "unknown-tool", "--format", "json")
	assert.Contains(t, out, `"reachable": false`)
	out, _, _ = run(t, "", nil, "trace", "2", "--track", "audit", "--format", "json")
	assert.NotContains(t, out, "pathToAllowed", "only admission scenarios have one")
}

func TestTracePathText(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, "", nil, "trace", "write-without-approval")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "Path to allowed (over the what-if knobs):\n  Approval → active\n      approval.status: absent → \"active\"")
	assert.Contains(t, out, "Rewriting the evidence or the contract would get there too, and is no fix:\n  Tool's effect class → read_only\n"+
		"      Tool's effect class: the contract says what the tool does; relabelling a write as read-only does not make it one")
	assert.Regexp(t, `4 Environment not ready\s+Environment status → degraded  → blocked/environment_not_ready`, out)
	out, _, _ = run(t, "", nil, "trace", "demo", "--lang", "zh")
	assert.Contains(t, out, "已经是 allowed：无需改变")
	assert.Regexp(t, `7 写入未获有效批准\s+工具的效果类别 → reversible_write  → requires_approval/approval_scope_mismatch`, out)
	out, _, _ = run(t, "", nil, "trace", "1")
	assert.Contains(t, out, "none: no change the knobs can make to the request or its situation makes this allowed")
	out, _, _ = run(t, "", nil, "trace", "timed-out-no-readback")
	assert.NotContains(t, out, "Path to allowed (over the what-if knobs):\n  Invocation record → none", "deleting the record is no path")
	assert.Contains(t, out, "is no fix:\n  Invocation record → none\n      Invocation record: a record says what an earlier attempt did; leaving it out hides it and undoes nothing")
}

// TestTracePathNullIsNotAbsent: a required argument present as null is
// shown as null, not as absent, in the text and in the JSON (whose
// fromAbsent and toAbsent mark what is absent), and the JSON still
// matches the schema.
func TestTracePathNullIsNotAbsent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	scenario := `id: null-document
track: admission
title: {en: A null document id, zh: 文档 ID 为 null}
input:
  contract:
    version: course-v1
    tools:
      - {name: document_read_metadata, version: v1, effectClass: read_only, requiredArguments: [documentId]}
  request:
    correlationId: read-1
    tool: {name: document_read_metadata, version: v1}
    arguments: {documentId: null}
  environment: {status: ready}
expect: {status: rejected, code: invalid_arguments, missingArguments: [documentId]}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "null.yaml"), []byte(scenario), 0o644))
	out, errOut, code := run(t, "", nil, "--scenarios", dir, "trace", "null-document")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `request.arguments.documentId: null → "value-documentId"`)
	assert.NotContains(t, out, "documentId: absent")

	out, _, code = run(t, "", nil, "--scenarios", dir, "trace", "null-document", "--format", "json")
	require.Equal(t, 0, code)
	assert.NoError(t, outputSchema(t, "traceDocument").Validate(instance(t, out)))
	var got struct {
		PathToAllowed struct {
			Changes []struct {
				Edits []map[string]any `json:"edits"`
			} `json:"changes"`
		} `json:"pathToAllowed"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.Len(t, got.PathToAllowed.Changes, 1)
	require.Len(t, got.PathToAllowed.Changes[0].Edits, 1)
	edit := got.PathToAllowed.Changes[0].Edits[0]
	assert.Equal(t, "request.arguments.documentId", edit["path"])
	assert.Nil(t, edit["from"])
	assert.NotContains(t, edit, "fromAbsent", "present as null, not absent")
	assert.NotContains(t, edit, "toAbsent")

	// An absent field is marked absent.
	out, _, _ = run(t, "", nil, "trace", "write-without-approval", "--format", "json")
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, true, got.PathToAllowed.Changes[0].Edits[0]["fromAbsent"])
}
