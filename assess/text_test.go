package assess_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
)

// Every rule is named, and asks its question, for the condition that
// fires it, so that a yes fires on every rule: "Success not verified —
// FIRED" says what happened. Pinned by key in both languages.
func TestRuleTextsFirePolarity(t *testing.T) {
	tests := []struct {
		rule                 assess.Rule
		id                   string
		titleEn, titleZh     string
		questionEn, question string
	}{
		{assess.RuleToolInContract, "tool_not_in_contract", "Tool not in contract", "契约中没有该工具",
			"Does the contract lack a tool of the requested name, or is the first tool of that name at another version?", "契约中是否没有请求的名称的工具，或第一个同名工具的版本不是请求的版本？"},
		{assess.RuleCorrelation, "correlation_conflict", "Correlation conflict", "关联冲突",
			"Is there an invocation record that belongs to another request (a different or absent correlationId)?", "是否有属于另一个请求（correlationId 不同或缺失）的调用记录？"},
		{assess.RuleArguments, "arguments_unusable", "Arguments unusable", "参数形状不合格",
			"Is some required argument absent, not a string, or blank after trimming whitespace?", "是否有必填参数缺失、不是字符串，或去掉空白后为空？"},
		{assess.RuleEnvironment, "environment_not_ready", "Environment not ready", "环境未就绪",
			`Is the environment's status anything but "ready" (absent included)?`, `环境的 status 是否不是 "ready"（缺失也算）？`},
		{assess.RuleTimeout, "timed_out_effect_unknown", "Timed out, effect unknown", "超时且效果未知",
			`Does a record say the earlier attempt timed out with effectStatus "unknown"?`, `是否有记录表明之前的尝试超时，且 effectStatus 为 "unknown"？`},
		{assess.RuleVerification, "success_not_verified", "Success not verified", "成功但未验证",
			`Does a record say the earlier attempt succeeded, without verificationStatus "accepted"?`, `是否有记录表明之前的尝试成功，而 verificationStatus 不是 "accepted"？`},
		{assess.RuleApproval, "write_not_approved", "Write not approved", "写入未获有效批准",
			`Is the tool a write (effectClass not "read_only") without an "active" approval naming its approvalScope?`, `工具是否为写入类（effectClass 不是 "read_only"），且没有 scope 等于其 approvalScope 的 "active" 批准？`},
		{assess.RuleAllow, "admit", "Admit", "准入",
			"Did no rule above fire? Then the call is a candidate to go ahead.", "以上规则都没有触发吗？那么此调用是可以进入下一步的候选。"},
	}
	require.Len(t, tests, assess.NumRules)
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			assert.Equal(t, tt.id, tt.rule.ID())
			assert.Equal(t, tt.titleEn, tt.rule.Title(assess.English))
			assert.Equal(t, tt.titleZh, tt.rule.Title(assess.Chinese))
			assert.Equal(t, tt.questionEn, tt.rule.Question(assess.English))
			assert.Equal(t, tt.question, tt.rule.Question(assess.Chinese))
		})
	}
}

// The seed's "不能推导" column, rule by rule: the caveat of each rule in
// both languages.
func TestRuleCaveatsAreTheSeedColumn(t *testing.T) {
	want := map[assess.Rule][2]string{
		assess.RuleToolInContract: {"that a real tool registry was queried", "真实的工具注册表已被查询"},
		assess.RuleCorrelation:    {"that the external system received no request", "外部系统没有收到任何请求"},
		assess.RuleArguments:      {"that a schema validator ran", "某个 Schema 校验器已经运行"},
		assess.RuleEnvironment:    {"the real state of the environment or of permissions", "真实的环境或权限状态"},
		assess.RuleTimeout:        {"that a retry is safe, or that the target is unchanged", "可以安全重试，或目标一定没有变化"},
		assess.RuleVerification:   {"that the task is complete", "任务已经完成"},
		assess.RuleApproval:       {"that approval was granted, or that the write happened", "批准已经授予，或写入已经发生"},
		assess.RuleAllow:          {"that the tool ran, that an effect happened, or that the task was accepted", "工具已经执行、效果已经发生，或任务已被验收"},
	}
	for r, texts := range want {
		assert.Equal(t, texts[0], r.Caveat(assess.English), r.ID())
		assert.Equal(t, texts[1], r.Caveat(assess.Chinese), r.ID())
	}
}

