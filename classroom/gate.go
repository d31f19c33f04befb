package classroom

import (
	"net"
	"sync"
	"time"
)

// fdReserve is the descriptors kept for everything but connections: the
// listener, the host key, the keys files, the runtime's own.
const fdReserve = 64

// gate admits connections. One that has not started its session yet
// (handshake, login, PTY and shell requests) is waiting: waiting ones are
// capped per source and in total, and closed when the login deadline
// passes. Every connection is refused at once when the process nears its
// file descriptor limit, so that a flood cannot take the descriptors the
// students in the room need.
type gate struct {
	maxWaiting, maxPerSource, maxOpen int
	timeout                           time.Duration
	// refused is told why a connection was refused, and whether it was
	// for its own address.
	refused func(source, why string, perSource bool)

	mu        sync.Mutex
	waiting   int
	bySource  map[string]int
	conns     map[*gateConn]struct{}
	closedAll bool
}

func newGate(maxWaiting, maxPerSource, maxOpen int, timeout time.Duration, refused func(source, why string, perSource bool)) *gate {
	return &gate{maxWaiting: maxWaiting, maxPerSource: maxPerSource, maxOpen: maxOpen, timeout: timeout,
		refused: refused, bySource: map[string]int{}, conns: map[*gateConn]struct{}{}}
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
	// waiting and closed are guarded by g.mu.
	waiting bool
	closed  bool
	timer   *time.Timer
}

// admit takes c in, or closes it and says why.
func (g *gate) admit(c net.Conn) *gateConn {
	source := sourceOf(c.RemoteAddr())
	g.mu.Lock()
	why, perSource := "", false
	switch {
	case g.closedAll:
		why = "the server is closing"
	case len(g.conns) >= g.maxOpen:
		why = "near the file descriptor limit"
	case g.waiting >= g.maxWaiting:
		why = "too many connections waiting to log in"
	case g.bySource[source] >= g.maxPerSource:
		why, perSource = "too many connections from this address waiting to log in", true
	}
	if why != "" {
		g.mu.Unlock()
		g.refused(source, why, perSource)
		_ = c.Close()
		return nil
	}
	gc := &gateConn{Conn: c, g: g, source: source, waiting: true}
	g.conns[gc] = struct{}{}
	g.waiting++
	g.bySource[source]++
	// The deadline closes a connection that has not started its session
	// in time, whatever it is doing: idle, mid-handshake, or logged in
	// without asking for a shell.
	gc.timer = time.AfterFunc(g.timeout, func() { _ = gc.Close() })
	g.mu.Unlock()
	return gc
}

// leaveWaitingLocked takes c off the waiting count.
func (g *gate) leaveWaitingLocked(c *gateConn) {
	if !c.waiting {
		return
	}
	c.waiting = false
	c.timer.Stop()
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
		if c.waiting {
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
