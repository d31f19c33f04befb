package web

import (
	"context"
	"net"
	"sync"
	"time"

	"toolgate/classroom/internal/outside"
)

// capListener caps the connections open, in total and from one address
// (0: no cap from one address: a hall behind one NAT is one address).
// SSE streams are connections like any other and count. When the caps
// are reached a new connection takes the place of one that does nothing
// a right code needs, so that nothing sent from the hall's address keeps
// a right one out: first one that sent a wrong code and waits for its
// answer; then one that has had no request served for IdleGrace (a
// client that trickles its headers, or opens connections and says
// nothing); then a phone's second stream (a phone needs one); then the
// one longest without a request served, however briefly. Only when
// every place serves a request is a new connection refused: a client
// that reconnects as fast as it can holds places only for as long as it
// takes the caps' worth of its own connections to come after them, and
// a right code's request, once read, is served.
type capListener struct {
	net.Listener
	total, perSource int
	refused          func(source, why string)
	now              func() time.Time

	mu       sync.Mutex
	open     map[*capConn]struct{}
	bySource map[string]int
	// streams counts the streams open of each phone.
	streams map[string]int
}

// IdleGrace is how long a connection may go without a request being
// served before, when the caps are reached, it gives its place to a new
// one. A phone sends its request as soon as it connects (after its TLS
// handshake); a second is plenty on a hall's network.
const IdleGrace = 2 * time.Second

func newCapListener(l net.Listener, total, perSource int, refused func(source, why string)) *capListener {
	return &capListener{Listener: l, total: total, perSource: perSource, refused: refused, now: time.Now,
		open: map[*capConn]struct{}{}, bySource: map[string]int{}, streams: map[string]int{}}
}

// capConn is an admitted connection.
type capConn struct {
	net.Conn
	l      *capListener
	source string
	since  time.Time
	// The rest is guarded by l.mu.
	penalized bool
	closed    bool
	fails     int
	// busy counts the requests being served (a stream is one until it
	// ends); idle is when the last one ended, or the connection opened.
	busy int
	idle time.Time
	// stream is the phone whose stream the connection carries ("": none).
	stream string
}

// full is what a refused connection reads before it is closed: plain
// HTTP can read it; TLS cannot, and sees a closed connection.
const full = "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if cc := l.admit(c); cc != nil {
			return cc, nil
		}
	}
}

func (l *capListener) admit(c net.Conn) *capConn {
	source := outside.Source(c.RemoteAddr())
	l.mu.Lock()
	var evicted []*capConn
	why := ""
	for {
		over := ""
		// The address's own cap first: a newcomer from an address at its
		// cap gives up one of that address's places (which frees one in
		// the total too), never another address's.
		switch {
		case l.perSource > 0 && l.bySource[source] >= l.perSource:
			over = "too many connections from this address"
		case len(l.open) >= l.total:
			over = "too many connections"
		}
		if over == "" {
			break
		}
		victim := l.victimLocked(source, over != "too many connections")
		if victim == nil {
			why = over
			break
		}
		l.dropLocked(victim)
		evicted = append(evicted, victim)
	}
	var cc *capConn
	if why == "" {
		now := l.now()
		cc = &capConn{Conn: c, l: l, source: source, since: now, idle: now}
		l.open[cc] = struct{}{}
		l.bySource[source]++
	}
	l.mu.Unlock()
	for _, v := range evicted {
		_ = v.Conn.Close()
	}
	if cc == nil {
		l.refused(source, why)
		_ = c.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = c.Write([]byte(full))
		_ = c.Close()
	}
	return cc
}

// victimLocked is the connection to close for a new one (of source,
// when the cap is the address's): one waiting for the answer to a wrong
// code, the one with most wrong codes, then the oldest; else one with no
// request served for IdleGrace, the longest idle; else the oldest of a
// phone's streams after its first; else the one longest without a
// request served.
func (l *capListener) victimLocked(source string, ofSource bool) *capConn {
	now := l.now()
	var best *capConn
	const (
		serving = iota
		idle
		secondStream
		idleLong
		penalized
	)
	rank := func(c *capConn) int {
		switch {
		case c.penalized:
			return penalized
		case c.busy == 0 && now.Sub(c.idle) >= IdleGrace:
			return idleLong
		case c.stream != "" && l.streams[c.stream] > 1:
			return secondStream
		case c.busy == 0:
			return idle
		}
		return serving
	}
	better := func(c, than *capConn) bool {
		rc, rt := rank(c), rank(than)
		switch {
		case rc != rt:
			return rc > rt
		case rc == penalized && c.fails != than.fails:
			return c.fails > than.fails
		case rc == idleLong || rc == idle:
			return c.idle.Before(than.idle)
		}
		return c.since.Before(than.since)
	}
	for c := range l.open {
		if rank(c) == serving || (ofSource && c.source != source) {
			continue
		}
		if best == nil || better(c, best) {
			best = c
		}
	}
	return best
}

func (l *capListener) dropLocked(c *capConn) {
	if c.closed {
		return
	}
	c.closed = true
	l.carryLocked(c, "")
	delete(l.open, c)
	if l.bySource[c.source]--; l.bySource[c.source] <= 0 {
		delete(l.bySource, c.source)
	}
}

// Close gives the connection's place back.
func (c *capConn) Close() error {
	c.l.mu.Lock()
	c.l.dropLocked(c)
	c.l.mu.Unlock()
	return c.Conn.Close()
}

// penalize marks the connection as waiting for a wrong code's answer
// (until done is called), and says how many wrong codes it sent.
func (c *capConn) penalize() (fails int, done func()) {
	c.l.mu.Lock()
	c.fails++
	c.penalized = true
	fails = c.fails
	c.l.mu.Unlock()
	return fails, func() {
		c.l.mu.Lock()
		c.penalized = false
		c.l.mu.Unlock()
	}
}

// serving marks a request being served on the connection until done is
// called: a connection serving nothing gives its place up first.
func (c *capConn) serving() (done func()) {
	c.l.mu.Lock()
	c.busy++
	c.l.mu.Unlock()
	return func() {
		c.l.mu.Lock()
		if c.busy--; c.busy == 0 {
			c.idle = c.l.now()
		}
		c.l.mu.Unlock()
	}
}

// carries says the connection carries the stream of the phone id ("":
// none now).
func (c *capConn) carries(id string) {
	c.l.mu.Lock()
	c.l.carryLocked(c, id)
	c.l.mu.Unlock()
}

func (l *capListener) carryLocked(c *capConn, id string) {
	if c.stream != "" {
		if l.streams[c.stream]--; l.streams[c.stream] <= 0 {
			delete(l.streams, c.stream)
		}
	}
	c.stream = id
	if id != "" {
		l.streams[id]++
	}
}

// counts are the connections open.
func (l *capListener) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.open)
}

type connKey struct{}

// connOf is the capped connection a request came on (nil: none, as in a
// handler test).
func connOf(ctx context.Context) *capConn {
	c, _ := ctx.Value(connKey{}).(*capConn)
	return c
}
