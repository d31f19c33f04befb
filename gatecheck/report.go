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
	type key struct{ group, name string }
	count := map[key]*Row{}
	var order []key
	row := func(group, name string) *Row {
		k := key{group, name}
		if count[k] == nil {
			count[k] = &Row{Name: name}
			order = append(order, k)
		}
		return count[k]
	}
	inputErrors := text("inputErrors", l)
	switch r.Track {
	case scenarios.TrackAudit:
		for _, k := range assess.AuditKinds() {
			row("audit", auditKind(k, l))
		}
		row("audit", text("decisionErrors", l))
		row("audit", inputErrors)
	case scenarios.TrackOutcome:
		for c := assess.ClassProtocolError; c <= assess.ClassFound; c++ {
			row("class", c.String())
		}
		row("class", inputErrors)
	default:
		for ru := assess.RuleToolInContract; ru <= assess.RuleAllow; ru++ {
			row("rule", fmt.Sprintf("%d %s", ru, ru.Title(l)))
		}
		for _, c := range assess.Codes() {
			row("code", c.String())
		}
		for _, reason := range decode.Reasons() {
			row("input", text("reason-"+reason, l))
		}
	}
	tally := func(group, name string, agree bool) {
		rw := row(group, name)
		rw.Total++
		if agree {
			rw.Agree++
		}
	}
	for _, a := range r.Answers {
		exp := vectors.Expected(r.Track, a.Vector.Input)
		ok := a.Agree()
		switch {
		case exp.Refused && r.Track == scenarios.TrackAudit:
			tally("audit", inputErrors, ok)
		case exp.Error != "" && r.Track == scenarios.TrackAudit:
			tally("audit", text("decisionErrors", l), ok)
		case exp.Refused && r.Track == scenarios.TrackOutcome:
			tally("class", inputErrors, ok)
		case exp.Refused:
			tally("input", text("reason-"+exp.Reason, l), ok)
		case exp.Verdict != nil:
			ru := exp.Verdict.Code.Rule()
			tally("rule", fmt.Sprintf("%d %s", ru, ru.Title(l)), ok)
			tally("code", exp.Verdict.Code.String(), ok)
		case exp.Audit != nil:
			for _, k := range exp.Audit.Kinds() {
				tally("audit", auditKind(k, l), ok)
			}
		default:
			tally("class", exp.Class.String(), ok)
		}
	}
	idx := map[string]int{}
	for _, k := range order {
		if _, ok := idx[k.group]; !ok {
			idx[k.group] = len(groups)
			groups = append(groups, k.group)
			rows = append(rows, nil)
		}
		rows[idx[k.group]] = append(rows[idx[k.group]], *count[k])
	}
	for i, g := range groups {
		groups[i] = text("by-"+g, l)
	}
	return groups, rows
}

// auditKind names a kind of audit finding in a row: the diagnostics'
// own words, and "no diagnostics" for a clean batch.
func auditKind(k assess.AuditKind, l assess.Lang) string {
	if k == assess.AuditClean {
		return text("clean", l)
	}
	return k.String()
}

