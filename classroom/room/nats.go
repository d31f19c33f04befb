package room

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"toolgate/classroom/config"
	"toolgate/classroom/internal/outside"
	"toolgate/tui"
)

// A room shared through NATS lives in JetStream: a key-value bucket holds
// the live position and the poll's state (one key, written by whoever
// leads, compare-and-set), and a stream holds the answers, one subject per
// poll, front-end and session, keeping only the latest message of each —
// so an answer that arrives twice, or twice changed, counts once, and a
// front-end that starts late or restarts reads the whole poll back.
// Presence is a heartbeat on a plain subject: each front-end says every
// second how many students and sessions it holds; one unheard for Dead is
// gone, and its students' answers no longer count. Students never talk to
// NATS: only front-ends do, and a front-end takes nothing from NATS
// unchecked (sizes, counts, names, ranges).
const (
	stateKey = "state"

	// Bounds of what a front-end accepts from NATS.
	maxStateBytes  = 16 << 10 // a position with the tally kept at a reveal
	maxAnswerBytes = 32
	maxBeatBytes   = 256
	maxPeers       = 256
	maxAnswers     = 100_000
	maxCount       = 1_000_000
)

// phoneMark ends the body of an answer given by phone ("7 IDENTITY w").
const phoneMark = "w"

var (
	frontEndRe = regexp.MustCompile(`^[0-9a-f]{16}$`)
	identityRe = regexp.MustCompile(`^[0-9a-f]{16}$`)
)

// decodePosition reads the room's position from the bucket, and refuses
// what is not one.
func decodePosition(data []byte) (position, error) {
	var p position
	if len(data) == 0 {
		return p, nil // deleted or never written: nobody leads, nothing live
	}
	if len(data) > maxStateBytes {
		return p, fmt.Errorf("room state: %d bytes, at most %d", len(data), maxStateBytes)
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return p, fmt.Errorf("room state: %w", err)
	}
	switch {
	case len(p.Live) > maxIDBytes || (p.Live != "" && !scenarioIDRe.MatchString(p.Live)):
		return p, fmt.Errorf("room state: live scenario %q is not a scenario id", p.Live)
	case p.Step < 0 || p.Step > maxStep:
		return p, fmt.Errorf("room state: step %d out of range", p.Step)
	case p.Round < 0 || p.Round > 1e9 || p.Poll > 1e15:
		return p, fmt.Errorf("room state: round %d or poll %d out of range", p.Round, p.Poll)
	}
	if p.Leader != "" {
		if _, _, ok := splitSeat(p.Leader); !ok {
			return p, fmt.Errorf("room state: leader %q is not FRONTEND.SESSION", p.Leader)
		}
	}
	if f := p.Final; f != nil {
		const most = maxPeers * maxCount
		if f.Answered < 0 || f.Answered > most || f.Anonymous < 0 || f.Anonymous > f.Answered || f.Phone < 0 || f.Phone > f.Answered || f.Students < 0 || f.Students > most {
			return p, fmt.Errorf("room state: a tally of %d answers of %d out of range", f.Answered, f.Students)
		}
		for step, n := range f.Counts {
			if step < 0 || step > maxStep || n < 0 || n > most {
				return p, fmt.Errorf("room state: a count of %d for step %d out of range", n, step)
			}
		}
	}
	return p, nil
}

// beat is a front-end's presence.
type beat struct {
	FE       string `json:"fe"`
	Students int    `json:"students"`
	Sessions int    `json:"sessions"`
	// Hello asks the others to say they are here now; Bye says this
	// front-end is closing.
	Hello bool `json:"hello,omitempty"`
	Bye   bool `json:"bye,omitempty"`
}

type peer struct {
	students, sessions int
	seen               time.Time
}

// outAnswer is one of this front-end's answers on its way to the stream.
type outAnswer struct {
	poll     uint64
	step     int
	retract  bool
	identity string
	phone    bool
	// version counts the changes; sent is the version the stream has.
	version, sent int
}

// pending is a change asked by a session of this front-end, on its way
// to the bucket.
type pending struct {
	op
	sess int
	// took is told, for a takeover, whether it ended another session's
	// lead.
	took chan bool
}

