package cli

import (
	"bufio"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

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
	cmd := &cobra.Command{
		Use:   "progress",
		Short: "Show your self-study progress, or reset it",
		Long: `Show the progress the trainer keeps between runs: the scenarios walked to their
verdict, quiz answers and score, the last scenario open and the language. It lives in
$XDG_STATE_HOME/toolgate/progress.json (by default ~/.local/state/toolgate/). --reset clears
it after asking (or at once with --yes).`,
		Example: `  toolgate progress
  toolgate progress --reset --yes`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			store := c.progressStore()
			if reset {
				if !yes {
					fmt.Fprintf(out, "Reset the progress in %s? [y/N] ", store.Path)
					answer, _ := bufio.NewReader(c.env.Stdin).ReadString('\n')
					if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
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
			p, notice, err := store.Load()
			if err != nil {
				return &exitError{ExitInvalid, err}
			}
			if notice != "" {
				fmt.Fprintln(c.env.Stderr, "toolgate:", notice)
			}
			fmt.Fprintf(out, "Progress in %s\n", store.Path)
			fmt.Fprintf(out, "Walked to the verdict: %d scenarios\n", len(p.Walked))
			for _, id := range p.Walked {
				fmt.Fprintf(out, "  %s\n", id)
			}
			fmt.Fprintf(out, "Quiz score: %d right of %d asked\n", p.Right, p.Asked)
			ids := make([]string, 0, len(p.Quiz))
			for id := range p.Quiz {
				ids = append(ids, id)
			}
			slices.Sort(ids)
			for _, id := range ids {
				a := p.Quiz[id]
				mark := "✓"
				if !a.Right {
					mark = "✗"
				}
				fmt.Fprintf(out, "  %s %s: said %s; decided %s\n", mark, id, a.Said, a.Decided)
			}
			if p.Last != "" {
				fmt.Fprintf(out, "Last open: %s\n", p.Last)
			}
			if p.Lang != "" {
				fmt.Fprintf(out, "Language: %s\n", p.Lang)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&reset, "reset", false, "clear the progress (asks first)")
	cmd.Flags().BoolVar(&yes, "yes", false, "with --reset: do not ask")
	return cmd
}
