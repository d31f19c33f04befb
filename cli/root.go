// Package cli is toolgate's command line: the command tree, flags, output
// formats and exit statuses. It renders what assess and scenarios return;
// the TUI is handed in by main, so this package does not depend on it.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"charm.land/fang/v2"
	"github.com/spf13/cobra"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/plain"
	"toolgate/scenarios"
	"toolgate/termsafe"
)

// Exit statuses.
const (
	ExitOK      = 0
	ExitInvalid = 1 // some input was invalid; every other input was answered
	ExitUsage   = 2 // bad usage, or input that is not JSON
	ExitWrite   = 3 // the output could not be written (a full disk, a closed pipe)
)

// TUIOptions is what the command line hands to the TUI.
type TUIOptions struct {
	Scenarios []scenarios.Scenario
	Lang      assess.Lang
	// Track is the track to open.
	Track scenarios.Track
	// Scenario is the number (in Track) or id to open; "" opens the list.
	Scenario string
	// Step is how many rules to reveal at start (0: none).
	Step int
	// Theme is dark, light, high-contrast or "" (ask the terminal).
	Theme string
	// Present starts the projector layout; Timer counts down in it.
	Present bool
	Timer   time.Duration
	// Quiz starts predict-then-reveal.
	Quiz bool
	// NoSave keeps progress in memory only.
	NoSave bool
	// NoMouse leaves the mouse to the terminal.
	NoMouse bool
	// Dirs are the lecturer's scenario paths; Watch reloads them when they
	// change, through Reload (which loads them again, silently, and says
	// what was wrong).
	Dirs   []string
	Watch  bool
	Reload func() ([]scenarios.Scenario, []string, error)
	// Warnings are what was said on stderr before the trainer started
	// (a scenario file skipped): the trainer shows them again.
	Warnings []string
	// LangGiven says the language came from --lang, not from the locale,
	// so it wins over the language saved in the progress.
	LangGiven bool
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
	// ProgressPath is where self-study progress is kept; "" is the XDG
	// state directory.
	ProgressPath string
	// Serve runs the SSH server (toolgate serve).
	Serve func(ServeOptions) error
	// StderrIsTTY: errors are styled on a terminal, one plain line
	// elsewhere.
	StderrIsTTY bool
	// Width is the terminal's width in cells (stdout's, else stderr's; 0:
	// not known): styled Markdown and errors wrap to it.
	Width int
	// DarkBackground asks the terminal whether its background is dark,
	// for styled Markdown (nil: dark).
	DarkBackground func() bool
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

func (e *exitError) Unwrap() error { return e.err }

// usageError is a command line cobra could not parse (an unknown flag, a
// flag without its value): the message says where to read the usage.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// checkedWriter remembers the first error writing to standard output, so
// that no command can end well when its output was lost (> /dev/full);
// every write after it fails at once.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		c.err = err
	}
	return n, err
}

// fileOut is standard output, checked, that still says which file it
// writes to: fang styles the help only when it sees a terminal.
type fileOut struct {
	*checkedWriter
	fd uintptr
}

func (f fileOut) Fd() uintptr              { return f.fd }
func (f fileOut) Read([]byte) (int, error) { return 0, io.EOF }
func (f fileOut) Close() error             { return nil }

// Run runs toolgate with args (without the program name) and returns the
// exit status.
func Run(args []string, env Env) int {
	out := &checkedWriter{w: env.Stdout}
	env.Stdout = out
	if f, ok := out.w.(interface{ Fd() uintptr }); ok {
		env.Stdout = fileOut{out, f.Fd()}
	}
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	root := newRoot(&env)
	reflowHelp(root)
	root.SetArgs(args)
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	if c, ok, err := helpRequest(root, args); ok {
		if err != nil {
			env.reportError(nil, err, true)
			return ExitUsage
		}
		if err := env.writeHelp(env.Stdout, c, env.helpWidth()); err != nil || out.err != nil {
			fmt.Fprintln(env.Stderr, "toolgate: writing the output:", cmpOr(fmt.Sprint(out.err), fmt.Sprint(err)))
			return ExitWrite
		}
		return ExitOK
	}
	// fang styles the help and errors, and adds completion; the manual
	// page is toolgate's own (newMan), written where the output goes.
	var styles *fang.Styles
	err := fang.Execute(context.Background(), root,
		fang.WithVersion(version()), fang.WithoutManpage(), fang.WithColorSchemeFunc(env.colorScheme),
		fang.WithErrorHandler(func(_ io.Writer, s fang.Styles, _ error) { styles = &s }))
	if out.err != nil && (err == nil || errors.Is(err, out.err)) {
		fmt.Fprintln(env.Stderr, "toolgate: writing the output:", out.err)
		return ExitWrite
	}
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			var ue usageError
			env.reportError(styles, ee.err, errors.As(ee.err, &ue))
		}
		return ee.code
	}
	env.reportError(styles, err, true)
	return ExitUsage
}

