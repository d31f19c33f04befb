package assess_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
)

var some = assess.Some

// base is an input that every rule passes: a known write-class tool with
// full arguments, a ready environment and an active approval for its
// scope — the book's fixture, asking for its write tool.
func base() assess.Input {
	return assess.Input{
		Contract: assess.Contract{Version: some("chapter-11-v1"), Tools: []assess.Tool{
			{Name: "document_read_metadata", Version: some("v1"), EffectClass: some(assess.ReadOnly), RequiredArguments: []string{"documentId"}},
			{Name: "document_update_metadata", Version: some("v1"), EffectClass: some(assess.ReversibleWrite),
				RequiredArguments: []string{"documentId", "field", "value"}, ApprovalScope: some("metadata_write")},
		}},
		Request: assess.Request{CorrelationID: "request-1",
			Tool:      assess.ToolRef{Name: "document_update_metadata", Version: some("v1")},
			Arguments: map[string]any{"documentId": "chapter-11", "field": "status", "value": "complete"}},
		Environment: assess.Environment{Status: some("ready")},
		Approval:    &assess.Approval{Status: "active", Scope: some("metadata_write")},
	}
}

func record(corr, status string) *assess.InvocationRecord {
	return &assess.InvocationRecord{CorrelationID: some(corr), Status: some(status)}
}

