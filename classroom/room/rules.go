package room

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The room's rules, once: apply is a pure function — values in, values
// out, no clock, no lock, no I/O — that both rooms call. LocalRoom calls
// it under its lock for every change; NATSRoom for every change it writes
// to the bucket (compare-and-set: again on a conflict, with the state it
// then reads) and for every answer it takes from the stream. What a room
// does with the outcome (store it, write it, post it to its sessions) is
// the room's; what the outcome is, is decided here.

// maxStep is the furthest step of a walk a room takes: a presenter's
// position, an answer (walks are far shorter).
const maxStep = 1000

// maxIDBytes bounds a scenario id.
const maxIDBytes = 128

// scenarioIDRe is what a scenario id looks like (scenarios.BadIDAt).
var scenarioIDRe = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// position is what every session of a room sees alike, and what a shared
// room keeps in its bucket.
type position struct {
	// Live is the scenario the presenter shows, Step how far it is walked.
	Live string `json:"live,omitempty"`
	Step int    `json:"step,omitempty"`
	// Round is the question's number as shown; Poll counts the sets of
	// answers: a new question and a new scenario each start one.
	Round    int    `json:"round,omitempty"`
	Poll     uint64 `json:"poll,omitempty"`
	Open     bool   `json:"open,omitempty"`
	Revealed bool   `json:"revealed,omitempty"`
	// Leader is the session that leads: "FRONTEND.SESSION" ("": nobody).
	Leader string `json:"leader,omitempty"`
	// Final is the tally as it was at the reveal, shown until the next
	// question: a student who leaves afterwards no longer changes what
	// the lecturer discusses.
	Final *Tally `json:"final,omitempty"`
}

// Tally is what the lecturer sees of a question: the answers by predicted
// step, how many answered (Anonymous of them without an identity: a
// client that offered no key votes once a session), of how many students.
type Tally struct {
	Counts    map[int]int `json:"counts,omitempty"`
	Answered  int         `json:"answered,omitempty"`
	Anonymous int         `json:"anonymous,omitempty"`
	// Phone counts the answers given by phone (the web page); the rest
	// came over SSH.
	Phone    int `json:"phone,omitempty"`
	Students int `json:"students,omitempty"`
}

// vote is one session's answer.
type vote struct {
	step     int
	identity string
	// phone says the answer came by phone (the web page), not over SSH.
	phone bool
}

// ballots are the current poll's answers: one a session, and one an
// identity (the latest of its sessions'). apply reads them; the changes
// it decides come back as effects, which carry makes.
type ballots struct {
	bySession  map[string]vote
	byIdentity map[string]string
}

func newBallots() ballots {
	return ballots{bySession: map[string]vote{}, byIdentity: map[string]string{}}
}

// state is a room as its rules see it: the position and the answers.
type state struct {
	position
	ballots ballots
}

// opKind is a change a session asks of the room.
type opKind uint8

const (
	// opTake: a presenter's login takes the lead.
	opTake opKind = iota + 1
	// opRelease: the session that led leaves.
	opRelease
	// opGo: the leader shows a scenario at a step.
	opGo
	// opOpen: the leader asks the room's question on the live scenario.
	opOpen
	// opReveal: the leader closes the question and shows the walk.
	opReveal
	// opAnswer: a session answers the open question.
	opAnswer
	// opRetract: a session leaves; its answer goes with it.
	opRetract
)

var opNames = [...]string{opTake: "take", opRelease: "release", opGo: "go", opOpen: "open", opReveal: "reveal", opAnswer: "answer", opRetract: "retract"}

func (k opKind) String() string {
	if int(k) < len(opNames) && opNames[k] != "" {
		return opNames[k]
	}
	return "op " + strconv.Itoa(int(k))
}

