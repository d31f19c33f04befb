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
	NoteCorrelationAbsent
	NoteNoRequiredArguments
	NoteArgumentsPresent
	NoteArgumentsMissing
	NoteEnvironmentNoStatus
	NoteEnvironmentNotReady
	NoteEnvironmentReady
	NoteNoRecordNoTimeout
	NoteRecordNotTimedOut
	NoteTimedOutNoEffect
	NoteTimedOutUnknown
	NoteTimedOutReadBack
	NoteNoRecordNoSuccess
	NoteRecordNotSucceeded
	NoteSucceededNoVerification
	NoteSucceededUnverified
	NoteSucceededAccepted
	NoteReadOnly
	NoteApprovalMissing
	NoteApprovalStatus
	NoteApprovalScopeMismatch
	NoteApprovalUnscoped
	NoteApprovalActive
	NoteAdmitted
	NoteNotReached
)

// Note is a language-neutral explanation: a template key and the actual
// values from the input. Render it with Text.
type Note struct {
	Key  NoteKey
	Args [4]string
	// List is a list of values (tool names, later tools of a name) shown
	// joined.
	List []string
	// Items are the required arguments, each once, with why each is
	// unusable ("" when it is usable) and how often it is listed.
	Items []Item
	// FailClosed marks a write-class decision taken on an effectClass
	// that is not one of the book's write classes (absent, "", unheard
	// of): the book counts everything but "read_only" as a write.
	FailClosed bool
	// Aside is a trainer's note on this step: where a careful harness
	// would go further than the book. Never the book's word.
	Aside Aside
}

// Item is one required argument as rule 3 found it.
type Item struct {
	Name string `json:"name"`
	// Why is a Why constant, or "" for a usable string.
	Why string `json:"why"`
	// Value is the string, when Why is WhyBlank.
	Value string `json:"value,omitempty"`
	// Times is how often requiredArguments lists the name.
	Times int `json:"times"`
}

// Why an argument is unusable.
const (
	WhyAbsent    = "absent"
	WhyNull      = "null"
	WhyEmpty     = "empty"
	WhyBlank     = "blank"
	WhyNumber    = "number"
	WhyBool      = "boolean"
	WhyArray     = "array"
	WhyObject    = "object"
	WhyNotString = "not_string"
)

// Aside names a trainer's note: what a careful harness would do beyond
// the book's rule, said as the trainer's own.
type Aside uint8

// The trainer's notes.
const (
	AsideNone Aside = iota
	// A later tool of the requested name is never read.
	AsideShadowedTool
	// A timed-out record that says nothing of its effect passes rule 5.
	AsideSilentTimeout
	// A write tool without approvalScope is approved by any active
	// approval that names no scope.
	AsideUnscopedWrite
	// approval_<status> spells a fixed code: "missing" answers as no
	// approval does.
	AsideStatusLikeCode
)

var asideTexts = [...]tmpl{
	AsideShadowedTool: {
		`the book reads only the first tool of a name; a careful harness would refuse a contract that lists a name twice`,
		`本书只读取同名工具中的第一个；谨慎的 Harness 会拒绝同一名称出现两次的契约`},
	AsideSilentTimeout: {
		`a careful harness would stop here too: a timed-out record that says nothing of its effect leaves the effect just as unknown`,
		`谨慎的 Harness 在这里也会停下：超时记录若对效果只字未提，效果同样未知`},
	AsideUnscopedWrite: {
		`a careful harness would require every write tool to name its approvalScope: here any active approval that names no scope approves this write`,
		`谨慎的 Harness 会要求每个写入类工具都写明 approvalScope：此处任何未指明范围的有效批准都能批准这次写入`},
	AsideStatusLikeCode: {
		`the code is built from the status, so it reads like a different case; a careful harness would accept only the statuses it knows`,
		`代码由状态拼接而成，读起来像另一种情况；谨慎的 Harness 只接受它认识的状态`},
}

// Text is the trainer's note in a language; "" for AsideNone.
func (a Aside) Text(l Lang) string {
	if int(a) < len(asideTexts) {
		return asideTexts[a][l]
	}
	return ""
}

