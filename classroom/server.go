package classroom

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"toolgate/assess"
	"toolgate/classroom/room"
	"toolgate/classroom/web"
	"toolgate/tui"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/ratelimiter"
	"charm.land/wish/v2/recover"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"

	"toolgate/classroom/config"
	"toolgate/classroom/internal/outside"
	"toolgate/scenarios"
)

// Lecture is what a server serves and to whom it reports: the
// scenarios, the room, the log.
type Lecture struct {
	Scenarios []scenarios.Scenario
	// Room is the lecture's room; nil is a new room in this process. A
	// shared one (room.Shared) is closed by whoever made it, after the
	// server.
	Room room.Room
	// Log gets one line per connect and disconnect (within an address's
	// budget: see sessionLine), failed login and refusal.
	Log io.Writer
	// Lang is the language of a session whose client asks for none (no
	// LC_ALL, LC_MESSAGES or LANG): serve's --lang; English by default.
	Lang assess.Lang

	// Fixed in production; tests shorten them.
	now        func() time.Time
	failDelay  time.Duration // the first wrong code's delay; it grows to 4×
	failRefill time.Duration // one failed login comes back this often
	stall      time.Duration // see stallTimeout
	closeGrace time.Duration // a session's connection is closed this long after it ends
	fdLimit    int
	frame      time.Duration // see frameInterval
	// sawMsg is told every message a session's program takes, sawView
	// every view it computes (tests).
	sawMsg  func(tea.Msg)
	sawView func()
	// webGrace is how long a phone without a stream keeps its place (0:
	// the page's default).
	webGrace time.Duration
	// sessionLogBurst is an address's budget of session lines at once
	// (0: sessionLogBurst).
	sessionLogBurst int
}

// Server is a lecture served over SSH.
type Server struct {
	cfg       config.Config
	lec       Lecture
	ssh       *ssh.Server
	room      room.Room
	gate      *gate
	penalties *penalties
	// web is the phones' page (nil: not served).
	web            *web.Server
	authorizedKeys *keySet
	presenterKeys  *keySet
	active         atomic.Int64
	// failures counts the wrong codes checked; resizes the window-change
	// requests taken.
	failures, resizes atomic.Int64
	// evictions counts the waiting connections closed for new ones.
	evictions atomic.Int64
	// release gives memory back when the server is empty (releaseMemory).
	releaseMu sync.Mutex
	release   *time.Timer

	logMu   sync.Mutex
	logRate outside.RateLog
	// sessionLog is each address's budget of session lines.
	sessionLog outside.LineBudget

	// bySource counts the sessions open from each address.
	sourcesMu sync.Mutex
	bySource  map[string]int
}

// withDefaults fills the zero settings of the hooks.
func (l Lecture) withDefaults() Lecture {
	def := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	if l.fdLimit == 0 {
		l.fdLimit = fdLimit()
	}
	def(&l.failDelay, time.Second)
	def(&l.failRefill, 3*time.Second)
	def(&l.stall, stallTimeout)
	def(&l.closeGrace, 2*time.Second)
	if l.now == nil {
		l.now = time.Now
	}
	if l.Log == nil {
		l.Log = io.Discard
	}
	return l
}