// Rule 5 passes on any effectStatus other than "unknown" (and absent):
// the explanation says so and never claims the effect was read back.
func TestTimeoutExplanationIsTruthful(t *testing.T) {
	for _, status := range []string{"not_checked", "read_back", ""} {
		t.Run(status, func(t *testing.T) {
			in := base()
			in.InvocationRecord = record("request-1", "timed_out")
			in.InvocationRecord.EffectStatus = some(status)
			v, trace := assess.Explain(&in)
			require.Equal(t, assess.Passed, trace[assess.RuleTimeout-1].Outcome)
			assert.Equal(t, assess.StatusAllowed, v.Status)
			en := trace[assess.RuleTimeout-1].Explanation(assess.English)
			zh := trace[assess.RuleTimeout-1].Explanation(assess.Chinese)
			assert.NotRegexp(t, `(^|[^t] )the effect was read back`, en, "it must not claim a read-back")
			assert.NotContains(t, zh, "：效果已回读")
			assert.Contains(t, en, "does not prove that the effect was read back"[len("does not prove "):])
			assert.Contains(t, zh, "不证明效果已被回读")
			assert.Contains(t, en, `"`+status+`"`)
		})
	}
	in := base()
	in.InvocationRecord = record("request-1", "timed_out")
	in.InvocationRecord.EffectStatus = some("not_checked")
	_, trace := assess.Explain(&in)
	assert.Equal(t, `record timed out; its effectStatus says "not_checked", not "unknown", so under the book's rule it does not fire — that is the record's word, not proof that the effect was read back or that a retry is safe`,
		trace[assess.RuleTimeout-1].Explanation(assess.English))
	assert.Equal(t, `记录超时；它的 effectStatus 写的是 "not_checked"，不是 "unknown"，所以按本书的规则不触发——这只是记录上的说法，不证明效果已被回读，也不证明可以安全重试`,
		trace[assess.RuleTimeout-1].Explanation(assess.Chinese))
}

// Each rule reads exactly the fields it compares: rule 1 the names (and
// the versions of the tools with the requested name), never a tool's
// effectClass, requiredArguments or approvalScope.
func TestEachRuleReadsWhatItCompares(t *testing.T) {
	tests := []struct {
		name string
		edit func(*assess.Input)
		rule assess.Rule
		want []string
	}{
		{"rule 1 found at the second tool", func(*assess.Input) {}, assess.RuleToolInContract,
			[]string{"request.tool.name", "contract.tools[0].name", "contract.tools[1].name", "request.tool.version", "contract.tools[1].version"}},
		{"rule 1 unknown tool compares names only", func(in *assess.Input) { in.Request.Tool.Name = "document_delete" }, assess.RuleToolInContract,
			[]string{"request.tool.name", "contract.tools[0].name", "contract.tools[1].name"}},
		{"rule 1 version mismatch", func(in *assess.Input) { in.Request.Tool.Version = some("v2") }, assess.RuleToolInContract,
			[]string{"request.tool.name", "contract.tools[0].name", "contract.tools[1].name", "request.tool.version", "contract.tools[1].version"}},
		{"rule 1 with no tools reads the empty list", func(in *assess.Input) { in.Contract.Tools = nil }, assess.RuleToolInContract,
			[]string{"request.tool.name", "contract.tools"}},
		{"rule 3 reads each required argument once", func(in *assess.Input) {
			in.Contract.Tools[1].RequiredArguments = []string{"documentId", "documentId"}
		}, assess.RuleArguments, []string{"contract.tools[1].requiredArguments", "request.arguments.documentId"}},
		{"rule 5 without a record", func(*assess.Input) {}, assess.RuleTimeout, []string{"invocationRecord"}},
		{"rule 7 compares the approval scope", func(*assess.Input) {}, assess.RuleApproval,
			[]string{"contract.tools[1].effectClass", "approval.status", "approval.scope", "contract.tools[1].approvalScope"}},
		{"rule 7 compares the approvalScope even when the tool has none", func(in *assess.Input) {
			in.Contract.Tools[1].ApprovalScope = assess.Absent
		}, assess.RuleApproval, []string{"contract.tools[1].effectClass", "approval.status", "approval.scope", "contract.tools[1].approvalScope"}},
		{"rule 7 with no approval", func(in *assess.Input) { in.Approval = nil }, assess.RuleApproval,
			[]string{"contract.tools[1].effectClass", "approval"}},
		{"rule 7 on a read reads the effect class only", func(in *assess.Input) {
			in.Request.Tool.Name = "document_read_metadata"
		}, assess.RuleApproval, []string{"contract.tools[0].effectClass"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := base()
			tt.edit(&in)
			_, trace := assess.Explain(&in)
			assert.Equal(t, tt.want, trace[tt.rule-1].Reads)
		})
	}
}

