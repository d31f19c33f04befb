package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"toolgate/assess"
	"toolgate/gatecheck"
	"toolgate/learn"
	"toolgate/look"
	"toolgate/practice"
	"toolgate/progress"
)

func newLearn(c *common) *cobra.Command {
	var once, noSave bool
	var code string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "learn [DIR]",
		Short: "Write the book's decision yourself, checked rule by rule on every save",
		Long: `The exercise track: write the book's assessToolInvocation in your own language and
watch it go from red to green, rule by rule. Start with 'toolgate learn init --lang js DIR';
then run 'toolgate learn DIR' beside your editor.

On every save of your files (told by the system, no polling) toolgate runs your gate through
'toolgate check' over its admission vectors: one line per rule, 1 to 8, with how many of the
vectors that rule decides your gate gets right, then toolgate's own input check as a last,
optional stage. Rules open in order. Below them: the first vector your gate gets wrong — its
input, what your gate said, what was expected — and toolgate's own walk of that input to the
rule that decides it. h gives a hint, then another: the rule's question, the condition on the
fields it reads, the edge that is failing; never code. Your gate is untrusted: it runs under
check's limits (--timeout for each answer, bounded output, stopped when the run ends), and an
error in your code is shown as yours, with the file and line your toolchain names.

--once checks once and prints the same as text: exit status 0 when every decision vector
agrees, 1 when some do not, 2 when the gate cannot be run (it does not build, crashes, hangs,
or its toolchain is missing). Each run is kept in your progress, by language (see 'toolgate
progress'), unless --no-save.`,
		Example: `  toolgate learn init --lang js gate && cd gate
  toolgate learn                 # the watch view: edit assess.mjs, save, see
  toolgate learn --once          # once, as text, for scripts and CI
  toolgate learn --lang zh gate  # hints and texts in Chinese`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			human, err := c.language()
			if err != nil {
				return err
			}
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			if timeout <= 0 {
				return &exitError{ExitUsage, fmt.Errorf("--timeout %s: want a positive duration such as 10s", timeout)}
			}
			var l learn.Lang
			if code != "" {
				l, err = learn.ParseLang(code)
			} else {
				l, err = learn.Detect(dir)
			}
			if err != nil {
				return &exitError{ExitUsage, fmt.Errorf("learn: %w", err)}
			}
			shown := dir
			if abs, err := filepath.Abs(dir); err == nil {
				dir = abs
			}
			save := c.learnSaver(l, noSave)
			cfg := learn.Config{Dir: dir, Lang: l, Timeout: timeout}
			if once {
				ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
				defer stop()
				o := learn.Check(ctx, cfg)
				o.Dir = shown
				b := learn.NewBoard(o)
				learn.WriteText(cmd.OutOrStdout(), b, human)
				if b.State != learn.StateBroken {
					if err := save(b); err != nil {
						fmt.Fprintln(c.env.Stderr, "toolgate: progress not saved:", err)
					}
				}
				switch b.State {
				case learn.StateGreen:
					return nil
				case learn.StateBroken:
					return &exitError{code: ExitUsage}
				case learn.StateRed, learn.StateFailing: // exit 1, below
				}
				return &exitError{code: ExitInvalid}
			}
			if !c.env.StdoutIsTTY || !c.env.StdinIsTTY {
				return &exitError{ExitUsage, errors.New("learn: the watch view needs a terminal; give --once to check once and print the result")}
			}
			return learn.Run(learn.Options{Dir: shown, Lang: l, Human: human, Ask: true, Dark: true, Save: save,
				Check: func(ctx context.Context) learn.Outcome {
					o := learn.Check(ctx, cfg)
					o.Dir = shown
					return o
				}})
		},
	}
	cmd.Flags().BoolVar(&once, "once", false, "check once and print the result as text (exit 0 green, 1 failing, 2 cannot run)")
	cmd.Flags().StringVar(&code, "code", "", "the language of the gate in DIR: js, py, go or java (default: found from its files)")
	cmd.Flags().BoolVar(&noSave, "no-save", false, "keep nothing in the progress")
	cmd.Flags().DurationVar(&timeout, "timeout", gatecheck.DefaultTimeout, "the longest wait for one answer of the gate")
	completeFlag(cmd, "code", values("js\tJavaScript (node)", "py\tPython (python3)", "go\tGo", "java\tJava (javac, java)"))
	cmd.AddCommand(newLearnInit(c))
	return cmd
}

