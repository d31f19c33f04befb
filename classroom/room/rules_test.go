package room

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/tui"
)

// hall is a room under test, of one kind: a LocalRoom, or two front-ends
// of a room shared through a NATS server embedded in the test. Its
// sessions are named; every change asked through it is waited for
// (settle) before the next, so that what a row checks is what the rules
// made of it, on every front-end.
type hall struct {
	t     *testing.T
	local *LocalRoom
	fes   []*Shared
	seats map[string]*seat
}

// seat is one named session.
type seat struct {
	m   Member
	mem *member
	box *inbox
	fe  int
}

func newLocalHall(t *testing.T) *hall {
	return &hall{t: t, local: NewLocal(), seats: map[string]*seat{}}
}

func newSharedHall(t *testing.T) *hall {
	_, url := natsServer(t, 0, t.TempDir())
	return &hall{t: t, fes: []*Shared{frontEnd(t, url), frontEnd(t, url)}, seats: map[string]*seat{}}
}

// join seats a session named name, of role, on front-end fe (a local
// room has one), with identity (see JoinAs).
func (h *hall) join(name string, role Role, fe int, identity string) *seat {
	h.t.Helper()
	s := &seat{box: &inbox{}, fe: fe}
	if h.local != nil {
		s.m = h.local.JoinAs(role, identity, s.box.send)
		s.mem = s.m.(*Client).m
	} else {
		s.m = h.fes[fe].JoinAs(role, identity, s.box.send)
		s.mem = s.m.(*natsClient).m
	}
	h.seats[name] = s
	h.t.Cleanup(s.m.Leave)
	h.settle()
	return s
}

// joinPhone seats a student by phone (see JoinPhone) named name on
// front-end fe, with identity.
func (h *hall) joinPhone(name string, fe int, identity string) *seat {
	h.t.Helper()
	s := &seat{box: &inbox{}, fe: fe}
	if h.local != nil {
		s.m = h.local.JoinPhone(identity, s.box.send)
		s.mem = s.m.(*Client).m
	} else {
		s.m = h.fes[fe].JoinPhone(identity, s.box.send)
		s.mem = s.m.(*natsClient).m
	}
	h.seats[name] = s
	h.t.Cleanup(s.m.Leave)
	h.settle()
	return s
}

// do asks a change of a session, and waits for the room to have made it.
func (h *hall) do(name string, ask func(Member)) {
	h.t.Helper()
	ask(h.seats[name].m)
	h.settle()
}

// end says the room's last word to one session (as a front-end that
// closes does to its own).
func (h *hall) end(name string) {
	h.t.Helper()
	s := h.seats[name]
	if h.local != nil {
		h.local.mu.Lock()
		s.mem.end(tui.ServerClosing)
		h.local.mu.Unlock()
	} else {
		fe := h.fes[s.fe]
		fe.mu.Lock()
		s.mem.end(tui.ServerClosing)
		fe.mu.Unlock()
		fe.wake(fe.beatWake)
	}
	h.settle()
}

// leave takes a session out of the room.
func (h *hall) leave(name string) {
	h.t.Helper()
	h.seats[name].m.Leave()
	h.settle()
}

// settle waits until every front-end has written every change its
// sessions asked, sent every answer, taken every answer and position
// NATS has, and heard the others' numbers. A local room is settled at
// once: it makes each change before the call returns.
func (h *hall) settle() {
	h.t.Helper()
	if h.local != nil {
		return
	}
	waitUntil(h.t, "every front-end has taken every change", func() bool {
		for _, fe := range h.fes {
			if !fe.quiet() {
				return false
			}
		}
		first := h.fes[0]
		for _, fe := range h.fes[1:] {
			a, b := first.Stats(), fe.Stats()
			a.Peak, b.Peak = 0, 0
			if a != b || !assert.ObjectsAreEqual(first.Counts(), fe.Counts()) {
				return false
			}
		}
		return true
	})
}

