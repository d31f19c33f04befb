package tui

import (
	"fmt"
	"slices"
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"toolgate/assess"
	"toolgate/nav"
	"toolgate/progress"
	"toolgate/scenarios"
)

// quizModel is the quiz mode: each scenario asks first, then reveals the
// walk and marks the answer; the end of the track shows a summary.
type quizModel struct {
	c     common
	place place
	list  browsing
	panes panes
	q     question
	// results are this session's answers and those of earlier sessions
	// (the progress), by scenario id; order is the order answered.
	results map[string]quizResult
	order   []string
	summary bool
	// prog is the learner's progress as the root last sent it.
	prog progress.Progress
	out  outbox
}

var _ component = quizModel{}

func newQuizModel(c common, p place, prog progress.Progress) quizModel {
	return quizModel{c: c, place: p, list: newBrowsing(), panes: newPanes(), prog: prog}
}

func (m quizModel) scene() scene { return scene{m.c, m.place} }

// quizzable reports whether the quiz asks about the open scenario: every
// track asks (the audit offers a choice of diagnostics).
func quizzable(p *place) bool { return p.has() }

// resume takes the answers given in earlier sessions (the saved
// progress), so a restarted quiz keeps its score and does not ask again,
// and (move) opens the first scenario of the track not answered yet,
// from the one open: a quiz started with --quiz resumes; one turned on
// with g stays where the learner is.
func (m quizModel) resume(move bool) quizModel {
	if m.results == nil {
		m.results = map[string]quizResult{}
	}
	for _, in := range m.place.deck.byTrack {
		for _, s := range in {
			a, ok := m.prog.Quiz[s.ID]
			if _, have := m.results[s.ID]; !ok || have {
				continue
			}
			m.results[s.ID] = quizResult{number: s.Number, title: s.Title, said: savedAnswer(a.Said), decided: savedAnswer(a.Decided),
				right: a.Right, half: a.Half, caveat: map[string]int{"right": 1, "wrong": -1}[a.Caveat], caveatRight: caveatOf(s)}
			m.order = append(m.order, s.ID)
		}
	}
	p := &m.place
	if n := len(p.inTrack()); n > 0 && move {
		for i := range n {
			j := (p.at.Scenario + i) % n
			if _, done := m.results[p.inTrack()[j].ID]; !done {
				if j != p.at.Scenario {
					p.navigate(nav.Action{Kind: nav.Select, Track: p.at.Track, N: j})
				}
				break
			}
		}
	}
	return m
}

// start asks about the open scenario if it has not been answered in this
// session and nothing is revealed yet.
func (m quizModel) start() quizModel {
	m.q = question{}
	if !quizzable(&m.place) || m.place.at.Step != 0 {
		return m
	}
	if _, done := m.results[m.place.written().ID]; done {
		return m
	}
	m.q = firstQuestion(m.scene())
	m.place.navigate(nav.Action{Kind: nav.Open})
	return m
}

// enter turns the quiz on where the learner is: a scenario not answered
// yet is asked from its start, even if its walk was showing.
func (m quizModel) enter(msg enterMsg) quizModel {
	m.place, m.summary = msg.place, false
	if msg.list != nil {
		m.list = *msg.list
	}
	m = m.resume(false)
	if m.place.has() {
		if _, answered := m.results[m.place.written().ID]; !answered {
			m.place.navigate(nav.Action{Kind: nav.Restart})
		}
	}
	return m.start()
}

func (m quizModel) keys(now bool) modeKeys {
	c := m.scene()
	if m.summary && now {
		return m.summaryKeys()
	}
	k := quizKeyMap{walkKeys: newWalkKeys(c.lang), listKeys: newListKeys(c.lang), Answer: answerBinding(c.lang), globalKeys: newGlobalKeys(c.lang)}
	k.Quiz.SetHelp("g", tr("kQuizOff", c.lang))
	// Digits answer in the quiz; they never open a scenario here.
	off(&k.Jump, &k.WhatIf)
	c.layoutKeys(&k.walkKeys, &k.listKeys)
	if !now {
		return k
	}
	c.stepKeysFor(&k.walkKeys, &k.listKeys)
	off(&k.Jump)
	// Stepping before answering is peeking: it only says so. Its keys are
	// the walk's stepping keys as the focus has them (from the list,
	// enter opens and only e runs).
	k.Peek = key.NewBinding(key.WithKeys(append(slices.Clone(k.Next.Keys()), k.Run.Keys()...)...))
	onIf(m.q.asking(), &k.Answer, &k.Peek)
	answerHelp(&k.Answer, m.q, c)
	onIf(canPath(&m.place) && !m.q.asking(), &k.Path)
	if m.q.asking() {
		off(&k.Next, &k.Run, &k.Back, &k.Restart)
	}
	m.list.stateKeys(c.lang, &k.walkKeys, &k.listKeys, &k.globalKeys)
	if m.list.busy() {
		off(&k.Answer, &k.Peek)
	}
	return k
}

