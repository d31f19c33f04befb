package assess

import (
	"strconv"
	"strings"
)

// NoteKey names an explanation template.
type NoteKey uint8

// The explanations a trace step can carry.
const (
	NoteNone NoteKey = iota
	NoteToolFound
	NoteToolUnknown
	NoteToolVersionMismatch
	NoteNoRecord
	NoteCorrelationMatches
	NoteCorrelationConflict
	NoteNoRequiredArguments
	NoteArgumentsPresent
	NoteArgumentsMissing
	NoteEnvironmentAbsent
	NoteEnvironmentNotReady
	NoteEnvironmentReady
	NoteNoRecordNoTimeout
	NoteRecordNotTimedOut
	NoteTimedOutNoEffect
	NoteTimedOutUnknown
	NoteTimedOutReadBack
	NoteTimedOutEmptyEffect
	NoteNoRecordNoSuccess
	NoteRecordNotSucceeded
	NoteSucceededNoVerification
	NoteSucceededUnverified
	NoteSucceededAccepted
	NoteReadOnly
	NoteApprovalMissing
	NoteApprovalNotActive
	NoteApprovalScopeMismatch
	NoteApprovalNoScope
	NoteApprovalActive
	NoteAdmitted
	NoteNotReached
)

// Note is a language-neutral explanation: a template key and the actual
// values from the input. Render it with Text.
type Note struct {
	Key  NoteKey
	Args [4]string
	// List is a list of values (tool names, argument names) shown joined.
	List []string
	// Items are the unusable required arguments, each with why.
	Items []Item
	// FailClosed marks a write-class decision taken because the effect
	// class is not one the trainer knows.
	FailClosed bool
}

// Item is one required argument that is not a non-empty string.
type Item struct {
	Name string `json:"name"`
	Why  string `json:"why"`
}

// Why an argument is unusable.
const (
	WhyAbsent    = "absent"
	WhyNull      = "null"
	WhyEmpty     = "empty"
	WhyNumber    = "number"
	WhyBool      = "boolean"
	WhyArray     = "array"
	WhyObject    = "object"
	WhyNotString = "not_string"
)

// tmpl holds a template per language. Args are used with %[n]s (as given)
// or %[n]q (quoted, so an empty string stays visible).
type tmpl [2]string