// TrainerNoteLabel marks a trainer's note wherever it is shown, so that
// it is never taken for the book's word.
func TrainerNoteLabel(l Lang) string {
	return [2]string{"Trainer's note, not the book's", "训练器的补充，不是本书的规则"}[l]
}

// tmpl holds a template per language. Args are used with %[n]s (as
// given), %[n]q (quoted, so an empty string stays visible) or %[n]v (an
// optional member written by optArg: quoted, or the word absent).
type tmpl [2]string

// optArg writes an optional member as a note argument for %[n]v.
func optArg(o Opt) string {
	if s, ok := o.Get(); ok {
		return "\x00" + s
	}
	return ""
}

var absentWord = tmpl{"absent", "缺失"}

var noteTemplates = map[NoteKey]tmpl{
	NoteToolFound: {
		`contract.tools[%[4]s] is the first tool named %[1]q, at version %[3]v: what the request asks for`,
		`contract.tools[%[4]s] 是第一个名为 %[1]q 的工具，版本 %[3]v，正是请求要的`},
	NoteToolUnknown: {
		`contract has no tool named %[1]q (it has: %[5]s)`,
		`契约中没有名为 %[1]q 的工具（它有：%[5]s）`},
	NoteToolVersionMismatch: {
		`the first tool named %[1]q, contract.tools[%[4]s]: its version is %[3]v, the request asks for %[2]v`,
		`第一个名为 %[1]q 的工具 contract.tools[%[4]s]：它的版本是 %[3]v，请求要的是 %[2]v`},
	NoteNoRecord: {
		`no invocation record, so nothing can conflict`,
		`没有调用记录，不存在关联冲突`},
	NoteCorrelationMatches: {
		`the record's correlationId %[1]q is the request's`,
		`记录的 correlationId %[1]q 与请求一致`},
	NoteCorrelationConflict: {
		`the record is for %[1]q, the request is %[2]q`,
		`记录属于 %[1]q，请求却是 %[2]q`},
	NoteCorrelationAbsent: {
		`the record has no correlationId: absent differs from the request's %[2]q`,
		`记录没有 correlationId：缺失与请求的 %[2]q 不同`},
	NoteNoRequiredArguments: {
		`%[1]s lists no required arguments`,
		`%[1]s 没有列出必填参数`},
	NoteArgumentsPresent: {
		`every required argument is a string that is not blank: %[6]s`,
		`每个必填参数都是去掉空白后仍非空的字符串：%[6]s`},
	NoteArgumentsMissing: {
		`unusable required arguments: %[6]s`,
		`不合格的必填参数：%[6]s`},
	NoteEnvironmentNoStatus: {
		`environment has no status: absent is not "ready"`,
		`environment 没有 status：缺失不是 "ready"`},
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
		`record status is %[1]v, not "timed_out"`,
		`记录状态是 %[1]v，不是 "timed_out"`},
	NoteTimedOutNoEffect: {
		`record timed out, but effectStatus is absent, not "unknown": rule 5 asks for "unknown" exactly, so it does not fire`,
		`记录超时，但 effectStatus 缺失，不是 "unknown"：规则 5 只认 "unknown"，所以不触发`},
	NoteTimedOutUnknown: {
		`record timed out and effectStatus is "unknown": nobody knows the effect`,
		`记录超时且 effectStatus 是 "unknown"：没有人知道效果如何`},
	// The record's effectStatus is only what the record says: a value
	// other than "unknown" lets the rule pass under the book's rule, and
	// says nothing about a read-back anyone saw.
	NoteTimedOutReadBack: {
		`record timed out; its effectStatus says %[1]q, not "unknown", so under the book's rule it does not fire — that is the record's word, not proof that the effect was read back or that a retry is safe`,
		`记录超时；它的 effectStatus 写的是 %[1]q，不是 "unknown"，所以按本书的规则不触发——这只是记录上的说法，不证明效果已被回读，也不证明可以安全重试`},
	NoteNoRecordNoSuccess: {
		`no invocation record, so no success to verify`,
		`没有调用记录，也就没有需要验证的成功`},
	NoteRecordNotSucceeded: {
		`record status is %[1]v, not "succeeded"`,
		`记录状态是 %[1]v，不是 "succeeded"`},
	NoteSucceededNoVerification: {
		`record succeeded but has no verificationStatus: absent is not "accepted"`,
		`记录成功，但没有 verificationStatus：缺失不是 "accepted"`},
	NoteSucceededUnverified: {
		`record succeeded but verificationStatus is %[1]q, not "accepted"`,
		`记录成功，但 verificationStatus 是 %[1]q，不是 "accepted"`},
	NoteSucceededAccepted: {
		`record succeeded and verificationStatus is "accepted"`,
		`记录成功，且 verificationStatus 是 "accepted"`},
	NoteReadOnly: {
		`%[1]s is "read_only", so no approval is needed`,
		`%[1]s 是 "read_only"，不需要批准`},
	NoteApprovalMissing: {
		`%[1]s's effectClass is %[2]v (a write) and there is no approval snapshot`,
		`%[1]s 的 effectClass 是 %[2]v（写入类），却没有批准快照`},
	NoteApprovalStatus: {
		`%[1]s's effectClass is %[2]v (a write) and approval.status is %[3]q, not "active": the code is approval_%[3]s`,
		`%[1]s 的 effectClass 是 %[2]v（写入类），approval.status 是 %[3]q，不是 "active"：代码就是 approval_%[3]s`},
	NoteApprovalScopeMismatch: {
		`%[1]s's effectClass is %[2]v (a write); the approval's scope is %[3]v, the tool's approvalScope is %[4]v`,
		`%[1]s 的 effectClass 是 %[2]v（写入类）；批准的 scope 是 %[3]v，工具的 approvalScope 是 %[4]v`},
	NoteApprovalUnscoped: {
		`%[1]s's effectClass is %[2]v (a write); the approval is active and names no scope, and the tool names no approvalScope: absent equals absent`,
		`%[1]s 的 effectClass 是 %[2]v（写入类）；批准有效且没有 scope，工具也没有 approvalScope：缺失等于缺失`},
	NoteApprovalActive: {
		`%[1]s's effectClass is %[2]v (a write) and an active approval names its approvalScope %[3]v`,
		`%[1]s 的 effectClass 是 %[2]v（写入类），且有效批准的 scope 正是它的 approvalScope %[3]v`},
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
	WhyBlank:     {"%s is blank after trimming whitespace", "%s 去掉空白后为空"},
	WhyNumber:    {"a number, not a string", "是数字，不是字符串"},
	WhyBool:      {"a boolean, not a string", "是布尔值，不是字符串"},
	WhyArray:     {"an array, not a string", "是数组，不是字符串"},
	WhyObject:    {"an object, not a string", "是对象，不是字符串"},
	WhyNotString: {"not a string", "不是字符串"},
}