// NATSRoom is this front-end's part of a room shared through NATS: its
// own sessions, and the shared state as last heard.
type NATSRoom struct {
	cfg    config.Room
	log    func(format string, v ...any)
	id     string
	nc     *nats.Conn
	js     jetstream.JetStream
	kv     jetstream.KeyValue
	prefix string
	stream string
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu    sync.Mutex
	seats *seats
	peak  int
	// st is the room as last heard: the position as in the bucket (at
	// revision rev), and the answers of its poll.
	st    state
	rev   uint64
	peers map[string]peer
	mine  map[int]*outAnswer
	ops   []pending
	// writing is set while the lead loop writes an op taken off ops.
	writing bool
	// frozen says NATS is out of reach: the room keeps its state and
	// every session says so (RoomMsg.Frozen).
	frozen tui.Frozen
	closed bool
	// delivered is the stream sequence of the last answer taken (tests).
	delivered atomic.Uint64

	opWake, ansWake, beatWake, syncWake chan struct{}
	// resync asks the sync loop to read the state back whole (after a
	// reconnect); pollWanted is the poll whose answers it should follow.
	resync     atomic.Bool
	followedMu sync.Mutex
	followed   uint64
	consumer   jetstream.ConsumeContext
	watcher    jetstream.KeyWatcher

	logRate outside.RateLog
}

// newFrontEndID is a random name for this front-end's life: a restarted
// front-end is a new one, and the old one's answers stay out of the
// counts.
func newFrontEndID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// NewNATSRoom joins the room cfg.Name through nc, which should reconnect
// on its own (see OpenShared), at the pace cfg sets (its zeros are the
// defaults): it makes the bucket and the stream if they are missing,
// reads the state and the current poll's answers, and starts saying it is
// here; log gets a line for each trouble with NATS, at most every so
// often. The nats.Conn's disconnect and reconnect events must reach the
// room's Disconnected and Reconnected.
func NewNATSRoom(nc *nats.Conn, id string, cfg config.Room, log func(format string, v ...any)) (*NATSRoom, error) {
	if !config.ValidRoomName(cfg.Name) {
		return nil, &config.Error{Problem: config.BadRoomName, Fields: []string{"Room.Name"}}
	}
	cfg = cfg.WithDefaults()
	if log == nil {
		log = func(string, ...any) {}
	}
	if id == "" {
		id = newFrontEndID()
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &NATSRoom{cfg: cfg, log: log, id: id, nc: nc, js: js, prefix: "toolgate." + cfg.Name, stream: "toolgate-" + cfg.Name + "-answers",
		ctx: ctx, cancel: cancel, seats: newSeats(id), st: state{ballots: newBallots()}, peers: map[string]peer{},
		mine:   map[int]*outAnswer{},
		opWake: make(chan struct{}, 1), ansWake: make(chan struct{}, 1), beatWake: make(chan struct{}, 1), syncWake: make(chan struct{}, 1)}
	if err := r.setUp(); err != nil {
		cancel()
		return nil, err
	}
	if _, err := nc.Subscribe(r.prefix+".here", r.heard); err != nil {
		cancel()
		return nil, err
	}
	r.wg.Add(4)
	go r.syncLoop()
	go r.leadLoop()
	go r.answerLoop()
	go r.beatLoop()
	r.sendBeat(beat{Hello: true})
	return r, nil
}

// ID is this front-end's name in the room.
func (r *NATSRoom) ID() string { return r.id }

// logf logs a trouble with NATS, at most once a minute for one key.
func (r *NATSRoom) logf(key string, format string, v ...any) {
	if r.logRate.Allow(key, time.Minute) {
		r.log(format, v...)
	}
}

// setUp makes the bucket and the stream if need be, reads the state back
// whole, and follows it and its poll's answers.
func (r *NATSRoom) setUp() error {
	ctx, cancel := context.WithTimeout(r.ctx, r.cfg.OpTimeout)
	defer cancel()
	kv, err := r.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: "toolgate-" + r.cfg.Name, Description: "toolgate room " + r.cfg.Name + ": the live position and poll",
		History: 1, MaxValueSize: maxStateBytes, MaxBytes: 1 << 20, Storage: jetstream.FileStorage,
	})
	if err != nil {
		return fmt.Errorf("room %s: key-value bucket: %w", r.cfg.Name, err)
	}
	if _, err := r.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: r.stream, Description: "toolgate room " + r.cfg.Name + ": answers, the latest of each session and poll",
		Subjects: []string{r.prefix + ".ans.>"}, MaxMsgsPerSubject: 1, MaxMsgSize: 512, // with its headers
		MaxMsgs: 1_000_000, MaxBytes: 128 << 20, MaxAge: 24 * time.Hour, Discard: jetstream.DiscardOld,
		Duplicates: 2 * time.Minute, Storage: jetstream.FileStorage,
	}); err != nil {
		return fmt.Errorf("room %s: answers stream: %w", r.cfg.Name, err)
	}
	r.mu.Lock()
	r.kv = kv
	r.mu.Unlock()
	// Watch first, then read: a change in between is not missed (and
	// one seen twice is applied once, by its revision).
	if r.watcher != nil {
		_ = r.watcher.Stop()
	}
	w, err := kv.Watch(r.ctx, stateKey, jetstream.UpdatesOnly())
	if err != nil {
		return fmt.Errorf("room %s: watching the state: %w", r.cfg.Name, err)
	}
	r.watcher = w
	e, err := kv.Get(ctx, stateKey)
	var p position
	var rev uint64
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
	case err != nil:
		return fmt.Errorf("room %s: state: %w", r.cfg.Name, err)
	default:
		rev = e.Revision()
		if p, err = decodePosition(e.Value()); err != nil {
			r.logf("bad state", "room %s: ignored: %v", r.cfg.Name, err)
			p = position{}
		}
	}
	r.adopt(p, rev, true)
	go r.watch(w)
	return r.follow(p.Poll, true)
}

