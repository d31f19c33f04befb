// Package tui is toolgate's interactive trainer: a Bubble Tea program that
// walks a scenario through the decision order one rule at a time. It only
// renders what assess returns; no decision logic lives here.
package tui

import (
	"fmt"
	"slices"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"toolgate/assess"
	"toolgate/progress"
	"toolgate/scenarios"
	"toolgate/walk"
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
	// Present starts the presenter layout, for a projector.
	Present bool
	// Clock tells the time for the presenter's elapsed-time clock; nil is
	// the real clock. Tests inject a fixed one.
	Clock func() time.Time
	// Quiz starts in predict-then-reveal mode.
	Quiz bool
	// Progress is the learner's saved progress; Save keeps it (nil: kept
	// in memory only). Notice is a line to show at start, e.g. that an
	// unreadable progress file was kept aside.
	Progress progress.Progress
	Save     func(progress.Progress) error
	Notice   string
	// SaveScenario keeps a what-if experiment and says where; nil turns
	// the save key off (a served session writes nothing on the server).
	SaveScenario func(scenarios.Scenario) (string, error)
	// Room is the lecture hall when served over SSH; nil alone.
	Room Room
	// Idle ends the session after this long without a key (0: never).
	Idle time.Duration
}

// focus is where enter goes: to the list (open the scenario) or to the walk
// (run to the verdict).
type focus int

const (
	focusList focus = iota
	focusWalk
)

func (f focus) String() string {
	if f == focusWalk {
		return "walk"
	}
	return "list"
}

// Model is the trainer's root model.
type Model struct {
	everything []scenarios.Scenario
	track      string
	// all is the current track's scenarios.
	all   []scenarios.Scenario
	sel   int
	focus focus
	// step is how far the walk has gone: 0 before any rule is asked,
	// then one rule a step up to the rule that fires, then one more step
	// for the verdict.
	step int

	// walk is the selected scenario walked in the current language.
	walk walk.Walk

	lang       assess.Lang
	theme      Theme
	dark       bool
	width      int
	height     int
	showHelp   bool
	showInputs bool

	styles Styles
	keys   keyMap
	help   help.Model

	// Presenter mode: blank hides everything (b or .), showClock shows the
	// time since start.
	present   bool
	blank     bool
	showClock bool
	clock     func() time.Time
	start     time.Time
	now       time.Time

	quiz   quizState
	whatIf whatIfState
	// saveScenario keeps what-if experiments; nil: the key is off.
	saveScenario func(scenarios.Scenario) (string, error)

	room      Room
	roomState roomState
	idle      time.Duration
	lastKey   time.Time
	// prog is the learner's progress; progressChanged asks Update to save
	// it; notice is a one-line message shown until the next key.
	prog            progress.Progress
	progressChanged bool
	save            func(progress.Progress) error
	notice          string
}

// New builds the trainer. A Scenario that does not exist is ignored.
func New(opts Options) Model {
	m := Model{everything: opts.Scenarios, lang: opts.Lang, theme: opts.Theme, dark: opts.Theme != ThemeLight,
		width: 120, height: 40, help: help.New(), present: opts.Present, showClock: opts.Present, clock: opts.Clock}
	if m.clock == nil {
		m.clock = time.Now
	}
	m.prog, m.save, m.notice, m.saveScenario = opts.Progress, opts.Save, opts.Notice, opts.SaveScenario
	m.room, m.idle = opts.Room, opts.Idle
	if m.prog.Quiz == nil {
		m.prog = progress.New()
	}
	resume := m.prog.Last
	m.quiz.on = opts.Quiz
	m.start = m.clock()
	m.now, m.lastKey = m.start, m.start
	track := opts.Track
	if track == "" {
		track = scenarios.TrackAdmission
	}
	s, found := scenarios.Find(m.everything, track, opts.Scenario)
	if found {
		track = s.Track
	}
	m.restyle()
	m.setTrack(track)
	switch {
	case opts.Scenario != "" && found:
		m.selectScenario(s.Number - 1)
		m.focus = focusWalk
		m.step = min(max(opts.Step, 0), m.lastStep())
	case resume != "":
		// Self-study resumes where it stopped.
		if last, ok := scenarios.Find(m.everything, "", resume); ok {
			m.setTrack(last.Track)
			m.selectScenario(last.Number - 1)
		}
	}
	if opts.Quiz {
		m.focus = focusWalk
	}
	m.startQuestion()
	m.progressChanged = false
	return m
}

