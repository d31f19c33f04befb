package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/scenarios"
)

// words are the command line's fixed texts, in English and Chinese.
var words = map[string][2]string{
	"scenario":     {"Scenario", "场景"},
	"injected":     {"Injected", "注入重点"},
	"verdict":      {"Verdict", "判断"},
	"means":        {"means", "含义"},
	"notProve":     {"does NOT prove", "不能证明"},
	"scenarioNot":  {"this scenario does not prove", "本场景不证明"},
	"inputs":       {"Inputs", "输入"},
	"walk":         {"Decision walk", "判断顺序"},
	"field":        {"Field", "字段"},
	"value":        {"Value", "值"},
	"rule":         {"Rule", "规则"},
	"outcome":      {"Outcome", "结果"},
	"why":          {"Why", "说明"},
	"story":        {"Story", "故事"},
	"missing":      {"missing arguments", "缺失参数"},
	"effectStatus": {"effect status", "效果状态"},
}

func word(key string, l assess.Lang) string { return words[key][l] }

// writeList writes one scenario a line: number, id, title, expected verdict.
func writeList(w io.Writer, all []scenarios.Scenario, l assess.Lang) {
	idWidth := 0
	for _, s := range all {
		idWidth = max(idWidth, len(s.ID))
	}
	titleWidth := 0
	for _, s := range all {
		titleWidth = max(titleWidth, lipgloss.Width(s.Title.In(l)))
	}
	for _, s := range all {
		title := s.Title.In(l)
		fmt.Fprintf(w, "%2d  %-*s  %s%s  %s\n", s.Number, idWidth, s.ID, title,
			strings.Repeat(" ", titleWidth-lipgloss.Width(title)), s.Expect.Status.String()+"/"+s.Expect.Code.String())
	}
}

func writeTraces(env *Env, w io.Writer, list []scenarios.Scenario, f format, l assess.Lang) error {
	switch f {
	case formatJSON:
		return writeTraceJSON(w, list, l)
	case formatMarkdown:
		for i, s := range list {
			if i > 0 {
				fmt.Fprint(w, "\n---\n\n")
			}
			writeTraceMarkdown(w, s, l)
		}
		return nil
	}
	cw := colorprofile.NewWriter(w, env.Environ)
	if !env.StdoutIsTTY {
		cw.Profile = colorprofile.NoTTY
	}
	st := newTextStyles()
	for i, s := range list {
		if i > 0 {
			fmt.Fprintln(cw)
		}
		writeTraceText(cw, st, s, l)
	}
	return nil
}

type textStyles struct {
	palette look.Palette
	title   lipgloss.Style
	dim     lipgloss.Style
	fired   lipgloss.Style
	label   lipgloss.Style
}

func newTextStyles() textStyles {
	p := look.DarkPalette()
	return textStyles{
		palette: p,
		title:   lipgloss.NewStyle().Bold(true),
		dim:     lipgloss.NewStyle().Foreground(p.Dim),
		fired:   lipgloss.NewStyle().Bold(true),
		label:   lipgloss.NewStyle().Bold(true),
	}
}

func writeTraceText(w io.Writer, st textStyles, s scenarios.Scenario, l assess.Lang) {
	v, trace := assess.Explain(&s.Input)
	status := lipgloss.NewStyle().Foreground(st.palette.Status(v.Status)).Bold(true)
	fmt.Fprintln(w, st.title.Render(fmt.Sprintf("%s %d · %s", word("scenario", l), s.Number, s.Title.In(l))))
	if inj := s.Injected.In(l); inj != "" {
		fmt.Fprintln(w, st.dim.Render("  "+word("injected", l)+": "+inj))
	}
	fmt.Fprintln(w)
	for _, step := range trace {
		mark := look.OutcomeSymbol(step.Outcome) + " " + look.OutcomeWord(step.Outcome, l)
		head := fmt.Sprintf("  %d %s  %s", step.Rule, pad(mark, 14), step.Rule.Title(l))
		switch step.Outcome {
		case assess.Fired:
			fmt.Fprintln(w, status.Render(head))
			fmt.Fprintln(w, "      "+step.Explanation(l))
		case assess.Passed:
			fmt.Fprintln(w, head)
			fmt.Fprintln(w, st.dim.Render("      "+step.Explanation(l)))
		default:
			fmt.Fprintln(w, st.dim.Render(head))
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%s: %s   correlationId %s\n", st.label.Render(word("verdict", l)),
		status.Render(look.StatusSymbol(v.Status)+" "+v.Status.String()+" / "+v.Code.String()), strconv.Quote(v.CorrelationID))
	if len(v.MissingArguments) > 0 {
		fmt.Fprintf(w, "  %s: %s\n", word("missing", l), strings.Join(v.MissingArguments, ", "))
	}
	if v.EffectStatus != "" {
		fmt.Fprintf(w, "  %s: %s\n", word("effectStatus", l), v.EffectStatus)
	}
	fmt.Fprintf(w, "  %s: %s\n", word("means", l), v.Code.Meaning(l))
	fmt.Fprintf(w, "  %s: %s\n", st.label.Render(word("notProve", l)), v.Code.Caveat(l))
	if dnp := s.DoesNotProve.In(l); dnp != "" {
		fmt.Fprintf(w, "  %s: %s\n", word("scenarioNot", l), dnp)
	}
}

// pad pads s with spaces to a display width.
func pad(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-lipgloss.Width(s)))
}

