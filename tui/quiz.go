package tui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/progress"
	"toolgate/scenarios"
	"toolgate/walk"
)

// quizPhase is where a prediction stands for the open scenario.
type quizPhase int

const (
	quizIdle    quizPhase = iota // not asking
	quizAskStep                  // which rule fires / which class?
	quizAskCode                  // which code (of the rule picked)?
)

// quizResult is one answer of this session.
type quizResult struct {
	number  int
	title   string
	said    string
	decided string
	right   bool
}

// quizState is predict-then-reveal: before any step is shown, the learner
// says which rule fires (and which code), or which class; then the walk is
// revealed and the answer marked.
type quizState struct {
	on      bool
	phase   quizPhase
	picked  int // the step picked in quizAskStep
	results map[string]quizResult
	order   []string // scenario ids in the order answered
	summary bool
}

// quizzable reports whether the quiz asks about the open scenario: the
// admission and outcome tracks ask; the audit's answer is a set of
// diagnostics, which it walks as usual.
func (m Model) quizzable() bool {
	return m.quiz.on && m.track != scenarios.TrackAudit && len(m.all) > 0
}

// startQuestion asks about the open scenario if the quiz is on and it has
// not been answered in this session.
func (m *Model) startQuestion() {
	m.quiz.phase = quizIdle
	if !m.quizzable() || m.step != 0 {
		return
	}
	if _, done := m.quiz.results[m.all[m.sel].ID]; done {
		return
	}
	m.quiz.phase = quizAskStep
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

// answerKey handles a digit while a question is open; it reports whether
// the key was an answer.
func (m *Model) answerKey(digit int) bool {
	switch m.quiz.phase {
	case quizAskStep:
		if digit < 1 || digit > len(m.walk.Steps) {
			return false
		}
		m.quiz.picked = digit
		if m.track == scenarios.TrackOutcome {
			m.finishQuiz(digit, 0)
			return true
		}
		if codes := codeOptions(digit); len(codes) == 1 {
			m.finishQuiz(digit, codes[0])
		} else {
			m.quiz.phase = quizAskCode
		}
		return true
	case quizAskCode:
		codes := codeOptions(m.quiz.picked)
		if digit < 1 || digit > len(codes) {
			return false
		}
		m.finishQuiz(m.quiz.picked, codes[digit-1])
		return true
	}
	return false
}

// finishQuiz marks the answer against what the core decided, records it
// and reveals the walk.
func (m *Model) finishQuiz(step int, code assess.Code) {
	if m.room != nil && m.roomState.Open && m.liveOpen() {
		m.roomAnswer(step, code)
		return
	}
	s := m.all[m.sel]
	r := m.mark(step, code)
	if m.quiz.results == nil {
		m.quiz.results = map[string]quizResult{}
	}
	m.quiz.results[s.ID] = r
	m.quiz.order = append(m.quiz.order, s.ID)
	m.quiz.phase = quizIdle
	m.prog.Record(s.ID, progress.Answer{Said: r.said, Right: r.right, Decided: r.decided})
	m.step = m.lastStep()
	m.progressChanged = true
}

// mark compares a prediction with what the walk says decided: the rule
// and code, or the class.
func (m Model) mark(step int, code assess.Code) quizResult {
	s := m.all[m.sel]
	r := quizResult{number: s.Number, title: s.Title.In(m.lang)}
	switch res := m.walk.Result.(type) {
	case assess.Verdict:
		r.right = step == m.walk.Decisive && code == res.Code
		r.said = fmt.Sprintf("%s %d, %s", tr("rule", m.lang), step, code)
		r.decided = fmt.Sprintf("%s %d, %s", tr("rule", m.lang), m.walk.Decisive, res.Code)
	case walk.OutcomeAnswer:
		picked := assess.OutcomeClass(step)
		r.right = picked == res.Class
		r.said, r.decided = picked.String(), res.Class.String()
	}
	return r
}

// score is the session's right answers out of those given: one a
// scenario, since an answered scenario is not asked again.
func (q quizState) score() (right, asked int) {
	for _, r := range q.results {
		if r.right {
			right++
		}
	}
	return right, len(q.results)
}

// quizBlocks is the open question, or the marked answer once given.
func (m Model) quizBlocks(width int) []block {
	st := m.styles.Walk
	var lines []string
	switch m.quiz.phase {
	case quizAskStep:
		q := tr("quizRule", m.lang)
		if m.track == scenarios.TrackOutcome {
			q = tr("quizClass", m.lang)
		}
		lines = append(lines, m.styles.Verdict.Label.Render(fmt.Sprintf(q, len(m.walk.Steps))))
	case quizAskCode:
		lines = append(lines, m.styles.Verdict.Label.Render(fmt.Sprintf(tr("quizCode", m.lang), m.quiz.picked)))
		for i, c := range codeOptions(m.quiz.picked) {
			lines = append(lines, fmt.Sprintf("  %d  %s — %s", i+1, c, c.Meaning(m.lang)))
		}
	default:
		r, ok := m.quiz.results[m.all[m.sel].ID]
		if !ok {
			return nil
		}
		if r.right {
			lines = append(lines, m.styles.tone(toneGood()).Render("✓ "+fmt.Sprintf(tr("quizRight", m.lang), r.decided)))
		} else {
			lines = append(lines, m.styles.tone(toneBad()).Render("✗ "+fmt.Sprintf(tr("quizWrong", m.lang), r.said, r.decided)))
		}
	}
	blocks := []block{linesBlock(lines, width)}
	if m.quiz.on { // the room's poll is not the learner's to stop
		blocks = append(blocks, block{paint(st.Hint, wrap(tr("quizHint", m.lang), width)), 2})
	}
	return blocks
}

// renderSummary lists the session's score and every miss with what decided.
func (m Model) renderSummary(height int) string {
	st := m.styles
	right, asked := m.quiz.score()
	lines := []string{st.Walk.Heading.Render(tr("quizSummary", m.lang)), "",
		fmt.Sprintf(tr("quizScore", m.lang), right, asked), ""}
	misses := 0
	for _, id := range m.quiz.order {
		r := m.quiz.results[id]
		if r.right {
			continue
		}
		misses++
		lines = append(lines, fmt.Sprintf("✗ %d %s", r.number, r.title),
			"    "+fmt.Sprintf(tr("quizWrong", m.lang), r.said, r.decided))
	}
	if misses == 0 {
		lines = append(lines, tr("quizNoMiss", m.lang))
	}
	lines = append(lines, "", st.Dim.Render(tr("quizClose", m.lang)))
	box := m.styles.Verdict.Box.Padding(1, 2).Render(strings.Join(lines, "\n"))
	return placeCenter(box, m.width, height)
}

func toneGood() look.Tone { return look.ToneGood }
func toneBad() look.Tone  { return look.ToneBad }

// wrapStyled wraps text that may carry colour codes.
func wrapStyled(s string, width int) string {
	if width <= 0 {
		return ""
	}
	return ansi.Wrap(s, width, "")
}

func placeCenter(s string, width, height int) string {
	return lipgloss.Place(width, height, lipgloss.Center, lipgloss.Center, s)
}
