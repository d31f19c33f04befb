package classroom

import (
	"context"
	"io"
	"math/rand/v2"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"toolgate/classroom/config"
	"toolgate/classroom/room"
	"toolgate/tui"
)

const (
	// stallTimeout ends a session whose client has stopped reading: one
	// write blocked this long means nobody is there.
	stallTimeout = time.Minute
	// endGrace is how long a session told the room's last word (or
	// ended) has before it is closed from this side.
	endGrace = 5 * time.Second
)

// trainer is the innermost handler: the session's own program of the
// trainer, fed by pumpKeys and the room, drawn at the size the session
// was given.
func (s *Server) trainer(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		s.runTrainer(sess)
		next(sess)
	}
}

// clampedMsg tells a session its terminal is larger than a session
// draws.
func clampedMsg(asked, given config.Size) tui.ClampedMsg {
	return tui.ClampedMsg{Width: asked.Width, Height: asked.Height, DrawnWidth: given.Width, DrawnHeight: given.Height}
}

func (s *Server) runTrainer(sess ssh.Session) {
	ctx := sess.Context()
	st := stateOf(ctx)
	pty, _, _ := sess.Pty()
	role, _ := s.roleOf(sess)
	envs := append(sess.Environ(), "TERM="+pty.Term)
	lang := langOf(sess, s.lec.Lang)

	var p *tea.Program
	ready := make(chan struct{})
	client := s.room.JoinAs(role, st.identityOf(), func(msg tui.RoomMsg) {
		<-ready
		p.Send(msg)
	})
	defer client.Leave()
	if client.TookOver() {
		s.Printf("presenter %s took the room over from the session that led it", sess.RemoteAddr())
	}
	classCode := ""
	if role == room.Presenter {
		classCode = s.cfg.ClassCode
	}
	model := tui.New(tui.Options{
		Scenarios: s.lec.Scenarios,
		Lang:      lang,
		Room:      client,
		Notes:     role == room.Notes,
		// The presenter's screen is the projector: it shows students the
		// code to type.
		ClassCode: classCode,
		// The projector and the notes screen show the phones' QR code.
		JoinURL: s.joinURLFor(role),
		Timer:   s.cfg.Timer,
		Idle:    s.cfg.Idle,
		Theme:   tui.ThemeDark,
		// Each student practises their own draw of cases.
		Seed: rand.Uint64(),
		// SaveScenario stays nil: a served session writes nothing on the
		// server.
	})
	size := st.window()
	out := newStallWriter(sess, s.lec.stall, func() { _ = st.conn.Close() })
	// The program ends with its context: when the connection closes, or
	// when the room's last word has had its grace. Never by Kill: Bubble
	// Tea's Kill races with a Run that has not finished starting (see
	// docs/security.md), and a hang-up right after the shell request is
	// exactly that.
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	p = tea.NewProgram(newCoalesced(model, s.lec.frame, s.lec.sawView),
		tea.WithContext(runCtx),
		// Input is read by pumpKeys, not by the program (see keyDecoder).
		tea.WithInput(nil),
		tea.WithOutput(out),
		tea.WithEnvironment(envs),
		tea.WithColorProfile(colorprofile.Env(envs)),
		tea.WithWindowSize(size.Width, size.Height),
		// The server's signals are the server's: a program must not quit
		// on them, or students would miss the goodbye.
		tea.WithoutSignals(),
		tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
			if _, ok := msg.(tea.SuspendMsg); ok {
				return tea.ResumeMsg{}
			}
			if s.lec.sawMsg != nil {
				s.lec.sawMsg(msg)
			}
			return msg
		}),
	)
	close(ready)
	// Bubble Tea asks the terminal whether it has synchronized output
	// (less flicker) only when it reads the input itself: ask here, and
	// the reply, read by pumpKeys, turns it on as it would.
	_, _ = io.WriteString(out, ansi.RequestModeSynchronizedOutput+ansi.RequestModeUnicodeCore)

	done := make(chan struct{})
	go pumpKeys(runCtx, sess, p.Send, s.lec.now)
	go func() {
		var grace <-chan time.Time
		ended := client.Ended()
		var told config.Size
		if asked, given, ok := st.clamped(); ok {
			// Said once the program runs (Send waits for it), in the
			// session's language, as every notice of the server's.
			told = asked
			p.Send(clampedMsg(asked, given))
		}
		for {
			select {
			case <-done:
				return
			case <-runCtx.Done():
				return
			case <-st.resized:
				w := st.window()
				p.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
				if asked, given, ok := st.clamped(); ok && asked != told {
					// A resize past the limit is said too, once per size.
					told = asked
					p.Send(clampedMsg(asked, given))
				}
			case <-ended:
				// The program quits itself after showing the goodbye;
				// this is in case it does not.
				ended, grace = nil, time.After(endGrace)
			case <-grace:
				stop()
				return
			}
		}
	}()
	_, _ = p.Run()
	close(done)
	select {
	case <-client.Ended():
		// The goodbye stays on the student's terminal once the trainer's
		// screen is gone, with what to do next.
		_, _ = io.WriteString(out, client.Goodbye().Text(lang)+"\r\n")
	default:
	}
}

// stallWriter closes a session whose writes block for longer than d: a
// client that stops reading would otherwise hold its seat and program
// forever.
type stallWriter struct {
	w io.Writer
	d time.Duration

	mu       sync.Mutex
	inFlight int
	timer    *time.Timer
}

func newStallWriter(w io.Writer, d time.Duration, stalled func()) *stallWriter {
	t := time.AfterFunc(time.Hour, stalled)
	t.Stop()
	return &stallWriter{w: w, d: d, timer: t}
}

func (s *stallWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	if s.inFlight++; s.inFlight == 1 {
		s.timer.Reset(s.d)
	}
	s.mu.Unlock()
	n, err := s.w.Write(p)
	s.mu.Lock()
	if s.inFlight--; s.inFlight == 0 {
		s.timer.Stop()
	}
	s.mu.Unlock()
	return n, err
}

// joinURLFor is the phones' link for a role's screen: the presenter's
// (the projector) and the notes screen show it.
func (s *Server) joinURLFor(role room.Role) string {
	if role == room.Student {
		return ""
	}
	return s.JoinURL()
}
