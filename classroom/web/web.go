// Package web is the lecture's page for phones: students answer the
// room's live poll from a phone browser, in the same room as the SSH
// sessions (see docs/web.md). One server-rendered page (html/template),
// Server-Sent Events for the room's news, a small script of our own and
// no framework. A phone is a student of the room with an identity of its
// own (one vote); what a question offers and what a reveal shows come
// from the trainer's own code (tui.PollOf, tui.RevealOf).
//
// Routes, stable for other front-ends:
//
//	GET  /        the page, with <meta name="csrf-token" content="…">
//	POST /join    form code: the class code or the QR link's token; sets the cookie
//	GET  /events  SSE: each event the room as a phone may see it (JSON)
//	POST /answer  form choice (and code): the answer, with the token as
//	              form field csrf or header X-CSRF-Token
//	GET  /app.js, /app.css
package web

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"toolgate/classroom/internal/outside"
	"toolgate/classroom/room"
	"toolgate/scenarios"
)

// Verdict is what a code checker says of a code.
type Verdict int

// A code admits a student, is right for another role (the presenter's,
// the notes screen's: never a phone's), or is wrong.
const (
	Wrong Verdict = iota
	Student
	NotForPhones
)

// Codes check a code typed on a phone as the SSH login checks one, with
// the same code: Check says at once what a code is, and every code is
// checked whatever others sent; Penalize holds the answer to a wrong one
// (the fails-th of its connection, from source) for its turn among the
// wrong codes of its address and of the server, SSH's and the phones'
// alike, or until ctx ends.
type Codes interface {
	Check(code string) Verdict
	Penalize(ctx context.Context, source string, fails int)
}

// Limits are the server's bounds.
type Limits struct {
	// MaxConns caps the connections open (SSE streams included);
	// MaxConnsPerAddress from one address (0: none).
	MaxConns, MaxConnsPerAddress int
	// MaxPhones caps the phones in the room.
	MaxPhones int
	// Grace is how long a phone without a stream keeps its place (and
	// its answer) in the room: a phone that changes network comes back
	// within it.
	Grace time.Duration
	// ReadTimeout bounds reading a request (10 s); Heartbeat is how
	// often a quiet stream says it is alive (20 s). Zero is the default;
	// tests shorten them.
	ReadTimeout, Heartbeat time.Duration
}

// The bounds of a request.
const (
	maxBody       = 4 << 10
	maxHeader     = 8 << 10
	maxCodeBytes  = 256
	writeDeadline = 10 * time.Second
)

// Options are what a Server is made of.
type Options struct {
	Room      room.Room
	Scenarios []scenarios.Scenario
	Codes     Codes
	Limits    Limits
	// Secure says the page is served over TLS: the cookie is Secure.
	Secure bool
	// Printf is the server's log (nil: none).
	Printf func(format string, v ...any)
}

// Server is the phones' page of one lecture.
type Server struct {
	o      Options
	key    []byte
	token  string
	byID   map[string]scenarios.Scenario
	phones *phones
	http   *http.Server
	logs   outside.RateLog
	// joined counts the joins, for the log's line.
	joined atomic.Int64

	mu        sync.Mutex
	listeners []*capListener
}

