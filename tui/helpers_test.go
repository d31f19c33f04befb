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
	m.intro = false // a learner's first start; TestIntro shows it
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
