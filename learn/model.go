package learn

import (
	"context"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"toolgate/assess"
)

// Options configure the watch view.
type Options struct {
	// Dir and Lang are the learner's directory and language.
	Dir  string
	Lang Lang
	// Human is the language of the view: English or Chinese.
	Human assess.Lang
	// Check runs the learner's gate once; it must end soon after its
	// context is cancelled (a newer save came). Check(ctx, Config) in
	// use; tests give their own.
	Check func(context.Context) Outcome
	// Save keeps a finished run's board (the learner's progress); nil
	// keeps nothing. It runs in a command, never in Update.
	Save func(Board) error
	// Dark picks the colours; when Ask is set the terminal is asked for
	// its background first.
	Dark, Ask bool
}

// Model is the watch view: the board of the last run, re-run on every
// save of the learner's files.
type Model struct {
	opts   Options
	human  assess.Lang
	keys   keyMap
	help   help.Model
	styles styles
	dark   bool

	width, height int
	vp            viewport.Model

	// last is the last finished run; board is it in the view's language.
	last  *Outcome
	board Board
	runs  int
	// seq numbers the runs started; a result of an older one is dropped.
	seq     int
	running bool
	cancel  context.CancelFunc
	// pending: a save came while a run was under way.
	pending bool

	hint     int
	fullIn   bool
	showHelp bool
	notice   string
}

// changedMsg: the learner saved a file.
type changedMsg struct{}

// resultMsg is a finished run.
type resultMsg struct {
	seq int
	o   Outcome
}

// savedMsg says whether the progress was kept.
type savedMsg struct{ err error }

// New makes the watch view; Init starts the first run.
func New(o Options) Model {
	m := Model{opts: o, human: o.Human, dark: o.Dark, width: 80, height: 24}
	m.keys = newKeyMap(o.Human)
	m.help = help.New()
	m.styles = newStyles(o.Dark)
	m.help.Styles = m.styles.Help
	m.vp = viewport.New()
	m.layout()
	return m
}

// Init starts the first run, and asks the terminal's background when the
// colours are not given.
func (m Model) Init() tea.Cmd {
	if m.opts.Ask {
		return tea.Batch(tea.RequestBackgroundColor, func() tea.Msg { return changedMsg{} })
	}
	return func() tea.Msg { return changedMsg{} }
}

// Update routes messages: saves start runs, results replace the board,
// keys give hints, scroll, switch the language and quit.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.BackgroundColorMsg:
		m.dark = msg.IsDark()
		m.styles = newStyles(m.dark)
		m.help.Styles = m.styles.Help
		m.refresh(false)
		return m, nil
	case changedMsg:
		if m.running {
			// The run under way checks the old file: stop it, and run
			// again once it has ended.
			m.pending = true
			if m.cancel != nil {
				m.cancel()
			}
			return m, nil
		}
		return m.start()
	case resultMsg:
		if msg.seq != m.seq {
			return m, nil
		}
		m.running = false
		if m.pending {
			m.pending = false
			return m.start()
		}
		if msg.o.Canceled {
			return m, nil
		}
		o := msg.o
		m.last = &o
		m.runs++
		before := m.board.First
		m.board = NewBoard(o)
		if !sameFailure(before, m.board.First) {
			m.hint = 0
		}
		m.refresh(true)
		if m.opts.Save != nil && m.board.State != StateBroken {
			b, save := m.board, m.opts.Save
			return m, func() tea.Msg { return savedMsg{save(b)} }
		}
		return m, nil
	case savedMsg:
		if msg.err != nil {
			m.notice = msg.err.Error()
		}
		return m, nil
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m Model) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	m.notice = ""
	switch {
	case key.Matches(msg, k.Quit):
		if m.cancel != nil {
			m.cancel()
		}
		return m, tea.Quit
	case key.Matches(msg, k.Hint):
		if Hint(m.board, 1, m.human) == "" {
			return m, nil
		}
		m.hint = min(m.hint+1, MaxHint)
		m.refresh(false)
		m.vp.GotoTop()
	case key.Matches(msg, k.Input):
		m.fullIn = !m.fullIn
		m.refresh(false)
	case key.Matches(msg, k.Run):
		return m.Update(changedMsg{})
	case key.Matches(msg, k.Lang):
		m.human = 1 - m.human
		m.keys = newKeyMap(m.human)
		m.refresh(false)
	case key.Matches(msg, k.Help):
		m.showHelp = !m.showHelp
		m.help.ShowAll = m.showHelp
		m.layout()
	case key.Matches(msg, k.Up):
		m.vp.ScrollUp(1)
	case key.Matches(msg, k.Down):
		m.vp.ScrollDown(1)
	case key.Matches(msg, k.PageUp):
		m.vp.PageUp()
	case key.Matches(msg, k.PageDown):
		m.vp.PageDown()
	}
	return m, nil
}

// start starts a run.
func (m Model) start() (tea.Model, tea.Cmd) {
	m.seq++
	m.running = true
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	seq, check := m.seq, m.opts.Check
	return m, func() tea.Msg {
		defer cancel()
		return resultMsg{seq: seq, o: check(ctx)}
	}
}

func sameFailure(a, b *Failure) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Vector.ID == b.Vector.ID && a.Got == b.Got
}

// Board is the board of the last run.
func (m Model) Board() Board { return m.board }

// Runs is how many runs have finished.
func (m Model) Runs() int { return m.runs }

// HintLevel is how many hints are shown.
func (m Model) HintLevel() int { return m.hint }

// Took is how long the last run took.
func (m Model) Took() time.Duration {
	if m.last == nil {
		return 0
	}
	return m.last.Took
}
