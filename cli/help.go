package cli

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"toolgate/look"
)

// The help is toolgate's own, not fang's: fang lays it out at 120
// columns whenever it cannot see a terminal (a pipe, a file), with
// trailing spaces, and cuts what does not fit — an example, a flag's
// description — mid-word. Here it is laid out for the width there is
// (the terminal's, else 80), wrapped, never cut, without trailing
// spaces; headings are bold on a terminal only.

// helpWidth is the width help is laid out for: the terminal's (at most
// 100: longer lines read badly), else 80.
func (e *Env) helpWidth() int {
	if e.StdoutIsTTY && e.Width > 0 {
		return min(e.Width, 100)
	}
	if n, err := strconv.Atoi(e.Getenv("COLUMNS")); err == nil && n >= 40 {
		return min(n, 100)
	}
	return 80
}

// helpRequest reports whether args ask for help, and for which command:
// "help [COMMAND...]", or -h/--help among a command's flags (not after
// "--", nor among the arguments of a command that stops reading flags at
// its first argument, as check does). An unknown help topic is an error.
func helpRequest(root *cobra.Command, args []string) (*cobra.Command, bool, error) {
	if len(args) > 0 && args[0] == "help" {
		topic := args[1:]
		if len(topic) == 0 {
			return root, true, nil
		}
		c, rest, err := root.Find(topic)
		if err != nil || len(rest) > 0 || c == root {
			return nil, true, usageError{fmt.Errorf("help %s: no such command (toolgate help lists them)", strconv.Quote(strings.Join(topic, " ")))}
		}
		return c, true, nil
	}
	c, _, err := root.Find(args)
	if err != nil {
		c = root
	}
	// Skip the command's own name(s), then look at its flags.
	depth := 0
	for p := c; p != root && p != nil; p = p.Parent() {
		depth++
	}
	seen := 0
	for _, a := range args {
		switch {
		case a == "--":
			return nil, false, nil
		case a == "-h" || a == "--help":
			return c, true, nil
		case !strings.HasPrefix(a, "-"):
			if seen < depth {
				seen++
				continue
			}
			if !c.Flags().HasAvailableFlags() || !interspersed(c) {
				return nil, false, nil
			}
		}
	}
	return nil, false, nil
}

// interspersed reports whether a command reads flags after its first
// argument (cobra's default; check does not, and says so with the
// annotation flagsBeforeArgs, as pflag cannot be asked).
func interspersed(c *cobra.Command) bool { return c.Annotations[flagsBeforeArgs] == "" }

// flagsBeforeArgs annotates a command that reads flags only before its
// first argument (SetInterspersed(false)).
const flagsBeforeArgs = "toolgate/flags-before-args"

