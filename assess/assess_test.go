package assess_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
)

func ptr[T any](v T) *T { return &v }

// base is an input that every rule passes: a known write-class tool with
// full arguments, a ready environment and an active approval for its scope.
func base() assess.Input {
	return assess.Input{
		Contract: assess.Contract{Version: "chapter-11-v1", Tools: []assess.Tool{
			{Name: "document_read_metadata", Version: "v1", EffectClass: assess.ReadOnly, RequiredArguments: []string{"documentId"}},
			{Name: "document_update_metadata", Version: "v1", EffectClass: assess.ReversibleWrite,
				RequiredArguments: []string{"documentId", "title"}, ApprovalScope: ptr("metadata_write")},
		}},
		Request: assess.Request{CorrelationID: "request-1",
			Tool:      assess.ToolRef{Name: "document_update_metadata", Version: "v1"},
			Arguments: map[string]any{"documentId": "chapter-11", "title": "Admission"}},
		Environment: &assess.Environment{Status: "ready"},
		Approval:    &assess.Approval{Status: "active", Scope: ptr("metadata_write")},
	}
}

func TestAssessRules(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*assess.Input)
		code    assess.Code
		missing []string
	}{
		{"everything in order is admitted", func(*assess.Input) {}, assess.CodeAdmissionAllowed, nil},
		{"rule 1: unknown tool name", func(in *assess.Input) { in.Request.Tool.Name = "document_delete" }, assess.CodeUnknownTool, nil},
		{"rule 1: empty contract knows no tool", func(in *assess.Input) { in.Contract.Tools = []assess.Tool{} }, assess.CodeUnknownTool, nil},
		{"rule 1: known name, other version", func(in *assess.Input) { in.Request.Tool.Version = "v2" }, assess.CodeToolVersionMismatch, nil},
		{"rule 1: a missing version is the empty string, not a wildcard", func(in *assess.Input) { in.Request.Tool.Version = "" }, assess.CodeToolVersionMismatch, nil},
		{"rule 1: versions compare as strings", func(in *assess.Input) { in.Request.Tool.Version = "V1" }, assess.CodeToolVersionMismatch, nil},
		{"rule 1: second entry of the same name matches", func(in *assess.Input) {
			in.Contract.Tools = append(in.Contract.Tools, in.Contract.Tools[1])
			in.Contract.Tools[1].Version = "v0"
		}, assess.CodeAdmissionAllowed, nil},
		{"rule 2: record for another request", func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-0", Status: "succeeded", VerificationStatus: ptr("accepted")}
		}, assess.CodeCorrelationConflict, nil},
		{"rule 3: argument absent", func(in *assess.Input) { delete(in.Request.Arguments, "title") }, assess.CodeInvalidArguments, []string{"title"}},
		{"rule 3: argument empty string", func(in *assess.Input) { in.Request.Arguments["documentId"] = "" }, assess.CodeInvalidArguments, []string{"documentId"}},
		{"rule 3: argument a number", func(in *assess.Input) { in.Request.Arguments["documentId"] = 11.0 }, assess.CodeInvalidArguments, []string{"documentId"}},
		{"rule 3: argument null", func(in *assess.Input) { in.Request.Arguments["title"] = nil }, assess.CodeInvalidArguments, []string{"title"}},
		{"rule 3: argument an object", func(in *assess.Input) { in.Request.Arguments["title"] = map[string]any{} }, assess.CodeInvalidArguments, []string{"title"}},
		{"rule 3: every bad argument listed, in requiredArguments order", func(in *assess.Input) { in.Request.Arguments = nil },
			assess.CodeInvalidArguments, []string{"documentId", "title"}},
		{"rule 3: a name required twice is listed once", func(in *assess.Input) {
			in.Contract.Tools[1].RequiredArguments = []string{"title", "documentId", "title"}
			in.Request.Arguments = map[string]any{}
		}, assess.CodeInvalidArguments, []string{"title", "documentId"}},
		{"rule 3: extra arguments are not checked", func(in *assess.Input) { in.Request.Arguments["extra"] = []any{1.0} }, assess.CodeAdmissionAllowed, nil},
		{"rule 4: no environment snapshot", func(in *assess.Input) { in.Environment = nil }, assess.CodeEnvironmentNotReady, nil},
		{"rule 4: degraded environment", func(in *assess.Input) { in.Environment.Status = "degraded" }, assess.CodeEnvironmentNotReady, nil},
		{"rule 4: status compares exactly", func(in *assess.Input) { in.Environment.Status = "Ready" }, assess.CodeEnvironmentNotReady, nil},
		{"rule 5: timed out, effect unknown", func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "timed_out", EffectStatus: ptr("unknown")}
		}, assess.CodeTimedOutWithoutReadback, nil},
		{"rule 5: timed out, effect status absent", func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "timed_out"}
		}, assess.CodeTimedOutWithoutReadback, nil},
		{"rule 5: timed out but read back falls through to approval", func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "timed_out", EffectStatus: ptr("read_back")}
			in.Approval = nil
		}, assess.CodeApprovalMissing, nil},
		{"rule 6: succeeded, verification not run", func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "succeeded", VerificationStatus: ptr("not_run")}
		}, assess.CodeToolResultNotVerified, nil},
		{"rule 6: succeeded, verification absent", func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "succeeded"}
		}, assess.CodeToolResultNotVerified, nil},
		{"rule 6: a failed record is neither timeout nor success", func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "failed"}
		}, assess.CodeAdmissionAllowed, nil},
		{"rule 7: write without approval", func(in *assess.Input) { in.Approval = nil }, assess.CodeApprovalMissing, nil},
		{"rule 7: expired approval", func(in *assess.Input) { in.Approval.Status = "expired" }, assess.CodeApprovalNotActive, nil},
		{"rule 7: approval for another scope", func(in *assess.Input) { in.Approval.Scope = ptr("document_delete") }, assess.CodeApprovalScopeMismatch, nil},
		{"rule 7: not active is checked before the scope", func(in *assess.Input) {
			in.Approval = &assess.Approval{Status: "revoked", Scope: ptr("other")}
		}, assess.CodeApprovalNotActive, nil},
		{"rule 7: scope defaults to the tool's name", func(in *assess.Input) {
			in.Contract.Tools[1].ApprovalScope = nil
		}, assess.CodeApprovalScopeMismatch, nil},
		{"rule 7: default scope matched by the tool's name", func(in *assess.Input) {
			in.Contract.Tools[1].ApprovalScope = nil
			in.Approval.Scope = ptr("document_update_metadata")
		}, assess.CodeAdmissionAllowed, nil},
		{"rule 7: irreversible write needs approval", func(in *assess.Input) {
			in.Contract.Tools[1].EffectClass = assess.IrreversibleWrite
			in.Approval = nil
		}, assess.CodeApprovalMissing, nil},
		{"rule 7: an unknown effect class is a write (fail closed)", func(in *assess.Input) {
			in.Contract.Tools[1].EffectClass = "mostly_harmless"
			in.Approval = nil
		}, assess.CodeApprovalMissing, nil},
		{"rule 7: an absent effect class is a write (fail closed)", func(in *assess.Input) {
			in.Contract.Tools[1].EffectClass = ""
			in.Approval = nil
		}, assess.CodeApprovalMissing, nil},
		{"rule 7: read_only needs no approval", func(in *assess.Input) {
			in.Request.Tool.Name = "document_read_metadata"
			in.Approval = nil
		}, assess.CodeAdmissionAllowed, nil},
		// Precedence: the first rule that fires decides.
		{"precedence: unknown tool beats everything", func(in *assess.Input) {
			in.Request.Tool.Name = "nope"
			in.Request.Arguments = nil
			in.Environment = nil
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "other"}
		}, assess.CodeUnknownTool, nil},
		{"precedence: correlation conflict beats missing arguments", func(in *assess.Input) {
			in.Request.Arguments = nil
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-0", Status: "timed_out"}
		}, assess.CodeCorrelationConflict, nil},
		{"precedence: missing arguments beat a degraded environment", func(in *assess.Input) {
			delete(in.Request.Arguments, "documentId")
			in.Environment = nil
		}, assess.CodeInvalidArguments, []string{"documentId"}},
		{"precedence: environment beats an unknown effect", func(in *assess.Input) {
			in.Environment.Status = "degraded"
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "timed_out"}
		}, assess.CodeEnvironmentNotReady, nil},
		{"precedence: an unknown effect beats a missing approval", func(in *assess.Input) {
			in.Approval = nil
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "timed_out", EffectStatus: ptr("unknown")}
		}, assess.CodeTimedOutWithoutReadback, nil},
		// SPEC §1: "" is a value, absent (nil: absent or null) is not.
		{`"": a tool whose approvalScope is "" and an approval with no scope do not match (was allowed: fail open)`, func(in *assess.Input) {
			in.Contract.Tools[1].ApprovalScope = ptr("")
			in.Approval.Scope = nil
		}, assess.CodeApprovalScopeMismatch, nil},
		{`"": an approval naming scope "" matches a tool whose approvalScope is ""`, func(in *assess.Input) {
			in.Contract.Tools[1].ApprovalScope = ptr("")
			in.Approval.Scope = ptr("")
		}, assess.CodeAdmissionAllowed, nil},
		{`"": an approval naming scope "" does not match the tool's name`, func(in *assess.Input) {
			in.Contract.Tools[1].ApprovalScope = nil
			in.Approval.Scope = ptr("")
		}, assess.CodeApprovalScopeMismatch, nil},
		{`absent: an approval with no scope matches no tool, not even by its name`, func(in *assess.Input) {
			in.Contract.Tools[1].ApprovalScope = nil
			in.Approval.Scope = nil
		}, assess.CodeApprovalScopeMismatch, nil},
		{`"": timed out with effectStatus "" is not "unknown" nor absent: rule 5 does not fire (was effect_unknown)`, func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "timed_out", EffectStatus: ptr("")}
		}, assess.CodeAdmissionAllowed, nil},
		{`"": succeeded with verificationStatus "" is not accepted`, func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "succeeded", VerificationStatus: ptr("")}
		}, assess.CodeToolResultNotVerified, nil},
		{`"": an argument too large for a float64 is still a number, not a string`, func(in *assess.Input) {
			in.Request.Arguments["title"] = assess.Number("1e400")
		}, assess.CodeInvalidArguments, []string{"title"}},
		{"precedence: an unverified success beats a missing approval", func(in *assess.Input) {
			in.Approval = nil
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "succeeded"}
		}, assess.CodeToolResultNotVerified, nil},
	}
	seen := map[assess.Code]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := base()
			tt.edit(&in)
			v := assess.Assess(&in)
			assert.Equal(t, tt.code, v.Code)
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
		name string
		edit func(*assess.Input)
		rule assess.Rule
		en   string
		zh   string
	}{
		{"version mismatch names both versions", func(in *assess.Input) { in.Request.Tool.Version = "v2" }, assess.RuleToolInContract,
			`contract has document_update_metadata version "v1", the request asks for "v2"`,
			`契约中 document_update_metadata 的版本是 "v1"，请求要的是 "v2"`},
		{"unknown tool lists what the contract has", func(in *assess.Input) { in.Request.Tool.Name = "document_delete" }, assess.RuleToolInContract,
			`contract has no tool named "document_delete" (it has: document_read_metadata "v1", document_update_metadata "v1")`, ""},
		{"missing arguments say why each is unusable", func(in *assess.Input) {
			in.Request.Arguments = map[string]any{"documentId": 7.0, "title": ""}
		}, assess.RuleArguments,
			`unusable required arguments: documentId (a number, not a string), title (empty string)`,
			`不合格的必填参数：documentId（是数字，不是字符串）、title（空字符串）`},
		{"environment status quoted", func(in *assess.Input) { in.Environment.Status = "degraded" }, assess.RuleEnvironment,
			`environment.status is "degraded", not "ready"`, ""},
		{"conflict names both ids", func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-0"}
		}, assess.RuleCorrelation, `the record is for "request-0", the request is "request-1"`, ""},
		{"scope mismatch names both scopes", func(in *assess.Input) { in.Approval.Scope = ptr("x") }, assess.RuleApproval,
			`document_update_metadata is "reversible_write" (a write); the approval is for scope "x", the tool needs "metadata_write"`, ""},
		{"an approval with no scope says so", func(in *assess.Input) { in.Approval.Scope = nil }, assess.RuleApproval,
			`document_update_metadata is "reversible_write" (a write); the approval names no scope, the tool needs "metadata_write"`,
			`document_update_metadata 是 "reversible_write"（写入类）；批准没有指明范围，工具需要 "metadata_write"`},
		{`effectStatus "" is neither unknown nor absent`, func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "timed_out", EffectStatus: ptr("")}
		}, assess.RuleTimeout,
			`record timed out, but effectStatus is "": neither "unknown" nor absent, so this rule does not fire — which does not prove that the effect was read back`,
			`记录超时，但 effectStatus 是 ""：既不是 "unknown" 也不是缺失，所以本规则不触发——这不证明效果已被回读`},
		{`verificationStatus "" is quoted, not called absent`, func(in *assess.Input) {
			in.InvocationRecord = &assess.InvocationRecord{CorrelationID: "request-1", Status: "succeeded", VerificationStatus: ptr("")}
		}, assess.RuleVerification, `record succeeded but verificationStatus is "", not "accepted"`, ""},
		{"a number too large for a float64 is a number", func(in *assess.Input) {
			in.Request.Arguments["title"] = assess.Number("1e400")
		}, assess.RuleArguments, `unusable required arguments: title (a number, not a string)`, ""},
		{"unknown class says it fails closed", func(in *assess.Input) {
			in.Contract.Tools[1].EffectClass = "mostly_harmless"
			in.Approval = nil
		}, assess.RuleApproval,
			`document_update_metadata is "mostly_harmless" (a write) and there is no approval snapshot — an effect class the trainer does not know counts as a write (fail closed)`, ""},
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
		})
	}
}

