// Package room is a lecture's room: who is connected, which scenario is
// live and at which step, the question and its answers, and who leads.
// Its rules are one pure function (apply, in rules.go) that both rooms
// call: LocalRoom, which lives in one server's process, and NATSRoom, one
// front-end's part of a room shared through NATS. Nothing of a
// student's leaves memory; the room ends with the process — or, shared,
// with the last front-end.
package room

import (
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
	// JoinPhone is JoinAs for a student who answers by phone (the web
	// page): a student like any other, whose answers the notes screen
	// counts apart from those given over SSH.
	JoinPhone(identity string, send func(tui.RoomMsg)) Member
	// Stats are the room's numbers as this front-end sees them.
	Stats() Stats
	// End says the room's last word to every session of this front-end.
	End(g tui.Goodbye)
	// Closing is the last word for this front-end's sessions when it
	// closes, and it tells the truth: the lecture is over with a room of
	// this process alone, goes on at the others when the room is shared,
	// and stops everywhere when this front-end hosts the room's NATS.
	Closing() tui.Goodbye
}

// Member is one session's handle on the room: the trainer's tui.Room,
// and what the server needs to know of the session's place in it.
type Member interface {
	tui.Room
	// TookOver reports whether this presenter's login ended another
	// presenter's session.
	TookOver() bool
	// Ended is closed when the room has said its last word to this
	// session; Goodbye is that word (NoGoodbye until then).
	Ended() <-chan struct{}
	Goodbye() tui.Goodbye
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
	// Anonymous counts the answers of sessions without an identity;
	// Phone those given by phone (the rest came over SSH).
	Anonymous, Phone int
}
