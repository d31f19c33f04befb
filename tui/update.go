package tui

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/stopwatch"
	"charm.land/bubbles/v2/timer"
	tea "charm.land/bubbletea/v2"

	"toolgate/assess"
	"toolgate/progress"
	"toolgate/scenarios"
)

// Update handles a message: the root's own (the size, the look, the
// saves, the reloads, the idle limit, the keys every mode shares), and
// the rest for the active mode. It never draws.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.width, m.c.height = msg.Width, msg.Height
		m.help.SetWidth(msg.Width)
		for md, ok := range m.modes.has {
			if ok {
				m.modes.put(m.modes.get(mode(md)).SetSize(msg.Width, msg.Height))
			}
		}
	case RoomMsg:
		return m, m.roomNews(msg)
	case idleTickMsg:
		if m.c.clock().Sub(m.lastKey) >= m.shell.idle {
			m.notice = fmt.Sprintf(tr("idleBye", m.c.lang), m.shell.idle)
			return m, tea.Sequence(tea.Tick(time.Second, func(time.Time) tea.Msg { return nil }), tea.Quit)
		}
		return m, idleTickCmd(m.shell.idle)
	case savedScenarioMsg:
		if msg.err != nil {
			m.notice = msg.err.Error()
		} else {
			m.notice = fmt.Sprintf(tr("whatIfSaved", m.c.lang), msg.path)
		}
	case savedMsg:
		if msg.err != nil {
			m.notice = fmt.Sprintf(tr("saveFailed", m.c.lang), msg.err)
		}
	case stopwatch.TickMsg, stopwatch.StartStopMsg, stopwatch.ResetMsg, timer.TickMsg, timer.StartStopMsg, timer.TimeoutMsg:
		// The lecture's clocks: the presenter's or the notes screen's.
		for _, md := range []mode{modePresent, modeNotes} {
			if m.modes.has[md] {
				return m, m.update(md, msg)
			}
		}
	case tea.BackgroundColorMsg:
		if m.c.theme == ThemeAuto || m.c.theme == ThemeHighContrast {
			m.c.dark = msg.IsDark()
			m.restyle()
		}
	case ClampedMsg:
		m.notice = msg.Text(m.c.lang)
	case reloadMsg:
		return m, m.reloadCmd()
	case reloadedMsg:
		m.applyReload(msg)
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseWheelMsg:
		m.lastKey = m.c.clock()
		if !m.cover.shown() {
			return m, m.update(m.mode, msg)
		}
	case tea.MouseClickMsg:
		m.lastKey = m.c.clock()
		var cmd tea.Cmd
		if !m.cover.shown() {
			cmd = m.update(m.mode, msg)
		}
		next, save := m.afterKey()
		return next, tea.Batch(cmd, save)
	}
	return m, nil
}

// roomNews takes the room's news: the notes screen follows it; a room
// session's question ends an experiment or a practice (answer first), and
// the room follows it even while the student is elsewhere.
func (m *Model) roomNews(msg RoomMsg) tea.Cmd {
	if m.mode == modeNotes {
		return m.update(modeNotes, msg)
	}
	if !m.modes.has[modeRoom] {
		return nil
	}
	open, round := m.modes.room.question()
	newQuestion := msg.Open && (!open || msg.Round != round)
	var cmds []tea.Cmd
	switch {
	case m.mode == modeWhatIf && msg.Open && !open:
		// The room's question ends the experiment: answer first.
		cmds = append(cmds, m.stopWhatIf())
	case m.mode == modePractice && newQuestion:
		// And practice.
		m.mode = modeRoom
	}
	cmds = append(cmds, m.update(modeRoom, msg))
	if m.modes.has[modePresent] && m.modes.present.room != nil {
		// The presenter's projector follows the room too.
		cmds = append(cmds, m.update(modePresent, msg))
	}
	return tea.Batch(cmds...)
}

