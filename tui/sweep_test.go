package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
)

// frames are the screens seen while scrolling the walk pane down with J,
// from the top to the end.
func frames(m Model, n int) []string {
	out := []string{plain(m)}
	for range n {
		m = press(m, "J")
		out = append(out, plain(m))
	}
	return out
}

// TestCaveatQuestionIsNotAnsweredOnItsScreen (issue 21 sweep, item 3):
// while "which of these does this verdict NOT prove?" is open on an
// allowed verdict, no line of the verdict that limits it ("does NOT
// prove", "allowed is not", "this scenario does not prove") says its
// text, at 80×24 and 120×40, scrolled to the end.
func TestCaveatQuestionIsNotAnsweredOnItsScreen(t *testing.T) {
	for _, lang := range []assess.Lang{assess.English, assess.Chinese} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			m := resize(newTest(t, Options{Quiz: true, Scenario: "read-only-candidate", Lang: lang}), size[0], size[1])
			m = press(m, "8")
			require.Equal(t, quizAskCaveat, m.modes.quiz.q.phase)
			labels := []string{"does NOT prove", "allowed is not", "this scenario does not prove"}
			if lang == assess.Chinese {
				labels = []string{"不能推导", "allowed 不是", "本场景不证明"}
			}
			seen := map[string]bool{}
			for _, f := range frames(m, 30) {
				for row := range strings.SplitSeq(f, "\n") {
					for _, label := range labels {
						_, rest, ok := strings.Cut(row, label+tr("colon", lang))
						if !ok {
							continue
						}
						seen[label] = true
						assert.True(t, strings.HasPrefix(rest, "?") || strings.HasPrefix(rest, "？"),
							"%v %v: %q answers the question on its own screen", lang, size, row)
					}
				}
			}
			assert.True(t, seen[labels[0]], "%v %v: the verdict is scrolled to", lang, size)
			assert.NotContains(t, squash(strings.Join(frames(m, 30), "")), squash(assess.AllowedIsNot(lang))[:20], "%v %v", lang, size)
		}
	}
}

var _ = fmt.Sprint
