package cli

import (
	"fmt"
	"image/color"
	"io"
	"strings"

	"charm.land/fang/v2"
	"charm.land/glamour/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"toolgate/termsafe"
)

// Colour follows the conventions a terminal user expects
// (https://no-color.org, https://bixense.com/clicolors):
//
//   - NO_COLOR set to anything but "" means no colour, whatever else is
//     set; on a terminal bold and the layout stay.
//   - CLICOLOR_FORCE set to anything but "" or "0" means colour even when
//     the output is not a terminal (a pipe into less -R).
//   - Otherwise colour only on a terminal.
//
// The terminal's colours (TERM, COLORTERM) decide how many colours.

// noColor says NO_COLOR is set.
func (e *Env) noColor() bool { return e.Getenv("NO_COLOR") != "" }

// forceColor says CLICOLOR_FORCE asks for colour without a terminal.
func (e *Env) forceColor() bool {
	v := e.Getenv("CLICOLOR_FORCE")
	return v != "" && v != "0"
}

// profile is the colour profile for an output that is a terminal or not.
func (e *Env) profile(isTTY bool) colorprofile.Profile {
	switch {
	case e.noColor() && isTTY:
		return min(e.terminalProfile(), colorprofile.ASCII)
	case e.noColor():
		return colorprofile.NoTTY
	case e.forceColor():
		return max(e.terminalProfile(), colorprofile.ANSI)
	case isTTY:
		return e.terminalProfile()
	}
	return colorprofile.NoTTY
}

// terminalProfile is what the terminal can show, after TERM and
// COLORTERM alone (TERM=dumb: nothing).
func (e *Env) terminalProfile() colorprofile.Profile {
	var env []string
	for _, kv := range e.Environ {
		name, _, _ := strings.Cut(kv, "=")
		if name != "NO_COLOR" && name != "CLICOLOR_FORCE" && name != "CLICOLOR" {
			env = append(env, kv)
		}
	}
	return colorprofile.Env(env)
}

// stdoutProfile is the colour profile of standard output.
func (e *Env) stdoutProfile() colorprofile.Profile { return e.profile(e.StdoutIsTTY) }

// colorWriter writes styled text to w in a profile: colours downsampled
// or dropped, and with NoTTY every escape sequence taken out.
func colorWriter(w io.Writer, p colorprofile.Profile) *colorprofile.Writer {
	return &colorprofile.Writer{Forward: w, Profile: p}
}

// colorScheme is fang's colours for help and errors; with NO_COLOR, none
// (bold and the layout stay). fang decides whether its output is a
// terminal itself (CLICOLOR_FORCE included); NO_COLOR wins here even
// where colorprofile would let CLICOLOR_FORCE through.
func (e *Env) colorScheme(c lipgloss.LightDarkFunc) fang.ColorScheme {
	if !e.noColor() {
		return fang.DefaultColorScheme(c)
	}
	none := lipgloss.NoColor{}
	return fang.ColorScheme{Base: none, Title: none, Description: none, Codeblock: none, Program: none,
		DimmedArgument: none, Comment: none, Flag: none, FlagDefault: none, Command: none, QuotedString: none,
		Argument: none, Help: none, Dash: none, ErrorHeader: [2]color.Color{none, none}, ErrorDetails: none}
}

// styledErrors says errors are drawn with fang's styles (a header, the
// message, a hint) rather than as one "toolgate: ..." line: on a
// terminal, or when CLICOLOR_FORCE asks for colour.
func (e *Env) styledErrors() bool {
	return e.profile(e.StderrIsTTY) > colorprofile.NoTTY
}

// reportError says what went wrong on stderr: one "toolgate: ..." line
// (and a hint for usage errors) for scripts and logs, fang's styled block
// on a terminal.
func (e *Env) reportError(styles *fang.Styles, err error, usage bool) {
	// An error may quote what came from outside (a file, a tool list).
	msg := termsafe.Text(err.Error())
	if styles == nil || !e.styledErrors() {
		fmt.Fprintln(e.Stderr, "toolgate:", msg)
		if usage {
			fmt.Fprintln(e.Stderr, "Run 'toolgate --help' for usage.")
		}
		return
	}
	w := colorWriter(e.Stderr, e.profile(e.StderrIsTTY))
	fmt.Fprintln(w, styles.ErrorHeader.String())
	// The message as written: fang would capitalise its first word,
	// which is at times a command or a flag.
	text := styles.ErrorText.UnsetTransform()
	if e.Width > 0 {
		text = text.Width(max(20, e.Width-4))
	}
	fmt.Fprintln(w, text.Render(msg))
	fmt.Fprintln(w)
	if usage {
		fmt.Fprintln(w, lipgloss.JoinHorizontal(lipgloss.Left,
			styles.ErrorText.UnsetWidth().Render("Try"),
			styles.Program.Flag.Render(" toolgate --help "),
			styles.ErrorText.UnsetWidth().UnsetMargins().UnsetTransform().Render("for usage.")))
		fmt.Fprintln(w)
	}
}

// markdownOut is where a command that writes Markdown (notes, trace
// --format md) writes it: on a terminal through glamour, styled and
// wrapped to the terminal's width; anywhere else the Markdown itself,
// byte for byte, for files, pipes and the CommonMark tests. flush renders
// what was written; it must be called once at the end.
func (e *Env) markdownOut(w io.Writer) (io.Writer, func() error) {
	if !e.StdoutIsTTY {
		return w, func() error { return nil }
	}
	var md strings.Builder
	return &md, func() error {
		out, err := e.renderMarkdown(md.String())
		if err != nil {
			// Better the Markdown than nothing.
			_, werr := io.WriteString(w, md.String())
			return werr
		}
		_, err = io.WriteString(colorWriter(w, e.stdoutProfile()), out)
		return err
	}
}

// renderMarkdown styles Markdown for this terminal: GLAMOUR_STYLE if set
// (as glow reads it), else glamour's dark or light style after the
// terminal's background.
func (e *Env) renderMarkdown(md string) (string, error) {
	style := e.Getenv("GLAMOUR_STYLE")
	if style == "" {
		style = "dark"
		if e.DarkBackground != nil && !e.DarkBackground() {
			style = "light"
		}
	}
	width := 100
	if e.Width > 0 {
		width = min(e.Width-2, 120)
	}
	r, err := glamour.NewTermRenderer(glamour.WithStylePath(style), glamour.WithWordWrap(max(width, 20)))
	if err != nil {
		return "", err
	}
	return r.Render(md)
}

// reflowHelp joins the lines of every command's long help back into
// paragraphs, so that fang wraps them to the terminal's width instead of
// breaking them again where the source was wrapped. A paragraph with an
// indented line (a table, an example) is kept as written.
func reflowHelp(cmd *cobra.Command) {
	cmd.Long = reflow(cmd.Long)
	for _, sub := range cmd.Commands() {
		reflowHelp(sub)
	}
}

func reflow(text string) string {
	paras := strings.Split(text, "\n\n")
	for i, p := range paras {
		lines := strings.Split(p, "\n")
		indented := false
		for _, l := range lines {
			if strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") {
				indented = true
			}
		}
		if !indented {
			paras[i] = strings.Join(lines, " ")
		}
	}
	return strings.Join(paras, "\n\n")
}