// Init asks the terminal for its background colour when the theme is auto.
func (m Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.theme == ThemeAuto || m.theme == ThemeHighContrast {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if m.present && m.showClock {
		cmds = append(cmds, tickCmd())
	}
	if m.idle > 0 {
		cmds = append(cmds, idleTickCmd(m.idle))
	}
	return tea.Batch(cmds...)
}

func (m *Model) restyle() {
	m.styles = newStyles(m.theme, m.dark)
	m.keys = defaultKeyMap(m.lang)
	m.help.Styles = m.styles.Help
	m.updateKeys()
}

// updateKeys enables the bindings that mean something in this state, so
// that the help shows only what a key press would do.
func (m *Model) updateKeys() {
	inWalk := m.focus == focusWalk
	m.keys.Open.SetEnabled(!inWalk)
	m.keys.Run.SetEnabled(inWalk && !m.reached())
	m.keys.Back.SetEnabled(m.step > 0)
	m.keys.Next.SetEnabled(!m.reached())
	m.keys.Restart.SetEnabled(m.step > 0)
	m.keys.List.SetEnabled(inWalk && m.layout() == layoutThree && !m.present)
	m.keys.Inputs.SetEnabled(m.layout() == layoutOne && !m.present)
	m.keys.editing = m.whatIf.on
	if m.whatIf.on {
		m.keys.Down.SetHelp("↑/↓", tr("kKnob", m.lang))
		m.keys.Next.SetHelp("→/enter", tr("kValue", m.lang))
		m.keys.Next.SetEnabled(true)
		m.keys.WhatIf.SetHelp("w", tr("kDone", m.lang))
	} else {
		m.keys.Down.SetHelp("↓/j", tr("kDown", m.lang))
		m.keys.Next.SetHelp("→/space", tr("kNext", m.lang))
		m.keys.WhatIf.SetHelp("w", tr("kWhatIf", m.lang))
	}
	m.keys.Undo.SetEnabled(m.whatIf.on)
	m.keys.Reset.SetEnabled(m.whatIf.on)
	m.keys.Save.SetEnabled(m.whatIf.on && m.saveScenario != nil)
	m.keys.Blank.SetEnabled(m.present)
	m.keys.Clock.SetEnabled(m.present)
	if m.present {
		// A clicker's enter advances like →; t is the clock, so tracks
		// move to T.
		m.keys.Next.SetKeys("right", "l", "space", "pgdown", "enter")
		m.keys.Next.SetHelp("→/space/enter", tr("kNext", m.lang))
		m.keys.Track.SetKeys("T")
		m.keys.Track.SetHelp("T", tr("kTrack", m.lang))
		m.keys.Open.SetEnabled(false)
		m.keys.Run.SetEnabled(false)
	}
}

// setTrack shows a track's scenarios, the first selected.
func (m *Model) setTrack(track string) {
	m.track = track
	m.all = scenarios.InTrack(m.everything, track)
	m.sel = 0
	m.selectScenario(0)
}

func (m *Model) selectScenario(i int) {
	m.step = 0
	if len(m.all) == 0 {
		m.walk = walk.Walk{}
		return
	}
	m.sel = (i + len(m.all)) % len(m.all)
	m.whatIf = whatIfState{}
	m.walk = walk.Of(m.all[m.sel], m.lang)
	if id := m.all[m.sel].ID; m.prog.Last != id {
		m.prog.Last = id
		m.progressChanged = true
	}
	m.startQuestion()
}

// firedAt is the number of the step that decides the selected scenario.
func (m Model) firedAt() int { return m.walk.Decisive }

// lastStep is the step that shows the verdict.
func (m Model) lastStep() int { return m.firedAt() + 1 }

// reached reports whether the walk has reached the verdict.
func (m Model) reached() bool { return len(m.walk.Steps) > 0 && m.step >= m.lastStep() }

// current is the number of the rule the walk is on (0 before the first),
// the fired one once the verdict shows.
func (m Model) current() int { return min(m.step, m.firedAt()) }

// Update handles a message.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.help.SetWidth(msg.Width)
	case RoomMsg:
		return m.roomUpdate(msg)
	case idleTickMsg:
		if m.clock().Sub(m.lastKey) >= m.idle {
			m.notice = fmt.Sprintf(tr("idleBye", m.lang), m.idle)
			return m, tea.Sequence(tea.Tick(time.Second, func(time.Time) tea.Msg { return nil }), tea.Quit)
		}
		return m, idleTickCmd(m.idle)
	case savedScenarioMsg:
		if msg.err != nil {
			m.notice = msg.err.Error()
		} else {
			m.notice = fmt.Sprintf(tr("whatIfSaved", m.lang), msg.path)
		}
		return m, nil
	case savedMsg:
		if msg.err != nil {
			m.notice = fmt.Sprintf(tr("saveFailed", m.lang), msg.err)
		}
		return m, nil
	case tickMsg:
		m.now = m.clock()
		if m.present && m.showClock {
			return m, tickCmd()
		}
		return m, nil
	case tea.BackgroundColorMsg:
		if m.theme == ThemeAuto || m.theme == ThemeHighContrast {
			m.dark = msg.IsDark()
			m.restyle()
		}
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	}
	m.updateKeys()
	return m, nil
}