// New builds the server of a lecture: cfg is how it is served (what it
// leaves at zero is taken from config.Default, and what Validate refuses
// is refused), l what it serves.
func New(cfg config.Config, l Lecture) (*Server, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	l = l.withDefaults()
	if len(l.Scenarios) == 0 {
		return nil, errors.New("no scenarios to serve")
	}
	rm := l.Room
	if rm == nil {
		rm = room.NewLocal()
	}
	burst := l.sessionLogBurst
	if burst == 0 {
		burst = sessionLogBurst
	}
	s := &Server{cfg: cfg, lec: l, room: rm, logRate: outside.RateLog{Now: l.now}, bySource: map[string]int{},
		sessionLog: outside.LineBudget{Rate: sessionLogRate, Burst: burst, Now: l.now},
		penalties:  newPenalties(cfg.LoginFailures, l.failRefill, l.now)}
	var err error
	if cfg.AuthorizedKeys != "" {
		if s.authorizedKeys, err = loadKeySet(cfg.AuthorizedKeys, s.Printf, l.now); err != nil {
			return nil, err
		}
	}
	if cfg.PresenterKeys != "" {
		if s.presenterKeys, err = loadKeySet(cfg.PresenterKeys, s.Printf, l.now); err != nil {
			return nil, err
		}
	}
	maxWaiting, maxWaitingPerAddress := cfg.Waiting()
	maxOpen := l.fdLimit - fdReserve
	if need := cfg.MaxSessions + maxWaiting; maxOpen < need {
		s.Printf("the file descriptor limit (%d) leaves room for %d connections, fewer than the most sessions and connections waiting to log in (%d): raise it (ulimit -n)",
			l.fdLimit, max(maxOpen, 0), need)
	}
	s.gate = newGate(maxWaiting, maxWaitingPerAddress, maxOpen, cfg.LoginTimeout, func(source, why string, perSource bool) {
		// A flood is one line every 10 s: per address when one address is
		// over its own cap, per reason when the server is.
		key := "refused: " + why
		if perSource {
			key += " " + source
		}
		s.logEvery(key, 10*time.Second, "refused a connection from %s: %s (more are logged at most every 10s)", source, why)
	})
	s.gate.now = l.now
	s.gate.evicted = func(source, why string) {
		s.evictions.Add(1)
		s.logEvery("evicted "+source, 10*time.Second, "closed a connection from %s waiting to log in, for a new one: %s (more are logged at most every 10s)", source, why)
	}
	if err := os.MkdirAll(filepath.Dir(cfg.HostKeyPath), 0o700); err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	// Per-IP rate limiting of sessions, sized for a class behind one NAT:
	// the whole room may connect at once (burst above the cap), then a
	// steady trickle.
	limiter := ratelimiter.NewRateLimiter(rate.Limit(max(float64(cfg.MaxSessions)/10, 5)), cfg.MaxSessions+20, 4096)
	opts := []ssh.Option{
		wish.WithAddress(cfg.Listen),
		wish.WithHostKeyPath(cfg.HostKeyPath),
		wish.WithMiddleware(
			// The last runs first: admit and log, recover, limit, cap,
			// refuse commands and PTY-less sessions, then the trainer.
			s.trainer,
			s.terminalOnly,
			s.interactiveOnly,
			s.capacity,
			ratelimiter.Middleware(limiter),
			recover.Middleware(),
			s.admit,
		),
	}
	if cfg.ClassCode != "" || cfg.PresenterCode != "" || cfg.NotesCode != "" {
		opts = append(opts, wish.WithPasswordAuth(s.password))
	}
	if cfg.ClassCode != "" || cfg.PresenterCode != "" || cfg.NotesCode != "" || cfg.Open {
		opts = append(opts, wish.WithKeyboardInteractiveAuth(s.keyboard))
	}
	// Always: a key the client offers, listed or not, is its identity
	// in the room (one vote); one that is not listed logs nobody in.
	opts = append(opts, wish.WithPublicKeyAuth(s.publicKey))
	srv, err := wish.NewServer(opts...)
	if err != nil {
		return nil, err
	}
	srv.ConnCallback = func(ctx ssh.Context, c net.Conn) net.Conn {
		gc, ok := c.(*gateConn)
		if !ok {
			return nil // not from Serve's gate: refused
		}
		ctx.SetValue(keyState, newConnState(gc))
		return c
	}
	srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": s.sessionChannel}
	// Called once a connection has finished the handshake and asks to
	// log in: it has come further than one still in its handshake (see
	// gate).
	srv.BannerHandler = func(ctx ssh.Context) string {
		if st := stateOf(ctx); st != nil {
			st.conn.progressed(asking)
		}
		return ""
	}
	s.ssh = srv
	if cfg.Web.On() {
		s.web = s.newWebPage(cfg.Web)
	}
	return s, nil
}

// Printf logs one line; every client-supplied string in it must be
// quoted (see quote).
func (s *Server) Printf(format string, v ...any) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.lec.Log, s.lec.now().Format("15:04:05 ")+format+"\n", v...)
}

// An address's budget of session lines (connect and disconnect): a
// hall's logins at once, each its own line, then two lines a second. A
// student who logs in and out in a loop writes at most ~7,200 lines an
// hour, not millions.
const (
	sessionLogBurst = 400
	sessionLogRate  = 2
)

