package web

import (
	"sync"
	"time"

	"toolgate/classroom/room"
	"toolgate/tui"
)

// phone is one phone in the room: a student member with its identity,
// the room's latest word to it, and its own answer of the round (kept
// here, so that a phone that reconnects shows it).
type phone struct {
	m room.Member

	mu      sync.Mutex
	msg     tui.RoomMsg
	changed chan struct{} // closed and replaced on every message
	streams int
	// seen is when the phone last had no stream (zero while it has one).
	seen time.Time
	// round, step and code are its answer ("": no code).
	round, step int
	code        string
}

// phones are the phones in the room, by identity.
type phones struct {
	room  room.Room
	most  int
	grace time.Duration

	mu     sync.Mutex
	byID   map[string]*phone
	closed bool
	stop   chan struct{}
}

func newPhones(r room.Room, most int, grace time.Duration) *phones {
	p := &phones{room: r, most: most, grace: grace, byID: map[string]*phone{}, stop: make(chan struct{})}
	go p.sweep()
	return p
}

// add seats a phone in the room; false when the room has its most.
func (p *phones) add(id string) bool {
	_, ok := p.get(id, true)
	return ok
}

// has reports whether the phone is in the room.
func (p *phones) has(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.byID[id]
	return ok
}

// get is the phone of id; a phone whose place lapsed (or a server that
// restarted its room, never: the key is new) is seated again when join.
// A room with its most phones seats it in the place of the phone that
// has gone longest without a stream: a phone following the room is never
// put out for a new one, and joins that open no stream (a student with
// the class code and a script) cannot fill the room.
func (p *phones) get(id string, join bool) (*phone, bool) {
	return p.seat(id, join, false)
}

// open is get for a stream: the phone, seated and counted as watched at
// once, so that no sweep or newcomer puts it out in between.
func (p *phones) open(id string) (*phone, bool) {
	return p.seat(id, true, true)
}

func (p *phones) seat(id string, join, stream bool) (*phone, bool) {
	p.mu.Lock()
	ph, ok := p.byID[id]
	var out *phone
	if !ok && join && !p.closed {
		if len(p.byID) >= p.most {
			out = p.unwatchedLocked()
		}
		if len(p.byID) < p.most {
			ph = &phone{changed: make(chan struct{}), seen: time.Now()}
			ph.m = p.room.JoinPhone(id, ph.post)
			p.byID[id] = ph
			ok = true
		}
	}
	if ok && stream {
		ph.watch(1)
	}
	p.mu.Unlock()
	if out != nil {
		out.m.Leave()
	}
	return ph, ok
}

// unwatchedLocked takes out of the seats the phone without a stream for
// longest (nil: every phone has one), for the caller to take out of the
// room.
func (p *phones) unwatchedLocked() *phone {
	var oldest *phone
	var oldestID string
	var oldestSeen time.Time
	for id, ph := range p.byID {
		ph.mu.Lock()
		streams, seen := ph.streams, ph.seen
		ph.mu.Unlock()
		if streams == 0 && (oldest == nil || seen.Before(oldestSeen)) {
			oldest, oldestID, oldestSeen = ph, id, seen
		}
	}
	if oldest != nil {
		delete(p.byID, oldestID)
	}
	return oldest
}

func (p *phones) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.byID)
}

// post takes the room's word.
func (ph *phone) post(msg tui.RoomMsg) {
	ph.mu.Lock()
	defer ph.mu.Unlock()
	ph.msg = msg
	close(ph.changed)
	ph.changed = make(chan struct{})
}

// state is the room's latest word, and a channel closed at the next.
func (ph *phone) state() (tui.RoomMsg, chan struct{}, int, int, string) {
	ph.mu.Lock()
	defer ph.mu.Unlock()
	return ph.msg, ph.changed, ph.round, ph.step, ph.code
}

// watch counts a stream open (+1) or closed (-1).
func (ph *phone) watch(d int) {
	ph.mu.Lock()
	defer ph.mu.Unlock()
	ph.streams += d
	if ph.streams == 0 {
		ph.seen = time.Now()
	}
}

// said keeps the phone's answer, and wakes its streams.
func (ph *phone) said(round, step int, code string) {
	ph.mu.Lock()
	defer ph.mu.Unlock()
	ph.round, ph.step, ph.code = round, step, code
	close(ph.changed)
	ph.changed = make(chan struct{})
}

// sweep takes out of the room the phones without a stream for longer
// than the grace: their answers go with them, as an SSH student's do.
func (p *phones) sweep() {
	t := time.NewTicker(min(p.grace/4, 15*time.Second))
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
		}
		var gone []*phone
		p.mu.Lock()
		for id, ph := range p.byID {
			ph.mu.Lock()
			lapsed := ph.streams == 0 && time.Since(ph.seen) > p.grace
			ph.mu.Unlock()
			if lapsed {
				gone = append(gone, ph)
				delete(p.byID, id)
			}
		}
		p.mu.Unlock()
		for _, ph := range gone {
			ph.m.Leave()
		}
	}
}

// close takes every phone out of the room.
func (p *phones) close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	close(p.stop)
	all := p.byID
	p.byID = map[string]*phone{}
	p.mu.Unlock()
	for _, ph := range all {
		ph.m.Leave()
	}
}