func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	m.lastKey = m.clock()
	if m.roomKey(msg) {
		return m, nil
	}
	if m.room != nil && !m.room.Presenter() && m.roomState.Open && m.liveOpen() &&
		(key.Matches(msg, k.Next) || key.Matches(msg, k.Run) || key.Matches(msg, k.Restart) || key.Matches(msg, k.WhatIf)) &&
		m.quiz.phase == quizIdle {
		// No peeking while the room's question is open.
		m.notice = tr("roomWaitReveal", m.lang)
		return m, nil
	}
	if m.present {
		switch {
		case key.Matches(msg, k.Blank):
			m.blank = !m.blank
			return m, nil
		case m.blank && !key.Matches(msg, k.Quit):
			// A blanked screen wakes on any key but does nothing else,
			// as slide software does.
			m.blank = false
			return m, nil
		case key.Matches(msg, k.Clock):
			m.showClock = !m.showClock
			if m.showClock {
				return m, tickCmd()
			}
			return m, nil
		}
	}
	m.notice = ""
	if m.quiz.summary && !key.Matches(msg, k.Quit) {
		m.quiz.summary = false
		return m, nil
	}
	if m.quiz.phase != quizIdle && msg.Code >= '0' && msg.Code <= '9' && msg.Mod == 0 {
		if m.answerKey(int(msg.Code - '0')) {
			return m.afterKey()
		}
	}
	if m.whatIf.on && !key.Matches(msg, k.Quit) && !key.Matches(msg, k.Help) && !key.Matches(msg, k.Lang) {
		if done, cmd := m.whatIfKey(msg); done {
			next, save := m.afterKey()
			return next, tea.Batch(cmd, save)
		}
	}
	asking := m.quiz.phase != quizIdle
	switch {
	case key.Matches(msg, k.WhatIf):
		m.startWhatIf()
	case key.Matches(msg, k.Quit):
		return m, tea.Quit
	case key.Matches(msg, k.Quiz):
		m.quiz.on = !m.quiz.on
		m.focus = focusWalk
		m.startQuestion()
	case asking && (key.Matches(msg, k.Next) || key.Matches(msg, k.Run)):
		m.notice = tr("answerFirst", m.lang)
	case key.Matches(msg, k.NextScenario) && m.quiz.on && m.sel == len(m.all)-1 && len(m.quiz.results) > 0:
		// The end of the track: the summary of the session.
		m.quiz.summary = true
	case key.Matches(msg, k.Help):
		m.showHelp = !m.showHelp
	case m.showHelp && msg.String() == "esc":
		m.showHelp = false
	case key.Matches(msg, k.Lang):
		m.lang = 1 - m.lang
		m.restyle()
		if len(m.all) > 0 {
			m.walk = walk.Of(m.edited(), m.lang)
		}
		m.prog.Lang = m.lang.String()
		m.progressChanged = true
	case key.Matches(msg, k.Track):
		i := (slices.Index(scenarios.Tracks, m.track) + 1) % len(scenarios.Tracks)
		m.setTrack(scenarios.Tracks[i])
		m.focus = focusList
	case key.Matches(msg, k.Up):
		m.selectScenario(m.sel - 1)
		m.focus = focusList
	case key.Matches(msg, k.Down):
		m.selectScenario(m.sel + 1)
		m.focus = focusList
	case key.Matches(msg, k.Open):
		m.focus = focusWalk
	case key.Matches(msg, k.Run):
		m.step = m.lastStep()
	case key.Matches(msg, k.Next):
		m.focus = focusWalk
		m.step = min(m.step+1, m.lastStep())
	case key.Matches(msg, k.Back):
		m.step = max(m.step-1, 0)
	case key.Matches(msg, k.Restart):
		m.step = 0
	case key.Matches(msg, k.NextScenario):
		m.selectScenario(m.sel + 1)
		m.focus = focusWalk
	case key.Matches(msg, k.PrevScenario):
		m.selectScenario(m.sel - 1)
		m.focus = focusWalk
	case key.Matches(msg, k.Jump):
		if n := int(msg.Code - '0'); n >= 1 && n <= len(m.all) {
			m.selectScenario(n - 1)
			m.focus = focusWalk
		}
	case key.Matches(msg, k.List):
		m.focus = focusList
	case key.Matches(msg, k.Inputs):
		m.showInputs = !m.showInputs
	}
	return m.afterKey()
}