// version is toolgate's version, from the build information.
func version() string {
	info, ok := debug.ReadBuildInfo()
	return versionOf(info, ok)
}

// versionOf says a build's version: the module's version (a release tag
// with go install, Go's pseudo-version for a checkout), else "devel";
// then, when it was built from a checkout, the commit, its time and
// whether the tree had uncommitted changes; then the Go release.
func versionOf(info *debug.BuildInfo, ok bool) string {
	v, goVersion := "devel", runtime.Version()
	var rev, when string
	modified := false
	if ok && info != nil {
		if info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
		if info.GoVersion != "" {
			goVersion = info.GoVersion
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	var about []string
	if rev != "" {
		c := "commit " + rev[:min(12, len(rev))]
		if when != "" {
			c += " of " + when
		}
		if modified {
			c += ", modified"
		}
		about = append(about, c)
	}
	return v + " (" + strings.Join(append(about, goVersion), "; ") + ")"
}

// common holds the flags every command shares.
type common struct {
	env   *Env
	lang  string
	track string
	// dirs are the lecturer's scenario files and directories
	// (--scenarios, or TOOLGATE_SCENARIOS); only leaves the built-in ones
	// out.
	dirs []string
	only bool
	// warnings are what loading the scenarios said on stderr, for the
	// trainer to show again once its full screen hides stderr.
	warnings []string
}

// pick loads the scenarios and chooses: with a key (a number in --track,
// admission by default, or an id in any track) that one scenario; without,
// every scenario of --track, or of every track.
func (c *common) pick(verb, key string) ([]scenarios.Scenario, error) {
	track, err := c.trackFlag()
	if err != nil {
		return nil, err
	}
	list, err := c.scenarioSet()
	if err != nil {
		return nil, err
	}
	if key == "" {
		if track != 0 {
			list = scenarios.InTrack(list, track)
		}
		return list, nil
	}
	if track == 0 {
		track = scenarios.TrackAdmission
	}
	s, ok := scenarios.Find(list, track, key)
	if !ok {
		return nil, &exitError{ExitUsage, fmt.Errorf("%s: no scenario %q in track %s (see 'toolgate list')", verb, key, track)}
	}
	return []scenarios.Scenario{s}, nil
}

// scenarioSet loads the built-in scenarios and the lecturer's. A file
// with a problem is reported on stderr and skipped: the rest still load,
// so a typo in one file never takes the lecture down.
func (c *common) scenarioSet() ([]scenarios.Scenario, error) {
	all, problems, err := c.loadSet()
	for _, p := range problems {
		c.warn(p)
	}
	return all, err
}

// scenarioDirs are the lecturer's scenario paths: --scenarios, else
// TOOLGATE_SCENARIOS.
func (c *common) scenarioDirs() []string {
	if len(c.dirs) == 0 {
		if env := c.env.Getenv("TOOLGATE_SCENARIOS"); env != "" {
			return filepath.SplitList(env)
		}
	}
	return c.dirs
}

// loadSet loads the scenarios and says what was wrong, without printing:
// the trainer calls it again when the files change (--watch).
func (c *common) loadSet() ([]scenarios.Scenario, []string, error) {
	dirs := c.scenarioDirs()
	if c.only && len(dirs) == 0 {
		return nil, nil, &exitError{ExitUsage, errors.New("--only: give the scenarios with --scenarios DIR (or TOOLGATE_SCENARIOS)")}
	}
	var builtin []scenarios.Scenario
	if !c.only {
		builtin = scenarios.Builtin()
	}
	if len(dirs) == 0 {
		return builtin, nil, nil
	}
	r := scenarios.LoadPaths(dirs...)
	safeScenarios(r.Scenarios)
	all, dup := scenarios.Combine(builtin, r.Scenarios)
	var said []string
	for _, p := range append(r.Problems, dup...) {
		said = append(said, termsafe.Line(fmt.Sprintf("skipped: %v", p)))
	}
	if len(said) > 0 || r.Files == 0 {
		said = append(said, termsafe.Line(fmt.Sprintf("loaded %d of %d scenario files from %s", len(r.Scenarios)-len(dup), r.Files, strings.Join(dirs, ", "))))
	}
	if len(all) == 0 {
		return nil, said, &exitError{ExitInvalid, errors.New("no scenario loaded")}
	}
	return all, said, nil
}

// warn says something on stderr and keeps it for the trainer.
func (c *common) warn(msg string) {
	msg = termsafe.Line(msg)
	fmt.Fprintln(c.env.Stderr, "toolgate: "+msg)
	c.warnings = append(c.warnings, msg)
}

// trackFlag reads --track; 0, no track, when it was not given.
func (c *common) trackFlag() (scenarios.Track, error) {
	if c.track == "" {
		return 0, nil
	}
	t, err := scenarios.ParseTrack(c.track)
	if err != nil {
		return 0, &exitError{ExitUsage, fmt.Errorf("--track %q: want %s", c.track, scenarios.TrackNames())}
	}
	return t, nil
}

func (c *common) language() (assess.Lang, error) {
	if c.lang != "" {
		l, err := assess.ParseLang(c.lang)
		if err != nil {
			return l, &exitError{ExitUsage, fmt.Errorf("--lang: %w", err)}
		}
		return l, nil
	}
	return assess.LangFromEnv(c.env.Getenv), nil
}

func newRoot(env *Env) *cobra.Command {
	c := &common{env: env}
	var scenario, theme string
	var step int
	var present, quiz, noSave, noMouse, plainMode, watchFiles bool
	var timer time.Duration
	root := &cobra.Command{
		Use:   "toolgate",
		Short: "A trainer for admitting an AI agent's tool call, one rule at a time",
		Long: `toolgate walks the admission decision an agent harness makes before a tool runs:
the model has named a tool and its arguments — may this call go ahead? It shows the
8-rule order one rule at a time, which condition fired, and what the verdict does NOT prove.

With no command, on a terminal, toolgate starts the interactive trainer.`,
		Example: `  toolgate                        # the interactive trainer
  toolgate --scenario 4 --step 3  # open scenario 4 with three rules revealed
  toolgate --present --theme high-contrast  # on the projector
  toolgate --quiz                 # predict, then see the walk
  toolgate list                   # the scenarios
  toolgate trace 4                # scenario 4's walk, rule by rule
  toolgate assess input.jsonl     # one verdict per JSON input`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			lang, err := c.language()
			if err != nil {
				return err
			}
			all, err := c.scenarioSet()
			if err != nil {
				return err
			}
			if watchFiles && len(c.scenarioDirs()) == 0 {
				return &exitError{ExitUsage, errors.New("--watch reloads your scenario files: give them with --scenarios DIR (or TOOLGATE_SCENARIOS)")}
			}
			if timer < 0 || timer > 24*time.Hour {
				return &exitError{ExitUsage, fmt.Errorf("--timer %v: want a duration from 0 to 24h, e.g. 45m", timer)}
			}
			if timer > 0 && !present {
				return &exitError{ExitUsage, errors.New("--timer counts down in the presenter layout: give --present too")}
			}
			if step < 0 || step > assess.NumRules+1 {
				return &exitError{ExitUsage, fmt.Errorf("--step %d: want 0 to %d", step, assess.NumRules+1)}
			}
			if step > 0 && scenario == "" {
				return &exitError{ExitUsage, fmt.Errorf("--step %d takes steps in the scenario --scenario opens: give --scenario too", step)}
			}
			if theme != "" && !slices.Contains(themes, theme) {
				return &exitError{ExitUsage, fmt.Errorf("--theme %q: want %s", theme, strings.Join(themes, ", "))}
			}
			track, err := c.trackFlag()
			if err != nil {
				return err
			}
			if track == 0 {
				track = scenarios.TrackAdmission
			}
			if scenario != "" {
				s, ok := scenarios.Find(all, track, scenario)
				if !ok {
					return &exitError{ExitUsage, fmt.Errorf("--scenario %q: no such scenario in track %s (see 'toolgate list')", scenario, track)}
				}
				track = s.Track()
			}
			if plainMode || env.Getenv("ACCESSIBLE") != "" {
				// The accessible line mode: plain sentences, one step a
				// line typed; it needs no terminal, so it also runs from a
				// script into a log.
				err := plain.Run(env.Stdin, env.Stdout, plain.Options{Scenarios: all, Lang: lang, Track: track, Scenario: scenario, Quiz: quiz})
				if err != nil {
					return &exitError{ExitInvalid, err}
				}
				return nil
			}
			if !env.StdoutIsTTY || !env.StdinIsTTY || env.RunTUI == nil {
				fmt.Fprintln(env.Stderr, "toolgate: the trainer needs a terminal; here are the commands that work without one:")
				fmt.Fprintln(env.Stderr)
				_ = env.writeHelp(env.Stderr, cmd, env.helpWidth())
				return &exitError{code: ExitUsage}
			}
			return env.RunTUI(TUIOptions{Scenarios: all, Lang: lang, Track: track, Scenario: scenario, Step: step,
				Theme: theme, Present: present, Timer: timer, Quiz: quiz, NoSave: noSave, NoMouse: noMouse, LangGiven: c.lang != "", Warnings: c.warnings,
				Dirs: c.scenarioDirs(), Watch: watchFiles, Reload: c.loadSet})
		},
	}
	root.SetVersionTemplate("toolgate {{.Version}}\n")
	root.PersistentFlags().StringVar(&c.lang, "lang", "", "language: en or zh (default from LC_ALL, LC_MESSAGES, LANG)")
	root.PersistentFlags().StringArrayVar(&c.dirs, "scenarios", nil, "load your scenario files from this directory or file too (repeatable; default $TOOLGATE_SCENARIOS)")
	root.PersistentFlags().BoolVar(&c.only, "only", false, "with --scenarios: leave the built-in scenarios out")
	root.Flags().StringVar(&scenario, "scenario", "", "open this scenario (number in the track, or id)")
	root.Flags().StringVar(&c.track, "track", "", "open this track: admission, audit or outcome")
	root.Flags().StringVar(&theme, "theme", "", "colours: dark, light or high-contrast (default: ask the terminal)")
	root.Flags().BoolVar(&present, "present", false, "presenter layout for a projector: big current step, clicker keys, b blanks, c clocks")
	root.Flags().BoolVar(&watchFiles, "watch", false, "reload your scenario files (--scenarios) when they change, keeping your place; E opens the open one in $VISUAL or $EDITOR")
	root.Flags().BoolVar(&plainMode, "plain", false, "accessible line mode: plain sentences, one step for each line typed, no full screen (also when ACCESSIBLE is set)")
	root.Flags().BoolVar(&noMouse, "no-mouse", false, "leave the mouse to the terminal (its own text selection) instead of clicks and the wheel")
	root.Flags().DurationVar(&timer, "timer", 0, "with --present: count the lecture's time down from this (e.g. 45m) beside the elapsed time")
	root.Flags().BoolVar(&quiz, "quiz", false, "predict each verdict before it is revealed, with a score")
	root.Flags().BoolVar(&noSave, "no-save", false, "keep progress in memory only")
	root.Flags().IntVar(&step, "step", 0, "with --scenario: take this many steps at start (one a rule, then the verdict)")
	completeFlag(root, "lang", values("en\tEnglish", "zh\t中文"))
	completeFlag(root, "track", c.completeTrack)
	completeFlag(root, "theme", values(themes...))
	completeFlag(root, "scenario", c.completeScenario)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &exitError{ExitUsage, usageError{err}}
	})
	root.AddCommand(newList(c), newTrace(c), newAssess(c), newAudit(c), newValidate(c), newNew(c), newNotes(c), newProgress(c), newServe(c),
		newImport(c), newVectors(c), newCheck(c), newMan())
	root.AddCommand(newLearn(c))
	root.AddCommand(newPractice(c))
	return root
}