func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	m.lastKey = m.c.clock()
	quit := newGlobalKeys(m.c.lang).Quit
	if m.c.layout() == layoutTooSmall {
		// While the screen asks to be enlarged, only quitting does
		// anything: keys pressed blind change nothing.
		if key.Matches(msg, quit) {
			return m, tea.Quit
		}
		return m, nil
	}
	if len(m.cover.notices) > 0 || m.cover.intro {
		// A key closes the notices, then the introduction (whose ↑/↓
		// scroll it while there is more); it does nothing else.
		hk := newHelpKeyMap(m.c.lang)
		_, maxOffset := m.introScroll(m.c.height - 2)
		switch {
		case key.Matches(msg, quit):
			return m, tea.Quit
		case len(m.cover.notices) > 0:
			m.cover.notices = nil
		case maxOffset > 0 && key.Matches(msg, hk.Down):
			m.cover.introOffset = min(m.cover.introOffset+1, maxOffset)
		case maxOffset > 0 && key.Matches(msg, hk.Up):
			m.cover.introOffset = max(m.cover.introOffset-1, 0)
		default:
			m.cover.intro, m.cover.introAgain, m.cover.introOffset = false, false, 0
		}
		return m, nil
	}
	m.notice = ""
	if m.slashed() {
		k := newNoFilterKeyMap(m.c.lang)
		switch {
		case key.Matches(msg, k.Quit):
			return m, tea.Quit
		case key.Matches(msg, k.Close):
			m.noFilter = false
		}
		return m, nil
	}
	if key.Matches(msg, newListKeys(m.c.lang).Filter) && !takesSlash(m.keys()) {
		// Typed for a filter where there is none: the letters after it
		// would run commands (t switches the track). They go nowhere.
		m.noFilter, m.noFilterMode = true, m.mode
		return m, nil
	}
	if m.cover.showHelp {
		return m.helpKey(msg)
	}
	g := m.keys().globals()
	var cmd tea.Cmd
	switch {
	case key.Matches(msg, g.Quit):
		return m, tea.Quit
	case key.Matches(msg, g.Help):
		m.cover.showHelp, m.cover.helpOffset = true, 0
	case key.Matches(msg, g.Lang):
		m.toggleLang()
	case key.Matches(msg, g.Quiz):
		cmd = m.toggleQuiz()
	case key.Matches(msg, g.WhatIf):
		cmd = m.toggleWhatIf()
	default:
		cmd = m.update(m.mode, msg)
	}
	next, save := m.afterKey()
	return next, tea.Batch(cmd, save)
}

// keys are the active mode's key map, as its state has enabled them.
func (m Model) keys() modeKeys {
	if m.slashed() {
		return newNoFilterKeyMap(m.c.lang)
	}
	if m.cover.showHelp {
		return newHelpKeyMap(m.c.lang)
	}
	return m.active().KeyMap()
}

// toggleQuiz turns the quiz on from the walk, where the learner is, and
// off again; the list goes along.
func (m *Model) toggleQuiz() tea.Cmd {
	switch m.mode {
	case modeQuiz:
		list := m.modes.quiz.handOver()
		m.mode = modeWalk
		return m.update(modeWalk, enterMsg{place: handed(m.modes.quiz.Status().place), list: &list})
	case modeWalk:
		list := m.modes.browse.handOver()
		m.mode = modeQuiz
		return m.update(modeQuiz, enterMsg{place: handed(m.modes.browse.Status().place), list: &list})
	case modeWhatIf, modePresent, modeRoom, modeNotes, modePractice: // no quiz here
	}
	return nil
}

// toggleWhatIf starts an experiment on the open scenario, and ends it.
func (m *Model) toggleWhatIf() tea.Cmd {
	if m.mode == modeWhatIf {
		return m.stopWhatIf()
	}
	p := m.active().Status().place
	if !canPath(&p) {
		m.notice = tr("whatIfAdmission", m.c.lang)
		return nil
	}
	m.back, m.mode = m.mode, modeWhatIf
	return m.update(modeWhatIf, enterMsg{place: handed(p)})
}

