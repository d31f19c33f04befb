package tui

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"toolgate/assess"
	"toolgate/nav"
	"toolgate/practice"
	"toolgate/progress"
	"toolgate/scenarios"
)

// Fresh practice once the scenarios are known (docs/learn.md): the quiz's
// summary offers cases drawn by package practice — a known admission
// scenario with one small change, whose story says what changed and never
// what it decides — asked as the quiz asks (the rule, its code, then what
// the verdict does NOT prove), each answer followed by the walk. The
// answers move the learner's Leitner boxes, which the root records through
// practice.Record and keeps with the progress: saved through
// Options.Save, in memory with --no-save and in the SSH classroom.

// practiceModel is the practice mode.
type practiceModel struct {
	c common
	// place is the case, walked outside the deck.
	place place
	panes panes
	// seed and draws make the draws: the n-th case comes from a PCG
	// seeded (seed, n), so that Update reads no clock and the same
	// model draws the same case.
	seed  uint64
	draws int
	cur   practice.Case
	q     question
	// result is the marked answer to cur, once given.
	result   quizResult
	answered bool
	// points and asked are the session's score in practice.
	points     float64
	asked      int
	showInputs bool
	full       bool
	// prog is the learner's progress as the root last sent it: the
	// draws lean toward its lowest boxes.
	prog progress.Progress
	out  outbox
}

var _ component = practiceModel{}

func newPracticeModel(c common, d *deck, seed uint64, prog progress.Progress) practiceModel {
	return practiceModel{c: c, place: newPlace(d, c.lang), panes: newPanes(), seed: seed, prog: prog}
}

func (m practiceModel) scene() scene { return scene{m.c, m.place} }

// canPractise reports whether there is anything to practise on: the
// admission scenarios are the cases' bases.
func canPractise(d *deck) bool { return len(practice.Bases(d.all)) > 0 }

// next draws the next case for this learner.
func (m practiceModel) next() practiceModel {
	r := rand.New(rand.NewPCG(m.seed, uint64(m.draws)))
	m.draws++
	m.cur = practice.Next(m.prog, m.place.deck.all, r)
	// The story says what changed and asks; it is the scene, shown while
	// the question is open.
	s := m.cur.Scenario
	s.Scene = s.Story
	m.place.outside = &s
	m.place.at = nav.State{Track: max(slices.Index(scenarios.Tracks, scenarios.TrackAdmission), 0), Focus: nav.Walk}
	m.place.opened()
	m.place.scroll, m.place.inputsScroll = 0, 0
	m.answered, m.result = false, quizResult{}
	m.q = question{phase: quizAskStep}
	return m
}

// practiceKeyMap is the practice's keys: answer, the next case, leave.
type practiceKeyMap struct {
	Answer, Peek, NextCase, Leave key.Binding
	ScrollDown, ScrollUp          key.Binding
	Inputs, Full, Close, Scroll   key.Binding
	globalKeys
}

func makePracticeKeyMap(l assess.Lang) practiceKeyMap {
	g := makeNewGlobalKeys(l)
	off(&g.Quiz, &g.WhatIf)
	w := makeNewWalkKeys(l)
	return practiceKeyMap{
		Answer:     makeAnswerBinding(l),
		NextCase:   binding(l, []string{"n"}, "n", "kNextCase"),
		Leave:      binding(l, []string{"esc"}, "esc", "kLeavePractice"),
		ScrollDown: w.ScrollDown, ScrollUp: w.ScrollUp,
		Inputs: w.Inputs, Full: w.Full, Close: w.Close, Scroll: w.Scroll,
		globalKeys: g,
	}
}

func (k practiceKeyMap) ShortHelp() []key.Binding {
	return enabled(k.Close, k.Scroll, k.Answer, k.NextCase, k.Leave, k.Inputs, k.Lang, k.Help, k.Quit)
}

func (k practiceKeyMap) FullHelp() [][]key.Binding {
	return columnsOf(
		[]key.Binding{k.Answer, k.NextCase, k.Leave},
		[]key.Binding{k.ScrollDown, k.ScrollUp, k.Inputs, k.Full},
		[]key.Binding{k.Lang, k.Help, k.Quit},
	)
}

func (m practiceModel) keys(now bool) practiceKeyMap {
	k := m.c.keys().practice
	// tab shows the inputs where they have no column of their own.
	onIf(m.c.layout() == layoutOne, &k.Inputs)
	if !now {
		return k
	}
	w := newWalkKeys(m.c.lang)
	// Stepping before answering is peeking: it only says so.
	k.Peek = key.NewBinding(key.WithKeys(append(slices.Clone(w.Next.Keys()), w.Run.Keys()...)...))
	onIf(m.q.asking(), &k.Answer, &k.Peek)
	if m.full {
		off(&k.Answer, &k.Peek, &k.NextCase, &k.Leave, &k.ScrollDown, &k.ScrollUp, &k.Inputs, &k.Full)
		on(&k.Close, &k.Scroll)
		k.Close.SetHelp("i/esc", tr("kClose", m.c.lang))
	}
	return k
}

func (m practiceModel) KeyMap() modeKeys     { return m.keys(true) }
func (m practiceModel) HelpKeyMap() modeKeys { return m.keys(false) }