var noteTemplates = map[NoteKey]tmpl{
	NoteToolFound: {
		`contract has %[1]s version %[2]q, exactly what the request asks for`,
		`契约中有 %[1]s 版本 %[2]q，正是请求要的版本`},
	NoteToolUnknown: {
		`contract has no tool named %[1]q (it has: %[5]s)`,
		`契约中没有名为 %[1]q 的工具（它有：%[5]s）`},
	NoteToolVersionMismatch: {
		`contract has %[1]s version %[5]s, the request asks for %[2]q`,
		`契约中 %[1]s 的版本是 %[5]s，请求要的是 %[2]q`},
	NoteNoRecord: {
		`no invocation record, so nothing can conflict`,
		`没有调用记录，不存在关联冲突`},
	NoteCorrelationMatches: {
		`the record's correlationId %[1]q is the request's`,
		`记录的 correlationId %[1]q 与请求一致`},
	NoteCorrelationConflict: {
		`the record is for %[1]q, the request is %[2]q`,
		`记录属于 %[1]q，请求却是 %[2]q`},
	NoteNoRequiredArguments: {
		`%[1]s requires no arguments`,
		`%[1]s 没有必填参数`},
	NoteArgumentsPresent: {
		`every required argument is a non-empty string: %[5]s`,
		`每个必填参数都是非空字符串：%[5]s`},
	NoteArgumentsMissing: {
		`unusable required arguments: %[6]s`,
		`不合格的必填参数：%[6]s`},
	NoteEnvironmentAbsent: {
		`no environment snapshot, which counts as not ready`,
		`没有环境摘要，按未就绪处理`},
	NoteEnvironmentNotReady: {
		`environment.status is %[1]q, not "ready"`,
		`environment.status 是 %[1]q，不是 "ready"`},
	NoteEnvironmentReady: {
		`environment.status is "ready"`,
		`environment.status 是 "ready"`},
	NoteNoRecordNoTimeout: {
		`no invocation record, so nothing timed out`,
		`没有调用记录，也就没有超时`},
	NoteRecordNotTimedOut: {
		`record status is %[1]q, not "timed_out"`,
		`记录状态是 %[1]q，不是 "timed_out"`},
	NoteTimedOutNoEffect: {
		`record timed out and has no effectStatus, which counts as "unknown": nobody knows the effect`,
		`记录超时且没有 effectStatus，按 "unknown" 处理：没有人知道效果如何`},
	NoteTimedOutUnknown: {
		`record timed out and effectStatus is "unknown": nobody knows the effect`,
		`记录超时且 effectStatus 是 "unknown"：没有人知道效果如何`},
	// The record's effectStatus is only what the record says: a value
	// other than "unknown" lets the rule pass under this book's rule, and
	// says nothing about a read-back anyone saw.
	NoteTimedOutReadBack: {
		`record timed out; its effectStatus says %[1]q, which is not "unknown", so under this book's rule it does not fire — that is the record's word, not proof that the effect was read back or that a retry is safe`,
		`记录超时；它的 effectStatus 写的是 %[1]q，不是 "unknown"，所以按本书的规则本规则不触发——这只是记录上的说法，不证明效果已被回读，也不证明可以安全重试`},
	NoteTimedOutEmptyEffect: {
		`record timed out, but effectStatus is "": neither "unknown" nor absent, so this rule does not fire — which does not prove that the effect was read back`,
		`记录超时，但 effectStatus 是 ""：既不是 "unknown" 也不是缺失，所以本规则不触发——这不证明效果已被回读`},
	NoteNoRecordNoSuccess: {
		`no invocation record, so no success to verify`,
		`没有调用记录，也就没有需要验证的成功`},
	NoteRecordNotSucceeded: {
		`record status is %[1]q, not "succeeded"`,
		`记录状态是 %[1]q，不是 "succeeded"`},
	NoteSucceededNoVerification: {
		`record succeeded but has no verificationStatus, so nothing accepted it`,
		`记录成功，但没有 verificationStatus，没有任何验证接受它`},
	NoteSucceededUnverified: {
		`record succeeded but verificationStatus is %[1]q, not "accepted"`,
		`记录成功，但 verificationStatus 是 %[1]q，不是 "accepted"`},
	NoteSucceededAccepted: {
		`record succeeded and verificationStatus is "accepted"`,
		`记录成功，且 verificationStatus 是 "accepted"`},
	NoteReadOnly: {
		`%[1]s is read_only, so no approval is needed`,
		`%[1]s 是 read_only，不需要批准`},
	NoteApprovalMissing: {
		`%[1]s is %[2]q (a write) and there is no approval snapshot`,
		`%[1]s 是 %[2]q（写入类），却没有批准快照`},
	NoteApprovalNotActive: {
		`%[1]s is %[2]q (a write) and approval.status is %[3]q, not "active"`,
		`%[1]s 是 %[2]q（写入类），approval.status 是 %[3]q，不是 "active"`},
	NoteApprovalScopeMismatch: {
		`%[1]s is %[2]q (a write); the approval is for scope %[3]q, the tool needs %[4]q`,
		`%[1]s 是 %[2]q（写入类）；批准的范围是 %[3]q，工具需要 %[4]q`},
	NoteApprovalNoScope: {
		`%[1]s is %[2]q (a write); the approval names no scope, the tool needs %[4]q`,
		`%[1]s 是 %[2]q（写入类）；批准没有指明范围，工具需要 %[4]q`},
	NoteApprovalActive: {
		`%[1]s is %[2]q (a write) and an active approval names its scope %[3]q`,
		`%[1]s 是 %[2]q（写入类），且有指明其范围 %[3]q 的有效批准`},
	NoteAdmitted: {
		`no rule above fired (rules 1–7 all passed): the call is a candidate to go ahead`,
		`以上规则都没有触发（规则 1–7 全部通过）：此调用可以作为候选进入下一步`},
	NoteNotReached: {
		`not reached: rule %[1]s already decided`,
		`未到达：规则 %[1]s 已作出判断`},
}

