package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"toolgate/assess"
	"toolgate/scenarios"
	"toolgate/walk"
)

// Room is the lecture hall a session is part of when toolgate is served
// over SSH. The trainer calls it; the room answers by sending RoomMsg to
// every session's program.
type Room interface {
	// Presenter reports whether this session leads the room.
	Presenter() bool
	// Go makes a scenario live for everyone, at a step of its walk
	// (presenter only); the step is for the notes screen.
	Go(scenarioID string, step int)
	// Open opens the question on the live scenario (presenter only).
	Open()
	// Reveal shows everyone the walk and whether they were right
	// (presenter only).
	Reveal()
	// Answer sends this session's prediction for the open question: the
	// step (rule or class). The code of an admission answer is the
	// session's own: it marks the answer right or wrong on this screen,
	// and the room's histogram counts steps only.
	Answer(step int)
}

// RoomMsg is the room's state as one session sees it.
type RoomMsg struct {
	// Live is the id of the scenario the presenter shows, Step how far
	// the presenter has walked it.
	Live string
	Step int
	// Round counts the questions opened; Open says the current one takes
	// answers; Revealed that its answer is shown.
	Round    int
	Open     bool
	Revealed bool
	// Counts are the answers of this round by step (presenter only).
	Counts map[int]int
	// Answered, Students, Sessions, Peak are for the presenter's status;
	// Anonymous counts the answers given without an identity (a client
	// that offered no key votes once a session).
	Answered, Students, Sessions, Peak int
	Anonymous                          int
	// Ending, when set, is the room's last word to this session.
	Ending Goodbye
	// Frozen says the room is out of reach: its state stays as it was,
	// and the session says so until it is back.
	Frozen Frozen
}

// Frozen is whether a room shared across servers is out of reach.
type Frozen uint8

const (
	// NotFrozen: the room is within reach (a room of one server always).
	NotFrozen Frozen = iota
	// FrozenForNow: out of reach; it goes on when it is back, with the
	// answers given meanwhile.
	FrozenForNow
	// FrozenForGood: out of reach for good on this server; connecting
	// again (to another) rejoins.
	FrozenForGood
)

// text is what a session says while the room is frozen.
func (f Frozen) text(l assess.Lang) string {
	switch f {
	case FrozenForNow:
		return tr("roomFrozen", l)
	case FrozenForGood:
		return tr("roomFrozenForGood", l)
	}
	return ""
}

// roomModel is a session in the lecture hall: a student follows the live
// scenario, may wander, and answers the room's question; the presenter
// leads, opens the question and reveals it.
type roomModel struct {
	room  Room
	state RoomMsg
	q     question
	// answered is the round this session answered, said what it said.
	answered int
	said     quizResult
	// classCode is shown to the presenter, for the projector.
	classCode string
}

// liveOpen reports whether the open scenario is the room's live one.
func (m roomModel) liveOpen(c *common) bool {
	return c.has() && c.written().ID == m.state.Live
}

// questionOpen reports whether this student is in an open question on
// the live scenario: no peeking then.
func (m roomModel) questionOpen(c *common) bool {
	return !m.room.Presenter() && m.state.Open && m.liveOpen(c)
}

// held reports whether this student's walk of the live scenario is held:
// from the moment it goes live until its answer is revealed, the walk
// follows the presenter (the projector shows no more), and the title that
// would answer the room's question stays back in every pane.
func (m roomModel) held(c *common) bool {
	return !m.room.Presenter() && m.state.Live != "" && c.has() && m.liveOpen(c) && !m.state.Revealed
}

