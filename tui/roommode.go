package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// roomModel is a session in the lecture hall: a student follows the live
// scenario, may wander, and answers the room's question; the presenter
// leads, opens the question and reveals it.
type roomModel struct {
	c     common
	place place
	list  browsing
	panes panes
	room  Room
	state RoomMsg
	q     question
	// answered is the round this session answered, said what it said.
	answered int
	said     quizResult
	out      outbox
	// classCode is shown to the presenter, for the projector.
	classCode string
}

var _ component = roomModel{}

func newRoomModel(c common, p place, room Room, classCode string) roomModel {
	return roomModel{c: c, place: p, list: newBrowsing(), panes: newPanes(), room: room, classCode: classCode}
}

func (m roomModel) scene() scene { return scene{m.c, m.place} }

// question is the room's question as the room last said: open or not,
// and which round.
func (m roomModel) question() (open bool, round int) { return m.state.Open, m.state.Round }

// liveOpen reports whether the open scenario is the room's live one.
func (m roomModel) liveOpen() bool {
	return m.place.has() && m.place.written().ID == m.state.Live
}

// questionOpen reports whether this student is in an open question on
// the live scenario: no peeking then.
func (m roomModel) questionOpen() bool {
	return !m.room.Presenter() && m.state.Open && m.liveOpen()
}

// held reports whether this student's walk of the live scenario is held:
// from the moment it goes live until its answer is revealed, the walk
// follows the presenter (the projector shows no more), and the title that
// would answer the room's question stays back in every pane.
func (m roomModel) held() bool {
	return !m.room.Presenter() && m.state.Live != "" && m.place.has() && m.liveOpen() && !m.state.Revealed
}

func (m roomModel) keys(now bool) roomKeyMap {
	c := m.scene()
	ks := c.keys()
	k := roomKeyMap{walkKeys: ks.walk, listKeys: ks.list, Answer: ks.answer, OpenPoll: ks.openPoll,
		Reveal: ks.reveal, ToLive: ks.toLive, Practice: ks.roomPractice, Projector: ks.projector, globalKeys: ks.global}
	presenter := m.room.Presenter()
	onIf(presenter, &k.OpenPoll, &k.Reveal, &k.Projector)
	onIf(!presenter, &k.Answer)
	// A student practises between the room's questions, in memory only.
	onIf(!presenter && canPractise(m.place.deck), &k.Practice)
	onIf(!presenter && m.state.Live != "" && !m.liveOpen(), &k.ToLive)
	// The room's poll is the question; the learner's own quiz is not.
	off(&k.Quiz)
	c.layoutKeys(&k.walkKeys, &k.listKeys)
	if !now {
		if !canPath(&m.place) {
			off(&k.WhatIf) // the help lists what-if where it works
		}
		return k
	}
	c.stepKeysFor(&k.walkKeys, &k.listKeys)
	asking := m.q.asking() && m.liveOpen()
	onIf(asking, &k.Answer)
	answerHelp(&k.Answer, m.q, c)
	if asking {
		off(&k.Jump)
	}
	onIf(canPath(&m.place) && !m.questionOpen(), &k.Path)
	if m.held() {
		// No peeking on the live scenario before its reveal.
		off(&k.Next, &k.Run, &k.Restart, &k.WhatIf, &k.Path)
	}
	if m.state.Open {
		off(&k.Practice)
	}
	m.list.stateKeys(c.lang, &k.walkKeys, &k.listKeys, &k.globalKeys)
	if m.list.busy() {
		off(&k.Answer, &k.OpenPoll, &k.Reveal, &k.ToLive, &k.Practice, &k.Projector)
	}
	return k
}

func (m roomModel) KeyMap() modeKeys     { return m.keys(true) }
func (m roomModel) HelpKeyMap() modeKeys { return m.keys(false) }