var whyTexts = map[string]tmpl{
	WhyAbsent:    {"absent", "缺失"},
	WhyNull:      {"null", "为 null"},
	WhyEmpty:     {"empty string", "空字符串"},
	WhyNumber:    {"a number, not a string", "是数字，不是字符串"},
	WhyBool:      {"a boolean, not a string", "是布尔值，不是字符串"},
	WhyArray:     {"an array, not a string", "是数组，不是字符串"},
	WhyObject:    {"an object, not a string", "是对象，不是字符串"},
	WhyNotString: {"not a string", "不是字符串"},
}

var failClosedText = tmpl{
	` — an effect class the trainer does not know counts as a write (fail closed)`,
	`——训练器不认识的效果类别一律按写入处理（默认从严）`,
}

// FailClosedTerm is the name of the fail-closed principle in a language.
func FailClosedTerm(l Lang) string { return [2]string{"fail closed", "默认从严"}[l] }

// Text renders the note in a language. Argument 5 of a template is the
// joined List, argument 6 the joined Items.
func (n Note) Text(l Lang) string {
	t, ok := noteTemplates[n.Key]
	if !ok {
		return ""
	}
	sep := l.ListSep()
	list := "—"
	if len(n.List) > 0 {
		list = strings.Join(n.List, sep)
	}
	items := make([]string, len(n.Items))
	for i, it := range n.Items {
		why := whyTexts[it.Why][l]
		if l == Chinese {
			items[i] = it.Name + "（" + why + "）"
		} else {
			items[i] = it.Name + " (" + why + ")"
		}
	}
	s := fill(t[l], [6]string{n.Args[0], n.Args[1], n.Args[2], n.Args[3], list, strings.Join(items, sep)})
	if n.FailClosed {
		s += failClosedText[l]
	}
	return s
}

// fill replaces %[n]s with argument n and %[n]q with it quoted.
func fill(t string, args [6]string) string {
	var b strings.Builder
	for {
		i := strings.Index(t, "%[")
		if i < 0 || i+4 >= len(t) || t[i+3] != ']' || t[i+2] < '1' || t[i+2] > '6' {
			b.WriteString(t)
			return b.String()
		}
		b.WriteString(t[:i])
		arg := args[t[i+2]-'1']
		if t[i+4] == 'q' {
			arg = strconv.Quote(arg)
		}
		b.WriteString(arg)
		t = t[i+5:]
	}
}

// Explanation renders the step's note in a language.
func (s Step) Explanation(l Lang) string { return s.Note.Text(l) }

type ruleText struct {
	title    tmpl
	question tmpl
	caveat   tmpl
}

