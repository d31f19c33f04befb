// Package tui is toolgate's interactive trainer: a Bubble Tea program that
// walks a scenario through the decision order one rule at a time. It only
// renders what assess returns; no decision logic lives here.
//
// The root Model routes by mode (walk, quiz, what-if, presenter, room) to
// one sub-model per mode, each with its own Update, View and key map. They
// share a common (size, styles, language, clock, where the learner is),
// and move the learner only through the pure stepper in package nav.
package tui

import (
	"fmt"
	"os/exec"
	"slices"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/stopwatch"
	"charm.land/bubbles/v2/timer"
	tea "charm.land/bubbletea/v2"

	"toolgate/assess"
	"toolgate/nav"
	"toolgate/progress"
	"toolgate/scenarios"
)

// Options configure a new trainer.
type Options struct {
	Scenarios []scenarios.Scenario
	Lang      assess.Lang
	// Track is the track to start in; "" is admission.
	Track string
	// Scenario is the number (in Track) or id to open at start; "" starts
	// on the list.
	Scenario string
	// Step is how many rules to reveal at start.
	Step  int
	Theme Theme
	// Present starts the presenter layout, for a projector; Timer, when
	// set, counts the lecture's time down beside the elapsed time.
	Present bool
	Timer   time.Duration
	// Clock tells the time for the presenter's elapsed-time clock and the
	// idle limit; nil is the real clock. Tests inject a fixed one.
	Clock func() time.Time
	// Quiz starts in predict-then-reveal mode.
	Quiz bool
	// Progress is the learner's saved progress; Save keeps it (nil: kept
	// in memory only).
	Progress progress.Progress
	Save     func(progress.Progress) error
	// Notice and Warnings are what was said before the trainer started
	// (an unreadable progress file kept aside, a scenario file skipped):
	// they are shown in full on the first screen, not lost behind it.
	Notice   string
	Warnings []string
	// SaveScenario keeps a what-if experiment and says where; nil turns
	// the save key off (a served session writes nothing on the server).
	SaveScenario func(scenarios.Scenario) (string, error)
	// Room is the lecture hall when served over SSH; nil alone. Notes
	// makes this session the lecturer's notes screen in the room.
	Room  Room
	Notes bool
	// ClassCode is what students type to get in, for the presenter's
	// screen (the projector) to show; "" shows nothing.
	ClassCode string
	// Idle ends the session after this long without a key (0: never).
	Idle time.Duration
	// NoMouse leaves the mouse to the terminal (its own selection).
	NoMouse bool
	// Reload loads the scenarios again (the lecturer's files may have
	// changed) and says what was wrong with them; Watch calls changed
	// whenever the files change (--watch) until stop. Edit is the editor
	// command for a scenario loaded from a file, nil for one that is not.
	// The tui itself reads and watches no file.
	Reload func() (all []scenarios.Scenario, problems []string, err error)
	Watch  func(changed func()) (stop func(), err error)
	Edit   func(scenarios.Scenario) *exec.Cmd
}

// mode is what the trainer is doing; exactly one is active, and it alone
// gets the keys.
type mode int

const (
	modeWalk mode = iota
	modeQuiz
	modeWhatIf
	modePresent
	modeRoom
	modeNotes
)

func (m mode) String() string {
	return [...]string{"walk", "quiz", "what-if", "presenter", "room", "notes"}[m]
}

// Model is the trainer's root model.
type Model struct {
	c    common
	mode mode
	// back is the mode the what-if returns to.
	back mode

	// browse is the list, its filter and the overlays (the path, the
	// inputs in full): the walk mode's, and shared by the quiz and the
	// room, which step through the same list and walk.
	browse  browseModel
	quiz    quizModel
	whatIf  whatIfModel
	present presentModel
	room    roomModel

	help       help.Model
	showHelp   bool
	helpOffset int
	// notices are shown in full on the first screen until a key (and
	// after a reload, under noticesTitle).
	notices      []string
	noticesTitle string
	// intro shows what the trainer is for and what the decision does
	// not do (seed 000's non-goals): once, on a learner's first start,
	// and again from the help (d: introAgain); introOffset scrolls it
	// on a small screen.
	intro, introAgain bool
	introOffset       int

	save         func(progress.Progress) error
	saveScenario func(scenarios.Scenario) (string, error)
	idle         time.Duration
	lastKey      time.Time
	noMouse      bool
	reload       func() ([]scenarios.Scenario, []string, error)
	edit         func(scenarios.Scenario) *exec.Cmd
}