// New makes the page of a lecture: its key (the cookies' and the CSRF
// tokens'), and the join token of the QR link, both for this lecture
// only.
func New(o Options) *Server {
	if o.Printf == nil {
		o.Printf = func(string, ...any) {}
	}
	if o.Limits.Grace == 0 {
		o.Limits.Grace = 2 * time.Minute
	}
	if o.Limits.MaxConns == 0 {
		o.Limits.MaxConns = 2000
	}
	if o.Limits.ReadTimeout == 0 {
		o.Limits.ReadTimeout = 10 * time.Second
	}
	if o.Limits.Heartbeat == 0 {
		o.Limits.Heartbeat = 20 * time.Second
	}
	if o.Limits.MaxPhones == 0 {
		o.Limits.MaxPhones = o.Limits.MaxConns
	}
	s := &Server{o: o, key: random(32), token: base64.RawURLEncoding.EncodeToString(random(18)), byID: map[string]scenarios.Scenario{}}
	for _, sc := range o.Scenarios {
		s.byID[sc.ID] = sc
	}
	s.phones = newPhones(o.Room, o.Limits.MaxPhones, o.Limits.Grace)
	s.http = &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       o.Limits.ReadTimeout,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    maxHeader,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if tc, ok := c.(*tls.Conn); ok {
				c = tc.NetConn()
			}
			if cc, ok := c.(*capConn); ok {
				return context.WithValue(ctx, connKey{}, cc)
			}
			return ctx
		},
		// The server's own complaints (a TLS handshake that failed, say)
		// go to the log at most once every 10 s.
		ErrorLog: log.New(logWriter{s}, "", 0),
	}
	return s
}

// logWriter takes the HTTP server's lines into the log, a line every
// 10 s at most: a flood of bad handshakes is not a flood of lines.
type logWriter struct{ s *Server }

func (w logWriter) Write(p []byte) (int, error) {
	if w.s.logs.Allow("http", 10*time.Second) {
		w.s.o.Printf("web: %s (more are logged at most every 10s)", strings.TrimSpace(outside.Quote(string(p))))
	}
	return len(p), nil
}

func random(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand does not fail on a supported system
	return b
}

// JoinURL is the QR code's link to the page at base (http://HOST:PORT):
// it carries the lecture's join token, so that a phone that scans it
// types no code.
func (s *Server) JoinURL(base string) string {
	return strings.TrimRight(base, "/") + "/?t=" + url.QueryEscape(s.token)
}

// Token is the lecture's join token, which the QR link carries.
func (s *Server) Token() string { return s.token }

// Serve serves the page on l (wrapped in TLS by cfg when not nil) until
// Shutdown.
func (s *Server) Serve(l net.Listener, cfg *tls.Config) error {
	cl := newCapListener(l, s.o.Limits.MaxConns, s.o.Limits.MaxConnsPerAddress, func(source, why string) {
		if s.logs.Allow("refused "+why+source, 10*time.Second) {
			s.o.Printf("web: refused a connection from %s: %s (more are logged at most every 10s)", source, why)
		}
	})
	s.mu.Lock()
	s.listeners = append(s.listeners, cl)
	s.mu.Unlock()
	var ln net.Listener = cl
	if cfg != nil {
		ln = tls.NewListener(cl, cfg)
	}
	err := s.http.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Conns is how many connections are open.
func (s *Server) Conns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, l := range s.listeners {
		n += l.count()
	}
	return n
}

// Phones is how many phones are in the room.
func (s *Server) Phones() int { return s.phones.count() }

// Shutdown ends the streams (the room has said its last word to the
// phones by then) and closes the server.
func (s *Server) Shutdown(ctx context.Context) error {
	s.phones.close()
	err := s.http.Shutdown(ctx)
	if err != nil {
		return s.http.Close()
	}
	return nil
}

// Handler is the page's routes.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page)
	mux.HandleFunc("POST /join", s.join)
	mux.HandleFunc("GET /events", s.events)
	mux.HandleFunc("POST /answer", s.answer)
	mux.HandleFunc("GET /app.js", static("app.js", "text/javascript; charset=utf-8"))
	mux.HandleFunc("GET /app.css", static("app.css", "text/css; charset=utf-8"))
	return s.headers(serving(mux))
}

// serving marks the connection busy while a request is served on it
// (see capListener): one that serves nothing gives its place up first.
func serving(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c := connOf(r.Context()); c != nil {
			defer c.serving()()
		}
		next.ServeHTTP(w, r)
	})
}

