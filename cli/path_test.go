package cli_test

import (
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTracePathToAllowed(t *testing.T) {
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
	out, _, code := run(t, "", nil, "trace", "write-without-approval")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "Path to allowed (over the what-if knobs):\n  Approval → active\n      approval.status: absent → \"active\"")
	assert.Contains(t, out, "  or: Tool's effect class → read_only")
	assert.Regexp(t, `4 Environment not ready\s+Environment → degraded  → blocked/environment_not_ready`, out)
	out, _, _ = run(t, "", nil, "trace", "demo", "--lang", "zh")
	assert.Contains(t, out, "已经是 allowed：无需改变")
	assert.Regexp(t, `7 写入未获有效批准\s+工具的效果类别 → reversible_write  → requires_approval/approval_scope_mismatch`, out)
	out, _, _ = run(t, "", nil, "trace", "1")
	assert.Contains(t, out, "none: no combination of the what-if knobs makes this allowed")
}