func TestAssessRules(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*assess.Input)
		code    assess.Code
		missing []string
		status  string // the approval status in approval_<status>
	}{
		{"everything in order is admitted", func(*assess.Input) {}, assess.CodeAdmissionAllowed, nil, ""},
		{"rule 1: unknown tool name", func(in *assess.Input) { in.Request.Tool.Name = "document_delete" }, assess.CodeUnknownTool, nil, ""},
		{"rule 1: empty contract knows no tool", func(in *assess.Input) { in.Contract.Tools = []assess.Tool{} }, assess.CodeUnknownTool, nil, ""},
		{"rule 1: known name, other version", func(in *assess.Input) { in.Request.Tool.Version = some("v2") }, assess.CodeToolVersionMismatch, nil, ""},
		{`rule 1: a request for version "" does not match version "v1"`, func(in *assess.Input) { in.Request.Tool.Version = some("") }, assess.CodeToolVersionMismatch, nil, ""},
		{"rule 1: a request without a version does not match v1", func(in *assess.Input) { in.Request.Tool.Version = assess.Absent }, assess.CodeToolVersionMismatch, nil, ""},
		{`rule 1: a tool without a version does not match a request for ""`, func(in *assess.Input) {
			in.Contract.Tools[1].Version = assess.Absent
			in.Request.Tool.Version = some("")
		}, assess.CodeToolVersionMismatch, nil, ""},
		{"rule 1: no version on either side matches", func(in *assess.Input) {
			in.Contract.Tools[1].Version = assess.Absent
			in.Request.Tool.Version = assess.Absent
		}, assess.CodeAdmissionAllowed, nil, ""},
		{"rule 1: versions compare as strings", func(in *assess.Input) { in.Request.Tool.Version = some("V1") }, assess.CodeToolVersionMismatch, nil, ""},
		{"rule 1: only the first tool of a name is read, not a later one at the right version", func(in *assess.Input) {
			in.Contract.Tools = append(in.Contract.Tools, in.Contract.Tools[1])
			in.Contract.Tools[1].Version = some("v0")
		}, assess.CodeToolVersionMismatch, nil, ""},
		{"rule 1: the first tool of a name decides what later rules read", func(in *assess.Input) {
			second := in.Contract.Tools[1]
			second.RequiredArguments = []string{}
			in.Contract.Tools = append(in.Contract.Tools, second)
			in.Request.Arguments = nil
		}, assess.CodeInvalidArguments, []string{"documentId", "field", "value"}, ""},
		{`rule 1: a tool may be named ""`, func(in *assess.Input) {
			in.Contract.Tools[1].Name = ""
			in.Request.Tool.Name = ""
		}, assess.CodeAdmissionAllowed, nil, ""},
		{"rule 2: record for another request", func(in *assess.Input) {
			in.InvocationRecord = record("request-0", "succeeded")
		}, assess.CodeCorrelationConflict, nil, ""},
		{"rule 2: a record without a correlationId conflicts", func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{Status: some("succeeded"), VerificationStatus: some("accepted")}
		}, assess.CodeCorrelationConflict, nil, ""},
		{"rule 2: an empty record conflicts", func(in *assess.Input) { in.InvocationRecord = &assess.InvocationRecord{} }, assess.CodeCorrelationConflict, nil, ""},
		{`rule 2: "" matches a request whose correlationId is ""`, func(in *assess.Input) {
			in.Request.CorrelationID = ""
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: some("")}
		}, assess.CodeAdmissionAllowed, nil, ""},
		{"rule 3: argument absent", func(in *assess.Input) { delete(in.Request.Arguments, "value") }, assess.CodeInvalidArguments, []string{"value"}, ""},
		{"rule 3: argument empty string", func(in *assess.Input) { in.Request.Arguments["documentId"] = "" }, assess.CodeInvalidArguments, []string{"documentId"}, ""},
		{"rule 3: argument only spaces", func(in *assess.Input) { in.Request.Arguments["documentId"] = "   " }, assess.CodeInvalidArguments, []string{"documentId"}, ""},
		{"rule 3: a no-break space and an ideographic space are blank", func(in *assess.Input) {
			in.Request.Arguments["field"] = "\u00a0\u3000\ufeff\t\n"
		}, assess.CodeInvalidArguments, []string{"field"}, ""},
		{"rule 3: a zero-width space is not whitespace to trim", func(in *assess.Input) { in.Request.Arguments["field"] = "\u200b" }, assess.CodeAdmissionAllowed, nil, ""},
		{"rule 3: U+0085 is not whitespace to trim", func(in *assess.Input) { in.Request.Arguments["field"] = "\u0085" }, assess.CodeAdmissionAllowed, nil, ""},
		{"rule 3: a padded value is usable", func(in *assess.Input) { in.Request.Arguments["field"] = "  status  " }, assess.CodeAdmissionAllowed, nil, ""},
		{"rule 3: argument a number", func(in *assess.Input) { in.Request.Arguments["documentId"] = 11.0 }, assess.CodeInvalidArguments, []string{"documentId"}, ""},
		{"rule 3: argument null", func(in *assess.Input) { in.Request.Arguments["value"] = nil }, assess.CodeInvalidArguments, []string{"value"}, ""},
		{"rule 3: argument an object", func(in *assess.Input) { in.Request.Arguments["value"] = map[string]any{} }, assess.CodeInvalidArguments, []string{"value"}, ""},
		{"rule 3: every bad argument listed, in requiredArguments order", func(in *assess.Input) { in.Request.Arguments = nil },
			assess.CodeInvalidArguments, []string{"documentId", "field", "value"}, ""},
		{"rule 3: a name required twice is missing twice", func(in *assess.Input) {
			in.Contract.Tools[1].RequiredArguments = []string{"value", "documentId", "value"}
			in.Request.Arguments = map[string]any{}
		}, assess.CodeInvalidArguments, []string{"value", "documentId", "value"}, ""},
		{"rule 3: extra arguments are not checked", func(in *assess.Input) { in.Request.Arguments["extra"] = []any{1.0} }, assess.CodeAdmissionAllowed, nil, ""},
		{"rule 3: no required arguments, none needed", func(in *assess.Input) {
			in.Contract.Tools[1].RequiredArguments = []string{}
			in.Request.Arguments = nil
		}, assess.CodeAdmissionAllowed, nil, ""},
		{"rule 4: environment without a status", func(in *assess.Input) { in.Environment = assess.Environment{} }, assess.CodeEnvironmentNotReady, nil, ""},
		{"rule 4: degraded environment", func(in *assess.Input) { in.Environment.Status = some("degraded") }, assess.CodeEnvironmentNotReady, nil, ""},
		{"rule 4: status compares exactly", func(in *assess.Input) { in.Environment.Status = some("Ready") }, assess.CodeEnvironmentNotReady, nil, ""},
		{"rule 5: timed out, effect unknown", func(in *assess.Input) {
			in.InvocationRecord = record("request-1", "timed_out")
			in.InvocationRecord.EffectStatus = some("unknown")
		}, assess.CodeTimedOutWithoutReadback, nil, ""},
		{"rule 5: timed out, effectStatus absent does not fire", func(in *assess.Input) {
			in.InvocationRecord = record("request-1", "timed_out")
		}, assess.CodeAdmissionAllowed, nil, ""},
		{"rule 5: timed out but read back falls through to approval", func(in *assess.Input) {
			in.InvocationRecord = record("request-1", "timed_out")
			in.InvocationRecord.EffectStatus = some("read_back")
			in.Approval = nil
		}, assess.CodeApprovalMissing, nil, ""},
		{"rule 5: effect unknown without a status does not fire", func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: some("request-1"), EffectStatus: some("unknown")}
		}, assess.CodeAdmissionAllowed, nil, ""},
		{"rule 6: succeeded, verification not run", func(in *assess.Input) {
			in.InvocationRecord = record("request-1", "succeeded")
			in.InvocationRecord.VerificationStatus = some("not_run")
		}, assess.CodeToolResultNotVerified, nil, ""},
		{"rule 6: succeeded, verification absent", func(in *assess.Input) {
			in.InvocationRecord = record("request-1", "succeeded")
		}, assess.CodeToolResultNotVerified, nil, ""},
		{"rule 6: a failed record is neither timeout nor success", func(in *assess.Input) {
			in.InvocationRecord = record("request-1", "failed")
		}, assess.CodeAdmissionAllowed, nil, ""},
		{"rule 7: write without approval", func(in *assess.Input) { in.Approval = nil }, assess.CodeApprovalMissing, nil, ""},
		{"rule 7: expired approval answers approval_expired", func(in *assess.Input) { in.Approval.Status = "expired" }, assess.CodeApprovalStatus, nil, "expired"},
		{"rule 7: revoked approval answers approval_revoked", func(in *assess.Input) { in.Approval.Status = "revoked" }, assess.CodeApprovalStatus, nil, "revoked"},
		{"rule 7: status compares exactly: Active is not active", func(in *assess.Input) { in.Approval.Status = "Active" }, assess.CodeApprovalStatus, nil, "Active"},
		{"rule 7: approval for another scope", func(in *assess.Input) { in.Approval.Scope = some("document_delete") }, assess.CodeApprovalScopeMismatch, nil, ""},
		{"rule 7: not active is checked before the scope", func(in *assess.Input) {
			in.Approval = &assess.Approval{Status: "revoked", Scope: some("other")}
		}, assess.CodeApprovalStatus, nil, "revoked"},
		{"rule 7: a tool without approvalScope is not matched by a scoped approval", func(in *assess.Input) {
			in.Contract.Tools[1].ApprovalScope = assess.Absent
		}, assess.CodeApprovalScopeMismatch, nil, ""},
		{"rule 7: nor by its own name", func(in *assess.Input) {
			in.Contract.Tools[1].ApprovalScope = assess.Absent
			in.Approval.Scope = some("document_update_metadata")
		}, assess.CodeApprovalScopeMismatch, nil, ""},
		{"rule 7: a tool without approvalScope is matched by an approval without scope", func(in *assess.Input) {
			in.Contract.Tools[1].ApprovalScope = assess.Absent
			in.Approval.Scope = assess.Absent
		}, assess.CodeAdmissionAllowed, nil, ""},
		{"rule 7: an approval without scope does not match a scoped tool", func(in *assess.Input) { in.Approval.Scope = assess.Absent },
			assess.CodeApprovalScopeMismatch, nil, ""},
		{`rule 7: "" matches ""`, func(in *assess.Input) {
			in.Contract.Tools[1].ApprovalScope = some("")
			in.Approval.Scope = some("")
		}, assess.CodeAdmissionAllowed, nil, ""},
		{`rule 7: "" does not match absent`, func(in *assess.Input) {
			in.Contract.Tools[1].ApprovalScope = some("")
			in.Approval.Scope = assess.Absent
		}, assess.CodeApprovalScopeMismatch, nil, ""},
		{"rule 7: irreversible write needs approval", func(in *assess.Input) {
			in.Contract.Tools[1].EffectClass = some(assess.IrreversibleWrite)
			in.Approval = nil
		}, assess.CodeApprovalMissing, nil, ""},
		{"rule 7: an unheard-of effect class is a write", func(in *assess.Input) {
			in.Contract.Tools[1].EffectClass = some("mostly_harmless")
			in.Approval = nil
		}, assess.CodeApprovalMissing, nil, ""},
		{"rule 7: an absent effect class is a write", func(in *assess.Input) {
			in.Contract.Tools[1].EffectClass = assess.Absent
			in.Approval = nil
		}, assess.CodeApprovalMissing, nil, ""},
		{"rule 7: Read_Only is not read_only", func(in *assess.Input) {
			in.Contract.Tools[1].EffectClass = some("Read_Only")
			in.Approval = nil
		}, assess.CodeApprovalMissing, nil, ""},
		{"rule 7: read_only needs no approval", func(in *assess.Input) {
			in.Request.Tool.Name = "document_read_metadata"
			in.Approval = nil
		}, assess.CodeAdmissionAllowed, nil, ""},
		// Precedence: the first rule that fires decides.
		{"precedence: unknown tool beats everything", func(in *assess.Input) {
			in.Request.Tool.Name = "nope"
			in.Request.Arguments = nil
			in.Environment = assess.Environment{}
			in.InvocationRecord = record("other", "timed_out")
		}, assess.CodeUnknownTool, nil, ""},
		{"precedence: correlation conflict beats missing arguments", func(in *assess.Input) {
			in.Request.Arguments = nil
			in.InvocationRecord = record("request-0", "timed_out")
		}, assess.CodeCorrelationConflict, nil, ""},
		{"precedence: missing arguments beat a degraded environment", func(in *assess.Input) {
			delete(in.Request.Arguments, "documentId")
			in.Environment = assess.Environment{}
		}, assess.CodeInvalidArguments, []string{"documentId"}, ""},
		{"precedence: environment beats an unknown effect", func(in *assess.Input) {
			in.Environment.Status = some("degraded")
			in.InvocationRecord = record("request-1", "timed_out")
			in.InvocationRecord.EffectStatus = some("unknown")
		}, assess.CodeEnvironmentNotReady, nil, ""},
		{"precedence: an unknown effect beats a missing approval", func(in *assess.Input) {
			in.Approval = nil
			in.InvocationRecord = record("request-1", "timed_out")
			in.InvocationRecord.EffectStatus = some("unknown")
		}, assess.CodeTimedOutWithoutReadback, nil, ""},
		{`"": timed out with effectStatus "" is not "unknown": rule 5 does not fire`, func(in *assess.Input) {
			in.InvocationRecord = record("request-1", "timed_out")
			in.InvocationRecord.EffectStatus = some("")
		}, assess.CodeAdmissionAllowed, nil, ""},
		{`"": succeeded with verificationStatus "" is not accepted`, func(in *assess.Input) {
			in.InvocationRecord = record("request-1", "succeeded")
			in.InvocationRecord.VerificationStatus = some("")
		}, assess.CodeToolResultNotVerified, nil, ""},
		{"an argument too large for a float64 is still a number, not a string", func(in *assess.Input) {
			in.Request.Arguments["value"] = assess.Number("1e400")
		}, assess.CodeInvalidArguments, []string{"value"}, ""},
		{"precedence: an unverified success beats a missing approval", func(in *assess.Input) {
			in.Approval = nil
			in.InvocationRecord = record("request-1", "succeeded")
		}, assess.CodeToolResultNotVerified, nil, ""},
	}
	seen := map[assess.Code]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := base()
			tt.edit(&in)
			v := assess.Assess(&in)
			assert.Equal(t, tt.code, v.Code)
			assert.Equal(t, tt.status, v.ApprovalStatus)
			assert.Equal(t, tt.code.Status(), v.Status)
			assert.Equal(t, in.Request.CorrelationID, v.CorrelationID)
			assert.Equal(t, tt.missing, v.MissingArguments)
			if tt.code == assess.CodeTimedOutWithoutReadback {
				assert.Equal(t, "unknown", v.EffectStatus)
			} else {
				assert.Empty(t, v.EffectStatus)
			}
			v2, trace := assess.Explain(&in)
			assert.Equal(t, v, v2, "Assess and Explain must agree")
			requireWellFormed(t, trace)
			assert.Equal(t, tt.code.Rule(), trace.Fired().Rule)
			seen[tt.code] = true
		})
	}
	for _, c := range assess.Codes() {
		assert.True(t, seen[c], "no test produces %s", c)
	}
}

