package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/stopwatch"
	"charm.land/bubbles/v2/timer"
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
	ask bool
	// watch is the time since the lecture started; countdown, when the
	// lecturer gave --timer, the time left (bubbles' stopwatch and timer).
	watch     stopwatch.Model
	countdown timer.Model
	timed     bool
}

func newPresent(limit time.Duration) presentModel {
	m := presentModel{showClock: true, watch: stopwatch.New(stopwatch.WithInterval(time.Second))}
	if limit > 0 {
		m.countdown, m.timed = timer.New(limit), true
	}
	return m
}

// init starts the clocks.
func (m presentModel) init() tea.Cmd {
	cmds := []tea.Cmd{m.watch.Init()}
	if m.timed {
		cmds = append(cmds, m.countdown.Init())
	}
	return tea.Batch(cmds...)
}

// clockMsg gives the clocks their ticks; it reports whether the message
// was theirs.
func (m presentModel) clockMsg(msg tea.Msg) (presentModel, tea.Cmd, bool) {
	var cmd tea.Cmd
	switch msg.(type) {
	case stopwatch.TickMsg, stopwatch.StartStopMsg, stopwatch.ResetMsg:
		m.watch, cmd = m.watch.Update(msg)
	case timer.TickMsg, timer.StartStopMsg, timer.TimeoutMsg:
		if !m.timed {
			return m, nil, true
		}
		m.countdown, cmd = m.countdown.Update(msg)
	default:
		return m, nil, false
	}
	return m, cmd, true
}

func (m presentModel) keys(c *common, now bool) presentKeyMap {
	k := newPresentKeyMap(c.lang)
	if !now {
		return k
	}
	onIf(c.has(), &k.Next)
	if c.reached() {
		// A clicker has one forward button: past the verdict it is the
		// next scenario, as the next slide.
		k.Next.SetHelp(k.Next.Help().Key, tr("kNextScen", c.lang))
	}
	onIf(c.at.Step > 0, &k.Back, &k.Restart)
	onIf(c.has(), &k.NextScenario, &k.PrevScenario, &k.Jump)
	return k
}

