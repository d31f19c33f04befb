package tui

import (
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/scenarios"
)

// wholeSizes run from the smallest size the docs promise to the largest,
// with the widths where the layout changes and the odd ones between.
var wholeSizes = [][2]int{{60, 20}, {79, 24}, {80, 24}, {100, 30}, {119, 30}, {120, 40}, {160, 48}, {200, 60}}

// TestMarkedValuesAreWhole (issue 30, item 4): at every step of every
// scenario — the built-in ones, the lecturer's examples and the test
// files that load — every value the step marks as read is on the screen
// whole, at every size from 60×20 to 200×60, in both languages, walked
// alone and as a room's student follows it. (Where the inputs have no
// column, tab shows them.)
func TestMarkedValuesAreWhole(t *testing.T) {
	t.Parallel()
	report := scenarios.LoadPaths("../examples", "../testdata/good")
	require.Empty(t, report.Problems)
	all, problems := scenarios.Combine(scenarios.Builtin(), report.Scenarios)
	require.Empty(t, problems)
	sizes := wholeSizes
	if raceOn {
		sizes = [][2]int{wholeSizes[0], wholeSizes[2], wholeSizes[len(wholeSizes)-1]}
	}
	for _, s := range all {
		for _, size := range sizes {
			for _, lang := range []assess.Lang{assess.English, assess.Chinese} {
				m := New(Options{Scenarios: all, Track: s.Track(), Scenario: s.ID, Theme: ThemeDark, Lang: lang})
				m.cover.intro = false
				m = resize(m, size[0], size[1])
				if m.c.layout() == layoutOne {
					m = press(m, "tab")
				}
				last := here(m).lastStep()
				for step := 1; step <= last; step++ {
					m = press(m, "right")
					assertMarkedWhole(t, m, fmt.Sprintf("%s step %d %dx%d %s", s.ID, step, size[0], size[1], lang))
				}
				// A student of a room, on the live scenario at the step the
				// room last said.
				for _, step := range []int{3, 7} {
					st := New(Options{Scenarios: all, Theme: ThemeDark, Lang: lang, Room: &fakeRoom{}})
					st.cover.intro = false
					st = send(resize(st, size[0], size[1]), RoomMsg{Live: s.ID, Step: step})
					if st.c.layout() == layoutOne {
						st = press(st, "tab")
					}
					assertMarkedWhole(t, st, fmt.Sprintf("%s student at step %d %dx%d %s", s.ID, step, size[0], size[1], lang))
				}
			}
		}
	}
}

// assertMarkedWhole checks that every value the screen's step marks as
// read is on it whole.
func assertMarkedWhole(t *testing.T, m Model, name string) {
	t.Helper()
	p := here(m)
	screen := squeeze(lastColumn(plain(m), m.c.layout()))
	for _, f := range p.walk.Fields {
		if f.Absent || !look.Reads(f, p.reads()) {
			continue
		}
		assert.Contains(t, screen, squeeze(f.Value), "%s: %s, marked as read, is not whole on the screen", name, f.Path)
	}
}

// lastColumn is the inputs pane's text: what follows the last column
// separator of each line (the whole line in one column, where tab shows
// the inputs alone). The inputs pane draws no separator of its own.
func lastColumn(screen string, lay layout) string {
	var b strings.Builder
	for _, line := range strings.Split(screen, "\n") {
		if lay != layoutOne {
			i := strings.LastIndex(line, "│")
			if i < 0 {
				continue
			}
			line = line[i+len("│"):]
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// squeeze drops every space, so that where a value wraps does not matter.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}