// New builds the trainer. A Scenario that does not exist is ignored.
func New(opts Options) Model {
	clock := opts.Clock
	if clock == nil {
		clock = time.Now
	}
	m := Model{c: newCommon(opts.Scenarios, opts.Lang, opts.Theme, clock), help: help.New(),
		browse: newBrowse(), save: opts.Save, saveScenario: opts.SaveScenario, idle: opts.Idle, noMouse: opts.NoMouse,
		reload: opts.Reload, edit: opts.Edit}
	m.c.prog = opts.Progress
	if m.c.prog.Quiz == nil {
		m.c.prog = progress.New()
	}
	for _, w := range append(opts.Warnings, opts.Notice) {
		if w != "" {
			m.notices = append(m.notices, w)
		}
	}
	m.lastKey = clock()
	track := opts.Track
	if track == "" {
		track = scenarios.TrackAdmission
	}
	resume := m.c.prog.Last
	// A learner's first start: nothing walked, answered or opened yet.
	fresh := len(m.c.prog.Walked) == 0 && len(m.c.prog.Quiz) == 0 && resume == ""
	if s, ok := scenarios.Find(opts.Scenarios, track, opts.Scenario); ok && opts.Scenario != "" {
		m.c.openID(s.ID)
		m.c.at = nav.Navigate(&m.c, m.c.at, nav.Action{Kind: nav.Reveal, N: opts.Step})
	} else {
		m.c.at.Track = max(slices.Index(scenarios.Tracks, track), 0)
		m.c.opened()
		if resume != "" {
			// Self-study resumes where it stopped.
			m.c.openID(resume)
			m.c.navigate(nav.Action{Kind: nav.ToList})
		}
	}
	switch {
	case opts.Room != nil && opts.Notes:
		m.mode = modeNotes
		m.room = roomModel{room: opts.Room, classCode: opts.ClassCode}
		m.present = newPresent(opts.Timer)
	case opts.Room != nil:
		m.mode = modeRoom
		m.room = roomModel{room: opts.Room, classCode: opts.ClassCode}
	case opts.Present:
		m.mode = modePresent
		m.present = newPresent(opts.Timer)
		m.c.navigate(nav.Action{Kind: nav.Open})
	case opts.Quiz:
		m.mode = modeQuiz
		m.quiz = quizModel{}.resume(&m.c, true).start(&m.c)
	}
	m.c.dirty = false
	m.intro = fresh && opts.Scenario == "" && !opts.Present && opts.Room == nil
	m.restyle()
	return m
}

