package classroom

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/classroom/config"
	"toolgate/classroom/room"
	"toolgate/tui"
)

// langs are the two languages a session may ask for, by its LANG.
var langs = []struct {
	env  string
	lang assess.Lang
}{{"en_US.UTF-8", assess.English}, {"zh_CN.UTF-8", assess.Chinese}}

// narrow connects with code at 60×20 in the language env asks for.
func narrow(t *testing.T, addr, code, env string) *session {
	t.Helper()
	return connectWith(t, dialer{auth: answerAll(code)}, addr, ptyOpts{width: 60, height: 20, lang: env})
}

// saysWhole waits until s shows text on one line of its 60-column screen,
// whole: never cut, the instruction at its end kept.
func saysWhole(t *testing.T, s *session, text string) {
	t.Helper()
	s.waitFor(t, text)
}

// shutdown closes srv as a signal would; its error comes on the channel
// (the caller checks it on the test's goroutine).
func shutdown(t *testing.T, srv *Server) <-chan error {
	done := make(chan error, 1)
	deadline := patience(t)
	go func() {
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		defer cancel()
		done <- srv.Shutdown(ctx)
	}()
	return done
}

// opened is what a session shows once its trainer is on screen, at 60
// columns, in its language.
var opened = map[assess.Lang]string{assess.English: "Scenario 1", assess.Chinese: "场景 1"}

// Issue 21.10: every message the server sends a session is an enum the
// session says in its own language (a Chinese room gets Chinese), whole
// at 60 columns, and true about whether the lecture goes on. Each case
// runs a real server with an English and a Chinese session over SSH at
// 60×20; a goodbye also stays on the terminal after the trainer's screen
// is gone.
func TestServerSaysItInTheSessionsLanguage(t *testing.T) {
	t.Parallel()
	goodbye := func(t *testing.T, rm room.Room, want tui.Goodbye, before ...func(sessions []*session)) {
		srv, addr, _ := start(t, config.Config{ClassCode: "tulip"}, Lecture{Room: rm})
		var sessions []*session
		for _, l := range langs {
			s := narrow(t, addr, "tulip", l.env)
			s.waitFor(t, opened[l.lang])
			sessions = append(sessions, s)
		}
		for _, f := range before {
			f(sessions)
		}
		done := shutdown(t, srv)
		for i, l := range langs {
			saysWhole(t, sessions[i], want.Text(l.lang))
		}
		require.NoError(t, <-done)
		for i, l := range langs {
			require.True(t, sessions[i].closed(t))
			assert.Contains(t, sessions[i].raw(), want.Text(l.lang)+"\r\n", "the goodbye stays on the terminal")
		}
	}

	t.Run("the lecture is over", func(t *testing.T) {
		t.Parallel() // each case runs a server of its own
		goodbye(t, nil, tui.LectureOver)
	})
	t.Run("this server closes, the lecture goes on", func(t *testing.T) {
		t.Parallel()
		_, url := natsServer(t, 0, t.TempDir())
		goodbye(t, frontEnd(t, url), tui.ServerClosing)
	})
	t.Run("this server closes while the room is out of reach", func(t *testing.T) {
		t.Parallel()
		ns, url := natsServer(t, 0, t.TempDir())
		goodbye(t, frontEnd(t, url), tui.ClosingOutOfReach, func(sessions []*session) {
			ns.Shutdown()
			ns.WaitForShutdown()
			sessions[0].waitFor(t, "Room out of reach")
		})
	})
	t.Run("the server that hosts the room closes: the lecture pauses", func(t *testing.T) {
		t.Parallel()
		host, err := room.OpenShared(context.Background(), config.Room{Listen: "127.0.0.1:0", Name: "lecture", Token: roomToken,
			StoreDir: t.TempDir()}, testLogf(t))
		require.NoError(t, err)
		t.Cleanup(host.Close)
		goodbye(t, host, tui.HostClosing)
	})

	t.Run("another presenter took over", func(t *testing.T) {
		t.Parallel()
		_, addr, _ := start(t, config.Config{ClassCode: "tulip", PresenterCode: "orchid"}, Lecture{})
		var leaders []*session
		for _, l := range append(langs, langs[0]) {
			s := narrow(t, addr, "orchid", l.env)
			s.waitFor(t, map[assess.Lang]string{assess.English: "You lead the room", assess.Chinese: "你是主讲"}[l.lang])
			leaders = append(leaders, s)
		}
		for i, l := range langs {
			saysWhole(t, leaders[i], tui.TakenOver.Text(l.lang))
			require.True(t, leaders[i].closed(t))
			assert.Contains(t, leaders[i].raw(), tui.TakenOver.Text(l.lang)+"\r\n")
		}
	})

	t.Run("the terminal is larger than the server draws", func(t *testing.T) {
		t.Parallel()
		_, addr, _ := start(t, config.Config{ClassCode: "tulip", MaxPTY: config.Size{Width: 60, Height: 20}}, Lecture{})
		for _, l := range langs {
			s := connectWith(t, dialer{auth: answerAll("tulip")}, addr, ptyOpts{width: 61, height: 21, lang: l.env})
			saysWhole(t, s, tui.ClampedMsg{Width: 61, Height: 21, DrawnWidth: 60, DrawnHeight: 20}.Text(l.lang))
		}
	})

	t.Run("the room is full", func(t *testing.T) {
		t.Parallel()
		_, addr, _ := start(t, config.Config{ClassCode: "tulip", MaxSessions: 1}, Lecture{})
		first := narrow(t, addr, "tulip", "")
		first.waitFor(t, opened[assess.English])
		for _, l := range langs {
			s := narrow(t, addr, "tulip", l.env)
			require.True(t, s.closed(t))
			assert.Contains(t, s.raw(), roomFull.text(l.lang, 1))
		}
	})
}

// Every refusal is one line of at most 60 columns in both languages, at
// the largest numbers it may name.
func TestRefusalsFitSixtyColumns(t *testing.T) {
	t.Parallel()
	for _, l := range langs {
		for r := roomFull; r <= noTerminal; r++ {
			text := r.text(l.lang, config.MaxLimit)
			assert.NotEmpty(t, text)
			assert.NotContains(t, text, "\n")
			assert.LessOrEqual(t, ansiWidth(text), 60, "%q", text)
		}
	}
	assert.True(t, strings.HasPrefix(commandRefused.text(assess.English, 0), "toolgate serves the interactive trainer only"))
}

func ansiWidth(s string) int { return ansi.StringWidth(s) }

// TestServeLangIsTheDefault: `serve --lang zh` (Lecture.Lang) is the
// language of a session that asks for none — an SSH client that sends
// no LANG, as many do — while a session's own LANG still wins. Before,
// --lang was accepted by serve and did nothing: every such session was
// English.
func TestServeLangIsTheDefault(t *testing.T) {
	t.Parallel()
	_, addr, _ := start(t, config.Config{ClassCode: "tulip"}, Lecture{Lang: assess.Chinese})
	none := narrow(t, addr, "tulip", "")
	none.waitFor(t, opened[assess.Chinese])
	english := narrow(t, addr, "tulip", "en_US.UTF-8")
	english.waitFor(t, opened[assess.English])
	assert.NotContains(t, ansi.Strip(english.screen()), "场景", "its own LANG wins")
}
