package room

import (
	"sync"
	"sync/atomic"

	"toolgate/tui"
)

// member is one session. Its mailbox holds the latest state only: the
// room's messages are whole states, so a session that is slow to take
// them gets the newest and skips the rest, and no session (nor the room's
// lock) ever waits on another's program.
type member struct {
	id   int
	role Role
	// identity is the student's across sessions ("": this session's own).
	identity string
	// phone says the session is a phone's (the web page).
	phone bool
	send  func(tui.RoomMsg)
	// ended is closed when the room has said its last word to this
	// session (the room closes, or another presenter took over), goodbye;
	// nothing is posted to it afterwards, so the goodbye is never
	// overwritten.
	ended   chan struct{}
	goodbye tui.Goodbye

	mu     sync.Mutex
	latest tui.RoomMsg
	// final is set once the room's last word is posted.
	final  bool
	notify chan struct{}
	done   chan struct{}
}

func newMember(id int, role Role, identity string, phone bool, send func(tui.RoomMsg)) *member {
	return &member{id: id, role: role, identity: identity, phone: phone, send: send,
		ended: make(chan struct{}), notify: make(chan struct{}, 1), done: make(chan struct{})}
}

func (m *member) post(msg tui.RoomMsg) {
	m.mu.Lock()
	if m.final {
		// A state computed before the goodbye must not replace it.
		m.mu.Unlock()
		return
	}
	m.latest, m.final = msg, msg.Ending != tui.NoGoodbye
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
func (m *member) end(g tui.Goodbye) {
	if isEnded(m) {
		return
	}
	m.goodbye = g
	close(m.ended)
	m.post(tui.RoomMsg{Ending: g})
}

// said is the room's last word to the member, once it is Ended.
func (m *member) said() tui.Goodbye {
	if !isEnded(m) {
		return tui.NoGoodbye
	}
	return m.goodbye
}

func isEnded(m *member) bool {
	select {
	case <-m.ended:
		return true
	default:
		return false
	}
}

// seats are the sessions a room holds on this server, and which of them
// leads: membership, its numbers and its broadcast, the same in both
// rooms. The room's lock guards them; leader is read without it.
type seats struct {
	// frontEnd names this server in the room (see seatKey).
	frontEnd string
	members  map[int]*member
	next     int
	// leader is the member who leads the room (0: none here). One
	// session leads at a time: a presenter's login takes the room over,
	// so a lecturer whose connection dropped takes it back by logging in
	// again.
	leader atomic.Int64
}

func newSeats(frontEnd string) *seats {
	return &seats{frontEnd: frontEnd, members: map[int]*member{}}
}

// add seats a new session; its mailbox is delivered from then on.
func (s *seats) add(role Role, identity string, phone bool, send func(tui.RoomMsg)) *member {
	s.next++
	m := newMember(s.next, role, identity, phone, send)
	s.members[m.id] = m
	go m.deliver()
	return m
}

// remove unseats a session: nothing more is delivered to it.
func (s *seats) remove(id int) {
	if m, ok := s.members[id]; ok {
		close(m.done)
	}
	delete(s.members, id)
	s.leader.CompareAndSwap(int64(id), 0)
}

// key is a session's name in the room.
func (s *seats) key(m *member) string { return seatKey(s.frontEnd, m.id) }

// answer is the op of m's answer, for either room: a session that has
// left, or that the room has said its last word to, answers as ended,
// and the rules count no answer of it (nothing would take it out again).
// Called with the room's lock held.
func (s *seats) answer(m *member, step int) op {
	_, here := s.members[m.id]
	return op{kind: opAnswer, by: s.key(m), role: m.role, ended: isEnded(m) || !here, identity: m.identity, phone: m.phone, step: step}
}

// named is the session of this server that key names.
func (s *seats) named(key string) (*member, bool) {
	fe, id, ok := splitSeat(key)
	if !ok || fe != s.frontEnd {
		return nil, false
	}
	m, ok := s.members[id]
	return m, ok
}

// leads reports whether m leads the room.
func (s *seats) leads(m *member) bool { return int64(m.id) == s.leader.Load() }

// watches reports whether m sees the room's numbers and the presenter's
// every step: the leader and the notes screens.
func (s *seats) watches(m *member) bool { return s.leads(m) || m.role == Notes }

// count is how many sessions are in the room here, and how many of them
// are students: a session told the room's last word is on its way out.
func (s *seats) count() (sessions, students int) {
	for _, m := range s.members {
		if isEnded(m) {
			continue
		}
		sessions++
		if !s.leads(m) && m.role != Notes {
			students++
		}
	}
	return sessions, students
}

// end says the room's last word to every session here.
func (s *seats) end(g tui.Goodbye) {
	for _, m := range s.members {
		m.end(g)
	}
}

// pick is who hears of a change: everyone, or the watchers and the
// newcomer (nil: none), of the sessions still in the room.
func (s *seats) pick(to audience, newcomer *member) []*member {
	var out []*member
	for _, m := range s.members {
		if isEnded(m) {
			continue
		}
		if to == everyone || m == newcomer || (to == watchers && s.watches(m)) {
			out = append(out, m)
		}
	}
	return out
}

// message is the room's state as its sessions are told it.
func message(p position, st Stats) tui.RoomMsg {
	return tui.RoomMsg{Live: p.Live, Step: p.Step, Round: p.Round, Open: p.Open, Revealed: p.Revealed,
		Answered: st.Answered, Anonymous: st.Anonymous, Phone: st.Phone, Students: st.Students, Sessions: st.Sessions, Peak: st.Peak}
}

// post delivers msg to each of to; the watchers also get the counts.
// It is called without the room's lock: a mailbox never waits.
func (s *seats) post(to []*member, msg tui.RoomMsg, counts map[int]int) {
	for _, m := range to {
		out := msg
		if s.watches(m) {
			out.Counts = counts
		}
		m.post(out)
	}
}