func newList(c *common) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the scenarios, one a line (or as JSON)",
		Long: `List the scenarios: number, id, title and the answer each one walks to, one a line,
track by track. --format json writes the same as one JSON array for scripts, in the schema
of docs/output.schema.json (listDocument).`,
		Example: `  toolgate list
  toolgate list --track audit
  toolgate list --lang zh
  toolgate list --format json | jq -r '.[] | select(.track == "admission") | .id'`,
		Args:              cobra.NoArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, _ []string) error {
			lang, err := c.language()
			if err != nil {
				return err
			}
			f, err := parseListFormat(format)
			if err != nil {
				return err
			}
			all, err := c.pick("list", "")
			if err != nil {
				return err
			}
			if f == formatJSON {
				return writeListJSON(cmd.OutOrStdout(), all, lang)
			}
			writeList(cmd.OutOrStdout(), all, lang)
			return nil
		},
	}
	cmd.Flags().StringVar(&c.track, "track", "", "only this track: admission, audit or outcome")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	completeFlag(cmd, "track", c.completeTrack)
	completeFormat(cmd, "text", "json")
	return cmd
}

// parseListFormat is --format of a listing: text or json.
func parseListFormat(s string) (format, error) {
	f, err := parseFormat(s)
	if err != nil || f == formatMarkdown {
		return 0, &exitError{ExitUsage, fmt.Errorf("--format %q: want text or json", s)}
	}
	return f, nil
}

