package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/nav"
	"toolgate/scenarios"
)

// presentModel is the projector layout: the current step large and
// centred, the rules already passed listed compactly above it, the verdict
// whole once reached, and a thin progress line with the clock at the
// bottom. A clicker's keys (→ ← PgDn PgUp enter b .) drive it.
type presentModel struct {
	blank     bool
	showClock bool
	// ask shows "which rule fires?" before a scenario's first step, for
	// the lecturer to ask the hall.
	ask   bool
	start time.Time
	now   time.Time
}

func newPresent(c *common) presentModel {
	now := c.clock()
	return presentModel{showClock: true, start: now, now: now}
}

func (m presentModel) keys(c *common, now bool) presentKeyMap {
	k := newPresentKeyMap(c.lang)
	if !now {
		return k
	}
	onIf(!c.reached() && c.has(), &k.Next)
	onIf(c.at.Step > 0, &k.Back, &k.Restart)
	onIf(c.has(), &k.NextScenario, &k.PrevScenario, &k.Jump)
	return k
}

func (m presentModel) update(c *common, msg tea.KeyPressMsg) (presentModel, tea.Cmd) {
	k := m.keys(c, true)
	if m.blank {
		// A blanked screen wakes on any key but does nothing else, as
		// slide software does.
		m.blank = false
		return m, nil
	}
	switch {
	case key.Matches(msg, k.Blank):
		m.blank = true
	case key.Matches(msg, k.Clock):
		m.showClock = !m.showClock
		if m.showClock {
			m.now = c.clock()
			return m, tickCmd()
		}
	case key.Matches(msg, k.Ask):
		m.ask = !m.ask
	case key.Matches(msg, k.Next):
		c.navigate(nav.Action{Kind: nav.Next})
	case key.Matches(msg, k.Back):
		c.navigate(nav.Action{Kind: nav.Back})
	case key.Matches(msg, k.Restart):
		c.navigate(nav.Action{Kind: nav.Restart})
	case key.Matches(msg, k.NextScenario):
		c.navigate(nav.Action{Kind: nav.NextScenario})
	case key.Matches(msg, k.PrevScenario):
		c.navigate(nav.Action{Kind: nav.PrevScenario})
	case key.Matches(msg, k.Jump):
		c.navigate(nav.Action{Kind: nav.Jump, N: int(msg.Code - '0')})
	case key.Matches(msg, k.Track):
		c.navigate(nav.Action{Kind: nav.NextTrack})
		c.at.Focus = nav.Walk
	}
	return m, nil
}

// tickMsg asks the presenter's clock to redraw.
type tickMsg struct{}

func tickCmd() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{} })
}

// Presenter parts, folded in this order until the frame fits.
const (
	pTitle = iota
	pStory
	pPassed
	pCurrent
	pHint
	pVerdict
	pCount
)

var presentFold = []int{pHint, pStory, pPassed, pCurrent, pVerdict, pCurrent, pPassed, pVerdict, pCurrent, pVerdict}

// view is the whole frame (the presenter has no header or help line).
func (m presentModel) view(c *common) string {
	if m.blank {
		return strings.Repeat("\n", max(c.height-1, 0))
	}
	if !c.has() {
		return ""
	}
	width := min(c.width-4, 100)
	s := c.written()
	st := c.styles.Walk
	var parts [pCount]part
	title := fmt.Sprintf("%s · %s %d · %s", strings.ToUpper(scenarios.TrackTitle(c.track(), c.lang)), tr("scenario", c.lang), s.Number, s.Title.In(c.lang))
	parts[pTitle] = part{alts: []string{st.Title.Render(truncate(title, c.width))}}
	cur := c.current()
	if cur == 0 {
		var lines []string
		if story := s.Story.In(c.lang); story != "" {
			lines = append(lines, paint(st.Story, wrap(story, width)), "")
		}
		if m.ask && c.track() != scenarios.TrackAudit {
			q := tr("askRule", c.lang)
			if c.track() == scenarios.TrackOutcome {
				q = tr("askClass", c.lang)
			}
			lines = append(lines, c.styles.Verdict.Label.Render(wrap(q, width)), "")
		}
		parts[pStory] = part{alts: []string{strings.Join(lines, "\n"), ""}}
		parts[pHint] = part{alts: []string{paint(st.Hint, wrap(c.stepHint(true), width)), ""}}
	} else {
		parts[pPassed] = part{alts: m.passedAlts(c, width)}
		parts[pCurrent] = lazy(4, func(i int) string { return m.currentAlt(c, width, i) })
	}
	if c.reached() {
		parts[pVerdict] = lazy(4, func(i int) string { return c.verdictAlt(width, i, false) })
	}
	height := c.height - 1
	total := func() int {
		n := 1 // the empty line on top
		for _, p := range parts {
			if t := p.text(); t != "" {
				n += lineCount(t) + 1
			}
		}
		return n - 1
	}
	for _, id := range presentFold {
		if total() <= height {
			break
		}
		if p := &parts[id]; p.sel < len(p.alts)-1 {
			p.sel++
		}
	}
	var blocks []string
	for _, p := range parts {
		if t := p.text(); t != "" {
			blocks = append(blocks, lipgloss.PlaceHorizontal(c.width, lipgloss.Center, t))
		}
	}
	content := "\n" + strings.Join(blocks, "\n\n")
	lines := strings.Split(content, "\n")
	anchor := 0
	if c.reached() {
		anchor = len(lines) - lineCount(parts[pVerdict].text())
	}
	out, _ := scrolled(lines, c.width, height, anchor, len(lines), c.scroll, c.moreHint)
	return joinColumns(height, "", column{out, c.width}) + "\n" + m.footer(c)
}