// watch adopts the position as the bucket changes.
func (r *NATSRoom) watch(w jetstream.KeyWatcher) {
	for e := range w.Updates() {
		if e == nil {
			continue
		}
		var p position
		if e.Operation() == jetstream.KeyValuePut {
			var err error
			if p, err = decodePosition(e.Value()); err != nil {
				r.logf("bad state", "room %s: ignored: %v", r.cfg.Name, err)
				continue
			}
		}
		r.adopt(p, e.Revision(), false)
	}
}

// follow reads the answers of poll from the start and takes them as they
// come; again with again, even if it already follows that poll.
func (r *NATSRoom) follow(poll uint64, again bool) error {
	r.followedMu.Lock()
	defer r.followedMu.Unlock()
	if r.consumer != nil && r.followed == poll && !again {
		return nil
	}
	if r.consumer != nil {
		r.consumer.Stop()
		r.consumer = nil
	}
	ctx, cancel := context.WithTimeout(r.ctx, r.cfg.OpTimeout)
	defer cancel()
	c, err := r.js.OrderedConsumer(ctx, r.stream, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{fmt.Sprintf("%s.ans.%d.*.*", r.prefix, poll)},
	})
	if err != nil {
		return fmt.Errorf("room %s: answers of poll %d: %w", r.cfg.Name, poll, err)
	}
	cc, err := c.Consume(func(msg jetstream.Msg) {
		r.take(msg.Subject(), msg.Data())
		if meta, err := msg.Metadata(); err == nil {
			r.delivered.Store(meta.Sequence.Stream)
		}
	})
	if err != nil {
		return fmt.Errorf("room %s: answers of poll %d: %w", r.cfg.Name, poll, err)
	}
	r.consumer, r.followed = cc, poll
	return nil
}

// take counts one answer from the stream, by the rules (see apply): the
// subject names the poll, front-end and session; the body is the step
// and the session's identity if it has one ("7 0123456789abcdef", and
// " w" after it for a phone's: "7 0123456789abcdef w"), or "-"
// for an answer taken back (its student left). The front-end that sent it
// checked who may answer; this one checks what it can.
func (r *NATSRoom) take(subject string, data []byte) {
	rest, ok := strings.CutPrefix(subject, r.prefix+".ans.")
	parts := strings.Split(rest, ".")
	if !ok || len(parts) != 3 || len(data) > maxAnswerBytes || !frontEndRe.MatchString(parts[1]) {
		r.logf("bad answer", "room %s: ignored an answer on %q", r.cfg.Name, subject)
		return
	}
	poll, err1 := strconv.ParseUint(parts[0], 10, 64)
	key := parts[1] + "." + parts[2]
	_, _, okSess := splitSeat(key)
	body, ident, hasIdent := strings.Cut(string(data), " ")
	ident, mark, phone := strings.Cut(ident, " ")
	step, err2 := strconv.Atoi(body)
	retract := string(data) == "-"
	if err1 != nil || !okSess || (!retract && (err2 != nil || step < 0 || step > maxStep)) || (hasIdent && !identityRe.MatchString(ident)) || (phone && mark != phoneMark) {
		r.logf("bad answer", "room %s: ignored an answer on %q", r.cfg.Name, subject)
		return
	}
	o := op{kind: opAnswer, by: key, role: Student, identity: ident, phone: phone, step: step}
	if retract {
		o = op{kind: opRetract, by: key}
	}
	r.mu.Lock()
	if poll != r.st.Poll {
		r.mu.Unlock()
		return
	}
	if _, ok := r.st.ballots.bySession[key]; !ok && !retract && len(r.st.ballots.bySession) >= maxAnswers {
		r.mu.Unlock()
		r.logf("too many answers", "room %s: more than %d answers to one question: the rest are ignored", r.cfg.Name, maxAnswers)
		return
	}
	_, eff := apply(r.st, o)
	r.st.ballots = r.st.ballots.carry(eff)
	r.mu.Unlock()
	r.broadcast(eff.tell, nil)
}

