package tui

import (
	"fmt"
	"time"

	"toolgate/assess"
)

// common is what every mode shares, as soft-serve's Common: the terminal's
// size, the look, the keys, the language and the clock. It holds none of
// the program's state: where the learner is lives in each mode's place,
// the scenarios in the deck, the progress in the root Model.
type common struct {
	width, height int
	lang          assess.Lang
	theme         Theme
	dark          bool
	styles        *Styles
	clock         func() time.Time
}

func newCommon(l assess.Lang, theme Theme, clock func() time.Time) common {
	c := common{lang: l, theme: theme, dark: theme != ThemeLight, width: 120, height: 40, clock: clock}
	c.restyle()
	return c
}

func (c *common) restyle() {
	s := newStyles(c.theme, c.dark)
	c.styles = &s
}

// keys are every key map in the language shown.
func (c common) keys() *keySet { return &keySets[c.lang] }

// layout is the layout for the terminal's size.
func (c common) layout() layout { return layoutFor(c.width, c.height) }

// scene is a place seen through the common look: what a pane is drawn
// from. It is built for one frame (or one fill) and never kept.
type scene struct {
	common
	place
}

// scrollHint is the line above and below a pane that scrolls: how many
// lines there are and the keys that show them.
func (c common) scrollHint(above, below int) (string, string) {
	return c.countHint(above, below, tr("moreAbove", c.lang), tr("moreBelow", c.lang))
}

// moreHint is the line above and below a window that follows a cursor
// (the knobs, the presenter): how much more there is.
func (c common) moreHint(above, below int) (string, string) {
	return c.countHint(above, below, tr("moreUp", c.lang), tr("moreDown", c.lang))
}

// countHint says how many lines are above and below, each with its
// format; "" where there are none.
func (c common) countHint(above, below int, upFormat, downFormat string) (up, down string) {
	if above > 0 {
		up = c.styles.Hint.Render(fmt.Sprintf(upFormat, above))
	}
	if below > 0 {
		down = c.styles.Hint.Render(fmt.Sprintf(downFormat, below))
	}
	return up, down
}
