package cli

import (
	"fmt"
	"io"
	"strings"

	"charm.land/lipgloss/v2"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/scenarios"
	"toolgate/walk"
)

// words are the command line's fixed texts, in English and Chinese.
var words = map[string][2]string{
	"scenario":    {"Scenario", "场景"},
	"injected":    {"Injected", "注入重点"},
	"verdict":     {"Verdict", "判断"},
	"inputs":      {"Inputs", "输入"},
	"field":       {"Field", "字段"},
	"value":       {"Value", "值"},
	"step":        {"Step", "步骤"},
	"stepOutcome": {"Outcome", "结果"},
	"why":         {"Why", "说明"},
	"colon":       {assess.English.Colon(), assess.Chinese.Colon()},
	"notes":       {"Lecturer notes", "讲师备注"},
	"nonGoals":    {"What this decision does not do", "这个判断不做什么"},
	"listTrack":   {"%s (--track %s)", "%s（--track %s）"},
	// asideOf labels a trainer's note with its step.
	"asideOf": {"%s (step %d)", "%s（步骤 %d）"},
	// allowedIsNot introduces assess.AllowedIsNot.
	"allowedIsNot": {"allowed is not", "allowed 不是"},
}

func word(key string, l assess.Lang) string { return words[key][l] }

// writeList writes one scenario a line: number, id, title, expected
// answer; with more than one track, a heading before each.
func writeList(w io.Writer, all []scenarios.Scenario, l assess.Lang) {
	idWidth, titleWidth := 0, 0
	for _, s := range all {
		idWidth = max(idWidth, len(s.ID))
		titleWidth = max(titleWidth, lipgloss.Width(s.Title.In(l)))
	}
	var track scenarios.Track // 0: none yet
	tracks := 0
	for _, s := range all {
		if s.Track() != track {
			tracks++
			track = s.Track()
		}
	}
	track = 0
	for _, s := range all {
		if tracks > 1 && s.Track() != track {
			if track != 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, word("listTrack", l)+"\n", s.Track().Title(l), s.Track())
			track = s.Track()
		}
		title := s.Title.In(l)
		fmt.Fprintf(w, "%2d  %-*s  %s  %s\n", s.Number, idWidth, s.ID, pad(title, titleWidth), walk.Of(s, l).Verdict.Short)
	}
}

func writeTraces(env *Env, w io.Writer, list []scenarios.Scenario, f format, l assess.Lang) error {
	switch f {
	case formatJSON:
		return writeTraceJSON(w, list, l)
	case formatMarkdown:
		md, flush := env.markdownOut(w)
		writeHandout(md, list, l)
		return flush()
	case formatText: // below
	}
	cw := colorWriter(w, env.stdoutProfile())
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
	label   lipgloss.Style
}

func newTextStyles() textStyles {
	p := look.DarkPalette()
	return textStyles{
		palette: p,
		title:   lipgloss.NewStyle().Bold(true),
		dim:     lipgloss.NewStyle().Foreground(p.Dim),
		label:   lipgloss.NewStyle().Bold(true),
	}
}

func writeTraceText(w io.Writer, st textStyles, s scenarios.Scenario, l assess.Lang) {
	wk := walk.Of(s, l)
	tone := lipgloss.NewStyle().Foreground(st.palette.Tone(wk.Verdict.Tone)).Bold(true)
	fmt.Fprintln(w, st.title.Render(fmt.Sprintf("%s %d · %s", word("scenario", l), s.Number, s.Title.In(l))))
	if inj := s.Injected.In(l); inj != "" {
		fmt.Fprintln(w, st.dim.Render("  "+word("injected", l)+word("colon", l)+inj))
	}
	fmt.Fprintln(w)
	// The two layers: toolgate's input check, then the decision's steps
	// under their heading.
	if c := wk.Check; c != nil {
		fmt.Fprintf(w, "  %s%s%s\n", st.label.Render(c.Title), word("colon", l), c.Explanation)
	}
	fmt.Fprintln(w, "  "+st.label.Render(wk.Heading))
	fmt.Fprintln(w)
	for i, step := range wk.Steps {
		mark := look.OutcomeSymbol(step.Outcome) + " " + look.OutcomeLabel(step.Outcome, l)
		head := fmt.Sprintf("  %d %s  %s", i+1, pad(mark, 14), step.Title)
		switch step.Outcome {
		case assess.Fired:
			fmt.Fprintln(w, tone.Render(head))
			fmt.Fprintln(w, "      "+step.Explanation)
		case assess.Passed:
			fmt.Fprintln(w, head)
			fmt.Fprintln(w, st.dim.Render("      "+step.Explanation))
		case assess.NotReached:
			fmt.Fprintln(w, st.dim.Render(head))
			continue
		}
		if step.Aside != "" {
			// Apart from the explanation, and said to be the trainer's.
			fmt.Fprintf(w, "      %s%s%s\n", st.label.Render(walk.AsideLabel(l)), word("colon", l), step.Aside)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%s%s%s\n", st.label.Render(word("verdict", l)), word("colon", l),
		tone.Render(wk.Verdict.Symbol+" "+wk.Verdict.Headline))
	for _, d := range wk.Verdict.Details {
		label := d.Label
		if d.Strong {
			label = st.label.Render(label)
		}
		fmt.Fprintf(w, "  %s%s%s\n", label, word("colon", l), d.Text)
	}
	if c, ok := s.Case.(scenarios.AdmissionCase); ok {
		writePathText(w, st, c.Input, l)
	}
}

// pad pads s with spaces to a display width.
func pad(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-lipgloss.Width(s)))
}