// adopt takes a position from the bucket (or one this front-end wrote):
// a newer revision only, unless force (a position read back whole, say
// after NATS lost its own). A new poll's answers start again; who leads
// here follows the position.
func (r *NATSRoom) adopt(p position, rev uint64, force bool) {
	r.mu.Lock()
	if r.closed || (!force && rev <= r.rev) {
		r.mu.Unlock()
		return
	}
	old := r.st.position
	r.st.position, r.rev = p, rev
	pollChanged := p.Poll != old.Poll
	if pollChanged {
		r.st.ballots = newBallots()
		for id, a := range r.mine {
			if a.poll != p.Poll {
				delete(r.mine, id)
			}
		}
	}
	was, leader, reclaim := int(r.seats.leader.Load()), 0, false
	if m, ok := r.seats.named(p.Leader); ok && !isEnded(m) && m.role == Presenter {
		leader = m.id
	}
	if p.Leader == "" && was != 0 {
		// The state was lost (deleted, purged, or NATS came back without
		// its store), not taken: who led here leads on, and says so again.
		if m, ok := r.seats.members[was]; ok && !isEnded(m) {
			leader, reclaim = was, true
		}
	}
	r.seats.leader.Store(int64(leader))
	if was != 0 && was != leader {
		if m, ok := r.seats.members[was]; ok {
			m.end(tui.TakenOver)
		}
	}
	r.mu.Unlock()
	if reclaim {
		r.enqueue(pending{op: op{kind: opTake, by: seatKey(r.id, leader), reclaim: true}, sess: leader})
	}
	if pollChanged || force {
		r.wake(r.syncWake)
	}
	to := max(tell(old, p), watchers)
	if force {
		to = everyone
	}
	r.broadcast(to, nil)
}

func (r *NATSRoom) wake(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// syncLoop follows the current poll's answers, and reads everything back
// after a reconnect; what fails is tried again.
func (r *NATSRoom) syncLoop() {
	defer r.wg.Done()
	retry := time.NewTimer(time.Hour)
	retry.Stop()
	for {
		select {
		case <-r.ctx.Done():
			return
		case <-r.syncWake:
		case <-retry.C:
		}
		var err error
		if r.resync.Swap(false) {
			if err = r.setUp(); err != nil {
				r.resync.Store(true)
			}
		} else {
			r.mu.Lock()
			poll := r.st.Poll
			r.mu.Unlock()
			err = r.follow(poll, false)
		}
		if err != nil {
			if r.ctx.Err() != nil {
				return
			}
			r.logf("sync", "%v (trying again)", err)
			retry.Reset(r.cfg.Beat)
		} else if r.resync.Load() {
			r.wake(r.syncWake)
		} else {
			r.setFrozen(tui.NotFrozen)
		}
	}
}

// Disconnected freezes the room: NATS is out of reach.
func (r *NATSRoom) Disconnected() {
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if closed {
		return // this front-end left the room: NATS is not out of reach, it is let go
	}
	r.setFrozen(tui.FrozenForNow)
	r.logf("disconnected", "room %s: NATS is out of reach: the room is frozen", r.cfg.Name)
}

// Reconnected reads the room back, sends what waited, and unfreezes it.
func (r *NATSRoom) Reconnected() {
	r.mu.Lock()
	for _, a := range r.mine {
		a.sent = 0 // again: the stream keeps one of each, so twice is once
	}
	now := time.Now()
	for fe, p := range r.peers {
		p.seen = now // they could not be heard either
		r.peers[fe] = p
	}
	r.mu.Unlock()
	r.resync.Store(true)
	r.wake(r.syncWake)
	r.wake(r.ansWake)
	r.wake(r.opWake)
	r.sendBeat(beat{Hello: true})
	r.log("room %s: NATS is back: reading the room back", r.cfg.Name)
}

// ConnectionClosed freezes the room for good: the connection will not
// come back by itself.
func (r *NATSRoom) ConnectionClosed() {
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if !closed {
		r.setFrozen(tui.FrozenForGood)
		r.log("room %s: the connection to NATS is closed: the room stays frozen", r.cfg.Name)
	}
}

func (r *NATSRoom) setFrozen(f tui.Frozen) {
	r.mu.Lock()
	if r.frozen == f || r.frozen == tui.FrozenForGood {
		r.mu.Unlock()
		return
	}
	r.frozen = f
	r.mu.Unlock()
	r.broadcast(everyone, nil)
	if f == tui.NotFrozen {
		// What waited for the room goes now.
		r.wake(r.ansWake)
		r.wake(r.opWake)
	}
}

func (r *NATSRoom) isFrozen() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.frozen != tui.NotFrozen
}

