package classroom

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/tui"
)

// inbox collects what the room posts to one session.
type inbox struct {
	mu   sync.Mutex
	msgs []tui.RoomMsg
}

func (b *inbox) send(m tui.RoomMsg) { b.mu.Lock(); b.msgs = append(b.msgs, m); b.mu.Unlock() }

// sees waits until the latest message posted satisfies ok: the room
// delivers asynchronously.
func (b *inbox) sees(t *testing.T, ok func(tui.RoomMsg) bool) {
	t.Helper()
	require.Eventually(t, func() bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		return len(b.msgs) > 0 && ok(b.msgs[len(b.msgs)-1])
	}, time.Second, time.Millisecond)
}

func (b *inbox) last(t *testing.T) tui.RoomMsg {
	t.Helper()
	var m tui.RoomMsg
	require.Eventually(t, func() bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		if len(b.msgs) == 0 {
			return false
		}
		m = b.msgs[len(b.msgs)-1]
		return true
	}, time.Second, time.Millisecond)
	return m
}

func TestRoomPoll(t *testing.T) {
	r := NewRoom()
	var lecturerBox, aBox, bBox inbox
	lecturer := r.Join(true, lecturerBox.send)
	a := r.Join(false, aBox.send)
	b := r.Join(false, bBox.send)
	t.Cleanup(func() { lecturer.Leave(); a.Leave() }) // their goroutines end with them

	a.Go("demo") // a student cannot lead
	a.Open()
	assert.Equal(t, "", r.live)

	lecturer.Go("write-without-approval")
	aBox.sees(t, func(m tui.RoomMsg) bool { return m.Live == "write-without-approval" })
	a.Answer(4, assess.CodeEnvironmentNotReady) // no question open: ignored
	assert.Empty(t, r.Counts())

	lecturer.Open()
	bBox.sees(t, func(m tui.RoomMsg) bool { return m.Open })
	a.Answer(4, assess.CodeEnvironmentNotReady)
	a.Answer(7, assess.CodeApprovalMissing) // a second answer replaces the first
	b.Answer(7, assess.CodeApprovalScopeMismatch)
	lecturer.Answer(3, 0) // the presenter does not vote
	assert.Equal(t, map[int]int{7: 2}, r.Counts())
	lecturerBox.sees(t, func(m tui.RoomMsg) bool { return m.Answered == 2 && m.Counts[7] == 2 })
	assert.Nil(t, aBox.last(t).Counts, "students do not")

	b.Leave()
	assert.Equal(t, map[int]int{7: 1}, r.Counts(), "a student who left takes their answer along")
	assert.Equal(t, Stats{Sessions: 2, Peak: 3, Students: 1, Answered: 1}, r.Stats())

	lecturer.Reveal()
	aBox.sees(t, func(m tui.RoomMsg) bool { return m.Revealed })
	lecturer.Go("demo")
	assert.Empty(t, r.Counts(), "a new scenario starts with no answers")
	r.End("bye")
	aBox.sees(t, func(m tui.RoomMsg) bool { return m.Ending == "bye" })
}

func TestRoomTakeover(t *testing.T) {
	r := NewRoom()
	var firstBox, secondBox, studentBox inbox
	first := r.Join(true, firstBox.send)
	student := r.Join(false, studentBox.send)
	second := r.Join(true, secondBox.send)
	t.Cleanup(func() { first.Leave(); second.Leave(); student.Leave() })

	assert.True(t, second.TookOver())
	assert.False(t, first.Presenter(), "one session leads at a time")
	assert.True(t, second.Presenter())
	firstBox.sees(t, func(m tui.RoomMsg) bool { return m.Ending == TakenOver })
	select {
	case <-first.Ended():
	default:
		t.Fatal("the ousted session is ended")
	}
	first.Go("demo") // no longer leads: ignored
	assert.Equal(t, "", r.live)

	second.Go("write-without-approval")
	second.Open()
	student.Answer(7, assess.CodeApprovalMissing)
	secondBox.sees(t, func(m tui.RoomMsg) bool { return m.Counts[7] == 1 })
	assert.Equal(t, TakenOver, firstBox.last(t).Ending, "nothing replaces the goodbye")
	assert.Equal(t, Stats{Sessions: 2, Peak: 2, Students: 1, Answered: 1}, r.Stats())
}
