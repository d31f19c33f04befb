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
	rec := func(status string, edit func(*assess.InvocationRecord)) func(*assess.Input) {
		return func(in *assess.Input) {
			in.InvocationRecord = record("request-1", status)
			if edit != nil {
				edit(in.InvocationRecord)
			}
		}
	}
	edits := []func(*assess.Input){
		func(*assess.Input) {},
		func(in *assess.Input) { in.Request.Tool.Name = "document_delete" },
		func(in *assess.Input) { in.Request.Tool.Version = some("v2") },
		func(in *assess.Input) { in.InvocationRecord = record("request-0", "succeeded") },
		func(in *assess.Input) { in.InvocationRecord = &assess.InvocationRecord{} },
		func(in *assess.Input) { in.Contract.Tools[1].RequiredArguments = []string{} },
		func(in *assess.Input) { delete(in.Request.Arguments, "value") },
		func(in *assess.Input) { in.Environment = assess.Environment{} },
		func(in *assess.Input) { in.Environment.Status = some("degraded") },
		rec("timed_out", nil),
		rec("timed_out", func(r *assess.InvocationRecord) { r.EffectStatus = some("unknown") }),
		rec("timed_out", func(r *assess.InvocationRecord) { r.EffectStatus = some("read_back") }),
		rec("succeeded", nil),
		rec("succeeded", func(r *assess.InvocationRecord) { r.VerificationStatus = some("not_run") }),
		rec("succeeded", func(r *assess.InvocationRecord) { r.VerificationStatus = some("accepted") }),
		func(in *assess.Input) { in.Request.Tool.Name = "document_read_metadata" },
		func(in *assess.Input) { in.Approval = nil },
		func(in *assess.Input) { in.Approval.Status = "expired" },
		func(in *assess.Input) { in.Approval.Scope = some("other") },
		func(in *assess.Input) {
			in.Approval.Scope = assess.Absent
			in.Contract.Tools[1].ApprovalScope = assess.Absent
		},
	}
	ins := make([]assess.Input, len(edits))
	for i, edit := range edits {
		ins[i] = base()
		edit(&ins[i])
	}
	return ins
}