// requireWellFormed checks the shape every trace has: eight steps in
// order, exactly one fired, all before it passed, all after not reached.
func requireWellFormed(t *testing.T, trace assess.Trace) {
	t.Helper()
	require.Len(t, trace, assess.NumRules)
	fired := 0
	for i, s := range trace {
		require.Equal(t, assess.Rule(i+1), s.Rule)
		switch {
		case fired == 0 && s.Outcome == assess.Fired:
			fired = i + 1
		case fired == 0:
			require.Equal(t, assess.Passed, s.Outcome, "rule %d before the fired one", i+1)
		default:
			require.Equal(t, assess.NotReached, s.Outcome, "rule %d after the fired one", i+1)
		}
		for _, l := range []assess.Lang{assess.English, assess.Chinese} {
			require.NotEmpty(t, s.Explanation(l), "rule %d has no explanation", i+1)
			require.NotContains(t, s.Explanation(l), "%", "rule %d: unfilled template", i+1)
		}
		if s.Outcome == assess.Passed || s.Outcome == assess.Fired && s.Rule != assess.RuleAllow {
			require.NotEmpty(t, s.Reads, "rule %d read nothing", i+1)
		}
	}
	require.NotZero(t, fired, "no rule fired")
}

func TestExplanationsUseTheRealValues(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*assess.Input)
		rule  assess.Rule
		en    string
		zh    string
		aside assess.Aside
	}{
		{"version mismatch names both versions", func(in *assess.Input) { in.Request.Tool.Version = some("v2") }, assess.RuleToolInContract,
			`the first tool named "document_update_metadata", contract.tools[1]: its version is "v1", the request asks for "v2"`,
			`第一个名为 "document_update_metadata" 的工具 contract.tools[1]：它的版本是 "v1"，请求要的是 "v2"`, 0},
		{"an absent version is called absent, not quoted", func(in *assess.Input) {
			in.Contract.Tools[1].Version = assess.Absent
			in.Request.Tool.Version = some("")
		}, assess.RuleToolInContract,
			`the first tool named "document_update_metadata", contract.tools[1]: its version is absent, the request asks for ""`,
			`第一个名为 "document_update_metadata" 的工具 contract.tools[1]：它的版本是 缺失，请求要的是 ""`, 0},
		{"a later tool of the name is named, and a trainer's note says the book never reads it", func(in *assess.Input) {
			in.Contract.Tools = append(in.Contract.Tools, in.Contract.Tools[1])
			in.Contract.Tools[2].Version = some("v2")
			in.Request.Tool.Version = some("v2")
		}, assess.RuleToolInContract,
			`the first tool named "document_update_metadata", contract.tools[1]: its version is "v1", the request asks for "v2"`, "", assess.AsideShadowedTool},
		{"unknown tool lists what the contract has", func(in *assess.Input) { in.Request.Tool.Name = "document_delete" }, assess.RuleToolInContract,
			`contract has no tool named "document_delete" (it has: "document_read_metadata" "v1", "document_update_metadata" "v1")`, "", 0},
		{"missing arguments say why each is unusable", func(in *assess.Input) {
			in.Request.Arguments = map[string]any{"documentId": 7.0, "field": "", "value": "   "}
		}, assess.RuleArguments,
			`unusable required arguments: documentId (a number, not a string), field (empty string), value ("   " is blank after trimming whitespace)`,
			`不合格的必填参数：documentId（是数字，不是字符串）、field（空字符串）、value（"   " 去掉空白后为空）`, 0},
		{"a name required twice says so", func(in *assess.Input) {
			in.Contract.Tools[1].RequiredArguments = []string{"documentId", "field", "documentId"}
			delete(in.Request.Arguments, "documentId")
		}, assess.RuleArguments,
			`unusable required arguments: documentId (listed 2 times, absent)`,
			`不合格的必填参数：documentId（列出 2 次，缺失）`, 0},
		{"environment status quoted", func(in *assess.Input) { in.Environment.Status = some("degraded") }, assess.RuleEnvironment,
			`environment.status is "degraded", not "ready"`, "", 0},
		{"environment without status", func(in *assess.Input) { in.Environment = assess.Environment{} }, assess.RuleEnvironment,
			`environment has no status: absent is not "ready"`, `environment 没有 status：缺失不是 "ready"`, 0},
		{"conflict names both ids", func(in *assess.Input) { in.InvocationRecord = record("request-0", "succeeded") },
			assess.RuleCorrelation, `the record is for "request-0", the request is "request-1"`, "", 0},
		{"a record without correlationId", func(in *assess.Input) { in.InvocationRecord = &assess.InvocationRecord{} },
			assess.RuleCorrelation, `the record has no correlationId: absent differs from the request's "request-1"`, "", 0},
		{"scope mismatch names both scopes", func(in *assess.Input) { in.Approval.Scope = some("x") }, assess.RuleApproval,
			`document_update_metadata's effectClass is "reversible_write" (a write); the approval's scope is "x", the tool's approvalScope is "metadata_write"`, "", 0},
		{"an approval with no scope says so", func(in *assess.Input) { in.Approval.Scope = assess.Absent }, assess.RuleApproval,
			`document_update_metadata's effectClass is "reversible_write" (a write); the approval's scope is absent, the tool's approvalScope is "metadata_write"`,
			`document_update_metadata 的 effectClass 是 "reversible_write"（写入类）；批准的 scope 是 缺失，工具的 approvalScope 是 "metadata_write"`, 0},
		{"both unscoped: the book approves, the trainer remarks", func(in *assess.Input) {
			in.Approval.Scope = assess.Absent
			in.Contract.Tools[1].ApprovalScope = assess.Absent
		}, assess.RuleApproval,
			`document_update_metadata's effectClass is "reversible_write" (a write); the approval is active and names no scope, and the tool names no approvalScope: absent equals absent`, "", assess.AsideUnscopedWrite},
		{"expired approval names the code it gives", func(in *assess.Input) { in.Approval.Status = "expired" }, assess.RuleApproval,
			`document_update_metadata's effectClass is "reversible_write" (a write) and approval.status is "expired", not "active": the code is approval_expired`, "", 0},
		{"a status that spells another code gets a trainer's note", func(in *assess.Input) { in.Approval.Status = "missing" }, assess.RuleApproval,
			`document_update_metadata's effectClass is "reversible_write" (a write) and approval.status is "missing", not "active": the code is approval_missing`, "", assess.AsideStatusLikeCode},
		{"timed out without effectStatus: rule 5 asks for unknown exactly", func(in *assess.Input) { in.InvocationRecord = record("request-1", "timed_out") },
			assess.RuleTimeout,
			`record timed out, but effectStatus is absent, not "unknown": rule 5 asks for "unknown" exactly, so it does not fire`,
			`记录超时，但 effectStatus 缺失，不是 "unknown"：规则 5 只认 "unknown"，所以不触发`, assess.AsideSilentTimeout},
		{"a record without status", func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: some("request-1")}
		},
			assess.RuleTimeout, `record status is absent, not "timed_out"`, `记录状态是 缺失，不是 "timed_out"`, 0},
		{`verificationStatus "" is quoted, not called absent`, func(in *assess.Input) {
			in.InvocationRecord = record("request-1", "succeeded")
			in.InvocationRecord.VerificationStatus = some("")
		}, assess.RuleVerification, `record succeeded but verificationStatus is "", not "accepted"`, "", 0},
		{"a number too large for a float64 is a number", func(in *assess.Input) {
			in.Request.Arguments["value"] = assess.Number("1e400")
		}, assess.RuleArguments, `unusable required arguments: value (a number, not a string)`, "", 0},
		{"an unheard-of class is a write, and the note says why", func(in *assess.Input) {
			in.Contract.Tools[1].EffectClass = some("mostly_harmless")
			in.Approval = nil
		}, assess.RuleApproval,
			`document_update_metadata's effectClass is "mostly_harmless" (a write) and there is no approval snapshot — the book counts every effectClass but "read_only" as a write, this one included (fail closed)`, "", 0},
		{"an absent class is called absent", func(in *assess.Input) {
			in.Contract.Tools[1].EffectClass = assess.Absent
			in.Approval = nil
		}, assess.RuleApproval,
			`document_update_metadata's effectClass is absent (a write) and there is no approval snapshot — the book counts every effectClass but "read_only" as a write, this one included (fail closed)`, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := base()
			tt.edit(&in)
			_, trace := assess.Explain(&in)
			step := trace[tt.rule-1]
			assert.Equal(t, tt.en, step.Explanation(assess.English))
			if tt.zh != "" {
				assert.Equal(t, tt.zh, step.Explanation(assess.Chinese))
			}
			assert.Equal(t, tt.aside, step.Note.Aside)
			if tt.aside != 0 {
				assert.NotEmpty(t, tt.aside.Text(assess.English))
				assert.NotEmpty(t, tt.aside.Text(assess.Chinese))
			}
		})
	}
}

