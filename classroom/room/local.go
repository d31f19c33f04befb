package room

import (
	"sync"

	"toolgate/tui"
)

// LocalRoom is a room that lives in this process: the default, for one
// front-end. Its state is who is connected and the rules' state (see
// apply), kept under one lock.
type LocalRoom struct {
	mu    sync.Mutex
	seats *seats
	peak  int
	st    state
}

// NewLocal is an empty room in this process.
func NewLocal() *LocalRoom {
	return &LocalRoom{seats: newSeats(newFrontEndID()), st: state{ballots: newBallots()}}
}

// Join adds a session; send delivers the room's state to its program.
// A presenter takes the room over: the session that led it until now is
// told so and ended. The returned Member is the session's handle on the
// room.
func (r *LocalRoom) Join(role Role, send func(tui.RoomMsg)) Member { return r.JoinAs(role, "", send) }

// JoinAs is Join with the session's identity (see Room).
func (r *LocalRoom) JoinAs(role Role, identity string, send func(tui.RoomMsg)) Member {
	return r.join(role, identity, false, send)
}

// JoinPhone is JoinAs for a student by phone (see Room).
func (r *LocalRoom) JoinPhone(identity string, send func(tui.RoomMsg)) Member {
	return r.join(Student, identity, true, send)
}

func (r *LocalRoom) join(role Role, identity string, phone bool, send func(tui.RoomMsg)) Member {
	r.mu.Lock()
	m := r.seats.add(role, identity, phone, send)
	c := &Client{room: r, m: m}
	var eff effects
	if role == Presenter {
		eff = r.applyLocked(op{kind: opTake, by: r.seats.key(m)})
		c.tookOver = eff.ousted != ""
	}
	sessions, _ := r.seats.count()
	r.peak = max(r.peak, sessions)
	r.mu.Unlock()
	// The newcomer needs the whole state; the others only the presenter's
	// and the notes' numbers changed (a takeover is news to nobody else).
	r.broadcast(max(eff.tell, watchers), m)
	return c
}

// applyLocked makes a change by the rules, and carries out what follows
// here: the answers, who leads, the goodbye of a leader taken over.
func (r *LocalRoom) applyLocked(o op) effects {
	if o.kind == opReveal {
		o.tally = r.liveLocked()
	}
	next, eff := apply(r.st, o)
	next.ballots = r.st.ballots.carry(eff)
	r.st = next
	if m, ok := r.seats.named(next.Leader); ok {
		r.seats.leader.Store(int64(m.id))
	} else {
		r.seats.leader.Store(0)
	}
	if m, ok := r.seats.named(eff.ousted); ok {
		m.end(tui.TakenOver)
	}
	return eff
}

// do makes a change by the rules and tells who must hear of it.
func (r *LocalRoom) do(o op) {
	r.mu.Lock()
	eff := r.applyLocked(o)
	r.mu.Unlock()
	r.broadcast(eff.tell, nil)
}

// leave removes a session; its answer of the current round goes with it,
// since the room keeps nothing of a student who left (the tally kept at a
// reveal keeps only numbers).
func (r *LocalRoom) leave(m *member) {
	r.mu.Lock()
	key := r.seats.key(m)
	r.seats.remove(m.id)
	r.applyLocked(op{kind: opRetract, by: key})
	r.applyLocked(op{kind: opRelease, by: key})
	r.mu.Unlock()
	r.broadcast(watchers, nil)
}

// liveLocked is the tally of the answers now.
func (r *LocalRoom) liveLocked() Tally {
	_, students := r.seats.count()
	return r.st.ballots.tally(func(string) bool { return true }, students)
}

// statsLocked is the room's numbers and counts as the lecturer is shown
// them: the tally kept at the reveal until the next question.
func (r *LocalRoom) statsLocked() (Stats, map[int]int) {
	sessions, _ := r.seats.count()
	t := r.st.shown(r.liveLocked())
	return Stats{Sessions: sessions, Peak: r.peak, Students: t.Students, Answered: t.Answered, Anonymous: t.Anonymous, Phone: t.Phone}, t.Counts
}

// Stats reports sessions open, the peak, students and answers this round.
func (r *LocalRoom) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	st, _ := r.statsLocked()
	return st
}

// Counts is this round's answers by predicted step.
func (r *LocalRoom) Counts() map[int]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, c := r.statsLocked()
	return c
}

// End tells every session the room is closing.
func (r *LocalRoom) End(g tui.Goodbye) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seats.end(g)
}

// Closing is LectureOver: the room ends with this process.
func (r *LocalRoom) Closing() tui.Goodbye { return tui.LectureOver }

// broadcast posts the room's state to the sessions to hear of it, and to
// newcomer; the watchers also get the histogram.
func (r *LocalRoom) broadcast(to audience, newcomer *member) {
	if to == nobody && newcomer == nil {
		return
	}
	r.mu.Lock()
	st, counts := r.statsLocked()
	msg := message(r.st.position, st)
	members := r.seats.pick(to, newcomer)
	r.mu.Unlock()
	r.seats.post(members, msg, counts)
}

// Client is one session's handle on a LocalRoom.
type Client struct {
	room     *LocalRoom
	m        *member
	tookOver bool
}

// TookOver reports whether this presenter's login ended another
// presenter's session.
func (c *Client) TookOver() bool { return c.tookOver }

// Presenter reports whether this session leads the room now.
func (c *Client) Presenter() bool { return c.room.seats.leads(c.m) }

// Ended is closed when the room has said its last word to this session.
func (c *Client) Ended() <-chan struct{} { return c.m.ended }

// Goodbye is the room's last word to this session (NoGoodbye until it is
// Ended).
func (c *Client) Goodbye() tui.Goodbye { return c.m.said() }

// Go makes a scenario live at a step of its walk (see apply). Students
// hear of a new scenario; a step within it only goes to the notes
// screens (and the leader), so a lecturer's stepping does not redraw two
// hundred screens.
func (c *Client) Go(id string, step int) {
	c.room.do(op{kind: opGo, by: c.key(), live: id, step: step})
}

// Open starts a new question on the live scenario.
func (c *Client) Open() { c.room.do(op{kind: opOpen, by: c.key()}) }

// Reveal closes the question and shows everyone the walk; the counts
// shown are kept until the next question.
func (c *Client) Reveal() { c.room.do(op{kind: opReveal, by: c.key()}) }

// Answer records a student's prediction for the open question; a second
// answer replaces the first. Only the presenter's histogram changes: 200
// answers must not mean 200 redraws of 200 screens. An answer that comes
// after its session left is not counted (seats.answer, as in the shared
// room).
func (c *Client) Answer(step int) {
	r := c.room
	r.mu.Lock()
	eff := r.applyLocked(r.seats.answer(c.m, step))
	r.mu.Unlock()
	r.broadcast(eff.tell, nil)
}

// Leave removes the session from the room.
func (c *Client) Leave() { c.room.leave(c.m) }

func (c *Client) key() string { return c.room.seats.key(c.m) }

var (
	_ Room   = (*LocalRoom)(nil)
	_ Member = (*Client)(nil)
)
