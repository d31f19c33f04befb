package room

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/tui"
)

// inbox collects what the room posts to one session.
type inbox struct {
	mu   sync.Mutex
	msgs []tui.RoomMsg
}

func (b *inbox) send(m tui.RoomMsg) { b.mu.Lock(); b.msgs = append(b.msgs, m); b.mu.Unlock() }

// sees waits until the latest message posted satisfies ok: the room
// delivers asynchronously. Like every wait here it ends on the event, not
// on a short clock (see patience).
func (b *inbox) sees(t *testing.T, ok func(tui.RoomMsg) bool) {
	t.Helper()
	waitUntil(t, "a message the test expects", func() bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		return len(b.msgs) > 0 && ok(b.msgs[len(b.msgs)-1])
	})
}

// last waits for a first message and returns the latest.
func (b *inbox) last(t *testing.T) tui.RoomMsg {
	t.Helper()
	var m tui.RoomMsg
	waitUntil(t, "a first message", func() bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		if len(b.msgs) == 0 {
			return false
		}
		m = b.msgs[len(b.msgs)-1]
		return true
	})
	return m
}

func TestRoomPoll(t *testing.T) {
	r := NewLocal()
	var lecturerBox, aBox, bBox inbox
	lecturer := r.Join(Presenter, lecturerBox.send)
	a := r.Join(Student, aBox.send)
	b := r.Join(Student, bBox.send)
	t.Cleanup(func() { lecturer.Leave(); a.Leave() }) // their goroutines end with them

	a.Go("demo", 0) // a student cannot lead
	a.Open()
	assert.Equal(t, "", r.st.Live)

	lecturer.Go("write-without-approval", 0)
	aBox.sees(t, func(m tui.RoomMsg) bool { return m.Live == "write-without-approval" })
	a.Answer(4) // no question open: ignored
	assert.Empty(t, r.Counts())

	lecturer.Open()
	bBox.sees(t, func(m tui.RoomMsg) bool { return m.Open })
	a.Answer(4)
	a.Answer(7) // a second answer replaces the first
	b.Answer(7)
	lecturer.Answer(3) // the presenter does not vote
	assert.Equal(t, map[int]int{7: 2}, r.Counts())
	lecturerBox.sees(t, func(m tui.RoomMsg) bool { return m.Answered == 2 && m.Counts[7] == 2 })
	assert.Nil(t, aBox.last(t).Counts, "students do not")

	b.Leave()
	assert.Equal(t, map[int]int{7: 1}, r.Counts(), "a student who left takes their answer along")
	assert.Equal(t, Stats{Sessions: 2, Peak: 3, Students: 1, Answered: 1, Anonymous: 1}, r.Stats())

	lecturer.Reveal()
	aBox.sees(t, func(m tui.RoomMsg) bool { return m.Revealed })
	lecturer.Go("demo", 0)
	assert.Empty(t, r.Counts(), "a new scenario starts with no answers")
	r.End(tui.LectureOver)
	aBox.sees(t, func(m tui.RoomMsg) bool { return m.Ending == tui.LectureOver })
}

func TestRoomTakeover(t *testing.T) {
	r := NewLocal()
	var firstBox, secondBox, studentBox inbox
	first := r.Join(Presenter, firstBox.send)
	student := r.Join(Student, studentBox.send)
	second := r.Join(Presenter, secondBox.send)
	t.Cleanup(func() { first.Leave(); second.Leave(); student.Leave() })

	assert.True(t, second.TookOver())
	assert.False(t, first.Presenter(), "one session leads at a time")
	assert.True(t, second.Presenter())
	firstBox.sees(t, func(m tui.RoomMsg) bool { return m.Ending == tui.TakenOver })
	select {
	case <-first.Ended():
	default:
		t.Fatal("the ousted session is ended")
	}
	first.Go("demo", 0) // no longer leads: ignored
	assert.Equal(t, "", r.st.Live)

	second.Go("write-without-approval", 0)
	second.Open()
	student.Answer(7)
	secondBox.sees(t, func(m tui.RoomMsg) bool { return m.Counts[7] == 1 })
	assert.Equal(t, tui.TakenOver, firstBox.last(t).Ending, "nothing replaces the goodbye")
	assert.Equal(t, Stats{Sessions: 2, Peak: 2, Students: 1, Answered: 1, Anonymous: 1}, r.Stats())
}