func (m quizModel) KeyMap() modeKeys     { return m.keys(true) }
func (m quizModel) HelpKeyMap() modeKeys { return m.keys(false) }

func (m quizModel) Update(msg tea.Msg) (component, tea.Cmd) {
	m.out, m.place.events = nil, nil
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case progressMsg:
		m.prog, m.list.walked = msg.p, msg.p.Walked
		return m, nil
	case enterMsg:
		m = m.enter(msg)
	case backMsg:
		m.place = msg.place
	case commonMsg:
		m.c = msg.c
		m.place.setLang(m.c.lang)
	case deckMsg:
		m.place.reload(msg.d)
		m = m.start()
	case tea.KeyPressMsg:
		if m.summary {
			m.summaryKey(msg)
			break
		}
		m, cmd = m.key(msg)
	case tea.MouseWheelMsg:
		m.list.wheel(&m.place, msg)
	case tea.MouseClickMsg:
		if !m.summary && m.list.click(m.panes, m.scene(), &m.place, m.body(), msg, !m.q.asking()) {
			m = m.start() // a scenario opened: the quiz asks about it
		}
	}
	m.fill()
	return m, cmd
}

func (m quizModel) key(msg tea.KeyPressMsg) (quizModel, tea.Cmd) {
	k := m.keys(true).(quizKeyMap)
	p := &m.place
	switch {
	case m.list.busy():
	case key.Matches(msg, k.Answer):
		phase := m.q.phase
		next, done, step, code := m.q.answer(m.scene(), int(msg.Code-'0'))
		if done && phase == quizAskCaveat {
			m.markCaveat(m.q, step)
			m.q = question{}
			return m, nil
		}
		m.q = next
		if done {
			m.finish(step, code)
		}
		return m, nil
	case key.Matches(msg, k.Peek):
		m.out.say(tr("answerFirst", m.c.lang))
		return m, nil
	case key.Matches(msg, k.NextScenario) && p.at.Scenario == len(p.inTrack())-1 && len(m.results) > 0:
		// The end of the track: the summary of the session.
		m.summary, p.scroll = true, 0
		return m, nil
	}
	before := p.at
	var cmd tea.Cmd
	m.list.filter.hide = m.titleHidden
	m.list, cmd = m.list.handle(m.c, p, &m.out, msg, k.walkKeys, k.listKeys, !m.q.asking())
	if p.at.Track != before.Track || p.at.Scenario != before.Scenario {
		m = m.start() // a scenario opened: the quiz asks about it
	}
	return m, cmd
}

// titleHidden reports whether the list keeps a scenario's title back:
// until it is answered, it names the answer.
func (m quizModel) titleHidden(id string) bool {
	_, answered := m.results[id]
	return !answered
}

// finish marks the answer against what the core decided, records it and
// reveals the walk.
func (m *quizModel) finish(step int, code assess.Code) {
	s := m.place.written()
	r := m.scene().mark(step, code)
	if m.results == nil {
		m.results = map[string]quizResult{}
	}
	m.results[s.ID] = r
	m.order = append(m.order, s.ID)
	m.out.post(answeredMsg{id: s.ID, answer: progress.Answer{Said: r.said.In(m.c.lang), Right: r.right, Half: r.half, Decided: r.decided.In(m.c.lang)}})
	m.place.setStep(m.place.lastStep())
	// The seed's central column: what the verdict does NOT prove, asked
	// before its lines are shown.
	m.q = caveatQuestion(m.scene())
}