// Init asks the terminal for its background colour when the theme is auto.
func (m Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.c.theme == ThemeAuto || m.c.theme == ThemeHighContrast {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if m.mode == modePresent || m.mode == modeNotes {
		cmds = append(cmds, m.present.init())
	}
	if m.idle > 0 {
		cmds = append(cmds, idleTickCmd(m.idle))
	}
	return tea.Batch(cmds...)
}

func (m *Model) restyle() {
	m.c.restyle()
	m.help.Styles = m.c.styles.Help
}

// keys are the active mode's key map, as its state has enabled them.
func (m Model) keys() modeKeys {
	if m.showHelp {
		return newHelpKeyMap(m.c.lang)
	}
	return m.modeKeys(true)
}

// modeKeys are the active mode's keys: those that would do something now,
// or (for the ? help) every key of the mode.
func (m Model) modeKeys(now bool) modeKeys {
	c := &m.c
	switch m.mode {
	case modeQuiz:
		if m.quiz.summary && now {
			return m.quiz.summaryKeys(c)
		}
		return m.quiz.keys(c, &m.browse, now)
	case modeWhatIf:
		return m.whatIf.keys(c, now)
	case modePresent:
		k := m.present.keys(c, now)
		if m.present.blank && now {
			off(&k.Help, &k.Lang)
		}
		return k
	case modeRoom:
		return m.room.keys(c, &m.browse, now)
	case modeNotes:
		return m.notesKeys()
	}
	k := m.browse.keys(c, now)
	onIf(m.editable(), &k.Edit)
	return k
}

// Update handles a message.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.width, m.c.height = msg.Width, msg.Height
		m.help.SetWidth(msg.Width)
	case RoomMsg:
		if m.mode == modeNotes {
			return m.followNotes(msg)
		}
		if m.mode == modeWhatIf && m.back == modeRoom && msg.Open && !m.room.state.Open {
			// The room's question ends the experiment: answer first.
			m.whatIf.stop(&m.c)
			m.mode = modeRoom
		}
		var cmd tea.Cmd
		m.room, cmd = m.room.follow(&m.c, msg)
		return m, cmd
	case idleTickMsg:
		if m.c.clock().Sub(m.lastKey) >= m.idle {
			m.c.notice = fmt.Sprintf(tr("idleBye", m.c.lang), m.idle)
			return m, tea.Sequence(tea.Tick(time.Second, func(time.Time) tea.Msg { return nil }), tea.Quit)
		}
		return m, idleTickCmd(m.idle)
	case savedScenarioMsg:
		if msg.err != nil {
			m.c.notice = msg.err.Error()
		} else {
			m.c.notice = fmt.Sprintf(tr("whatIfSaved", m.c.lang), msg.path)
		}
	case savedMsg:
		if msg.err != nil {
			m.c.notice = fmt.Sprintf(tr("saveFailed", m.c.lang), msg.err)
		}
	case stopwatch.TickMsg, stopwatch.StartStopMsg, stopwatch.ResetMsg, timer.TickMsg, timer.StartStopMsg, timer.TimeoutMsg:
		var cmd tea.Cmd
		m.present, cmd, _ = m.present.clockMsg(msg)
		return m, cmd
	case tea.BackgroundColorMsg:
		if m.c.theme == ThemeAuto || m.c.theme == ThemeHighContrast {
			m.c.dark = msg.IsDark()
			m.restyle()
		}
	case ClampedMsg:
		m.c.notice = msg.Text(m.c.lang)
	case reloadMsg:
		if m.reload == nil {
			return m, nil
		}
		reload := m.reload
		return m, func() tea.Msg {
			all, problems, err := reload()
			return reloadedMsg{all: all, problems: problems, err: err}
		}
	case reloadedMsg:
		m.applyReload(msg)
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseWheelMsg:
		m.lastKey = m.c.clock()
		m.wheel(msg)
		m.clampScroll()
	case tea.MouseClickMsg:
		m.lastKey = m.c.clock()
		m.click(msg)
		return m.afterKey()
	}
	return m, nil
}

func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	m.lastKey = m.c.clock()
	quit := newGlobalKeys(m.c.lang).Quit
	if layoutFor(m.c.width, m.c.height) == layoutTooSmall {
		// While the screen asks to be enlarged, only quitting does
		// anything: keys pressed blind change nothing.
		if key.Matches(msg, quit) {
			return m, tea.Quit
		}
		return m, nil
	}
	if len(m.notices) > 0 || m.intro {
		// A key closes the notices, then the introduction (whose ↑/↓
		// scroll it while there is more); it does nothing else.
		hk := newHelpKeyMap(m.c.lang)
		_, maxOffset := m.introScroll(m.c.height - 2)
		switch {
		case key.Matches(msg, quit):
			return m, tea.Quit
		case len(m.notices) > 0:
			m.notices = nil
		case maxOffset > 0 && key.Matches(msg, hk.Down):
			m.introOffset = min(m.introOffset+1, maxOffset)
		case maxOffset > 0 && key.Matches(msg, hk.Up):
			m.introOffset = max(m.introOffset-1, 0)
		default:
			m.intro, m.introAgain, m.introOffset = false, false, 0
		}
		return m, nil
	}
	m.c.notice = ""
	if m.showHelp {
		return m.helpKey(msg)
	}
	g := m.keys().globals()
	var cmd tea.Cmd
	switch {
	case key.Matches(msg, g.Quit):
		return m, tea.Quit
	case key.Matches(msg, g.Help):
		m.showHelp, m.helpOffset = true, 0
	case key.Matches(msg, g.Lang):
		m.c.toggleLang()
		m.restyle()
	case key.Matches(msg, g.Quiz):
		m.toggleQuiz()
	case key.Matches(msg, g.WhatIf):
		m.toggleWhatIf()
	default:
		cmd = m.route(msg)
	}
	next, save := m.afterKey()
	return next, tea.Batch(cmd, save)
}

