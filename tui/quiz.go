package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/nav"
	"toolgate/progress"
	"toolgate/scenarios"
	"toolgate/walk"
)

// question is a prediction asked before the walk is revealed: which rule
// fires (and which of its codes), or which class an outcome is. The quiz
// and the room's poll both ask it.
type question struct {
	phase  quizPhase
	picked int // the step picked, while its code is asked
}

// quizPhase is where a prediction stands.
type quizPhase int

const (
	quizIdle    quizPhase = iota // not asking
	quizAskStep                  // which rule fires / which class?
	quizAskCode                  // which code (of the rule picked)?
)

// asking reports whether the question waits for an answer.
func (q question) asking() bool { return q.phase != quizIdle }

// quizResult is one answer marked.
type quizResult struct {
	number  int
	title   string
	said    string
	decided string
	right   bool
}

// codeOptions are the codes the rule picked can give: the plausible
// answers to "which code?".
func codeOptions(rule int) []assess.Code {
	var out []assess.Code
	for _, c := range assess.Codes() {
		if int(c.Rule()) == rule {
			out = append(out, c)
		}
	}
	return out
}

// answer takes a digit; done reports a complete answer (step and code).
func (q question) answer(c *common, digit int) (next question, done bool, step int, code assess.Code) {
	switch q.phase {
	case quizAskStep:
		if digit < 1 || digit > len(c.walk.Steps) {
			return q, false, 0, 0
		}
		if c.track() != scenarios.TrackAdmission {
			return question{}, true, digit, 0
		}
		if codes := codeOptions(digit); len(codes) == 1 {
			return question{}, true, digit, codes[0]
		}
		return question{phase: quizAskCode, picked: digit}, false, 0, 0
	case quizAskCode:
		codes := codeOptions(q.picked)
		if digit < 1 || digit > len(codes) {
			return q, false, 0, 0
		}
		return question{}, true, q.picked, codes[digit-1]
	}
	return q, false, 0, 0
}

// mark compares a prediction with what the walk says decided: the rule
// and code, or the class.
func (c *common) mark(step int, code assess.Code) quizResult {
	s := c.written()
	r := quizResult{number: s.Number, title: s.Title.In(c.lang)}
	switch res := c.walk.Result.(type) {
	case assess.Verdict:
		r.right = step == c.walk.Decisive && code == res.Code
		r.said = fmt.Sprintf("%s %d, %s", tr("rule", c.lang), step, code)
		r.decided = fmt.Sprintf("%s %d, %s", tr("rule", c.lang), c.walk.Decisive, res.Code)
	case walk.OutcomeAnswer:
		picked := assess.OutcomeClass(step)
		r.right = picked == res.Class
		r.said, r.decided = picked.String(), res.Class.String()
	}
	return r
}

// lines are the open question, for the walk pane.
func (q question) lines(c *common) []string {
	label := c.styles.Verdict.Label
	switch q.phase {
	case quizAskStep:
		text := tr("quizRule", c.lang)
		if c.track() == scenarios.TrackOutcome {
			text = tr("quizClass", c.lang)
		}
		return []string{label.Render(fmt.Sprintf(text, len(c.walk.Steps)))}
	case quizAskCode:
		lines := []string{label.Render(fmt.Sprintf(tr("quizCode", c.lang), q.picked))}
		for i, code := range codeOptions(q.picked) {
			lines = append(lines, fmt.Sprintf("  %d  %s — %s", i+1, code, code.Meaning(c.lang)))
		}
		return lines
	}
	return nil
}

// resultLine is a marked answer, right or wrong.
func (c *common) resultLine(r quizResult) string {
	if r.right {
		return c.styles.tone(look.ToneGood).Render("✓ " + fmt.Sprintf(tr("quizRight", c.lang), r.decided))
	}
	return c.styles.tone(look.ToneBad).Render("✗ " + fmt.Sprintf(tr("quizWrong", c.lang), r.said, r.decided))
}

// quizModel is the quiz mode: each scenario asks first, then reveals the
// walk and marks the answer; the end of the track shows a summary.
type quizModel struct {
	browse  browseModel
	q       question
	results map[string]quizResult
	order   []string // scenario ids in the order answered
	summary bool
}

// quizzable reports whether the quiz asks about the open scenario: the
// admission and outcome tracks ask; the audit's answer is a set of
// diagnostics, which it walks as usual.
func quizzable(c *common) bool { return c.has() && c.track() != scenarios.TrackAudit }

// start asks about the open scenario if it has not been answered in this
// session and nothing is revealed yet.
func (m quizModel) start(c *common) quizModel {
	m.q = question{}
	if !quizzable(c) || c.at.Step != 0 {
		return m
	}
	if _, done := m.results[c.written().ID]; done {
		return m
	}
	m.q.phase = quizAskStep
	c.at.Focus = nav.Walk
	return m
}

