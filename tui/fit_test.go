package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"

	"toolgate/assess"
	"toolgate/walk"
)

// squash removes every space and box-drawing character, so that text
// wrapped across the lines of a box can be found whole.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == ' ', r == '\n', r == '\u00a0', r >= 0x2500 && r <= 0x257f:
			return -1
		}
		return r
	}, s)
}

// screenColumns splits a screen's body into its panes: the columns
// between the vertical separators that run through every line of the body.
func screenColumns(screen string) []string {
	lines := strings.Split(screen, "\n")
	if len(lines) < 3 {
		return []string{screen}
	}
	body := lines[1 : len(lines)-1]
	width := ansi.StringWidth(body[0])
	var seps []int
	for x := 0; x < width; x++ {
		all := true
		for _, l := range body {
			if ansi.Cut(l, x, x+1) != "│" {
				all = false
				break
			}
		}
		if all {
			seps = append(seps, x)
		}
	}
	var cols []string
	from := 0
	for _, to := range append(seps, width) {
		var out []string
		for _, l := range body {
			out = append(out, ansi.Cut(l, from, to))
		}
		cols = append(cols, strings.Join(out, "\n"))
		from = to + 1
	}
	return cols
}

// walkColumn is the walk pane's part of a screen: the middle of three
// panes, the first of two, or the whole body.
func walkColumn(screen string) string {
	cols := screenColumns(screen)
	if len(cols) == 3 {
		return cols[1]
	}
	return cols[0]
}

// flatColumns is every pane squashed on its own, so that text wrapped
// within a pane can be found whole.
func flatColumns(screen string) string {
	var out []string
	for _, c := range screenColumns(screen) {
		out = append(out, squash(c))
	}
	return strings.Join(out, "|")
}

// verdictOnScreen reports which of a verdict's lines are on the screen
// whole: the headline, and each detail (label and text).
func verdictOnScreen(screen string, w walk.Walk, l assess.Lang) (missing []string) {
	flat := squash(screen)
	want := []string{w.Verdict.Headline}
	for _, d := range w.Verdict.Details {
		want = append(want, d.Label+tr("colon", l)+d.Text)
	}
	for _, line := range want {
		if !strings.Contains(flat, squash(line)) {
			missing = append(missing, line)
		}
	}
	return missing
}

// TestTheWholeVerdictFitsTheProjector is the lesson on the screens where it
// is really used: at 80×24 (a projector with a big font) the verdict's
// headline and every line under it are on screen without scrolling, for
// every scenario of every track, in both languages, in the walk and in
// the presenter layout; at 60×20 at least the headline and both "does NOT
// prove" lines.
func TestTheWholeVerdictFitsTheProjector(t *testing.T) {
	for _, lang := range []assess.Lang{assess.English, assess.Chinese} {
		for _, present := range []bool{false, true} {
			base := newTest(t, Options{Lang: lang, Present: present})
			for ti := range base.deck.byTrack {
				for _, s := range base.deck.byTrack[ti] {
					w := walk.Of(s, lang)
					name := fmt.Sprintf("%s/%s/present=%v", lang, s.ID, present)
					m := newTest(t, Options{Lang: lang, Present: present, Scenario: s.ID, Step: 99})
					assert.Empty(t, verdictOnScreen(walkColumn(plain(resize(m, 80, 24))), w, lang), "80x24 "+name)

					small := plain(resize(m, 60, 20))
					flat := squash(walkColumn(small))
					assert.Contains(t, flat, squash(w.Verdict.Headline), "60x20 "+name)
					for _, d := range w.Verdict.Details {
						if d.Strong {
							assert.Contains(t, flat, squash(d.Label+tr("colon", lang)+d.Text), "60x20 "+name)
						}
					}
				}
			}
		}
	}
}
