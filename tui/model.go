// Package tui is toolgate's interactive trainer: a Bubble Tea program that
// walks a scenario through the decision order one rule at a time. It only
// renders what assess returns; no decision logic lives here.
//
// The root Model routes by mode (walk, quiz, what-if, presenter, room,
// notes, practice) to one component per mode (component.go), each with its
// own state, Update, View and key map. They share only a narrow common
// (size, styles, keys, language, clock) and the deck of scenarios; each
// keeps its own place, moved only through the pure stepper in package
// nav, and they talk to the root through messages.
package tui

import (
	"os/exec"
	"slices"
	"time"

	"charm.land/bubbles/v2/help"
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
	// Track is the track to start in; 0 is admission.
	Track scenarios.Track
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
	// JoinURL is the phones' link (the web page), which the projector
	// and the notes screen show as a QR code; "" shows nothing.
	JoinURL string
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
	// Seed seeds the practice's draws (main seeds it from the clock at
	// start; tests fix it): the trainer itself reads no clock to draw.
	Seed uint64
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
	modePractice
)

func (m mode) String() string {
	return [...]string{"walk", "quiz", "what-if", "presenter", "room", "notes", "practice"}[m]
}

// Model is the trainer's root model: it routes messages to the active
// mode, keeps the learner's progress, and draws the frame around the
// mode's body.
type Model struct {
	c    common
	deck *deck
	mode mode
	// back is the mode the what-if and the practice return to.
	back  mode
	modes modes

	// prog is the learner's progress; dirty asks for a save after the
	// key. Only the root writes it; the modes read it (progressMsg).
	prog  progress.Progress
	dirty bool
	// notice is one line shown in the footer until the next key.
	notice string
	// noFilter is set by a / where no filter is: the footer says so,
	// and the letters typed after it do nothing until esc or enter — or
	// until the mode changes under it (the room's question ends a
	// what-if: its digits must answer).
	noFilter     bool
	noFilterMode mode
	help         help.Model
	cover        cover
	shell        shell
	// lastKey is when the last key or click came, for the idle limit.
	lastKey time.Time
	// drawn, when set, is told of every frame drawn: a test counts them
	// to see that no Update draws one.
	drawn func()
}

// modes are the components, one a mode. A session has a presenter, a
// room or a notes screen only when started as one (has says which).
type modes struct {
	browse   browseModel
	quiz     quizModel
	whatIf   whatIfModel
	present  presentModel
	room     roomModel
	notes    notesModel
	practice practiceModel
	has      [modePractice + 1]bool
}

// shell is what the command gave the trainer to act outside it: saving,
// the editor, reloading, the idle limit, the mouse.
type shell struct {
	save         func(progress.Progress) error
	saveScenario func(scenarios.Scenario) (string, error)
	idle         time.Duration
	// timer is the lecture's length, for the clocks of a projector.
	timer time.Duration
	// classCode is the room's, for a projector to show; joinURL the
	// phones' link, for the projector and the notes screen.
	classCode, joinURL string
	noMouse            bool
	reload             func() ([]scenarios.Scenario, []string, error)
	edit               func(scenarios.Scenario) *exec.Cmd
}

// New builds the trainer. A Scenario that does not exist is ignored.
func New(opts Options) Model {
	clock := opts.Clock
	if clock == nil {
		clock = time.Now
	}
	m := Model{c: newCommon(opts.Lang, opts.Theme, clock), deck: newDeck(opts.Scenarios), help: help.New(),
		shell: shell{save: opts.Save, saveScenario: opts.SaveScenario, idle: opts.Idle, timer: opts.Timer, classCode: opts.ClassCode, joinURL: opts.JoinURL, noMouse: opts.NoMouse,
			reload: opts.Reload, edit: opts.Edit}}
	if opts.Room != nil {
		// A served session writes nothing on the server: its progress,
		// practice included, is kept in memory only.
		m.shell.save = nil
	}
	m.prog = opts.Progress
	if m.prog.Quiz == nil {
		m.prog = progress.New()
	}
	for _, w := range append(opts.Warnings, opts.Notice) {
		if w != "" {
			m.cover.notices = append(m.cover.notices, w)
		}
	}
	m.lastKey = clock()
	p := m.startPlace(opts)
	// A learner's first start: nothing walked, answered or opened yet.
	fresh := len(m.prog.Walked) == 0 && len(m.prog.Quiz) == 0 && m.prog.Last == ""
	ms := &m.modes
	ms.browse = newBrowseModel(m.c, p, m.shell.editable)
	ms.quiz = newQuizModel(m.c, p, m.prog)
	ms.whatIf = newWhatIfModel(m.c, p, opts.SaveScenario)
	ms.practice = newPracticeModel(m.c, m.deck, opts.Seed, m.prog)
	for _, md := range []mode{modeWalk, modeQuiz, modeWhatIf, modePractice} {
		ms.has[md] = true
	}
	switch {
	case opts.Room != nil && opts.Notes:
		m.mode, ms.has[modeNotes] = modeNotes, true
		ms.notes = newNotesModel(m.c, p, opts.Timer)
		ms.notes.joinURL = opts.JoinURL
	case opts.Room != nil:
		m.mode, ms.has[modeRoom] = modeRoom, true
		ms.room = newRoomModel(m.c, p, opts.Room, opts.ClassCode)
	case opts.Present:
		m.mode, ms.has[modePresent] = modePresent, true
		ms.present = newPresentModel(m.c, p, opts.Timer)
	case opts.Quiz:
		m.mode = modeQuiz
		ms.quiz = ms.quiz.resume(true).start()
	}
	m.take(m.active().Posted())
	m.dirty = false
	m.cover.intro = fresh && opts.Scenario == "" && !opts.Present && opts.Room == nil
	m.restyle()
	return m
}