func (m roomModel) Update(msg tea.Msg) (component, tea.Cmd) {
	m.out, m.place.events = nil, nil
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case progressMsg:
		m.list.walked = msg.p.Walked
		return m, nil
	case backMsg:
		// Back from the what-if: its place if it is still on the room's
		// scenario (the room may have moved on meanwhile), and the
		// presenter's room follows.
		if msg.place.has() && m.place.has() && msg.place.written().ID == m.place.written().ID {
			m.place = msg.place
		}
		m.lead(m.place)
	case commonMsg:
		m.c = msg.c
		m.place.setLang(m.c.lang)
	case deckMsg:
		m.place.reload(msg.d)
		m.q = question{}
	case RoomMsg:
		cmd = m.follow(msg)
	case leadMsg:
		m.lead(msg.place)
		return m, nil
	case placeMsg:
		// The projector leads: the room's layout shows where it is.
		m.place = msg.place
		m.lead(m.place)
	case tea.KeyPressMsg:
		m, cmd = m.key(msg)
		m.lead(m.place)
	case tea.MouseWheelMsg:
		m.list.wheel(&m.place, msg)
	case tea.MouseClickMsg:
		m.list.click(m.panes, m.scene(), &m.place, m.body(), msg, !m.questionOpen())
		m.lead(m.place)
	}
	m.fill()
	return m, cmd
}

func (m roomModel) key(msg tea.KeyPressMsg) (roomModel, tea.Cmd) {
	k := m.keys(true)
	p := &m.place
	switch {
	case m.list.busy():
	case key.Matches(msg, k.ToLive):
		p.openID(m.state.Live)
		if m.held() && !m.state.Open {
			p.setStep(min(m.state.Step, p.lastStep()))
		}
		return m, nil
	case key.Matches(msg, k.OpenPoll):
		// A question starts from the scene: a verdict still on the
		// screen would answer it.
		p.setStep(0)
		m.lead(*p)
		m.room.Open()
		return m, nil
	case key.Matches(msg, k.Projector):
		m.out.post(projectorMsg{on: true, place: handed(*p)})
		return m, nil
	case key.Matches(msg, k.Reveal):
		m.room.Reveal()
		return m, nil
	case key.Matches(msg, k.Practice):
		m.out.post(practiseMsg{})
		return m, nil
	case key.Matches(msg, k.Answer):
		asked := m.q
		next, done, step, code := m.q.answer(m.scene(), int(msg.Code-'0'))
		m.q = next
		switch {
		case done:
			if asked.phase != quizAskCode {
				m.room.Answer(step)
			}
			m.answered = m.state.Round
			m.said = m.scene().mark(step, code)
		case asked.phase == quizAskStep && next.phase == quizAskCode:
			// The room counts rules: the rule goes at once, and a
			// reveal before the code finds it (half right, said so).
			m.room.Answer(next.picked)
			m.answered = m.state.Round
			m.said = m.scene().markRule(next.picked)
		}
		return m, nil
	case m.held() && key.Matches(msg, newWalkKeys(m.c.lang).Next, newWalkKeys(m.c.lang).Run):
		m.out.say(tr("roomWaitReveal", m.c.lang))
		return m, nil
	}
	var cmd tea.Cmd
	m.list.filter.hide = func(id string) bool { return m.held() && id == m.state.Live }
	m.list, cmd = m.list.handle(m.c, p, &m.out, msg, k.walkKeys, k.listKeys, !m.held())
	return m, cmd
}

// follow takes the room's news: the presenter's live scenario, a new
// question, the reveal, the end.
func (m *roomModel) follow(msg RoomMsg) tea.Cmd {
	prev := m.state
	m.state = msg
	p := &m.place
	if prev.Frozen != NotFrozen && msg.Frozen == NotFrozen {
		m.out.say(tr("roomBack", m.c.lang))
	}
	if msg.Ending != NoGoodbye {
		m.out.say(msg.Ending.Text(m.c.lang))
		return tea.Sequence(tea.Tick(2*time.Second, func(time.Time) tea.Msg { return nil }), tea.Quit)
	}
	// Students follow the presenter to a new live scenario (and may wander
	// again afterwards).
	if msg.Live != "" && msg.Live != prev.Live {
		p.openID(msg.Live)
	}
	if m.held() && !msg.Open && !m.q.asking() {
		// Until the question is asked, the walk is where the presenter
		// has it on the projector.
		p.setStep(min(msg.Step, p.lastStep()))
	}
	if msg.Open && (!prev.Open || prev.Round != msg.Round) && !m.room.Presenter() {
		// A new question: predict before the walk is revealed.
		if !m.liveOpen() {
			p.openID(msg.Live)
		}
		p.setStep(0)
		m.q = firstQuestion(m.scene())
	}
	if msg.Revealed && !prev.Revealed && m.liveOpen() {
		m.q = question{}
		p.setStep(p.lastStep())
		// The presenter's screen shows the verdict now: the notes follow.
		m.lead(*p)
	}
	if msg.Live == "" {
		// Nothing is live yet: the scenario on the presenter's screen
		// is (a presenter who takes the room over follows it instead).
		m.lead(*p)
	}
	return nil
}

