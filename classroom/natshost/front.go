package natshost

import (
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"golang.org/x/time/rate"

	"toolgate/classroom/internal/outside"
)

// The front of a hosted NATS server: what one address may hold of it.
// Front-ends are a handful of machines, each with one connection (two
// for a moment while it reconnects); a flood from a student's laptop is
// kept to its share, and the front-ends' addresses keep theirs.
const (
	natsPerSource     = 8
	natsTotal         = 200 // under the server's MaxConn (256): the host's own connection always fits
	natsDialsPerSec   = 5   // new connections an address may open a second…
	natsDialBurst     = 20  // …after a burst of this many
	natsUpstreamLimit = 5 * time.Second
)

// Host is the embedded NATS server and the front it is reached
// through: the server listens on loopback only, and the room's address
// is a listener of ours that caps connections per source and in total,
// and hands each one on with a PROXY protocol header, so that the server
// still sees (and logs) the client's own address.
type Host struct {
	srv   *server.Server
	front net.Listener
	tls   bool
	// fingerprint is the certificate's, when the server speaks TLS.
	fingerprint string

	refused func(source, why string)
	// log is the server's log, with its counts.
	log *Log

	mu       sync.Mutex
	bySource map[string]int
	dials    map[string]*rate.Limiter
	total    int
	conns    map[net.Conn]struct{}
	closed   bool
	wg       sync.WaitGroup
}

func newHost(srv *server.Server, front net.Listener, tls bool, refused func(source, why string)) *Host {
	h := &Host{srv: srv, front: front, tls: tls, refused: refused,
		bySource: map[string]int{}, dials: map[string]*rate.Limiter{}, conns: map[net.Conn]struct{}{}}
	h.wg.Add(1)
	go h.accept()
	return h
}

// URL is the room's address for the other front-ends.
func (h *Host) URL() string {
	scheme := "nats://"
	if h.tls {
		scheme = "tls://"
	}
	return scheme + h.front.Addr().String()
}

// Shutdown closes the front, every connection through it, and the
// server.
func (h *Host) Shutdown() {
	h.mu.Lock()
	h.closed = true
	conns := make([]net.Conn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	_ = h.front.Close()
	for _, c := range conns {
		_ = c.Close()
	}
	h.wg.Wait()
	h.srv.Shutdown()
}

// WaitForShutdown waits until the server is down.
func (h *Host) WaitForShutdown() { h.srv.WaitForShutdown() }

// Fingerprint is the server's certificate's, for the others to pin (""
// when it speaks plain text, on loopback).
func (h *Host) Fingerprint() string { return h.fingerprint }

// Server is the embedded server, for the hosting front-end's own
// connection (nats.InProcessServer).
func (h *Host) Server() *server.Server { return h.srv }

// Log is the server's log, with its counts.
func (h *Host) Log() *Log { return h.log }

func (h *Host) accept() {
	defer h.wg.Done()
	for {
		c, err := h.front.Accept()
		if err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				continue
			}
			return
		}
		source := outside.Source(c.RemoteAddr())
		if why := h.admit(source); why != "" {
			h.refused(source, why)
			_ = c.Close()
			continue
		}
		h.mu.Lock()
		h.conns[c] = struct{}{}
		h.mu.Unlock()
		h.wg.Add(1)
		go h.relay(c, source)
	}
}

// admit takes a place for source, or says why there is none.
func (h *Host) admit(source string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return "closing"
	}
	lim, ok := h.dials[source]
	if !ok {
		if len(h.dials) >= outside.MaxSources {
			clear(h.dials)
		}
		lim = rate.NewLimiter(natsDialsPerSec, natsDialBurst)
		h.dials[source] = lim
	}
	switch {
	case !lim.Allow():
		return fmt.Sprintf("more than %d new connections a second from this address", natsDialsPerSec)
	case h.bySource[source] >= natsPerSource:
		return fmt.Sprintf("%d connections open from this address", natsPerSource)
	case h.total >= natsTotal:
		return fmt.Sprintf("%d connections open", natsTotal)
	}
	h.bySource[source]++
	h.total++
	return ""
}

func (h *Host) release(c net.Conn, source string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.conns, c)
	h.total--
	if h.bySource[source]--; h.bySource[source] <= 0 {
		delete(h.bySource, source)
	}
}

// relay hands c to the server, after a PROXY protocol (v1) header with
// c's addresses, and copies both ways until either side closes.
func (h *Host) relay(c net.Conn, source string) {
	defer h.wg.Done()
	defer h.release(c, source)
	// A relay ends when either side has closed: closing the other is all
	// that is left to do, and an error from it has no one to tell.
	defer func() { _ = c.Close() }()
	up, err := net.DialTimeout("tcp", h.srv.Addr().String(), natsUpstreamLimit)
	if err != nil {
		return
	}
	defer func() { _ = up.Close() }()
	h.mu.Lock()
	closed := h.closed
	if !closed {
		h.conns[up] = struct{}{}
	}
	h.mu.Unlock()
	if closed {
		return
	}
	defer func() { h.mu.Lock(); delete(h.conns, up); h.mu.Unlock() }()
	if _, err := io.WriteString(up, proxyHeader(c.RemoteAddr(), c.LocalAddr())); err != nil {
		return
	}
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(up, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, up); done <- struct{}{} }()
	<-done
}

// proxyHeader is the PROXY protocol v1 line for a connection from src to
// dst.
func proxyHeader(src, dst net.Addr) string {
	s, sok := src.(*net.TCPAddr)
	d, dok := dst.(*net.TCPAddr)
	if !sok || !dok {
		return "PROXY UNKNOWN\r\n"
	}
	family, sip, dip := "TCP6", s.IP, d.IP
	if s4, d4 := s.IP.To4(), d.IP.To4(); s4 != nil && d4 != nil {
		family, sip, dip = "TCP4", s4, d4
	}
	return fmt.Sprintf("PROXY %s %s %s %d %d\r\n", family, sip, dip, s.Port, d.Port)
}
