package classroom

import (
	"bytes"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"toolgate/classroom/internal/outside"
)

// fdReserve is the descriptors kept for everything but connections: the
// listener, the host key, the keys files, the runtime's own.
const fdReserve = 64

// A waiting connection's progress, least first: at the waiting caps a
// new connection takes the place of the one with least.
const (
	// greeting: the client has not sent its version line (SSH-2.0-…
	// and a newline); a client sends it as soon as it connects.
	greeting = iota
	// handshaking: the key exchange, up to asking to log in.
	handshaking
	// asking: it asked to log in and has not given a right code (a
	// student at the code prompt).
	asking
	// loggedIn: it gave a right code, or opened a channel (which only a
	// login allows), and is starting its session: never closed for a
	// new one.
	loggedIn
)

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
// wrong codes is never kept out by the flood.
//
// At the waiting caps (in total, or of the new connection's address) a
// new connection is not refused: it takes the place of the waiting one
// that has made least progress (see greeting and victimLocked), of
// those the one longest without a byte from its client; one the server
// has not had the chance to hear (versionGrace) is waited for instead
// (see admit). A client that connects and says nothing, as fast as it
// reconnects, thus holds places only until the next of its own
// connections come; a student's client, which sends its version line at
// once and the key exchange on its heels, is past them.
// Only a connection that has logged in keeps its place whatever comes,
// and only when every waiting place is such is a new one refused. Near
// the descriptor limit a new connection is refused (after the wrong
// codes' places): that protects the process.
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
	// changed is signalled when a place is given back or a connection is
	// read for the first time (see admit).
	changed *sync.Cond
	// admitted counts the connections taken in: the order of two heard
	// at the same instant.
	admitted  uint64
	closedAll bool
}

func newGate(maxWaiting, maxPerSource, maxOpen int, timeout time.Duration, refused func(source, why string, perSource bool)) *gate {
	g := &gate{maxWaiting: maxWaiting, maxPerSource: maxPerSource, maxOpen: maxOpen, timeout: timeout,
		refused: refused, evicted: func(string, string) {}, now: time.Now, bySource: map[string]int{}, conns: map[*gateConn]struct{}{}}
	g.changed = sync.NewCond(&g.mu)
	return g
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
	// waiting, penalized, closed, fails and progress are guarded by g.mu.
	waiting, penalized bool
	closed             bool
	timer              *time.Timer
	// seq is its place in the order of admission.
	seq uint64
	// fails counts the wrong codes it sent; progress is how far it has
	// come (greeting…loggedIn).
	fails    int
	progress int
	// heard is when its client last sent a byte (UnixNano of g.now),
	// until its session starts (then inSession is set).
	heard     atomic.Int64
	inSession atomic.Bool
	// read is set once the server reads it, at readAt (guarded by g.mu):
	// until then, however long it waits for its turn, it has not been
	// silent. spoke is set when it sent part of its version line.
	read   bool
	readAt time.Time
	spoke  atomic.Bool
	// firstRead is set by Read's first call; only Read uses it.
	firstRead bool
	// versioned is set once its version line is read; only Read uses it.
	versioned bool
}

// Read notes that the client is heard, and when its version line is in.
func (c *gateConn) Read(p []byte) (int, error) {
	if !c.firstRead {
		c.firstRead = true
		c.g.mu.Lock()
		c.read, c.readAt = true, c.g.now()
		c.g.changed.Broadcast()
		c.g.mu.Unlock()
	}
	n, err := c.Conn.Read(p)
	if n > 0 && !c.inSession.Load() {
		c.heard.Store(c.g.now().UnixNano())
		switch {
		case c.versioned:
		case bytes.IndexByte(p[:n], '\n') >= 0:
			c.versioned = true
			c.progressed(handshaking)
		default:
			c.spoke.Store(true)
		}
	}
	return n, err
}

