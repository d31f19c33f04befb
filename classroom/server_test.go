package classroom

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"toolgate/classroom/config"
	"toolgate/scenarios"
)

func TestWrongCodeIsRefused(t *testing.T) {
	t.Parallel()
	_, addr, log := start(t, config.Config{ClassCode: "tulip"}, Lecture{failDelay: time.Millisecond})
	_, err := dial(addr, "daisy")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unable to authenticate")
	waitUntil(t, "the failure is logged", func() bool { return strings.Contains(log.String(), "auth failure from 127.0.0.1") })
	assert.NotContains(t, log.String(), "daisy", "the log never holds a code")
}

func TestNoPTYIsRefused(t *testing.T) {
	t.Parallel()
	_, addr, _ := start(t, config.Config{ClassCode: "tulip"}, Lecture{})
	s := connectWith(t, dialer{auth: answerAll("tulip")}, addr, ptyOpts{none: true})
	require.True(t, s.closed(t))
	assert.Contains(t, s.raw(), "Requires an active PTY")
}

func answerAll(code string) []gossh.AuthMethod { return []gossh.AuthMethod{answer(code)} }

func TestCommandsAreRefused(t *testing.T) {
	t.Parallel()
	_, addr, _ := start(t, config.Config{ClassCode: "tulip"}, Lecture{})
	c, err := dial(addr, "tulip")
	require.NoError(t, err)
	defer c.Close()
	sess, err := c.NewSession()
	require.NoError(t, err)
	out, err := sess.CombinedOutput("cat /etc/passwd")
	require.Error(t, err)
	assert.Contains(t, string(out), "toolgate serves the interactive trainer only")

	c2, err := dial(addr, "tulip")
	require.NoError(t, err)
	defer c2.Close()
	sub, err := c2.NewSession()
	require.NoError(t, err)
	assert.Error(t, sub.RequestSubsystem("sftp"), "no subsystems")
	_, err = c2.NewSession()
	assert.ErrorContains(t, err, "one session per connection", "one login, one seat")
	_, err = c2.Dial("tcp", "127.0.0.1:22")
	assert.Error(t, err, "no port forwarding")
}

func TestNoLoginWithoutAWay(t *testing.T) {
	t.Parallel()
	_, err := New(config.Config{HostKeyPath: filepath.Join(t.TempDir(), "k")}, Lecture{Scenarios: scenarios.Builtin()})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no way to log in")
	assert.NotContains(t, err.Error(), "--", "the library names no flag")
}

// New refuses what config.Validate refuses, in the library's words.
func TestNegativeLimitsAreRefused(t *testing.T) {
	t.Parallel()
	for _, cfg := range []config.Config{{MaxSessions: -1}, {Idle: -time.Second}, {LoginTimeout: -1}, {MaxWaiting: -1},
		{MaxWaitingPerAddress: -1}, {LoginFailures: -1}, {MaxPTY: config.Size{Width: -1, Height: 10}}} {
		cfg.Open, cfg.HostKeyPath = true, filepath.Join(t.TempDir(), "k")
		_, err := New(cfg, Lecture{Scenarios: scenarios.Builtin()})
		var bad *config.Error
		assert.ErrorAs(t, err, &bad, "%+v", cfg)
	}
}

func TestTheLecture(t *testing.T) {
	t.Parallel()
	srv, addr, log := start(t, config.Config{ClassCode: "tulip", PresenterCode: "orchid"}, Lecture{})
	lecturer := connect(t, addr, "orchid")
	lecturer.waitFor(t, "You lead the room")
	students := []*session{connect(t, addr, "tulip"),
		connectWith(t, dialer{auth: answerAll("tulip")}, addr, ptyOpts{lang: "zh_CN.UTF-8"}), connect(t, addr, "tulip")}
	students[0].waitFor(t, "Scenarios")
	students[1].waitFor(t, "场景")

	require.NoError(t, lecturer.send("4"))
	// The live scenario, its title held back until the reveal: it
	// would answer the room's question.
	students[0].waitFor(t, "» 4 · · ·")
	students[1].waitFor(t, "» 4 · · ·")
	require.NoError(t, lecturer.send("o"))
	students[0].waitFor(t, "Predict first: which rule fires?")
	students[1].waitFor(t, "先预测：哪条规则会触发？")

	require.NoError(t, students[0].send("7"))
	students[0].waitFor(t, "which code?")
	require.NoError(t, students[0].send("1"))
	require.NoError(t, students[1].send("4"))
	students[2].waitFor(t, "Predict first")
	require.NoError(t, students[2].send("7"))
	students[2].waitFor(t, "which code?")
	require.NoError(t, students[2].send("3"))
	// The rule went to the room at "7": "answered 3 of 3" can come before
	// the code is taken, and a reveal then would leave "3" to jump to
	// scenario 3. Each student's own screen says the answer is in.
	students[0].waitFor(t, "Wait for the reveal")
	students[2].waitFor(t, "Wait for the reveal")
	// The presenter's screen (projected, perhaps) says how many answered;
	// what they answered shows at the reveal.
	lecturer.waitFor(t, "answered 3 of 3")
	assert.NotContains(t, lecturer.screen(), "rule 7: 2")

	require.NoError(t, lecturer.send("v"))
	lecturer.waitFor(t, "rule 4: 1 · rule 7: 2 · answered 3 of 3")
	students[0].waitFor(t, "Right: rule 7, approval_missing")
	students[1].waitFor(t, "你选的是 规则")
	students[2].waitFor(t, "Half right: you said rule 7,")
	assert.Equal(t, 4, srv.Room().Stats().Sessions)

	// A student leaves abruptly; the room forgets them.
	students[2].client.Close()
	waitUntil(t, "the room forgets the student", func() bool { return srv.Room().Stats().Sessions == 3 })
	waitUntil(t, "the disconnect is logged", func() bool { return strings.Contains(log.String(), "disconnect") })

	// The end of the lecture reaches everyone.
	ctx, cancel := context.WithTimeout(context.Background(), time.Until(patience(t)))
	defer cancel()
	go func() { _ = srv.Shutdown(ctx) }()
	require.True(t, students[0].closed(t))
	assert.Contains(t, students[0].raw(), "The lecture is over")
}