// op is one change asked of the room, by the session by
// ("FRONTEND.SESSION").
type op struct {
	kind opKind
	by   string
	// role is by's; ended says the room has said its last word to it,
	// or it has left.
	role  Role
	ended bool
	// identity is by's (see JoinAs); step the answer, or the leader's
	// step of live.
	identity string
	live     string
	step     int
	// phone says by answers from a phone (see vote).
	phone bool
	// reclaim takes the lead back after the state was lost: only while
	// nobody else has taken it.
	reclaim bool
	// tally is what the room shows when the leader reveals: it is kept.
	tally Tally
}

// audience is who hears of a change.
type audience uint8

const (
	// nobody: nothing anyone sees changed.
	nobody audience = iota
	// watchers: the leader and the notes screens (a step, an answer, a
	// session more or less); two hundred students are not redrawn.
	watchers
	// everyone: a new scenario, question or reveal.
	everyone
)

// cast is an answer to count.
type cast struct {
	session string
	vote    vote
}

// effects are what follows from a change, for the room to carry out.
type effects struct {
	// changed says the position changed (a shared room writes it).
	changed bool
	tell    audience
	// ousted is the leader a takeover replaced ("": none).
	ousted string
	// newPoll says the answers start again; drop are answers to forget
	// and cast one to count.
	newPoll bool
	drop    []string
	cast    *cast
}

// apply is the room's rules: the state after o, and what follows from it.
// A change the rules refuse — asked by a session that does not lead, a
// question without a live scenario, an answer out of turn — leaves the
// state as it is, with no effects. s is not changed: its answers change
// only by carry, with the effects.
func apply(s state, o op) (state, effects) {
	var next position
	var ok bool
	switch o.kind {
	case opAnswer:
		return s, answer(s, o)
	case opRetract:
		return s, retract(s, o)
	case opTake:
		next, ok = take(s.position, o)
	case opRelease:
		next, ok = release(s.position, o)
	case opGo:
		next, ok = show(s.position, o)
	case opOpen:
		next, ok = ask(s.position, o)
	case opReveal:
		next, ok = reveal(s.position, o)
	}
	if !ok {
		return s, effects{}
	}
	eff := effects{changed: !next.same(s.position), newPoll: next.Poll != s.Poll, tell: tell(s.position, next)}
	if s.Leader != "" && next.Leader != s.Leader && o.kind == opTake {
		eff.ousted = s.Leader
	}
	return state{position: next, ballots: s.ballots}, eff
}

// take gives a presenter's login the lead, from whoever had it; reclaim
// takes it back after the state was lost, only while nobody else took it.
func take(p position, o op) (position, bool) {
	if o.reclaim && p.Leader != "" {
		return p, false // another took the room meanwhile, or it is back
	}
	p.Leader = o.by
	return p, true
}

// release gives the lead up when the leader leaves.
func release(p position, o op) (position, bool) {
	if p.Leader != o.by || o.by == "" {
		return p, false
	}
	p.Leader = ""
	return p, true
}

// show makes a scenario live at a step: the leader only, a scenario id, a
// step a walk has. A new scenario closes the question, and its answers go.
func show(p position, o op) (position, bool) {
	if !p.led(o) || len(o.live) > maxIDBytes || !scenarioIDRe.MatchString(o.live) || o.step < 0 || o.step > maxStep {
		return p, false
	}
	if o.live != p.Live {
		p.Live, p.Open, p.Revealed, p.Final = o.live, false, false, nil
		p.Poll++
	}
	p.Step = o.step
	return p, true
}

// ask opens a new question: the leader only, on a live scenario.
func ask(p position, o op) (position, bool) {
	if !p.led(o) || p.Live == "" {
		return p, false
	}
	p.Round++
	p.Poll++
	p.Open, p.Revealed, p.Final = true, false, nil
	return p, true
}

// reveal closes the open question and keeps the tally the room shows.
func reveal(p position, o op) (position, bool) {
	if !p.led(o) || !p.Open {
		return p, false
	}
	final := o.tally.clone()
	p.Open, p.Revealed, p.Final = false, true, &final
	return p, true
}

