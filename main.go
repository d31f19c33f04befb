// Command toolgate is a terminal trainer for one question every AI-agent
// harness must answer: the model has named a tool and its arguments — before
// anything runs, may this call go ahead, and what does that answer NOT prove?
package main

import (
	"os"

	"github.com/charmbracelet/x/term"

	"toolgate/cli"
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
		RunTUI: func(o cli.TUIOptions) error {
			theme, err := tui.ParseTheme(o.Theme)
			if err != nil {
				return err
			}
			return tui.Run(tui.Options{Scenarios: o.Scenarios, Lang: o.Lang, Track: o.Track, Scenario: o.Scenario,
				Step: o.Step, Theme: theme, Present: o.Present})
		},
	}))
}