func newTrace(c *common) *cobra.Command {
	var all bool
	var format string
	cmd := &cobra.Command{
		Use:   "trace [N|ID]",
		Short: "Show a scenario's walk, step by step, and its verdict",
		Long: `Show a scenario's walk. Admission: the 8-rule decision order (each rule
passed, fired or not reached, with an explanation built from the scenario's values), after
toolgate's input check (not the book's); where a careful harness would go further, a
trainer's note, marked as the trainer's. Audit: the input check, the requests, each result,
and the batch end. Outcome: the classification questions. Then the verdict and what it does
NOT prove.

N is the scenario's number in its track (--track, default admission); an id finds it in any
track. --all shows every scenario of --track, or of every track without it.
Colour on a terminal, or when CLICOLOR_FORCE is set; never when NO_COLOR is. With --format md
on a terminal the handout is shown styled; redirected or piped it is the Markdown itself.`,
		Example: `  toolgate trace 4
  toolgate trace write-without-approval --lang zh
  toolgate trace 2 --track audit
  toolgate trace --all --format md > handout.md
  toolgate trace 6 --format json`,
		Args: cobra.MaximumNArgs(1),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if all {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return c.completeScenario(cmd, args, toComplete)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			lang, err := c.language()
			if err != nil {
				return err
			}
			f, err := parseFormat(format)
			if err != nil {
				return err
			}
			switch {
			case all && len(args) > 0:
				return &exitError{ExitUsage, errors.New("trace: give a scenario or --all, not both")}
			case !all && len(args) == 0:
				return &exitError{ExitUsage, errors.New("trace: which scenario? give its number or id, or --all (see 'toolgate list')")}
			}
			key := ""
			if !all {
				key = args[0]
			}
			list, err := c.pick("trace", key)
			if err != nil {
				return err
			}
			return writeTraces(c.env, cmd.OutOrStdout(), list, f, lang)
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "every scenario (of --track, or of every track)")
	cmd.Flags().StringVar(&c.track, "track", "", "the track: admission (default), audit or outcome")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, md or json")
	completeFlag(cmd, "track", c.completeTrack)
	completeFormat(cmd, "text", "md", "json")
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
	var maxValue int
	cmd := &cobra.Command{
		Use:   "assess [FILE|-]",
		Short: "Decide JSON inputs: one compact JSON verdict a line",
		Long: `Read one JSON input, or a stream of them (JSON Lines), in the shape of docs/decision.md §1, and
write exactly one compact JSON verdict per input, one a line, in order: the book's verdict on
every input toolgate's input check accepts.

An input the check refuses (an unknown or duplicate member, a wrong type, null where a string
belongs, text that is not Unicode such as a lone surrogate escape, a missing environment or
requiredArguments, an approval without a status; docs/decision.md §1 lists them all) gets a
line {"error":"...","layer":"input"} naming the line and the member, and the rest are still
answered; the exit status is then 1. So does a value longer
than --max-value bytes (1 MiB by default) or nested more than 1000 levels deep: it is skipped
without being kept. Text that is not JSON stops the stream with its line and column on stderr,
exit status 2. A byte order mark at the start is skipped. With no FILE, or with -, toolgate
reads standard input.`,
		Example: `  toolgate assess input.json
  toolgate assess inputs.jsonl > verdicts.jsonl
  echo '{"contract":{"tools":[]},"request":{"correlationId":"r1","tool":{"name":"x"}},"environment":{}}' | toolgate assess
  toolgate assess --trace --lang zh input.json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lang, err := c.language()
			if err != nil {
				return err
			}
			in, name, closeFn, err := openInput(c.env, args)
			if err != nil {
				return err
			}
			defer closeFn()
			if err := checkMaxValue(maxValue); err != nil {
				return err
			}
			return assessStream(in, name, cmd.OutOrStdout(), trace, lang, maxValue)
		},
	}
	cmd.Flags().BoolVar(&trace, "trace", false, "add the input check and the rule-by-rule trace to each verdict")
	cmd.Flags().IntVar(&maxValue, "max-value", decode.DefaultMaxValue, "the most bytes one input may have; a longer one gets an error line and is skipped")
	return cmd
}

func checkMaxValue(n int) error {
	if n < 1 {
		return &exitError{ExitUsage, fmt.Errorf("--max-value %d: want a number of bytes, at least 1", n)}
	}
	return nil
}

func newAudit(c *common) *cobra.Command {
	var maxValue int
	cmd := &cobra.Command{
		Use:   "audit [FILE|-]",
		Short: "Audit tool batches: do the results match the requests one to one?",
		Long: `Read one batch, or a stream of them (JSON Lines), each
{"requested":[...],"results":[...],"closed":true}, and write one line a batch:
{"diagnostics":[...],"pending":[...]}. Diagnostics are unknown:ID (a result nobody
requested), duplicate:ID (a result seen twice) and missing:ID (a request never answered,
once the batch is closed; while it is open such IDs are pending), sorted as the seed's Java
TreeSet sorts them, by UTF-16 code units. "" is an ID like any other. An absent "closed"
means true: a batch handed over whole — closed means the batch has ended or its deadline has
passed, the only times a missing result can be judged missing.

A request ID listed twice gets a line {"error":"...","layer":"decision"} (the seed's Java
throws); an invalid batch, or one longer than --max-value bytes (1 MiB by default) or nested
more than 1000 levels deep, gets {"error":"...","layer":"input"}. The rest are still
answered, and the exit status is 1. Text that is not
JSON stops the stream with its line and column, exit status 2. With --lang zh the errors are
said in Chinese.`,
		Example: `  echo '{"requested":["A","B"],"results":["A","A","C"]}' | toolgate audit
  toolgate audit batches.jsonl
  toolgate audit --lang zh batches.jsonl`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lang, err := c.language()
			if err != nil {
				return err
			}
			in, name, closeFn, err := openInput(c.env, args)
			if err != nil {
				return err
			}
			defer closeFn()
			if err := checkMaxValue(maxValue); err != nil {
				return err
			}
			a := answerer{newFast: auditFast, slow: auditAnswerIn(lang), lang: lang}
			return answerStream(in, name, cmd.OutOrStdout(), a, maxValue)
		},
	}
	cmd.Flags().IntVar(&maxValue, "max-value", decode.DefaultMaxValue, "the most bytes one batch may have; a longer one gets an error line and is skipped")
	return cmd
}

// openInput opens FILE, or standard input for none or "-".
func openInput(env *Env, args []string) (io.Reader, string, func(), error) {
	if len(args) == 0 || args[0] == "-" {
		return env.Stdin, "-", func() {}, nil
	}
	f, err := os.Open(args[0])
	if err != nil {
		return nil, "", nil, &exitError{ExitUsage, err}
	}
	// A file only read: a close that fails loses nothing.
	return f, args[0], func() { _ = f.Close() }, nil
}
