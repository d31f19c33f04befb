// Package cli is toolgate's command line: the command tree, flags, output
// formats and exit statuses. It renders what assess and scenarios return;
// the TUI is handed in by main, so this package does not depend on it.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"toolgate/assess"
	"toolgate/scenarios"
)

// Version is toolgate's version.
const Version = "0.1.0"

// Exit statuses.
const (
	ExitOK      = 0
	ExitInvalid = 1 // some input was invalid; every other input was answered
	ExitUsage   = 2 // bad usage, or input that is not JSON
)

// TUIOptions is what the command line hands to the TUI.
type TUIOptions struct {
	Scenarios []scenarios.Scenario
	Lang      assess.Lang
	// Scenario is the number or id to open; "" opens the list.
	Scenario string
	// Step is how many rules to reveal at start (0: none).
	Step int
}

// Env is the outside world the command line sees: streams, environment,
// whether stdout and stdin are terminals, and how to start the TUI.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Environ        []string
	StdoutIsTTY    bool
	StdinIsTTY     bool
	RunTUI         func(TUIOptions) error
}

// exitError carries an exit status up to Run.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

// Run runs toolgate with args (without the program name) and returns the
// exit status.
func Run(args []string, env Env) int {
	root := newRoot(&env)
	root.SetArgs(args)
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(env.Stderr, "toolgate:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(env.Stderr, "toolgate:", err)
	fmt.Fprintln(env.Stderr, "Run 'toolgate --help' for usage.")
	return ExitUsage
}

// common holds the flags every command shares.
type common struct {
	env  *Env
	lang string
}

func (c *common) language() (assess.Lang, error) {
	if c.lang != "" {
		l, err := assess.ParseLang(c.lang)
		if err != nil {
			return l, &exitError{ExitUsage, fmt.Errorf("--lang: %w", err)}
		}
		return l, nil
	}
	return LangFromEnv(c.env.Getenv), nil
}

// LangFromEnv picks the language from the locale variables, in POSIX
// precedence (LC_ALL, then LC_MESSAGES, then LANG); English when none names
// Chinese.
func LangFromEnv(getenv func(string) string) assess.Lang {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(name); v != "" {
			l, _ := assess.ParseLang(v)
			return l
		}
	}
	return assess.English
}

func newRoot(env *Env) *cobra.Command {
	c := &common{env: env}
	var scenario string
	var step int
	root := &cobra.Command{
		Use:   "toolgate",
		Short: "A trainer for admitting an AI agent's tool call, one rule at a time",
		Long: `toolgate walks the admission decision an agent harness makes before a tool runs:
the model has named a tool and its arguments — may this call go ahead? It shows the
8-rule order one rule at a time, which condition fired, and what the verdict does NOT prove.

With no command, on a terminal, toolgate starts the interactive trainer.`,
		Example: `  toolgate                        # the interactive trainer
  toolgate --scenario 4 --step 3  # open scenario 4 with three rules revealed
  toolgate list                   # the scenarios
  toolgate trace 4                # scenario 4's walk, rule by rule
  toolgate assess input.jsonl     # one verdict per JSON input`,
		Version:       Version + " (" + runtime.Version() + ")",
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			lang, err := c.language()
			if err != nil {
				return err
			}
			all, err := scenarios.Builtin()
			if err != nil {
				return &exitError{ExitInvalid, err}
			}
			if step < 0 || step > assess.NumRules+1 {
				return &exitError{ExitUsage, fmt.Errorf("--step %d: want 0 to %d", step, assess.NumRules+1)}
			}
			if scenario != "" {
				if _, ok := scenarios.Find(all, scenario); !ok {
					return &exitError{ExitUsage, fmt.Errorf("--scenario %q: no such scenario (see 'toolgate list')", scenario)}
				}
			}
			if !env.StdoutIsTTY || !env.StdinIsTTY || env.RunTUI == nil {
				fmt.Fprintln(env.Stderr, "toolgate: the trainer needs a terminal; here are the commands that work without one:")
				fmt.Fprintln(env.Stderr)
				cmd.SetOut(env.Stderr)
				_ = cmd.Usage()
				return &exitError{code: ExitUsage}
			}
			return env.RunTUI(TUIOptions{Scenarios: all, Lang: lang, Scenario: scenario, Step: step})
		},
	}
	root.SetVersionTemplate("toolgate {{.Version}}\n")
	root.PersistentFlags().StringVar(&c.lang, "lang", "", "language: en or zh (default from LC_ALL, LC_MESSAGES, LANG)")
	root.Flags().StringVar(&scenario, "scenario", "", "open this scenario (number or id)")
	root.Flags().IntVar(&step, "step", 0, "with --scenario: take this many steps at start (one a rule, then the verdict)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &exitError{ExitUsage, err}
	})
	root.AddCommand(newList(c), newTrace(c), newAssess(c))
	return root
}

