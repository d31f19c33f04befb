package assess

// NonGoals is what the decision does not do, as seed 000 puts it under
// "目标与非目标": a learner must meet these as often as the verdicts, or
// take "allowed" for a permission it never is.
func NonGoals(l Lang) []string {
	return nonGoals[l][:]
}

var nonGoals = [2][7]string{
	{
		"It returns a teaching verdict on snapshots a test injects: the contract, the request, the environment, the approval, an optional invocation record.",
		"allowed, succeeded and effect_unknown are never task acceptance, authorization, or a fact about an external effect.",
		"It calls no MCP server, SDK, model, network, file, Git, browser, database, queue, environment variable, credential or permission system.",
		"It parses and runs no JSON Schema and discovers no real tool: requiredArguments is a minimal teaching list, not a schema.",
		"It grants nothing, creates no approval, sends no request, writes no target, and re-observes no external state.",
		"The environment, approval and record are snapshots handed in: no real time, permission, system state or tool output is checked.",
		"Its fields are this book's teaching model, not those of MCP, OpenAI, Anthropic or JSON Schema.",
	},
	{
		"它只对测试注入的工具契约、调用请求、环境摘要、批准摘要和可选的调用记录返回教学判断。",
		"不把 allowed、succeeded 或 effect_unknown 写成任务验收、授权或外部效果事实。",
		"它不调用 MCP、SDK、模型、网络、文件、Git、浏览器、数据库、队列、环境变量、凭证或真实权限系统。",
		"它不解析或执行 JSON Schema，也不发现或注册真实工具：requiredArguments 只是教学用的最小字段清单。",
		"它不授予权限、创建批准、发送请求、写入目标，也不重新观察或验证真实外部状态。",
		"environment、approval 与 invocationRecord 都是调用方注入的快照；不检查真实时间、权限、系统状态或工具输出。",
		"这些字段是本书模型，不是 MCP、OpenAI、Anthropic 或 JSON Schema 的字段定义。",
	},
}

// AllowedIsNot is what an allowed verdict is not, said beside it every
// time: the seed's last non-goal.
func AllowedIsNot(l Lang) string {
	return [2]string{
		"an authorization, a task acceptance, or a fact about the world — only that these snapshots pass the eight rules",
		"授权、任务验收或关于外部世界的事实——它只说明这些快照通过了八条规则",
	}[l]
}
