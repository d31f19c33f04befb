package cli

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/spf13/cobra"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/progress"
)

func (c *common) progressStore() progress.Store {
	if c.env.ProgressPath != "" {
		return progress.Store{Path: c.env.ProgressPath}
	}
	return progress.Store{Path: progress.DefaultPath()}
}

func newProgress(c *common) *cobra.Command {
	var reset, yes bool
	var format string
	cmd := &cobra.Command{
		Use:   "progress",
		Short: "Show your self-study progress, or reset it",
		Long: `Show the progress the trainer keeps between runs, track by track: each scenario by
number and title, whether it was walked to its verdict, and its quiz answer — the last one
given, which is the one that counts: a right answer is a point, the right rule with the wrong
code half a point — with a bar per track. It lives in $XDG_STATE_HOME/toolgate/progress.json
(by default ~/.local/state/toolgate/). --format json writes the same counts for scripts
(docs/output.schema.json, progressReport).

--reset clears it after asking on the terminal (y or n; with ACCESSIBLE set, a plain line
prompt); without a terminal to ask on it needs --yes.`,
		Example: `  toolgate progress
  toolgate progress --lang zh
  toolgate progress --format json | jq .points
  toolgate progress --reset
  toolgate progress --reset --yes`,
		Args:              cobra.NoArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			store := c.progressStore()
			if reset {
				if !yes {
					ok, err := c.confirm("progress --reset", fmt.Sprintf("Reset the progress in %s?", store.Path), "--yes")
					if err != nil {
						return err
					}
					if !ok {
						fmt.Fprintln(out, "Kept.")
						return nil
					}
				}
				if err := store.Reset(); err != nil {
					return &exitError{ExitInvalid, err}
				}
				fmt.Fprintln(out, "Progress reset.")
				return nil
			}
			lang, err := c.language()
			if err != nil {
				return err
			}
			f, err := parseListFormat(format)
			if err != nil {
				return err
			}
			p, notice, err := store.Load()
			if err != nil {
				return &exitError{ExitInvalid, err}
			}
			if notice != "" {
				fmt.Fprintln(c.env.Stderr, "toolgate:", notice)
			}
			all, err := c.scenarioSet()
			if err != nil {
				return err
			}
			doc := progressDoc(store.Path, p, all, lang)
			if f == formatJSON {
				return writeJSONDocument(out, doc)
			}
			writeProgress(out, doc, lang)
			writeLearnProgress(out, p, lang) // the exercise track and the practice: cli/learn.go
			return nil
		},
	}
	cmd.Flags().BoolVar(&reset, "reset", false, "clear the progress (asks first)")
	cmd.Flags().BoolVar(&yes, "yes", false, "with --reset: do not ask (needed when standard input is not a terminal)")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	completeFormat(cmd, "text", "json")
	return cmd
}

var progressWords = map[string][2]string{
	"in":       {"Progress in %s", "进度文件：%s"},
	"walked":   {"walked", "已走完"},
	"notYet":   {"—", "—"},
	"track":    {"%d of %d walked", "已走完 %d/%d"},
	"quiz":     {"quiz %s of %d answered", "测验 %s 分，已答 %d 题"},
	"total":    {"Quiz score: %s of %d, counting the answer kept for each scenario (a right one is a point, the right rule with the wrong code half a point)", "测验得分：%s/%d，每个场景只算保留的那次回答（答对得 1 分，规则对而代码错得半分）"},
	"said":     {"said %s", "回答 %s"},
	"decided":  {"decided %s", "实际 %s"},
	"caveatOK": {"what it does NOT prove: right", "不能推导的内容：答对"},
	"caveatNo": {"what it does NOT prove: wrong", "不能推导的内容：答错"},
	"other":    {"Scenarios not loaded now", "当前未加载的场景"},
	"last":     {"Last open: %s", "上次打开：%s"},
	"language": {"Language: %s", "语言：%s"},
	"rule":     {"rule %s, %s", "规则 %s，%s"},
	"sep":      {"; ", "；"},
	"none":     {"Nothing yet: no scenario walked, no quiz answered.", "还没有进度：没有走完的场景，也没有回答过测验。"},
}

func progressWord(key string, l assess.Lang) string { return progressWords[key][l] }

