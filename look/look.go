// Package look is what every renderer shares about how a state looks: the
// symbol and the colour of each status and outcome. A state is never told by
// colour alone: each has a symbol and a word too, so it reads on a
// monochrome projector and under NO_COLOR.
package look

import (
	"image/color"

	"charm.land/lipgloss/v2"

	"toolgate/assess"
)

// The one-cell marks every renderer uses for yes, no and held: a check
// that passed, a gate that agreed, an audit that is clean (Yes); a
// refusal, a disagreement, a diagnostic (No); answers pending (Held).
const (
	Yes  = "✓"
	No   = "✗"
	Held = "⊘"
)

// StatusSymbol is a one-cell mark for a status.
func StatusSymbol(s assess.Status) string {
	switch s {
	case assess.StatusAllowed:
		return Yes
	case assess.StatusRejected:
		return No
	case assess.StatusBlocked:
		return Held
	case assess.StatusRequiresApproval:
		return "✎"
	case assess.StatusEffectUnknown:
		return "?"
	case assess.StatusNeedsEvidence:
		return "✱"
	}
	return " "
}

// Palette is a family of colours: allowed green, rejected red, blocked and
// requires_approval amber, effect_unknown and needs_evidence magenta.
type Palette struct {
	Green, Red, Amber, Magenta, Dim, Accent color.Color
}

// DarkPalette suits a dark terminal background.
func DarkPalette() Palette {
	return Palette{
		Green: lipgloss.Color("#5fd75f"), Red: lipgloss.Color("#ff5f5f"),
		Amber: lipgloss.Color("#ffaf00"), Magenta: lipgloss.Color("#d787ff"),
		Dim: lipgloss.Color("#9e9e9e"), Accent: lipgloss.Color("#5fafff"),
	}
}

// LightPalette suits a light background (and a projector).
func LightPalette() Palette {
	return Palette{
		Green: lipgloss.Color("#007f00"), Red: lipgloss.Color("#c00000"),
		Amber: lipgloss.Color("#a05a00"), Magenta: lipgloss.Color("#8700af"),
		Dim: lipgloss.Color("#6c6c6c"), Accent: lipgloss.Color("#005faf"),
	}
}

// HighContrastPalette has the strongest colours for the background, and
// no grey: what would be dim is the plain foreground. Every colour keeps
// 7:1 (WCAG AAA) against black or #1e1e1e, and against white or #f5f5f5.
func HighContrastPalette(dark bool) Palette {
	if dark {
		return Palette{
			Green: lipgloss.Color("#00ff00"), Red: lipgloss.Color("#ff8c8c"),
			Amber: lipgloss.Color("#ffd700"), Magenta: lipgloss.Color("#ff80ff"),
			Dim: lipgloss.Color("#ffffff"), Accent: lipgloss.Color("#00ffff"),
		}
	}
	return Palette{
		Green: lipgloss.Color("#005f00"), Red: lipgloss.Color("#990000"),
		Amber: lipgloss.Color("#6b4b00"), Magenta: lipgloss.Color("#5f005f"),
		Dim: lipgloss.Color("#000000"), Accent: lipgloss.Color("#00005f"),
	}
}

// OutcomeSymbol is a one-cell mark for a trace step's outcome, one cell
// wide in East Asian terminals too. A passed step is not marked ✓: its
// title names the condition that fires it ("Environment not ready"), and
// a tick beside it would read as agreement.
func OutcomeSymbol(o assess.Outcome) string {
	switch o {
	case assess.Passed:
		return "◦"
	case assess.Fired:
		return "➤"
	}
	return "-"
}

// OutcomeAnswer is the answer a step gave to its question, in a language:
// "no" for a step that passed, "YES" for one that fired, "" for one not
// reached.
func OutcomeAnswer(o assess.Outcome, l assess.Lang) string {
	switch o {
	case assess.Passed:
		return texts.AnswerNo.in(l)
	case assess.Fired:
		return texts.AnswerYes.in(l)
	}
	return ""
}

// OutcomeLabel is what a walk shows beside a step: its question's answer
// and the outcome ("no · passed", "YES · FIRED", "not reached"), so that a
// step titled for its condition never reads the wrong way round.
func OutcomeLabel(o assess.Outcome, l assess.Lang) string {
	if a := OutcomeAnswer(o, l); a != "" {
		return a + texts.AnswerSep.in(l) + OutcomeWord(o, l)
	}
	return OutcomeWord(o, l)
}

// OutcomeWord is the outcome as a word, in a language.
func OutcomeWord(o assess.Outcome, l assess.Lang) string {
	switch o {
	case assess.Passed:
		return texts.Passed.in(l)
	case assess.Fired:
		return texts.Fired.in(l)
	case assess.NotReached:
		return texts.NotReached.in(l)
	}
	return ""
}

// Tone is the colour family of a verdict of any track.
type Tone uint8

// The tones: good (green), bad (red), hold (amber), unknown (magenta).
const (
	ToneGood Tone = iota + 1
	ToneBad
	ToneHold
	ToneUnknown
)

// Symbol is a one-cell mark for a tone: Yes, No, Held, or "?".
func (t Tone) Symbol() string {
	switch t {
	case ToneGood:
		return Yes
	case ToneBad:
		return No
	case ToneHold:
		return Held
	}
	return "?"
}

// StatusTone is the tone of an admission status.
func StatusTone(s assess.Status) Tone {
	switch s {
	case assess.StatusAllowed:
		return ToneGood
	case assess.StatusRejected:
		return ToneBad
	case assess.StatusBlocked, assess.StatusRequiresApproval:
		return ToneHold
	}
	return ToneUnknown
}

// Tone is the colour of a tone.
func (p Palette) Tone(t Tone) color.Color {
	switch t {
	case ToneGood:
		return p.Green
	case ToneBad:
		return p.Red
	case ToneHold:
		return p.Amber
	case ToneUnknown:
		return p.Magenta
	}
	return p.Dim
}