// answer counts a student's answer to the open question: not the
// leader's, a notes screen's or a session told the room's last word, nor
// a step no walk has. One vote an identity: it replaces the answer of the
// identity's other session.
func answer(s state, o op) effects {
	if !s.Open || o.role != Student || o.ended || o.step < 0 || o.step > maxStep {
		return effects{}
	}
	eff := effects{tell: watchers, cast: &cast{session: o.by, vote: vote{step: o.step, identity: o.identity, phone: o.phone}}}
	if other, ok := s.ballots.byIdentity[o.identity]; ok && o.identity != "" && other != o.by {
		eff.drop = []string{other}
	}
	return eff
}

// retract forgets the answer of a session that left.
func retract(s state, o op) effects {
	if _, ok := s.ballots.bySession[o.by]; !ok {
		return effects{}
	}
	return effects{tell: watchers, drop: []string{o.by}}
}

// led reports whether o was asked by the session that leads.
func (p position) led(o op) bool { return o.by != "" && o.by == p.Leader }

// tell is who hears of the room's move from old to next: everyone of a
// new scenario, question or reveal; the watchers of anything else.
func tell(old, next position) audience {
	switch {
	case old.Live != next.Live || old.Round != next.Round || old.Open != next.Open || old.Revealed != next.Revealed:
		return everyone
	case old.same(next):
		return nobody
	}
	return watchers
}

// same reports whether two positions are alike (Final by its content).
func (p position) same(q position) bool {
	pf, qf := p.Final, q.Final
	p.Final, q.Final = nil, nil
	return p == q && (pf == qf || (pf != nil && qf != nil && pf.equal(*qf)))
}

// carry makes the answers' changes of eff.
func (b ballots) carry(eff effects) ballots {
	if eff.newPoll {
		b = newBallots()
	}
	for _, session := range eff.drop {
		b.drop(session)
	}
	if c := eff.cast; c != nil {
		b.drop(c.session)
		b.bySession[c.session] = c.vote
		if c.vote.identity != "" {
			b.byIdentity[c.vote.identity] = c.session
		}
	}
	return b
}

func (b ballots) drop(session string) {
	if v, ok := b.bySession[session]; ok && v.identity != "" && b.byIdentity[v.identity] == session {
		delete(b.byIdentity, v.identity)
	}
	delete(b.bySession, session)
}

// tally counts the answers of the sessions counted says still count, in
// a room of students.
func (b ballots) tally(counted func(session string) bool, students int) Tally {
	t := Tally{Counts: map[int]int{}, Students: students}
	for session, v := range b.bySession {
		if !counted(session) {
			continue
		}
		t.Counts[v.step]++
		t.Answered++
		if v.identity == "" {
			t.Anonymous++
		}
		if v.phone {
			t.Phone++
		}
	}
	return t
}

// shown is the tally a room shows: the one kept at the reveal until the
// next question, the live one otherwise.
func (p position) shown(live Tally) Tally {
	if p.Revealed && p.Final != nil {
		return p.Final.clone()
	}
	return live
}

func (t Tally) clone() Tally {
	c := t
	c.Counts = make(map[int]int, len(t.Counts))
	for k, v := range t.Counts {
		c.Counts[k] = v
	}
	return c
}

func (t Tally) equal(u Tally) bool {
	if t.Answered != u.Answered || t.Anonymous != u.Anonymous || t.Phone != u.Phone || t.Students != u.Students || len(t.Counts) != len(u.Counts) {
		return false
	}
	for k, v := range t.Counts {
		if w, ok := u.Counts[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// seatKey is a session's name in a room: its front-end's and its own.
func seatKey(frontEnd string, session int) string { return fmt.Sprintf("%s.%d", frontEnd, session) }

// splitSeat reads a seatKey back: the front-end is 16 hex digits (see
// newFrontEndID), the session a positive number.
func splitSeat(v string) (fe string, sess int, ok bool) {
	fe, s, found := strings.Cut(v, ".")
	if !found || !frontEndRe.MatchString(fe) || len(s) > 9 {
		return "", 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return "", 0, false
	}
	return fe, n, true
}