func (m quizModel) keys(c *common, now bool) quizKeyMap {
	k := quizKeyMap{walkKeys: newWalkKeys(c.lang), listKeys: newListKeys(c.lang), Answer: answerBinding(c.lang), globalKeys: newGlobalKeys(c.lang),
		// Stepping before answering is peeking: it only says so.
		Peek: key.NewBinding(key.WithKeys("right", "l", "space", "pgdown", "e"))}
	k.Quiz.SetHelp("g", tr("kQuizOff", c.lang))
	// Digits answer in the quiz; they never open a scenario here.
	off(&k.Jump, &k.WhatIf)
	if !now {
		return k
	}
	c.stepKeysFor(&k.walkKeys, &k.listKeys)
	off(&k.Jump)
	onIf(m.q.asking(), &k.Answer, &k.Peek)
	onIf(canPath(c) && !m.q.asking(), &k.Path)
	if m.browse.path != nil {
		panelOnly(c.lang, &k.walkKeys, &k.listKeys, &k.globalKeys)
		off(&k.Answer, &k.Peek)
	}
	if m.q.asking() {
		off(&k.Next, &k.Run, &k.Back, &k.Restart)
	}
	return k
}

func (m quizModel) update(c *common, msg tea.KeyPressMsg) (quizModel, tea.Cmd) {
	if m.summary {
		m.summary = false // any key closes the summary
		return m, nil
	}
	if m.browse.filter.typing {
		var cmd tea.Cmd
		m.browse.filter, cmd = c.filterKey(m.browse.filter, msg)
		return m.follow(c), cmd
	}
	k := m.keys(c, true)
	if m.browse.panelKey(c, msg, k.walkKeys, newListKeys(c.lang)) {
		return m, nil
	}
	switch {
	case key.Matches(msg, k.Answer):
		next, done, step, code := m.q.answer(c, int(msg.Code-'0'))
		m.q = next
		if done {
			m.finish(c, step, code)
		}
		return m, nil
	case key.Matches(msg, k.Peek):
		c.notice = tr("answerFirst", c.lang)
		return m, nil
	case key.Matches(msg, k.NextScenario) && c.at.Scenario == len(c.inTrack())-1 && len(m.results) > 0:
		// The end of the track: the summary of the session.
		m.summary = true
		return m, nil
	case key.Matches(msg, k.Filter):
		m.browse.filter.typing = true
		return m, m.browse.filter.input.Focus()
	case key.Matches(msg, k.Inputs):
		m.browse.showInputs = !m.browse.showInputs
		return m, nil
	case key.Matches(msg, k.Full):
		m.browse.full = !m.browse.full
		return m, nil
	}
	before := c.at
	c.stepKey(msg, k.walkKeys, k.listKeys, m.browse.filter)
	if c.at.Track != before.Track || c.at.Scenario != before.Scenario {
		return m.follow(c), nil
	}
	return m, nil
}

// follow asks about a scenario just opened.
func (m quizModel) follow(c *common) quizModel { return m.start(c) }

// finish marks the answer against what the core decided, records it and
// reveals the walk.
func (m *quizModel) finish(c *common, step int, code assess.Code) {
	s := c.written()
	r := c.mark(step, code)
	if m.results == nil {
		m.results = map[string]quizResult{}
	}
	m.results[s.ID] = r
	m.order = append(m.order, s.ID)
	c.prog.Record(s.ID, progress.Answer{Said: r.said, Right: r.right, Decided: r.decided})
	c.dirty = true
	c.setStep(c.lastStep())
}

// score is the session's right answers out of those given: one a
// scenario, since an answered scenario is not asked again.
func (m quizModel) score() (right, asked int) {
	for _, r := range m.results {
		if r.right {
			right++
		}
	}
	return right, len(m.results)
}

func (m quizModel) view(c *common, height int) string {
	if m.summary {
		return joinColumns(height, "", column{m.renderSummary(c, height), c.width})
	}
	if m.browse.path != nil {
		return m.browse.path.render(c, c.width, height)
	}
	x := walkExtras{hint: c.stepHint(false)}
	switch {
	case m.q.asking():
		x.question = m.q.lines(c)
		x.hint = tr("quizHint", c.lang)
		if c.track() == scenarios.TrackOutcome {
			x.hint = tr("quizHintOutcome", c.lang)
		}
	case !quizzable(c) && c.has() && c.at.Step == 0:
		x.hint = tr("quizAudit", c.lang)
	case c.has():
		if r, ok := m.results[c.written().ID]; ok {
			x.question = []string{c.resultLine(r)}
		}
	}
	b := m.browse.body(c, x)
	b.left = func(w, h int) string { return c.renderList(m.browse.filter, w, h, true) }
	return c.renderBody(b, height)
}

// renderSummary lists the session's score and every miss with what
// decided.
func (m quizModel) renderSummary(c *common, height int) string {
	st := c.styles
	right, asked := m.score()
	width := max(min(c.width-8, 76), 10)
	lines := []string{st.Walk.Heading.Render(tr("quizSummary", c.lang)), "",
		fmt.Sprintf(tr("quizScore", c.lang), right, asked), ""}
	misses := 0
	for _, id := range m.order {
		r := m.results[id]
		if r.right {
			continue
		}
		misses++
		lines = append(lines, wrap(fmt.Sprintf("✗ %d %s", r.number, r.title), width),
			indentLines(wrap(fmt.Sprintf(tr("quizWrong", c.lang), r.said, r.decided), width-4), "    "))
	}
	if misses == 0 {
		lines = append(lines, tr("quizNoMiss", c.lang))
	}
	lines = append(lines, "", st.Dim.Render(tr("quizClose", c.lang)))
	box := c.styles.Verdict.Box.Padding(1, 2).Render(strings.Join(lines, "\n"))
	return placeCenter(box, c.width, height)
}
