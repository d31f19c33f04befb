package learn

import (
	"fmt"

	"toolgate/assess"
	"toolgate/decode"
)

// text is one text in both languages; t takes both, so a text missing
// a language does not compile.
type text [2]string

func t(en, zh string) text { return text{en, zh} }

func (x text) in(l assess.Lang) string { return x[l] }

// texts are every text of the exercise track, English and Chinese, a
// field each, so that a mistyped name does not compile. The hints say
// what the book's function does (docs/decision.md §2), never how to write it.
var texts = struct {
	// Level 2 of the hints: the condition on the fields each rule
	// reads, and the input check's.
	Condition1, Condition2, Condition3, Condition4            text
	Condition5, Condition6, Condition7, Condition8            text
	InputQuestion, InputCondition                             text
	ReasonNotJSON, ReasonDuplicateMember, ReasonUnknownMember text
	ReasonWrongType, ReasonNullString, ReasonRequired         text
	ReasonTooLarge, ReasonInvalidText                         text

	// Level 3: how the gate's answer differs, then the edge.
	EdgeNone, EdgeInput, EdgeErrored, EdgeStoppedEarly, EdgeWentPast text
	EdgeSameRule, EdgeNoCode, EdgeFires                              text
	EdgeFirstTool, EdgeEmptyContract, EdgeExactName                  text
	EdgeAbsentVersion, EdgeExactVersion                              text
	EdgeRecordNoID, EdgeExactID, EdgeEmptyID                         text
	EdgeNoRequired, EdgeBlank, EdgeNotTrimSpace, EdgeNotBlank        text
	EdgeNoArguments, EdgeInherited, EdgeEmpty, EdgeNotString         text
	EdgeTwice, EdgeOrder, EdgeEnvAbsent, EdgeExactReady              text
	EdgeEffectAbsent, EdgeExactUnknown, EdgeNotTimedOut              text
	EdgeVerificationAbsent, EdgeExactAccepted, EdgeNotSucceeded      text
	EdgeReadOnlyApproval, EdgeApprovalNull, EdgeApprovalStatus       text
	EdgeStatusBeforeScope, EdgeAbsentScope, EdgeFailClosed           text

	// The board.
	App, Rule, InputStage, InputTitle, Now, Locked, Running, Run  text
	Waiting, Fails, FailsInput, Input, Expected, Got, Differs     text
	RefuseIt, Walk, Refused, Decided, Decision, HintKey, Hint     text
	RedTitle, RedText, NoModule, GreenTitle, GreenInput, GreenAll text
	AllowedIsNot, BrokenTitle, BuildFailed, MissingTool           text
	MissingTools, StoppedAt, Output, Printed, Nothing, Note       text

	// The keys' help.
	KeyHint, KeyInput, KeyRun, KeyUp, KeyDown, KeyPgUp, KeyPgDn text
	KeyLang, KeyHelp, KeyQuit                                   text
}{
	// Level 2 of the hints: the condition on the fields each rule reads.
	Condition1: t(
		`Take the first tool in contract.tools whose name equals request.tool.name exactly. If there is none: rejected / unknown_tool. If its version differs from request.tool.version: rejected / tool_version_mismatch — a version that is absent differs from "", and equals only another absent one. Later tools of the same name are never read, by this rule or by the ones after it.`,
		`取 contract.tools 中第一个 name 与 request.tool.name 完全相同的工具。没有：rejected / unknown_tool。它的 version 与 request.tool.version 不同：rejected / tool_version_mismatch——缺失的版本不同于 ""，只等于另一个缺失的版本。之后同名的工具不会被读取，本规则和后面的规则都不会读。`),
	Condition2: t(
		`When there is an invocation record (absent and null both mean none) and its correlationId differs from request.correlationId: blocked / correlation_conflict. A record without a correlationId counts as different.`,
		`当存在调用记录（缺失和 null 都表示没有），且它的 correlationId 与 request.correlationId 不同：blocked / correlation_conflict。没有 correlationId 的记录也算不同。`),
	Condition3: t(
		`For each name in requiredArguments of the tool rule 1 found, in order: it is missing when request.arguments has no member of that name, or the member is not a string, or the string is empty after trimming whitespace. If any is missing: rejected / invalid_arguments, with missingArguments listing every missing name in requiredArguments order (a name listed twice, twice).`,
		`对规则 1 找到的工具，按顺序检查 requiredArguments 中的每个名称：request.arguments 没有这个成员、成员不是字符串，或字符串去掉空白后为空，都算缺失。有缺失：rejected / invalid_arguments，missingArguments 按 requiredArguments 的顺序列出每个缺失的名称（列出两次的名称就列两次）。`),
	Condition4: t(
		`environment.status is anything but exactly "ready" — absent included: blocked / environment_not_ready.`,
		`environment.status 只要不是恰好 "ready"（缺失也算）：blocked / environment_not_ready。`),
	Condition5: t(
		`There is a record, its status is exactly "timed_out" and its effectStatus is exactly "unknown": effect_unknown / timed_out_without_readback, with effectStatus "unknown" in the verdict. An absent effectStatus does not fire it.`,
		`存在记录，status 恰好是 "timed_out"，且 effectStatus 恰好是 "unknown"：effect_unknown / timed_out_without_readback，判断结果附 effectStatus "unknown"。effectStatus 缺失时不触发。`),
	Condition6: t(
		`There is a record, its status is exactly "succeeded" and its verificationStatus is not exactly "accepted" — absent included: needs_evidence / tool_result_not_verified.`,
		`存在记录，status 恰好是 "succeeded"，而 verificationStatus 不是恰好 "accepted"（缺失也算）：needs_evidence / tool_result_not_verified。`),
	Condition7: t(
		`The tool's effectClass is anything but exactly "read_only" (absent, "" and classes the book does not name are writes). Then, in this order: no approval (absent or null) → approval_missing; approval.status is not "active" → approval_ followed by that status as written; approval.scope differs from the tool's approvalScope (absent equals only absent) → approval_scope_mismatch. The status is requires_approval.`,
		`工具的 effectClass 只要不是恰好 "read_only"（缺失、"" 和本书没有命名的类别都算写入）。然后按顺序：没有批准（缺失或 null）→ approval_missing；approval.status 不是 "active" → approval_ 加上原样的状态；approval.scope 与工具的 approvalScope 不同（缺失只等于缺失）→ approval_scope_mismatch。status 是 requires_approval。`),
	Condition8: t(
		`No rule above fired: allowed / admission_allowed. Every verdict's correlationId is the request's; missingArguments goes only with invalid_arguments, effectStatus only with timed_out_without_readback.`,
		`以上规则都没有触发：allowed / admission_allowed。每个判断的 correlationId 都是请求的；missingArguments 只随 invalid_arguments 出现，effectStatus 只随 timed_out_without_readback 出现。`),

	InputQuestion: t(
		`Would the book's function read this input other than as written, crash on it, or answer with a JavaScript artefact such as approval_undefined?`,
		`本书的函数会不会把这个输入读成别的样子、在它上面崩溃，或者给出 approval_undefined 这样的 JavaScript 产物？`),
	InputCondition: t(
		`toolgate's check (its own, not the book's) refuses text that is not one JSON object, a member name twice, an unknown member outside request.arguments, a value of the wrong type, null where a string goes, a member the book's function needs left out, an approval without a status. A gate passes by refusing it ({"error": …}), or by answering anything but allowed.`,
		`toolgate 自己的检查（不是本书的）拒绝：不是单个 JSON 对象的文本、重复的成员名、request.arguments 之外的未知成员、类型不对的值、应为字符串处的 null、本书函数需要却缺少的成员、没有 status 的批准。门只要拒绝它（{"error": …}），或给出 allowed 以外的任何回答，就算通过。`),
	ReasonNotJSON:         t("This one: not JSON, or not one object.", "这一个：不是 JSON，或不是单个对象。"),
	ReasonDuplicateMember: t("This one: a member name twice — most JSON parsers keep the last, so a gate and its executor could read different values.", "这一个：成员名重复——多数 JSON 解析器保留最后一个，门和执行者可能读到不同的值。"),
	ReasonUnknownMember:   t("This one: an unknown member, most likely a typo — the book would silently ignore it.", "这一个：未知成员，多半是拼写错误——本书会悄悄忽略它。"),
	ReasonWrongType:       t("This one: a value of the wrong JSON type.", "这一个：值的 JSON 类型不对。"),
	ReasonNullString:      t("This one: null where a string is expected — in the book null and absent compare differently.", "这一个：应为字符串处是 null——在本书中 null 与缺失的比较结果不同。"),
	ReasonRequired:        t("This one: a member the book's function needs is missing.", "这一个：缺少本书函数需要的成员。"),
	ReasonTooLarge:        t("This one: a list past toolgate's bounds.", "这一个：列表超出 toolgate 的上限。"),
	ReasonInvalidText:     t("This one: text that is not Unicode.", "这一个：不是 Unicode 的文本。"),

	// Level 3: the edge.
	EdgeNone:         t("Every vector passes.", "所有向量都通过了。"),
	EdgeInput:        t("toolgate refuses this input: %s.", "toolgate 拒绝这个输入：%s。"),
	EdgeErrored:      t("Your gate answered with an error where a verdict was expected.", "这里应给出判断，你的门却回答了错误。"),
	EdgeStoppedEarly: t("Your gate answered by rule %d, but rule %d decides this input: rule %d passes here — %s.", "你的门按规则 %d 作答，但这个输入由规则 %d 决定：规则 %d 在这里通过——%s。"),
	EdgeWentPast:     t("Your gate answered by rule %d: rules are asked in order and the first that fires decides, and rule %d comes first.", "你的门按规则 %d 作答：规则按顺序提问，第一个触发的规则作出判断，而规则 %d 在前。"),
	EdgeSameRule:     t("Your gate found rule %d, but its answer differs (see what differs).", "你的门找到了规则 %d，但回答有差异（见差异）。"),
	EdgeNoCode:       t("Your gate's answer names none of the book's codes.", "你的门的回答没有用本书的任何代码。"),
	EdgeFires:        t("Rule %d fires here: %s.", "规则 %d 在这里触发：%s。"),

	EdgeFirstTool:     t("Only the first tool of a name counts: later tools of that name are never read, by rule 1 or by the rules after it.", "只有同名工具中的第一个算数：之后的同名工具不会被读取，规则 1 和后面的规则都不会读。"),
	EdgeEmptyContract: t("An empty tools list has no tool of any name.", "空的 tools 列表里没有任何名称的工具。"),
	EdgeExactName:     t("Names are compared exactly: a name that differs only in case or spaces is another tool.", "名称按原样比较：只有大小写或空格不同的名称也是另一个工具。"),
	EdgeAbsentVersion: t(`A version that is absent and one that is "" are different values: absent equals only absent, "" only "".`, `缺失的版本和 "" 是不同的值：缺失只等于缺失，"" 只等于 ""。`),
	EdgeExactVersion:  t(`Versions are compared as strings, exactly: "v1.0" is not "v1".`, `版本按字符串原样比较："v1.0" 不是 "v1"。`),
	EdgeRecordNoID:    t(`A record without a correlationId conflicts: absent differs from every request's id, "" included.`, `没有 correlationId 的记录就是冲突：缺失不同于任何请求的标识，"" 也一样。`),
	EdgeExactID:       t("Correlation ids are compared exactly: case counts.", "关联标识按原样比较：大小写也算。"),
	EdgeEmptyID:       t(`"" is an id like any other: a record for "" matches a request for "".`, `"" 和其他标识一样：属于 "" 的记录与 "" 的请求一致。`),
	EdgeNoRequired:    t("The tool lists no required arguments, so none can be missing — even with no arguments at all.", "工具没有列出必填参数，所以不会有缺失——即使完全没有参数。"),
	EdgeBlank: t(
		`A string that is empty after trimming whitespace is missing. Whitespace is JavaScript's String.prototype.trim set: spaces, tabs and line ends, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000 and U+FEFF.`,
		`去掉空白后为空的字符串算缺失。空白是 JavaScript 的 String.prototype.trim 所用的集合：空格、制表符和换行，U+00A0、U+1680、U+2000–U+200A、U+2028、U+2029、U+202F、U+205F、U+3000 和 U+FEFF。`),
	EdgeNotTrimSpace: t(
		`U+200B (zero width space), U+0085 and U+180E are not in JavaScript's trim set: a value made of them is not blank, whatever your language's trim says.`,
		`U+200B（零宽空格）、U+0085 和 U+180E 不在 JavaScript 的 trim 集合里：由它们组成的值不是空白，不管你所用语言的 trim 怎么说。`),
	EdgeNotBlank:    t("A value with whitespace around it is still a value: only a string that is empty after trimming is missing.", "两边带空白的值仍然是值：只有去掉空白后为空的字符串才算缺失。"),
	EdgeNoArguments: t("With no arguments at all (absent or null), every required name is missing.", "完全没有参数（缺失或 null）时，每个必填名称都缺失。"),
	EdgeInherited: t(
		"A name such as constructor, __proto__ or toString is missing unless the arguments have a string member of that name: what objects inherit in your language is not an argument.",
		"constructor、__proto__ 或 toString 这样的名称，除非参数里有这个名称的字符串成员，否则就是缺失：你所用语言中对象继承来的东西不是参数。"),
	EdgeEmpty:      t(`An empty string "" is missing.`, `空字符串 "" 算缺失。`),
	EdgeNotString:  t("Only a string counts: null, a number, a boolean, an array or an object under a required name is missing.", "只有字符串才算：必填名称下是 null、数字、布尔值、数组或对象，都算缺失。"),
	EdgeTwice:      t("A name listed twice in requiredArguments is missing twice: missingArguments keeps both.", "在 requiredArguments 中列出两次的名称缺失两次：missingArguments 两个都保留。"),
	EdgeOrder:      t("missingArguments lists the names in requiredArguments order, not sorted.", "missingArguments 按 requiredArguments 的顺序列出名称，不排序。"),
	EdgeEnvAbsent:  t(`The book does not take a missing status for ready: an environment that says nothing is blocked.`, `本书不会把缺失的状态当作就绪：什么都没说的环境也被阻断。`),
	EdgeExactReady: t(`Only exactly "ready" is ready: "READY", "Ready" and "ready " are not.`, `只有恰好 "ready" 才是就绪："READY"、"Ready" 和 "ready " 都不是。`),
	EdgeEffectAbsent: t(
		`A timed-out record whose effectStatus is absent does not fire rule 5: the book asks for "unknown" exactly.`,
		`effectStatus 缺失的超时记录不会触发规则 5：本书只认恰好 "unknown"。`),
	EdgeExactUnknown:       t(`Rule 5 compares effectStatus with "unknown" exactly: "Unknown", "" or any other value does not fire it.`, `规则 5 把 effectStatus 与 "unknown" 原样比较："Unknown"、"" 或其他任何值都不会触发它。`),
	EdgeNotTimedOut:        t(`effectStatus "unknown" fires rule 5 only with status "timed_out".`, `effectStatus "unknown" 只有在 status 为 "timed_out" 时才触发规则 5。`),
	EdgeVerificationAbsent: t(`A succeeded record without verificationStatus fires rule 6: absent is not "accepted".`, `没有 verificationStatus 的成功记录会触发规则 6：缺失不是 "accepted"。`),
	EdgeExactAccepted:      t(`Only exactly "accepted" passes rule 6: "Accepted" or "not_run" fire it.`, `只有恰好 "accepted" 才能通过规则 6："Accepted" 或 "not_run" 都会触发它。`),
	EdgeNotSucceeded:       t(`Rule 6 asks only about a record whose status is exactly "succeeded": any other status, or none, passes it.`, `规则 6 只问 status 恰好为 "succeeded" 的记录：其他状态或没有状态都通过。`),
	EdgeReadOnlyApproval:   t("A read_only tool needs no approval: whatever the approval says, rule 7 passes.", "read_only 工具不需要批准：无论批准写的是什么，规则 7 都通过。"),
	EdgeApprovalNull:       t("No approval snapshot — absent or null, the same here — is approval_missing.", "没有批准快照——缺失或 null，在这里一样——就是 approval_missing。"),
	EdgeApprovalStatus:     t(`The code is approval_ followed by the status exactly as written: here %q gives approval_%s.`, `代码是 approval_ 加上原样的状态：这里 %q 得到 approval_%s。`),
	EdgeStatusBeforeScope:  t("The status is asked before the scope: a status that is not active decides even when the scope is wrong too.", "先问状态再问范围：状态不是 active 时，即使范围也不对，也由状态决定。"),
	EdgeAbsentScope: t(
		`A scope that is absent equals only an absent one: a tool without approvalScope is matched only by an approval without scope, and "" is a value like any other.`,
		`缺失的范围只等于缺失的范围：没有 approvalScope 的工具只与没有 scope 的批准匹配，而 "" 和其他值一样是一个值。`),
	EdgeFailClosed: t(
		`Every effectClass but exactly "read_only" is a write: absent, "", "READ_ONLY" and classes the book does not name included (fail closed).`,
		`除了恰好 "read_only"，每个 effectClass 都算写入：缺失、""、"READ_ONLY" 和本书没有命名的类别都包括在内（默认从严）。`),

	// The board.
	App:          t("toolgate learn", "toolgate learn"),
	Rule:         t("rule %d", "规则 %d"),
	InputStage:   t("input", "输入"),
	InputTitle:   t("Input check, not a rule", "输入检查，不是规则"),
	Now:          t("← now", "← 当前"),
	Locked:       t("locked", "未解锁"),
	Running:      t("running…", "运行中…"),
	Run:          t("run %d · %.1fs", "第 %d 次 · %.1f 秒"),
	Waiting:      t("waiting for the first run…", "等待第一次运行…"),
	Fails:        t("rule %[1]d fails on %[2]s (%[3]d of %[4]d failing in rule %[1]d)", "规则 %[1]d 在 %[2]s 上失败（规则 %[1]d 有 %[4]d 个失败，这是第 %[3]d 个）"),
	FailsInput:   t("the input check lets through %[1]s (%[2]d of %[3]d failing)", "输入检查放过了 %[1]s（共 %[3]d 个失败，这是第 %[2]d 个）"),
	Input:        t("input", "输入"),
	Expected:     t("expected", "预期"),
	Got:          t("got", "实际"),
	Differs:      t("differs", "差异"),
	RefuseIt:     t("refuse it, or any answer but allowed", "拒绝它，或 allowed 以外的任何回答"),
	Walk:         t("toolgate's walk of this input", "toolgate 对这个输入的逐条判断"),
	Refused:      t("toolgate's input check refuses it: %s", "toolgate 的输入检查拒绝它：%s"),
	Decided:      t("verdict: %s", "判断：%s"),
	Decision:     t("Decision: %d of %d vectors agree with the book.", "判断：%d/%d 个向量与本书一致。"),
	HintKey:      t("Press h for a hint (h again for more).", "按 h 看提示（再按看更多）。"),
	Hint:         t("hint %d/%d", "提示 %d/%d"),
	RedTitle:     t("Red — no code yet: this is the seed's red step.", "红——还没有代码：这正是原文的红色步骤。"),
	RedText:      t("The tests run before the function decides anything: the book's own first run failed the same way, with ERR_MODULE_NOT_FOUND, before its module existed. Write rule 1 in %s and save; this runs again.", "测试先于函数作出任何判断：本书自己的第一次运行也是这样失败的，当时模块还不存在，报 ERR_MODULE_NOT_FOUND。在 %s 中写出规则 1 并保存，这里会再次运行。"),
	NoModule:     t("Red — the module is not there: this is the seed's red step itself (ERR_MODULE_NOT_FOUND). Put %s back ('toolgate learn init' writes only what is missing) and save.", "红——模块不存在：这正是原文的红色步骤本身（ERR_MODULE_NOT_FOUND）。把 %s 放回去（'toolgate learn init' 只写缺少的文件）然后保存。"),
	GreenTitle:   t("Green — your gate agrees with the book on every decision vector (%d of %d).", "绿——你的门在每个判断向量上都与本书一致（%d/%d）。"),
	GreenInput:   t("Last stage, optional: toolgate's own input check — %d of %d inputs handled. It lives in the harness (checkInput), not in the decision.", "最后一个可选阶段：toolgate 自己的输入检查——处理了 %d/%d 个输入。它写在运行框架里（checkInput），不写在判断里。"),
	GreenAll:     t("And the input check too: every input it refuses, your gate does not let through.", "输入检查也通过了：它拒绝的每个输入，你的门都没有放行。"),
	AllowedIsNot: t("allowed proves nothing beyond itself: not that the tool ran, an effect happened, or the task was accepted.", "allowed 只证明它自己：不证明工具已执行、效果已发生或任务已验收。"),
	BrokenTitle:  t("Your gate does not run — in your code or its toolchain, not in toolgate.", "你的门无法运行——问题在你的代码或它的工具链里，不在 toolgate。"),
	BuildFailed:  t("Your gate does not build — in your code, not in toolgate.", "你的门无法构建——问题在你的代码里，不在 toolgate。"),
	MissingTool:  t("%s is not on PATH: it is needed to run a %s gate.", "PATH 中没有 %s：运行 %s 门需要它。"),
	MissingTools: t("%s are not on PATH: they are needed to run a %s gate.", "PATH 中没有 %s：运行 %s 门需要它们。"),
	StoppedAt:    t("It stopped at this input (%s):", "它在这个输入（%s）处停止："),
	Output:       t("what it printed", "它的输出"),
	Printed:      t("what your gate printed on stderr (console.log and the like go there):", "你的门在 stderr 上的输出（console.log 之类都在这里）："),
	Nothing:      t("(nothing)", "（无）"),
	Note:         t("note: %s", "注意：%s"),

	// The keys' help.
	KeyHint:  t("hint", "提示"),
	KeyInput: t("whole input", "完整输入"),
	KeyRun:   t("run again", "再运行"),
	KeyUp:    t("scroll up", "向上"),
	KeyDown:  t("scroll", "滚动"),
	KeyPgUp:  t("page up", "上一页"),
	KeyPgDn:  t("page down", "下一页"),
	KeyLang:  t("中文", "English"),
	KeyHelp:  t("more keys", "更多按键"),
	KeyQuit:  t("quit", "退出"),
}

