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
	"toolgate/scenarios"
	"toolgate/walk"
)

// Fresh practice once the scenarios are known (docs/learn.md): the quiz's
// summary offers cases drawn by package practice — a known admission
// scenario with one small change, whose story says what changed and never
// what it decides — asked as the quiz asks (the rule, its code, then what
// the verdict does NOT prove), each answer followed by the walk. The
// answers move the learner's Leitner boxes (practice.Record), which are
// part of the progress: saved through Options.Save, kept in memory with
// --no-save and in the SSH classroom.

// practiceModel is the practice mode.
type practiceModel struct {
	// seed and draws make the draws: the n-th case comes from a PCG
	// seeded (seed, n), so that Update reads no clock and the same
	// model draws the same case.
	seed  uint64
	draws int
	// cur is the case asked, walks it walked in each language, step how
	// far its walk shows.
	cur   practice.Case
	walks [2]walk.Walk
	step  int
	q     question
	// result is the marked answer to cur, once given.
	result   quizResult
	answered bool
	// points and asked are the session's score in practice.
	points     float64
	asked      int
	showInputs bool
	full       bool
	// back is the mode esc returns to: the quiz's summary, or the room.
	back mode
}

// canPractise reports whether there is anything to practise on: the
// admission scenarios are the cases' bases.
func canPractise(c *common) bool { return len(practice.Bases(c.all)) > 0 }

// enter starts (or resumes) practice from a mode with a fresh case.
func (m practiceModel) enter(c *common, back mode) practiceModel {
	m.back, m.showInputs, m.full = back, false, false
	return m.next(c)
}

// next draws the next case for this learner.
func (m practiceModel) next(c *common) practiceModel {
	r := rand.New(rand.NewPCG(m.seed, uint64(m.draws)))
	m.draws++
	m.cur = practice.Next(c.prog, c.all, r)
	// The story says what changed and asks; it is the scene, shown while
	// the question is open.
	m.cur.Scenario.Scene = m.cur.Scenario.Story
	m.walks = [2]walk.Walk{walk.Of(m.cur.Scenario, assess.English), walk.Of(m.cur.Scenario, assess.Chinese)}
	m.step, m.answered, m.result = 0, false, quizResult{}
	m.q = question{phase: quizAskStep}
	c.scroll, c.inputsScroll = 0, 0
	return m
}

// on is the common as the practice shows it: the case open, outside the
// deck, at its step. The learner's place in the deck is left as it was.
func (m practiceModel) on(c *common) *common {
	cc := *c
	s := m.cur.Scenario
	cc.outside, cc.edited = &s, nil
	cc.at = nav.State{Track: max(slices.Index(scenarios.Tracks, scenarios.TrackAdmission), 0), Step: m.step, Focus: nav.Walk}
	cc.walk = m.walks[c.lang]
	return &cc
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

func (m practiceModel) keys(c *common, now bool) practiceKeyMap {
	k := keySets[c.lang].practice
	// tab shows the inputs where they have no column of their own.
	onIf(layoutFor(c.width, c.height) == layoutOne, &k.Inputs)
	if !now {
		return k
	}
	w := newWalkKeys(c.lang)
	// Stepping before answering is peeking: it only says so.
	k.Peek = key.NewBinding(key.WithKeys(append(slices.Clone(w.Next.Keys()), w.Run.Keys()...)...))
	onIf(m.q.asking(), &k.Answer, &k.Peek)
	if m.full {
		off(&k.Answer, &k.Peek, &k.NextCase, &k.Leave, &k.ScrollDown, &k.ScrollUp, &k.Inputs, &k.Full)
		on(&k.Close, &k.Scroll)
		k.Close.SetHelp("i/esc", tr("kClose", c.lang))
	}
	return k
}

// update takes a key; leave reports that the learner left practice.
func (m practiceModel) update(c *common, msg tea.KeyPressMsg) (next practiceModel, leave bool) {
	k := m.keys(c, true)
	if m.full {
		w, l := newWalkKeys(c.lang), newListKeys(c.lang)
		switch {
		case key.Matches(msg, w.Full), key.Matches(msg, k.Close):
			m.full = false
		case key.Matches(msg, w.ScrollDown), key.Matches(msg, l.Down), key.Matches(msg, w.Next):
			c.inputsScroll++
		case key.Matches(msg, w.ScrollUp), key.Matches(msg, l.Up), key.Matches(msg, w.Back):
			c.inputsScroll--
		}
		return m, false
	}
	switch {
	case key.Matches(msg, k.Answer):
		m.answer(c, int(msg.Code-'0'))
	case key.Matches(msg, k.Peek):
		c.notice = tr("practiceAnswerFirst", c.lang)
	case key.Matches(msg, k.NextCase):
		m = m.next(c)
	case key.Matches(msg, k.Leave):
		return m, true
	case key.Matches(msg, k.Inputs):
		m.showInputs = !m.showInputs
	case key.Matches(msg, k.Full):
		m.full, c.inputsScroll = true, 0
	case key.Matches(msg, k.ScrollDown):
		c.scroll++
	case key.Matches(msg, k.ScrollUp):
		c.scroll--
	}
	return m, false
}

// answer takes a digit: the rule, its code, then what the verdict does
// NOT prove. The rule and code move the boxes, and the walk is shown.
func (m *practiceModel) answer(c *common, digit int) {
	cc := m.on(c)
	asked := m.q
	q, done, step, code := asked.answer(cc, digit)
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
	right, half := practice.Record(&c.prog, m.cur, step, code.Name(m.cur.Verdict.ApprovalStatus))
	c.dirty = true
	m.result = cc.mark(step, code)
	m.result.right, m.result.half = right, half
	m.answered = true
	m.asked++
	switch {
	case right:
		m.points++
	case half:
		m.points += 0.5
	}
	m.step = m.walks[c.lang].Decisive + 1
	c.scroll, c.inputsScroll = 0, 0
	// The seed's central column, as in the quiz: what the verdict does
	// NOT prove, asked before its lines are shown.
	m.q = caveatQuestion(m.on(c))
}

// title is the pane's title: the case's number in this session and the
// scenario it changes.
func (m practiceModel) title(c *common) string {
	b := m.cur.Base
	return fmt.Sprintf(tr("practiceTitle", c.lang), m.draws, b.Number, b.Title.In(c.lang))
}

// body is the practice's panes: the case's walk with the question or the
// marked answer, and its inputs.
func (m practiceModel) body(cc *common) body {
	x := walkExtras{title: m.title(cc), hint: tr("practiceHintNext", cc.lang)}
	if m.answered {
		x.question = cc.resultLines(m.result)
	}
	if m.q.asking() {
		x.question = append(x.question, m.q.lines(cc)...)
		x.hint = tr("practiceHint", cc.lang)
		if m.q.phase == quizAskCaveat {
			x.hint = tr("practiceHintCaveat", cc.lang)
			x.hideCaveats = true
		}
	}
	x.keepRules = m.q.numbersSteps()
	return body{right: cc.renderInputs, extras: x, giveWay: true, alone: m.showInputs, full: m.full}
}

func (m practiceModel) view(c *common, height int) string {
	cc := m.on(c)
	return cc.renderBody(m.body(cc), height)
}

// headerRight is the practice's score for the header.
func (m practiceModel) headerRight(c *common) string {
	return fmt.Sprintf(tr("practiceScore", c.lang), scoreText(m.points, m.asked))
}
