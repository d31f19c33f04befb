package classroom

import (
	"net"
	"sync"
	"time"

	"toolgate/classroom/internal/outside"
)

// fdReserve is the descriptors kept for everything but connections: the
// listener, the host key, the keys files, the runtime's own.
const fdReserve = 64

// greetGrace is how long a connection may take to finish the SSH
// handshake and ask to log in before, when the waiting places are full,
// it gives its place to a new one. A client on a slow network needs a
// second at most.
const greetGrace = 2 * time.Second

// gate admits connections. One that has not started its session yet
// (handshake, login, PTY and shell requests) is waiting: waiting ones are
// capped per source and in total, and closed when the login deadline
// passes. Every connection is refused at once when the process nears its
// file descriptor limit, so that a flood cannot take the descriptors the
// students in the room need.
//
// A connection that has sent a wrong code waits for its answer (see
// penalties) out of the waiting places, among at most maxWaiting such
// (the oldest of those with most wrong codes goes when there are more):
// a student with the right code behind the same NAT as someone flooding
// wrong codes is never kept out by the flood. A full gate also makes room
// by closing a connection that has not asked to log in within greetGrace.
type gate struct {
	maxWaiting, maxPerSource, maxOpen int
	timeout                           time.Duration
	// refused is told why a connection was refused, and whether it was
	// for its own address.
	refused func(source, why string, perSource bool)
	// evicted is told a waiting connection was closed for a new one.
	evicted func(source, why string)
	now     func() time.Time

	mu      sync.Mutex
	waiting int
	// penalized counts the connections that sent a wrong code and wait
	// for their answer, out of the waiting places.
	penalized int
	bySource  map[string]int
	conns     map[*gateConn]struct{}
	closedAll bool
}

func newGate(maxWaiting, maxPerSource, maxOpen int, timeout time.Duration, refused func(source, why string, perSource bool)) *gate {
	return &gate{maxWaiting: maxWaiting, maxPerSource: maxPerSource, maxOpen: maxOpen, timeout: timeout,
		refused: refused, evicted: func(string, string) {}, now: time.Now, bySource: map[string]int{}, conns: map[*gateConn]struct{}{}}
}

// gateListener passes on only the connections the gate admits.
type gateListener struct {
	net.Listener
	g *gate
}

func (l gateListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if gc := l.g.admit(c); gc != nil {
			return gc, nil
		}
	}
}

// gateConn is an admitted connection; closing it gives its place back.
type gateConn struct {
	net.Conn
	g      *gate
	source string
	// waiting, penalized and closed, fails and asked are guarded by g.mu.
	waiting, penalized bool
	closed             bool
	timer              *time.Timer
	since              time.Time
	// fails counts the wrong codes it sent; asked is set when it has
	// finished the handshake and asked to log in.
	fails int
	asked bool
}

// admit takes c in, or closes it and says why.
func (g *gate) admit(c net.Conn) *gateConn {
	source := outside.Source(c.RemoteAddr())
	now := g.now()
	g.mu.Lock()
	var evicted []*gateConn
	why, perSource := "", false
	for why == "" {
		var victim *gateConn
		switch {
		case g.closedAll:
			why = "the server is closing"
		case len(g.conns) >= g.maxOpen:
			if victim = g.victimLocked("", now, true); victim == nil {
				why = "near the file descriptor limit"
			}
		case g.waiting >= g.maxWaiting:
			if victim = g.victimLocked("", now, false); victim == nil {
				why = "too many connections waiting to log in"
			}
		case g.bySource[source] >= g.maxPerSource:
			if victim = g.victimLocked(source, now, false); victim == nil {
				why, perSource = "too many connections from this address waiting to log in", true
			}
		}
		if victim == nil {
			break
		}
		g.dropLocked(victim)
		evicted = append(evicted, victim)
	}
	if why != "" {
		g.mu.Unlock()
		g.closeEvicted(evicted)
		g.refused(source, why, perSource)
		_ = c.Close()
		return nil
	}
	gc := &gateConn{Conn: c, g: g, source: source, waiting: true, since: now}
	g.conns[gc] = struct{}{}
	g.waiting++
	g.bySource[source]++
	// The deadline closes a connection that has not started its session
	// in time, whatever it is doing: idle, mid-handshake, or logged in
	// without asking for a shell.
	gc.timer = time.AfterFunc(g.timeout, func() { _ = gc.Close() })
	g.mu.Unlock()
	g.closeEvicted(evicted)
	return gc
}

