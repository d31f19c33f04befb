package classroom

import (
	"bufio"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/activeterm"
	bm "charm.land/wish/v2/bubbletea"
	"charm.land/wish/v2/logging"
	"charm.land/wish/v2/ratelimiter"
	"charm.land/wish/v2/recover"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"

	"toolgate/assess"
	"toolgate/scenarios"
	"toolgate/tui"
)

// Config is how a lecture is served.
type Config struct {
	// Listen is host:port; the default keeps it on this machine.
	Listen string
	// HostKeyPath is the server's ed25519 key, created (mode 0600) on
	// first start.
	HostKeyPath string
	// MaxSessions caps the sessions open at once.
	MaxSessions int
	// Idle closes a session after this long without a key.
	Idle time.Duration
	// ClassCode is what students type to get in (password or
	// keyboard-interactive); AuthorizedKeys admits listed keys. With
	// neither, Open must be set: the room is then open to anyone.
	ClassCode      string
	AuthorizedKeys string
	Open           bool
	// PresenterKeys lists the keys that lead the room; PresenterCode makes
	// the first session that types it the presenter.
	PresenterKeys string
	PresenterCode string
	Scenarios     []scenarios.Scenario
	// Log gets one line per connect, disconnect and failed login.
	Log io.Writer
}

// Server is a lecture served over SSH.
type Server struct {
	cfg    Config
	ssh    *ssh.Server
	room   *Room
	active atomic.Int64
	logMu  sync.Mutex
	// presenter is taken by the first session with the presenter code.
	presenterTaken atomic.Bool
}

type ctxKey string

const (
	keyPresenter ctxKey = "toolgate.presenter"
	keyClient    ctxKey = "toolgate.client"
)

// New checks the configuration and builds the server.
func New(cfg Config) (*Server, error) {
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:2323"
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = 200
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.ClassCode == "" && cfg.AuthorizedKeys == "" && !cfg.Open {
		return nil, errors.New("no way to log in: give --class-code, --authorized-keys, or --open to let anyone in")
	}
	if len(cfg.Scenarios) == 0 {
		return nil, errors.New("no scenarios to serve")
	}
	for _, f := range []string{cfg.AuthorizedKeys, cfg.PresenterKeys} {
		if f != "" {
			if _, err := readKeys(f); err != nil {
				return nil, err
			}
		}
	}
	if err := os.MkdirAll(filepath.Dir(cfg.HostKeyPath), 0o700); err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	s := &Server{cfg: cfg, room: NewRoom()}
	// Per-IP rate limiting sized for a class behind one NAT: the whole room
	// may connect at once (burst above the cap), then a steady trickle.
	limiter := ratelimiter.NewRateLimiter(rate.Limit(max(float64(cfg.MaxSessions)/10, 5)), cfg.MaxSessions+20, 4096)
	opts := []ssh.Option{
		wish.WithAddress(cfg.Listen),
		wish.WithHostKeyPath(cfg.HostKeyPath),
		wish.WithMiddleware(
			// The last runs first: log, recover, limit, cap, refuse
			// commands and PTY-less sessions, then the trainer.
			bm.MiddlewareWithProgramHandler(s.program),
			s.leaveRoom,
			activeterm.Middleware(),
			s.interactiveOnly,
			s.capacity,
			ratelimiter.Middleware(limiter),
			recover.Middleware(),
			logging.MiddlewareWithLogger(s),
		),
	}
	if cfg.ClassCode != "" || cfg.PresenterCode != "" {
		opts = append(opts, wish.WithPasswordAuth(s.password), wish.WithKeyboardInteractiveAuth(s.keyboard))
	}
	if cfg.AuthorizedKeys != "" || cfg.PresenterKeys != "" {
		opts = append(opts, wish.WithPublicKeyAuth(s.publicKey))
	}
	if cfg.Open {
		opts = append(opts, wish.WithKeyboardInteractiveAuth(func(ssh.Context, gossh.KeyboardInteractiveChallenge) bool { return true }))
	}
	srv, err := wish.NewServer(opts...)
	if err != nil {
		return nil, err
	}
	s.ssh = srv
	return s, nil
}

// Printf logs one line; it is the logging middleware's logger too.
func (s *Server) Printf(format string, v ...any) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.cfg.Log, time.Now().Format("15:04:05 ")+format+"\n", v...)
}

// Fingerprint is the host key's SHA256 fingerprint, for the projector.
func (s *Server) Fingerprint() string {
	if len(s.ssh.HostSigners) == 0 {
		return ""
	}
	return gossh.FingerprintSHA256(s.ssh.HostSigners[0].PublicKey())
}

// Room is the lecture's room.
func (s *Server) Room() *Room { return s.room }