// heard takes another front-end's presence.
func (r *NATSRoom) heard(msg *nats.Msg) {
	if len(msg.Data) > maxBeatBytes {
		return
	}
	var b beat
	if json.Unmarshal(msg.Data, &b) != nil || !frontEndRe.MatchString(b.FE) || b.FE == r.id {
		return
	}
	b.Students, b.Sessions = min(max(b.Students, 0), maxCount), min(max(b.Sessions, 0), maxCount)
	r.mu.Lock()
	old, known := r.peers[b.FE]
	switch {
	case b.Bye:
		delete(r.peers, b.FE)
	case !known && len(r.peers) >= maxPeers:
		r.mu.Unlock()
		r.logf("too many front-ends", "room %s: more than %d front-ends: the rest are not counted", r.cfg.Name, maxPeers)
		return
	default:
		r.peers[b.FE] = peer{students: b.Students, sessions: b.Sessions, seen: time.Now()}
	}
	changed := !known || old.students != b.Students || old.sessions != b.Sessions
	if b.Bye {
		changed = known
	}
	r.mu.Unlock()
	if b.Hello {
		r.wake(r.beatWake) // so that it hears of this one now
	}
	if changed {
		r.broadcast(watchers, nil)
	}
}

// beatLoop says this front-end is here, every Beat and soon after its
// numbers change, and forgets the front-ends unheard for Dead.
func (r *NATSRoom) beatLoop() {
	defer r.wg.Done()
	tick := time.NewTicker(r.cfg.Beat)
	defer tick.Stop()
	for {
		select {
		case <-r.ctx.Done():
			return
		case <-tick.C:
			r.expire()
		case <-r.beatWake:
			// A burst of logins is one beat.
			select {
			case <-time.After(20 * time.Millisecond):
			case <-r.ctx.Done():
				return
			}
		}
		r.sendBeat(beat{})
	}
}

func (r *NATSRoom) sendBeat(b beat) {
	r.mu.Lock()
	sessions, students := r.seats.count()
	r.mu.Unlock()
	b.FE, b.Students, b.Sessions = r.id, students, sessions
	data, _ := json.Marshal(b)
	_ = r.nc.Publish(r.prefix+".here", data)
}

// expire forgets the front-ends unheard for Dead — not while this one
// hears nobody (frozen): then the room keeps its numbers.
func (r *NATSRoom) expire() {
	r.mu.Lock()
	if r.frozen != tui.NotFrozen {
		r.mu.Unlock()
		return
	}
	gone := false
	for fe, p := range r.peers {
		if time.Since(p.seen) > r.cfg.Dead {
			delete(r.peers, fe)
			gone = true
		}
	}
	r.mu.Unlock()
	if gone {
		r.broadcast(watchers, nil)
	}
}

// enqueue hands a change of the state to the lead loop; a step follows
// the step before it, so a held key is one write, not a hundred.
func (r *NATSRoom) enqueue(o pending) {
	r.mu.Lock()
	if n := len(r.ops); o.kind == opGo && n > 0 && r.ops[n-1].kind == opGo && r.ops[n-1].sess == o.sess {
		r.ops[n-1] = o
	} else if len(r.ops) < 64 {
		r.ops = append(r.ops, o)
	} else if o.took != nil {
		o.took <- false
	}
	r.mu.Unlock()
	r.wake(r.opWake)
}

