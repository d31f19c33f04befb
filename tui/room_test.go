package tui

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
)

// fakeRoom records what a session tells the room.
type fakeRoom struct {
	presenter bool
	live      []string
	opened    int
	revealed  int
	answers   []int
}

func (f *fakeRoom) Presenter() bool                { return f.presenter }
func (f *fakeRoom) Go(id string)                   { f.live = append(f.live, id) }
func (f *fakeRoom) Open()                          { f.opened++ }
func (f *fakeRoom) Reveal()                        { f.revealed++ }
func (f *fakeRoom) Answer(step int, _ assess.Code) { f.answers = append(f.answers, step) }

func send(m Model, msg any) Model {
	next, _ := m.Update(msg)
	return next.(Model)
}

func TestStudentInTheRoom(t *testing.T) {
	room := &fakeRoom{}
	m := newTest(t, Options{Room: room})
	m = send(m, RoomMsg{Live: "write-without-approval"})
	num, _, _ := state(m)
	assert.Equal(t, 4, num, "a student follows the live scenario")

	m = press(m, "n")
	num, _, _ = state(m)
	assert.Equal(t, 5, num, "and may wander")

	m = send(m, RoomMsg{Live: "write-without-approval", Round: 1, Open: true})
	num, step, _ := state(m)
	assert.Equal(t, []any{4, 0}, []any{num, step}, "a question calls the student back")
	assert.Equal(t, quizAskStep, m.quiz.phase)

	m = press(m, "7", "1")
	assert.Equal(t, []int{7}, room.answers)
	_, step, _ = state(m)
	assert.Equal(t, 0, step, "no reveal before the presenter's")
	assert.Contains(t, plain(m), "Answer sent. Wait for the reveal.")
	m = press(m, "e")
	_, step, _ = state(m)
	assert.Equal(t, 0, step, "no peeking while the question is open")

	m = send(m, RoomMsg{Live: "write-without-approval", Round: 1, Revealed: true})
	assert.True(t, m.reached(), "the reveal shows the walk")
	assert.Contains(t, plain(m), "✓ Right: rule 7, approval_missing.")
}

func TestPresenterLeadsTheRoom(t *testing.T) {
	room := &fakeRoom{presenter: true}
	m := newTest(t, Options{Room: room})
	m = press(m, "4")
	require.NotEmpty(t, room.live)
	assert.Equal(t, "write-without-approval", room.live[len(room.live)-1])
	m = press(m, "o")
	assert.Equal(t, 1, room.opened)
	m = send(m, RoomMsg{Live: "write-without-approval", Round: 1, Open: true, Counts: map[int]int{4: 12, 7: 31}, Answered: 43, Students: 60, Sessions: 61, Peak: 61})
	out := plain(m)
	assert.Contains(t, out, "rule 4: 12 · rule 7: 31 · answered 43 of 60")
	assert.Contains(t, out, "sessions 61 · peak 61 · answers this round 43")
	assert.Equal(t, quizIdle, m.quiz.phase, "the presenter is not asked")
	m = press(m, "v")
	assert.Equal(t, 1, room.revealed)
}

func TestRoomEndingAndIdle(t *testing.T) {
	m := newTest(t, Options{Room: &fakeRoom{}})
	next, cmd := m.Update(RoomMsg{Ending: "The lecture is over"})
	require.NotNil(t, cmd)
	assert.Contains(t, plain(next.(Model)), "The lecture is over")
}

func TestIdleIsTheLastKeyNotTheLastRedraw(t *testing.T) {
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	m := newTest(t, Options{Idle: 10 * time.Minute, Clock: clock})
	now = now.Add(9 * time.Minute)
	next, cmd := m.Update(idleTickMsg{})
	m = next.(Model)
	assert.Empty(t, m.notice, "9 minutes is not idle yet")
	require.NotNil(t, cmd, "the check goes on")

	m = press(m, "l") // a key at minute 9
	now = now.Add(9 * time.Minute)
	m = send(m, RoomMsg{}) // a redraw is not activity
	next, _ = m.Update(idleTickMsg{})
	assert.Empty(t, next.(Model).notice, "9 minutes after the last key")

	now = now.Add(time.Minute)
	next, cmd = m.Update(idleTickMsg{})
	assert.Contains(t, next.(Model).notice, "No key for 10m0s")
	require.NotNil(t, cmd)
}
