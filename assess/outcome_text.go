package assess

type classText struct {
	title, question, yes, no, next, mistake, mcp tmpl
	// advice is the trainer's own advice, beyond what the seeds say; ""
	// when there is none. next and mistake are the seeds' (002, with
	// docs/decision.md §6).
	advice tmpl
	// legacy is the explanation for invalid arguments sent the old way,
	// as a -32602 protocol error; unknownTool the one for MCP's own
	// -32602 "Unknown tool: …".
	legacy, unknownTool tmpl
}

// The questions are asked in order and, as on every track, a yes fires.
// The MCP texts name the revision they were checked against (MCPRevision).
var classTexts = [...]classText{
	ClassProtocolError: {
		title:       tmpl{"Protocol error", "协议错误"},
		question:    tmpl{"Did a JSON-RPC error come back instead of a result — an unknown tool, a malformed request, a server error — other than an old-style invalid-arguments report?", "返回的是 JSON-RPC 错误而不是结果吗——未知工具、格式错误的请求、服务器错误——且不是旧式的参数无效报告？"},
		yes:         tmpl{"a JSON-RPC error came back: %[1]s", "返回了 JSON-RPC 错误：%[1]s"},
		unknownTool: tmpl{"a JSON-RPC error came back: %[1]s — MCP's unknown-tool error, a protocol error though its code is -32602", "返回了 JSON-RPC 错误：%[1]s——MCP 的未知工具错误，错误码虽是 -32602，仍是协议错误"},
		no:          tmpl{"a result came back, not a JSON-RPC error", "返回的是结果，不是 JSON-RPC 错误"},
		next:        tmpl{"fix the adapter or client that built the request: a protocol failure, not a business answer", "修复构造请求的适配层或客户端：这是协议层的失败，不是业务答复"},
		mistake:     tmpl{"taking a request the protocol could not handle for a business answer", "把协议层无法处理的请求当成业务答复"},
		advice:      tmpl{"no model retry loop: changing arguments cannot repair the request", "不要让模型循环重试：改参数修不好这个请求"},
		mcp:         tmpl{"revision " + MCPRevision + ": a JSON-RPC error — an unknown tool (-32602 \"Unknown tool: …\"), a malformed request, a server error", MCPRevision + " 修订：JSON-RPC 错误——未知工具（-32602 \"Unknown tool: …\"）、格式错误的请求、服务器错误"},
	},
	ClassInvalidArguments: {
		title:    tmpl{"Invalid arguments", "参数无效"},
		question: tmpl{"Does it say the arguments were invalid — something the caller can fix?", "它是否说明参数无效——调用方可以修正的问题？"},
		yes:      tmpl{"an error result (isError: true) saying the arguments are invalid", "说明参数无效的错误结果（isError 为 true）"},
		legacy:   tmpl{"a JSON-RPC error %[1]s: read as invalid arguments sent the way servers did before MCP 2025-11-25 — the trainer's reading, since the code alone says only \"invalid params\"", "JSON-RPC 错误 %[1]s：按 MCP 2025-11-25 之前服务器报告参数无效的方式解读——这是训练器的解读，错误码本身只说明“参数无效”"},
		no:       tmpl{"not an invalid-arguments report", "不是参数无效的报告"},
		next:     tmpl{"the caller can correct the input and call again: the error says another input may work", "调用方可以修正输入后再调用：错误说明换个输入可能成功"},
		mistake:  tmpl{"reporting an infrastructure failure, or giving up, when a corrected call would work", "在修正后即可成功时，却报告基础设施故障或直接放弃"},
		mcp:      tmpl{"revision " + MCPRevision + " (since 2025-11-25): an isError: true result, which the model sees and can correct; older servers sent a -32602 protocol error", MCPRevision + " 修订（自 2025-11-25 起）：isError 为 true 的结果，模型能看到并修正；更早的服务器返回 -32602 协议错误"},
	},
	ClassPermissionDenied: {
		title:    tmpl{"Permission denied", "权限拒绝"},
		question: tmpl{"Is it an error result saying the caller is not allowed?", "它是否是说明调用方无权限的错误结果？"},
		yes:      tmpl{"an error result of kind %[1]q", "类型为 %[1]q 的错误结果"},
		no:       tmpl{"not a permission denial", "不是权限拒绝"},
		next:     tmpl{"a controlled stop, or a way in for the user to supply what is missing; the application forbids getting around it by changing identity", "受控终止，或作为用户补充信息的入口；应用禁止通过改身份绕过"},
		mistake:  tmpl{"suggesting a retry with another user id — getting around an identity check is not a fix", "建议换一个用户 ID 重试——绕过身份检查不是修复"},
		mcp:      tmpl{"revision " + MCPRevision + ": a result with isError: true (a tool execution error); the kind is in the tool's own content", MCPRevision + " 修订：isError 为 true 的结果（工具执行错误）；具体类型写在工具自己的内容里"},
	},
	ClassExecutionError: {
		title:    tmpl{"Execution error", "执行错误"},
		question: tmpl{"Is it any other error result — the tool or its infrastructure failed?", "它是否是其他错误结果——工具或其基础设施失败了？"},
		yes:      tmpl{"an error result of kind %[1]q", "类型为 %[1]q 的错误结果"},
		no:       tmpl{"not an error result", "不是错误结果"},
		next:     tmpl{"the application decides a bounded recovery; the model is not the only judge, least of all for identity and writes", "由应用决定有限的恢复；模型不是唯一的裁决者，尤其涉及身份和写操作时"},
		mistake:  tmpl{"returning null for a failure as for \"not found\": an outage looks like an empty answer", "失败也返回 null，与“未找到”无法区分：故障看起来像空答案"},
		advice:   tmpl{"e.g. one retry with backoff if repeating is safe (never blindly for a write), then report", "例如在重复调用安全时退避后重试一次（写入绝不盲目重试），然后报告"},
		mcp:      tmpl{"revision " + MCPRevision + ": an isError: true result (a tool execution error)", MCPRevision + " 修订：isError 为 true 的结果（工具执行错误）"},
	},
	ClassNotFound: {
		title:    tmpl{"Not found", "未找到"},
		question: tmpl{"Did the tool work and say the thing does not exist?", "工具正常运行，并说明目标不存在吗？"},
		yes:      tmpl{"a successful result with found: false", "成功的结果，且 found 为 false"},
		no:       tmpl{"the lookup found its thing", "查找找到了目标"},
		next:     tmpl{"a legitimate business answer: say so, or ask for another id", "合法的业务答复：如实说明，或提示补充另一个 ID"},
		mistake:  tmpl{"returning null for both not-found and failure; or treating not-found as an error to retry", "未找到与失败都返回 null；或把未找到当成需要重试的错误"},
		mcp:      tmpl{"revision " + MCPRevision + ": a normal result (isError: false) whose content says nothing was found", MCPRevision + " 修订：普通结果（isError 为 false），内容说明未找到"},
	},
	ClassFound: {
		title:    tmpl{"Found", "找到"},
		question: tmpl{"Nothing above: a successful result with its thing?", "以上都不是：成功并带有目标的结果？"},
		yes:      tmpl{"a successful result with found: true", "成功的结果，且 found 为 true"},
		no:       tmpl{"", ""},
		next:     tmpl{"use the result — after checking it answers this request and its content is the right business result", "使用结果——先确认它回答的是这个请求，且内容是正确的业务结果"},
		mistake:  tmpl{"assuming a result that came back is the right one: match it by its correlation ID", "以为返回的结果就是对的：应按关联 ID 匹配"},
		mcp:      tmpl{"revision " + MCPRevision + ": a normal result (isError: false)", MCPRevision + " 修订：普通结果（isError 为 false）"},
	},
}

