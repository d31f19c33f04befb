package tui

import (
	"strings"

	"charm.land/bubbles/v2/viewport"
)

// hintFunc says what is above and below a window: a line each, "" where
// there is nothing.
type hintFunc func(above, below int) (up, down string)

// scroller is a pane the learner scrolls (J/K, the wheel): a viewport
// kept as the mode's state, sized and filled in Update as glow's pager
// does, and only drawn by View. Its window starts at the content's
// anchor (what must be seen: the verdict, the current rule) moved by the
// learner's offset; when the content does not fit, the first and last
// lines say how much more there is and which keys show it, so that
// nothing is cut off without a word.
type scroller struct {
	vp viewport.Model
	// scrolls says the content is taller than the pane; text is the
	// content when it is not.
	scrolls bool
	text    string
	// up and down are the hint lines; above and below the lines hidden.
	up, down     string
	above, below int
}

func newScroller() scroller { return scroller{vp: viewport.New()} }

// fill puts lines in the pane, height lines high and width wide, its
// window starting at the anchor block (anchor to anchorEnd) moved by the
// learner's offset. It returns the offset as it took effect: clamped so
// that the window stays on the content (0 when it all fits), so that a
// key pressed past the end is not counted.
func (s *scroller) fill(lines []string, width, height, anchor, anchorEnd, offset int, hint hintFunc) int {
	s.clear()
	if height <= 0 {
		return 0
	}
	if len(lines) <= height {
		s.text = strings.Join(lines, "\n")
		return 0
	}
	inner, start := window(height, anchor, anchorEnd)
	at := clampInt(start+offset, 0, len(lines)-inner)
	s.vp.SetWidth(width)
	s.vp.SetHeight(inner)
	s.vp.SetContentLines(lines)
	s.vp.SetYOffset(at)
	s.scrolls = true
	s.above, s.below = at, len(lines)-at-inner
	s.up, s.down = hint(s.above, s.below)
	return at - start
}

// clear empties the pane: nothing of it shows, nothing is hidden.
func (s *scroller) clear() {
	s.scrolls, s.text, s.up, s.down, s.above, s.below = false, "", "", "", 0, 0
}

// View is the pane as filled.
func (s scroller) View() string {
	if !s.scrolls {
		return s.text
	}
	return s.up + "\n" + s.vp.View() + "\n" + s.down
}

// window is how many lines of content a pane of height lines shows when
// it scrolls (room is kept for the two hint lines), and where it starts
// before the learner scrolls: the whole anchor block when it fits, its
// start when it does not.
func window(height, anchor, anchorEnd int) (inner, start int) {
	inner = max(height-2, 1)
	if anchorEnd > inner {
		start = anchorEnd - inner
		if anchorEnd-anchor > inner {
			start = anchor
		}
	}
	return inner, start
}

// followed shows height lines of a window that follows a cursor (the
// knobs): the lines from the anchor block on, with a hint above and below
// when there is more. Nothing of it is kept: the cursor alone moves it.
func followed(lines []string, width, height, anchor, anchorEnd int, hint hintFunc) string {
	var s scroller
	s.vp = viewport.New()
	s.fill(lines, width, height, anchor, anchorEnd, 0, hint)
	return s.View()
}
