package tui

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/stopwatch"
	"charm.land/bubbles/v2/timer"
	tea "charm.land/bubbletea/v2"
)

// lectureClocks are the lecture's clocks, on the projector and on the
// notes screen: the time since the lecture started and, when the
// lecturer gave --timer, the time left (bubbles' stopwatch and timer).
// show is whether they are shown; they run either way.
type lectureClocks struct {
	show      bool
	watch     stopwatch.Model
	countdown timer.Model
	timed     bool
}

func newLectureClocks(limit time.Duration) lectureClocks {
	m := lectureClocks{show: true, watch: stopwatch.New(stopwatch.WithInterval(time.Second))}
	if limit > 0 {
		m.countdown, m.timed = timer.New(limit), true
	}
	return m
}

// init starts the clocks.
func (m lectureClocks) init() tea.Cmd {
	cmds := []tea.Cmd{m.watch.Init()}
	if m.timed {
		cmds = append(cmds, m.countdown.Init())
	}
	return tea.Batch(cmds...)
}

// update gives the clocks their ticks; it reports whether the message
// was theirs.
func (m lectureClocks) update(msg tea.Msg) (lectureClocks, tea.Cmd, bool) {
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

// text is the clocks as text: "time up" once the countdown has run out
// ("" before), and the time left and the time elapsed.
func (m lectureClocks) text(c common) (timeUp, times string) {
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
