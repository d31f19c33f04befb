package learn

import (
	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"

	"toolgate/look"
)

// styles are the watch view's, grouped by area, in the trainer's palette
// (look): a state is never told by colour alone, each has its symbol.
type styles struct {
	App, Right, Dim, Bold, Hint, Label lipgloss.Style
	Stage                              struct{ Pass, Now, Locked lipgloss.Style }
	Step                               struct{ Passed, Fired lipgloss.Style }
	Rule                               lipgloss.Style
	tones                              map[look.Tone]lipgloss.Style
	Help                               help.Styles
}

func newStyles(dark bool) styles {
	p := look.LightPalette()
	if dark {
		p = look.DarkPalette()
	}
	plain := lipgloss.NewStyle()
	var s styles
	s.App = plain.Bold(true).Foreground(p.Accent)
	s.Right = plain.Foreground(p.Dim)
	s.Dim = plain.Foreground(p.Dim)
	s.Bold = plain.Bold(true)
	s.Hint = plain.Italic(true).Foreground(p.Accent)
	s.Label = plain.Foreground(p.Dim)
	s.Stage.Pass = plain.Foreground(p.Green)
	s.Stage.Now = plain.Bold(true).Foreground(p.Red)
	s.Stage.Locked = plain.Foreground(p.Dim)
	s.Step.Passed = plain.Foreground(p.Dim)
	s.Step.Fired = plain.Bold(true)
	s.Rule = plain.Foreground(p.Dim)
	s.tones = map[look.Tone]lipgloss.Style{}
	for _, t := range []look.Tone{look.ToneGood, look.ToneBad, look.ToneHold, look.ToneUnknown} {
		s.tones[t] = plain.Bold(true).Foreground(p.Tone(t))
	}
	key := plain.Bold(true).Foreground(p.Accent)
	desc := plain.Foreground(p.Dim)
	s.Help = help.Styles{ShortKey: key, ShortDesc: desc, ShortSeparator: desc, Ellipsis: desc,
		FullKey: key, FullDesc: desc, FullSeparator: desc}
	return s
}

func (s styles) tone(t look.Tone) lipgloss.Style {
	if st, ok := s.tones[t]; ok {
		return st
	}
	return s.Bold
}