func newList(c *common) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the scenarios, one a line",
		Example: `  toolgate list
  toolgate list --lang zh`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			lang, err := c.language()
			if err != nil {
				return err
			}
			all, err := scenarios.Builtin()
			if err != nil {
				return &exitError{ExitInvalid, err}
			}
			writeList(cmd.OutOrStdout(), all, lang)
			return nil
		},
	}
}

func newTrace(c *common) *cobra.Command {
	var all bool
	var format string
	cmd := &cobra.Command{
		Use:   "trace [N|ID]",
		Short: "Show a scenario's walk through the decision order, rule by rule",
		Long: `Show a scenario's walk through the 8-rule decision order: for each rule, whether it
passed, fired or was not reached, with an explanation built from the scenario's values;
then the verdict and what it does NOT prove.

Colour is used only when stdout is a terminal and NO_COLOR is not set.`,
		Example: `  toolgate trace 4
  toolgate trace write-without-approval --lang zh
  toolgate trace --all --format md > handout.md
  toolgate trace 6 --format json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lang, err := c.language()
			if err != nil {
				return err
			}
			f, err := parseFormat(format)
			if err != nil {
				return err
			}
			list, err := scenarios.Builtin()
			if err != nil {
				return &exitError{ExitInvalid, err}
			}
			switch {
			case all && len(args) > 0:
				return &exitError{ExitUsage, errors.New("trace: give a scenario or --all, not both")}
			case !all && len(args) == 0:
				return &exitError{ExitUsage, errors.New("trace: which scenario? give its number or id, or --all (see 'toolgate list')")}
			case !all:
				s, ok := scenarios.Find(list, args[0])
				if !ok {
					return &exitError{ExitUsage, fmt.Errorf("trace: no scenario %q (see 'toolgate list')", args[0])}
				}
				list = []scenarios.Scenario{s}
			}
			return writeTraces(c.env, cmd.OutOrStdout(), list, f, lang)
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "every scenario")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, md or json")
	return cmd
}

type format int

const (
	formatText format = iota
	formatMarkdown
	formatJSON
)

func parseFormat(s string) (format, error) {
	switch strings.ToLower(s) {
	case "text", "txt":
		return formatText, nil
	case "md", "markdown":
		return formatMarkdown, nil
	case "json":
		return formatJSON, nil
	}
	return 0, &exitError{ExitUsage, fmt.Errorf("--format %q: want text, md or json", s)}
}

func newAssess(c *common) *cobra.Command {
	var trace bool
	cmd := &cobra.Command{
		Use:   "assess [FILE|-]",
		Short: "Decide JSON inputs: one compact JSON verdict a line",
		Long: `Read one JSON input, or a stream of them (JSON Lines), in the shape of SPEC §1, and
write exactly one compact JSON verdict per input, one a line, in order.

An input that is JSON but not a valid input gets a line {"error":"..."} naming the line and
the field, and the rest are still answered; the exit status is then 1. Text that is not JSON
stops the stream with its line and column on stderr, exit status 2. With no FILE, or with -,
toolgate reads standard input.`,
		Example: `  toolgate assess input.json
  toolgate assess inputs.jsonl > verdicts.jsonl
  echo '{"contract":{"tools":[]},"request":{"correlationId":"r1","tool":{"name":"x"}}}' | toolgate assess
  toolgate assess --trace --lang zh input.json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lang, err := c.language()
			if err != nil {
				return err
			}
			in, name := c.env.Stdin, "-"
			if len(args) == 1 && args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					return &exitError{ExitUsage, err}
				}
				defer f.Close()
				in, name = f, args[0]
			}
			if c.env.Getenv("GOGC") == "" {
				// A stream allocates many small, short-lived values; with
				// the default GOGC=100 the young heap is collected every
				// few milliseconds. 400 trades about 10 MB for a quarter
				// more throughput (README, "Performance").
				debug.SetGCPercent(400)
			}
			return assessStream(in, name, cmd.OutOrStdout(), trace, lang)
		},
	}
	cmd.Flags().BoolVar(&trace, "trace", false, "add the rule-by-rule trace to each verdict")
	return cmd
}