var failClosedText = tmpl{
	` — the book counts every effectClass but "read_only" as a write, this one included (fail closed)`,
	`——本书把 "read_only" 以外的每个 effectClass 都按写入处理，这个也不例外（默认从严）`,
}

// Text renders the note in a language. Argument 5 of a template is the
// joined List, argument 6 the joined Items. The trainer's note is not
// part of it: render it apart, with TrainerNoteLabel (Aside.Text).
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
		items[i] = it.text(l)
	}
	s := fill(t[l], [6]string{n.Args[0], n.Args[1], n.Args[2], n.Args[3], list, strings.Join(items, sep)}, l)
	if n.FailClosed {
		s += failClosedText[l]
	}
	return s
}

// text is an item as a note lists it: its name, then in one bracket how
// often it is listed when more than once and why it is unusable.
func (it Item) text(l Lang) string {
	var says []string
	if it.Times > 1 {
		says = append(says, [2]string{"listed ", "列出 "}[l]+strconv.Itoa(it.Times)+[2]string{" times", " 次"}[l])
	}
	if it.Why != "" {
		why := whyTexts[it.Why][l]
		if it.Why == WhyBlank {
			why = strings.Replace(why, "%s", strconv.Quote(clipValue(it.Value)), 1)
		}
		says = append(says, why)
	}
	switch {
	case len(says) == 0:
		return it.Name
	case l == Chinese:
		return it.Name + "（" + strings.Join(says, "，") + "）"
	}
	return it.Name + " (" + strings.Join(says, ", ") + ")"
}

