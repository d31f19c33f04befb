package cli

import (
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
)

// TestVerdictLinesAreWhatMarshalWrites: the lines written without
// reflection are byte for byte what json.Marshal writes, for every code
// and for IDs that need escaping.
func TestVerdictLinesAreWhatMarshalWrites(t *testing.T) {
	ids := []string{"r1", "", `quo"te`, `back\slash`, "tab\tnew\nline\x00\x1f", "del\x7f", "<&>", "中文", "\u2028\u2029", "\U0001F600", "bad\xff"}
	for _, code := range assess.Codes() {
		for _, id := range ids {
			v := assess.Verdict{Status: code.Status(), Code: code, CorrelationID: id}
			if code == assess.CodeInvalidArguments {
				v.MissingArguments = []string{"a", id}
			}
			if code == assess.CodeTimedOutWithoutReadback {
				v.EffectStatus = "unknown"
			}
			want, err := json.Marshal(v)
			if id == "bad\xff" {
				require.Error(t, err) // never happens: inputs are checked UTF-8
				continue
			}
			require.NoError(t, err)
			assert.Equal(t, string(want)+"\n", string(appendVerdict(nil, &v)), "%v %q", code, id)
		}
	}
	r := assess.AuditResult{Diagnostics: []string{"duplicate:A", `unknown:"x"`}, Pending: []string{}}
	want, err := json.Marshal(r)
	require.NoError(t, err)
	assert.Equal(t, string(want)+"\n", string(appendAudit(nil, &r)))
}
