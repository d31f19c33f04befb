package plain

import "toolgate/assess"

// text is one text in both languages; t takes both, so a text missing
// a language does not compile.
type text [2]string

func t(en, zh string) text { return text{en, zh} }

func (x text) in(l assess.Lang) string { return x[l] }

// texts are the line mode's own sentences, a field each, so that a
// mistyped name does not compile; the walks' texts come from walk and
// assess, as in the trainer.
var texts = struct {
	Welcome, Help, Track, Choose, Scenario, Injected, StartKeys text
	Step, Question, Because, Decides, Verdict, AfterVerdict     text
	Predict, Right, Wrong, Unknown, Bye, LangNow                text
	Rule, StepWord, Colon, Period                               text
	QuizList, ScenarioNumber, Score                             text
}{
	Welcome: t("toolgate — may this tool call go ahead? Plain mode: type a command and press Enter. ? lists the commands.",
		"toolgate——这个工具调用可以准入吗？纯文本模式：输入命令后按回车。输入 ? 查看命令。"),
	Help: t("Commands: a number opens that scenario from the list, or answers a question. Enter alone: the next step. v: straight to the verdict. p: predict which step decides, then the walk. n: next scenario. b: previous scenario. r: start the scenario again. l: the list. t: the next track. lang: English or Chinese. q: quit.",
		"命令：输入数字打开列表中的场景，或回答问题。只按回车：下一步。v：直接到判断。p：先预测哪一步作出判断，再看逐步演示。n：下一个场景。b：上一个场景。r：重新开始本场景。l：列表。t：下一个板块。lang：English 或中文。q：退出。"),
	Track:        t("%s track, %d scenarios:", "%s板块，共 %d 个场景："),
	Choose:       t("Type a scenario's number (1 to %d) and Enter; t for the next track, q to quit.", "输入场景编号（1 到 %d）并按回车；t 切换板块，q 退出。"),
	Scenario:     t("Scenario %d: %s.", "场景 %d：%s。"),
	Injected:     t("Injected: %s.", "注入重点：%s。"),
	StartKeys:    t("Press Enter for the first step, v for the verdict, p to predict first.", "按回车看第一步，v 直接看判断，p 先预测。"),
	Step:         t("%s %d, %s: %s.", "%s %d，%s：%s。"),
	Question:     t("  It asks: %s", "  它问：%s"),
	Because:      t("  Here: %s.", "  这里：%s。"),
	Decides:      t("This step decides: the steps after it are not asked. Press Enter for the verdict.", "这一步作出判断：之后的步骤不再询问。按回车查看判断。"),
	Verdict:      t("Verdict: %s.", "判断：%s。"),
	AfterVerdict: t("That is the verdict. n for the next scenario, r to start again, l for the list, q to quit.", "这就是判断。n 下一个场景，r 重新开始，l 列表，q 退出。"),
	Predict:      t("Which step decides? Type its number, 1 to %d, and Enter.", "哪一步作出判断？输入编号（1 到 %d）并按回车。"),
	Right:        t("Right: step %d decides.", "答对了：由第 %d 步作出判断。"),
	Wrong:        t("You said %d; step %d decides.", "你选的是 %d；实际由第 %d 步作出判断。"),
	Unknown:      t("Not a command: %s. ? lists the commands.", "不是命令：%s。输入 ? 查看命令。"),
	Bye:          t("Goodbye.", "再见。"),
	LangNow:      t("English from now on.", "现在起使用中文。"),
	QuizList: t("Quiz: each scenario's title is told after your prediction, since a title names the answer.",
		"测验：每个场景的标题在你预测之后才给出，因为标题会说出答案。"),
	ScenarioNumber: t("Scenario %d.", "场景 %d。"),
	Score:          t("Score: %d of %d.", "得分：%d / %d。"),
	Rule:           t("Rule", "规则"),
	StepWord:       t("Step", "步骤"),
	Colon:          t(assess.English.Colon(), assess.Chinese.Colon()),
	Period:         t(".", "。"),
}