// writeHelp writes a command's help: what it does, its usage, its
// examples, its commands and its flags, for width columns.
func (e *Env) writeHelp(w io.Writer, c *cobra.Command, width int) error {
	// Headings are bold and coloured where styles are drawn (a terminal,
	// or CLICOLOR_FORCE); NO_COLOR keeps the bold.
	profile := e.stdoutProfile()
	heading := lipgloss.NewStyle().Bold(true)
	if !e.noColor() {
		heading = heading.Foreground(look.DarkPalette().Accent)
	}
	bold := func(s string) string { return heading.Render(s) }
	w = colorWriter(w, profile)
	var b strings.Builder
	line := func(s string) { b.WriteString(strings.TrimRight(s, " ") + "\n") }
	text := cmpOr(c.Long, c.Short)
	for i, para := range strings.Split(text, "\n\n") {
		if i > 0 {
			line("")
		}
		for _, l := range strings.Split(para, "\n") {
			if leadingSpace(l) != "" {
				line("  " + l) // a table or a list, laid out as written
				continue
			}
			for _, wl := range wrapWords(l, width-2) {
				line("  " + wl)
			}
		}
	}
	line("")
	line(bold("USAGE"))
	for _, wl := range wrapCommand(c.UseLine(), width-4) {
		line("  " + wl)
	}
	if ex := strings.TrimRight(c.Example, "\n"); ex != "" {
		line("")
		line(bold("EXAMPLES"))
		for _, l := range strings.Split(ex, "\n") {
			for _, wl := range wrapCommand(strings.TrimLeft(l, " \t"), width-4) {
				line("  " + wl)
			}
		}
	}
	if subs := visibleCommands(c); len(subs) > 0 {
		line("")
		line(bold("COMMANDS"))
		var names []string
		for _, s := range subs {
			names = append(names, s.Name())
		}
		writeColumns(line, names, func(i int) string { return subs[i].Short }, width)
	}
	var flags []*pflag.Flag
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			flags = append(flags, f)
		}
	})
	c.InheritedFlags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			flags = append(flags, f)
		}
	})
	if len(flags) > 0 {
		line("")
		line(bold("FLAGS"))
		slices.SortFunc(flags, func(a, b *pflag.Flag) int { return strings.Compare(a.Name, b.Name) })
		var names []string
		for _, f := range flags {
			n := "--" + f.Name
			if f.Shorthand != "" {
				n = "-" + f.Shorthand + " " + n
			}
			names = append(names, n)
		}
		writeColumns(line, names, func(i int) string { return flagText(flags[i]) }, width)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// flagText is a flag's description with its default, when it has one
// worth saying and the description does not say it already.
func flagText(f *pflag.Flag) string {
	d := f.Usage
	if r, size := utf8.DecodeRuneInString(d); size > 0 {
		d = string(unicode.ToUpper(r)) + d[size:] // a sentence, as the rest of the help
	}
	def := f.DefValue
	switch {
	case def == "" || def == "false" || def == "0" || def == "[]" || strings.Contains(d, "default"):
	default:
		d += " (" + def + ")"
	}
	return d
}

// writeColumns writes names with their texts beside them; a text that
// does not fit wraps under itself, and beside a long name it starts on
// the next line.
func writeColumns(line func(string), names []string, text func(i int) string, width int) {
	col := 0
	for _, n := range names {
		col = max(col, len(n))
	}
	col = min(col, 28)
	textWidth := max(width-col-6, 20)
	for i, n := range names {
		lines := wrapWords(text(i), textWidth)
		if len(lines) == 0 {
			lines = []string{""}
		}
		if len(n) > col {
			line("  " + n)
			for _, l := range lines {
				line("  " + strings.Repeat(" ", col+2) + l)
			}
			continue
		}
		line("  " + n + strings.Repeat(" ", col-len(n)+2) + lines[0])
		for _, l := range lines[1:] {
			line("  " + strings.Repeat(" ", col+2) + l)
		}
	}
}

// wrapWords wraps text at spaces to width cells; a word longer than the
// width stands alone on its line, whole.
func wrapWords(text string, width int) []string {
	var out []string
	cur := ""
	for _, word := range strings.Fields(text) {
		switch {
		case cur == "":
			cur = word
		case ansi.StringWidth(cur)+1+ansi.StringWidth(word) <= width:
			cur += " " + word
		default:
			out = append(out, cur)
			cur = word
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// wrapCommand wraps a command line as a shell reads it: each line but the
// last ends with " \", and the rest is indented; a "#" comment stays
// with the line it ends.
func wrapCommand(cmdline string, width int) []string {
	if ansi.StringWidth(cmdline) <= width {
		return []string{cmdline}
	}
	words := strings.Fields(cmdline)
	var out []string
	cur, indent := "", ""
	for i, word := range words {
		if strings.HasPrefix(word, "#") {
			// A comment: the rest of the line, kept together.
			rest := strings.Join(words[i:], " ")
			if cur != "" && ansi.StringWidth(cur)+1+ansi.StringWidth(rest) > width {
				out = append(out, cur)
				cur = indent + "    "
			} else if cur != "" {
				cur += " "
			}
			cur += rest
			break
		}
		switch {
		case cur == "":
			cur = indent + word
		case ansi.StringWidth(cur)+1+ansi.StringWidth(word)+2 <= width:
			cur += " " + word
		default:
			out = append(out, cur+" \\")
			indent = "    "
			cur = indent + word
		}
	}
	return append(out, cur)
}

func visibleCommands(c *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() {
			out = append(out, s)
		}
	}
	return out
}

func leadingSpace(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
