package coverage_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/coverage"
	"toolgate/decode"
	"toolgate/scenarios"
	"toolgate/vectors"
)

func TestBuiltinSet(t *testing.T) {
	r := coverage.Of(scenarios.Builtin(), assess.English)
	assert.Equal(t, map[scenarios.Track]int{scenarios.TrackAdmission: 14, scenarios.TrackAudit: 8, scenarios.TrackOutcome: 8}, r.Counts)
	never := r.Never()
	for _, name := range []string{"4 Environment not ready", "environment_not_ready", "approval_scope_mismatch"} {
		assert.Contains(t, never, name, "the built-in set never exercises %s", name)
	}
	for _, name := range []string{"1 Tool not in contract", "approval_missing", "approval_<status>", "tool_version_mismatch", "allowed", "found", "pending (an open batch)"} {
		assert.NotContains(t, never, name)
	}
	var rules coverage.Section
	for _, s := range r.Sections {
		if s.Title == "Admission: the rule that decides" {
			rules = s
		}
	}
	require.Len(t, rules.Items, 8)
	assert.Equal(t, []string{"read-only-candidate", "demo", "write-without-approval-scope", "timed-out-no-effect-status"}, rules.Items[7].Scenarios)
	assert.Equal(t, 7, rules.Covered())
}

// TestEveryBranchIsReachable feeds the admission vectors through coverage:
// every branch it lists must be taken by some input, so that no branch in
// its table names a way the core never goes.
func TestEveryBranchIsReachable(t *testing.T) {
	vs, err := vectors.For(scenarios.TrackAdmission, scenarios.Builtin())
	require.NoError(t, err)
	var list []scenarios.Scenario
	for _, v := range vs {
		in, err := decode.Input(v.Input)
		if err != nil {
			continue
		}
		list = append(list, scenarios.Scenario{ID: v.ID, Case: scenarios.AdmissionCase{Input: in}})
	}
	r := coverage.Of(list, assess.English)
	for _, s := range r.Sections[:4] {
		for _, it := range s.Items {
			assert.True(t, it.Covered(), "%s: %s is taken by some vector", s.Title, it.Name)
		}
	}
	zh := coverage.Of(list, assess.Chinese)
	assert.Equal(t, "准入：作出判断的规则", zh.Sections[0].Title)
}

func TestEmptySet(t *testing.T) {
	r := coverage.Of(nil, assess.English)
	assert.Len(t, r.Never(), 8+11+6+31+6+6) // 31: the 30 notes of assess.Branches and fail-closed
}