// sessionLine logs a session's line within its address's budget; the
// next line let through says how many were held back.
func (s *Server) sessionLine(source, format string, v ...any) {
	ok, held := s.sessionLog.Take(source)
	if !ok {
		return
	}
	if held > 0 {
		format += " (%d lines of sessions from this address were held back)"
		v = append(v, held)
	}
	s.Printf(format, v...)
}

// logEvery logs a line at most once every so often for one key, so that
// a flood is one line, not a flood of lines.
func (s *Server) logEvery(key string, every time.Duration, format string, v ...any) {
	if s.logRate.Allow(key, every) {
		s.Printf(format, v...)
	}
}

// Fingerprint is the host key's SHA256 fingerprint, for the projector.
func (s *Server) Fingerprint() string {
	if len(s.ssh.HostSigners) == 0 {
		return ""
	}
	return gossh.FingerprintSHA256(s.ssh.HostSigners[0].PublicKey())
}

// Room is the lecture's room.
func (s *Server) Room() room.Room { return s.room }

// Serve serves on a listener until Shutdown or Close.
func (s *Server) Serve(l net.Listener) error {
	err := s.ssh.Serve(gateListener{Listener: l, g: s.gate})
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// ListenAndServe listens on the configured address.
func (s *Server) ListenAndServe() error {
	l, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return err
	}
	return s.Serve(l)
}

// ShutdownSignals end a lecture: each shows every student the goodbye
// before the server closes (SIGHUP too: a closed terminal or a lost login
// session of the lecturer's ends the lecture the same way).
var ShutdownSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// Signalled is the cause of a context NotifyShutdown ended: the signal
// that arrived.
type Signalled struct{ Signal os.Signal }

func (s Signalled) Error() string { return s.Signal.String() }

// NotifyShutdown is a context that ends when one of ShutdownSignals
// arrives, its cause a Signalled. Call it first, before anything says the
// server is starting or ready: a signal that comes after it is a goodbye
// to every session (see Run), never the default action, which kills the
// process without its last log lines. stop undoes it; until then a
// second signal is taken too.
func NotifyShutdown(parent context.Context) (ctx context.Context, stop context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, ShutdownSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			cancel(Signalled{sig})
		case <-done:
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(sigs)
			close(done)
			cancel(context.Canceled)
		})
	}
}

// Why is what ended ctx, for the log: the signal's name, or "stopped".
func Why(ctx context.Context) string {
	var sig Signalled
	if errors.As(context.Cause(ctx), &sig) {
		return sig.Error()
	}
	return "stopped"
}

// Run serves on l until ctx is done (see NotifyShutdown), then says
// goodbye to every session and shuts down.
func (s *Server) Run(ctx context.Context, l net.Listener) error {
	errs := make(chan error, 1)
	go func() { errs <- s.Serve(l) }()
	select {
	case err := <-errs:
		return err
	case <-ctx.Done():
		sig := Why(ctx)
		switch s.room.Closing() {
		case tui.ServerClosing:
			s.Printf("%v: telling %d sessions this front-end closes (the room goes on at the others)", sig, s.ActiveSessions())
		case tui.HostClosing:
			s.Printf("%v: telling %d sessions this front-end closes (it hosts the room: the room stops at the others until it is back)", sig, s.ActiveSessions())
		case tui.ClosingOutOfReach:
			s.Printf("%v: telling %d sessions this front-end closes (the room is out of reach)", sig, s.ActiveSessions())
		default:
			s.Printf("%v: telling %d sessions the lecture is over", sig, s.ActiveSessions())
		}
		closing, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return s.Shutdown(closing)
	}
}

// Shutdown tells every student the session is ending, and whether the
// lecture goes on (see room.Room's Closing), gives the message a moment
// on screen, and closes the server.
func (s *Server) Shutdown(ctx context.Context) error {
	s.room.End(s.room.Closing())
	s.gate.closeWaiting()
	if s.web != nil {
		// The phones have had the room's last word: their streams end.
		defer func() { _ = s.web.Shutdown(ctx) }()
	}
	wait := time.NewTimer(2500 * time.Millisecond)
	defer wait.Stop()
	select {
	case <-wait.C:
	case <-ctx.Done():
	}
	err := s.ssh.Shutdown(ctx)
	s.gate.closeAll()
	if err != nil {
		return s.ssh.Close()
	}
	return nil
}

