package look

import "toolgate/assess"

// text is one text in both languages; t takes both, so a text missing
// a language does not compile.
type text [2]string

func t(en, zh string) text { return text{en, zh} }

func (x text) in(l assess.Lang) string { return x[l] }

// texts are every text of look, a field each, so that a mistyped name
// does not compile.
var texts = struct {
	// The sections' titles, named as the sections are.
	Contract, Request, Environment, Approval, InvocationRecord text
	Requested, Results, Closed, Error, Result                  text

	Absent text
	// A step's answer to its question, and the outcome.
	AnswerNo, AnswerYes, AnswerSep text
	Passed, Fired, NotReached      text
}{
	Contract:         t("Contract", "契约"),
	Request:          t("Request", "请求"),
	Environment:      t("Environment", "环境"),
	Approval:         t("Approval", "批准"),
	InvocationRecord: t("Invocation record", "调用记录"),
	Requested:        t("Requested IDs", "请求 ID"),
	Results:          t("Result IDs, in arrival order", "结果 ID（按到达顺序）"),
	Closed:           t("Batch", "批次"),
	Error:            t("JSON-RPC error", "JSON-RPC 错误"),
	Result:           t("Result", "结果"),

	Absent: t("— none —", "— 无 —"),

	AnswerNo:   t("no", "否"),
	AnswerYes:  t("YES", "是"),
	AnswerSep:  t(" · ", "·"),
	Passed:     t("passed", "通过"),
	Fired:      t("FIRED", "触发"),
	NotReached: t("not reached", "未到达"),
}

// sectionTitle is a section's title; false for a section look does not
// know.
func sectionTitle(section string) (text, bool) {
	switch section {
	case "contract":
		return texts.Contract, true
	case "request":
		return texts.Request, true
	case "environment":
		return texts.Environment, true
	case "approval":
		return texts.Approval, true
	case "invocationRecord":
		return texts.InvocationRecord, true
	case "requested":
		return texts.Requested, true
	case "results":
		return texts.Results, true
	case "closed":
		return texts.Closed, true
	case "error":
		return texts.Error, true
	case "result":
		return texts.Result, true
	}
	return text{}, false
}
