package tui

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"

	"toolgate/assess"
)

// What a server says to a session is said whole in its footer at 60
// columns, in both languages (issue 21.10): the clamp notice at its
// largest numbers, every goodbye, the frozen room.
func TestServerNoticesFitSixtyColumns(t *testing.T) {
	for _, l := range []assess.Lang{assess.English, assess.Chinese} {
		texts := map[string]string{
			"clamped": ClampedMsg{Width: 1 << 16, Height: 1 << 16, DrawnWidth: 4096, DrawnHeight: 4096}.Text(l),
			"frozen":  FrozenForNow.text(l), "frozen for good": FrozenForGood.text(l),
		}
		for g := TakenOver; g <= ClosingOutOfReach; g++ {
			texts[g.String()] = g.Text(l)
		}
		for name, text := range texts {
			assert.NotEmpty(t, text, "%s in %v", name, l)
			assert.LessOrEqual(t, ansi.StringWidth(text), noticeWidth, "%s in %v: %q", name, l, text)
		}
	}
	assert.Empty(t, NoGoodbye.Text(assess.English))
	assert.Equal(t, "host closing", HostClosing.String())
}