// quiet reports whether this front-end has nothing left to do of what it
// was asked so far: no change waiting to be written, no answer to be
// sent, the bucket's latest position taken, and every answer of its poll
// in the stream taken.
func (r *NATSRoom) quiet() bool {
	r.mu.Lock()
	idle := len(r.ops) == 0 && !r.writing
	for _, a := range r.mine {
		idle = idle && a.sent == a.version
	}
	rev, poll, kv := r.rev, r.st.Poll, r.kv
	r.mu.Unlock()
	r.followedMu.Lock()
	following := r.followed == poll
	r.followedMu.Unlock()
	if !idle || !following {
		return false
	}
	ctx, cancel := context.WithTimeout(r.ctx, r.cfg.OpTimeout)
	defer cancel()
	e, err := kv.Get(ctx, stateKey)
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		if rev != 0 {
			return false
		}
	case err != nil || e.Revision() != rev:
		return false
	}
	stream, err := r.js.Stream(ctx, r.stream)
	if err != nil {
		return false
	}
	last, err := stream.GetLastMsgForSubject(ctx, fmt.Sprintf("%s.ans.%d.>", r.prefix, poll))
	switch {
	case errors.Is(err, jetstream.ErrMsgNotFound):
		return true
	case err != nil:
		return false
	}
	return r.delivered.Load() >= last.Sequence
}

// pos is the room's position (as the first front-end has it: settle saw
// that the others agree on what it shows).
func (h *hall) pos() position {
	if h.local != nil {
		h.local.mu.Lock()
		defer h.local.mu.Unlock()
		return h.local.st.position
	}
	fe := h.fes[0]
	fe.mu.Lock()
	defer fe.mu.Unlock()
	return fe.st.position
}

func (h *hall) stats() Stats {
	var s Stats
	if h.local != nil {
		s = h.local.Stats()
	} else {
		s = h.fes[0].Stats()
	}
	s.Peak = 0
	return s
}

func (h *hall) counts() map[int]int {
	if h.local != nil {
		return h.local.Counts()
	}
	return h.fes[0].Counts()
}

// sees waits until the session named name was last told what ok wants.
func (h *hall) sees(name string, ok func(tui.RoomMsg) bool) {
	h.t.Helper()
	h.seats[name].box.sees(h.t, ok)
}

