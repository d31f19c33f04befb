package cli

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"toolgate/assess"
	"toolgate/scenarios"
)

// Shell completion (toolgate completion bash|zsh|fish|powershell) offers
// the values a flag takes and the scenarios a command opens; a command
// that takes no file offers none.

// themes are the trainer's --theme values (tui.ParseTheme).
var themes = []string{"dark", "light", "high-contrast"}

// values completes a flag from a fixed list, without files.
func values(choices ...cobra.Completion) cobra.CompletionFunc {
	return cobra.FixedCompletions(choices, cobra.ShellCompDirectiveNoFileComp)
}

// completeFlag registers a flag's completion; a flag a command does not
// have is a programming error.
func completeFlag(cmd *cobra.Command, flag string, f cobra.CompletionFunc) {
	if err := cmd.RegisterFlagCompletionFunc(flag, f); err != nil {
		panic(err)
	}
}

// completeTrack offers the tracks, each with its title.
func (c *common) completeTrack(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	l := c.completionLang()
	var out []cobra.Completion
	for _, t := range scenarios.Tracks {
		out = append(out, cobra.CompletionWithDesc(t.String(), t.Title(l)))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeScenario offers the scenarios a command can open: their numbers
// in the track (--track, else admission), then their ids (in --track, or
// in every track: an id finds a scenario in any), with titles. The
// lecturer's --scenarios are loaded too; nothing is said on stderr.
func (c *common) completeScenario(_ *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	all, _, err := c.loadSet()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	l := c.completionLang()
	track, err := c.trackFlag()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	numbered := track
	if numbered == 0 {
		numbered = scenarios.TrackAdmission
	}
	var out []cobra.Completion
	add := func(value, desc string) {
		// Shells filter by what was typed too; filtering here keeps
		// the answer short.
		if strings.HasPrefix(value, prefix) {
			out = append(out, cobra.CompletionWithDesc(value, desc))
		}
	}
	for _, s := range scenarios.InTrack(all, numbered) {
		add(strconv.Itoa(s.Number), s.Title.In(l))
	}
	for _, s := range all {
		if track == 0 || s.Track() == track {
			add(s.ID, s.Track().Title(l)+" "+strconv.Itoa(s.Number)+": "+s.Title.In(l))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completionLang is the language of the descriptions: --lang when it is
// right, else the locale.
func (c *common) completionLang() assess.Lang {
	l, err := c.language()
	if err != nil {
		return assess.English
	}
	return l
}

// completeFormat offers the --format values of a command.
func completeFormat(cmd *cobra.Command, formats ...cobra.Completion) {
	completeFlag(cmd, "format", values(formats...))
}
