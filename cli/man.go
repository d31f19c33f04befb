package cli

import (
	"fmt"
	"strings"

	mcobra "github.com/muesli/mango-cobra"
	"github.com/muesli/roff"
	"github.com/spf13/cobra"
)

// newMan is `toolgate man`: the manual page, in roff, on standard output
// (fang's own writes to the process's stdout, around the checked writer,
// so it is switched off and this one takes its place).
func newMan() *cobra.Command {
	return &cobra.Command{
		Use:   "man",
		Short: "Print the manual page (roff): toolgate man | man -l -",
		Long: `Print toolgate's manual page in roff, built from the commands and flags themselves,
with the environment variables, exit statuses and files. Read it with "toolgate man | man -l -",
or install it: toolgate man > ~/.local/share/man/man1/toolgate.1`,
		Example: `  toolgate man | man -l -
  toolgate man > ~/.local/share/man/man1/toolgate.1 && man toolgate`,
		Args:              cobra.NoArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, _ []string) error {
			page, err := manPage(cmd.Root())
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(cmd.OutOrStdout(), page)
			return err
		},
	}
}

// manPage is the manual page of a command tree.
func manPage(root *cobra.Command) (string, error) {
	page, err := mcobra.NewManPage(1, root)
	if err != nil {
		return "", err
	}
	// roff starts a paragraph at every line break: the help's lines are
	// joined back into paragraphs.
	page = page.WithLongDescription(paragraphs(root.Long)).
		WithSection("Environment", manEnvironment()).
		WithSection("Exit Status", strings.Join([]string{
			"* 0: done.",
			"* 1: some input was invalid; every other input was answered.",
			"* 2: bad usage, or text that is not JSON.",
			"* 3: the output could not be written (a full disk, a closed pipe).",
		}, "\n")).
		WithSection("Files", strings.Join([]string{
			"* $XDG_STATE_HOME/toolgate/progress.json (by default ~/.local/state/toolgate/progress.json): the self-study progress (toolgate progress).",
			"* $XDG_STATE_HOME/toolgate/host_ed25519: the SSH host key of toolgate serve, made on first start.",
		}, "\n")).
		WithSection("See Also", "ssh(1); the README and docs/ of toolgate's source: the scenario format, the JSON output schema, the coverage report.")
	text := page.Build(roff.NewDocument())
	// mango puts the one-line description in the page's header, where it
	// runs over the title: the header gets the version and the usual
	// "User Commands" instead.
	if first, rest, ok := strings.Cut(text, "\n"); ok && strings.HasPrefix(first, ".TH ") {
		fields := strings.SplitN(first, `"`, 3)
		if len(fields) == 3 {
			text = fmt.Sprintf(`.TH TOOLGATE 1 "%s" "toolgate %s" "User Commands"`, fields[1], roffQuoted(root.Version)) + "\n" + rest
		}
	}
	return text, nil
}

// roffQuoted is text fit for a quoted argument of a roff request.
func roffQuoted(s string) string {
	return strings.NewReplacer(`"`, "", `\`, `\e`).Replace(s)
}

// manEnvironment lists every variable toolgate reads.
func manEnvironment() string {
	lines := []string{
		"* LC_ALL, LC_MESSAGES, LANG: the language when --lang is not given (Chinese for a locale starting with zh).",
		"* NO_COLOR: no colour, whatever else is set (bold stays on a terminal).",
		"* CLICOLOR_FORCE: colour even when the output is not a terminal (not with NO_COLOR); Markdown stays Markdown.",
		"* ACCESSIBLE: the accessible line mode (as --plain), and plain-line confirmation prompts.",
		"* TOOLGATE_SCENARIOS: the lecturer's scenario files and directories, separated by the path list separator (as --scenarios).",
		"* XDG_STATE_HOME: where the progress and the host key are kept.",
		"* VISUAL, EDITOR: the editor the trainer opens a scenario file in (E).",
		"* GLAMOUR_STYLE: the style of Markdown on a terminal (notes, trace --format md): dark, light, dracula, ... or a JSON style file.",
		"* TEA_TRACE: a file Bubble Tea logs the trainer's frames and input to (appended, mode 0600), for debugging.",
		"* TEA_DEBUG: when true, a crash of the trainer also leaves bubbletea-panic-TIME.log in the working directory.",
	}
	for _, s := range serveSettings {
		lines = append(lines, fmt.Sprintf("* %s: toolgate serve --%s.", s.env, s.flag))
	}
	return strings.Join(lines, "\n")
}

// paragraphs joins a help text's lines into paragraphs, one a line.
func paragraphs(text string) string {
	var out []string
	for _, p := range strings.Split(strings.TrimSpace(text), "\n\n") {
		out = append(out, strings.Join(strings.Fields(p), " "))
	}
	return strings.Join(out, "\n")
}
