package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"toolgate/assess"
	"toolgate/walk"
)

// The notes screen is the lecturer's second screen over SSH: it follows
// the presenter's live scenario and step, and shows what to say — the
// story, the question for the room with its answer, the step on the
// projector and what comes next, the verdict and what it does NOT prove,
// the scenario's own notes — with the poll as it fills and the clocks.
// It leads nothing and answers nothing.

// notesModel is the notes screen.
type notesModel struct {
	c     common
	place place
	main  scroller
	// state is the room as the presenter leads it.
	state  RoomMsg
	clocks lectureClocks
	out    outbox
	// joinURL is the phones' link, shown as a QR code.
	joinURL string
}

var _ component = notesModel{}

func newNotesModel(c common, p place, limit time.Duration) notesModel {
	return notesModel{c: c, place: p, main: newScroller(), clocks: newLectureClocks(limit)}
}

func (m notesModel) scene() scene { return scene{m.c, m.place} }

// Init starts the lecture's clocks.
func (m notesModel) Init() tea.Cmd { return m.clocks.init() }

// notesKeyMap is the notes screen's: the clocks, the language, scrolling.
type notesKeyMap struct {
	ScrollDown, ScrollUp, Clock key.Binding
	globalKeys
}

func (m notesModel) keys() notesKeyMap {
	ks := m.c.keys()
	g := ks.global
	off(&g.Quiz, &g.WhatIf)
	return notesKeyMap{ScrollDown: ks.walk.ScrollDown, ScrollUp: ks.walk.ScrollUp, Clock: ks.present.Clock, globalKeys: g}
}

func (k notesKeyMap) ShortHelp() []key.Binding {
	return enabled(k.ScrollDown, k.Clock, k.Lang, k.Help, k.Quit)
}

func (k notesKeyMap) FullHelp() [][]key.Binding {
	return columnsOf([]key.Binding{k.ScrollDown, k.ScrollUp, k.Clock}, []key.Binding{k.Lang, k.Help, k.Quit})
}

func (m notesModel) KeyMap() modeKeys     { return m.keys() }
func (m notesModel) HelpKeyMap() modeKeys { return m.keys() }

func (m notesModel) Update(msg tea.Msg) (component, tea.Cmd) {
	m.out, m.place.events = nil, nil
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case commonMsg:
		m.c = msg.c
		m.place.setLang(m.c.lang)
	case deckMsg:
		m.place.reload(msg.d)
	case RoomMsg:
		cmd = m.follow(msg)
	case tea.KeyPressMsg:
		k := m.keys()
		switch {
		case key.Matches(msg, k.ScrollDown):
			m.place.scroll++
		case key.Matches(msg, k.ScrollUp):
			m.place.scroll--
		case key.Matches(msg, k.Clock):
			m.clocks.show = !m.clocks.show
		}
	case tea.MouseWheelMsg:
		overlays{}.wheel(&m.place, msg)
	default:
		var ok bool
		if m.clocks, cmd, ok = m.clocks.update(msg); !ok {
			return m, nil
		}
	}
	m.fill()
	return m, cmd
}

// follow follows the presenter: the live scenario, at the step the
// projector shows; the room's end ends the session as for everyone.
func (m *notesModel) follow(msg RoomMsg) tea.Cmd {
	back := m.state.Frozen != NotFrozen && msg.Frozen == NotFrozen
	if msg.Ending != NoGoodbye {
		m.state = msg
		if back {
			m.out.say(tr("roomBack", m.c.lang))
		}
		m.out.say(msg.Ending.Text(m.c.lang))
		return tea.Sequence(tea.Tick(2*time.Second, func(time.Time) tea.Msg { return nil }), tea.Quit)
	}
	p := &m.place
	if msg.Live != "" && (!p.has() || p.written().ID != msg.Live) {
		p.openID(msg.Live)
	}
	if back {
		m.out.say(tr("roomBack", m.c.lang))
	}
	m.state = msg
	if p.has() && msg.Live == p.written().ID {
		p.setStep(msg.Step)
		p.scroll = 0
	}
	return nil
}

func (m *notesModel) fill() {
	if lines := m.lines(); lines != nil {
		m.place.scroll = m.main.fill(lines, m.c.width, m.c.height-2, 0, 0, m.place.scroll, m.c.scrollHint)
	}
}

func (m notesModel) SetSize(width, height int) component {
	m.c.width, m.c.height = width, height
	m.fill()
	return m
}

// View is the notes screen's body.
func (m notesModel) View() string {
	c, height := m.c, m.c.height-2
	if m.state.Live == "" || !m.place.has() {
		return joinColumns(height, "", column{c.styles.Dim.Render(wrap(tr("notesWaiting", c.lang), c.width)), c.width})
	}
	return joinColumns(height, "", column{m.main.View(), c.width})
}

func (m notesModel) Posted() []tea.Msg { return append(m.out, m.place.events...) }

func (m notesModel) Status() status {
	return status{place: m.place, right: m.place.where(), frozen: m.state.Frozen}
}

// noteLines collects the notes screen's lines.
type noteLines struct {
	c     scene
	lines []string
}