// TestIdleSessionsAreClosed: a session without keys is closed (how long
// keys keep one open is TestLoadIdleKeepsBusySessions: a matter of time).
func TestIdleSessionsAreClosed(t *testing.T) {
	t.Parallel()
	_, addr, log := start(t, config.Config{ClassCode: "tulip", Idle: 300 * time.Millisecond}, Lecture{})
	s := connect(t, addr, "tulip")
	require.True(t, s.closed(t), "the idle session is closed")
	assert.Contains(t, s.raw(), "this session ends")
	waitUntil(t, "the disconnect is logged", func() bool { return strings.Contains(log.String(), "disconnect") })
}

func TestTheRoomIsCapped(t *testing.T) {
	t.Parallel()
	srv, addr, _ := start(t, config.Config{ClassCode: "tulip", MaxSessions: 2}, Lecture{})
	a := connect(t, addr, "tulip")
	b := connect(t, addr, "tulip")
	a.waitFor(t, "Scenarios")
	b.waitFor(t, "Scenarios")
	full := connect(t, addr, "tulip")
	require.True(t, full.closed(t))
	assert.Contains(t, full.raw(), "the room is full")
	a.client.Close()
	waitUntil(t, "a seat is free", func() bool { return srv.ActiveSessions() == 1 })
	again := connect(t, addr, "tulip")
	again.waitFor(t, "Scenarios")
}

// TestTheNotesScreen: the lecturer's second screen logs in with the notes
// code, follows the presenter's scenario and step, sees the poll fill, and
// counts as neither a student nor a presenter. A code shared by two roles
// is refused at start.
func TestTheNotesScreen(t *testing.T) {
	t.Parallel()
	srv, addr, log := start(t, config.Config{ClassCode: "tulip", PresenterCode: "orchid", NotesCode: "fern"}, Lecture{})
	lecturer := connect(t, addr, "orchid")
	lecturer.waitFor(t, "You lead the room")
	notes := connect(t, addr, "fern")
	// What is on the presenter's screen is live from the start.
	notes.waitFor(t, "Unknown tool — rule 0 of 8")
	student := connect(t, addr, "tulip")
	student.waitFor(t, "Scenarios")

	require.NoError(t, lecturer.send("4"))
	notes.waitFor(t, "Write without approval — rule 0 of 8")
	require.NoError(t, lecturer.send("ll"))
	notes.waitFor(t, "rule 2 of 8")
	notes.waitFor(t, "Answer: rule 7, approval_missing")
	require.NoError(t, lecturer.send("o"))
	student.waitFor(t, "Predict first")
	require.NoError(t, student.send("4"))
	notes.waitFor(t, "answered 1 of 1")
	require.NoError(t, notes.send("o"))
	waitUntil(t, "the notes screen is in the room", func() bool { return srv.Room().Stats().Sessions == 3 })
	assert.Equal(t, 1, srv.Room().Stats().Students, "the notes screen is not a student")
	assert.Contains(t, log.String(), "as notes")

	_, err := New(config.Config{ClassCode: "tulip", PresenterCode: "tulip", HostKeyPath: filepath.Join(t.TempDir(), "k")}, Lecture{Scenarios: scenarios.Builtin()})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ClassCode and PresenterCode are the same code")
}

// TestARuleCountsBeforeItsCode (issue 21 sweep, item 1): in a room, a
// rule with several codes goes to the room as soon as it is picked; a
// reveal before its code marks it half right and says why.
func TestARuleCountsBeforeItsCode(t *testing.T) {
	_, addr, _ := start(t, config.Config{ClassCode: "tulip", PresenterCode: "orchid"}, Lecture{})
	lecturer := connect(t, addr, "orchid")
	lecturer.waitFor(t, "You lead the room")
	student := connect(t, addr, "tulip")
	student.waitFor(t, "Scenarios")
	require.NoError(t, lecturer.send("4"))
	student.waitFor(t, "» 4 · · ·")
	require.NoError(t, lecturer.send("o"))
	student.waitFor(t, "Predict first: which rule fires?")
	require.NoError(t, student.send("7"))
	student.waitFor(t, "which code?")
	student.waitFor(t, "Rule 7 went to the room")
	lecturer.waitFor(t, "answered 1 of 1")
	require.NoError(t, lecturer.send("v"))
	lecturer.waitFor(t, "rule 7: 1")
	student.waitFor(t, "◐ Half right: you said rule 7, and the")
	student.waitFor(t, "came before its code; rule 7, approval_missing")
}