// headers are every answer's: a policy that lets nothing in but our own
// script and style, no framing, no sniffing, no referrer to another
// site (the QR link's token stays here).
func (s *Server) headers(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cache-Control", "no-store")
		if s.o.Secure {
			h.Set("Strict-Transport-Security", "max-age=86400")
		}
		next.ServeHTTP(w, r)
	})
}

// The cookie.
const cookieName = "toolgate"

// sign is the MAC of a purpose and a value under the lecture's key.
func (s *Server) sign(purpose, v string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(purpose + "\x00" + v))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}

// identity is the phone a request comes from: its signed cookie's
// identity, "" for none.
func (s *Server) identity(r *http.Request) string {
	c, err := r.Cookie(cookieName)
	if err != nil || len(c.Value) > 64 {
		return ""
	}
	id, mac, ok := strings.Cut(c.Value, ".")
	if !ok || len(id) != 16 {
		return ""
	}
	if _, err := hex.DecodeString(id); err != nil {
		return ""
	}
	if subtle.ConstantTimeCompare([]byte(mac), []byte(s.sign("phone", id))) != 1 {
		return ""
	}
	return id
}

// csrf is the token a phone's answers carry.
func (s *Server) csrf(id string) string { return s.sign("csrf", id) }

func (s *Server) setCookie(w http.ResponseWriter, id string) {
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: id + "." + s.sign("phone", id), Path: "/",
		HttpOnly: true, Secure: s.o.Secure, SameSite: http.SameSiteStrictMode})
}

// sameOrigin refuses a request another site's page made: the browser
// says so in Sec-Fetch-Site, or an older one in Origin (a client that
// sends neither is no browser, and has no victim's cookie).
func sameOrigin(r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" {
		return site == "same-origin" || site == "none"
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		return err == nil && u.Host == r.Host
	}
	return true
}

// form reads a bounded form body.
func form(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	return r.ParseForm() == nil
}

// join checks the code typed (or the QR link's token) and sets the
// cookie: a new identity, one vote in the room.
func (s *Server) join(w http.ResponseWriter, r *http.Request) {
	l := langOf(r)
	if !sameOrigin(r) {
		s.fail(w, r, http.StatusForbidden, l, msgForbidden)
		return
	}
	if !form(w, r) {
		s.fail(w, r, http.StatusBadRequest, l, msgBad)
		return
	}
	code := r.PostForm.Get("code")
	if len(code) > maxCodeBytes {
		code = code[:maxCodeBytes] // still checked, still wrong
	}
	if id := s.identity(r); id != "" && s.phones.has(id) {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	verdict := Student
	if subtle.ConstantTimeCompare([]byte(code), []byte(s.token)) != 1 {
		verdict = s.o.Codes.Check(code)
	}
	switch verdict {
	case Student:
	case NotForPhones:
		s.fail(w, r, http.StatusForbidden, l, msgNotForPhones)
		return
	case Wrong:
		fails, done := 1, func() {}
		if c := connOf(r.Context()); c != nil {
			// Held out of the places a right code needs (see capListener).
			fails, done = c.penalize()
		}
		s.o.Codes.Penalize(r.Context(), outside.Source(remote(r)), fails)
		done()
		s.fail(w, r, http.StatusForbidden, l, msgWrongCode)
		return
	}
	id := hex.EncodeToString(random(8))
	if !s.phones.add(id) {
		s.fail(w, r, http.StatusServiceUnavailable, l, msgFull)
		return
	}
	// A line every 10 s from an address: a script that joins as fast
	// as it can is no flood of lines.
	source := outside.Source(remote(r))
	if n := s.joined.Add(1); s.logs.Allow("joined "+source, 10*time.Second) {
		s.o.Printf("web: a phone joined from %s; %d joined in all (more from this address are logged at most every 10s)", source, n)
	}
	s.setCookie(w, id)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// remote is the request's peer address.
func remote(r *http.Request) net.Addr {
	addr, err := net.ResolveTCPAddr("tcp", r.RemoteAddr)
	if err != nil {
		return nil
	}
	return addr
}