func TestTraceReads(t *testing.T) {
	in := base()
	in.Request.Tool.Name = "document_read_metadata"
	delete(in.Request.Arguments, "documentId")
	_, trace := assess.Explain(&in)
	assert.Equal(t, []string{"request.tool.name", "contract.tools[0].name", "request.tool.version", "contract.tools[0].version"}, trace[0].Reads)
	assert.Equal(t, []string{"invocationRecord"}, trace[1].Reads)
	assert.Equal(t, []string{"contract.tools[0].requiredArguments", "request.arguments.documentId"}, trace[2].Reads)
	assert.Empty(t, trace[3].Reads, "not reached reads nothing")

	in = base()
	in.Contract.Tools[1].RequiredArguments = []string{"field", "field"}
	_, trace = assess.Explain(&in)
	assert.Equal(t, []string{"request.tool.name", "contract.tools[0].name", "contract.tools[1].name", "request.tool.version", "contract.tools[1].version"}, trace[0].Reads)
	assert.Equal(t, []string{"contract.tools[1].requiredArguments", "request.arguments.field"}, trace[2].Reads, "a name listed twice is read once")
}

func TestVerdictJSON(t *testing.T) {
	in := base()
	in.Request.Arguments = nil
	b, err := json.Marshal(assess.Assess(&in))
	require.NoError(t, err)
	assert.Equal(t, `{"status":"rejected","code":"invalid_arguments","correlationId":"request-1","missingArguments":["documentId","field","value"]}`, string(b))

	in = base()
	b, err = json.Marshal(assess.Assess(&in))
	require.NoError(t, err)
	assert.Equal(t, `{"status":"allowed","code":"admission_allowed","correlationId":"request-1"}`, string(b))

	in.Approval.Status = "<expired>"
	b, err = json.Marshal(assess.Assess(&in))
	require.NoError(t, err)
	assert.JSONEq(t, `{"status":"requires_approval","code":"approval_<expired>","correlationId":"request-1"}`, string(b))

	in = base()
	in.InvocationRecord = record("request-1", "timed_out")
	in.InvocationRecord.EffectStatus = some("unknown")
	b, err = json.Marshal(assess.Assess(&in))
	require.NoError(t, err)
	assert.Equal(t, `{"status":"effect_unknown","code":"timed_out_without_readback","correlationId":"request-1","effectStatus":"unknown"}`, string(b))
}