// afterKey records what the key changed in the progress and saves it; a
// presenter's move to another scenario takes the room along.
func (m Model) afterKey() (tea.Model, tea.Cmd) {
	m.updateKeys()
	if m.room != nil && m.room.Presenter() && len(m.all) > 0 && m.all[m.sel].ID != m.roomState.Live {
		m.roomState.Live = m.all[m.sel].ID
		m.room.Go(m.roomState.Live)
	}
	if m.reached() && len(m.all) > 0 && !slices.Contains(m.prog.Walked, m.all[m.sel].ID) {
		m.prog.MarkWalked(m.all[m.sel].ID)
		m.progressChanged = true
	}
	if !m.progressChanged || m.save == nil {
		m.progressChanged = false
		return m, nil
	}
	m.progressChanged = false
	m.prog.Seq++
	return m, saveCmd(m.save, m.prog.Clone())
}

// savedMsg reports a finished save.
type savedMsg struct{ err error }

func saveCmd(save func(progress.Progress) error, p progress.Progress) tea.Cmd {
	return func() tea.Msg { return savedMsg{save(p)} }
}

// Selected is the open scenario's number, the steps taken and where the
// focus is: what a test or a caller needs to know of the state.
func (m Model) Selected() (number, step int, focusName string) {
	if len(m.all) == 0 {
		return 0, m.step, m.focus.String()
	}
	return m.all[m.sel].Number, m.step, m.focus.String()
}

// Track is the track shown.
func (m Model) Track() string { return m.track }

// Lang is the language shown.
func (m Model) Lang() assess.Lang { return m.lang }

// tickMsg asks the presenter clock to redraw.
type tickMsg struct{}

func tickCmd() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{} })
}

// idleTickMsg asks whether the session has been idle too long.
type idleTickMsg struct{}

// idleTickCmd checks for idleness at a tenth of the limit, at most every
// five seconds: a redraw is not activity, only a key is.
func idleTickCmd(idle time.Duration) tea.Cmd {
	every := min(max(idle/10, 10*time.Millisecond), 5*time.Second)
	return tea.Tick(every, func(time.Time) tea.Msg { return idleTickMsg{} })
}