// Close stops at once.
func (s *Server) Close() error {
	if s.web != nil {
		closed, cancel := context.WithCancel(context.Background())
		cancel()
		_ = s.web.Shutdown(closed)
	}
	err := s.ssh.Close()
	s.gate.closeAll()
	return err
}

// ActiveSessions is how many sessions are open.
func (s *Server) ActiveSessions() int { return int(s.active.Load()) }

// admit is the outermost handler: the session has started, so its
// connection no longer waits to log in; it is logged, and closed when the
// session ends (one session a connection).
func (s *Server) admit(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		st := stateOf(sess.Context())
		st.conn.started()
		role, via := s.roleOf(sess)
		pty, _, _ := sess.Pty()
		size := st.window()
		source := outside.Source(sess.RemoteAddr())
		s.sessionLine(source, "connect %s user %s as %s (%s) term %s %dx%d client %s", sess.RemoteAddr(), outside.Quote(sess.User()), role, via,
			outside.Quote(pty.Term), size.Width, size.Height, outside.Quote(sess.Context().ClientVersion()))
		began := s.lec.now()
		defer func() {
			s.sessionLine(source, "disconnect %s user %s after %v", sess.RemoteAddr(), outside.Quote(sess.User()), s.lec.now().Sub(began).Round(time.Second))
			_ = sess.Exit(0)
			// The client closes on its own after the exit status; a
			// client that does not is closed from here.
			time.AfterFunc(s.lec.closeGrace, func() { _ = st.conn.Close() })
			if s.active.Load() == 0 {
				s.releaseMemory()
			}
		}()
		next(sess)
	}
}

// releaseMemory gives the memory of the sessions that ended back to the
// system once the last one has left and none came for 5 s (the connections
// are closed 2 s after their sessions): an idle
// server collects no garbage for two minutes, and the runtime keeps what
// it collected a while longer, so that a burst of sessions — a lecture, a
// class that connected and hung up at once — would otherwise hold its
// peak long after everyone left.
func (s *Server) releaseMemory() {
	s.releaseMu.Lock()
	defer s.releaseMu.Unlock()
	if s.release == nil {
		s.release = time.AfterFunc(releaseAfter, func() {
			if s.active.Load() == 0 {
				debug.FreeOSMemory()
			}
		})
		return
	}
	s.release.Reset(releaseAfter)
}

// releaseAfter is how long the server is empty before it gives memory back.
const releaseAfter = 5 * time.Second

// capacity is the hard cap on sessions: the next one is told the room is
// full, politely, and disconnected.
func (s *Server) capacity(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		n := s.active.Add(1)
		defer s.active.Add(-1)
		if n > int64(s.cfg.MaxSessions) {
			wish.Println(sess, roomFull.text(langOf(sess, s.lec.Lang), s.cfg.MaxSessions))
			_ = sess.Exit(1)
			return
		}
		if most := s.cfg.MaxSessionsPerAddress; most > 0 {
			source := outside.Source(sess.RemoteAddr())
			s.sourcesMu.Lock()
			full := s.bySource[source] >= most
			if !full {
				s.bySource[source]++
			}
			s.sourcesMu.Unlock()
			if full {
				s.logEvery("per address "+source, 10*time.Second, "refused a session from %s: %d open from this address (more are logged at most every 10s)", source, most)
				wish.Println(sess, addressFull.text(langOf(sess, s.lec.Lang), most))
				_ = sess.Exit(1)
				return
			}
			defer func() {
				s.sourcesMu.Lock()
				if s.bySource[source]--; s.bySource[source] <= 0 {
					delete(s.bySource, source)
				}
				s.sourcesMu.Unlock()
			}()
		}
		next(sess)
	}
}

// terminalOnly refuses a session without a PTY: the trainer needs one.
func (s *Server) terminalOnly(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if _, _, ok := sess.Pty(); !ok {
			wish.Println(sess, noTerminal.text(langOf(sess, s.lec.Lang), 0))
			_ = sess.Exit(1)
			return
		}
		next(sess)
	}
}

// interactiveOnly refuses a command: toolgate is the only thing served.
func (s *Server) interactiveOnly(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if len(sess.Command()) > 0 {
			wish.Println(sess, commandRefused.text(langOf(sess, s.lec.Lang), 0))
			_ = sess.Exit(1)
			return
		}
		next(sess)
	}
}