// startPlace is where the learner starts: the scenario asked for, at its
// step; else where self-study stopped, on the list; else the track's
// start.
func (m *Model) startPlace(opts Options) place {
	track := opts.Track
	if track == 0 {
		track = scenarios.TrackAdmission
	}
	p := newPlace(m.deck, opts.Lang)
	if s, ok := scenarios.Find(opts.Scenarios, track, opts.Scenario); ok && opts.Scenario != "" {
		p.openID(s.ID)
		p.at = nav.Navigate(&p, p.at, nav.Action{Kind: nav.Reveal, N: opts.Step})
		return p
	}
	p.at.Track = max(slices.Index(scenarios.Tracks, track), 0)
	p.opened()
	if resume := m.prog.Last; resume != "" {
		// Self-study resumes where it stopped.
		p.openID(resume)
		p.navigate(nav.Action{Kind: nav.ToList})
	}
	return p
}

// editable reports whether a scenario came from a file the lecturer can
// edit.
func (s shell) editable(sc scenarios.Scenario) bool {
	return s.edit != nil && s.reload != nil && s.edit(sc) != nil
}

// Init asks the terminal for its background colour when the theme is auto.
func (m Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.c.theme == ThemeAuto || m.c.theme == ThemeHighContrast {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	switch m.mode {
	case modePresent:
		cmds = append(cmds, m.modes.present.Init())
	case modeNotes:
		cmds = append(cmds, m.modes.notes.Init())
	case modeWalk, modeQuiz, modeWhatIf, modeRoom, modePractice: // no command at start
	}
	if m.shell.idle > 0 {
		cmds = append(cmds, idleTickCmd(m.shell.idle))
	}
	return tea.Batch(cmds...)
}

// projector switches a room's presenter to the projector's layout, bound
// to the room, at the room's place; and back, with the projector's place.
func (m *Model) projector(msg projectorMsg) tea.Cmd {
	if !msg.on {
		m.mode = modeRoom
		return m.update(modeRoom, placeMsg{place: msg.place})
	}
	var cmd tea.Cmd
	present := newRoomPresentModel(m.c, msg.place, m.shell.timer, m.modes.room.room, m.modes.room.state, m.shell.classCode)
	present.joinURL = m.shell.joinURL
	if m.modes.has[modePresent] {
		// The lecture's clocks run on from the first switch.
		present.clocks = m.modes.present.clocks
		present.blank = false
	} else {
		cmd = present.clocks.init()
	}
	m.modes.present = present.SetSize(m.c.width, m.c.height).(presentModel)
	m.modes.has[modePresent] = true
	m.back, m.mode = modeRoom, modePresent
	return cmd
}

// get is a mode's component; put stores one back, where its type says.
func (ms *modes) get(md mode) component {
	switch md {
	case modeQuiz:
		return ms.quiz
	case modeWhatIf:
		return ms.whatIf
	case modePresent:
		return ms.present
	case modeRoom:
		return ms.room
	case modeNotes:
		return ms.notes
	case modePractice:
		return ms.practice
	case modeWalk: // below
	}
	return ms.browse
}

func (ms *modes) put(c component) {
	switch c := c.(type) {
	case browseModel:
		ms.browse = c
	case quizModel:
		ms.quiz = c
	case whatIfModel:
		ms.whatIf = c
	case presentModel:
		ms.present = c
	case roomModel:
		ms.room = c
	case notesModel:
		ms.notes = c
	case practiceModel:
		ms.practice = c
	}
}

// each gives a message to every component the session has; what they
// post is not taken (a message for all of them says nothing back).
func (ms *modes) each(msg tea.Msg) {
	for md, ok := range ms.has {
		if ok {
			next, _ := ms.get(mode(md)).Update(msg)
			ms.put(next)
		}
	}
}

func (m Model) active() component { return m.modes.get(m.mode) }

// update gives a message to a mode's component and takes what it posts.
func (m *Model) update(md mode, msg tea.Msg) tea.Cmd {
	next, cmd := m.modes.get(md).Update(msg)
	m.modes.put(next)
	return tea.Batch(cmd, m.take(next.Posted()))
}

// take handles what a mode posted, in order: progress to record, a
// notice, a switch of mode.
func (m *Model) take(posted []tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	changed := false
	record := func() { m.dirty, changed = true, true }
	for _, msg := range posted {
		switch msg := msg.(type) {
		case noticeMsg:
			m.notice = msg.text
		case openedMsg:
			if m.prog.Last != msg.id {
				m.prog.Last = msg.id
				record()
			}
		case walkedMsg:
			if !slices.Contains(m.prog.Walked, msg.id) {
				m.prog.MarkWalked(msg.id)
				record()
			}
		case answeredMsg:
			m.prog.Record(msg.id, msg.answer)
			record()
		case caveatMsg:
			if a, ok := m.prog.Quiz[msg.id]; ok {
				a.Caveat = msg.caveat
				m.prog.Quiz[msg.id] = a
				record()
			}
		case practisedMsg:
			recordPractice(&m.prog, msg)
			record()
		case practiseMsg:
			if changed {
				m.modes.each(progressMsg{m.prog})
				changed = false
			}
			m.back, m.mode = m.mode, modePractice
			cmds = append(cmds, m.update(modePractice, enterMsg{}))
		case leaveMsg:
			m.mode = m.back
		case projectorMsg:
			cmds = append(cmds, m.projector(msg))
		case editMsg:
			cmds = append(cmds, m.editCmd())
		}
	}
	if changed {
		m.modes.each(progressMsg{m.prog})
	}
	return tea.Batch(cmds...)
}

// slashed reports whether a / found no filter in the mode still active.
func (m Model) slashed() bool { return m.noFilter && m.noFilterMode == m.mode }
