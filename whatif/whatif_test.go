package whatif_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/scenarios"
	"toolgate/whatif"
)

func knob(t *testing.T, id string) whatif.Knob {
	t.Helper()
	for _, k := range whatif.Knobs() {
		if k.ID == id {
			return k
		}
	}
	t.Fatalf("no knob %s", id)
	return whatif.Knob{}
}

// TestEveryKnob turns each knob on two scenarios and checks the verdict
// assess gives for the edited input.
func TestEveryKnob(t *testing.T) {
	all := scenarios.Builtin()
	tests := []struct {
		scenario, knob string
		option         int
		want           assess.Code
	}{
		{"read-only-candidate", "environment", 1, assess.CodeEnvironmentNotReady},
		{"write-without-approval", "environment", 2, assess.CodeEnvironmentNotReady}, // no status is not ready
		{"demo", "environment", 1, assess.CodeEnvironmentNotReady},
		{"write-without-approval", "approval", 1, assess.CodeAdmissionAllowed},
		{"write-without-approval", "approval", 2, assess.CodeApprovalStatus},
		{"write-without-approval", "approval", 3, assess.CodeApprovalStatus},
		{"write-without-approval", "approval", 4, assess.CodeApprovalScopeMismatch},
		{"write-without-approval", "approval", 5, assess.CodeApprovalScopeMismatch}, // no scope does not match metadata_write
		{"write-without-approval-scope", "approval", 4, assess.CodeApprovalScopeMismatch},
		{"timed-out-no-readback", "approval", 0, assess.CodeTimedOutWithoutReadback},
		{"read-only-candidate", "record", 2, assess.CodeCorrelationConflict},
		{"read-only-candidate", "record", 3, assess.CodeCorrelationConflict}, // a record without an id conflicts
		{"correlation-conflict", "record", 1, assess.CodeAdmissionAllowed},
		{"correlation-conflict", "record", 0, assess.CodeAdmissionAllowed},
		{"demo", "status", 1, assess.CodeAdmissionAllowed}, // timed out, no effectStatus: rule 5 asks for "unknown"
		{"timed-out-no-readback", "status", 3, assess.CodeAdmissionAllowed},
		{"succeeded-not-verified", "status", 2, assess.CodeAdmissionAllowed},
		{"succeeded-not-verified", "verification", 0, assess.CodeAdmissionAllowed},
		{"demo", "verification", 1, assess.CodeToolResultNotVerified},
		{"demo", "verification", 2, assess.CodeToolResultNotVerified},
		{"timed-out-no-readback", "effect", 1, assess.CodeAdmissionAllowed},
		{"timed-out-no-readback", "effect", 2, assess.CodeAdmissionAllowed},
		{"timed-out-no-effect-status", "effect", 0, assess.CodeTimedOutWithoutReadback},
		{"demo", "effect", 0, assess.CodeAdmissionAllowed}, // succeeded + accepted: the effect status is not read
		{"read-only-candidate", "argument", 1, assess.CodeInvalidArguments},
		{"read-only-candidate", "argument", 3, assess.CodeInvalidArguments},
		{"write-without-approval", "argument", 2, assess.CodeInvalidArguments},
		{"invalid-arguments", "argument", 0, assess.CodeAdmissionAllowed},
		{"blank-argument", "argument", 0, assess.CodeAdmissionAllowed},
		{"read-only-candidate", "version", 1, assess.CodeToolVersionMismatch},
		{"read-only-candidate", "version", 2, assess.CodeToolVersionMismatch},
		{"demo", "version", 1, assess.CodeToolVersionMismatch},
		{"read-only-candidate", "class", 1, assess.CodeApprovalScopeMismatch}, // its approval names metadata_write, the tool names no approvalScope
		{"read-only-candidate", "class", 3, assess.CodeApprovalScopeMismatch},
		{"write-without-approval", "class", 0, assess.CodeAdmissionAllowed},
		{"demo", "class", 2, assess.CodeApprovalScopeMismatch},
	}
	seen := map[string]int{}
	for _, tt := range tests {
		t.Run(tt.scenario+"/"+tt.knob, func(t *testing.T) {
			s, ok := scenarios.Find(all, 0, tt.scenario)
			require.True(t, ok)
			k := knob(t, tt.knob)
			edited := k.Apply(s.Case.(scenarios.AdmissionCase).Input, tt.option)
			assert.Equal(t, tt.want, assess.Assess(&edited).Code)
			assert.Equal(t, tt.option, k.Current(edited), "the knob reads back what it set")
			assert.NotEqual(t, s.Case.(scenarios.AdmissionCase).Input, edited, "the edit changed something")
			again, _ := scenarios.Find(scenarios.Builtin(), 0, tt.scenario)
			assert.Equal(t, again.Case.(scenarios.AdmissionCase).Input, s.Case.(scenarios.AdmissionCase).Input, "the scenario's own input is untouched")
		})
		seen[tt.knob]++
	}
	for _, k := range whatif.Knobs() {
		assert.GreaterOrEqual(t, seen[k.ID], 2, "knob %s is tried on at least two scenarios", k.ID)
		for i := range k.Options {
			assert.NotEmpty(t, k.Option(i, assess.Chinese))
		}
	}
}