func writeTraceMarkdown(w io.Writer, s scenarios.Scenario, l assess.Lang) {
	v, trace := assess.Explain(&s.Input)
	fmt.Fprintf(w, "## %s %d · %s\n\n", word("scenario", l), s.Number, s.Title.In(l))
	if story := s.Story.In(l); story != "" {
		fmt.Fprintf(w, "%s\n\n", story)
	}
	if inj := s.Injected.In(l); inj != "" {
		fmt.Fprintf(w, "**%s:** %s\n\n", word("injected", l), inj)
	}
	fmt.Fprintf(w, "### %s\n\n| %s | %s |\n|---|---|\n", word("inputs", l), word("field", l), word("value", l))
	for _, f := range look.Fields(s.Input, trace) {
		val := "`" + f.Value + "`"
		if f.Absent {
			val = look.Absent(l)
		}
		fmt.Fprintf(w, "| `%s` | %s |\n", f.Path, mdCell(val))
	}
	fmt.Fprintf(w, "\n### %s\n\n| # | %s | %s | %s |\n|---|---|---|---|\n",
		word("walk", l), word("rule", l), word("outcome", l), word("why", l))
	for _, step := range trace {
		outcome := look.OutcomeSymbol(step.Outcome) + " " + look.OutcomeWord(step.Outcome, l)
		if step.Outcome == assess.Fired {
			outcome = "**" + outcome + "**"
		}
		fmt.Fprintf(w, "| %d | %s | %s | %s |\n", step.Rule, step.Rule.Title(l), outcome, mdCell(step.Explanation(l)))
	}
	fmt.Fprintf(w, "\n### %s\n\n", word("verdict", l))
	fmt.Fprintf(w, "**%s `%s` / `%s`** — %s\n\n", look.StatusSymbol(v.Status), v.Status, v.Code, v.Code.Meaning(l))
	if len(v.MissingArguments) > 0 {
		fmt.Fprintf(w, "- %s: `%s`\n", word("missing", l), strings.Join(v.MissingArguments, "`, `"))
	}
	if v.EffectStatus != "" {
		fmt.Fprintf(w, "- %s: `%s`\n", word("effectStatus", l), v.EffectStatus)
	}
	fmt.Fprintf(w, "- **%s:** %s\n", word("notProve", l), v.Code.Caveat(l))
	if dnp := s.DoesNotProve.In(l); dnp != "" {
		fmt.Fprintf(w, "- %s: %s\n", word("scenarioNot", l), dnp)
	}
}

// mdCell escapes what would break a Markdown table cell.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

type scenarioJSON struct {
	Number       int              `json:"number"`
	ID           string           `json:"id"`
	Title        string           `json:"title"`
	Verdict      verdictLine      `json:"verdict"`
	Meaning      string           `json:"meaning"`
	DoesNotProve string           `json:"doesNotProve"`
	Scenario     string           `json:"scenarioDoesNotProve,omitempty"`
	Trace        []stepJSON       `json:"trace"`
	Input        assess.Input     `json:"input"`
	Expect       scenarios.Expect `json:"-"`
}

func writeTraceJSON(w io.Writer, list []scenarios.Scenario, l assess.Lang) error {
	out := make([]scenarioJSON, len(list))
	for i, s := range list {
		v, trace := assess.Explain(&s.Input)
		out[i] = scenarioJSON{Number: s.Number, ID: s.ID, Title: s.Title.In(l), Verdict: lineOf(v),
			Meaning: v.Code.Meaning(l), DoesNotProve: v.Code.Caveat(l), Scenario: s.DoesNotProve.In(l),
			Trace: traceJSON(trace, l), Input: s.Input}
	}
	var v any = out
	if len(out) == 1 {
		v = out[0]
	}
	if err := json.MarshalWrite(w, v, jsontext.WithIndent("  "), json.Deterministic(true)); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w)
	return err
}