func TestBlankIsJavaScriptsTrim(t *testing.T) {
	trimmed := []rune{0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000, 0x2005, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF}
	kept := []rune{0x08, 0x0E, 0x1F, 0x85, 0x180E, 0x200B, 0x200C, 0x2060, 0x3001, 'a', 0x1F600}
	for _, r := range trimmed {
		assert.True(t, assess.IsBlank(string(r)+" "+string(r)), "U+%04X is trimmed", r)
	}
	for _, r := range kept {
		assert.False(t, assess.IsBlank(" "+string(r)+" "), "U+%04X is kept", r)
	}
	assert.True(t, assess.IsBlank(""))
	assert.Equal(t, assess.WhyEmpty, assess.WhyString(""))
	assert.Equal(t, assess.WhyBlank, assess.WhyString("\u3000"))
	assert.Equal(t, "", assess.WhyString(" x "))
}

func TestAssessIsPure(t *testing.T) {
	in := base()
	in.Request.Arguments = map[string]any{"documentId": ""}
	before, err := json.Marshal(in)
	require.NoError(t, err)
	first, t1 := assess.Explain(&in)
	second, t2 := assess.Explain(&in)
	after, err := json.Marshal(in)
	require.NoError(t, err)
	assert.Equal(t, first, second)
	assert.Equal(t, t1, t2)
	assert.Equal(t, string(before), string(after), "assess must not change its input")
}