// TestRules: the room's rules, one row a rule, run against both rooms —
// a LocalRoom and two front-ends sharing a room through NATS — so that
// the two cannot drift apart: both check what the rules check.
func TestRules(t *testing.T) {
	const live = "write-without-approval"
	lecture := func(h *hall) {
		h.join("lecturer", Presenter, 0, "")
		h.join("notes", Notes, 1, "")
		h.join("ann", Student, 0, "")
		h.join("bob", Student, 1, "")
	}
	question := func(h *hall) {
		lecture(h)
		h.do("lecturer", func(m Member) { m.Go(live, 0) })
		h.do("lecturer", func(m Member) { m.Open() })
	}
	for _, tc := range []struct {
		name string
		run  func(h *hall)
	}{
		{"a student cannot lead", func(h *hall) {
			lecture(h)
			h.do("ann", func(m Member) { m.Go(live, 0) })
			h.do("ann", func(m Member) { m.Open() })
			assert.Equal(h.t, position{Leader: h.pos().Leader}, h.pos())
			assert.True(h.t, h.seats["lecturer"].m.Presenter())
			assert.False(h.t, h.seats["ann"].m.Presenter())
		}},
		{"a question needs a live scenario", func(h *hall) {
			lecture(h)
			h.do("lecturer", func(m Member) { m.Open() })
			p := h.pos()
			assert.False(h.t, p.Open)
			assert.Zero(h.t, p.Round)
		}},
		{"a scenario is named by a scenario id, at a step a walk has", func(h *hall) {
			lecture(h)
			for _, bad := range []struct {
				id   string
				step int
			}{{"../etc/passwd", 0}, {"\x1b[2J", 0}, {"", 0}, {live, -1}, {live, maxStep + 1}} {
				h.do("lecturer", func(m Member) { m.Go(bad.id, bad.step) })
			}
			assert.Empty(h.t, h.pos().Live)
			h.do("lecturer", func(m Member) { m.Go(live, 3) })
			assert.Equal(h.t, [2]any{live, 3}, [2]any{h.pos().Live, h.pos().Step})
			h.sees("ann", func(m tui.RoomMsg) bool { return m.Live == live })
			h.sees("notes", func(m tui.RoomMsg) bool { return m.Step == 3 })
		}},
		{"a step within the live scenario keeps the question", func(h *hall) {
			question(h)
			h.do("ann", func(m Member) { m.Answer(4) })
			h.do("lecturer", func(m Member) { m.Go(live, 5) })
			assert.True(h.t, h.pos().Open)
			assert.Equal(h.t, map[int]int{4: 1}, h.counts())
		}},
		{"a new scenario closes the question and its answers go", func(h *hall) {
			question(h)
			h.do("ann", func(m Member) { m.Answer(4) })
			h.do("lecturer", func(m Member) { m.Go("unknown-tool", 0) })
			p := h.pos()
			assert.False(h.t, p.Open || p.Revealed)
			assert.Equal(h.t, 1, p.Round)
			assert.Empty(h.t, h.counts())
			h.sees("bob", func(m tui.RoomMsg) bool { return m.Live == "unknown-tool" && !m.Open })
		}},
		{"no question, no answer", func(h *hall) {
			lecture(h)
			h.do("lecturer", func(m Member) { m.Go(live, 0) })
			h.do("ann", func(m Member) { m.Answer(4) })
			assert.Empty(h.t, h.counts())
		}},
		{"a reveal needs an open question", func(h *hall) {
			lecture(h)
			h.do("lecturer", func(m Member) { m.Go(live, 0) })
			h.do("lecturer", func(m Member) { m.Reveal() })
			assert.False(h.t, h.pos().Revealed)
		}},
		{"only a student still in the room answers, with a step a walk has", func(h *hall) {
			question(h)
			h.join("ousted", Presenter, 1, "") // takes the room over…
			h.join("lecturer2", Presenter, 0, "")
			h.join("told", Student, 1, "")
			h.end("told")
			for _, name := range []string{"notes", "ousted", "lecturer2", "told"} {
				h.do(name, func(m Member) { m.Answer(7) })
			}
			h.do("ann", func(m Member) { m.Answer(-1) })
			h.do("ann", func(m Member) { m.Answer(maxStep + 1) })
			assert.Empty(h.t, h.counts())
			h.do("ann", func(m Member) { m.Answer(7) })
			assert.Equal(h.t, map[int]int{7: 1}, h.counts())
		}},
		{"a second answer replaces the first", func(h *hall) {
			question(h)
			h.do("ann", func(m Member) { m.Answer(4) })
			h.do("ann", func(m Member) { m.Answer(7) })
			h.do("bob", func(m Member) { m.Answer(7) })
			assert.Equal(h.t, map[int]int{7: 2}, h.counts())
			assert.Equal(h.t, Stats{Sessions: 4, Students: 2, Answered: 2, Anonymous: 2}, h.stats())
		}},
		{"one vote an identity, whichever of its sessions gave it", func(h *hall) {
			question(h)
			h.join("cy", Student, 0, "0123456789abcdef")
			h.join("cy again", Student, 1, "0123456789abcdef")
			h.do("cy", func(m Member) { m.Answer(3) })
			h.do("cy again", func(m Member) { m.Answer(5) })
			h.do("ann", func(m Member) { m.Answer(5) })
			assert.Equal(h.t, map[int]int{5: 2}, h.counts())
			assert.Equal(h.t, Stats{Sessions: 6, Students: 4, Answered: 2, Anonymous: 1}, h.stats())
		}},
		{"a student who leaves an open question takes the answer along", func(h *hall) {
			question(h)
			h.do("ann", func(m Member) { m.Answer(4) })
			h.do("bob", func(m Member) { m.Answer(7) })
			h.leave("bob")
			assert.Equal(h.t, map[int]int{4: 1}, h.counts())
			assert.Equal(h.t, Stats{Sessions: 3, Students: 1, Answered: 1, Anonymous: 1}, h.stats())
			h.sees("lecturer", func(m tui.RoomMsg) bool { return m.Answered == 1 && m.Students == 1 && m.Counts[7] == 0 })
		}},
		{"an answer after its session left is not counted", func(h *hall) {
			question(h)
			h.joinPhone("phone", 1, "0123456789abcdef")
			left := map[string]Member{"bob": h.seats["bob"].m, "phone": h.seats["phone"].m}
			h.leave("bob")
			h.leave("phone")
			left["bob"].Answer(3)
			left["phone"].Answer(2)
			h.settle()
			h.do("ann", func(m Member) { m.Answer(4) })
			assert.Equal(h.t, map[int]int{4: 1}, h.counts())
			assert.Equal(h.t, 1, h.stats().Answered)
		}},
		{"the reveal keeps the counts until the next question", func(h *hall) {
			question(h)
			h.join("cy", Student, 1, "")
			h.do("ann", func(m Member) { m.Answer(2) })
			h.do("bob", func(m Member) { m.Answer(2) })
			h.do("cy", func(m Member) { m.Answer(5) })
			h.do("lecturer", func(m Member) { m.Reveal() })
			kept := Stats{Sessions: 5, Students: 3, Answered: 3, Anonymous: 3}
			assert.Equal(h.t, kept, h.stats())
			h.leave("bob")
			h.leave("cy")
			h.join("late", Student, 0, "")
			kept.Sessions = 4
			assert.Equal(h.t, kept, h.stats(), "who leaves after the reveal is not subtracted, who comes is not added")
			assert.Equal(h.t, map[int]int{2: 2, 5: 1}, h.counts())
			h.sees("lecturer", func(m tui.RoomMsg) bool {
				return m.Revealed && m.Answered == 3 && m.Students == 3 && m.Counts[2] == 2 && m.Sessions == 4
			})
			h.sees("notes", func(m tui.RoomMsg) bool { return m.Answered == 3 && m.Students == 3 })

			h.do("lecturer", func(m Member) { m.Open() })
			assert.Equal(h.t, Stats{Sessions: 4, Students: 2}, h.stats(), "a new question counts afresh")
			assert.Empty(h.t, h.counts())
		}},
		{"a new scenario after the reveal forgets the kept counts", func(h *hall) {
			question(h)
			h.do("ann", func(m Member) { m.Answer(2) })
			h.do("lecturer", func(m Member) { m.Reveal() })
			h.do("lecturer", func(m Member) { m.Go("unknown-tool", 0) })
			assert.Nil(h.t, h.pos().Final)
			assert.Equal(h.t, Stats{Sessions: 4, Students: 2}, h.stats())
		}},
		{"answers by phone count with the others, and apart for the notes", func(h *hall) {
			question(h)
			h.joinPhone("phone", 1, "00000000000000f1")
			h.joinPhone("phone2", 0, "00000000000000f2")
			h.do("phone", func(m Member) { m.Answer(3) })
			h.do("phone", func(m Member) { m.Answer(4) }) // changed until the reveal
			h.do("phone2", func(m Member) { m.Answer(4) })
			h.do("ann", func(m Member) { m.Answer(4) })
			assert.Equal(h.t, map[int]int{4: 3}, h.counts())
			assert.Equal(h.t, Stats{Sessions: 6, Students: 4, Answered: 3, Anonymous: 1, Phone: 2}, h.stats())
			h.sees("notes", func(m tui.RoomMsg) bool { return m.Answered == 3 && m.Phone == 2 })
			h.do("lecturer", func(m Member) { m.Reveal() })
			h.do("phone2", func(m Member) { m.Answer(5) }) // too late
			h.leave("phone")
			assert.Equal(h.t, Stats{Sessions: 5, Students: 4, Answered: 3, Anonymous: 1, Phone: 2}, h.stats(), "frozen at the reveal")
			h.sees("phone2", func(m tui.RoomMsg) bool { return m.Revealed && m.Counts == nil })
		}},
		{"a phone has one vote an identity, as an SSH session has", func(h *hall) {
			question(h)
			h.joinPhone("phone", 0, "0123456789abcdef")
			h.join("laptop", Student, 1, "0123456789abcdef")
			h.do("phone", func(m Member) { m.Answer(3) })
			h.do("laptop", func(m Member) { m.Answer(5) })
			assert.Equal(h.t, map[int]int{5: 1}, h.counts())
			assert.Equal(h.t, Stats{Sessions: 6, Students: 4, Answered: 1}, h.stats())
		}},
		{"a presenter's login takes the room over", func(h *hall) {
			lecture(h)
			second := h.join("second", Presenter, 1, "")
			assert.True(h.t, second.m.TookOver())
			h.sees("lecturer", func(m tui.RoomMsg) bool { return m.Ending == tui.TakenOver })
			assert.False(h.t, h.seats["lecturer"].m.Presenter(), "one session leads at a time")
			h.do("lecturer", func(m Member) { m.Go(live, 0) })
			assert.Empty(h.t, h.pos().Live, "the ousted presenter leads nothing")
			h.do("second", func(m Member) { m.Go(live, 0) })
			assert.Equal(h.t, live, h.pos().Live)
			assert.Equal(h.t, Stats{Sessions: 4, Students: 2}, h.stats(), "the ousted session is on its way out")
		}},
		{"a leader who leaves leaves the room to the next presenter", func(h *hall) {
			lecture(h)
			h.leave("lecturer")
			assert.Empty(h.t, h.pos().Leader)
			next := h.join("next", Presenter, 1, "")
			assert.False(h.t, next.m.TookOver(), "nobody led")
			assert.True(h.t, next.m.Presenter())
		}},
		{"the leader and the notes screens see the counts, students do not", func(h *hall) {
			question(h)
			h.do("ann", func(m Member) { m.Answer(4) })
			h.sees("lecturer", func(m tui.RoomMsg) bool { return m.Counts[4] == 1 && m.Answered == 1 })
			h.sees("notes", func(m tui.RoomMsg) bool { return m.Counts[4] == 1 })
			h.sees("bob", func(m tui.RoomMsg) bool { return m.Open && m.Counts == nil })
			assert.Equal(h.t, Stats{Sessions: 4, Students: 2, Answered: 1, Anonymous: 1}, h.stats(), "the leader and the notes screen are no students")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, kind := range []struct {
				name string
				make func(*testing.T) *hall
			}{{"local", newLocalHall}, {"shared", newSharedHall}} {
				t.Run(kind.name, func(t *testing.T) {
					tc.run(kind.make(t))
				})
			}
		})
	}
}

