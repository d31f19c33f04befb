package gatecheck

import (
	"fmt"
	"io"
	"strings"

	"charm.land/lipgloss/v2"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/look"
	"toolgate/scenarios"
	"toolgate/vectors"
	"toolgate/walk"
)

// Row is one line of the summary: how many vectors of a kind (a rule, a
// code, an audit diagnostic, an outcome class) the gate agreed on.
type Row struct {
	Name         string
	Agree, Total int
}

// Summary groups the answers by what the expectation is, the two layers
// apart: for admission the decision by deciding rule and by code, then the
// input check by what is wrong with the input; for the audit by
// diagnostic kind, for outcomes by class, each with a row for the inputs
// the check refuses. Groups are in a fixed order and every kind is
// listed, even with no vector.
func Summary(r Report, l assess.Lang) (groups []string, rows [][]Row) {
	// A group is its title: the rows of the summary are grouped by it.
	type key struct {
		group text
		name  string
	}
	count := map[key]*Row{}
	var order []key
	row := func(group text, name string) *Row {
		k := key{group, name}
		if count[k] == nil {
			count[k] = &Row{Name: name}
			order = append(order, k)
		}
		return count[k]
	}
	inputErrors := texts.InputErrors.in(l)
	switch r.Track {
	case scenarios.TrackAudit:
		for _, k := range assess.AuditKinds() {
			row(texts.ByAudit, auditKind(k, l))
		}
		row(texts.ByAudit, texts.DecisionErrors.in(l))
		row(texts.ByAudit, inputErrors)
	case scenarios.TrackOutcome:
		for c := assess.ClassProtocolError; c <= assess.ClassFound; c++ {
			row(texts.ByClass, c.String())
		}
		row(texts.ByClass, inputErrors)
	case scenarios.TrackAdmission:
		for ru := assess.RuleToolInContract; ru <= assess.RuleAllow; ru++ {
			row(texts.ByRule, fmt.Sprintf("%d %s", ru, ru.Title(l)))
		}
		for _, c := range assess.Codes() {
			row(texts.ByCode, c.String())
		}
		for _, reason := range decode.Reasons() {
			row(texts.ByInput, reasonText(reason).in(l))
		}
	}
	tally := func(group text, name string, agree bool) {
		rw := row(group, name)
		rw.Total++
		if agree {
			rw.Agree++
		}
	}
	for _, a := range r.Answers {
		exp := vectors.Expected(r.Track, a.Vector.Input)
		ok := a.Agree()
		switch r.Track {
		case scenarios.TrackAdmission:
			switch {
			case exp.Refused:
				tally(texts.ByInput, reasonText(exp.Reason).in(l), ok)
			case exp.Verdict != nil:
				ru := exp.Verdict.Code.Rule()
				tally(texts.ByRule, fmt.Sprintf("%d %s", ru, ru.Title(l)), ok)
				tally(texts.ByCode, exp.Verdict.Code.String(), ok)
			}
		case scenarios.TrackAudit:
			switch {
			case exp.Refused:
				tally(texts.ByAudit, inputErrors, ok)
			case exp.Error != "":
				tally(texts.ByAudit, texts.DecisionErrors.in(l), ok)
			case exp.Audit != nil:
				for _, k := range exp.Audit.Kinds() {
					tally(texts.ByAudit, auditKind(k, l), ok)
				}
			}
		case scenarios.TrackOutcome:
			if exp.Refused {
				tally(texts.ByClass, inputErrors, ok)
			} else {
				tally(texts.ByClass, exp.Class.String(), ok)
			}
		}
	}
	idx := map[text]int{}
	for _, k := range order {
		if _, ok := idx[k.group]; !ok {
			idx[k.group] = len(groups)
			groups = append(groups, k.group.in(l))
			rows = append(rows, nil)
		}
		rows[idx[k.group]] = append(rows[idx[k.group]], *count[k])
	}
	return groups, rows
}

// auditKind names a kind of audit finding in a row: the diagnostics'
// own words, and "no diagnostics" for a clean batch.
func auditKind(k assess.AuditKind, l assess.Lang) string {
	if k == assess.AuditClean {
		return texts.Clean.in(l)
	}
	return k.String()
}

// text is one text in both languages; t takes both, so a text missing
// a language does not compile.
type text [2]string

func t(en, zh string) text { return text{en, zh} }

func (x text) in(l assess.Lang) string { return x[l] }

