package classroom

import (
	"sync"
	"sync/atomic"
	"time"

	"toolgate/classroom/config"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"
)

const (
	// maxEnv and maxEnvBytes bound the environment a session may send
	// (the trainer reads LANG only).
	maxEnv      = 32
	maxEnvBytes = 1 << 10
	// maxTerm bounds the terminal name of a PTY request.
	maxTerm = 64
	// resizeRate and resizeBurst bound the window-change requests a
	// session's requests are read at: a window dragged by hand sends tens
	// a second; beyond, the reading waits, and so does the client.
	resizeRate  = 20
	resizeBurst = 40
)

// connState is what the server keeps of one connection, from accept to
// close: its place at the gate, its one session, and the size its
// terminal asked for and was given.
type connState struct {
	conn    *gateConn
	session atomic.Bool

	mu sync.Mutex
	// asked is the largest size the client asked for, size what it got.
	asked, size config.Size
	pty         bool
	resized     chan struct{}
	// identity is the first public key the client offered (see Identity).
	identity string
}

// offered records a key the client offered: the first is its identity.
func (st *connState) offered(key ssh.PublicKey) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.identity == "" {
		st.identity = Identity(key)
	}
}

func (st *connState) identityOf() string {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.identity
}

func newConnState(c *gateConn) *connState {
	return &connState{conn: c, resized: make(chan struct{}, 1)}
}

// clamped reports whether the client asked for more than it was given.
func (st *connState) clamped() (asked, given config.Size, ok bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.asked, st.size, st.asked != st.size
}

func (st *connState) window() config.Size {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.size
}

// setSize records a size the client asked for and returns what it gets.
func (st *connState) setSize(w, h uint32, limit config.Size) config.Size {
	asked := config.Size{Width: int(min(w, 1<<16)), Height: int(min(h, 1<<16))}
	given := config.Size{Width: min(asked.Width, limit.Width), Height: min(asked.Height, limit.Height)}
	st.mu.Lock()
	st.asked, st.size = asked, given
	st.mu.Unlock()
	return given
}

// sessionChannel opens a session channel: one per connection (a second
// is refused, so one login cannot take many seats), with its requests
// checked before the SSH library sees them.
func (s *Server) sessionChannel(srv *ssh.Server, conn *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	st := stateOf(ctx)
	if st == nil || !st.session.CompareAndSwap(false, true) {
		_ = nc.Reject(gossh.Prohibited, "one session per connection")
		return
	}
	// Only a login opens a channel (a public key's too).
	if st.conn != nil {
		st.conn.progressed(loggedIn)
	}
	ssh.DefaultSessionHandler(srv, conn, checkedChannel{NewChannel: nc, s: s, st: st, ctx: ctx}, ctx)
}

// checkedChannel hands the SSH library a session channel whose requests
// pass through Server.checkRequests first.
type checkedChannel struct {
	gossh.NewChannel
	s   *Server
	st  *connState
	ctx ssh.Context
}

func (c checkedChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := c.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	go c.s.checkRequests(c.ctx.Done(), c.st, reqs, out)
	return ch, out, nil
}

// ptyRequest is RFC 4254 §6.2's pty-req.
type ptyRequest struct {
	Term                      string
	Columns, Rows, PixW, PixH uint32
	Modes                     string
}

// windowChange is RFC 4254 §6.7's window-change.
type windowChange struct {
	Columns, Rows, PixW, PixH uint32
}

// checkRequests passes a session's requests on, bounded: a PTY's size is
// clamped to the server's limit, resizes go to the trainer directly (the
// library's resize channel holds one, and a second sent before the shell
// would block its request loop for good), the environment is capped, and
// agent and X11 forwarding are refused.
func (s *Server) checkRequests(done <-chan struct{}, st *connState, in <-chan *gossh.Request, out chan<- *gossh.Request) {
	defer close(out)
	envs := 0
	resizes := rate.NewLimiter(resizeRate, resizeBurst)
	for req := range in {
		switch req.Type {
		case "pty-req":
			var p ptyRequest
			st.mu.Lock()
			again := st.pty
			st.mu.Unlock()
			if again || gossh.Unmarshal(req.Payload, &p) != nil || len(p.Term) > maxTerm {
				reply(req, false)
				continue
			}
			size := st.setSize(p.Columns, p.Rows, s.cfg.MaxPTY)
			p.Columns, p.Rows = uint32(size.Width), uint32(size.Height)
			req.Payload = gossh.Marshal(&p)
			st.mu.Lock()
			st.pty = true
			st.mu.Unlock()
		case "window-change":
			for !resizes.AllowN(s.lec.now(), 1) {
				// Wait for the rate, or the session's end.
				t := time.NewTimer(time.Second / resizeRate)
				select {
				case <-t.C:
				case <-done:
					t.Stop()
					return
				}
			}
			s.resizes.Add(1)
			var w windowChange
			st.mu.Lock()
			ok := st.pty
			st.mu.Unlock()
			if !ok || gossh.Unmarshal(req.Payload, &w) != nil {
				reply(req, false)
				continue
			}
			st.setSize(w.Columns, w.Rows, s.cfg.MaxPTY)
			select {
			case st.resized <- struct{}{}:
			default: // the trainer will read the latest size
			}
			reply(req, true)
			continue
		case "env":
			if envs++; envs > maxEnv || len(req.Payload) > maxEnvBytes {
				reply(req, false)
				continue
			}
		case "auth-agent-req@openssh.com", "x11-req":
			reply(req, false)
			continue
		}
		select {
		case out <- req:
		case <-done:
			return
		}
	}
}

func reply(req *gossh.Request, ok bool) {
	if req.WantReply {
		_ = req.Reply(ok, nil)
	}
}
