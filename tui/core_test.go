package tui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sessions are the trainer in each of its modes, as a test drives it.
func sessions(t *testing.T) map[string]Model {
	clock := func() time.Time { return time.Unix(0, 0) }
	return map[string]Model{
		"walk":      newTest(t, Options{Scenario: "4"}),
		"quiz":      newTest(t, Options{Quiz: true}),
		"what-if":   press(newTest(t, Options{Scenario: "4"}), "w"),
		"presenter": newTest(t, Options{Present: true, Clock: clock, Scenario: "4"}),
		"room":      send(newTest(t, Options{Room: &fakeRoom{presenter: true}}), RoomMsg{Live: "write-without-approval", Round: 1, Open: true}),
		"student":   send(newTest(t, Options{Room: &fakeRoom{}}), RoomMsg{Live: "write-without-approval", Round: 1, Open: true}),
		"notes":     send(newTest(t, Options{Room: &fakeRoom{}, Notes: true}), RoomMsg{Live: "write-without-approval", Step: 3}),
		"practice":  press(toSummary(t, newTest(t, Options{Quiz: true})), "p"),
	}
}

// TestEveryModeIsAComponent: each mode is its own component, and the root
// routes to it.
func TestEveryModeIsAComponent(t *testing.T) {
	want := map[string]string{"walk": "walk", "quiz": "quiz", "what-if": "what-if", "presenter": "presenter",
		"room": "room", "student": "room", "notes": "notes", "practice": "practice"}
	for name, m := range sessions(t) {
		assert.Equal(t, want[name], m.Mode(), name)
		assert.Equal(t, m.Mode(), map[mode]string{modeWalk: "walk", modeQuiz: "quiz", modeWhatIf: "what-if",
			modePresent: "presenter", modeRoom: "room", modeNotes: "notes", modePractice: "practice"}[modeOf(m.active())], name)
	}
}

// modeOf is the mode a component is.
func modeOf(c component) mode {
	switch c.(type) {
	case quizModel:
		return modeQuiz
	case whatIfModel:
		return modeWhatIf
	case presentModel:
		return modePresent
	case roomModel:
		return modeRoom
	case notesModel:
		return modeNotes
	case practiceModel:
		return modePractice
	}
	return modeWalk
}

// TestUpdateDrawsNoFrame: no Update draws a frame, in any mode, whatever
// the message: the scroll offsets are kept in each mode's viewports,
// sized and filled in Update, not learned by drawing (issue 23). Only
// View draws; a counter injected into the model says so.
func TestUpdateDrawsNoFrame(t *testing.T) {
	msgs := []tea.Msg{
		tea.WindowSizeMsg{Width: 80, Height: 24},
		keyMsg("J"), keyMsg("J"), keyMsg("K"), keyMsg("l"), keyMsg("e"), keyMsg("1"), keyMsg("i"), keyMsg("down"),
		keyMsg("esc"), keyMsg("a"), keyMsg("J"), keyMsg("esc"), keyMsg("n"), keyMsg("L"), keyMsg("?"), keyMsg("?"),
		tea.MouseWheelMsg{Button: tea.MouseWheelDown}, tea.MouseWheelMsg{Button: tea.MouseWheelUp},
		tea.MouseClickMsg{X: 30, Y: 5, Button: tea.MouseLeft}, tea.MouseClickMsg{X: 3, Y: 4, Button: tea.MouseLeft},
		tea.WindowSizeMsg{Width: 60, Height: 20}, keyMsg("J"), keyMsg("tab"), keyMsg("w"),
		RoomMsg{Live: "unknown-tool", Step: 2, Round: 2, Revealed: true},
		tea.WindowSizeMsg{Width: 200, Height: 60}, keyMsg("K"),
	}
	for name, m := range sessions(t) {
		frames := 0
		m.drawn = func() { frames++ }
		for _, msg := range msgs {
			next, _ := m.Update(msg)
			m = next.(Model)
		}
		assert.Zero(t, frames, "%s: Update drew a frame", name)
		_ = m.View()
		require.Equal(t, 1, frames, "%s: the count counts", name)
	}
}