// leadLoop writes the state changes of this front-end's sessions, one at
// a time, compare-and-set; a conflict reads the state and tries again.
func (r *NATSRoom) leadLoop() {
	defer r.wg.Done()
	for {
		select {
		case <-r.ctx.Done():
			return
		case <-r.opWake:
		}
		for {
			r.mu.Lock()
			if len(r.ops) == 0 {
				r.mu.Unlock()
				break
			}
			o := r.ops[0]
			r.writing = true
			r.mu.Unlock()
			took, err := r.write(o)
			if err != nil && (o.kind == opTake || o.kind == opRelease) && r.ctx.Err() == nil {
				// Who leads must get through: again when NATS is back.
				r.logf("lead "+err.Error(), "room %s: %v (trying again)", r.cfg.Name, err)
				r.mu.Lock()
				r.writing = false
				r.mu.Unlock()
				select {
				case <-time.After(r.cfg.Beat):
				case <-r.ctx.Done():
					return
				}
				continue
			}
			if err != nil {
				r.logf("lead "+err.Error(), "room %s: a presenter's key is lost: %v", r.cfg.Name, err)
			}
			r.mu.Lock()
			if len(r.ops) > 0 {
				r.ops = r.ops[1:]
			}
			r.writing = false
			r.mu.Unlock()
			if o.took != nil {
				o.took <- took
			}
		}
	}
}

// write makes one change of the state, by the rules (see apply), on the
// position as last heard, compare-and-set: if another front-end wrote
// first, again on what it wrote.
func (r *NATSRoom) write(o pending) (took bool, err error) {
	for range 20 {
		r.mu.Lock()
		st, rev, kv := r.st, r.rev, r.kv
		_, here := r.seats.members[o.sess]
		frozen := r.frozen != tui.NotFrozen
		if o.kind == opReveal {
			o.tally = r.liveLocked()
		}
		r.mu.Unlock()
		if frozen && o.kind != opTake && o.kind != opRelease {
			return false, errors.New("the room is out of reach")
		}
		if o.kind == opTake && !here {
			return false, nil // left before it could lead
		}
		next, eff := apply(st, o.op)
		took = eff.ousted != "" && r.leads(eff.ousted)
		if !eff.changed && (rev != 0 || o.kind != opTake) {
			return took, nil // nothing to write, or refused by the rules
		}
		data, _ := json.Marshal(next.position)
		ctx, cancel := context.WithTimeout(r.ctx, r.cfg.OpTimeout)
		var newRev uint64
		if rev == 0 {
			newRev, err = kv.Create(ctx, stateKey, data)
		} else {
			newRev, err = kv.Update(ctx, stateKey, data, rev)
		}
		if err == nil {
			cancel()
			r.adopt(next.position, newRev, false)
			return took, nil
		}
		if !errors.Is(err, jetstream.ErrKeyRevisionMismatch) && !errors.Is(err, jetstream.ErrKeyExists) {
			cancel()
			return false, err
		}
		// Another front-end wrote first: read what it wrote, and again.
		e, gerr := kv.Get(ctx, stateKey)
		cancel()
		switch {
		case errors.Is(gerr, jetstream.ErrKeyNotFound):
			r.adopt(position{}, 0, true) // deleted: create it again
		case gerr != nil:
			return false, gerr
		default:
			cur, derr := decodePosition(e.Value())
			if derr != nil {
				// Not a state: written over with ours.
				r.mu.Lock()
				r.rev = e.Revision()
				r.mu.Unlock()
				continue
			}
			// A revision below ours: NATS lost the room and began again.
			r.adopt(cur, e.Revision(), e.Revision() < rev)
		}
	}
	return false, errors.New("the state kept changing under the write")
}

