package learn

func init() {
	for k, v := range uiWords {
		words[k] = v
	}
}

// uiWords are the texts of the board.
var uiWords = map[string][2]string{
	"app":          {"toolgate learn", "toolgate learn"},
	"rule":         {"rule %d", "规则 %d"},
	"inputStage":   {"input", "输入"},
	"inputTitle":   {"Input check (toolgate's, last)", "输入检查（toolgate 的，最后）"},
	"now":          {"← now", "← 当前"},
	"locked":       {"locked", "未解锁"},
	"running":      {"running…", "运行中…"},
	"run":          {"run %d · %.1fs", "第 %d 次 · %.1f 秒"},
	"waiting":      {"waiting for the first run…", "等待第一次运行…"},
	"fails":        {"rule %[1]d fails on %[2]s (%[3]d of %[4]d failing in rule %[1]d)", "规则 %[1]d 在 %[2]s 上失败（规则 %[1]d 有 %[4]d 个失败，这是第 %[3]d 个）"},
	"failsInput":   {"the input check lets through %[1]s (%[2]d of %[3]d failing)", "输入检查放过了 %[1]s（共 %[3]d 个失败，这是第 %[2]d 个）"},
	"input":        {"input", "输入"},
	"expected":     {"expected", "预期"},
	"got":          {"got", "实际"},
	"differs":      {"differs", "差异"},
	"refuseIt":     {"refuse it, or any answer but allowed", "拒绝它，或 allowed 以外的任何回答"},
	"walk":         {"toolgate's walk of this input", "toolgate 对这个输入的逐条判断"},
	"refused":      {"toolgate's input check refuses it: %s", "toolgate 的输入检查拒绝它：%s"},
	"decided":      {"verdict: %s", "判断：%s"},
	"decision":     {"Decision: %d of %d vectors agree with the book.", "判断：%d/%d 个向量与本书一致。"},
	"hintKey":      {"Press h for a hint (h again for more).", "按 h 看提示（再按看更多）。"},
	"hintOnce":     {"For hints, run 'toolgate learn' and press h.", "要看提示，运行 'toolgate learn' 并按 h。"},
	"hint":         {"hint %d/%d", "提示 %d/%d"},
	"redTitle":     {"Red — no code yet: this is the seed's red step.", "红——还没有代码：这正是原文的红色步骤。"},
	"redText":      {"The tests run before the function decides anything: the book's own first run failed the same way, with ERR_MODULE_NOT_FOUND, before its module existed. Write rule 1 in %s and save; this runs again.", "测试先于函数作出任何判断：本书自己的第一次运行也是这样失败的，当时模块还不存在，报 ERR_MODULE_NOT_FOUND。在 %s 中写出规则 1 并保存，这里会再次运行。"},
	"noModule":     {"Red — the module is not there: this is the seed's red step itself (ERR_MODULE_NOT_FOUND). Put %s back ('toolgate learn init' writes only what is missing) and save.", "红——模块不存在：这正是原文的红色步骤本身（ERR_MODULE_NOT_FOUND）。把 %s 放回去（'toolgate learn init' 只写缺少的文件）然后保存。"},
	"greenTitle":   {"Green — your gate agrees with the book on every decision vector (%d of %d).", "绿——你的门在每个判断向量上都与本书一致（%d/%d）。"},
	"greenInput":   {"Last stage, optional: toolgate's own input check — %d of %d inputs handled. It lives in the harness (checkInput), not in the decision.", "最后一个可选阶段：toolgate 自己的输入检查——处理了 %d/%d 个输入。它写在运行框架里（checkInput），不写在判断里。"},
	"greenAll":     {"And the input check too: every input it refuses, your gate does not let through.", "输入检查也通过了：它拒绝的每个输入，你的门都没有放行。"},
	"allowedIsNot": {"allowed proves nothing beyond itself: not that the tool ran, an effect happened, or the task was accepted.", "allowed 只证明它自己：不证明工具已执行、效果已发生或任务已验收。"},
	"brokenTitle":  {"Your gate does not run — in your code or its toolchain, not in toolgate.", "你的门无法运行——问题在你的代码或它的工具链里，不在 toolgate。"},
	"buildFailed":  {"Your gate does not build — in your code, not in toolgate.", "你的门无法构建——问题在你的代码里，不在 toolgate。"},
	"missingTool":  {"%s is not on PATH: it is needed to run a %s gate.", "PATH 中没有 %s：运行 %s 门需要它。"},
	"missingTools": {"%s are not on PATH: they are needed to run a %s gate.", "PATH 中没有 %s：运行 %s 门需要它们。"},
	"stoppedAt":    {"It stopped at this input (%s):", "它在这个输入（%s）处停止："},
	"output":       {"what it printed", "它的输出"},
	"printed":      {"what your gate printed on stderr (console.log and the like go there):", "你的门在 stderr 上的输出（console.log 之类都在这里）："},
	"nothing":      {"(nothing)", "（无）"},
	"note":         {"note: %s", "注意：%s"},
}
