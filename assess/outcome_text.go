package assess

type classText struct {
	title, question, yes, no, next, mistake, mcp tmpl
	// legacy is the explanation for invalid arguments sent the old way,
	// as a -32602 protocol error.
	legacy tmpl
}

var classTexts = [...]classText{
	ClassProtocolError: {
		title:    tmpl{"Protocol error", "协议错误"},
		question: tmpl{"Did a JSON-RPC error come back instead of a result — the request itself could not be handled?", "返回的是 JSON-RPC 错误而不是结果吗——请求本身无法被处理？"},
		yes:      tmpl{"a JSON-RPC error came back: %[1]s", "返回了 JSON-RPC 错误：%[1]s"},
		no:       tmpl{"a result came back, not a JSON-RPC error", "返回的是结果，不是 JSON-RPC 错误"},
		next:     tmpl{"fix the adapter or client that built the request; the model cannot repair it by changing arguments", "修复构造请求的适配层或客户端；模型无法靠改参数修好它"},
		mistake:  tmpl{"treating a broken request as a business answer, or letting the model retry the same call in a loop", "把坏掉的请求当成业务答复，或让模型反复重试同一调用"},
		mcp:      tmpl{"a JSON-RPC error response (e.g. -32700 parse error, -32600 invalid request, -32601 unknown method)", "JSON-RPC 错误响应（如 -32700 解析错误、-32600 无效请求、-32601 未知方法）"},
	},
	ClassInvalidArguments: {
		title:    tmpl{"Invalid arguments", "参数无效"},
		question: tmpl{"Does it say the arguments were invalid — something the caller can fix?", "它是否说明参数无效——调用方可以修正的问题？"},
		yes:      tmpl{"an error result (isError: true) saying the arguments are invalid", "说明参数无效的错误结果（isError: true）"},
		legacy:   tmpl{"a JSON-RPC error %[1]s: invalid arguments sent the way servers did before the 2025-11-25 revision", "JSON-RPC 错误 %[1]s：这是 2025-11-25 修订之前服务器报告参数无效的方式"},
		no:       tmpl{"not an invalid-arguments report", "不是参数无效的报告"},
		next:     tmpl{"the caller (or the model) may correct the input and call again", "调用方（或模型）可以修正输入后再调用"},
		mistake:  tmpl{"reporting an infrastructure failure, or giving up, when a corrected call would work", "在修正后即可成功时，却报告基础设施故障或直接放弃"},
		mcp:      tmpl{"since the 2025-11-25 revision a result with isError: true, so the model sees it and can correct itself; earlier servers often sent a -32602 protocol error", "自 2025-11-25 修订起为 isError: true 的结果，模型能看到并自行修正；更早的服务器常返回 -32602 协议错误"},
	},
	ClassPermissionDenied: {
		title:    tmpl{"Permission denied", "权限拒绝"},
		question: tmpl{"Is it an error result saying the caller is not allowed?", "它是否是说明调用方无权限的错误结果？"},
		yes:      tmpl{"an error result of kind %[1]q", "类型为 %[1]q 的错误结果"},
		no:       tmpl{"not a permission denial", "不是权限拒绝"},
		next:     tmpl{"a controlled stop: tell the user, or ask them to obtain access", "受控终止：告知用户，或请用户获取权限"},
		mistake:  tmpl{"suggesting a retry with another user id — getting around an identity check is not a fix", "建议换一个用户 ID 重试——绕过身份检查不是修复"},
		mcp:      tmpl{"a result with isError: true; the kind is in the tool's own content", "isError: true 的结果；具体类型写在工具自己的内容里"},
	},
	ClassExecutionError: {
		title:    tmpl{"Execution error", "执行错误"},
		question: tmpl{"Is it any other error result — the tool or its infrastructure failed?", "它是否是其他错误结果——工具或其基础设施失败了？"},
		yes:      tmpl{"an error result of kind %[1]q", "类型为 %[1]q 的错误结果"},
		no:       tmpl{"not an error result", "不是错误结果"},
		next:     tmpl{"the application, not the model, decides a bounded recovery: a limited retry, or reporting the failure", "由应用而不是模型决定有限的恢复：有限次重试，或报告失败"},
		mistake:  tmpl{"returning null for a failure as for \"not found\", so nobody can tell an outage from an empty answer", "失败也返回 null，与“未找到”无法区分，没人分得清故障和空答案"},
		mcp:      tmpl{"a result with isError: true (a tool execution error)", "isError: true 的结果（工具执行错误）"},
	},
	ClassNotFound: {
		title:    tmpl{"Not found", "未找到"},
		question: tmpl{"Did the tool work and say the thing does not exist?", "工具正常运行，并说明目标不存在吗？"},
		yes:      tmpl{"a successful result with found: false", "成功的结果，且 found: false"},
		no:       tmpl{"the lookup found its thing", "查找找到了目标"},
		next:     tmpl{"a legitimate business answer: say so, or ask for another id", "合法的业务答复：如实说明，或请用户提供另一个 ID"},
		mistake:  tmpl{"returning null for both not-found and failure; or treating not-found as an error to retry", "未找到与失败都返回 null；或把未找到当成需要重试的错误"},
		mcp:      tmpl{"a normal result (isError: false) whose content says nothing was found", "普通结果（isError: false），内容说明未找到"},
	},
	ClassFound: {
		title:    tmpl{"Found", "找到"},
		question: tmpl{"Nothing above: a successful result with its thing?", "以上都不是：成功并带有目标的结果？"},
		yes:      tmpl{"a successful result with found: true", "成功的结果，且 found: true"},
		no:       tmpl{"", ""},
		next:     tmpl{"use the result — after checking it is the result for this request", "使用结果——先确认它属于这个请求"},
		mistake:  tmpl{"assuming a result that came back is the right one: match it by its correlation ID", "以为返回的结果就是对的：应按关联 ID 匹配"},
		mcp:      tmpl{"a normal result (isError: false)", "普通结果（isError: false）"},
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

// MCP says which MCP behaviour the class corresponds to.
func (c OutcomeClass) MCP(l Lang) string { return c.text().mcp[l] }

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
			return fill(t.legacy[l], [6]string{s.note})
		}
		return fill(t.yes[l], [6]string{s.note})
	case Passed:
		if s.legacy && s.Class == ClassProtocolError {
			return pick(l, "a JSON-RPC error came back, but "+s.note+" is the invalid-params code: the next question takes it",
				"返回了 JSON-RPC 错误，但 "+s.note+" 是参数无效的错误码：由下一个问题处理")
		}
		return t.no[l]
	}
	return pick(l, "not reached: an earlier question decided", "未到达：之前的问题已作出判断")
}

// OutcomeCaveat is what a classification does NOT prove.
func OutcomeCaveat(l Lang) string {
	return pick(l, "that the tool told the truth about which class it is: the class is what the response says, not what happened",
		"工具如实报告了它属于哪一类：分类依据的是响应所说的，而不是实际发生的")
}