// texts are every text of the report, a field each, so that a mistyped
// name does not compile.
var texts = struct {
	InputErrors, DecisionErrors, ByInput                                     text
	ReasonNotJSON, ReasonDuplicateMember, ReasonUnknownMember                text
	ReasonWrongType, ReasonNullString, ReasonRequired                        text
	ReasonTooLarge, ReasonInvalidText                                        text
	Clean, ByRule, ByCode, ByAudit, ByClass                                  text
	Input, Expected, Got, Differs, Why, Refuses, ExpectRefusal, Disagree     text
	Summary, AllAgree, Stderr, Note, Colon, StoppedAfter, Answered, NoStderr text
	DisagreeOn, AndMore, ListSep, SeeCheck                                   text
}{
	InputErrors:    t("inputs the input check refuses", "输入检查拒绝的输入"),
	DecisionErrors: t("a request ID listed twice (the audit throws)", "请求 ID 重复（审计抛出异常）"),
	ByInput: t("Input check, toolgate's own (refuse, or answer anything but allowed; letting it through fails open): by what is wrong",
		"输入检查，toolgate 自己的（拒绝，或回答 allowed 以外的任何判断；放行即为默认放行）：按问题类别"),
	ReasonNotJSON:         t("not JSON, or not one object", "不是 JSON，或不是单个对象"),
	ReasonDuplicateMember: t("a member name twice", "成员名重复"),
	ReasonUnknownMember:   t("an unknown member (a typo)", "未知成员（拼写错误）"),
	ReasonWrongType:       t("a value of the wrong type", "值的类型不对"),
	ReasonNullString:      t("null where a string is expected", "应为字符串处是 null"),
	ReasonRequired:        t("a member the book's function needs is missing", "缺少本书函数需要的成员"),
	ReasonTooLarge:        t("a list past toolgate's bounds", "列表超出 toolgate 的上限"),
	ReasonInvalidText:     t("text that is not Unicode", "不是 Unicode 的文本"),
	Clean:                 t("no diagnostics", "无诊断"),
	ByRule:                t("Decision, the book's (the verdict must be the book's): by deciding rule", "判断，本书的（判断必须与本书一致）：按作出判断的规则"),
	ByCode:                t("Decision: by code", "判断：按代码"),
	ByAudit:               t("By what the audit finds", "按审计发现"),
	ByClass:               t("By outcome class", "按结果类别"),
	Input:                 t("input", "输入"),
	Expected:              t("expected", "预期"),
	Got:                   t("got", "实际"),
	Differs:               t("differs", "差异"),
	Why:                   t("why toolgate expects it", "toolgate 为什么这样预期"),
	Refuses:               t("toolgate's input check refuses this input", "toolgate 的输入检查拒绝这个输入"),
	ExpectRefusal:         t("a refusal ({\"error\":…}), or any answer but allowed", "拒绝（{\"error\":…}），或 allowed 以外的任何回答"),
	Disagree:              t("DISAGREE", "不一致"),
	Summary:               t("%d vectors: %d agree, %d disagree", "%d 个向量：%d 个一致，%d 个不一致"),
	DisagreeOn:            t("disagree on", "不一致的向量"),
	AndMore:               t(", and %d more", "，另有 %d 个"),
	ListSep:               t(", ", "、"),
	SeeCheck:              t("(what the input check refuses, and why: docs/decision.md §1)", "（输入检查拒绝什么、为什么：docs/decision.md 第 1 节）"),
	AllAgree:              t("the gate agrees with toolgate on every vector", "这个门与 toolgate 在每个向量上都一致"),
	Stderr:                t("the gate's stderr", "这个门的 stderr"),
	Note:                  t("note", "注意"),
	Colon:                 t(": ", "："),
	StoppedAfter:          t("the check stopped: %s", "检查中止：%s"),
	Answered:              t("answers read before it stopped: %d", "中止前读到的回答：%d"),
	NoStderr:              t("(nothing on stderr)", "（stderr 没有输出）"),
}

// reasonText is what a refusal's reason (decode.Reason) says in a row.
// A reason with no text here reads as its own name, never as nothing;
// TestEveryReasonHasText finds it first.
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

