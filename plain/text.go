package plain

import "toolgate/assess"

// texts are the line mode's own sentences; the walks' texts come from
// walk and assess, as in the trainer.
var texts = map[string][2]string{
	"welcome": {"toolgate — may this tool call go ahead? Plain mode: type a command and press Enter. ? lists the commands.",
		"toolgate——这个工具调用可以准入吗？纯文本模式：输入命令后按回车。输入 ? 查看命令。"},
	"help": {"Commands: a number opens that scenario from the list, or answers a question. Enter alone: the next step. v: straight to the verdict. p: predict which step decides, then the walk. n: next scenario. b: previous scenario. r: start the scenario again. l: the list. t: the next track. lang: English or Chinese. q: quit.",
		"命令：输入数字打开列表中的场景，或回答问题。只按回车：下一步。v：直接到判断。p：先预测哪一步作出判断，再看逐步演示。n：下一个场景。b：上一个场景。r：重新开始本场景。l：列表。t：下一个板块。lang：English 或中文。q：退出。"},
	"track":        {"%s track, %d scenarios:", "%s板块，共 %d 个场景："},
	"choose":       {"Type a scenario's number (1 to %d) and Enter; t for the next track, q to quit.", "输入场景编号（1 到 %d）并按回车；t 切换板块，q 退出。"},
	"scenario":     {"Scenario %d: %s.", "场景 %d：%s。"},
	"injected":     {"Injected: %s.", "注入重点：%s。"},
	"startKeys":    {"Press Enter for the first step, v for the verdict, p to predict first.", "按回车看第一步，v 直接看判断，p 先预测。"},
	"step":         {"%s %d, %s: %s.", "%s %d，%s：%s。"},
	"question":     {"  It asks: %s", "  它问：%s"},
	"because":      {"  Here: %s.", "  这里：%s。"},
	"decides":      {"This step decides: the steps after it are not asked. Press Enter for the verdict.", "这一步作出判断：之后的步骤不再询问。按回车查看判断。"},
	"verdict":      {"Verdict: %s.", "判断：%s。"},
	"afterVerdict": {"That is the verdict. n for the next scenario, r to start again, l for the list, q to quit.", "这就是判断。n 下一个场景，r 重新开始，l 列表，q 退出。"},
	"predict":      {"Which step decides? Type its number, 1 to %d, and Enter.", "哪一步作出判断？输入编号（1 到 %d）并按回车。"},
	"right":        {"Right: step %d decides.", "答对了：由第 %d 步作出判断。"},
	"wrong":        {"You said %d; step %d decides.", "你选的是 %d；实际由第 %d 步作出判断。"},
	"unknown":      {"Not a command: %s. ? lists the commands.", "不是命令：%s。输入 ? 查看命令。"},
	"bye":          {"Goodbye.", "再见。"},
	"langNow":      {"English from now on.", "现在起使用中文。"},
	"rule":         {"Rule", "规则"},
	"stepWord":     {"Step", "步骤"},
	"colon":        {assess.English.Colon(), assess.Chinese.Colon()},
	"period":       {".", "。"},
}

func text(key string, l assess.Lang) string { return texts[key][l] }