func (n *noteLines) add(text string) { n.lines = append(n.lines, strings.Split(text, "\n")...) }

// head is a section's heading.
func (n *noteLines) head(label string) {
	// The notes scroll: a heading wraps, never cut.
	n.add(paint(n.c.styles.Verdict.Label, wrap(label, n.c.width)))
}

// lines are the notes screen's lines, nil while no scenario is live.
func (m notesModel) lines() []string {
	c := m.scene()
	rs := m.state
	if rs.Live == "" || !c.has() {
		return nil
	}
	n := &noteLines{c: c}
	s, w, width, st := c.written(), c.walk, c.width, c.styles
	step := min(rs.Step, len(w.Steps)+1)
	where := c.where(step, tr("notesAt", c.lang))
	n.add(paint(st.Walk.Title, wrap(fmt.Sprintf("%s %d · %s — %s", tr("scenario", c.lang), s.Number, s.Title.In(c.lang), where), width)))
	if m.clocks.show {
		timeUp, times := m.clocks.text(c.common)
		if timeUp != "" {
			times = timeUp + " · " + times
		}
		n.add(paint(st.Dim, wrap(times, width)))
	}
	n.add("")
	// The poll, as it fills.
	if rs.Round > 0 {
		state := fmt.Sprintf(tr("roomPollOpen", c.lang), rs.Round)
		if !rs.Open {
			state = fmt.Sprintf(tr("roomPollRevealed", c.lang), rs.Round)
		}
		n.head(state)
		n.add(wrap(histogram(rs, c.track(), w, c.lang), width))
		if m.joinURL != "" || rs.Phone > 0 {
			// Where phones answer: how many came each way.
			n.add(st.Dim.Render(wrap(viaText(rs, c.lang), width)))
		}
		n.add("")
	}
	n.projector(step)
	// The question for the room, and its answer.
	n.head(tr("notesAsk", c.lang))
	n.add(wrap(askText(w, c.lang), width))
	n.add("")
	// What the verdict does NOT prove: the lesson.
	n.head(tr("verdict", c.lang) + tr("colon", c.lang) + w.Verdict.Symbol + " " + w.Verdict.Headline)
	for _, d := range w.Verdict.Details {
		n.add(indentLines(wrap(d.Label+tr("colon", c.lang)+d.Text, width-2), "  "))
	}
	if notes := s.Notes.In(c.lang); notes != "" {
		n.add("")
		n.head(tr("notesScenario", c.lang))
		n.add(wrap(notes, width))
	}
	if m.joinURL != "" {
		n.add("")
		n.head(pollText("phones", c.lang))
		n.add(joinPart(c.common, m.joinURL, width).alts[0])
	}
	return n.lines
}

// projector is what is on the projector now, at a step, and what comes
// next.
func (n *noteLines) projector(step int) {
	c, w, width, st := n.c, n.c.walk, n.c.width, n.c.styles
	switch {
	case step == 0:
		n.head(tr("notesNow", c.lang))
		n.add(paint(st.Walk.Story, wrap(c.storyText(false, true), width)))
		if story := c.written().Story.In(c.lang); story != "" && story != c.storyText(false, true) {
			n.add("")
			n.head(tr("notesStory", c.lang))
			n.add(wrap(story, width))
		}
	case step <= w.Decisive:
		cur := w.Steps[step-1]
		n.head(tr("notesNow", c.lang))
		n.add(wrap(fmt.Sprintf("%d %s — %s", step, cur.Title, outcomeText(cur.Outcome, c.lang)), width))
		n.add(paint(st.Walk.Question, indentLines(wrap(cur.Question, width-2), "  ")))
		n.add(indentLines(wrap(cur.Explanation, width-2), "  "))
		if a := c.asideText(cur.Aside, width-2); a != "" {
			n.add(indentLines(a, "  "))
		}
	}
	n.head(tr("notesNext", c.lang))
	switch {
	case step < w.Decisive:
		n.add(wrap(fmt.Sprintf("%d %s", step+1, w.Steps[step].Title), width))
	case step == w.Decisive:
		n.add(wrap(tr("verdict", c.lang)+tr("colon", c.lang)+w.Verdict.Symbol+" "+w.Verdict.Headline, width))
	default:
		n.add(wrap(tr("notesNextScenario", c.lang), width))
	}
	n.add("")
}

// askText is the question for the room with its answer.
func askText(w walk.Walk, l assess.Lang) string {
	switch res := w.Result.(type) {
	case walk.AdmissionAnswer:
		return fmt.Sprintf(tr("notesAskRule", l), w.Decisive, res.Verdict.CodeName(), w.Steps[w.Decisive-1].Title)
	case walk.OutcomeAnswer:
		return fmt.Sprintf(tr("notesAskClass", l), res.Class)
	case walk.AuditAnswer:
	}
	return fmt.Sprintf(tr("notesAskAudit", l), w.Verdict.Short)
}

func outcomeText(o assess.Outcome, l assess.Lang) string {
	switch o {
	case assess.Fired:
		return tr("notesFired", l)
	case assess.Passed:
		return tr("notesPassed", l)
	case assess.NotReached: // says nothing
	}
	return ""
}
