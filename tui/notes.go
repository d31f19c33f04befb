package tui

import (
	"fmt"
	"strings"

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

// notesKeyMap is the notes screen's: the clocks, the language, scrolling.
type notesKeyMap struct {
	ScrollDown, ScrollUp, Clock key.Binding
	globalKeys
}

func (m Model) notesKeys() notesKeyMap {
	g := newGlobalKeys(m.c.lang)
	off(&g.Quiz, &g.WhatIf)
	w := newWalkKeys(m.c.lang)
	return notesKeyMap{ScrollDown: w.ScrollDown, ScrollUp: w.ScrollUp, Clock: newPresentKeyMap(m.c.lang).Clock, globalKeys: g}
}

func (k notesKeyMap) ShortHelp() []key.Binding {
	return enabled(k.ScrollDown, k.Clock, k.Lang, k.Help, k.Quit)
}

func (k notesKeyMap) FullHelp() [][]key.Binding {
	return columnsOf([]key.Binding{k.ScrollDown, k.ScrollUp, k.Clock}, []key.Binding{k.Lang, k.Help, k.Quit})
}

// notesView is the notes screen's body.
func (m Model) notesView(height int) string {
	c := &m.c
	width := c.width
	st := c.styles
	rs := m.room.state
	if rs.Live == "" || !c.has() {
		return joinColumns(height, "", column{st.Dim.Render(wrap(tr("notesWaiting", c.lang), width)), width})
	}
	s := c.written()
	w := c.walk
	var lines []string
	add := func(text string) { lines = append(lines, strings.Split(text, "\n")...) }
	head := func(label string) { add(st.Verdict.Label.Render(truncate(label, width))) }

	step := min(rs.Step, len(w.Steps)+1)
	where := c.where(step, tr("notesAt", c.lang))
	add(st.Walk.Title.Render(truncate(fmt.Sprintf("%s %d · %s — %s", tr("scenario", c.lang), s.Number, s.Title.In(c.lang), where), width)))
	if m.present.showClock {
		timeUp, times := m.present.clocks(c)
		if timeUp != "" {
			times = timeUp + " · " + times
		}
		add(st.Dim.Render(truncate(times, width)))
	}
	add("")
	// The poll, as it fills.
	if rs.Round > 0 {
		state := fmt.Sprintf(tr("roomPollOpen", c.lang), rs.Round)
		if !rs.Open {
			state = fmt.Sprintf(tr("roomPollRevealed", c.lang), rs.Round)
		}
		head(state)
		add(wrap(histogram(rs, c.track(), w, c.lang), width))
		add("")
	}
	// What is on the projector now, and what comes next.
	switch {
	case step == 0:
		head(tr("notesNow", c.lang))
		add(paint(st.Walk.Story, wrap(c.storyText(false, true), width)))
		if story := s.Story.In(c.lang); story != "" && story != c.storyText(false, true) {
			add("")
			head(tr("notesStory", c.lang))
			add(wrap(story, width))
		}
	case step <= w.Decisive:
		cur := w.Steps[step-1]
		head(tr("notesNow", c.lang))
		add(wrap(fmt.Sprintf("%d %s — %s", step, cur.Title, outcomeText(cur.Outcome, c.lang)), width))
		add(paint(st.Walk.Question, indentLines(wrap(cur.Question, width-2), "  ")))
		add(indentLines(wrap(cur.Explanation, width-2), "  "))
		if a := c.asideText(cur.Aside, width-2); a != "" {
			add(indentLines(a, "  "))
		}
	}
	head(tr("notesNext", c.lang))
	switch {
	case step < w.Decisive:
		next := w.Steps[step]
		add(wrap(fmt.Sprintf("%d %s", step+1, next.Title), width))
	case step == w.Decisive:
		add(wrap(tr("verdict", c.lang)+tr("colon", c.lang)+w.Verdict.Symbol+" "+w.Verdict.Headline, width))
	default:
		add(wrap(tr("notesNextScenario", c.lang), width))
	}
	add("")
	// The question for the room, and its answer.
	head(tr("notesAsk", c.lang))
	add(wrap(askText(w, c.lang), width))
	add("")
	// What the verdict does NOT prove: the lesson.
	head(tr("verdict", c.lang) + tr("colon", c.lang) + w.Verdict.Symbol + " " + w.Verdict.Headline)
	for _, d := range w.Verdict.Details {
		add(indentLines(wrap(d.Label+tr("colon", c.lang)+d.Text, width-2), "  "))
	}
	if notes := s.Notes.In(c.lang); notes != "" {
		add("")
		head(tr("notesScenario", c.lang))
		add(wrap(notes, width))
	}
	return joinColumns(height, "", column{c.scrolledPane(lines, width, height, 0, 0, c.scrollHint), width})
}

// askText is the question for the room with its answer.
func askText(w walk.Walk, l assess.Lang) string {
	switch res := w.Result.(type) {
	case assess.Verdict:
		return fmt.Sprintf(tr("notesAskRule", l), w.Decisive, res.CodeName(), w.Steps[w.Decisive-1].Title)
	case walk.OutcomeAnswer:
		return fmt.Sprintf(tr("notesAskClass", l), res.Class)
	}
	return fmt.Sprintf(tr("notesAskAudit", l), w.Verdict.Short)
}

func outcomeText(o assess.Outcome, l assess.Lang) string {
	switch o {
	case assess.Fired:
		return tr("notesFired", l)
	case assess.Passed:
		return tr("notesPassed", l)
	}
	return ""
}

// followNotes follows the presenter: the live scenario, at the step the
// projector shows; the room's end ends the session as for everyone.
func (m Model) followNotes(msg RoomMsg) (Model, tea.Cmd) {
	if msg.Ending != NoGoodbye {
		var cmd tea.Cmd
		m.room, cmd = m.room.follow(&m.c, msg)
		return m, cmd
	}
	c := &m.c
	if msg.Live != "" && (!c.has() || c.written().ID != msg.Live) {
		c.openID(msg.Live)
	}
	if m.room.state.Frozen != NotFrozen && msg.Frozen == NotFrozen {
		c.notice = tr("roomBack", c.lang)
	}
	m.room.state = msg
	if c.has() && msg.Live == c.written().ID {
		c.setStep(msg.Step)
		c.scroll = 0
	}
	return m, nil
}