// victimLocked is the connection to close for a new one: a waiting one
// (of source, or of any address) that has not asked to log in within
// greetGrace, the oldest; with penalized too, first one that sent a wrong
// code (the one with most, then the oldest). One that asked to log in —
// a student typing the code, or logged in and starting a session — or
// that is still in its handshake keeps its place.
func (g *gate) victimLocked(source string, now time.Time, penalized bool) *gateConn {
	var best *gateConn
	worse := func(a, b *gateConn) bool { // a goes before b
		if a.penalized != b.penalized {
			return a.penalized
		}
		if a.fails != b.fails {
			return a.fails > b.fails
		}
		return a.since.Before(b.since)
	}
	for c := range g.conns {
		switch {
		case c.penalized && penalized:
		case c.waiting && (source == "" || c.source == source) && !c.asked && now.Sub(c.since) >= greetGrace:
		default:
			continue
		}
		if best == nil || worse(c, best) {
			best = c
		}
	}
	return best
}

// dropLocked takes c out of the gate; closeEvicted closes it after.
func (g *gate) dropLocked(c *gateConn) {
	c.closed = true
	g.leaveWaitingLocked(c)
	delete(g.conns, c)
}

func (g *gate) closeEvicted(cs []*gateConn) {
	for _, c := range cs {
		why := "it had not asked to log in"
		c.g.mu.Lock()
		fails := c.fails
		c.g.mu.Unlock()
		if fails > 0 {
			why = "it had sent a wrong code"
		}
		g.evicted(c.source, why)
		_ = c.Conn.Close()
	}
}

// failed tells the gate c sent a wrong code: it leaves the waiting places
// for the penalized; if they are more than maxWaiting, the oldest of those
// with most wrong codes is closed.
func (c *gateConn) failed() {
	g := c.g
	g.mu.Lock()
	c.fails++
	c.asked = true
	var out *gateConn
	if c.waiting && !c.closed {
		c.waiting = false
		g.waiting--
		if g.bySource[c.source]--; g.bySource[c.source] <= 0 {
			delete(g.bySource, c.source)
		}
		c.penalized = true
		g.penalized++
		if g.penalized > g.maxWaiting {
			if out = g.victimLocked("", g.now(), true); out != nil {
				g.dropLocked(out)
			}
		}
	}
	g.mu.Unlock()
	if out != nil {
		g.closeEvicted([]*gateConn{out})
	}
}

// askedToLogIn tells the gate c has finished the handshake and asks to
// log in.
func (c *gateConn) askedToLogIn() {
	c.g.mu.Lock()
	c.asked = true
	c.g.mu.Unlock()
}

// leaveWaitingLocked takes c off the waiting count.
func (g *gate) leaveWaitingLocked(c *gateConn) {
	if !c.waiting && !c.penalized {
		return
	}
	c.timer.Stop()
	if c.penalized {
		c.penalized = false
		g.penalized--
		return
	}
	c.waiting = false
	g.waiting--
	if g.bySource[c.source]--; g.bySource[c.source] <= 0 {
		delete(g.bySource, c.source)
	}
}

// started tells the gate c has started its session: it is no longer
// waiting, and the login deadline no longer applies.
func (c *gateConn) started() {
	c.g.mu.Lock()
	defer c.g.mu.Unlock()
	c.g.leaveWaitingLocked(c)
}

// Close closes the connection and gives its place back; it may be called
// more than once.
func (c *gateConn) Close() error {
	g := c.g
	g.mu.Lock()
	if c.closed {
		g.mu.Unlock()
		return nil
	}
	c.closed = true
	g.leaveWaitingLocked(c)
	delete(g.conns, c)
	g.mu.Unlock()
	return c.Conn.Close()
}

// closeAll closes every connection and refuses new ones.
func (g *gate) closeAll() {
	g.mu.Lock()
	g.closedAll = true
	conns := make([]*gateConn, 0, len(g.conns))
	for c := range g.conns {
		conns = append(conns, c)
	}
	g.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
	}
}

// closeWaiting closes the connections that have not started a session.
func (g *gate) closeWaiting() {
	g.mu.Lock()
	var conns []*gateConn
	for c := range g.conns {
		if c.waiting || c.penalized {
			conns = append(conns, c)
		}
	}
	g.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
	}
}

// counts are the connections open and waiting.
func (g *gate) counts() (open, waiting int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.conns), g.waiting
}
