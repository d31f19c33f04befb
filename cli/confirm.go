package cli

import (
	"errors"
	"fmt"
	"io"

	"charm.land/huh/v2"
)

// confirm asks a yes-or-no question before something that cannot be
// undone; No is the default. Every confirmation of the command line goes
// through here: huh's confirm on the terminal (y, n, ←/→ and Enter), or,
// when ACCESSIBLE is set (or TERM=dumb), huh's accessible prompt: the
// question on a line of its own, answered by typing y or n and Enter —
// what a screen reader reads and a log keeps. Ctrl+C, or the end of the
// input, means No.
//
// verb names what asks ("progress --reset"); yesFlag names the flag that
// answers yes beforehand: with standard
// input not a terminal nobody can answer, and the command refuses rather
// than take a pipe's first line for a person's answer.
func (c *common) confirm(verb, question, yesFlag string) (bool, error) {
	if !c.env.StdinIsTTY {
		return false, &exitError{ExitUsage, fmt.Errorf("%s asks first, and standard input is not a terminal: give %s to go ahead without asking", verb, yesFlag)}
	}
	ok := false
	form := huh.NewForm(huh.NewGroup(huh.NewConfirm().Title(question).Affirmative("Yes").Negative("No").Value(&ok))).
		WithInput(c.env.Stdin).WithShowHelp(true)
	// The form is drawn on the terminal: stdout if it is one, else
	// stderr; with neither, and in accessible mode, it is lines.
	var screen io.Writer
	switch {
	case c.env.StdoutIsTTY:
		screen = c.env.Stdout
	case c.env.StderrIsTTY:
		screen = c.env.Stderr
	}
	if c.env.Getenv("ACCESSIBLE") != "" || screen == nil {
		form = form.WithAccessible(true).WithOutput(colorWriter(c.env.Stdout, c.env.stdoutProfile()))
	} else {
		form = form.WithOutput(screen)
	}
	if err := form.Run(); err != nil {
		if errors.Is(err, huh.ErrUserAborted) {
			return false, nil
		}
		return false, &exitError{ExitInvalid, fmt.Errorf("asking %q: %w", question, err)}
	}
	return ok, nil
}