// leads reports whether the session named leader is still there to lead.
func (r *NATSRoom) leads(leader string) bool {
	fe, sess, ok := splitSeat(leader)
	if !ok {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if fe == r.id {
		m, ok := r.seats.members[sess]
		return ok && !isEnded(m)
	}
	_, ok = r.peers[fe]
	return ok
}

// answerLoop sends this front-end's answers to the stream: each the
// latest of its session, again until the stream has it, with an id that
// makes a repeat a no-op.
func (r *NATSRoom) answerLoop() {
	defer r.wg.Done()
	type send struct {
		sess, version int
		poll          uint64
		body          string
	}
	for {
		select {
		case <-r.ctx.Done():
			return
		case <-r.ansWake:
		}
		for !r.isFrozen() && r.ctx.Err() == nil {
			var batch []send
			r.mu.Lock()
			for sess, a := range r.mine {
				if a.sent == a.version || a.poll != r.st.Poll {
					continue
				}
				body := strconv.Itoa(a.step)
				if a.identity != "" {
					body += " " + a.identity
					if a.phone {
						body += " " + phoneMark
					}
				}
				if a.retract {
					body = "-"
				}
				batch = append(batch, send{sess: sess, version: a.version, poll: a.poll, body: body})
			}
			r.mu.Unlock()
			if len(batch) == 0 {
				break
			}
			futures := make([]jetstream.PubAckFuture, len(batch))
			var failed error
			for i, s := range batch {
				subject := fmt.Sprintf("%s.ans.%d.%s.%d", r.prefix, s.poll, r.id, s.sess)
				id := fmt.Sprintf("%s.%d.%d.%d", r.id, s.sess, s.poll, s.version)
				f, err := r.js.PublishAsync(subject, []byte(s.body), jetstream.WithMsgID(id), jetstream.WithExpectStream(r.stream))
				if err != nil {
					failed = err
					break
				}
				futures[i] = f
			}
			deadline := time.NewTimer(r.cfg.OpTimeout)
			for i, f := range futures {
				if f == nil {
					continue
				}
				select {
				case <-f.Ok():
					r.mu.Lock()
					if a, ok := r.mine[batch[i].sess]; ok && a.version == batch[i].version {
						a.sent = a.version
						if a.retract {
							delete(r.mine, batch[i].sess)
						}
					}
					r.mu.Unlock()
				case err := <-f.Err():
					failed = err
				case <-deadline.C:
					failed = errors.New("no acknowledgement in time")
				case <-r.ctx.Done():
					deadline.Stop()
					return
				}
			}
			deadline.Stop()
			if failed != nil {
				r.logf("answers", "room %s: answers wait: %v", r.cfg.Name, failed)
				select {
				case <-time.After(r.cfg.Beat):
				case <-r.ctx.Done():
					return
				}
			}
		}
	}
}

// counted reports whether the answer of session still counts: its
// front-end is this one, or one still heard.
func (r *NATSRoom) counted(session string) bool {
	fe := session[:min(len(session), 16)]
	if fe == r.id {
		return true
	}
	_, ok := r.peers[fe]
	return ok
}

// liveLocked is the tally of the answers now: those of the front-ends
// still here, of the students of all of them as last heard.
func (r *NATSRoom) liveLocked() Tally {
	_, students := r.seats.count()
	for _, p := range r.peers {
		students += p.students
	}
	return r.st.ballots.tally(r.counted, students)
}

// statsLocked adds up the room: this front-end's sessions, the others'
// as last heard, and the tally shown (the one kept at a reveal until the
// next question).
func (r *NATSRoom) statsLocked() (Stats, map[int]int) {
	sessions, _ := r.seats.count()
	for _, p := range r.peers {
		sessions += p.sessions
	}
	r.peak = max(r.peak, sessions)
	t := r.st.shown(r.liveLocked())
	return Stats{Sessions: sessions, Peak: r.peak, Students: t.Students, Answered: t.Answered, Anonymous: t.Anonymous, Phone: t.Phone}, t.Counts
}

// Stats are the room's numbers as this front-end knows them.
func (r *NATSRoom) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, _ := r.statsLocked()
	return s
}

// Counts is the current question's answers by predicted step.
func (r *NATSRoom) Counts() map[int]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, c := r.statsLocked()
	return c
}

// Closing is ServerClosing: the room goes on at the other front-ends —
// unless it is out of reach here (frozen), when nothing goes on for now.
func (r *NATSRoom) Closing() tui.Goodbye {
	if r.isFrozen() {
		return tui.ClosingOutOfReach
	}
	return tui.ServerClosing
}

// broadcast posts the room's state to the sessions to hear of it, and to
// newcomer; the leader and the notes screens also get the histogram.
func (r *NATSRoom) broadcast(to audience, newcomer *member) {
	if to == nobody && newcomer == nil {
		return
	}
	r.mu.Lock()
	st, counts := r.statsLocked()
	msg := message(r.st.position, st)
	msg.Frozen = r.frozen
	members := r.seats.pick(to, newcomer)
	r.mu.Unlock()
	r.seats.post(members, msg, counts)
}

// Join adds a session; a presenter's takes the room over, on whichever
// front-end the session that led it is (waited for at most OpTimeout: if
// NATS is out of reach, it leads when NATS is back).
func (r *NATSRoom) Join(role Role, send func(tui.RoomMsg)) Member { return r.JoinAs(role, "", send) }

// JoinAs is Join with the session's identity (see Identity).
func (r *NATSRoom) JoinAs(role Role, identity string, send func(tui.RoomMsg)) Member {
	return r.join(role, identity, false, send)
}

// JoinPhone is JoinAs for a student by phone (see Room).
func (r *NATSRoom) JoinPhone(identity string, send func(tui.RoomMsg)) Member {
	return r.join(Student, identity, true, send)
}