// passedAlts lists the rules passed before the current one compactly:
// each with its number and title on a line, or all on one line.
func (m presentModel) passedAlts(c *common, width int) []string {
	cur := c.current()
	var names []string
	for n := 1; n < cur; n++ {
		st := c.walk.Steps[n-1]
		names = append(names, fmt.Sprintf("%s %d %s", look.OutcomeSymbol(st.Outcome), n, st.Title))
	}
	if len(names) == 0 {
		return nil
	}
	dim := c.styles.Walk.Passed
	one := fmt.Sprintf("%s %s %s", look.OutcomeSymbol(assess.Passed), span(1, cur-1), look.OutcomeWord(assess.Passed, c.lang))
	return []string{paint(dim, wrap(strings.Join(names, "   "), width)), dim.Render(one), ""}
}

// currentAlt is the current step, large: boxed with its question and
// explanation (0), then smaller (1, 2), then on one line (3).
func (m presentModel) currentAlt(c *common, width, i int) string {
	cur := c.current()
	step := c.walk.Steps[cur-1]
	word, style := look.OutcomeWord(assess.Passed, c.lang), c.styles.Walk.Explain
	if step.Outcome == assess.Fired {
		word, style = look.OutcomeWord(assess.Fired, c.lang), c.styles.tone(c.walk.Verdict.Tone)
	}
	big := fmt.Sprintf("%s  %d · %s  —  %s", look.OutcomeSymbol(step.Outcome), cur, strings.ToUpper(step.Title), word)
	border := c.styles.palette.Tone(toneOf(step.Outcome, c.walk.Verdict.Tone))
	box := func(pad int, text string) string {
		return lipgloss.NewStyle().Border(lipgloss.ThickBorder()).Padding(pad/4, pad).BorderForeground(border).
			Render(paint(style.Bold(true), wrap(text, max(width-2*pad-2, 1))))
	}
	q := paint(c.styles.Walk.Question, wrap(step.Question, width))
	e := paint(c.styles.Walk.Explain, wrap(step.Explanation, width))
	switch i {
	case 0:
		return box(4, big) + "\n\n" + q + "\n\n" + e
	case 1:
		return box(2, big) + "\n" + e
	case 2:
		return box(1, big) + "\n" + e
	}
	return paint(style.Bold(true), wrap(big, width))
}

// toneOf is the border colour of a step: its verdict's tone when it
// fired, good when it passed.
func toneOf(o assess.Outcome, verdict look.Tone) look.Tone {
	if o == assess.Fired {
		return verdict
	}
	return look.ToneGood
}

// footer is the thin progress line: scenario k/n, rule j/m or "verdict",
// a bar, and the elapsed time when the clock is on.
func (m presentModel) footer(c *common) string {
	where := fmt.Sprintf("%s %d/%d", c.stepWord(), c.current(), len(c.walk.Steps))
	if c.reached() {
		where = fmt.Sprintf(tr("atVerdict", c.lang), c.walk.Decisive)
	}
	left := fmt.Sprintf(" %s %d/%d · %s", tr("scenario", c.lang), c.written().Number, len(c.inTrack()), where)
	right := ""
	if m.showClock {
		d := m.now.Sub(m.start).Round(time.Second)
		right = fmt.Sprintf("%s %02d:%02d ", tr("elapsed", c.lang), int(d.Minutes()), int(d.Seconds())%60)
	}
	bar := ""
	if n := len(c.walk.Steps) + 1; n > 0 {
		filled := c.at.Step * (c.width / 4) / n
		bar = strings.Repeat("━", filled) + strings.Repeat("─", max(c.width/4-filled, 0))
	}
	line := left + "  " + bar
	gap := c.width - lipgloss.Width(line) - lipgloss.Width(right)
	if gap < 1 {
		return clamp(c.styles.Dim.Render(left), c.width, 1)
	}
	return c.styles.Dim.Render(line + strings.Repeat(" ", gap) + right)
}