// clipValue shortens a value quoted in a note to its first 40 characters.
func clipValue(s string) string {
	n := 0
	for i := range s {
		if n == 40 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// fill replaces %[n]s with argument n, %[n]q with it quoted and %[n]v
// with the optional member it holds (optArg).
func fill(t string, args [6]string, l Lang) string {
	var b strings.Builder
	for {
		i := strings.Index(t, "%[")
		if i < 0 || i+4 >= len(t) || t[i+3] != ']' || t[i+2] < '1' || t[i+2] > '6' {
			b.WriteString(t)
			return b.String()
		}
		b.WriteString(t[:i])
		arg := args[t[i+2]-'1']
		switch t[i+4] {
		case 'q':
			arg = strconv.Quote(arg)
		case 'v':
			switch v, ok := strings.CutPrefix(arg, "\x00"); {
			case ok:
				arg = strconv.Quote(v)
			case arg == "":
				arg = absentWord[l]
			default: // a placeholder such as "…", written as %q writes it
				arg = strconv.Quote(arg)
			}
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
		tmpl{"Does the contract lack a tool of the requested name, or is the first tool of that name at another version?",
			"契约中是否没有请求的名称的工具，或第一个同名工具的版本不是请求的版本？"},
		tmpl{"that a real tool registry was queried", "真实的工具注册表已被查询"},
	},
	RuleCorrelation: {
		tmpl{"Correlation conflict", "关联冲突"},
		tmpl{"Is there an invocation record that belongs to another request (a different or absent correlationId)?",
			"是否有属于另一个请求（correlationId 不同或缺失）的调用记录？"},
		tmpl{"that the external system received no request", "外部系统没有收到任何请求"},
	},
	RuleArguments: {
		tmpl{"Arguments unusable", "参数形状不合格"},
		tmpl{"Is some required argument absent, not a string, or blank after trimming whitespace?",
			"是否有必填参数缺失、不是字符串，或去掉空白后为空？"},
		tmpl{"that a schema validator ran", "某个 Schema 校验器已经运行"},
	},
	RuleEnvironment: {
		tmpl{"Environment not ready", "环境未就绪"},
		tmpl{`Is the environment's status anything but "ready" (absent included)?`, `环境的 status 是否不是 "ready"（缺失也算）？`},
		tmpl{"the real state of the environment or of permissions", "真实的环境或权限状态"},
	},
	RuleTimeout: {
		tmpl{"Timed out, effect unknown", "超时且效果未知"},
		tmpl{`Does a record say the earlier attempt timed out with effectStatus "unknown"?`,
			`是否有记录表明之前的尝试超时，且 effectStatus 为 "unknown"？`},
		tmpl{"that a retry is safe, or that the target is unchanged", "可以安全重试，或目标一定没有变化"},
	},
	RuleVerification: {
		tmpl{"Success not verified", "成功但未验证"},
		tmpl{`Does a record say the earlier attempt succeeded, without verificationStatus "accepted"?`,
			`是否有记录表明之前的尝试成功，而 verificationStatus 不是 "accepted"？`},
		tmpl{"that the task is complete", "任务已经完成"},
	},
	RuleApproval: {
		tmpl{"Write not approved", "写入未获有效批准"},
		tmpl{`Is the tool a write (effectClass not "read_only") without an "active" approval naming its approvalScope?`,
			`工具是否为写入类（effectClass 不是 "read_only"），且没有 scope 等于其 approvalScope 的 "active" 批准？`},
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

// establishes says what a verdict does establish about the snapshots
// when a rule passed, and when it fired: the true statements a question
// "which does this verdict NOT prove?" can offer beside the one it does
// not.
var establishes = [NumRules + 1][2]tmpl{
	RuleToolInContract: {
		{"that the first tool of the requested name in the contract is at the requested version", "契约中第一个同名工具的版本正是请求的版本"},
		{"that the contract has no tool of the requested name, or its first one is at another version", "契约中没有请求名称的工具，或第一个同名工具的版本不同"},
	},
	RuleCorrelation: {
		{"that no invocation record of another request came with the call", "没有属于另一个请求的调用记录随调用一起到来"},
		{"that an invocation record of another request came with the call", "有一条属于另一个请求的调用记录随调用一起到来"},
	},
	RuleArguments: {
		{"that every required argument is a string that is not blank after trimming", "每个必填参数都是去掉空白后仍非空的字符串"},
		{"that some required argument is absent, not a string, or blank", "有必填参数缺失、不是字符串或为空白"},
	},
	RuleEnvironment: {
		{`that the environment snapshot's status is "ready"`, `环境摘要的 status 是 "ready"`},
		{`that the environment snapshot's status is not "ready"`, `环境摘要的 status 不是 "ready"`},
	},
	RuleTimeout: {
		{`that no record says an earlier attempt timed out with effectStatus "unknown"`, `没有记录表明之前的尝试超时且 effectStatus 为 "unknown"`},
		{`that a record says an earlier attempt timed out with effectStatus "unknown"`, `有记录表明之前的尝试超时且 effectStatus 为 "unknown"`},
	},
	RuleVerification: {
		{`that no record says an earlier attempt succeeded without verificationStatus "accepted"`, `没有记录表明之前的尝试成功而 verificationStatus 不是 "accepted"`},
		{`that a record says an earlier attempt succeeded without verificationStatus "accepted"`, `有记录表明之前的尝试成功而 verificationStatus 不是 "accepted"`},
	},
	RuleApproval: {
		{"that the tool is read-only, or an active approval's scope matches its approvalScope", "工具是只读的，或有效批准的 scope 与其 approvalScope 相符"},
		{"that the tool is a write without an active approval whose scope matches its approvalScope", "工具是写入类，且没有 scope 与其 approvalScope 相符的有效批准"},
	},
	RuleAllow: {
		{"", ""},
		{"that no rule before rule 8 fired on these snapshots", "在这些快照上，规则 8 之前没有任何规则触发"},
	},
}

// Establishes is what a verdict establishes about the snapshots when the
// rule passed (fired false) or fired: true of every input that takes
// that way, and never what the verdict does NOT prove.
func (r Rule) Establishes(fired bool, l Lang) string {
	if !r.Valid() {
		return ""
	}
	i := 0
	if fired {
		i = 1
	}
	return establishes[r][i][l]
}

// CheckedInput is what every verdict establishes: toolgate's input check
// accepted the input before the book's rules were asked.
func CheckedInput(l Lang) string {
	return pick(l, "that the input passed toolgate's input check: every member the book's function reads is there, of its type",
		"输入通过了 toolgate 的输入检查：本书函数读取的每个成员都在，且类型正确")
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
	CodeToolVersionMismatch:     {"the first tool of that name is at another version", "第一个同名工具的版本不是请求的版本"},
	CodeCorrelationConflict:     {"the invocation record belongs to a different request", "调用记录属于另一个请求"},
	CodeInvalidArguments:        {"a required argument is absent, not a string, or blank", "必填参数缺失、不是字符串或为空白"},
	CodeEnvironmentNotReady:     {"the environment's status is not ready", "环境的状态不是 ready"},
	CodeTimedOutWithoutReadback: {"an earlier attempt timed out and its effect is unknown", "之前的尝试超时，效果未知"},
	CodeToolResultNotVerified:   {"an earlier attempt succeeded but nobody accepted its result", "之前的尝试成功，但结果没有被验证接受"},
	CodeApprovalMissing:         {"a write with no approval snapshot", "写入操作没有批准快照"},
	CodeApprovalStatus:          {"a write whose approval is not active: the code names its status", "写入操作的批准不是 active：代码写出它的状态"},
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