func (m roomModel) keys(c *common, b *browseModel, now bool) roomKeyMap {
	k := roomKeyMap{walkKeys: newWalkKeys(c.lang), listKeys: newListKeys(c.lang),
		Answer: answerBinding(c.lang), OpenPoll: keySets[c.lang].openPoll,
		Reveal: keySets[c.lang].reveal, ToLive: keySets[c.lang].toLive, globalKeys: newGlobalKeys(c.lang)}
	presenter := m.room.Presenter()
	onIf(presenter, &k.OpenPoll, &k.Reveal)
	onIf(!presenter, &k.Answer)
	onIf(!presenter && m.state.Live != "" && !m.liveOpen(c), &k.ToLive)
	// The room's poll is the question; the learner's own quiz is not.
	off(&k.Quiz)
	c.layoutKeys(&k.walkKeys, &k.listKeys)
	if !now {
		return k
	}
	c.stepKeysFor(&k.walkKeys, &k.listKeys)
	asking := m.q.asking() && m.liveOpen(c)
	onIf(asking, &k.Answer)
	if asking {
		off(&k.Jump)
	}
	onIf(canPath(c) && !m.questionOpen(c), &k.Path)
	if m.held(c) {
		// No peeking on the live scenario before its reveal.
		off(&k.Next, &k.Run, &k.Restart, &k.WhatIf, &k.Path)
	}
	b.stateKeys(c, &k.walkKeys, &k.listKeys, &k.globalKeys)
	if b.busy() {
		off(&k.Answer, &k.OpenPoll, &k.Reveal, &k.ToLive)
	}
	return k
}

func (m roomModel) update(c *common, b *browseModel, msg tea.KeyPressMsg) (roomModel, tea.Cmd) {
	k := m.keys(c, b, true)
	switch {
	case b.busy():
	case key.Matches(msg, k.ToLive):
		c.openID(m.state.Live)
		if m.held(c) && !m.state.Open {
			c.setStep(min(m.state.Step, c.lastStep()))
		}
		return m, nil
	case key.Matches(msg, k.OpenPoll):
		m.room.Open()
		return m, nil
	case key.Matches(msg, k.Reveal):
		m.room.Reveal()
		return m, nil
	case key.Matches(msg, k.Answer):
		next, done, step, code := m.q.answer(c, int(msg.Code-'0'))
		m.q = next
		if done {
			m.room.Answer(step)
			m.answered = m.state.Round
			m.said = c.mark(step, code)
		}
		return m, nil
	case m.held(c) && key.Matches(msg, newWalkKeys(c.lang).Next, newWalkKeys(c.lang).Run):
		c.notice = tr("roomWaitReveal", c.lang)
		return m, nil
	}
	var cmd tea.Cmd
	b.filter.hide = func(id string) bool { return m.held(c) && id == m.state.Live }
	*b, cmd = b.handle(c, msg, k.walkKeys, k.listKeys, !m.held(c))
	return m, cmd
}

// follow takes the room's news: the presenter's live scenario, a new
// question, the reveal, the end.
func (m roomModel) follow(c *common, msg RoomMsg) (roomModel, tea.Cmd) {
	prev := m.state
	m.state = msg
	if prev.Frozen != NotFrozen && msg.Frozen == NotFrozen {
		c.notice = tr("roomBack", c.lang)
	}
	if msg.Ending != NoGoodbye {
		c.notice = msg.Ending.Text(c.lang)
		return m, tea.Sequence(tea.Tick(2*time.Second, func(time.Time) tea.Msg { return nil }), tea.Quit)
	}
	// Students follow the presenter to a new live scenario (and may wander
	// again afterwards).
	if msg.Live != "" && msg.Live != prev.Live {
		c.openID(msg.Live)
	}
	if m.held(c) && !msg.Open && !m.q.asking() {
		// Until the question is asked, the walk is where the presenter
		// has it on the projector.
		c.setStep(min(msg.Step, c.lastStep()))
	}
	if msg.Open && (!prev.Open || prev.Round != msg.Round) && !m.room.Presenter() {
		// A new question: predict before the walk is revealed.
		if !m.liveOpen(c) {
			c.openID(msg.Live)
		}
		c.setStep(0)
		m.q = firstQuestion(c)
	}
	if msg.Revealed && !prev.Revealed && m.liveOpen(c) {
		m.q = question{}
		c.setStep(c.lastStep())
	}
	return m, nil
}

// lead tells the room where the presenter is, after each key.
func (m roomModel) lead(c *common) roomModel {
	if m.room.Presenter() && c.has() && (c.written().ID != m.state.Live || c.at.Step != m.state.Step) {
		m.state.Live, m.state.Step = c.written().ID, c.at.Step
		m.room.Go(m.state.Live, m.state.Step)
	}
	return m
}