func TestCodesRoundTrip(t *testing.T) {
	for _, c := range assess.Codes() {
		status := ""
		if c == assess.CodeApprovalStatus {
			status = "expired"
		}
		back, st, err := assess.ParseCode(c.Name(status))
		require.NoError(t, err)
		assert.Equal(t, c, back)
		assert.Equal(t, status, st)
		var s assess.Status
		sb, err := c.Status().MarshalText()
		require.NoError(t, err)
		require.NoError(t, s.UnmarshalText(sb))
		assert.Equal(t, c.Status(), s)
		for _, l := range []assess.Lang{assess.English, assess.Chinese} {
			assert.NotEmpty(t, c.Meaning(l))
			assert.NotEmpty(t, c.Caveat(l))
		}
	}
	c, st, err := assess.ParseCode("approval_revoked")
	require.NoError(t, err)
	assert.Equal(t, assess.CodeApprovalStatus, c)
	assert.Equal(t, "revoked", st)
	c, _, err = assess.ParseCode("approval_missing")
	require.NoError(t, err)
	assert.Equal(t, assess.CodeApprovalMissing, c, "a fixed code is read as itself")
	for _, bad := range []string{"approval_", "approval_not_active_", "admission", ""} {
		if bad == "approval_not_active_" {
			continue // an approval status may be anything but ""
		}
		_, _, err := assess.ParseCode(bad)
		assert.Error(t, err, bad)
	}
}