// Serve serves on a listener until Shutdown.
func (s *Server) Serve(l net.Listener) error {
	err := s.ssh.Serve(l)
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

// Shutdown tells every student the session is ending, gives the message a
// moment on screen, and closes the server.
func (s *Server) Shutdown(ctx context.Context) error {
	s.room.End("The lecture is over — this session ends now. Thank you!")
	wait := time.NewTimer(2500 * time.Millisecond)
	defer wait.Stop()
	select {
	case <-wait.C:
	case <-ctx.Done():
	}
	if err := s.ssh.Shutdown(ctx); err != nil {
		return s.ssh.Close()
	}
	return nil
}

// Close stops at once.
func (s *Server) Close() error { return s.ssh.Close() }

// ActiveSessions is how many sessions are open.
func (s *Server) ActiveSessions() int { return int(s.active.Load()) }

func (s *Server) remote(ctx ssh.Context) string {
	if a, ok := ctx.RemoteAddr().(*net.TCPAddr); ok {
		return a.IP.String()
	}
	return ctx.RemoteAddr().String()
}

// codeMatches compares in constant time, so the time taken says nothing
// about how much of a guess was right.
func codeMatches(given, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(given), []byte(want)) == 1
}

func (s *Server) checkCode(ctx ssh.Context, code, method string) bool {
	if codeMatches(code, s.cfg.PresenterCode) && s.presenterTaken.CompareAndSwap(false, true) {
		ctx.SetValue(keyPresenter, true)
		s.Printf("login %s as presenter (%s)", s.remote(ctx), method)
		return true
	}
	if codeMatches(code, s.cfg.ClassCode) || s.cfg.Open {
		return true
	}
	// Never log the code that was tried.
	s.Printf("auth failure from %s user %q (%s)", s.remote(ctx), ctx.User(), method)
	return false
}

func (s *Server) password(ctx ssh.Context, password string) bool {
	return s.checkCode(ctx, password, "password")
}

func (s *Server) keyboard(ctx ssh.Context, challenge gossh.KeyboardInteractiveChallenge) bool {
	answers, err := challenge("", "Welcome to toolgate.", []string{"Class code: "}, []bool{false})
	if err != nil || len(answers) != 1 {
		return false
	}
	return s.checkCode(ctx, answers[0], "keyboard-interactive")
}

func (s *Server) publicKey(ctx ssh.Context, key ssh.PublicKey) bool {
	if s.cfg.PresenterKeys != "" && keyListed(s.cfg.PresenterKeys, key) {
		ctx.SetValue(keyPresenter, true)
		s.Printf("login %s as presenter (public key)", s.remote(ctx))
		return true
	}
	if s.cfg.AuthorizedKeys != "" && keyListed(s.cfg.AuthorizedKeys, key) {
		return true
	}
	// Not a failure yet: the client may go on to a password.
	return false
}

func readKeys(path string) ([]ssh.PublicKey, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	defer f.Close()
	var keys []ssh.PublicKey
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, _, _, _, err := ssh.ParseAuthorizedKey([]byte(line))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: not an authorized key: %w", path, n, err)
		}
		keys = append(keys, k)
	}
	return keys, sc.Err()
}

func keyListed(path string, key ssh.PublicKey) bool {
	keys, err := readKeys(path)
	if err != nil {
		return false
	}
	for _, k := range keys {
		if ssh.KeysEqual(k, key) {
			return true
		}
	}
	return false
}

// capacity is the hard cap on sessions: the next one is told the room is
// full, politely, and disconnected.
func (s *Server) capacity(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		n := s.active.Add(1)
		defer s.active.Add(-1)
		if n > int64(s.cfg.MaxSessions) {
			wish.Println(sess, fmt.Sprintf("Sorry, the room is full (%d seats taken). Please try again in a moment.", s.cfg.MaxSessions))
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
			wish.Println(sess, "toolgate serves the interactive trainer only: connect without a command.")
			_ = sess.Exit(1)
			return
		}
		next(sess)
	}
}

// leaveRoom takes the session out of the room when its program ends.
func (s *Server) leaveRoom(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		next(sess)
		if c, ok := sess.Context().Value(keyClient).(*Client); ok {
			c.Leave()
		}
	}
}

// program builds a session's trainer: its own program of the same model,
// with the client's window size, colour profile and language.
func (s *Server) program(sess ssh.Session) *tea.Program {
	presenter, _ := sess.Context().Value(keyPresenter).(bool)
	var p *tea.Program
	ready := make(chan struct{})
	client := s.room.Join(presenter, func(msg tui.RoomMsg) {
		<-ready
		p.Send(msg)
	})
	sess.Context().SetValue(keyClient, client)
	model := tui.New(tui.Options{
		Scenarios: s.cfg.Scenarios,
		Lang: assess.LangFromEnv(func(name string) string {
			for _, kv := range sess.Environ() {
				if k, v, ok := strings.Cut(kv, "="); ok && k == name {
					return v
				}
			}
			return ""
		}),
		Room:  client,
		Idle:  s.cfg.Idle,
		Theme: tui.ThemeDark,
	})
	// The server's signals are the server's: a program must not quit on
	// them, or students would miss the goodbye.
	p = tea.NewProgram(model, append(bm.MakeOptions(sess), tea.WithoutSignals())...)
	close(ready)
	return p
}