// handed is a place as one mode hands it to the next: what moving there
// told the progress was told already.
func handed(p place) place {
	p.events = nil
	return p
}

// stopWhatIf ends the experiment: the mode it came from takes the
// scenario back, as written, walked whole.
func (m *Model) stopWhatIf() tea.Cmd {
	p := m.modes.whatIf.stop()
	m.mode = m.back
	return m.update(m.back, backMsg{place: p})
}

// toggleLang switches between English and Chinese, live, in every mode.
func (m *Model) toggleLang() {
	m.c.lang = 1 - m.c.lang
	m.restyle()
	m.prog.Lang = m.c.lang.String()
	m.dirty = true
}

// restyle builds the styles for the theme and the language, and gives
// every mode the new look.
func (m *Model) restyle() {
	m.c.restyle()
	m.help.Styles = m.c.styles.Help
	m.modes.each(commonMsg{m.c})
}

// helpKey handles a key while the help is shown.
func (m Model) helpKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := newHelpKeyMap(m.c.lang)
	switch {
	case key.Matches(msg, k.Quit):
		return m, tea.Quit
	case key.Matches(msg, k.Close):
		m.cover.showHelp = false
	case key.Matches(msg, k.Intro):
		m.cover.showHelp, m.cover.intro, m.cover.introAgain, m.cover.introOffset = false, true, true, 0
	case key.Matches(msg, k.Down):
		m.cover.helpOffset++
	case key.Matches(msg, k.Up):
		m.cover.helpOffset = max(m.cover.helpOffset-1, 0)
	case key.Matches(msg, k.Lang):
		m.toggleLang()
	}
	return m.afterKey()
}

// afterKey tells the room where its presenter's experiment is, and saves
// the progress if the key changed it.
func (m Model) afterKey() (Model, tea.Cmd) {
	if m.mode == modeWhatIf && m.back == modeRoom {
		m.update(modeRoom, leadMsg{place: m.modes.whatIf.Status().place})
	}
	if m.mode == modePresent && m.modes.present.room != nil {
		// The projector leads the room.
		m.update(modeRoom, placeMsg{place: handed(m.modes.present.Status().place)})
	}
	if !m.dirty || m.shell.save == nil {
		m.dirty = false
		return m, nil
	}
	m.dirty = false
	m.prog.Seq++
	return m, saveCmd(m.shell.save, m.prog.Clone())
}

// savedMsg reports a finished save.
type savedMsg struct{ err error }

func saveCmd(save func(progress.Progress) error, p progress.Progress) tea.Cmd {
	return func() tea.Msg { return savedMsg{save(p)} }
}

// idleTickMsg asks whether the session has been idle too long.
type idleTickMsg struct{}

// idleTickCmd checks for idleness at a tenth of the limit, at most every
// five seconds: a redraw is not activity, only a key is.
func idleTickCmd(idle time.Duration) tea.Cmd {
	every := min(max(idle/10, 10*time.Millisecond), 5*time.Second)
	return tea.Tick(every, func(time.Time) tea.Msg { return idleTickMsg{} })
}

// Selected is the open scenario's number, the steps taken and where the
// focus is: what a test or a caller needs to know of the state.
func (m Model) Selected() (number, step int, focusName string) {
	p := m.active().Status().place
	if !p.has() {
		return 0, p.at.Step, p.at.Focus.String()
	}
	return p.written().Number, p.at.Step, p.at.Focus.String()
}

// Track is the track shown.
func (m Model) Track() scenarios.Track {
	p := m.active().Status().place
	return p.track()
}

// Lang is the language shown.
func (m Model) Lang() assess.Lang { return m.c.lang }

// Mode is the active mode's name.
func (m Model) Mode() string { return m.mode.String() }