// writeHandout writes scenarios as one Markdown handout: a level-1
// heading per track when there are several, a level-2 heading per
// scenario that names its track (so that no two are alike), and after the
// admission scenarios what the decision does not do (seed 000's
// non-goals).
func writeHandout(w io.Writer, list []scenarios.Scenario, l assess.Lang) {
	groups := byTrack(list)
	for g, group := range groups {
		if g > 0 {
			fmt.Fprint(w, "\n---\n\n")
		}
		if len(groups) > 1 {
			fmt.Fprintf(w, "# %s\n\n", group[0].Track().Title(l))
		}
		for i, s := range group {
			if i > 0 {
				fmt.Fprint(w, "\n---\n\n")
			}
			writeTraceMarkdown(w, s, l)
		}
		if group[0].Track() == scenarios.TrackAdmission {
			fmt.Fprint(w, "\n---\n\n")
			writeNonGoals(w, l)
		}
	}
}

// byTrack splits a list into runs of one track, in order.
func byTrack(list []scenarios.Scenario) [][]scenarios.Scenario {
	var out [][]scenarios.Scenario
	for i, s := range list {
		if i == 0 || s.Track() != list[i-1].Track() {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], s)
	}
	return out
}

// writeNonGoals writes what the admission decision does not do, as a
// level-2 section.
func writeNonGoals(w io.Writer, l assess.Lang) {
	fmt.Fprintf(w, "## %s\n\n", word("nonGoals", l))
	for _, g := range assess.NonGoals(l) {
		fmt.Fprintf(w, "- %s\n", g)
	}
	fmt.Fprintf(w, "\n%s%s\n", mdLabel(word("allowedIsNot", l), l), assess.AllowedIsNot(l))
}

// mdLabel is a bold label and its colon, written so that CommonMark
// closes the emphasis: "**Injected:** " in English, "**注入重点**：" in
// Chinese (a closing ** right after "：" and before a letter is not a
// closing delimiter, so the full-width colon stays outside).
func mdLabel(label string, l assess.Lang) string {
	if l == assess.Chinese {
		return "**" + label + "**："
	}
	return "**" + label + ":** "
}

func writeTraceMarkdown(w io.Writer, s scenarios.Scenario, l assess.Lang) {
	wk := walk.Of(s, l)
	fmt.Fprintf(w, "## %s · %s %d · %s\n\n", s.Track().Title(l), word("scenario", l), s.Number, s.Title.In(l))
	if story := s.Story.In(l); story != "" {
		fmt.Fprintf(w, "%s\n\n", story)
	}
	if inj := s.Injected.In(l); inj != "" {
		fmt.Fprintf(w, "%s%s\n\n", mdLabel(word("injected", l), l), inj)
	}
	fmt.Fprintf(w, "### %s\n\n| %s | %s |\n|---|---|\n", word("inputs", l), word("field", l), word("value", l))
	for _, f := range wk.Fields {
		val := "`" + f.Value + "`"
		if f.Absent {
			val = look.Absent(l)
		}
		fmt.Fprintf(w, "| `%s` | %s |\n", f.Path, mdCell(val))
	}
	if c := wk.Check; c != nil {
		fmt.Fprintf(w, "\n### %s\n\n%s\n", c.Title, c.Explanation)
	}
	fmt.Fprintf(w, "\n### %s\n\n| # | %s | %s | %s |\n|---|---|---|---|\n",
		wk.Heading, word("step", l), word("stepOutcome", l), word("why", l))
	for i, step := range wk.Steps {
		outcome := look.OutcomeSymbol(step.Outcome) + " " + look.OutcomeLabel(step.Outcome, l)
		if step.Outcome == assess.Fired {
			outcome = "**" + outcome + "**"
		}
		why := step.Explanation
		if step.Outcome == assess.NotReached {
			why = ""
		}
		fmt.Fprintf(w, "| %d | %s | %s | %s |\n", i+1, mdCell(step.Title), outcome, mdCell(why))
	}
	// The trainer's notes under the table, apart from the book's
	// explanations, each with its step.
	first := true
	for i, step := range wk.Steps {
		if step.Aside == "" || step.Outcome == assess.NotReached {
			continue
		}
		if first {
			fmt.Fprintln(w)
			first = false
		}
		fmt.Fprintf(w, "> %s%s\n", mdLabel(fmt.Sprintf(word("asideOf", l), walk.AsideLabel(l), i+1), l), step.Aside)
	}
	fmt.Fprintf(w, "\n### %s\n\n**%s %s**\n\n", word("verdict", l), wk.Verdict.Symbol, mdCell(wk.Verdict.Headline))
	for _, d := range wk.Verdict.Details {
		if d.Strong {
			fmt.Fprintf(w, "- %s%s\n", mdLabel(d.Label, l), d.Text)
		} else {
			fmt.Fprintf(w, "- %s%s%s\n", d.Label, word("colon", l), d.Text)
		}
	}
	if notes := s.Notes.In(l); notes != "" {
		fmt.Fprintf(w, "\n### %s\n\n%s\n", word("notes", l), notes)
	}
}

// mdCell escapes what would break a Markdown table cell.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
