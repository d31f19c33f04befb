package room

import (
	"sync"
	"sync/atomic"

	"toolgate/assess"
	"toolgate/tui"
)

// LocalRoom is a room that lives in this process: the default, for one
// front-end. Its state is who is connected, which scenario is live, and
// the current question's answers.
type LocalRoom struct {
	mu      sync.Mutex
	members map[int]*member
	// leader is the member who leads the room (0: nobody). One session
	// leads at a time: a presenter's login takes the room over, so a
	// lecturer whose connection dropped takes it back by logging in again.
	leader atomic.Int64
	next   int
	peak   int
	live   string
	// step is how far the presenter has walked the live scenario: the
	// notes screen follows it.
	step     int
	round    int
	open     bool
	revealed bool
	// answers of this round, by member: the step they predicted.
	answers map[int]int
}

// NewLocal is an empty room in this process.
func NewLocal() *LocalRoom {
	return &LocalRoom{members: map[int]*member{}, answers: map[int]int{}}
}

// Join adds a session; send delivers the room's state to its program.
// A presenter takes the room over: the session that led it until now is
// told so and ended. The returned Client is the session's handle on the
// room.
func (r *LocalRoom) Join(role Role, send func(tui.RoomMsg)) Member { return r.JoinAs(role, "", send) }

// JoinAs is Join with the session's identity (see Identity).
func (r *LocalRoom) JoinAs(role Role, identity string, send func(tui.RoomMsg)) Member {
	r.mu.Lock()
	r.next++
	m := newMember(r.next, role, send)
	m.identity = identity
	r.members[m.id] = m
	var ousted *member
	if role == Presenter {
		ousted = r.members[int(r.leader.Load())]
		r.leader.Store(int64(m.id))
		if ousted != nil {
			r.endLocked(ousted, TakenOver)
		}
	}
	r.peak = max(r.peak, r.sessionsLocked())
	r.mu.Unlock()
	go m.deliver()
	// The newcomer needs the whole state; the others only the presenter's
	// and the notes' numbers changed.
	r.broadcast(func(o *member) bool { return o == m || r.watches(o) })
	return &Client{room: r, id: m.id, tookOver: ousted != nil}
}

// endLocked says the room's last word to one member.
func (r *LocalRoom) endLocked(m *member, message string) { m.end(message) }

// leads reports whether m leads the room.
func (r *LocalRoom) leads(m *member) bool { return int64(m.id) == r.leader.Load() }

// watches reports whether m sees the room's numbers and the presenter's
// every step: the leader and the notes screens.
func (r *LocalRoom) watches(m *member) bool { return r.leads(m) || m.role == Notes }

// Leave removes a session; its answer of the current round goes with it,
// since the room keeps nothing of a student who left.
func (r *LocalRoom) Leave(id int) {
	r.mu.Lock()
	if m, ok := r.members[id]; ok {
		close(m.done)
	}
	delete(r.members, id)
	delete(r.answers, id)
	r.leader.CompareAndSwap(int64(id), 0)
	r.mu.Unlock()
	r.broadcast(r.watches)
}

// Stats reports sessions open, the peak, students and answers this round.
func (r *LocalRoom) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.statsLocked()
}

func (r *LocalRoom) statsLocked() Stats {
	s := Stats{Sessions: r.sessionsLocked(), Peak: r.peak, Answered: len(r.answers)}
	for id := range r.answers {
		if m := r.members[id]; m != nil && m.identity == "" {
			s.Anonymous++
		}
	}
	for _, m := range r.members {
		if !r.leads(m) && m.role != Notes && !isEnded(m) {
			s.Students++
		}
	}
	return s
}

// sessionsLocked counts the sessions still in the room: one that was told
// the room's last word is on its way out.
func (r *LocalRoom) sessionsLocked() int {
	n := 0
	for _, m := range r.members {
		if !isEnded(m) {
			n++
		}
	}
	return n
}

// Counts is this round's answers by predicted step.
func (r *LocalRoom) Counts() map[int]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.countsLocked()
}

func (r *LocalRoom) countsLocked() map[int]int {
	c := map[int]int{}
	for _, step := range r.answers {
		c[step]++
	}
	return c
}

// End tells every session the room is closing.
func (r *LocalRoom) End(message string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range r.members {
		r.endLocked(m, message)
	}
}