// Seed 002: missing is judged at the batch end or at its deadline; the
// audit says so, and the Chinese says "did not arrive", never "will never".
func TestAuditTeachesTheDeadline(t *testing.T) {
	_, steps, err := assess.ExplainAudit(assess.AuditInput{Requested: []string{"A"}, Closed: true})
	require.NoError(t, err)
	last := steps[len(steps)-1]
	for _, l := range []assess.Lang{assess.English, assess.Chinese} {
		assert.NotContains(t, last.Explanation(l), "永远")
	}
	assert.Contains(t, last.Question(assess.English), "past its deadline")
	assert.Contains(t, last.Question(assess.Chinese), "截止时间")
	assert.Contains(t, last.Explanation(assess.Chinese), "没有到达")
	_, steps, _ = assess.ExplainAudit(assess.AuditInput{Requested: []string{"A", "B"}, Closed: false})
	assert.Equal(t, `批次仍在进行，也未到截止时间："A"、"B" 可能还会到达 → 等待中，而不是缺失`, steps[len(steps)-1].Explanation(assess.Chinese))

	_, err = assess.Audit(assess.AuditInput{Requested: []string{"A", "A"}})
	var ae *assess.AuditError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, `requested[1]: duplicate request ID "A": which request would a result answer?`, ae.Text(assess.English))
	assert.Equal(t, `requested[1]：请求 ID "A" 重复：一个结果该对应哪一个请求？`, ae.Text(assess.Chinese))
}

// The outcome track names the MCP revision it was checked against, keeps
// the seed's word on execution errors (the model is not the only judge),
// and sets the trainer's own advice apart.
func TestOutcomeTextsNameTheRevisionAndTheirSource(t *testing.T) {
	for c := assess.ClassProtocolError; c <= assess.ClassFound; c++ {
		for _, l := range []assess.Lang{assess.English, assess.Chinese} {
			assert.Contains(t, c.MCP(l), assess.MCPRevision, c)
		}
	}
	assert.Equal(t, "2026-07-28", assess.MCPRevision)
	assert.True(t, strings.HasPrefix(assess.ClassFound.MCP(assess.English), "revision 2026-07-28: "))
	assert.True(t, strings.HasPrefix(assess.ClassFound.MCP(assess.Chinese), "2026-07-28 修订："))
	next := assess.ClassExecutionError.Next(assess.English)
	assert.NotContains(t, next, "not the model", "seed 002: the model is not the *only* judge")
	assert.Contains(t, next, "not the only judge")
	assert.Contains(t, assess.ClassExecutionError.Next(assess.Chinese), "模型不是唯一的裁决者")
	for _, l := range []assess.Lang{assess.English, assess.Chinese} {
		assert.NotContains(t, assess.ClassExecutionError.Next(l), "backoff")
		assert.NotContains(t, assess.ClassExecutionError.Next(l), "退避")
	}
	assert.Contains(t, assess.ClassExecutionError.Advice(assess.English), "one retry with backoff")
	assert.Contains(t, assess.ClassExecutionError.Advice(assess.Chinese), "退避后重试一次")
	assert.Contains(t, assess.ClassProtocolError.MCP(assess.English), `-32602 "Unknown tool: …"`)
	assert.Empty(t, assess.ClassNotFound.Advice(assess.English), "not found has nothing beyond the seed")

	_, steps, err := assess.Classify(assess.OutcomeInput{Error: &assess.RPCError{Code: -32602, Message: "Unknown tool: invalid_tool_name"}})
	require.NoError(t, err)
	assert.Equal(t, assess.Fired, steps[0].Outcome)
	assert.Equal(t, `a JSON-RPC error came back: -32602 "Unknown tool: invalid_tool_name" — MCP's unknown-tool error, a protocol error though its code is -32602`,
		steps[0].Explanation(assess.English))
	assert.Equal(t, `返回了 JSON-RPC 错误：-32602 "Unknown tool: invalid_tool_name"——MCP 的未知工具错误，错误码虽是 -32602，仍是协议错误`,
		steps[0].Explanation(assess.Chinese))
}

// 验收 is the seed's word for task acceptance only; verification accepted
// is 验证 (接受). The fail-closed principle has one Chinese name.
func TestChineseTerms(t *testing.T) {
	in := base()
	in.Contract.Tools[1].EffectClass = some("mostly_harmless")
	in.Approval = nil
	_, trace := assess.Explain(&in)
	assert.True(t, strings.HasSuffix(trace[assess.RuleApproval-1].Explanation(assess.Chinese), "（默认从严）"))
	for _, c := range assess.Codes() {
		if c != assess.CodeAdmissionAllowed {
			assert.NotContains(t, c.Meaning(assess.Chinese)+c.Caveat(assess.Chinese), "验收", c)
		}
	}
	assert.Contains(t, assess.CodeAdmissionAllowed.Caveat(assess.Chinese), "任务已被验收")
}

// A list and a label are punctuated as the language does, wherever the
// texts join them (a note's list, an audit step's title).
func TestLangPunctuation(t *testing.T) {
	assert.Equal(t, []string{", ", ": "}, []string{assess.English.ListSep(), assess.English.Colon()})
	assert.Equal(t, []string{"、", "："}, []string{assess.Chinese.ListSep(), assess.Chinese.Colon()})
	_, steps, err := assess.ExplainAudit(assess.AuditInput{Requested: []string{"A", "B"}, Results: []string{"A"}, Closed: true})
	require.NoError(t, err)
	assert.Equal(t, `结果 1："A"`, steps[1].Title(assess.Chinese))
	assert.Equal(t, `Result 1: "A"`, steps[1].Title(assess.English))
}