func newLearnInit(c *common) *cobra.Command {
	var lang string
	cmd := &cobra.Command{
		Use:   "init --lang js|py|go|java [DIR]",
		Short: "Write a starter for the exercise track: the decision to fill in, a line harness, the book's tests",
		Long: `Write a small project to start the exercise track in DIR (default: the current
directory; made when missing): the decision with the book's signature and an empty body, the
line harness that turns a JSON input into a call and the answer into a line, the book's seven
tests in the language's own runner, and a README in English and Chinese.

Here --lang is the programming language: js (Node, node:test — the book's own), py (Python 3,
unittest), go (go test) or java (Java 17, no framework). A file that is already there is
yours: it is never overwritten, only listed as kept — so init also puts back a file you
removed.`,
		Example: `  toolgate learn init --lang js gate
  toolgate learn init --lang py
  toolgate learn init --lang java ~/gate-java`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if lang == "" {
				return &exitError{ExitUsage, errors.New("learn init: which language? give --lang js, py, go or java")}
			}
			l, err := learn.ParseLang(lang)
			if err != nil {
				return &exitError{ExitUsage, fmt.Errorf("learn init: --lang: %w", err)}
			}
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			w, err := learn.Init(dir, l)
			out := cmd.OutOrStdout()
			for _, name := range w.New {
				fmt.Fprintf(out, "wrote %s\n", filepath.Join(dir, name))
			}
			for _, name := range w.Kept {
				fmt.Fprintf(out, "kept  %s (yours; not overwritten)\n", filepath.Join(dir, name))
			}
			if err != nil {
				return &exitError{ExitInvalid, fmt.Errorf("learn init: %w", err)}
			}
			if missing := l.Missing(); len(missing) > 0 {
				fmt.Fprintf(c.env.Stderr, "toolgate: %s is not on PATH: install it to run a %s gate\n", strings.Join(missing, ", "), l.Title())
			}
			next := "toolgate learn"
			if dir != "." {
				next += " " + dir
			}
			fmt.Fprintf(out, "\nNext: edit %s, and run '%s' beside your editor.\n", filepath.Join(dir, l.DecisionFile()), next)
			return nil
		},
	}
	// This --lang, the programming language, stands in for the
	// persistent one (the language of the texts) on this command.
	cmd.Flags().StringVar(&lang, "lang", "", "the programming language: js, py, go or java")
	completeFlag(cmd, "lang", values("js\tJavaScript (node:test)", "py\tPython (unittest)", "go\tGo (go test)", "java\tJava 17"))
	return cmd
}

// learnSaver keeps each run of the learner's gate in the progress, by
// language, merged with what other toolgates saved; with noSave it keeps
// nothing.
func (c *common) learnSaver(l learn.Lang, noSave bool) func(learn.Board) error {
	if noSave {
		return func(learn.Board) error { return nil }
	}
	store := c.progressStore()
	loaded, notice, err := store.Load()
	if err != nil {
		fmt.Fprintln(c.env.Stderr, "toolgate:", err, "— progress is not saved")
		return func(learn.Board) error { return nil }
	}
	if notice != "" {
		fmt.Fprintln(c.env.Stderr, "toolgate:", notice)
	}
	var mu sync.Mutex
	p := loaded.Clone()
	serial := store.Serial(loaded)
	return func(b learn.Board) error {
		mu.Lock()
		defer mu.Unlock()
		stages := map[string]progress.Stage{}
		for _, s := range b.Stages {
			stages[learn.StageKey(s.Number)] = progress.Stage{Agree: s.Agree, Total: s.Total}
		}
		p.RecordLearn(l.String(), stages, b.Rules(), b.State == learn.StateGreen)
		p.Seq++
		return serial(p.Clone())
	}
}

var learnProgressWords = map[string][2]string{
	"track":    {"Exercise track (toolgate learn), by language", "练习轨道（toolgate learn），按语言"},
	"green":    {"green", "绿"},
	"rules":    {"rules %d/%d", "规则 %d/%d"},
	"runs":     {"%d runs", "运行 %d 次"},
	"run":      {"%d run", "运行 %d 次"},
	"now":      {"now %s %d/%d", "当前 %s %d/%d"},
	"allPass":  {"last run: every decision vector agrees", "最近一次：每个判断向量都一致"},
	"practice": {"Practice, by rule: Leitner box 1 (drawn most) to 5; %d and up is mastered", "练习，按规则：Leitner 盒子 1（最常抽到）到 5；%d 及以上为已掌握"},
	"box":      {"box %d", "盒子 %d"},
	"never":    {"not practised", "未练习"},
	"mastered": {"mastered %d of %d rules", "已掌握 %d/%d 条规则"},
}

// writeLearnProgress shows the exercise track's runs by language and the
// practice's Leitner boxes by rule; nothing when there are none.
func writeLearnProgress(w io.Writer, p progress.Progress, l assess.Lang) {
	word := func(k string) string { return learnProgressWords[k][l] }
	if len(p.Learn) > 0 {
		fmt.Fprintf(w, "\n%s\n", word("track"))
		for _, lang := range learn.Langs() {
			lp, ok := p.Learn[lang.String()]
			if !ok {
				continue
			}
			parts := []string{fmt.Sprintf(word("rules"), lp.Rules, assess.NumRules), fmt.Sprintf(word(plural(lp.Runs, "run", "runs")), lp.Runs)}
			if lp.Green {
				parts = append([]string{word("green")}, parts...)
			}
			now := word("allPass")
			for n := 1; n <= assess.NumRules; n++ {
				if s, ok := lp.Stages[learn.StageKey(n)]; ok && s.Agree < s.Total {
					now = fmt.Sprintf(word("now"), learn.StageKey(n), s.Agree, s.Total)
					break
				}
			}
			fmt.Fprintf(w, "  %-10s %s · %s\n", lang.Title(), strings.Join(parts, " · "), now)
		}
	}
	if len(p.Practice) > 0 {
		fmt.Fprintf(w, "\n"+word("practice")+"\n", practice.Mastered)
		n := 0
		for _, m := range practice.Rules(p) {
			state := word("never")
			if m.Box > 0 {
				state = fmt.Sprintf(word("box"), m.Box) + fmt.Sprintf("  "+look.Yes+"%d "+look.No+"%d", m.Right, m.Wrong)
			}
			if m.IsMastered() {
				n++
				state += "  " + look.Yes
			}
			fmt.Fprintf(w, "  %d %s  %s\n", m.Rule, pad(m.Rule.Title(l), 26), state)
		}
		fmt.Fprintf(w, "  %s\n", fmt.Sprintf(word("mastered"), n, assess.NumRules))
	}
}
