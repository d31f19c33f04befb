package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/spf13/cobra"

	"toolgate/safefile"
	"toolgate/scenarios"
	"toolgate/termsafe"
)

func newValidate(c *common) *cobra.Command {
	var withCoverage bool
	cmd := &cobra.Command{
		Use:   "validate PATH...",
		Short: "Check scenario files: every problem, as file:line:column: message",
		Long: `Check scenario files and directories (searched for *.yaml, *.yml and *.json): the
syntax, unknown fields and wrong types, and that each expected answer is what toolgate's
core says. An injected line that names a field with a value the input does not have
("effectStatus: unknown" over an input that says read_back), or a value or field name that
is nowhere in the input (timed_out, documentId), is a problem too; prose ("no approval
snapshot") is not checked. Every problem is printed, compiler style, so an editor can jump to
it; then a one-line summary. An id already used by another file, or by a built-in scenario, is a
problem too. Exit status 0 when every file is valid, 1 otherwise.

--coverage then says what the valid scenarios exercise and what they never do: the rule
that decides, codes, statuses, every branch of the rules (each way a rule passes or
fires), audit findings and outcome classes. Without PATHs it covers the built-in set.`,
		Example: `  toolgate validate examples/
  toolgate validate my-course/ extra.yaml
  toolgate validate --coverage my-course/
  toolgate validate --coverage              # the built-in scenarios`,
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			if len(args) == 0 && !withCoverage {
				return &exitError{ExitUsage, errors.New("validate: which files? give files or directories (or --coverage for the built-in set)")}
			}
			if len(args) == 0 {
				lang, err := c.language()
				if err != nil {
					return err
				}
				writeCoverage(out, scenarios.Builtin(), "built-in", lang)
				return nil
			}
			r := scenarios.LoadPaths(args...)
			problems := r.Problems
			if r.Files == 0 && len(problems) == 0 {
				problems = append(problems, scenarios.Problem{File: strings.Join(args, " "),
					Msg: "no scenario files (*.yaml, *.yml, *.json) found"})
			}
			_, clash := scenarios.Combine(scenarios.Builtin(), r.Scenarios)
			for _, p := range clash {
				p.Msg += " (a built-in scenario; rename it, or load with --only)"
				problems = append(problems, p)
				r.Bad++
			}
			for _, s := range r.Scenarios {
				// The injected line against the input: what the text
				// alone can tell (scenarios.InjectedProblems).
				if ip := s.InjectedProblems(); len(ip) > 0 {
					problems = append(problems, ip...)
					r.Bad++
				}
			}
			for _, p := range problems {
				fmt.Fprintln(out, termsafe.Line(p.Error()))
			}
			good := r.Files - r.Bad
			skipped := ""
			if r.Skipped > 0 {
				// Paths that were not read as scenario files: missing,
				// or not regular files. They are neither valid nor bad.
				skipped = fmt.Sprintf("; %d %s skipped", r.Skipped, plural(r.Skipped, "path", "paths"))
			}
			fmt.Fprintf(out, "%d %s checked: %d valid, %d with problems%s (%d %s)\n",
				r.Files, plural(r.Files, "file", "files"), good, r.Bad, skipped, len(problems), plural(len(problems), "problem", "problems"))
			if withCoverage {
				lang, err := c.language()
				if err != nil {
					return err
				}
				fmt.Fprintln(out)
				safeScenarios(r.Scenarios)
				writeCoverage(out, r.Scenarios, termsafe.Line(strings.Join(args, " ")), lang)
			}
			if len(problems) > 0 {
				return &exitError{code: ExitInvalid}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&withCoverage, "coverage", false, "also say which rules, codes, statuses, branches and classes the scenarios exercise, and which never")
	return cmd
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func newNew(c *common) *cobra.Command {
	var track string
	cmd := &cobra.Command{
		Use:   "new [FILE]",
		Short: "Write a commented scenario file to start from",
		Long: `Write a commented scenario file for a track (admission by default) to FILE, or to
standard output without one. It validates as it is; change it, then run toolgate validate.
An existing FILE is never overwritten.`,
		Example: `  toolgate new my-course/expired-approval.yaml
  toolgate new --track audit > my-course/late-result.yaml`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := scenarios.ParseTrack(track)
			var data []byte
			if err == nil {
				data, err = scenarios.Template(t)
			}
			if err != nil {
				return &exitError{ExitUsage, fmt.Errorf("--track: %w", err)}
			}
			if len(args) == 0 {
				_, err := cmd.OutOrStdout().Write(data)
				return err
			}
			if err := writeNew(args[0], data); err != nil {
				return &exitError{ExitInvalid, err}
			}
			fmt.Fprintf(c.env.Stderr, "toolgate: wrote %s; check it with: toolgate validate %s\n", args[0], args[0])
			return nil
		},
	}
	cmd.Flags().StringVar(&track, "track", scenarios.TrackAdmission.String(), "the track: admission, audit or outcome")
	completeFlag(cmd, "track", c.completeTrack)
	return cmd
}

// writeNew writes a new file whole or not at all, never over an existing
// one (safefile.WriteNew: the file gets its name only once written and
// synced, and a name that exists makes it fail).
func writeNew(name string, data []byte) error {
	err := safefile.WriteNew(name, data, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s already exists; toolgate new does not overwrite", name)
	}
	return err
}