func (c OutcomeClass) text() classText {
	if c >= ClassProtocolError && c <= ClassFound {
		return classTexts[c]
	}
	return classText{}
}

// Title names the class.
func (c OutcomeClass) Title(l Lang) string { return c.text().title[l] }

// Question is the classification question whose yes means this class.
func (c OutcomeClass) Question(l Lang) string { return c.text().question[l] }

// Next is the next step this class allows.
func (c OutcomeClass) Next(l Lang) string { return c.text().next[l] }

// Mistake is the mistake telling this class apart guards against.
func (c OutcomeClass) Mistake(l Lang) string { return c.text().mistake[l] }

// MCP says which MCP behaviour the class corresponds to, naming the
// revision (MCPRevision).
func (c OutcomeClass) MCP(l Lang) string { return c.text().mcp[l] }

// Advice is the trainer's own advice for this class, beyond what the
// seeds say; "" when it has none.
func (c OutcomeClass) Advice(l Lang) string { return c.text().advice[l] }

// Title names the step's question.
func (s OutcomeStep) Title(l Lang) string { return s.Class.Title(l) }

// Question is what the step asks.
func (s OutcomeStep) Question(l Lang) string { return s.Class.Question(l) }

// Explanation says what the step found.
func (s OutcomeStep) Explanation(l Lang) string {
	t := s.Class.text()
	switch s.Outcome {
	case Fired:
		if s.legacy {
			return fill(t.legacy[l], [6]string{s.note}, l)
		}
		if s.unknownTool {
			return fill(t.unknownTool[l], [6]string{s.note}, l)
		}
		return fill(t.yes[l], [6]string{s.note}, l)
	case Passed:
		if s.legacy && s.Class == ClassProtocolError {
			return pick(l, "a JSON-RPC error came back, but "+s.note+" is the invalid-params code and names no unknown tool: the trainer reads it as an old-style invalid-arguments report, which the next question takes",
				"返回了 JSON-RPC 错误，但 "+s.note+" 是参数无效的错误码，且没有指出未知工具：训练器把它当作旧式的参数无效报告，由下一个问题处理")
		}
		return t.no[l]
	case NotReached:
		// Said below, as for a step whose outcome was never set.
	}
	return pick(l, "not reached: an earlier question decided", "未到达：之前的问题已作出判断")
}

// OutcomeCaveat is what a classification does NOT prove.
func OutcomeCaveat(l Lang) string {
	return pick(l, "that the tool told the truth about which class it is: the class is what the response says, not what happened",
		"工具如实报告了它属于哪一类：分类依据的是响应所说的，而不是实际发生的")
}