// condition is level 2 of the hints for a rule: the condition on the
// fields it reads.
func condition(r assess.Rule) text {
	switch r {
	case assess.RuleToolInContract:
		return texts.Condition1
	case assess.RuleCorrelation:
		return texts.Condition2
	case assess.RuleArguments:
		return texts.Condition3
	case assess.RuleEnvironment:
		return texts.Condition4
	case assess.RuleTimeout:
		return texts.Condition5
	case assess.RuleVerification:
		return texts.Condition6
	case assess.RuleApproval:
		return texts.Condition7
	case assess.RuleAllow:
		return texts.Condition8
	}
	panic(fmt.Sprintf("learn: no condition for rule %d", r))
}

// reasonText is what the input check's refusal of the failing vector is
// about (decode.Reason), as a hint says it. A reason with no text here
// reads as its own name, never as nothing; TestEveryReasonHasText finds
// it first.
func reasonText(reason string) text {
	switch reason {
	case decode.ReasonNotJSON:
		return texts.ReasonNotJSON
	case decode.ReasonDuplicateMember:
		return texts.ReasonDuplicateMember
	case decode.ReasonUnknownMember:
		return texts.ReasonUnknownMember
	case decode.ReasonWrongType:
		return texts.ReasonWrongType
	case decode.ReasonNullString:
		return texts.ReasonNullString
	case decode.ReasonRequired:
		return texts.ReasonRequired
	case decode.ReasonTooLarge:
		return texts.ReasonTooLarge
	case decode.ReasonInvalidText:
		return texts.ReasonInvalidText
	}
	return text{reason, reason}
}