// markCaveat marks the "does NOT prove" answer.
func (m *quizModel) markCaveat(q question, picked int) {
	id := m.place.written().ID
	r := m.results[id]
	r.caveat, r.caveatRight = -1, q.options[q.correct-1]
	if picked == q.correct {
		r.caveat = 1
	}
	m.results[id] = r
	m.out.post(caveatMsg{id: id, caveat: map[int]string{1: "right", -1: "wrong"}[r.caveat]})
}

// caveatOf is what an admission scenario's verdict does NOT prove, the
// right answer to its caveat question; nothing for another track.
func caveatOf(s scenarios.Scenario) scenarios.Text {
	c, ok := s.Case.(scenarios.AdmissionCase)
	if !ok {
		return scenarios.Text{}
	}
	code := assess.Assess(&c.Input).Code
	return scenarios.Text{En: code.Caveat(assess.English), Zh: code.Caveat(assess.Chinese)}
}

// score is the session's points out of the questions asked: one a
// scenario, since an answered scenario is not asked again; the right rule
// with the wrong code is half a point. Caveats counts the "does NOT
// prove" answers, right of asked.
func (m quizModel) score() (points float64, asked int) {
	for _, r := range m.results {
		switch {
		case r.right:
			points++
		case r.half:
			points += 0.5
		}
	}
	return points, len(m.results)
}

func (m quizModel) caveats() (right, asked int) {
	for _, r := range m.results {
		if r.caveat != 0 {
			asked++
		}
		if r.caveat == 1 {
			right++
		}
	}
	return right, asked
}

// scoreText is "1.5/3" in the header and the summary.
func scoreText(points float64, asked int) string {
	return strconv.FormatFloat(points, 'f', -1, 64) + "/" + strconv.Itoa(asked)
}

// body is the quiz's panes: the walk with the question or the marked
// answer, the list without the titles not yet answered.
func (m quizModel) body() body {
	c := m.scene()
	x := walkExtras{hint: c.stepHint(false)}
	if r, ok := m.results[c.written().ID]; ok && c.has() {
		x.question = c.resultLines(r)
	}
	if m.q.asking() {
		x.question = append(x.question, m.q.lines(c)...)
		x.hint = tr("quizHint", c.lang)
		if m.q.phase == quizAskCaveat {
			x.hint = tr("quizHintCaveat", c.lang)
			x.hideCaveats = true
		} else {
			switch c.track() {
			case scenarios.TrackAdmission:
			case scenarios.TrackOutcome:
				x.hint = tr("quizHintOutcome", c.lang)
			case scenarios.TrackAudit:
				x.hint = tr("quizHintAudit", c.lang)
				if columnsFor(c.width).inputs == 0 {
					// One column: the inputs are a key away.
					x.hint = tr("quizHintAuditTab", c.lang)
				}
			}
		}
	}
	// What would answer the question is hidden until it is answered.
	x.hideTitle = m.q.predicting()
	x.keepRules = m.q.numbersSteps()
	out := m.list.body(c, x)
	results := m.results
	if results == nil {
		results = map[string]quizResult{}
	}
	filter, walked := m.list.filter, m.list.walked
	out.left = func(w, h int) string { return c.renderList(filter, walked, w, h, results, "", false) }
	return out
}

func (m *quizModel) fill() {
	if m.summary {
		m.fillSummary()
		return
	}
	m.list.fill(&m.panes, m.c, &m.place, m.body())
}

func (m quizModel) SetSize(width, height int) component {
	m.c.width, m.c.height = width, height
	m.fill()
	return m
}

func (m quizModel) View() string {
	height := m.c.height - 2
	if m.summary {
		return joinColumns(height, "", column{m.renderSummary(height), m.c.width})
	}
	return m.panes.draw(m.c, m.body(), height)
}

func (m quizModel) Posted() []tea.Msg { return append(m.out, m.place.events...) }

func (m quizModel) Status() status {
	right := m.place.where()
	if right != "" {
		right = fmt.Sprintf(tr("score", m.c.lang), scoreText(m.score())) + " · " + right
	}
	return status{place: m.place, right: right}
}

// handOver is the quiz's list, for the mode that follows it.
func (m quizModel) handOver() browsing { return m.list }