func TestTraceReads(t *testing.T) {
	in := base()
	in.Request.Tool.Name = "document_read_metadata"
	delete(in.Request.Arguments, "documentId")
	_, trace := assess.Explain(&in)
	assert.Equal(t, []string{"request.tool.name", "request.tool.version", "contract.tools[0].name", "contract.tools[0].version"}, trace[0].Reads)
	assert.Equal(t, []string{"invocationRecord"}, trace[1].Reads)
	assert.Equal(t, []string{"contract.tools[0].requiredArguments", "request.arguments.documentId"}, trace[2].Reads)
	assert.Empty(t, trace[3].Reads, "not reached reads nothing")
}

func TestVerdictJSON(t *testing.T) {
	in := base()
	in.Request.Arguments = nil
	b, err := json.Marshal(assess.Assess(&in))
	require.NoError(t, err)
	assert.JSONEq(t, `{"status":"rejected","code":"invalid_arguments","correlationId":"request-1","missingArguments":["documentId","title"]}`, string(b))

	in = base()
	b, err = json.Marshal(assess.Assess(&in))
	require.NoError(t, err)
	assert.Equal(t, `{"status":"allowed","code":"admission_allowed","correlationId":"request-1"}`, string(b))
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

func TestEnumsRoundTrip(t *testing.T) {
	for _, c := range assess.Codes() {
		b, err := c.MarshalText()
		require.NoError(t, err)
		var back assess.Code
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, c, back)
		var st assess.Status
		sb, err := c.Status().MarshalText()
		require.NoError(t, err)
		require.NoError(t, st.UnmarshalText(sb))
		assert.Equal(t, c.Status(), st)
		for _, l := range []assess.Lang{assess.English, assess.Chinese} {
			assert.NotEmpty(t, c.Meaning(l))
			assert.NotEmpty(t, c.Caveat(l))
		}
	}
	var c assess.Code
	assert.Error(t, c.UnmarshalText([]byte("approval_mising")))
	_, err := assess.Code(0).MarshalText()
	assert.Error(t, err)
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
