package tui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"toolgate/assess"
)

// The introduction a learner meets on a first start (and again from the
// help, d): first what the trainer is for, which book and chapter it
// teaches, then what the decision does not do (seed 000's non-goals).
// On a small screen its middle scrolls with ↓/↑, and its last line says
// so, never "any key" while ↓ would not do what any key does.

// introWidth is the width of the introduction's text.
func (m Model) introWidth() int { return max(min(m.c.width-8, 90), 10) }

// introBody is what scrolls: the purpose, and the non-goals under their
// heading.
func (m Model) introBody() []string {
	c := m.c
	width := m.introWidth()
	body := strings.Split(wrap(tr("introBook", c.lang), width), "\n")
	body = append(body, "", c.styles.Walk.Heading.Render(tr("introTitle", c.lang)))
	for _, g := range assess.NonGoals(c.lang) {
		for i, l := range strings.Split(wrap(g, width-2), "\n") {
			lead := "  "
			if i == 0 {
				lead = "• "
			}
			body = append(body, lead+l)
		}
	}
	return body
}

// introClose is the last line: how the introduction closes, and how it
// scrolls when it does.
func (m Model) introClose(scrolls bool) []string {
	key := map[[2]bool]string{
		{false, false}: "introClose", {false, true}: "introCloseScroll",
		{true, false}: "introAgain", {true, true}: "introAgainScroll",
	}[[2]bool{m.cover.introAgain, scrolls}]
	return strings.Split(wrap(tr(key, m.c.lang), m.introWidth()), "\n")
}

// introScroll is how many body lines the box shows in a body of height
// lines, and the furthest it scrolls (0: it fits). The box spends its
// border (2), the title and a blank line (2), a blank line and the close
// hint; a window that scrolls keeps a line for saying what is beyond.
func (m Model) introScroll(height int) (room, maxOffset int) {
	body := m.introBody()
	room = height - 5 - len(m.introClose(false))
	if len(body) <= room {
		return room, 0
	}
	room = max(height-5-len(m.introClose(true)), 2)
	return room, max(len(body)-(room-1), 0)
}

// renderIntro is the introduction's box.
func (m Model) renderIntro(height int) string {
	c := m.c
	st := c.styles
	body := m.introBody()
	room, maxOffset := m.introScroll(height)
	if maxOffset > 0 {
		off := clampInt(m.cover.introOffset, 0, maxOffset)
		window := body[off : off+room-1]
		switch below := len(body) - off - (room - 1); {
		case below > 0:
			window = append(window, st.Hint.Render(fmt.Sprintf(tr("introBelow", c.lang), below)))
		default:
			window = append(window, st.Hint.Render(fmt.Sprintf(tr("introAbove", c.lang), off)))
		}
		body = window
	}
	lines := []string{st.Walk.Heading.Render(wrap(tr("introFor", c.lang), m.introWidth())), ""}
	lines = append(lines, body...)
	lines = append(lines, "")
	for _, l := range m.introClose(maxOffset > 0) {
		lines = append(lines, st.Dim.Render(l))
	}
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 2).Render(strings.Join(lines, "\n"))
	return placeCenter(box, c.width, height)
}