func (r *NATSRoom) join(role Role, identity string, phone bool, send func(tui.RoomMsg)) Member {
	r.mu.Lock()
	m := r.seats.add(role, identity, phone, send)
	r.mu.Unlock()
	c := &natsClient{room: r, m: m}
	if role == Presenter {
		took := make(chan bool, 1)
		r.enqueue(pending{op: op{kind: opTake, by: c.key()}, sess: m.id, took: took})
		select {
		case c.tookOver = <-took:
		case <-time.After(r.cfg.OpTimeout):
		}
	}
	r.wake(r.beatWake)
	r.broadcast(watchers, m)
	return c
}

// End says the last word to this front-end's sessions.
func (r *NATSRoom) End(g tui.Goodbye) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seats.end(g)
}

// Close leaves the room: the others hear this front-end is gone (and its
// students' answers with it), and the room's goroutines end. The
// connection is the caller's.
func (r *NATSRoom) Close() {
	frozen := r.isFrozen()
	r.stop()
	// The others drop this front-end, its students and their answers.
	r.sendBeat(beat{Bye: true})
	if !frozen {
		_ = r.nc.FlushTimeout(r.cfg.OpTimeout)
	}
}

// stop ends the room's goroutines without a word: a crash, as the others
// see it.
func (r *NATSRoom) stop() {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	r.cancel()
	r.wg.Wait()
	r.followedMu.Lock()
	if r.consumer != nil {
		r.consumer.Stop()
	}
	r.followedMu.Unlock()
	if r.watcher != nil {
		_ = r.watcher.Stop()
	}
}

// natsClient is one session's handle on a NATSRoom.
type natsClient struct {
	room     *NATSRoom
	m        *member
	tookOver bool
}

func (c *natsClient) TookOver() bool         { return c.tookOver }
func (c *natsClient) Presenter() bool        { return c.room.seats.leads(c.m) }
func (c *natsClient) Ended() <-chan struct{} { return c.m.ended }
func (c *natsClient) Goodbye() tui.Goodbye   { return c.m.said() }
func (c *natsClient) key() string            { return c.room.seats.key(c.m) }

// Go makes a scenario live at a step (see apply). A session that does
// not lead here asks nothing of NATS.
func (c *natsClient) Go(id string, step int) {
	if c.Presenter() {
		c.room.enqueue(pending{op: op{kind: opGo, by: c.key(), live: id, step: step}, sess: c.m.id})
	}
}

// Open starts a new question on the live scenario (see apply).
func (c *natsClient) Open() {
	if c.Presenter() {
		c.room.enqueue(pending{op: op{kind: opOpen, by: c.key()}, sess: c.m.id})
	}
}

// Reveal closes the question and shows everyone the walk; the counts
// shown are kept until the next question (see apply).
func (c *natsClient) Reveal() {
	if c.Presenter() {
		c.room.enqueue(pending{op: op{kind: opReveal, by: c.key()}, sess: c.m.id})
	}
}

// Answer records a student's prediction for the open question; a second
// answer replaces the first. The rules decide here whether it counts
// (see apply); the stream then brings it to every front-end.
func (c *natsClient) Answer(step int) {
	r := c.room
	r.mu.Lock()
	_, eff := apply(r.st, r.seats.answer(c.m, step))
	if eff.cast == nil {
		r.mu.Unlock()
		return
	}
	a := r.mine[c.m.id]
	if a == nil {
		a = &outAnswer{}
		r.mine[c.m.id] = a
	}
	a.poll, a.step, a.retract, a.identity, a.phone = r.st.Poll, step, false, c.m.identity, c.m.phone
	a.version++
	r.mu.Unlock()
	r.wake(r.ansWake)
}

// Leave removes the session; its answer is taken back.
func (c *natsClient) Leave() {
	r := c.room
	id := c.m.id
	r.mu.Lock()
	led := r.seats.leads(c.m)
	r.seats.remove(id)
	if a, ok := r.mine[id]; ok {
		if a.poll == r.st.Poll {
			a.retract = true
			a.version++
		} else {
			delete(r.mine, id)
		}
	}
	r.mu.Unlock()
	if led {
		r.enqueue(pending{op: op{kind: opRelease, by: c.key()}, sess: id})
	}
	r.wake(r.ansWake)
	r.wake(r.beatWake)
	r.broadcast(watchers, nil)
}

var (
	_ Room   = (*NATSRoom)(nil)
	_ Member = (*natsClient)(nil)
)