func TestCompareUTF16(t *testing.T) {
	list := []string{"Ａ", "😀", "b", "", "a", "😁", "\ue000", "\uffff", "aa"}
	assess.SortUTF16(list)
	assert.Equal(t, []string{"", "a", "aa", "b", "😀", "😁", "\ue000", "Ａ", "\uffff"}, list)
	assert.Equal(t, 0, assess.CompareUTF16("x😀", "x😀"))
	assert.Equal(t, -1, assess.CompareUTF16("x😀", "xＡ"))
	assert.Equal(t, 1, assess.CompareUTF16("\u00e9", "e\u0301"))
}

func TestParseLang(t *testing.T) {
	for in, want := range map[string]assess.Lang{"en": assess.English, "zh": assess.Chinese, "zh_CN.UTF-8": assess.Chinese,
		"zh-TW": assess.Chinese, "en_GB.UTF-8": assess.English, "ZH": assess.Chinese} {
		got, err := assess.ParseLang(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"", "de", "english", "zhx"} {
		_, err := assess.ParseLang(bad)
		assert.Error(t, err, bad)
	}
}

func TestLangFromEnv(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	assert.Equal(t, assess.Chinese, assess.LangFromEnv(env(map[string]string{"LANG": "zh_CN.UTF-8"})))
	assert.Equal(t, assess.English, assess.LangFromEnv(env(map[string]string{"LANG": "zh_CN.UTF-8", "LC_ALL": "C"})), "LC_ALL first")
	assert.Equal(t, assess.Chinese, assess.LangFromEnv(env(map[string]string{"LANG": "en_US", "LC_MESSAGES": "zh_TW"})))
	assert.Equal(t, assess.English, assess.LangFromEnv(env(nil)))
}
