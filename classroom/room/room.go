// Package room is a lecture's room: who is connected, which scenario is
// live and at which step, the question and its answers, and who leads.
// Its rules are one pure function (apply, in rules.go) that both rooms
// call: LocalRoom, which lives in one server's process, and NATSRoom, one
// front-end's part of a room shared through NATS. Nothing of a
// student's leaves memory; the room ends with the process — or, shared,
// with the last front-end.
package room

import (
	"sync"

	"toolgate/tui"
)

// Room is the shared state of one lecture: who is connected, which
// scenario is live and at which step, whether the question is open or
// revealed, its answers, and who leads. LocalRoom keeps it in this
// process; NATSRoom shares it between front-ends.
type Room interface {
	// Join adds a session; send delivers the room's state to its
	// program. A presenter's login takes the room over from the session
	// that led it.
	Join(role Role, send func(tui.RoomMsg)) Member
	// JoinAs is Join for a session with an identity: a short hash of the
	// key its client offered, "" for none. A student's identity has one
	// vote, whichever of its sessions gave it.
	JoinAs(role Role, identity string, send func(tui.RoomMsg)) Member
	// Stats are the room's numbers as this front-end sees them.
	Stats() Stats
	// End says a last word to every session of this front-end.
	End(message string)
	// Shared reports whether the room outlives this process: other
	// front-ends serve it, so a front-end that closes does not end the
	// lecture.
	Shared() bool
}

// Member is one session's handle on the room: the trainer's tui.Room,
// and what the server needs to know of the session's place in it.
type Member interface {
	tui.Room
	// TookOver reports whether this presenter's login ended another
	// presenter's session.
	TookOver() bool
	// Ended is closed when the room has said its last word to this
	// session.
	Ended() <-chan struct{}
	// Leave removes the session from the room.
	Leave()
}

// Role is what a session may do in the room.
type Role int

// The roles: a student follows and answers; the presenter leads; the
// notes role follows the presenter on a second screen with the talking
// points (the lecturer's own laptop, say), and neither leads nor answers.
const (
	Student Role = iota
	Presenter
	Notes
)

func (r Role) String() string { return [...]string{"student", "presenter", "notes"}[r] }

// Stats are the room's numbers for the lecturer.
type Stats struct {
	Sessions, Peak, Students, Answered int
	// Anonymous counts the answers of sessions without an identity.
	Anonymous int
}

// TakenOver is what a presenter's session reads when another presenter
// login takes the room over.
const TakenOver = "Another presenter logged in and leads the room now — this session ends."

// member is one session. Its mailbox holds the latest state only: the
// room's messages are whole states, so a session that is slow to take
// them gets the newest and skips the rest, and no session (nor the room's
// lock) ever waits on another's program.
type member struct {
	id   int
	role Role
	// identity is the student's across sessions ("": this session's own).
	identity string
	send     func(tui.RoomMsg)
	// ended is closed when the room has said its last word to this
	// session (the room closes, or another presenter took over); nothing
	// is posted to it afterwards, so the goodbye is never overwritten.
	ended chan struct{}

	mu     sync.Mutex
	latest tui.RoomMsg
	// final is set once the room's last word is posted.
	final  bool
	notify chan struct{}
	done   chan struct{}
}

func newMember(id int, role Role, send func(tui.RoomMsg)) *member {
	return &member{id: id, role: role, send: send, ended: make(chan struct{}), notify: make(chan struct{}, 1), done: make(chan struct{})}
}

func (m *member) post(msg tui.RoomMsg) {
	m.mu.Lock()
	if m.final {
		// A state computed before the goodbye must not replace it.
		m.mu.Unlock()
		return
	}
	m.latest, m.final = msg, msg.Ending != ""
	m.mu.Unlock()
	select {
	case m.notify <- struct{}{}:
	default: // already notified; it will read the latest
	}
}

func (m *member) deliver() {
	for {
		select {
		case <-m.notify:
			m.mu.Lock()
			msg := m.latest
			m.mu.Unlock()
			m.send(msg)
		case <-m.done:
			return
		}
	}
}

// end says the room's last word to the member, once (the caller holds
// the room's lock, so two ends do not race).
func (m *member) end(message string) {
	if isEnded(m) {
		return
	}
	close(m.ended)
	m.post(tui.RoomMsg{Ending: message})
}

func isEnded(m *member) bool {
	select {
	case <-m.ended:
		return true
	default:
		return false
	}
}

// maxStep is the furthest step of a walk a room takes: a presenter's
// position, an answer (walks are far shorter).
const maxStep = 1000

// mayAnswer is who may answer the open question, in every room: a
// student still in the room, predicting a step a walk could have. The
// leader, the notes screens and a session told the room's last word do
// not vote.
func (m *member) mayAnswer(step int) bool {
	return m.role == Student && !isEnded(m) && step >= 0 && step <= maxStep
}

// everyone chooses every session for a broadcast.
func everyone(*member) bool { return true }
