package look_test

import (
	"testing"

	"github.com/mattn/go-runewidth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/scenarios"
)

func find(t *testing.T, fields []look.Field, path string) look.Field {
	t.Helper()
	for _, f := range fields {
		if f.Path == path {
			return f
		}
	}
	t.Fatalf("no field %s", path)
	return look.Field{}
}

func TestFieldsShowAbsentPartsAndMissingArguments(t *testing.T) {
	s, ok := scenarios.Find(scenarios.Builtin(), scenarios.TrackAdmission, "invalid-arguments")
	require.True(t, ok)
	_, trace := assess.Explain(new(s.Case.(scenarios.AdmissionCase).Input))
	fields := look.Fields(s.Case.(scenarios.AdmissionCase).Input, trace)

	assert.True(t, find(t, fields, "invocationRecord").Absent, "an absent record is a line, not hidden")
	assert.Equal(t, `"active"`, find(t, fields, "approval.status").Value)
	missing := find(t, fields, "request.arguments.documentId")
	assert.True(t, missing.Absent, "the argument rule 3 looked for is shown as absent")
	args := find(t, fields, "request.arguments")
	assert.False(t, args.Absent, "arguments {} are there, and empty")
	assert.Equal(t, "{}", args.Value)

	fired := trace[2]
	assert.True(t, look.Reads(missing, fired.Reads))
	assert.True(t, look.Reads(find(t, fields, "contract.tools[0].requiredArguments"), fired.Reads))
	assert.False(t, look.Reads(find(t, fields, "approval.status"), fired.Reads), "rule 3 does not read the approval")
}

// TestApprovalScopeAbsentIsNotEmpty: a tool's approvalScope left out is
// absent; "" is a value, shown quoted.
func TestApprovalScopeAbsentIsNotEmpty(t *testing.T) {
	in := assess.Input{Contract: assess.Contract{Tools: []assess.Tool{{Name: "a"}, {Name: "b", ApprovalScope: assess.Some("")}, {Name: "c", ApprovalScope: assess.Some("s")}}}}
	fields := look.Fields(in, nil)
	assert.Equal(t, look.Field{Section: "contract", Path: "contract.tools[0].approvalScope", Label: "tools[0].approvalScope", Absent: true},
		find(t, fields, "contract.tools[0].approvalScope"))
	empty := find(t, fields, "contract.tools[1].approvalScope")
	assert.False(t, empty.Absent)
	assert.Equal(t, `""`, empty.Value)
	assert.Equal(t, `"s"`, find(t, fields, "contract.tools[2].approvalScope").Value)
}

func TestReadsMatchesPrefixesAndAbsentParents(t *testing.T) {
	tool := look.Field{Path: "contract.tools[1].name"}
	assert.True(t, look.Reads(tool, []string{"contract.tools"}))
	assert.False(t, look.Reads(tool, []string{"contract.tool"}), "a prefix must end at a separator")
	absent := look.Field{Path: "approval", Absent: true}
	assert.True(t, look.Reads(absent, []string{"approval.status"}))
	present := look.Field{Path: "approval"}
	assert.False(t, look.Reads(present, []string{"approval.status"}))
}

// Symbols must be one cell wide everywhere, East Asian terminals included,
// or the columns of the trace and the TUI would not line up in Chinese.
func TestSymbolsAreOneCellWide(t *testing.T) {
	cjk := runewidth.NewCondition()
	cjk.EastAsianWidth = true
	for _, c := range assess.Codes() {
		s := look.StatusSymbol(c.Status())
		assert.Equal(t, 1, runewidth.StringWidth(s), s)
		assert.Equal(t, 1, cjk.StringWidth(s), s)
	}
	for _, o := range []assess.Outcome{assess.Passed, assess.Fired, assess.NotReached} {
		s := look.OutcomeSymbol(o)
		assert.Equal(t, 1, cjk.StringWidth(s), s)
	}
}

// The trainer marks the fields a rule reads, and a rule reads exactly the
// fields it compares: rule 1 on an unknown tool marks the tools' names and
// the requested name, never a tool's effectClass, requiredArguments or
// approvalScope.
func TestMarkedFieldsAreTheComparedOnes(t *testing.T) {
	s, ok := scenarios.Find(scenarios.Builtin(), scenarios.TrackAdmission, "unknown-tool")
	require.True(t, ok)
	_, trace := assess.Explain(new(s.Case.(scenarios.AdmissionCase).Input))
	fields := look.Fields(s.Case.(scenarios.AdmissionCase).Input, trace)
	var marked []string
	for _, f := range fields {
		if look.Reads(f, trace[0].Reads) {
			marked = append(marked, f.Path)
		}
	}
	assert.Equal(t, []string{"contract.tools[0].name", "contract.tools[1].name", "request.tool.name"}, marked)

	s, _ = scenarios.Find(scenarios.Builtin(), scenarios.TrackAdmission, "write-without-approval")
	_, trace = assess.Explain(new(s.Case.(scenarios.AdmissionCase).Input))
	marked = nil
	for _, f := range look.Fields(s.Case.(scenarios.AdmissionCase).Input, trace) {
		if look.Reads(f, trace[assess.RuleApproval-1].Reads) {
			marked = append(marked, f.Path)
		}
	}
	assert.Equal(t, []string{"contract.tools[1].effectClass", "approval"}, marked)
}
