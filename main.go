// Command toolgate is a terminal trainer for one question every AI-agent
// harness must answer: the model has named a tool and its arguments — before
// anything runs, may this call go ahead, and what does that answer NOT prove?
package main

import (
	"fmt"
	"os"

	"github.com/charmbracelet/x/term"

	"toolgate/assess"
	"toolgate/cli"
	"toolgate/progress"
	"toolgate/tui"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], cli.Env{
		Stdin:       os.Stdin,
		Stdout:      os.Stdout,
		Stderr:      os.Stderr,
		Getenv:      os.Getenv,
		Environ:     os.Environ(),
		StdoutIsTTY: term.IsTerminal(os.Stdout.Fd()),
		StdinIsTTY:  term.IsTerminal(os.Stdin.Fd()),
		RunTUI:      runTUI,
	}))
}

// runTUI starts the trainer with the learner's saved progress, unless
// --no-save keeps it in memory.
func runTUI(o cli.TUIOptions) error {
	theme, err := tui.ParseTheme(o.Theme)
	if err != nil {
		return err
	}
	opts := tui.Options{Scenarios: o.Scenarios, Lang: o.Lang, Track: o.Track, Scenario: o.Scenario,
		Step: o.Step, Theme: theme, Present: o.Present, Quiz: o.Quiz}
	if !o.NoSave {
		store := progress.Store{Path: progress.DefaultPath()}
		p, notice, err := store.Load()
		if err != nil {
			// The file could not even be kept aside: say so and go on
			// without saving rather than overwrite it.
			fmt.Fprintln(os.Stderr, "toolgate:", err)
		} else {
			opts.Progress, opts.Notice, opts.Save = p, notice, store.Serial()
			if l, err := assess.ParseLang(p.Lang); err == nil && !o.LangGiven {
				opts.Lang = l
			}
		}
	}
	return tui.Run(opts)
}