// snapshotLocked is the members still to hear the room's state.
func (r *LocalRoom) snapshotLocked() []*member {
	out := make([]*member, 0, len(r.members))
	for _, m := range r.members {
		if !isEnded(m) {
			out = append(out, m)
		}
	}
	return out
}

// broadcast posts the room's state to the sessions to; the presenter also
// gets the histogram.
func (r *LocalRoom) broadcast(to func(*member) bool) {
	r.mu.Lock()
	st := r.statsLocked()
	base := tui.RoomMsg{Live: r.live, Step: r.step, Round: r.round, Open: r.open, Revealed: r.revealed,
		Answered: st.Answered, Anonymous: st.Anonymous, Students: st.Students, Sessions: st.Sessions, Peak: st.Peak}
	counts := r.countsLocked()
	members := r.snapshotLocked()
	r.mu.Unlock()
	for _, m := range members {
		if !to(m) {
			continue
		}
		msg := base
		if r.watches(m) {
			msg.Counts = counts
		}
		m.post(msg)
	}
}

// Client is one session's handle on a LocalRoom.
type Client struct {
	room     *LocalRoom
	id       int
	tookOver bool
}

// TookOver reports whether this presenter's login ended another
// presenter's session.
func (c *Client) TookOver() bool { return c.tookOver }

// Presenter reports whether this session leads the room now.
func (c *Client) Presenter() bool { return c.room.leader.Load() == int64(c.id) }

// Ended is closed when the room has said its last word to this session.
func (c *Client) Ended() <-chan struct{} {
	c.room.mu.Lock()
	defer c.room.mu.Unlock()
	if m, ok := c.room.members[c.id]; ok {
		return m.ended
	}
	closed := make(chan struct{})
	close(closed)
	return closed
}

// Go makes a scenario live at a step of its walk; a new scenario closes
// any open question. Students hear of a new scenario; a step within it
// only goes to the notes screens (and the leader), so a lecturer's
// stepping does not redraw two hundred screens.
func (c *Client) Go(id string, step int) {
	if !c.Presenter() {
		return
	}
	r := c.room
	r.mu.Lock()
	changed := r.live != id
	if changed {
		r.live, r.open, r.revealed = id, false, false
		clear(r.answers)
	}
	stepped := r.step != step
	r.step = step
	r.mu.Unlock()
	switch {
	case changed:
		r.broadcast(everyone)
	case stepped:
		r.broadcast(r.watches)
	}
}

// Open starts a new question on the live scenario.
func (c *Client) Open() {
	if !c.Presenter() {
		return
	}
	r := c.room
	r.mu.Lock()
	if r.live == "" {
		r.mu.Unlock()
		return
	}
	r.round++
	r.open, r.revealed = true, false
	clear(r.answers)
	r.mu.Unlock()
	r.broadcast(everyone)
}

// Reveal closes the question and shows everyone the walk.
func (c *Client) Reveal() {
	if !c.Presenter() {
		return
	}
	r := c.room
	r.mu.Lock()
	if !r.open {
		r.mu.Unlock()
		return
	}
	r.open, r.revealed = false, true
	r.mu.Unlock()
	r.broadcast(everyone)
}

// Answer records a student's prediction for the open question; a second
// answer replaces the first.
func (c *Client) Answer(step int, _ assess.Code) {
	r := c.room
	r.mu.Lock()
	m := r.members[c.id]
	if !r.open || m == nil || !m.mayAnswer(step) {
		r.mu.Unlock()
		return
	}
	if m.identity != "" {
		// One vote an identity: this answer replaces its other sessions'.
		for id := range r.answers {
			if o := r.members[id]; o != nil && o != m && o.identity == m.identity {
				delete(r.answers, id)
			}
		}
	}
	r.answers[c.id] = step
	r.mu.Unlock()
	// Only the presenter's histogram changes: 200 answers must not mean
	// 200 redraws of 200 screens.
	r.broadcast(r.watches)
}

// Leave removes the session from the room.
func (c *Client) Leave() { c.room.Leave(c.id) }

// Notice is never set: a room in this process is never out of reach.
// Shared is false: the room ends with this process.
func (r *LocalRoom) Shared() bool { return false }

var (
	_ Room   = (*LocalRoom)(nil)
	_ Member = (*Client)(nil)
)