// admit takes c in, or closes it and says why. At the waiting caps it may
// wait for a place to go (see victimLocked): connections then come in no
// faster than the server reads them, and a client's version line, sent
// as it connects, is in by then; otherwise a flood's connections put
// each other and a student's out before the server had a look at any.
func (g *gate) admit(c net.Conn) *gateConn {
	source := outside.Source(c.RemoteAddr())
	g.mu.Lock()
	var evicted []*gateConn
	why, perSource := "", false
	for why == "" {
		var victim *gateConn
		var wait time.Duration
		switch {
		case g.closedAll:
			why = "the server is closing"
		case len(g.conns) >= g.maxOpen:
			if victim, _ = g.victimLocked("", true, false); victim == nil {
				why = "near the file descriptor limit"
			}
		case g.bySource[source] >= g.maxPerSource:
			// First: a place of the address is a place in all too. Below
			// the cap in all (a hall not behind one NAT), a place of the
			// address goes at once: waiting would hold up every other
			// address for this one.
			if victim, wait = g.victimLocked(source, false, g.maxPerSource < g.maxWaiting); victim == nil && wait == 0 {
				why, perSource = "too many connections from this address waiting to log in", true
			}
		case g.waiting >= g.maxWaiting:
			if victim, wait = g.victimLocked("", false, false); victim == nil && wait == 0 {
				why = "too many connections waiting to log in"
			}
		}
		if wait > 0 {
			g.waitLocked(wait)
			continue
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
	now := g.now()
	g.admitted++
	gc := &gateConn{Conn: c, g: g, source: source, waiting: true, seq: g.admitted}
	gc.heard.Store(now.UnixNano())
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

// versionGrace is how long the server waits on a new connection for the
// first byte of its version line before, at the waiting caps, it may go
// for a new one. A client sends the line as it connects (at worst on
// the server's, one round trip later).
const versionGrace = 500 * time.Millisecond

// victimLocked is the connection to close for a new one, never one that
// has logged in: with penalized, one that sent a wrong code (the one with
// most); else a waiting one (of source, or of any address): the one with
// least progress (of those greeting, first one that sent part of its
// version line and stopped: a client writes the line at once), then the
// one longest without a byte from its client, then the oldest.
//
// A waiting one that the server has not read yet, or has read for less
// than versionGrace without a byte, is not taken yet: when no other one
// greeting can go, wait > 0 says to wait (at most that long) and look
// again. With now, it is taken all the same.
func (g *gate) victimLocked(source string, penalized, now bool) (best *gateConn, wait time.Duration) {
	at := g.now()
	worse := func(a, b *gateConn) bool { // a goes before b
		switch {
		case a.penalized != b.penalized:
			return a.penalized
		case a.fails != b.fails:
			return a.fails > b.fails
		case a.progress != b.progress:
			return a.progress < b.progress
		case a.progress == greeting && a.spoke.Load() != b.spoke.Load():
			return a.spoke.Load()
		}
		if ha, hb := a.heard.Load(), b.heard.Load(); ha != hb {
			return ha < hb
		}
		return a.seq < b.seq
	}
	sooner := func(d time.Duration) {
		if wait == 0 || d < wait {
			wait = d
		}
	}
	for c := range g.conns {
		switch {
		case c.progress == loggedIn:
			continue
		case penalized && c.penalized:
		case !penalized && c.waiting && (source == "" || c.source == source):
			if now || c.progress != greeting || c.spoke.Load() {
				break
			}
			// Not heard from yet: has it had its chance?
			if !c.read {
				sooner(versionGrace) // or its reading, signalled
				continue
			}
			if left := versionGrace - at.Sub(c.readAt); left > 0 {
				sooner(left)
				continue
			}
		default:
			continue
		}
		if best == nil || worse(c, best) {
			best = c
		}
	}
	if best != nil && best.progress == greeting {
		return best, 0
	}
	return best, wait
}

// waitLocked waits until a place is given back, a connection is read,
// or d has passed.
func (g *gate) waitLocked(d time.Duration) {
	t := time.AfterFunc(d, func() {
		g.mu.Lock()
		g.changed.Broadcast()
		g.mu.Unlock()
	})
	g.changed.Wait()
	t.Stop()
}

// dropLocked takes c out of the gate; closeEvicted closes it after.
func (g *gate) dropLocked(c *gateConn) {
	c.closed = true
	g.leaveWaitingLocked(c)
	delete(g.conns, c)
}

func (g *gate) closeEvicted(cs []*gateConn) {
	for _, c := range cs {
		c.g.mu.Lock()
		fails, progress := c.fails, c.progress
		c.g.mu.Unlock()
		why := "it had not sent its version"
		switch {
		case fails > 0:
			why = "it had sent a wrong code"
		case progress == handshaking:
			why = "it had not asked to log in"
		case progress == asking:
			why = "it had not given a code"
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
	c.progress = max(c.progress, asking)
	var out *gateConn
	if c.waiting && !c.closed {
		c.waiting = false
		g.waiting--
		if g.bySource[c.source]--; g.bySource[c.source] <= 0 {
			delete(g.bySource, c.source)
		}
		g.changed.Broadcast()
		c.penalized = true
		g.penalized++
		if g.penalized > g.maxWaiting {
			if out, _ = g.victimLocked("", true, false); out != nil {
				g.dropLocked(out)
			}
		}
	}
	g.mu.Unlock()
	if out != nil {
		g.closeEvicted([]*gateConn{out})
	}
}

// progressed tells the gate c has come to p (greeting…loggedIn).
func (c *gateConn) progressed(p int) {
	c.g.mu.Lock()
	c.progress = max(c.progress, p)
	c.g.mu.Unlock()
}

// leaveWaitingLocked takes c off the waiting count.
func (g *gate) leaveWaitingLocked(c *gateConn) {
	if !c.waiting && !c.penalized {
		return
	}
	c.timer.Stop()
	g.changed.Broadcast()
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
	c.inSession.Store(true)
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
	g.changed.Broadcast()
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
