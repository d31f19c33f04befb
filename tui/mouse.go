package tui

import (
	"regexp"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"toolgate/nav"
)

// The mouse: the wheel scrolls the pane being read, a click on a scenario
// in the list opens it, and a click on a rule reveals the walk up to it.
// A click is mapped through the same layout the frame was drawn with, and
// read off the frame itself, so it lands on what the learner sees. --no-mouse
// leaves the terminal's own selection alone.

var (
	listItem = regexp.MustCompile(`^[>» ] ([0-9]+) `)
	ruleHead = regexp.MustCompile(`^ [✓➤·-] +([0-9]+) `)
)

// wheel scrolls three lines.
func (m *Model) wheel(msg tea.MouseWheelMsg) {
	delta := 3
	if msg.Button == tea.MouseWheelUp {
		delta = -3
	}
	if m.activeOverlays().full {
		m.c.inputsScroll += delta
		return
	}
	m.c.scroll += delta
}

// activeOverlays are the active mode's overlays: the what-if's own, or
// the browse state's the other modes share.
func (m Model) activeOverlays() overlays {
	switch m.mode {
	case modeWhatIf:
		return m.whatIf.overlays
	case modePractice:
		return overlays{full: m.practice.full}
	}
	return m.browse.overlays
}

// clickable is the body of a mode whose list and rules a click can use,
// and whether a click may reveal steps now (not while a question waits).
func (m Model) clickable() (body, bool, bool) {
	c := &m.c
	switch {
	case m.showHelp || m.intro || len(m.notices) > 0 || !c.has():
		return body{}, false, false
	case m.browse.path != nil || m.browse.full || m.browse.filter.typing:
		return body{}, false, false
	case m.mode == modeWalk:
		return m.browse.plainBody(c), true, true
	case m.mode == modeQuiz && !m.quiz.summary:
		return m.quiz.body(c, &m.browse), true, !m.quiz.q.asking()
	case m.mode == modeRoom:
		return m.room.body(c, &m.browse), true, !m.room.questionOpen(c)
	}
	return body{}, false, false
}

// click opens the scenario or reveals the rule under the pointer.
func (m *Model) click(msg tea.MouseClickMsg) {
	if msg.Button != tea.MouseLeft {
		return
	}
	b, ok, step := m.clickable()
	c := &m.c
	height := c.height - 2
	row := msg.Y - 1 // under the header
	if !ok || row < 0 || row >= height || layoutFor(c.width, c.height) == layoutTooSmall {
		return
	}
	lines := strings.Split(ansi.Strip(m.Render()), "\n")
	if msg.Y >= len(lines) {
		return
	}
	line := lines[msg.Y]
	cols, _ := c.bodyLayout(b, height)
	walkX := 0
	if cols.list > 0 {
		walkX = cols.list + sepWidth
		if msg.X < cols.list {
			if g := listItem.FindStringSubmatch(ansi.Cut(line, 0, cols.list)); g != nil {
				n, _ := strconv.Atoi(g[1])
				for i, s := range c.inTrack() {
					if s.Number == n {
						c.navigate(nav.Action{Kind: nav.Select, Track: c.at.Track, N: i})
					}
				}
				m.afterOpen()
			}
			return
		}
	}
	if !step || msg.X < walkX || msg.X >= walkX+cols.walk {
		return
	}
	if g := ruleHead.FindStringSubmatch(ansi.Cut(line, walkX, walkX+cols.walk)); g != nil {
		n, _ := strconv.Atoi(g[1])
		if n > c.walk.Decisive {
			n = c.lastStep() // a rule after the one that fired: the verdict
		}
		c.setStep(n)
	}
}

// afterOpen lets the active mode take a scenario opened by a click: the
// quiz asks about it.
func (m *Model) afterOpen() {
	if m.mode == modeQuiz {
		m.quiz = m.quiz.start(&m.c)
	}
}