func (m practiceModel) Update(msg tea.Msg) (component, tea.Cmd) {
	m.out, m.place.events = nil, nil
	switch msg := msg.(type) {
	case progressMsg:
		m.prog = msg.p
		return m, nil
	case enterMsg:
		// Practice starts (or resumes) with a fresh case.
		m.showInputs, m.full = false, false
		m = m.next()
	case commonMsg:
		m.c = msg.c
		m.place.setLang(m.c.lang)
	case deckMsg:
		m.place.reload(msg.d)
	case tea.KeyPressMsg:
		m.key(msg)
	case tea.MouseWheelMsg:
		overlays{full: m.full}.wheel(&m.place, msg)
	}
	m.fill()
	return m, nil
}

func (m *practiceModel) key(msg tea.KeyPressMsg) {
	k := m.keys(true)
	p := &m.place
	if m.full {
		w, l := newWalkKeys(m.c.lang), newListKeys(m.c.lang)
		switch {
		case key.Matches(msg, w.Full), key.Matches(msg, k.Close):
			m.full = false
		case key.Matches(msg, w.ScrollDown), key.Matches(msg, l.Down), key.Matches(msg, w.Next):
			p.inputsScroll++
		case key.Matches(msg, w.ScrollUp), key.Matches(msg, l.Up), key.Matches(msg, w.Back):
			p.inputsScroll--
		}
		return
	}
	switch {
	case key.Matches(msg, k.Answer):
		m.answer(int(msg.Code - '0'))
	case key.Matches(msg, k.Peek):
		m.out.say(tr("practiceAnswerFirst", m.c.lang))
	case key.Matches(msg, k.NextCase):
		*m = m.next()
	case key.Matches(msg, k.Leave):
		m.out.post(leaveMsg{})
	case key.Matches(msg, k.Inputs):
		m.showInputs = !m.showInputs
	case key.Matches(msg, k.Full):
		m.full, p.inputsScroll = true, 0
	case key.Matches(msg, k.ScrollDown):
		p.scroll++
	case key.Matches(msg, k.ScrollUp):
		p.scroll--
	}
}

// answer takes a digit: the rule, its code, then what the verdict does
// NOT prove. The rule and code go to the boxes (practisedMsg), and the
// walk is shown.
func (m *practiceModel) answer(digit int) {
	asked := m.q
	q, done, step, code := asked.answer(m.scene(), digit)
	m.q = q
	switch {
	case !done:
		return
	case asked.phase == quizAskCaveat:
		m.result.caveat, m.result.caveatRight = -1, asked.options[asked.correct-1]
		if step == asked.correct {
			m.result.caveat = 1
		}
		return
	}
	m.out.post(practisedMsg{c: m.cur, rule: step, codeName: code.Name(m.cur.Verdict.ApprovalStatus)})
	m.result = m.scene().mark(step, code)
	m.answered = true
	m.asked++
	switch {
	case m.result.right:
		m.points++
	case m.result.half:
		m.points += 0.5
	}
	m.place.at.Step = m.place.lastStep()
	m.place.scroll, m.place.inputsScroll = 0, 0
	// The seed's central column, as in the quiz: what the verdict does
	// NOT prove, asked before its lines are shown.
	m.q = caveatQuestion(m.scene())
}

// title is the pane's title: the case's number in this session and the
// number of the scenario it changes — not its title, which can be the
// deciding rule's ("Correlation conflict") and give the answer away.
func (m practiceModel) title() string {
	return fmt.Sprintf(tr("practiceTitle", m.c.lang), m.draws, m.cur.Base.Number)
}

// body is the practice's panes: the case's walk with the question or the
// marked answer, and its inputs.
func (m practiceModel) body() body {
	c := m.scene()
	x := walkExtras{title: m.title(), hint: tr("practiceHintNext", c.lang)}
	if m.answered {
		x.question = c.resultLines(m.result)
	}
	if m.q.asking() {
		x.question = append(x.question, m.q.lines(c)...)
		x.hint = tr("practiceHint", c.lang)
		if m.q.phase == quizAskCaveat {
			x.hint = tr("practiceHintCaveat", c.lang)
			x.hideCaveats = true
		}
	}
	x.keepRules = m.q.numbersSteps()
	return body{inputs: true, extras: x, giveWay: true, alone: m.showInputs, full: m.full}
}

func (m *practiceModel) fill() {
	if m.place.outside != nil {
		m.panes.fill(m.c, &m.place, m.body(), m.c.height-2)
	}
}

func (m practiceModel) SetSize(width, height int) component {
	m.c.width, m.c.height = width, height
	m.fill()
	return m
}

func (m practiceModel) View() string { return m.panes.draw(m.c, m.body(), m.c.height-2) }

func (m practiceModel) Posted() []tea.Msg { return append(m.out, m.place.events...) }

func (m practiceModel) Status() status {
	return status{place: m.place, practice: true, right: fmt.Sprintf(tr("practiceScore", m.c.lang), scoreText(m.points, m.asked))}
}

// recordPractice moves the learner's boxes after a practice answer: only
// through practice.Record.
func recordPractice(p *progress.Progress, msg practisedMsg) {
	practice.Record(p, msg.c, msg.rule, msg.codeName)
}
