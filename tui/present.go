package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/scenarios"
)

// renderPresenter is the projector layout: the scenario's title on top,
// the current step large and centred with its explanation, the verdict
// when reached, and a thin progress line with the clock at the bottom.
// The help line is hidden (? still shows it).
func (m Model) renderPresenter() string {
	if m.blank {
		return strings.Repeat("\n", max(m.height-1, 0))
	}
	if m.showHelp {
		return joinColumns(m.height, "", column{m.renderHelp(m.height), m.width})
	}
	if m.quiz.summary {
		return joinColumns(m.height, "", column{m.renderSummary(m.height), m.width})
	}
	if len(m.all) == 0 {
		return ""
	}
	s := m.all[m.sel]
	width := min(m.width-4, 100)
	center := func(text string) string {
		return lipgloss.PlaceHorizontal(m.width, lipgloss.Center, text)
	}
	var parts []string
	title := fmt.Sprintf("%s · %s %d · %s", strings.ToUpper(scenarioTrackTitle(m)), tr("scenario", m.lang), s.Number, s.Title.In(m.lang))
	parts = append(parts, center(m.styles.Walk.Title.Render(truncate(title, m.width))), "")

	cur := m.current()
	switch {
	case m.quiz.phase != quizIdle:
		for _, b := range m.quizBlocks(width) {
			parts = append(parts, center(b.text))
		}
	case cur == 0:
		if story := s.Story.In(m.lang); story != "" {
			parts = append(parts, center(paint(m.styles.Walk.Story, wrap(story, width))), "")
		}
		parts = append(parts, center(paint(m.styles.Walk.Hint, wrap(tr("startHint", m.lang), width))))
	default:
		st := m.walk.Steps[cur-1]
		word, style := look.OutcomeWord(assess.Passed, m.lang), m.styles.Walk.Explain
		if st.Outcome == assess.Fired {
			word, style = look.OutcomeWord(assess.Fired, m.lang), m.styles.tone(m.walk.Verdict.Tone)
		}
		big := fmt.Sprintf("%s  %d · %s  —  %s", look.OutcomeSymbol(st.Outcome), cur, strings.ToUpper(st.Title), word)
		box := lipgloss.NewStyle().Border(lipgloss.ThickBorder()).Padding(1, 4).
			BorderForeground(m.styles.palette.Tone(toneOf(st.Outcome, m.walk.Verdict.Tone))).
			Render(paint(style.Bold(true), wrap(big, width-10)))
		parts = append(parts, center(box), "",
			center(paint(m.styles.Walk.Question, wrap(st.Question, width))), "",
			center(paint(m.styles.Walk.Explain, wrap(st.Explanation, width))))
	}
	if m.reached() {
		parts = append(parts, "", center(m.renderVerdict(width)))
	}
	body := strings.Join(parts, "\n")
	footer := m.presenterFooter()
	bodyHeight := m.height - 1
	return joinColumns(bodyHeight, "", column{"\n" + body, m.width}) + "\n" + footer
}

func scenarioTrackTitle(m Model) string {
	return scenarios.TrackTitle(m.track, m.lang)
}

// toneOf is the border colour of a step: its verdict's tone when it
// fired, good when it passed.
func toneOf(o assess.Outcome, verdict look.Tone) look.Tone {
	if o == assess.Fired {
		return verdict
	}
	return look.ToneGood
}

// presenterFooter is the thin progress line: scenario k/n, step j/m, and
// the elapsed time when the clock is on.
func (m Model) presenterFooter() string {
	stepWord := tr("step", m.lang)
	if m.track == scenarios.TrackAdmission {
		stepWord = tr("rule", m.lang)
	}
	left := fmt.Sprintf(" %s %d/%d · %s %d/%d", tr("scenario", m.lang), m.all[m.sel].Number, len(m.all),
		stepWord, m.current(), len(m.walk.Steps))
	right := ""
	if m.showClock {
		d := m.now.Sub(m.start).Round(time.Second)
		right = fmt.Sprintf("%s %02d:%02d ", tr("elapsed", m.lang), int(d.Minutes()), int(d.Seconds())%60)
	}
	bar := ""
	if n := len(m.walk.Steps) + 1; n > 0 {
		filled := m.step * (m.width / 4) / n
		bar = strings.Repeat("━", filled) + strings.Repeat("─", m.width/4-filled)
	}
	line := left + "  " + bar
	gap := m.width - lipgloss.Width(line) - lipgloss.Width(right)
	if gap < 1 {
		return clamp(m.styles.Dim.Render(left), m.width, 1)
	}
	return m.styles.Dim.Render(line + strings.Repeat(" ", gap) + right)
}