// writeProgress shows the progress as progressDoc counts it, track by
// track, in a language.
func writeProgress(w io.Writer, doc progressJSON, l assess.Lang) {
	fmt.Fprintf(w, progressWord("in", l)+"\n", doc.File)
	if doc.empty() {
		fmt.Fprintln(w, progressWord("none", l))
	}
	titleWidth, trackWidth := 0, 0
	for _, t := range doc.Tracks {
		trackWidth = max(trackWidth, lipgloss.Width(t.Text["title"]))
		for _, s := range t.Scenarios {
			titleWidth = max(titleWidth, lipgloss.Width(s.Text["title"]))
		}
	}
	stateWidth := lipgloss.Width(progressWord("walked", l))
	for _, t := range doc.Tracks {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "%s  %s  %s · %s\n", pad(t.Text["title"], trackWidth), bar(t.Walked, t.Total, 20),
			fmt.Sprintf(progressWord("track", l), t.Walked, t.Total), fmt.Sprintf(progressWord("quiz", l), points(halves(t.Points)), t.Answered))
		for _, s := range t.Scenarios {
			state := progressWord("notYet", l)
			if s.Walked {
				state = progressWord("walked", l)
			}
			line := fmt.Sprintf("  %2d  %s  %s", s.Number, pad(s.Text["title"], titleWidth), pad(state, stateWidth))
			if s.Answer != nil {
				line += "  " + answerText(*s.Answer, l)
			}
			fmt.Fprintln(w, strings.TrimRight(line, " "))
		}
	}
	if len(doc.Unloaded) > 0 {
		fmt.Fprintf(w, "\n%s\n", progressWord("other", l))
		for _, it := range doc.Unloaded {
			line := "  " + it.ID
			if it.Walked {
				line += "  " + progressWord("walked", l)
			}
			if it.Answer != nil {
				line += "  " + answerText(*it.Answer, l)
			}
			fmt.Fprintln(w, line)
		}
	}
	fmt.Fprintf(w, "\n"+progressWord("total", l)+"\n", points(halves(doc.Points)), doc.Answered)
	if doc.Last != "" {
		last := doc.Last
		for _, t := range doc.Tracks {
			for _, s := range t.Scenarios {
				if s.ID == doc.Last {
					last = fmt.Sprintf("%s · %s %d · %s", t.Text["title"], word("scenario", l), s.Number, s.Text["title"])
				}
			}
		}
		fmt.Fprintf(w, progressWord("last", l)+"\n", last)
	}
	if doc.LastLang != "" {
		fmt.Fprintf(w, progressWord("language", l)+"\n", doc.LastLang)
	}
}

// halves is a score in points (whole or half) in half points.
func halves(points float64) int { return int(points * 2) }

// points writes half points as a number: "4", "4½", "½".
func points(halves int) string {
	s := strconv.Itoa(halves / 2)
	if halves%2 == 1 {
		if halves == 1 {
			return "½"
		}
		s += "½"
	}
	return s
}

// bar is a plain progress bar of width cells, done of total filled.
func bar(done, total, width int) string {
	filled := 0
	if total > 0 {
		filled = done * width / total
	}
	return strings.Repeat("█", filled) + strings.Repeat("░", width-filled)
}

// answerText is one kept answer: right (✓), half a point (½) or wrong
// (✗), what was said and what decided, and the "does NOT prove" answer.
func answerText(a progress.Answer, l assess.Lang) string {
	mark := look.No
	switch {
	case a.Right:
		mark = look.Yes
	case a.Half:
		mark = "½"
	}
	s := mark + " " + fmt.Sprintf(progressWord("said", l), localAnswer(a.Said, l))
	if !a.Right {
		s += progressWord("sep", l) + fmt.Sprintf(progressWord("decided", l), localAnswer(a.Decided, l))
	}
	switch a.Caveat {
	case "right":
		s += progressWord("sep", l) + progressWord("caveatOK", l)
	case "wrong":
		s += progressWord("sep", l) + progressWord("caveatNo", l)
	}
	return s
}

// ruleAnswer is an answer the trainer saved as "rule 7, approval_missing"
// or "规则 7, approval_missing", in the language of the day it was given.
var ruleAnswer = regexp.MustCompile(`^(?:rule|规则) (\d+)[,，] ?(\S+)$`)

// localAnswer says a saved answer in the learner's language now.
func localAnswer(said string, l assess.Lang) string {
	if m := ruleAnswer.FindStringSubmatch(said); m != nil {
		return fmt.Sprintf(progressWord("rule", l), m[1], m[2])
	}
	return said
}