// ruleTexts name every rule, and phrase its question, for the condition
// that fires it: on every rule (and every step of the other tracks) a
// "yes" fires and a "no" passes, so that "Success not verified — FIRED"
// reads as what happened. The caveats are the seed's "不能推导" column.
var ruleTexts = [NumRules + 1]ruleText{
	RuleToolInContract: {
		tmpl{"Tool not in contract", "契约中没有该工具"},
		tmpl{"Does the contract lack a tool with the requested name, or at the requested version?",
			"契约中是否没有请求的名称的工具，或没有请求的版本？"},
		tmpl{"that a real tool registry was queried", "真实的工具注册表已被查询"},
	},
	RuleCorrelation: {
		tmpl{"Correlation conflict", "关联冲突"},
		tmpl{"Is there an invocation record that belongs to another request (a different correlationId)?",
			"是否有属于另一个请求（correlationId 不同）的调用记录？"},
		tmpl{"that the external system received no request", "外部系统没有收到任何请求"},
	},
	RuleArguments: {
		tmpl{"Arguments unusable", "参数形状不合格"},
		tmpl{"Is some required argument missing, empty, or not a string?",
			"是否有必填参数缺失、为空或不是字符串？"},
		tmpl{"that a schema validator ran", "某个 Schema 校验器已经运行"},
	},
	RuleEnvironment: {
		tmpl{"Environment not ready", "环境未就绪"},
		tmpl{"Is the environment snapshot absent, or its status not ready?", "环境摘要是否缺失，或其状态不是 ready？"},
		tmpl{"the real state of the environment or of permissions", "真实的环境或权限状态"},
	},
	RuleTimeout: {
		tmpl{"Timed out, effect unknown", "超时且效果未知"},
		tmpl{`Did an earlier attempt time out with its effect unknown (effectStatus "unknown" or absent)?`,
			`之前的尝试是否超时，且效果仍未知（effectStatus 为 "unknown" 或缺失）？`},
		tmpl{"that a retry is safe, or that the target is unchanged", "可以安全重试，或目标一定没有变化"},
	},
	RuleVerification: {
		tmpl{"Success not verified", "成功但未验证"},
		tmpl{"Did an earlier attempt succeed without an accepted verification?",
			"之前的尝试是否成功，却没有被接受的验证？"},
		tmpl{"that the task is complete", "任务已经完成"},
	},
	RuleApproval: {
		tmpl{"Write not approved", "写入未获有效批准"},
		tmpl{"Is the tool a write without an active approval for its scope?",
			"工具是否为写入类，且没有范围匹配的有效批准？"},
		tmpl{"that approval was granted, or that the write happened", "批准已经授予，或写入已经发生"},
	},
	RuleAllow: {
		tmpl{"Admit", "准入"},
		tmpl{"Did no rule above fire? Then the call is a candidate to go ahead.",
			"以上规则都没有触发吗？那么此调用是可以进入下一步的候选。"},
		tmpl{"that the tool ran, that an effect happened, or that the task was accepted",
			"工具已经执行、效果已经发生，或任务已被验收"},
	},
}

// Title is the rule's short name.
func (r Rule) Title(l Lang) string { return r.text().title[l] }

// Question is what the rule asks of the input.
func (r Rule) Question(l Lang) string { return r.text().question[l] }

// Caveat is what a verdict decided by this rule does NOT prove.
func (r Rule) Caveat(l Lang) string { return r.text().caveat[l] }

func (r Rule) text() ruleText {
	if r.Valid() {
		return ruleTexts[r]
	}
	return ruleText{}
}

var codeMeanings = [...]tmpl{
	CodeUnknownTool:             {"the contract has no tool by that name", "契约中没有这个名称的工具"},
	CodeToolVersionMismatch:     {"the tool exists, but not at the requested version", "工具存在，但没有请求的版本"},
	CodeCorrelationConflict:     {"the invocation record belongs to a different request", "调用记录属于另一个请求"},
	CodeInvalidArguments:        {"a required argument is missing, empty, or not a string", "必填参数缺失、为空或不是字符串"},
	CodeEnvironmentNotReady:     {"the environment snapshot is absent or not ready", "环境摘要缺失或不是 ready"},
	CodeTimedOutWithoutReadback: {"an earlier attempt timed out and its effect is unknown", "之前的尝试超时，效果未知"},
	CodeToolResultNotVerified:   {"an earlier attempt succeeded but nobody accepted its result", "之前的尝试成功，但结果没有被验证接受"},
	CodeApprovalMissing:         {"a write with no approval snapshot", "写入操作没有批准快照"},
	CodeApprovalNotActive:       {"a write whose approval is not active", "写入操作的批准不是有效状态"},
	CodeApprovalScopeMismatch:   {"a write whose approval names another scope", "写入操作的批准范围不匹配"},
	CodeAdmissionAllowed:        {"every check passed: a candidate for the next step", "所有检查都通过：可以进入下一步的候选"},
}

// Meaning says in one line what the code means.
func (c Code) Meaning(l Lang) string {
	if c.valid() {
		return codeMeanings[c][l]
	}
	return ""
}

// Caveat is what a verdict with this code does NOT prove: its rule's caveat.
func (c Code) Caveat(l Lang) string { return c.Rule().Caveat(l) }