// route gives a key to the active mode.
func (m *Model) route(msg tea.KeyPressMsg) tea.Cmd {
	c := &m.c
	var cmd tea.Cmd
	switch m.mode {
	case modeQuiz:
		m.quiz, cmd = m.quiz.update(c, &m.browse, msg)
	case modeWhatIf:
		m.whatIf, cmd = m.whatIf.update(c, msg)
	case modePresent:
		m.present = m.present.update(c, msg)
	case modeRoom:
		m.room, cmd = m.room.update(c, &m.browse, msg)
	case modeNotes:
		k := m.notesKeys()
		switch {
		case key.Matches(msg, k.ScrollDown):
			c.scroll++
		case key.Matches(msg, k.ScrollUp):
			c.scroll--
		case key.Matches(msg, k.Clock):
			m.present.showClock = !m.present.showClock
		}
	default:
		if k, ok := m.keys().(browseKeyMap); ok && key.Matches(msg, k.Edit) {
			return m.editCmd()
		}
		m.browse, cmd = m.browse.update(c, msg)
	}
	return cmd
}

func (m *Model) toggleQuiz() {
	switch m.mode {
	case modeQuiz:
		m.mode = modeWalk
		m.quiz.summary = false
	case modeWalk:
		m.quiz = m.quiz.resume(&m.c, false)
		if _, answered := m.quiz.results[m.c.written().ID]; m.c.has() && !answered {
			// A scenario not answered yet is asked from its start, even
			// if its walk was showing.
			m.c.navigate(nav.Action{Kind: nav.Restart})
		}
		m.quiz = m.quiz.start(&m.c)
		m.mode = modeQuiz
	}
}

func (m *Model) toggleWhatIf() {
	if m.mode == modeWhatIf {
		m.whatIf.stop(&m.c)
		m.mode = m.back
		return
	}
	if !canPath(&m.c) {
		m.c.notice = tr("whatIfAdmission", m.c.lang)
		return
	}
	m.back = m.mode
	m.whatIf = startWhatIf(&m.c, m.saveScenario)
	m.mode = modeWhatIf
}

// helpKey handles a key while the help is shown.
func (m Model) helpKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := newHelpKeyMap(m.c.lang)
	switch {
	case key.Matches(msg, k.Quit):
		return m, tea.Quit
	case key.Matches(msg, k.Close):
		m.showHelp = false
	case key.Matches(msg, k.Intro):
		m.showHelp, m.intro, m.introAgain, m.introOffset = false, true, true, 0
	case key.Matches(msg, k.Down):
		m.helpOffset++
	case key.Matches(msg, k.Up):
		m.helpOffset = max(m.helpOffset-1, 0)
	case key.Matches(msg, k.Lang):
		m.c.toggleLang()
		m.restyle()
	}
	return m.afterKey()
}

// afterKey tells the room where its presenter is, and saves the progress
// if the key changed it.
func (m Model) afterKey() (Model, tea.Cmd) {
	m.clampScroll()
	if m.mode == modeRoom || (m.mode == modeWhatIf && m.back == modeRoom) {
		m.room = m.room.lead(&m.c)
	}
	if !m.c.dirty || m.save == nil {
		m.c.dirty = false
		return m, nil
	}
	m.c.dirty = false
	m.c.prog.Seq++
	return m, saveCmd(m.save, m.c.prog.Clone())
}

// clampScroll keeps the learner's scroll offsets on the content: it draws
// the frame once and keeps each offset as the pane drawn used it, so that
// J pressed past the end is not counted, and K after it moves the view at
// once. An offset no pane drew (an overlay covers it) is left as it is.
func (m *Model) clampScroll() {
	if m.c.scroll == 0 && m.c.inputsScroll == 0 {
		return
	}
	var used scrollUsed
	probe := *m
	probe.c.used = &used
	probe.Render()
	if used.sawScroll {
		m.c.scroll = used.scroll
	}
	if used.sawInputs {
		m.c.inputsScroll = used.inputs
	}
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
	if !m.c.has() {
		return 0, m.c.at.Step, m.c.at.Focus.String()
	}
	return m.c.written().Number, m.c.at.Step, m.c.at.Focus.String()
}

// Track is the track shown.
func (m Model) Track() string { return m.c.track() }

// Lang is the language shown.
func (m Model) Lang() assess.Lang { return m.c.lang }

// Mode is the active mode's name.
func (m Model) Mode() string { return m.mode.String() }
