package assess_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
)

// TestBranchesAreTheWalksOwn: every explanation has its rule, the list
// is in rule order, and on every step of every trace the tests build the
// note's rule is the step's rule and it fires exactly when the step does.
func TestBranchesAreTheWalksOwn(t *testing.T) {
	keys := assess.Branches()
	require.Len(t, keys, int(assess.NoteNotReached)-1)
	for i, k := range keys {
		require.True(t, k.Rule().Valid(), "note %d has no rule", k)
		if i > 0 {
			assert.LessOrEqual(t, keys[i-1].Rule(), k.Rule(), "note %d is out of rule order", k)
		}
	}
	assert.Zero(t, assess.NoteNone.Rule())
	assert.Zero(t, assess.NoteNotReached.Rule())

	seen := map[assess.NoteKey]bool{}
	for _, in := range branchInputs() {
		_, trace := assess.Explain(&in)
		for _, s := range trace {
			if s.Outcome == assess.NotReached {
				continue
			}
			assert.Equal(t, s.Rule, s.Note.Key.Rule(), "note %d", s.Note.Key)
			assert.Equal(t, s.Outcome == assess.Fired, s.Note.Key.Fires(), "note %d", s.Note.Key)
			seen[s.Note.Key] = true
		}
	}
	for _, k := range keys {
		assert.True(t, seen[k], "no input here takes note %d", k)
	}
}

// branchInputs are edits of base that take every branch of every rule.
func branchInputs() []assess.Input {
	edits := []func(*assess.Input){
		func(*assess.Input) {},
		func(in *assess.Input) { in.Request.Tool.Name = "document_delete" },
		func(in *assess.Input) { in.Request.Tool.Version = "v2" },
		func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-0", Status: "succeeded"}
		},
		func(in *assess.Input) { in.Contract.Tools[1].RequiredArguments = nil },
		func(in *assess.Input) { delete(in.Request.Arguments, "title") },
		func(in *assess.Input) { in.Environment = nil },
		func(in *assess.Input) { in.Environment.Status = "degraded" },
		func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "timed_out"}
		},
		func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "timed_out", EffectStatus: ptr("unknown")}
		},
		func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "timed_out", EffectStatus: ptr("read_back")}
		},
		func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "timed_out", EffectStatus: ptr("")}
		},
		func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "succeeded"}
		},
		func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "succeeded", VerificationStatus: ptr("not_run")}
		},
		func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "succeeded", VerificationStatus: ptr("accepted")}
		},
		func(in *assess.Input) { in.Request.Tool.Name = "document_read_metadata" },
		func(in *assess.Input) { in.Approval = nil },
		func(in *assess.Input) { in.Approval.Status = "expired" },
		func(in *assess.Input) { in.Approval.Scope = ptr("other") },
		func(in *assess.Input) { in.Approval.Scope = nil },
	}
	ins := make([]assess.Input, len(edits))
	for i, edit := range edits {
		ins[i] = base()
		edit(&ins[i])
	}
	return ins
}