// TestStepsGoToWhoFollowsThem: a presenter's step within the live scenario
// reaches the notes screens and the leader, not two hundred students.
func TestStepsGoToWhoFollowsThem(t *testing.T) {
	r := NewLocal()
	var got [3][]tui.RoomMsg
	var mu sync.Mutex
	box := func(i int) func(tui.RoomMsg) {
		return func(m tui.RoomMsg) { mu.Lock(); got[i] = append(got[i], m); mu.Unlock() }
	}
	lecturer := r.Join(Presenter, box(0))
	student := r.Join(Student, box(1))
	notes := r.Join(Notes, box(2))
	defer lecturer.Leave()
	defer student.Leave()
	defer notes.Leave()
	lecturer.Go("demo", 0)
	waitFor := func(i int, ok func(tui.RoomMsg) bool) {
		t.Helper()
		deadline := time.Now().Add(time.Minute) // only so a broken room fails the test
		for time.Now().Before(deadline) {
			mu.Lock()
			n := len(got[i])
			last := tui.RoomMsg{}
			if n > 0 {
				last = got[i][n-1]
			}
			mu.Unlock()
			if n > 0 && ok(last) {
				return
			}
			time.Sleep(time.Millisecond)
		}
		t.Fatalf("member %d never got the message", i)
	}
	waitFor(1, func(m tui.RoomMsg) bool { return m.Live == "demo" })
	waitFor(2, func(m tui.RoomMsg) bool { return m.Live == "demo" })
	mu.Lock()
	before := len(got[1])
	mu.Unlock()
	lecturer.Go("demo", 3)
	waitFor(2, func(m tui.RoomMsg) bool { return m.Step == 3 })
	mu.Lock()
	after := len(got[1])
	mu.Unlock()
	assert.Equal(t, before, after, "a step is not news to a student")
	notes.Go("unknown-tool", 0) // the notes screen leads nothing
	assert.Equal(t, 1, r.Stats().Students)
}

// TestRoomCountsStudentsOnly: in a room in this process as in a shared
// one, only a student still in the room answers, and only with a step a
// walk could have: not the notes screen, not a presenter who no longer
// leads, not a session told the room's last word.
func TestRoomCountsStudentsOnly(t *testing.T) {
	r := NewLocal()
	var box inbox
	ousted := r.Join(Presenter, func(tui.RoomMsg) {})
	lecturer := r.Join(Presenter, box.send)
	notes := r.Join(Notes, func(tui.RoomMsg) {})
	student := r.Join(Student, func(tui.RoomMsg) {})
	leaving := r.Join(Student, func(tui.RoomMsg) {})
	t.Cleanup(func() {
		for _, m := range []Member{ousted, lecturer, notes, student, leaving} {
			m.Leave()
		}
	})
	require.False(t, ousted.Presenter(), "taken over")
	lecturer.Go("write-without-approval", 0)
	lecturer.Open()

	r.mu.Lock()
	leaving.(*Client).m.end(tui.ServerClosing)
	r.mu.Unlock()
	for name, m := range map[string]Member{"notes": notes, "ousted presenter": ousted, "leader": lecturer, "ended student": leaving} {
		m.Answer(7)
		assert.Empty(t, r.Counts(), "%s does not vote", name)
	}
	for _, step := range []int{-1, maxStep + 1} {
		student.Answer(step)
		assert.Empty(t, r.Counts(), "step %d is no step", step)
	}
	student.Answer(4)
	assert.Equal(t, map[int]int{4: 1}, r.Counts())
	box.sees(t, func(m tui.RoomMsg) bool { return m.Answered == 1 && m.Students == 1 })
}

// An answer that comes after its session left (a phone's answer in
// flight while its place lapses, an SSH key pressed as the session
// hangs up) is not counted: the room kept nothing of that session, and
// nothing would ever take the answer out again. Before, both answers
// counted: "answered 2" in a room with no student.
func TestAnswerAfterLeavingIsNotCounted(t *testing.T) {
	r := NewLocal()
	var lecturerBox, box inbox
	lecturer := r.Join(Presenter, lecturerBox.send)
	t.Cleanup(lecturer.Leave)
	lecturer.Go("write-without-approval", 0)
	lecturer.Open()
	lecturerBox.sees(t, func(m tui.RoomMsg) bool { return m.Open })
	phone := r.JoinPhone("0123456789abcdef", box.send)
	student := r.Join(Student, box.send)
	phone.Leave()
	student.Leave()
	phone.Answer(2)
	student.Answer(3)
	assert.Empty(t, r.Counts())
	assert.Equal(t, 0, r.Stats().Answered)
}
