package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/scenarios"
	"toolgate/walk"
)

func newNotes(c *common) *cobra.Command {
	var scenario string
	cmd := &cobra.Command{
		Use:   "notes",
		Short: "Print a lecturer's talking points for one scenario or all, in Markdown",
		Long: `Print what a lecturer needs to present a scenario: the story, the question to ask the
room, the walk step by step, the verdict and what it does NOT prove, and the scenario's own
notes — Markdown, ready to paste into lecture notes. On a terminal it is shown styled
(glamour; GLAMOUR_STYLE picks the style); redirected or piped it is the Markdown itself.`,
		Example: `  toolgate notes --scenario 4
  toolgate notes --track audit --lang zh > audit-notes.md
  toolgate --scenarios my-course notes --only`,
		Args:              cobra.NoArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, _ []string) error {
			lang, err := c.language()
			if err != nil {
				return err
			}
			list, err := c.pick("notes", scenario)
			if err != nil {
				return err
			}
			out, flush := c.env.markdownOut(cmd.OutOrStdout())
			for i, s := range list {
				if i > 0 {
					fmt.Fprint(out, "\n---\n\n")
				}
				writeNotes(out, s, lang)
				if s.Track() == scenarios.TrackAdmission && (i+1 == len(list) || list[i+1].Track() != s.Track()) {
					// Seed 000's non-goals, once after the admission
					// scenarios: what the decision the room just walked
					// does not do.
					fmt.Fprint(out, "\n---\n\n")
					writeNonGoals(out, lang)
				}
			}
			return flush()
		},
	}
	cmd.Flags().StringVar(&scenario, "scenario", "", "only this scenario (number in --track, or id)")
	cmd.Flags().StringVar(&c.track, "track", "", "only this track: admission, audit or outcome")
	completeFlag(cmd, "scenario", c.completeScenario)
	completeFlag(cmd, "track", c.completeTrack)
	return cmd
}

var noteWords = map[string][2]string{
	"story":    {"Story", "故事"},
	"ask":      {"Ask the room first", "先问全场"},
	"askRule":  {"Which rule fires, and with which code? (Answer: rule %d, %s — %s.)", "哪条规则会触发，代码是什么？（答案：规则 %d，%s——%s。）"},
	"askAudit": {"Which diagnostics does the audit report? (Answer: %s.)", "审计会报告哪些诊断？（答案：%s。）"},
	"askClass": {"Which class of outcome is this, and what may the caller do next? (Answer: %s.)", "这是哪一类结果，调用方下一步可以做什么？（答案：%s。）"},
	"walk":     {"The walk", "判断过程"},
}

func noteWord(key string, l assess.Lang) string { return noteWords[key][l] }

func writeNotes(w io.Writer, s scenarios.Scenario, l assess.Lang) {
	wk := walk.Of(s, l)
	fmt.Fprintf(w, "## %s · %s %d · %s\n\n", s.Track().Title(l), word("scenario", l), s.Number, s.Title.In(l))
	if story := s.Story.In(l); story != "" {
		fmt.Fprintf(w, "%s%s\n\n", mdLabel(noteWord("story", l), l), story)
	}
	var ask string
	switch r := wk.Result.(type) {
	case walk.AdmissionAnswer:
		ask = fmt.Sprintf(noteWord("askRule", l), wk.Decisive, "`"+r.Verdict.CodeName()+"`", wk.Steps[wk.Decisive-1].Title)
	case walk.AuditAnswer:
		ask = fmt.Sprintf(noteWord("askAudit", l), wk.Verdict.Short)
	case walk.OutcomeAnswer:
		ask = fmt.Sprintf(noteWord("askClass", l), "`"+r.Class.String()+"`")
	}
	fmt.Fprintf(w, "%s%s\n\n", mdLabel(noteWord("ask", l), l), ask)
	if c := wk.Check; c != nil {
		// The first layer, toolgate's: a scenario's input always
		// passes it, and the room should know it is not the book's.
		fmt.Fprintf(w, "%s%s\n\n", mdLabel(c.Title, l), c.Explanation)
	}
	fmt.Fprintf(w, "%s\n\n", strings.TrimSpace(mdLabel(noteWord("walk", l), l)))
	for i, st := range wk.Steps {
		switch st.Outcome {
		case assess.NotReached:
			fmt.Fprintf(w, "%d. %s — %s\n", i+1, st.Title, st.Explanation)
			continue
		case assess.Fired:
			fmt.Fprintf(w, "%d. **%s — %s**%s%s\n", i+1, st.Title, look.OutcomeLabel(st.Outcome, l), word("colon", l), st.Explanation)
		case assess.Passed:
			fmt.Fprintf(w, "%d. %s — %s%s%s\n", i+1, st.Title, look.OutcomeLabel(st.Outcome, l), word("colon", l), st.Explanation)
		}
		if st.Aside != "" {
			// Nested under its step, apart from the book's explanation.
			fmt.Fprintf(w, "   - %s%s\n", mdLabel(walk.AsideLabel(l), l), st.Aside)
		}
	}
	fmt.Fprintf(w, "\n%s%s %s\n\n", mdLabel(word("verdict", l), l), wk.Verdict.Symbol, wk.Verdict.Headline)
	for _, d := range wk.Verdict.Details {
		if d.Strong {
			fmt.Fprintf(w, "- %s%s\n", mdLabel(d.Label, l), d.Text)
		} else {
			fmt.Fprintf(w, "- %s%s%s\n", d.Label, word("colon", l), d.Text)
		}
	}
	if notes := s.Notes.In(l); notes != "" {
		fmt.Fprintf(w, "\n%s%s\n", mdLabel(word("notes", l), l), notes)
	}
}
