package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"toolgate/scenarios"
)

// newTest builds a trainer on the built-in scenarios at 120×40, dark.
func newTest(t testing.TB, opts Options) Model {
	t.Helper()
	opts.Scenarios = scenarios.Builtin()
	if opts.Theme == ThemeAuto {
		opts.Theme = ThemeDark // tests inject the theme, never detect it
	}
	m := New(opts)
	m.cover.intro = false // a learner's first start; TestIntro shows it
	return resize(m, 120, 40)
}

func resize(m Model, width, height int) Model {
	next, _ := m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	return next.(Model)
}

// press sends keys, one a message, the way a terminal does.
func press(m Model, keys ...string) Model {
	for _, k := range keys {
		next, _ := m.Update(keyMsg(k))
		m = next.(Model)
	}
	return m
}

// send gives the model any message.
func send(m Model, msg tea.Msg) Model {
	next, _ := m.Update(msg)
	return next.(Model)
}

// runCmd presses a key and feeds the command's message back, as the
// program would (for commands that answer at once, such as a save).
func runCmd(t *testing.T, m Model, k string) Model {
	t.Helper()
	next, cmd := m.Update(keyMsg(k))
	m = next.(Model)
	if cmd != nil {
		msg := cmd()
		if batch, ok := msg.(tea.BatchMsg); ok {
			for _, c := range batch {
				if c != nil {
					m = send(m, c())
				}
			}
			return m
		}
		m = send(m, msg)
	}
	return m
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "shift+down":
		return tea.KeyPressMsg{Code: tea.KeyDown, Mod: tea.ModShift}
	case "shift+up":
		return tea.KeyPressMsg{Code: tea.KeyUp, Mod: tea.ModShift}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// here is the active mode's place: where the learner is.
func here(m Model) *place {
	p := m.active().Status().place
	return &p
}

// seen is the active mode's place in the trainer's look.
func seen(m Model) scene { return scene{m.c, *here(m)} }

// listOf is the active mode's list, in a mode that browses.
func listOf(m Model) browsing {
	switch m.mode {
	case modeQuiz:
		return m.modes.quiz.list
	case modeRoom:
		return m.modes.room.list
	case modeWalk, modeWhatIf, modePresent, modeNotes, modePractice: // the browse's, below
	}
	return m.modes.browse.list
}

// overlaysOf are the active mode's overlays.
func overlaysOf(m Model) overlays {
	switch m.mode {
	case modeWhatIf:
		return m.modes.whatIf.overlays
	case modePractice:
		return overlays{full: m.modes.practice.full}
	case modeWalk, modeQuiz, modePresent, modeRoom, modeNotes: // the list's, below
	}
	return listOf(m).overlays
}

// walkPaneText is the walk pane of the open scenario at a width and
// height, with a mode's extras, as the walk's scroller shows it.
func walkPaneText(m Model, width int, x walkExtras, height int) string {
	s := seen(m)
	lines, anchor, end := s.buildWalkPane(width, x).fit(height)
	sc := newScroller()
	sc.fill(lines, width, height, anchor, end, 0, s.scrollHint)
	return sc.View()
}

// inputsText is the inputs pane at a width and height.
func inputsText(m Model, width, height int) string {
	s := seen(m)
	lines, anchor := s.inputsPane(width, height)
	sc := newScroller()
	sc.fill(lines, width, height, anchor, anchor+1, 0, s.scrollHint)
	return sc.View()
}

// fullInputsText is the inputs in full at a width and height.
func fullInputsText(m Model, width, height int) string {
	s := seen(m)
	lines, anchor := s.fullInputs(width)
	sc := newScroller()
	sc.fill(lines, width, height, anchor, anchor+1, 0, s.scrollHint)
	return sc.View()
}

// plain is the frame as a person reads it, without colours.
func plain(m Model) string { return ansi.Strip(m.Render()) }

func state(m Model) (int, int, string) { return m.Selected() }

// fakeRoom records what a session tells the room.
type fakeRoom struct {
	presenter bool
	live      []string
	step      int
	opened    int
	revealed  int
	answers   []int
}

func (f *fakeRoom) Presenter() bool { return f.presenter }
func (f *fakeRoom) Go(id string, step int) {
	if len(f.live) == 0 || f.live[len(f.live)-1] != id {
		f.live = append(f.live, id)
	}
	f.step = step
}
func (f *fakeRoom) Open()           { f.opened++ }
func (f *fakeRoom) Reveal()         { f.revealed++ }
func (f *fakeRoom) Answer(step int) { f.answers = append(f.answers, step) }
