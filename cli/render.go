package cli

import (
	"fmt"
	"io"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/scenarios"
	"toolgate/walk"
)

// words are the command line's fixed texts, in English and Chinese.
var words = map[string][2]string{
	"scenario": {"Scenario", "场景"},
	"injected": {"Injected", "注入重点"},
	"verdict":  {"Verdict", "判断"},
	"inputs":   {"Inputs", "输入"},
	"field":    {"Field", "字段"},
	"value":    {"Value", "值"},
	"step":     {"Step", "步骤"},
	"outcome":  {"Outcome", "结果"},
	"why":      {"Why", "说明"},
	"colon":    {": ", "："},
	"notes":    {"Lecturer notes", "讲师备注"},
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
	track := ""
	tracks := 0
	for _, s := range all {
		if s.Track != track {
			tracks++
			track = s.Track
		}
	}
	track = ""
	for _, s := range all {
		if tracks > 1 && s.Track != track {
			if track != "" {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "%s (--track %s)\n", scenarios.TrackTitle(s.Track, l), s.Track)
			track = s.Track
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
	for i, step := range wk.Steps {
		mark := look.OutcomeSymbol(step.Outcome) + " " + look.OutcomeWord(step.Outcome, l)
		head := fmt.Sprintf("  %d %s  %s", i+1, pad(mark, 14), step.Title)
		switch step.Outcome {
		case assess.Fired:
			fmt.Fprintln(w, tone.Render(head))
			fmt.Fprintln(w, "      "+step.Explanation)
		case assess.Passed:
			fmt.Fprintln(w, head)
			fmt.Fprintln(w, st.dim.Render("      "+step.Explanation))
		default:
			fmt.Fprintln(w, st.dim.Render(head))
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
	if s.Track == scenarios.TrackAdmission {
		writePathText(w, st, s.Input, l)
	}
}

// pad pads s with spaces to a display width.
func pad(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-lipgloss.Width(s)))
}

func writeTraceMarkdown(w io.Writer, s scenarios.Scenario, l assess.Lang) {
	wk := walk.Of(s, l)
	fmt.Fprintf(w, "## %s %d · %s\n\n", word("scenario", l), s.Number, s.Title.In(l))
	if story := s.Story.In(l); story != "" {
		fmt.Fprintf(w, "%s\n\n", story)
	}
	if inj := s.Injected.In(l); inj != "" {
		fmt.Fprintf(w, "**%s%s**%s\n\n", word("injected", l), strings.TrimRight(word("colon", l), " "), inj)
	}
	fmt.Fprintf(w, "### %s\n\n| %s | %s |\n|---|---|\n", word("inputs", l), word("field", l), word("value", l))
	for _, f := range wk.Fields {
		val := "`" + f.Value + "`"
		if f.Absent {
			val = look.Absent(l)
		}
		fmt.Fprintf(w, "| `%s` | %s |\n", f.Path, mdCell(val))
	}
	fmt.Fprintf(w, "\n### %s\n\n| # | %s | %s | %s |\n|---|---|---|---|\n",
		wk.Heading, word("step", l), word("outcome", l), word("why", l))
	for i, step := range wk.Steps {
		outcome := look.OutcomeSymbol(step.Outcome) + " " + look.OutcomeWord(step.Outcome, l)
		if step.Outcome == assess.Fired {
			outcome = "**" + outcome + "**"
		}
		why := step.Explanation
		if step.Outcome == assess.NotReached {
			why = ""
		}
		fmt.Fprintf(w, "| %d | %s | %s | %s |\n", i+1, mdCell(step.Title), outcome, mdCell(why))
	}
	fmt.Fprintf(w, "\n### %s\n\n**%s %s**\n\n", word("verdict", l), wk.Verdict.Symbol, mdCell(wk.Verdict.Headline))
	for _, d := range wk.Verdict.Details {
		label := d.Label
		if d.Strong {
			label = "**" + label + "**"
		}
		fmt.Fprintf(w, "- %s%s%s\n", label, word("colon", l), d.Text)
	}
	if notes := s.Notes.In(l); notes != "" {
		fmt.Fprintf(w, "\n### %s\n\n%s\n", word("notes", l), notes)
	}
}

// mdCell escapes what would break a Markdown table cell.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

type detailJSON struct {
	Label  string `json:"label"`
	Text   string `json:"text"`
	Strong bool   `json:"doesNotProve,omitempty"`
}

type walkStepJSON struct {
	Step        int      `json:"step"`
	Title       string   `json:"title"`
	Question    string   `json:"question"`
	Outcome     string   `json:"outcome"`
	Explanation string   `json:"explanation"`
	Reads       []string `json:"reads"`
}

type scenarioJSON struct {
	Number   int            `json:"number"`
	ID       string         `json:"id"`
	Track    string         `json:"track"`
	Title    string         `json:"title"`
	Result   any            `json:"result"`
	Headline string         `json:"headline"`
	Details  []detailJSON   `json:"details"`
	Trace    []walkStepJSON `json:"trace"`
	Input    any            `json:"input"`
	// PathToAllowed is set for admission scenarios (cli/path.go).
	PathToAllowed *pathJSON `json:"pathToAllowed,omitempty"`
}

func writeTraceJSON(w io.Writer, list []scenarios.Scenario, l assess.Lang) error {
	out := make([]scenarioJSON, len(list))
	for i, s := range list {
		wk := walk.Of(s, l)
		sj := scenarioJSON{Number: s.Number, ID: s.ID, Track: s.Track, Title: s.Title.In(l), Headline: wk.Verdict.Headline}
		sj.Result = wk.Result
		switch s.Track {
		case scenarios.TrackAudit:
			sj.Input = s.Audit
		case scenarios.TrackOutcome:
			sj.Input = s.Outcome
		default:
			sj.Input = s.Input
			sj.PathToAllowed = pathToAllowedJSON(s.Input, l)
		}
		for _, d := range wk.Verdict.Details {
			sj.Details = append(sj.Details, detailJSON(d))
		}
		for n, st := range wk.Steps {
			reads := st.Reads
			if reads == nil {
				reads = []string{}
			}
			sj.Trace = append(sj.Trace, walkStepJSON{Step: n + 1, Title: st.Title, Question: st.Question,
				Outcome: st.Outcome.String(), Explanation: st.Explanation, Reads: reads})
		}
		out[i] = sj
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
