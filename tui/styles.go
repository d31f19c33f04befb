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
	Header  struct{ App, Tab, Right ink }
	List    struct{ Title, Item, Selected, Code ink }
	Walk    struct {
		Title, Story, Heading, Question, Explain, Hint ink
		Passed, NotReached, Pending                    ink
	}
	Inputs struct {
		Title, Section, Label, Value, Absent, Marked, MarkedValue ink
	}
	Verdict struct {
		Box   lipgloss.Style
		Label ink
	}
	Dim ink
	// Hint is a line that says what a key does or that there is more.
	Hint  ink
	Help  help.Styles
	tones map[look.Tone]ink
}

// ink is an inline style whose escape codes are worked out once: painting
// a line is then two concatenations, where lipgloss' Render measures,
// wraps and joins on every call (it was 40% of a frame). It is for one
// line of text; text of several lines goes to the style itself.
type ink struct {
	lipgloss.Style
	pre, post string
}

func inkOf(st lipgloss.Style) ink {
	pre, post, _ := strings.Cut(st.Render("\x00"), "\x00")
	return ink{Style: st, pre: pre, post: post}
}

// Render paints one line as the style would.
func (k ink) Render(strs ...string) string {
	s := strings.Join(strs, " ")
	if strings.ContainsAny(s, "\n\r") {
		return k.Style.Render(s)
	}
	return k.pre + s + k.post
}

// Bold derives an ink, as lipgloss' Bold does a style.
func (k ink) Bold(v bool) ink { return inkOf(k.Style.Bold(v)) }

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
	s.tones = map[look.Tone]ink{}
	for _, t := range []look.Tone{0, look.ToneGood, look.ToneBad, look.ToneHold, look.ToneUnknown} {
		s.tones[t] = inkOf(lipgloss.NewStyle().Inline(true).Bold(true).Foreground(p.Tone(t)))
	}
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
	s.Dim = inkOf(dim)
	s.Header.App = inkOf(plain.Bold(true).Foreground(p.Accent))
	s.Header.Right = inkOf(dim)
	s.Header.Tab = inkOf(plain.Bold(true))
	s.List.Title = inkOf(plain.Bold(true))
	s.List.Item = inkOf(plain)
	s.List.Selected = inkOf(plain.Bold(true).Foreground(p.Accent))
	s.List.Code = inkOf(dim)
	s.Walk.Title = inkOf(plain.Bold(true))
	s.Walk.Story = inkOf(plain)
	s.Walk.Heading = inkOf(plain.Bold(true))
	s.Walk.Question = inkOf(dim.Italic(true))
	s.Walk.Explain = inkOf(plain)
	s.Walk.Hint = inkOf(dim.Italic(true))
	s.Walk.Passed = inkOf(dim)
	s.Walk.NotReached = inkOf(dim)
	s.Walk.Pending = inkOf(dim)
	s.Inputs.Title = inkOf(plain.Bold(true))
	s.Inputs.Section = inkOf(plain.Bold(true))
	s.Inputs.Label = inkOf(dim)
	s.Inputs.Value = inkOf(plain)
	s.Inputs.Absent = inkOf(dim.Italic(true))
	s.Inputs.Marked = inkOf(plain.Bold(true).Foreground(p.Accent))
	s.Inputs.MarkedValue = inkOf(plain.Bold(true).Foreground(p.Accent))
	s.Verdict.Box = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1)
	s.Verdict.Label = inkOf(plain.Bold(true))
	s.Hint = inkOf(dim.Italic(true))
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
func (s Styles) tone(t look.Tone) ink {
	if k, ok := s.tones[t]; ok {
		return k
	}
	return inkOf(lipgloss.NewStyle().Inline(true).Bold(true).Foreground(s.palette.Tone(t)))
}

// paint styles each line of s; an inline style would join them.
func paint(st ink, s string) string {
	if !strings.Contains(s, "\n") {
		return st.Render(s)
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return strings.Join(lines, "\n")
}