func (m presentModel) update(c *common, msg tea.KeyPressMsg) presentModel {
	k := m.keys(c, true)
	if m.blank {
		// A blanked screen wakes on any key but does nothing else, as
		// slide software does.
		m.blank = false
		return m
	}
	switch {
	case key.Matches(msg, k.Blank):
		m.blank = true
	case key.Matches(msg, k.Clock):
		// The clocks keep running; c only shows or hides them.
		m.showClock = !m.showClock
	case key.Matches(msg, k.Ask):
		m.ask = !m.ask
	case key.Matches(msg, k.Next) && c.reached():
		c.navigate(nav.Action{Kind: nav.NextScenario})
	default:
		// The rest step as in the walk; the projector has no list.
		c.stepKey(msg, k.walkKeys, listKeys{Jump: k.Jump}, filterState{})
		c.navigate(nav.Action{Kind: nav.Open})
	}
	return m
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
	// A big screen gives the step more room: a terminal cannot grow its
	// font, but it can spend its space.
	width := min(c.width-4, max(100, c.width*3/4))
	s := c.written()
	st := c.styles.Walk
	var parts [pCount]part
	title := fmt.Sprintf("%s · %s %d · %s", strings.ToUpper(scenarios.TrackTitle(c.track(), c.lang)), tr("scenario", c.lang), s.Number, s.Title.In(c.lang))
	asking := m.ask && c.current() == 0 && c.track() != scenarios.TrackAudit
	if asking {
		// While the room is asked, the title would answer for it.
		title = fmt.Sprintf("%s · %s %d", strings.ToUpper(scenarios.TrackTitle(c.track(), c.lang)), tr("scenario", c.lang), s.Number)
	}
	parts[pTitle] = part{alts: []string{st.Title.Render(truncate(title, c.width))}}
	cur := c.current()
	if cur == 0 {
		var lines []string
		if story := c.storyText(false, asking); story != "" {
			lines = append(lines, paint(st.Story, wrap(story, width)), "")
		}
		if asking {
			q := tr("askRule", c.lang)
			if c.track() == scenarios.TrackOutcome {
				q = tr("askClass", c.lang)
			}
			lines = append(lines, paint(c.styles.Verdict.Label, wrap(q, width)))
			// The choices, as the room sees them.
			var opts []string
			for i, step := range c.walk.Steps {
				opts = append(opts, fmt.Sprintf("%d %s", i+1, step.Title))
			}
			lines = append(lines, wrapItems(opts, "   ", width), "")
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
	gap := "\n\n" + strings.Repeat("\n", grow(c))
	content := "\n" + strings.Join(blocks, gap)
	lines := strings.Split(content, "\n")
	anchor := 0
	if c.reached() {
		anchor = len(lines) - lineCount(parts[pVerdict].text())
	}
	out := c.scrolledPane(lines, c.width, height, anchor, len(lines), c.moreHint)
	return joinColumns(height, "", column{out, c.width}) + "\n" + m.footer(c)
}

// passedAlts lists the rules passed before the current one compactly:
// each with its number and title on a line, or all on one line.
func (m presentModel) passedAlts(c *common, width int) []string {
	var names, runs []string
	for _, r := range c.runsBefore() {
		for n := r.from; n <= r.to; n++ {
			item := fmt.Sprintf("%s %d %s", look.OutcomeSymbol(r.outcome), n, c.walk.Steps[n-1].Title)
			if a := look.OutcomeAnswer(r.outcome, c.lang); a != "" {
				item += tr("colon", c.lang) + a
			}
			names = append(names, item)
		}
		runs = append(runs, fmt.Sprintf("%s %s %s", look.OutcomeSymbol(r.outcome), span(r.from, r.to), look.OutcomeLabel(r.outcome, c.lang)))
	}
	if len(names) == 0 {
		return nil
	}
	dim := c.styles.Walk.Passed
	// Each item whole when the list wraps, in Chinese too.
	list := wrapItems(names, "   ", width)
	return []string{paint(dim, list), dim.Render(truncate(strings.Join(runs, " · "), width)), ""}
}

// currentAlt is the current step, large: boxed with its question and
// explanation (0), then smaller (1, 2), then on one line (3).
func (m presentModel) currentAlt(c *common, width, i int) string {
	cur := c.current()
	step := c.walk.Steps[cur-1]
	mark, word, style := c.currentLook()
	big := fmt.Sprintf("%s  %d · %s  —  %s", mark, cur, strings.ToUpper(step.Title), word)
	border := c.styles.palette.Tone(toneOf(step.Outcome, c.walk.Verdict.Tone))
	extra := grow(c)
	box := func(pad int, text string) string {
		vertical := pad / 4
		if pad == 4 {
			pad, vertical = pad+2*extra, 1+extra
		}
		return lipgloss.NewStyle().Border(lipgloss.ThickBorder()).Padding(vertical, pad).BorderForeground(border).
			Render(paint(style.Bold(true), wrap(text, max(width-2*pad-2, 1))))
	}
	q := paint(c.styles.Walk.Question, wrap(step.Question, width))
	e := paint(c.styles.Walk.Explain, wrap(step.Explanation, width))
	if a := c.asideText(step.Aside, width); a != "" {
		e += "\n" + a
	}
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
	left := fmt.Sprintf(" %s %d/%d · %s", tr("scenario", c.lang), c.written().Number, len(c.inTrack()), c.where(c.at.Step, "%s %d/%d"))
	right := ""
	if m.showClock {
		timeUp, times := m.clocks(c)
		right = times + " "
		if timeUp != "" {
			right = c.styles.tone(look.ToneBad).Render(timeUp) + c.styles.Dim.Render(" · "+right)
		}
	}
	bar := ""
	if n := len(c.walk.Steps) + 1; n > 0 {
		filled := c.at.Step * (c.width / 4) / n
		bar = strings.Repeat("━", filled) + strings.Repeat("─", max(c.width/4-filled, 0))
	}
	line := left + "  " + bar
	gap := c.width - lipgloss.Width(line) - lipgloss.Width(right)
	if gap < 1 {
		// No room for the bar: the clocks matter more on a projector.
		gap = c.width - lipgloss.Width(left) - lipgloss.Width(right)
		if gap < 1 {
			return clamp(c.styles.Dim.Render(left), c.width, 1)
		}
		return c.styles.Dim.Render(left+strings.Repeat(" ", gap)) + c.styles.Dim.Render(right)
	}
	return c.styles.Dim.Render(line+strings.Repeat(" ", gap)) + c.styles.Dim.Render(right)
}

// clocks are the presenter's clocks as text: "time up" once the countdown
// has run out ("" before), and the time left and the time elapsed.
func (m presentModel) clocks(c *common) (timeUp, times string) {
	times = fmt.Sprintf("%s %s", tr("elapsed", c.lang), clockText(m.watch.Elapsed()))
	switch {
	case m.timed && m.countdown.Timedout():
		timeUp = tr("timeUp", c.lang)
	case m.timed:
		times = fmt.Sprintf("%s %s · %s", tr("left", c.lang), clockText(m.countdown.Timeout), times)
	}
	return timeUp, times
}

// clockText is minutes and seconds ("07:05"), hours when there are some.
func clockText(d time.Duration) string {
	d = max(d.Round(time.Second), 0)
	if d >= time.Hour {
		return fmt.Sprintf("%d:%02d:%02d", int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60)
	}
	return fmt.Sprintf("%02d:%02d", int(d.Minutes()), int(d.Seconds())%60)
}

// grow is how much more room a tall screen gives each part: 0 at 30 rows
// or fewer, up to 3.
func grow(c *common) int { return clampInt((c.height-30)/10, 0, 3) }