// lines are what the room adds to the walk pane: for the presenter the
// poll and the status line, for a student the round's state.
func (m roomModel) lines(c *common) []string {
	rs := m.state
	var lines []string
	if m.room.Presenter() {
		lines = append(lines, c.styles.Verdict.Label.Render(tr("roomPresenter", c.lang)))
		if m.classCode != "" {
			lines = append(lines, fmt.Sprintf(tr("roomClassCode", c.lang), m.classCode))
		}
		switch {
		case rs.Open:
			lines = append(lines, fmt.Sprintf(tr("roomPollOpen", c.lang), rs.Round))
		case rs.Revealed:
			lines = append(lines, fmt.Sprintf(tr("roomPollRevealed", c.lang), rs.Round))
		default:
			lines = append(lines, tr("roomPollClosed", c.lang))
		}
		if rs.Round > 0 {
			lines = append(lines, histogram(rs, c.track(), c.walk, c.lang))
		}
		lines = append(lines, c.styles.Dim.Render(fmt.Sprintf(tr("roomStatus", c.lang), rs.Sessions, rs.Peak, rs.Answered)))
		return lines
	}
	switch {
	case rs.Open && m.answered == rs.Round && m.liveOpen(c):
		lines = append(lines, tr("roomWaiting", c.lang))
	case rs.Revealed && m.answered == rs.Round && rs.Round > 0 && m.liveOpen(c):
		lines = append(lines, c.resultLines(m.said)...)
	case rs.Live != "" && !m.liveOpen(c) && rs.Open && m.answered != rs.Round:
		lines = append(lines, c.styles.Verdict.Label.Render(tr("roomQuestionAway", c.lang)))
	case rs.Live != "" && !m.liveOpen(c):
		lines = append(lines, c.styles.Dim.Render(tr("roomElsewhere", c.lang)))
	case m.held(c) && !rs.Open:
		lines = append(lines, c.styles.Dim.Render(tr("roomHeld", c.lang)))
	}
	return lines
}

func (m roomModel) view(c *common, b *browseModel, height int) string {
	if b.path != nil {
		return b.path.render(c, c.width, height)
	}
	return c.renderBody(m.body(c, b), height)
}

// body is the room's panes: the walk with the room's state and question.
func (m roomModel) body(c *common, b *browseModel) body {
	x := walkExtras{hint: c.stepHint(false), room: m.lines(c)}
	if m.held(c) {
		// Stepping waits for the reveal: no hint says otherwise, and
		// nothing names the answer.
		x.hint = ""
		x.hideTitle = true
		x.maskID = m.state.Live
	}
	if m.q.asking() && m.liveOpen(c) {
		x.question = m.q.lines(c)
		x.hint = ""
		x.hideTitle = true
		x.keepRules = m.q.numbersSteps()
	}
	return b.body(c, x)
}

// histogram is the answers by step without names:
// "rule 4: 12 · rule 7: 31 · answered 43 of 60"; an outcome's steps are
// named by the class each asks about in the live walk w.
func histogram(rs RoomMsg, track string, w walk.Walk, l assess.Lang) string {
	var steps []int
	for s := range rs.Counts {
		steps = append(steps, s)
	}
	slices.Sort(steps)
	var parts []string
	for _, s := range steps {
		name := fmt.Sprintf("%s %d", tr("rule", l), s)
		switch track {
		case scenarios.TrackOutcome:
			name = className(w, s, l)
		case scenarios.TrackAudit:
			name = fmt.Sprintf("%s %d", tr("option", l), s)
		}
		parts = append(parts, fmt.Sprintf("%s: %d", name, rs.Counts[s]))
	}
	parts = append(parts, fmt.Sprintf(tr("roomAnswered", l), rs.Answered, rs.Students))
	if rs.Anonymous > 0 {
		parts = append(parts, fmt.Sprintf(tr("roomAnonymous", l), rs.Anonymous))
	}
	return strings.Join(parts, " · ")
}