// WriteText writes the report for people: each disagreement with the
// input, what was expected, what came, and toolgate's trace of why; then
// the summary.
func WriteText(w io.Writer, r Report, l assess.Lang) {
	colon := texts.Colon.in(l)
	field := func(name text, value string) {
		label := name.in(l) + strings.TrimRight(colon, " ")
		fmt.Fprintf(w, "  %s%s %s\n", label, strings.Repeat(" ", max(0, 10-lipgloss.Width(label))), value)
	}
	for _, a := range r.Answers {
		if a.Agree() {
			continue
		}
		fmt.Fprintf(w, look.No+" %s  %s\n", texts.Disagree.in(l), a.Vector.ID)
		field(texts.Input, Sanitize(a.Vector.Input))
		if a.Vector.Layer == vectors.LayerInput && r.Track == scenarios.TrackAdmission {
			field(texts.Expected, texts.ExpectRefusal.in(l))
		} else {
			field(texts.Expected, string(a.Vector.Expect))
		}
		field(texts.Got, Sanitize(clip(a.Line, 2000)))
		for _, d := range a.Diffs {
			field(texts.Differs, d)
		}
		writeWhy(w, r.Track, a.Vector, l)
		fmt.Fprintln(w)
	}
	groups, rows := Summary(r, l)
	for i, g := range groups {
		run := 0
		for _, rw := range rows[i] {
			run += rw.Total
		}
		if run == 0 {
			continue // a layer --layer left out
		}
		fmt.Fprintln(w, g)
		width := 0
		for _, rw := range rows[i] {
			width = max(width, lipgloss.Width(rw.Name))
		}
		for _, rw := range rows[i] {
			mark := look.Yes
			switch {
			case rw.Total == 0:
				mark = "-"
			case rw.Agree < rw.Total:
				mark = look.No
			}
			fmt.Fprintf(w, "  %s %s  %3d/%d\n", mark, rw.Name+strings.Repeat(" ", width-lipgloss.Width(rw.Name)), rw.Agree, rw.Total)
		}
	}
	fmt.Fprintln(w)
	for _, n := range r.Notes {
		fmt.Fprintf(w, "%s%s%s\n", texts.Note.in(l), colon, n)
	}
	n := r.Disagreements()
	fmt.Fprintf(w, texts.Summary.in(l)+"\n", len(r.Answers), len(r.Answers)-n, n)
	if n == 0 {
		fmt.Fprintln(w, texts.AllAgree.in(l))
		return
	}
	// The last lines name them: the ones a person reads first, under a
	// long report.
	var ids []string
	for _, a := range r.Answers {
		if !a.Agree() {
			ids = append(ids, a.Vector.ID)
		}
	}
	more := ""
	if len(ids) > maxNamed {
		more = fmt.Sprintf(texts.AndMore.in(l), len(ids)-maxNamed)
		ids = ids[:maxNamed]
	}
	fmt.Fprintf(w, "%s%s%s%s\n", texts.DisagreeOn.in(l), colon, strings.Join(ids, texts.ListSep.in(l)), more)
}

// maxNamed is how many disagreeing vectors the summary names.
const maxNamed = 12

// writeWhy writes toolgate's own walk of the vector's input up to the
// step that decides: why the expected answer is what it is.
func writeWhy(w io.Writer, track scenarios.Track, v vectors.Vector, l assess.Lang) {
	exp := vectors.Expected(track, v.Input)
	fmt.Fprintf(w, "  %s%s\n", texts.Why.in(l), strings.TrimRight(texts.Colon.in(l), " "))
	if exp.Error != "" {
		fmt.Fprintf(w, "      %s%s%s\n", texts.Refuses.in(l), texts.Colon.in(l), exp.Error)
		fmt.Fprintf(w, "      %s\n", texts.SeeCheck.in(l))
		return
	}
	var c scenarios.Case
	switch track {
	case scenarios.TrackAdmission:
		in, _ := decode.Input(v.Input)
		c = scenarios.AdmissionCase{Input: in}
	case scenarios.TrackAudit:
		in, _ := decode.Audit(v.Input)
		c = scenarios.AuditCase{Input: in}
	case scenarios.TrackOutcome:
		in, _ := decode.Outcome(v.Input)
		c = scenarios.OutcomeCase{Input: in}
	}
	wk := walk.Of(scenarios.Scenario{Case: c}, l)
	for i, st := range wk.Steps {
		if st.Outcome == assess.NotReached {
			break
		}
		fmt.Fprintf(w, "    %d %s %s — %s\n", i+1, look.OutcomeSymbol(st.Outcome), st.Title, st.Explanation)
	}
}

// WriteFailure writes a check that could not finish: what happened, how
// far it got, and what the gate printed on stderr.
func WriteFailure(w io.Writer, e *GateError, l assess.Lang) {
	fmt.Fprintf(w, texts.StoppedAfter.in(l)+"\n", e.Msg)
	fmt.Fprintf(w, texts.Answered.in(l)+"\n", e.Answered)
	fmt.Fprintf(w, "%s%s\n", texts.Stderr.in(l), strings.TrimRight(texts.Colon.in(l), " "))
	if strings.TrimSpace(e.Stderr) == "" {
		fmt.Fprintln(w, "  "+texts.NoStderr.in(l))
		return
	}
	for _, line := range strings.Split(strings.TrimRight(Sanitize([]byte(e.Stderr)), "\n"), "\n") {
		fmt.Fprintln(w, "  | "+line)
	}
}