var texts = map[string][2]string{
	"inputErrors":    {"inputs the input check refuses", "输入检查拒绝的输入"},
	"decisionErrors": {"a request ID listed twice (the audit throws)", "请求 ID 重复（审计抛出异常）"},
	"by-input": {"Input check, toolgate's own (refuse, or answer anything but allowed; letting it through fails open): by what is wrong",
		"输入检查，toolgate 自己的（拒绝，或回答 allowed 以外的任何判断；放行即为默认放行）：按问题类别"},
	"reason-not_json":         {"not JSON, or not one object", "不是 JSON，或不是单个对象"},
	"reason-duplicate_member": {"a member name twice", "成员名重复"},
	"reason-unknown_member":   {"an unknown member (a typo)", "未知成员（拼写错误）"},
	"reason-wrong_type":       {"a value of the wrong type", "值的类型不对"},
	"reason-null_string":      {"null where a string is expected", "应为字符串处是 null"},
	"reason-required":         {"a member the book's function needs is missing", "缺少本书函数需要的成员"},
	"reason-too_large":        {"a list past toolgate's bounds", "列表超出 toolgate 的上限"},
	"reason-invalid_text":     {"text that is not Unicode", "不是 Unicode 的文本"},
	"clean":                   {"no diagnostics", "无诊断"},
	"by-rule":                 {"Decision, the book's (the verdict must be the book's): by deciding rule", "判断，本书的（判断必须与本书一致）：按作出判断的规则"},
	"by-code":                 {"Decision: by code", "判断：按代码"},
	"by-audit":                {"By what the audit finds", "按审计发现"},
	"by-class":                {"By outcome class", "按结果类别"},
	"input":                   {"input", "输入"},
	"expected":                {"expected", "预期"},
	"got":                     {"got", "实际"},
	"differs":                 {"differs", "差异"},
	"why":                     {"why toolgate expects it", "toolgate 为什么这样预期"},
	"refuses":                 {"toolgate's input check refuses this input", "toolgate 的输入检查拒绝这个输入"},
	"expectRefusal":           {"a refusal ({\"error\":…}), or any answer but allowed", "拒绝（{\"error\":…}），或 allowed 以外的任何回答"},
	"disagree":                {"DISAGREE", "不一致"},
	"summary":                 {"%d vectors: %d agree, %d disagree", "%d 个向量：%d 个一致，%d 个不一致"},
	"allAgree":                {"the gate agrees with toolgate on every vector", "这个门与 toolgate 在每个向量上都一致"},
	"stderr":                  {"the gate's stderr", "这个门的 stderr"},
	"note":                    {"note", "注意"},
	"colon":                   {": ", "："},
	"stoppedAfter":            {"the check stopped: %s", "检查中止：%s"},
	"answered":                {"answers read before it stopped: %d", "中止前读到的回答：%d"},
	"noStderr":                {"(nothing on stderr)", "（stderr 没有输出）"},
}

func text(key string, l assess.Lang) string { return texts[key][l] }

// WriteText writes the report for people: each disagreement with the
// input, what was expected, what came, and toolgate's trace of why; then
// the summary.
func WriteText(w io.Writer, r Report, l assess.Lang) {
	colon := text("colon", l)
	field := func(key, value string) {
		label := text(key, l) + strings.TrimRight(colon, " ")
		fmt.Fprintf(w, "  %s%s %s\n", label, strings.Repeat(" ", max(0, 10-lipgloss.Width(label))), value)
	}
	for _, a := range r.Answers {
		if a.Agree() {
			continue
		}
		fmt.Fprintf(w, look.No+" %s  %s\n", text("disagree", l), a.Vector.ID)
		field("input", Sanitize(a.Vector.Input))
		if a.Vector.Layer == vectors.LayerInput && r.Track == scenarios.TrackAdmission {
			field("expected", text("expectRefusal", l))
		} else {
			field("expected", string(a.Vector.Expect))
		}
		field("got", Sanitize(clip(a.Line, 2000)))
		for _, d := range a.Diffs {
			field("differs", d)
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
		fmt.Fprintf(w, "%s%s%s\n", text("note", l), colon, n)
	}
	n := r.Disagreements()
	fmt.Fprintf(w, text("summary", l)+"\n", len(r.Answers), len(r.Answers)-n, n)
	if n == 0 {
		fmt.Fprintln(w, text("allAgree", l))
	}
}

// writeWhy writes toolgate's own walk of the vector's input up to the
// step that decides: why the expected answer is what it is.
func writeWhy(w io.Writer, track string, v vectors.Vector, l assess.Lang) {
	exp := vectors.Expected(track, v.Input)
	fmt.Fprintf(w, "  %s%s\n", text("why", l), strings.TrimRight(text("colon", l), " "))
	if exp.Error != "" {
		fmt.Fprintf(w, "      %s%s%s\n", text("refuses", l), text("colon", l), exp.Error)
		return
	}
	s := scenarios.Scenario{Track: track}
	switch track {
	case scenarios.TrackAudit:
		s.Audit, _ = decode.Audit(v.Input)
	case scenarios.TrackOutcome:
		s.Outcome, _ = decode.Outcome(v.Input)
	default:
		s.Input, _ = decode.Input(v.Input)
	}
	wk := walk.Of(s, l)
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
	fmt.Fprintf(w, text("stoppedAfter", l)+"\n", e.Msg)
	fmt.Fprintf(w, text("answered", l)+"\n", e.Answered)
	fmt.Fprintf(w, "%s%s\n", text("stderr", l), strings.TrimRight(text("colon", l), " "))
	if strings.TrimSpace(e.Stderr) == "" {
		fmt.Fprintln(w, "  "+text("noStderr", l))
		return
	}
	for _, line := range strings.Split(strings.TrimRight(Sanitize([]byte(e.Stderr)), "\n"), "\n") {
		fmt.Fprintln(w, "  | "+line)
	}
}
