package tui

import "toolgate/assess"

// ui holds the interface's own texts; rule and scenario texts come from
// assess and scenarios.
var ui = map[string][2]string{
	"app":          {"toolgate · may this tool call go ahead?", "toolgate · 这个工具调用可以放行吗？"},
	"scenarios":    {"Scenarios", "场景"},
	"scenario":     {"Scenario", "场景"},
	"inputs":       {"Inputs", "输入"},
	"injected":     {"Injected", "注入重点"},
	"startHint":    {"Press → (or space) for the first step. Enter runs to the verdict.", "按 →（或空格）进行第一步；回车直接得出判断。"},
	"firedHint":    {"Rule %d fired, so it decides: the rules after it are not asked. Press → for the verdict.", "规则 %d 触发，由它作出判断：之后的规则不再询问。按 → 查看判断。"},
	"lastHint":     {"That was the last step. Press → for the verdict.", "这是最后一步。按 → 查看判断。"},
	"questionHint": {"Question %d is answered yes, so it decides. Press → for the verdict.", "问题 %d 的回答是“是”，由它作出判断。按 → 查看判断。"},
	"hintChoose":   {"↑/↓ choose", "↑/↓ 选择"},
	"hintOpen":     {"enter open", "回车打开"},
	"hintJump":     {"1–9 jump", "1–9 跳转"},
	"hintTrack":    {"t track", "t 切换主题"},
	"verdict":      {"Verdict", "判断"},
	"colon":        {": ", "："},
	"passed":       {"passed", "通过"},
	"fired":        {"FIRED", "触发"},
	"notReached":   {"not reached", "未到达"},
	"pending":      {"…", "…"},
	"enlarge":      {"Please enlarge the terminal: toolgate needs at least %d×%d (now %d×%d).", "请放大终端窗口：toolgate 至少需要 %d×%d（当前 %d×%d）。"},
	"helpTitle":    {"Keys", "按键"},
	"helpClose":    {"press ? to close", "按 ? 关闭"},
	"showInputs":   {"tab: inputs", "tab：输入"},
	"showWalk":     {"tab: decision order", "tab：判断顺序"},
	"tool":         {"tool", "工具"},
	// Key help.
	"kUp":         {"previous scenario", "上一个场景"},
	"kDown":       {"next scenario", "下一个场景"},
	"kOpen":       {"open", "打开"},
	"kNext":       {"next rule", "下一条规则"},
	"kBack":       {"back a rule", "退回一条"},
	"kRun":        {"run to verdict", "直达判断"},
	"kRestart":    {"restart", "重新开始"},
	"kNextScen":   {"next scenario", "下一个场景"},
	"kPrevScen":   {"prev scenario", "上一个场景"},
	"kJump":       {"open scenario N", "打开第 N 个场景"},
	"kList":       {"back to list", "返回列表"},
	"kInputs":     {"inputs / walk", "输入 / 判断"},
	"kTrack":      {"next track", "下一个主题"},
	"kBlank":      {"blank the screen", "黑屏"},
	"kQuiz":       {"quiz on/off", "测验开/关"},
	"quizRule":    {"Predict first: which rule fires? Press 1–%d.", "先预测：哪条规则会触发？按 1–%d。"},
	"quizClass":   {"Predict first: which class is this? Press 1–%d (the questions below, in order).", "先预测：这属于哪一类？按 1–%d（即下面按顺序的问题）。"},
	"quizCode":    {"Rule %d — and which code? Press its number:", "规则 %d——代码是哪个？按对应数字："},
	"quizRight":   {"Right: %s.", "答对了：%s。"},
	"quizWrong":   {"You said %s; %s decided.", "你选的是 %s；实际由 %s 决定。"},
	"quizHint":    {"g stops the quiz · n next scenario", "g 关闭测验 · n 下一个场景"},
	"quizSummary": {"Quiz summary", "测验小结"},
	"quizScore":   {"Score: %d right of %d asked.", "得分：%d / %d。"},
	"quizNoMiss":  {"No misses.", "没有答错。"},
	"quizClose":   {"any key to close", "按任意键关闭"},
	"quizAudit":   {"The quiz asks about admission and outcome scenarios; the audit walks as usual.", "测验针对准入和结果分类场景；审计照常逐步演示。"},
	"answerFirst": {"Answer first (or press g to stop the quiz).", "请先作答（或按 g 关闭测验）。"},
	"score":       {"quiz %d/%d", "测验 %d/%d"},
	"saveFailed":  {"progress not saved: %v", "进度未保存：%v"},
	"kClock":      {"clock on/off", "显示/隐藏计时"},
	"rule":        {"rule", "规则"},
	"step":        {"step", "步骤"},
	"elapsed":     {"elapsed", "已用时"},
	"blankHint":   {"(screen blanked — any key to return)", "（已黑屏——按任意键返回）"},
	"kLang":       {"English / 中文", "English / 中文"},
	"kHelp":       {"more keys", "更多按键"},
	"kQuit":       {"quit", "退出"},
}

func tr(key string, l assess.Lang) string { return ui[key][l] }

// listHints are the list's key hints, one a line in the list column and
// joined on one line where there is no list column.
func listHints(l assess.Lang) []string {
	return []string{tr("hintChoose", l), tr("hintOpen", l), tr("hintJump", l), tr("hintTrack", l)}
}
