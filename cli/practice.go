package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/spf13/cobra"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/practice"
	"toolgate/scenarios"
)

// maxPractice bounds --count: a worksheet, not a data set.
const maxPractice = 1000

func newPractice(c *common) *cobra.Command {
	var seed uint64
	var count int
	var format string
	cmd := &cobra.Command{
		Use:   "practice [--seed N] [--count K] [--format md|json]",
		Short: "Write fresh practice cases: known scenarios with one change, for a worksheet",
		Long: `Write K fresh practice cases for a lecturer's exercises. Each is one of the admission
scenarios with one small change, drawn by the random input generator of the differential tests
— a field set to a near miss ("Ready", " active", "\u3000"), "" instead of left out, left out,
put in, or a second tool of one name — and a story in English and Chinese that says what
changed, never what it decides. toolgate's core decides every case. The same seed always gives the same cases, on any
machine; the draw is even over the book's codes (the trainer's own practice leans toward the
rules a learner gets wrong).

--format md (the default) writes a Markdown worksheet in --lang, with the answers and
toolgate's reason at the end; --format json writes one JSON line a case:
{"id", "base", "change", "story", "input", "verdict"}, where change is {"path", "op",
"was", "now"} (op "insert" for a tool put in), input is exactly what
'toolgate assess' reads and verdict what it answers.`,
		Example: `  toolgate practice --seed 7 --count 10 > worksheet.md
  toolgate practice --seed 7 --count 10 --lang zh > 练习.md
  toolgate practice --seed 7 --count 100 --format json | jq -c .verdict.code | sort | uniq -c`,
		Args:              cobra.NoArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, _ []string) error {
			lang, err := c.language()
			if err != nil {
				return err
			}
			if count < 1 || count > maxPractice {
				return &exitError{ExitUsage, fmt.Errorf("--count %d: want 1 to %d", count, maxPractice)}
			}
			f, err := parseFormat(format)
			if err != nil || f == formatText {
				return &exitError{ExitUsage, fmt.Errorf("--format %q: want md or json", format)}
			}
			all, err := c.scenarioSet()
			if err != nil {
				return err
			}
			bases := practice.Bases(all)
			if len(bases) == 0 {
				return &exitError{ExitInvalid, fmt.Errorf("practice: no admission scenario to change")}
			}
			cases := practice.Sheet(seed, count, bases)
			if f == formatJSON {
				return writePracticeJSON(cmd.OutOrStdout(), cases)
			}
			writeWorksheet(cmd.OutOrStdout(), seed, cases, lang)
			return nil
		},
	}
	cmd.Flags().Uint64Var(&seed, "seed", 1, "the seed: the same seed gives the same cases")
	cmd.Flags().IntVar(&count, "count", 10, "how many cases")
	cmd.Flags().StringVar(&format, "format", "md", "output format: md (a worksheet) or json (one case a line)")
	completeFormat(cmd, "md", "json")
	return cmd
}

type practiceJSON struct {
	ID      string          `json:"id"`
	Base    string          `json:"base"`
	Change  practice.Change `json:"change"`
	Story   scenarios.Text  `json:"story"`
	Input   jsontext.Value  `json:"input"`
	Verdict assess.Verdict  `json:"verdict"`
}

func writePracticeJSON(w io.Writer, cases []practice.Case) error {
	for i, pc := range cases {
		raw, err := decode.Encode(pc.Input())
		if err != nil {
			return err
		}
		line, err := json.Marshal(practiceJSON{ID: fmt.Sprintf("practice-%d", i+1), Base: pc.Base.ID, Change: pc.Change,
			Story: pc.Scenario.Story, Input: raw, Verdict: pc.Verdict}, json.Deterministic(true))
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "%s\n", line); err != nil {
			return err
		}
	}
	return nil
}

var worksheetWords = map[string][2]string{
	"title":  {"# Practice: which rule decides? (seed %d)", "# 练习：由哪条规则作出判断？（种子 %d）"},
	"intro":  {"Each case is one of toolgate's admission scenarios with one change. Say which rule decides (1–8) and its code; check with `toolgate assess`, or with the answers at the end.", "每个案例都是 toolgate 的一个准入场景，只改了一处。说出由哪条规则作出判断（1–8）以及代码；可以用 `toolgate assess` 检查，或看末尾的答案。"},
	"case":   {"## %d. %s", "## %d. %s"},
	"answer": {"Your answer: rule ___ · code ____________________", "你的答案：规则 ___ · 代码 ____________________"},
	"keys":   {"## Answers", "## 答案"},
	"rule":   {"rule %d", "规则 %d"},
}

// writeWorksheet writes the cases as a Markdown worksheet, the answers
// and toolgate's reason for each at the end.
func writeWorksheet(w io.Writer, seed uint64, cases []practice.Case, l assess.Lang) {
	ww := func(k string) string { return worksheetWords[k][l] }
	fmt.Fprintf(w, ww("title")+"\n\n%s\n", seed, ww("intro"))
	for i, pc := range cases {
		fmt.Fprintf(w, "\n"+ww("case")+"\n\n%s\n\n```json\n%s\n```\n\n%s\n", i+1, pc.Scenario.Title.In(l), pc.Scenario.Story.In(l),
			worksheetJSON(pc.Input()), ww("answer"))
	}
	fmt.Fprintf(w, "\n%s\n\n", ww("keys"))
	for i, pc := range cases {
		in := pc.Input()
		v, trace := assess.Explain(&in)
		fired := trace.Fired()
		fmt.Fprintf(w, "%d. %s · `%s` / `%s` — %s\n", i+1, fmt.Sprintf(ww("rule"), fired.Rule), v.Status, v.CodeName(), fired.Explanation(l))
	}
}

// worksheetJSON is an input as JSON for a page: a line for each part and
// for each tool, so that a case fits on a screen and the change can be
// found.
func worksheetJSON(in assess.Input) string {
	enc := func(v any) string {
		b, err := json.Marshal(v, json.Deterministic(true))
		if err != nil {
			return "null"
		}
		return string(b)
	}
	var b strings.Builder
	b.WriteString("{\n  \"contract\": {")
	if v, ok := in.Contract.Version.Get(); ok {
		fmt.Fprintf(&b, "\"version\": %s, ", enc(v))
	}
	b.WriteString("\"tools\": [")
	for i, t := range in.Contract.Tools {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    " + enc(t))
	}
	if len(in.Contract.Tools) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]},\n")
	parts := []string{"  \"request\": " + enc(in.Request), "  \"environment\": " + enc(in.Environment)}
	if in.Approval != nil {
		parts = append(parts, "  \"approval\": "+enc(in.Approval))
	}
	if in.InvocationRecord != nil {
		parts = append(parts, "  \"invocationRecord\": "+enc(in.InvocationRecord))
	}
	b.WriteString(strings.Join(parts, ",\n"))
	b.WriteString("\n}")
	return b.String()
}
