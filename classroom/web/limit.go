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
// SSE streams are connections like any other and count. A connection
// that sent a wrong code and waits for its answer is the first to give
// its place up when the caps are reached, so that a flood of wrong codes
// from the hall's address never keeps a right one out.
type capListener struct {
	net.Listener
	total, perSource int
	refused          func(source, why string)

	mu       sync.Mutex
	open     map[*capConn]struct{}
	bySource map[string]int
}

func newCapListener(l net.Listener, total, perSource int, refused func(source, why string)) *capListener {
	return &capListener{Listener: l, total: total, perSource: perSource, refused: refused,
		open: map[*capConn]struct{}{}, bySource: map[string]int{}}
}

// capConn is an admitted connection.
type capConn struct {
	net.Conn
	l      *capListener
	source string
	since  time.Time
	// penalized and closed are guarded by l.mu.
	penalized bool
	closed    bool
	fails     int
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
		switch {
		case len(l.open) >= l.total:
			over = "too many connections"
		case l.perSource > 0 && l.bySource[source] >= l.perSource:
			over = "too many connections from this address"
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
		cc = &capConn{Conn: c, l: l, source: source, since: time.Now()}
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

// victimLocked is the connection to close for a new one: one waiting
// for the answer to a wrong code (of source, when the cap is the
// address's), the one with most wrong codes, then the oldest.
func (l *capListener) victimLocked(source string, ofSource bool) *capConn {
	var best *capConn
	for c := range l.open {
		if !c.penalized || (ofSource && c.source != source) {
			continue
		}
		if best == nil || c.fails > best.fails || (c.fails == best.fails && c.since.Before(best.since)) {
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