// lead tells the room where its presenter is, after each key: at the
// room's place, or the what-if's while the presenter experiments.
func (m *roomModel) lead(at place) {
	if m.room.Presenter() && at.has() && (at.written().ID != m.state.Live || at.at.Step != m.state.Step) {
		m.state.Live, m.state.Step = at.written().ID, at.at.Step
		m.room.Go(m.state.Live, m.state.Step)
	}
}

// lines are what the room adds to the walk pane: for the presenter the
// poll and the status line, for a student the round's state.
func (m roomModel) lines() []string {
	c := m.scene()
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
		switch {
		case rs.Open:
			// The answers by rule would spoil the question for anyone
			// who sees this screen: only how many answered, until the
			// reveal. The notes screen has them as they come.
			lines = append(lines, answeredText(rs, c.lang),
				c.styles.Dim.Render(tr("roomCountsAtReveal", c.lang)))
		case rs.Revealed:
			lines = append(lines, histogram(rs, c.track(), c.walk, c.lang))
		}
		var status []string // each item dimmed, so that the line breaks between them
		for _, item := range strings.Split(fmt.Sprintf(tr("roomStatus", c.lang), rs.Sessions, rs.Peak, rs.Answered), " · ") {
			status = append(status, c.styles.Dim.Render(item))
		}
		lines = append(lines, strings.Join(status, " · "))
		return lines
	}
	switch {
	case rs.Open && m.answered == rs.Round && m.liveOpen() && m.q.phase == quizAskCode:
		lines = append(lines, fmt.Sprintf(tr("roomRuleSent", c.lang), m.q.picked))
	case rs.Open && m.answered == rs.Round && m.liveOpen():
		lines = append(lines, tr("roomWaiting", c.lang))
	case rs.Revealed && m.answered == rs.Round && rs.Round > 0 && m.liveOpen():
		lines = append(lines, c.resultLines(m.said)...)
	case rs.Live != "" && !m.liveOpen() && rs.Open && m.answered != rs.Round:
		lines = append(lines, c.styles.Verdict.Label.Render(tr("roomQuestionAway", c.lang)))
	case rs.Live != "" && !m.liveOpen():
		lines = append(lines, c.styles.Dim.Render(tr("roomElsewhere", c.lang)))
	case m.held() && !rs.Open:
		lines = append(lines, c.styles.Dim.Render(tr("roomHeld", c.lang)))
	}
	return lines
}

// body is the room's panes: the walk with the room's state and question.
func (m roomModel) body() body {
	c := m.scene()
	x := walkExtras{hint: c.stepHint(false), room: m.lines()}
	if m.held() {
		// Stepping waits for the reveal: no hint says otherwise, and
		// nothing names the answer.
		x.hint = ""
		x.hideTitle = true
		x.maskID = m.state.Live
	}
	if m.q.asking() && m.liveOpen() {
		x.question = m.q.lines(c)
		x.hint = ""
		x.hideTitle = true
		x.keepRules = m.q.numbersSteps()
		x.answering = true
	}
	return m.list.body(c, x)
}

func (m *roomModel) fill() { m.list.fill(&m.panes, m.c, &m.place, m.body()) }

func (m roomModel) SetSize(width, height int) component {
	m.c.width, m.c.height = width, height
	m.fill()
	return m
}

func (m roomModel) View() string { return m.panes.draw(m.c, m.body(), m.c.height-2) }

func (m roomModel) Posted() []tea.Msg { return append(m.out, m.place.events...) }

func (m roomModel) Status() status {
	return status{place: m.place, right: m.place.where(), frozen: m.state.Frozen}
}