// apply takes values and gives values: the state it is given is not
// changed, whatever the change.
func TestApplyChangesNothingItIsGiven(t *testing.T) {
	s := state{position: position{Live: "a", Open: true, Leader: "0123456789abcdef.1", Round: 1, Poll: 1}, ballots: newBallots()}
	s.ballots = s.ballots.carry(effects{cast: &cast{session: "0123456789abcdef.2", vote: vote{step: 3, identity: "ffffffffffffffff"}}})
	before := fmt.Sprintf("%+v %v %v", s.position, s.ballots.bySession, s.ballots.byIdentity)
	for _, o := range []op{
		{kind: opAnswer, by: "0123456789abcdef.3", role: Student, step: 4, identity: "ffffffffffffffff"},
		{kind: opRetract, by: "0123456789abcdef.2"},
		{kind: opReveal, by: "0123456789abcdef.1", tally: Tally{Counts: map[int]int{3: 1}, Answered: 1, Students: 2}},
		{kind: opGo, by: "0123456789abcdef.1", live: "b"},
		{kind: opOpen, by: "0123456789abcdef.1"},
		{kind: opTake, by: "0123456789abcdef.9"},
	} {
		_, _ = apply(s, o)
		require.Equal(t, before, fmt.Sprintf("%+v %v %v", s.position, s.ballots.bySession, s.ballots.byIdentity), o.kind.String())
	}
}
