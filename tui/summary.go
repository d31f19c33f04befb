package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"toolgate/assess"
)

// The quiz's summary, at the end of a track: the score and every miss
// with what decided. It is read, so it scrolls (its score stays on top)
// and closes only on its own keys: a key pressed to read on must not
// throw it away.

// summaryKeyMap is the summary's keys: scroll it, close it.
type summaryKeyMap struct {
	Down, Up, PageDown, PageUp, Close key.Binding
	// Practice starts fresh practice (practice.go).
	Practice key.Binding
	globalKeys
}

func makeSummaryKeyMap(l assess.Lang) summaryKeyMap {
	g := makeNewGlobalKeys(l)
	off(&g.WhatIf)
	g.Quiz.SetHelp("g", tr("kQuizOff", l))
	return summaryKeyMap{
		Down:       binding(l, []string{"down", "j", "J", "shift+down"}, "↓/j", "kScroll"),
		Up:         binding(l, []string{"up", "k", "K", "shift+up"}, "↑/k", "kScrollUp"),
		PageDown:   binding(l, []string{"pgdown", "space"}, "pgdn/space", "kPageDown"),
		PageUp:     binding(l, []string{"pgup"}, "pgup", "kPageUp"),
		Close:      binding(l, []string{"esc", "enter"}, "esc/enter", "kClose"),
		Practice:   binding(l, []string{"p"}, "p", "kPractice"),
		globalKeys: g,
	}
}

func (k summaryKeyMap) ShortHelp() []key.Binding {
	return enabled(k.Down, k.Up, k.Close, k.Practice, k.Quiz, k.Lang, k.Help, k.Quit)
}

func (k summaryKeyMap) FullHelp() [][]key.Binding {
	return columnsOf(
		[]key.Binding{k.Down, k.Up, k.PageDown, k.PageUp},
		[]key.Binding{k.Practice, k.Close, k.Quiz, k.Lang, k.Help, k.Quit},
	)
}

// summaryKeys are the summary's keys as they work now: the scrolling
// keys only when there is more than the box shows.
func (m quizModel) summaryKeys() summaryKeyMap {
	k := m.c.keys().summary
	onIf(m.panes.main.below > 0, &k.Down, &k.PageDown)
	onIf(m.panes.main.above > 0, &k.Up, &k.PageUp)
	onIf(canPractise(m.place.deck), &k.Practice)
	return k
}

// summaryKey scrolls or closes the summary, or starts the practice.
func (m *quizModel) summaryKey(msg tea.KeyPressMsg) {
	k := m.summaryKeys()
	page := max(m.c.height-12, 1)
	p := &m.place
	switch {
	case key.Matches(msg, k.Practice):
		m.out.post(practiseMsg{})
	case key.Matches(msg, k.Close):
		m.summary, p.scroll = false, 0
	case key.Matches(msg, k.Down):
		p.scroll++
	case key.Matches(msg, k.Up):
		p.scroll--
	case key.Matches(msg, k.PageDown):
		p.scroll += page
	case key.Matches(msg, k.PageUp):
		p.scroll -= page
	}
}

// summaryWidth is the width of the summary's text.
func summaryWidth(c common) int { return max(min(c.width-8, 76), 10) }

// summaryLines are the summary's lines, wrapped: its head (the title and
// the scores), which stays while there is room, and the misses, which
// scroll.
func (m quizModel) summaryLines() (head, misses []string) {
	c := m.c
	st := c.styles
	width := summaryWidth(c)
	points, asked := m.score()
	head = []string{st.Walk.Heading.Render(tr("quizSummary", c.lang)), ""}
	head = append(head, strings.Split(wrap(fmt.Sprintf(tr("quizScore", c.lang), scoreText(points, asked)), width), "\n")...)
	if right, n := m.caveats(); n > 0 {
		head = append(head, strings.Split(wrap(fmt.Sprintf(tr("quizCaveatScore", c.lang), right, n), width), "\n")...)
	}
	if canPractise(m.place.deck) {
		head = append(head, "")
		head = append(head, strings.Split(paint(st.Verdict.Label, wrap(tr("quizPracticeOffer", c.lang), width)), "\n")...)
	}
	head = append(head, "")
	for _, id := range m.order {
		r := m.results[id]
		if r.right && r.caveat >= 0 {
			continue
		}
		misses = append(misses, strings.Split(wrap(fmt.Sprintf("%d %s", r.number, r.title.In(c.lang)), width), "\n")...)
		for _, l := range c.resultLines(r) {
			misses = append(misses, strings.Split(indentLines(wrapStyled(l, width-4), "    "), "\n")...)
		}
	}
	if len(misses) == 0 {
		misses = []string{tr("quizNoMiss", c.lang)}
	}
	if summaryRoom(head, c.height-2) < 8 {
		// A small screen: the head scrolls away with the misses, which
		// would else be read a few lines at a time.
		return nil, append(head, misses...)
	}
	return head, misses
}

// summaryRoom is how many lines of misses the box shows in a body of
// height lines: less its border and padding (4), the head, and the blank
// line and the close hint (2).
func summaryRoom(head []string, height int) int { return height - 6 - len(head) }

// summaryHint is the line above and below the misses as they scroll.
func (c common) summaryHint(above, below int) (string, string) {
	return c.countHint(above, below, tr("summaryAbove", c.lang), tr("summaryBelow", c.lang))
}

// fillSummary fills the summary's misses into the main pane when they
// are more than the box shows.
func (m *quizModel) fillSummary() {
	head, misses := m.summaryLines()
	if room := summaryRoom(head, m.c.height-2); len(misses) > room {
		m.place.scroll = m.panes.main.fill(misses, summaryWidth(m.c), max(room, 3), 0, 0, m.place.scroll, m.c.summaryHint)
		return
	}
	m.panes.main.clear()
}

// renderSummary is the summary's box, its misses scrolled with ↑/↓.
func (m quizModel) renderSummary(height int) string {
	c := m.c
	st := c.styles
	head, misses := m.summaryLines()
	body := strings.Join(misses, "\n")
	closing := tr("quizClose", c.lang)
	if room := summaryRoom(head, height); len(misses) > room {
		body = m.panes.main.View()
		closing = tr("quizCloseScroll", c.lang)
	}
	lines := append(head, body, "", st.Dim.Render(wrap(closing, summaryWidth(c))))
	box := c.styles.Verdict.Box.Padding(1, 2).Render(strings.Join(lines, "\n"))
	return placeCenter(box, c.width, height)
}
