package cli

import (
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
)

// TestVerdictLinesAreWhatMarshalWrites: the lines written without
// reflection (the fast lane) are byte for byte what the slow lane's
// json.Marshal writes, for every code and for IDs and approval statuses
// that need escaping (approval_<status> carries the status as the input
// gave it).
func TestVerdictLinesAreWhatMarshalWrites(t *testing.T) {
	t.Parallel()
	ids := []string{"r1", "", `quo"te`, `back\slash`, "tab\tnew\nline\x00\x1f", "del\x7f", "<&>", "中文", "\u2028\u2029", "\U0001F600", "bad\xff"}
	for _, code := range assess.Codes() {
		for _, id := range ids {
			v := assess.Verdict{Status: code.Status(), Code: code, CorrelationID: id}
			switch code {
			case assess.CodeInvalidArguments:
				v.MissingArguments = []string{"a", id}
			case assess.CodeTimedOutWithoutReadback:
				v.EffectStatus = "unknown"
			case assess.CodeApprovalStatus:
				v.ApprovalStatus = "expired" + id
			default: // the other codes carry no field of their own
			}
			want, err := json.Marshal(verdictLine{VerdictJSON: v.JSON()}, json.Deterministic(true))
			if id == "bad\xff" {
				require.Error(t, err) // never happens: inputs are checked UTF-8
				continue
			}
			require.NoError(t, err)
			assert.Equal(t, string(want)+"\n", string(appendVerdict(nil, &v)), "%v %q", code, id)
		}
	}
	v := assess.Verdict{Status: assess.StatusRequiresApproval, Code: assess.CodeApprovalStatus, CorrelationID: "r", ApprovalStatus: `ex"pired`}
	assert.Equal(t, `{"status":"requires_approval","code":"approval_ex\"pired","correlationId":"r"}`+"\n", string(appendVerdict(nil, &v)),
		"a quote in the status is escaped, not written raw")
	r := assess.AuditResult{Diagnostics: []string{"duplicate:A", `unknown:"x"`}, Pending: []string{}}
	want, err := json.Marshal(r)
	require.NoError(t, err)
	assert.Equal(t, string(want)+"\n", string(appendAudit(nil, &r)))
}
