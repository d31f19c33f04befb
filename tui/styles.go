package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"

	"toolgate/look"
)

// Theme chooses the colours.
type Theme int

// Themes. ThemeAuto asks the terminal for its background colour;
// ThemeHighContrast is for projectors and low vision: bold, no dim greys,
// strong colours, and (as everywhere) a symbol for every state.
const (
	ThemeAuto Theme = iota
	ThemeDark
	ThemeLight
	ThemeHighContrast
)

// ParseTheme reads a theme's name: dark, light, high-contrast (or auto).
func ParseTheme(s string) (Theme, error) {
	switch s {
	case "", "auto":
		return ThemeAuto, nil
	case "dark":
		return ThemeDark, nil
	case "light":
		return ThemeLight, nil
	case "high-contrast", "contrast":
		return ThemeHighContrast, nil
	}
	return ThemeAuto, fmt.Errorf("unknown theme %q (want dark, light or high-contrast)", s)
}

// Styles is every style the trainer uses, grouped by area.
type Styles struct {
	palette look.Palette
	Header  struct{ App, Tab, Right lipgloss.Style }
	List    struct{ Title, Item, Selected, Code lipgloss.Style }
	Walk    struct {
		Title, Story, Heading, Question, Explain, Hint lipgloss.Style
		Passed, Fired, NotReached, Pending             lipgloss.Style
	}
	Inputs struct {
		Title, Section, Label, Value, Absent, Marked, MarkedValue lipgloss.Style
	}
	Verdict struct{ Box, Label lipgloss.Style }
	Column  lipgloss.Style
	Dim     lipgloss.Style
	// Hint is a line that says what a key does or that there is more.
	Hint lipgloss.Style
	Help help.Styles
}

func newStyles(theme Theme, dark bool) Styles {
	p := look.LightPalette()
	if dark {
		p = look.DarkPalette()
	}
	contrast := theme == ThemeHighContrast
	if contrast {
		p = look.HighContrastPalette(dark)
	}
	var s Styles
	s.palette = p
	// Line styles are inline: no borders, margins or alignment, which
	// keeps them cheap; paint applies one to text of several lines.
	plain := lipgloss.NewStyle().Inline(true)
	if contrast {
		plain = plain.Bold(true)
	}
	dim := plain.Foreground(p.Dim)
	if contrast {
		dim = plain // no dim greys
	}
	s.Dim = dim
	s.Header.App = plain.Bold(true).Foreground(p.Accent)
	s.Header.Right = dim
	s.Header.Tab = plain.Bold(true)
	s.List.Title = plain.Bold(true)
	s.List.Item = plain
	s.List.Selected = plain.Bold(true).Foreground(p.Accent)
	s.List.Code = dim
	s.Walk.Title = plain.Bold(true)
	s.Walk.Story = plain
	s.Walk.Heading = plain.Bold(true)
	s.Walk.Question = dim.Italic(true)
	s.Walk.Explain = plain
	s.Walk.Hint = dim.Italic(true)
	s.Walk.Passed = dim
	s.Walk.Fired = plain.Bold(true)
	s.Walk.NotReached = dim
	s.Walk.Pending = dim
	s.Inputs.Title = plain.Bold(true)
	s.Inputs.Section = plain.Bold(true)
	s.Inputs.Label = dim
	s.Inputs.Value = plain
	s.Inputs.Absent = dim.Italic(true)
	s.Inputs.Marked = plain.Bold(true).Foreground(p.Accent)
	s.Inputs.MarkedValue = plain.Bold(true).Foreground(p.Accent)
	s.Verdict.Box = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1)
	s.Verdict.Label = plain.Bold(true)
	s.Column = plain
	s.Hint = dim.Italic(true)
	s.Help = helpStyles(p, contrast)
	return s
}

// helpStyles are the footer's and the ? help's. They are block styles, not
// inline ones (an inline style would join the help's columns onto one
// line), and their colours are the palette's, which keep at least 4.5:1
// against the background (7:1 in high contrast): bubbles' default greys
// are 2.1–2.5:1, too faint on a projector.
func helpStyles(p look.Palette, contrast bool) help.Styles {
	base := lipgloss.NewStyle()
	if contrast {
		base = base.Bold(true)
	}
	key := base.Bold(true).Foreground(p.Accent)
	desc := base.Foreground(p.Dim)
	return help.Styles{
		ShortKey: key, ShortDesc: desc, ShortSeparator: desc, Ellipsis: desc,
		FullKey: key, FullDesc: desc, FullSeparator: desc,
	}
}

// tone styles a verdict's tone: its colour, always with a symbol too.
func (s Styles) tone(t look.Tone) lipgloss.Style {
	return lipgloss.NewStyle().Inline(true).Bold(true).Foreground(s.palette.Tone(t))
}

// paint styles each line of s; an inline style would join them.
func paint(st lipgloss.Style, s string) string {
	if !strings.Contains(s, "\n") {
		return st.Render(s)
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return strings.Join(lines, "\n")
}
