package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"toolgate/classroom"
	"toolgate/safefile"
	"toolgate/scenarios"
)

// ServeOptions is what the command line hands to the SSH server.
type ServeOptions struct {
	Scenarios    []scenarios.Scenario
	Listen       string
	HostKey      string
	MaxSessions  int
	Idle         time.Duration
	LoginTimeout time.Duration
	// MaxWaiting and MaxWaitingPerAddress cap the connections waiting to
	// log in, in all and from one address; 0 leaves them to classroom
	// (which derives them from MaxSessions).
	MaxWaiting           int
	MaxWaitingPerAddress int
	// MaxSessionsPerAddress caps the sessions open from one address (0:
	// no cap, for a hall behind one NAT).
	MaxSessionsPerAddress int
	LoginFailures         int
	MaxPTY                classroom.Size
	ClassCode             string
	// MadeClassCode and MadePresenterCode say the codes were made for
	// this lecture (none was given): they are said at start.
	MadeClassCode, MadePresenterCode bool
	AuthorizedKeys                   string
	Open                             bool
	PresenterKeys                    string
	PresenterCode                    string
	// NotesCode admits the lecturer's notes screen; Timer counts the
	// lecture down on it.
	NotesCode string
	Timer     time.Duration
	// A room shared by several front-ends through NATS: join the server
	// at RoomURL, or host one on RoomListen; RoomName names the room.
	// Front-ends prove themselves with RoomToken or the NKey seed file
	// RoomNKey; RoomFingerprint pins the server's certificate, RoomCA is
	// the authority that signed it.
	RoomURL, RoomName, RoomListen string
	RoomToken, RoomNKey           string
	RoomFingerprint, RoomCA       string
	// Log is where the server's log lines go (--log FILE, opened to
	// append); nil is stderr. LogPath names it.
	Log     io.Writer
	LogPath string
}

// parsePTYSize reads --max-pty: WIDTHxHEIGHT.
func parsePTYSize(v string) (classroom.Size, error) {
	w, h, ok := strings.Cut(strings.ToLower(strings.TrimSpace(v)), "x")
	width, err1 := strconv.Atoi(w)
	height, err2 := strconv.Atoi(h)
	if !ok || err1 != nil || err2 != nil {
		return classroom.Size{}, fmt.Errorf("want WIDTHxHEIGHT, like 300x100")
	}
	p := classroom.Size{Width: width, Height: height}
	if width < 40 || height < 10 || width > 4096 || height > 4096 || width*height > 1<<20 {
		return p, fmt.Errorf("want from 40x10 to 4096 wide, 4096 high and 1048576 cells")
	}
	return p, nil
}

// ptyFlag is --max-pty.
type ptyFlag struct{ p *classroom.Size }

func (f ptyFlag) String() string { return fmt.Sprintf("%dx%d", f.p.Width, f.p.Height) }
func (f ptyFlag) Type() string   { return "WxH" }
func (f ptyFlag) Set(v string) error {
	p, err := parsePTYSize(v)
	if err != nil {
		return err
	}
	*f.p = p
	return nil
}

// serveSetting is a serve flag that the environment may also give; a
// flag on the command line wins over its variable.
type serveSetting struct {
	flag, env string
}

var serveSettings = []serveSetting{
	{"listen", "TOOLGATE_LISTEN"},
	{"host-key", "TOOLGATE_HOST_KEY"},
	{"max-sessions", "TOOLGATE_MAX_SESSIONS"},
	{"idle", "TOOLGATE_IDLE"},
	{"login-timeout", "TOOLGATE_LOGIN_TIMEOUT"},
	{"max-waiting", "TOOLGATE_MAX_WAITING"},
	{"max-waiting-per-address", "TOOLGATE_MAX_WAITING_PER_ADDRESS"},
	{"max-sessions-per-address", "TOOLGATE_MAX_SESSIONS_PER_ADDRESS"},
	{"login-failures", "TOOLGATE_LOGIN_FAILURES"},
	{"max-pty", "TOOLGATE_MAX_PTY"},
	{"class-code", "TOOLGATE_CLASS_CODE"},
	{"authorized-keys", "TOOLGATE_AUTHORIZED_KEYS"},
	{"presenter-key", "TOOLGATE_PRESENTER_KEY"},
	{"presenter-code", "TOOLGATE_PRESENTER_CODE"},
	{"notes-code", "TOOLGATE_NOTES_CODE"},
	{"timer", "TOOLGATE_TIMER"},
	{"room-url", "TOOLGATE_ROOM_URL"},
	{"room", "TOOLGATE_ROOM"},
	{"room-listen", "TOOLGATE_ROOM_LISTEN"},
	{"room-token", "TOOLGATE_ROOM_TOKEN"},
	{"room-nkey", "TOOLGATE_ROOM_NKEY"},
	{"room-fingerprint", "TOOLGATE_ROOM_FINGERPRINT"},
	{"room-ca", "TOOLGATE_ROOM_CA"},
	{"log", "TOOLGATE_LOG"},
}

func newServe(c *common) *cobra.Command {
	var o ServeOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the trainer over SSH to a lecture hall, with a live poll",
		Long: `Serve toolgate over SSH: students run "ssh -p 2323 class@HOST" and are in the trainer,
nothing to install. The lecturer joins as presenter (--presenter-key or --presenter-code),
leads the live scenario, opens the question (o) and reveals it (v); the presenter's screen
shows the room's answers as they come, without names. A presenter's login takes the room
over from the session that led it (a lecturer whose connection dropped logs in again).

Someone must be able to log in, and only on purpose: give --class-code (students type it),
--authorized-keys, or --open to let anyone in (a warning is printed). Without any of them, a
class code of four words is made for the lecture (45.9 bits), and without --presenter-code or
--presenter-key a presenter code too: both are said on stderr at start, and the class code is
on the presenter's screen. A code given that is weak (under 40 bits) is warned about. Every flag but --open
can also come from the environment, as TOOLGATE_ and the flag's name in capitals with _ for -
(TOOLGATE_MAX_SESSIONS, TOOLGATE_CLASS_CODE…; codes in the environment stay out of "ps"); a
flag on the command line wins. An invalid value, from either, is refused at start.

The log — one line per connection, login failure, refusal and takeover — goes to stderr, or
with --log FILE (TOOLGATE_LOG) to the end of FILE, created with mode 0600; FILE must be a
regular file (a named pipe or a device is refused). The start-up lines go to both.

A room larger than one machine: several front-ends share one room through NATS. One hosts
an embedded NATS server (--room-listen), the others join it (--room-url); all give the same
--room and --room-token (or --room-nkey). Students connect to any front-end (one DNS name or a
TCP load balancer in front); the lecturer too. Off loopback NATS speaks TLS: the host makes a
certificate and prints its fingerprint for --room-fingerprint.`,
		Example: `  TOOLGATE_CLASS_CODE=tulip TOOLGATE_PRESENTER_CODE=orchid toolgate serve
  toolgate serve --listen 0.0.0.0:2323 --class-code tulip --presenter-key ~/.ssh/id_ed25519.pub
  toolgate serve --open --max-sessions 60 --idle 20m
  TOOLGATE_ROOM_TOKEN=... toolgate serve --class-code tulip --room lecture --room-listen 0.0.0.0:4222
  TOOLGATE_ROOM_TOKEN=... toolgate serve --class-code tulip --room lecture --room-url tls://10.0.0.5:4222 --room-fingerprint SHA256:...`,
		Args:              cobra.NoArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	f := cmd.Flags()
	f.StringVar(&o.Listen, "listen", "127.0.0.1:2323", "address to listen on; a public one must be given on purpose")
	f.StringVar(&o.HostKey, "host-key", "", "the server's ed25519 key, created on first start (default in the XDG state directory)")
	f.IntVar(&o.MaxSessions, "max-sessions", classroom.DefaultMaxSessions, "most sessions at once; the next is told the room is full")
	f.DurationVar(&o.Idle, "idle", classroom.DefaultIdle, "close a session after this long without a key")
	f.DurationVar(&o.LoginTimeout, "login-timeout", classroom.DefaultLoginTimeout, "close a connection that has not logged in and started its session within this")
	f.IntVar(&o.MaxWaiting, "max-waiting", 0, "most connections waiting to log in at once (default twice --max-sessions)")
	f.IntVar(&o.MaxWaitingPerAddress, "max-waiting-per-address", 0, "most connections from one address waiting to log in (default --max-waiting: a class behind one NAT is one address)")
	f.IntVar(&o.MaxSessionsPerAddress, "max-sessions-per-address", 0, "most sessions open from one address (default no cap: a class behind one NAT is one address)")
	f.IntVar(&o.LoginFailures, "login-failures", classroom.DefaultLoginFailures, "wrong codes one address gets answered at once; then one every 3s (a right code always gets in)")
	o.MaxPTY = classroom.DefaultMaxPTY
	f.Var(ptyFlag{&o.MaxPTY}, "max-pty", "largest terminal a session is drawn at (WIDTHxHEIGHT); a larger one is clamped")
	f.StringVar(&o.ClassCode, "class-code", "", "the code students type to get in")
	f.StringVar(&o.AuthorizedKeys, "authorized-keys", "", "an authorized_keys file of students' keys to admit (re-read when it changes)")
	f.BoolVar(&o.Open, "open", false, "let anyone in without a code or key (prints a warning)")
	f.StringVar(&o.PresenterKeys, "presenter-key", "", "an authorized_keys file of the lecturer's keys")
	f.StringVar(&o.PresenterCode, "presenter-code", "", "the code that leads the room; each presenter login takes the room over")
	f.StringVar(&o.NotesCode, "notes-code", "", "the code of the lecturer's second screen: speaker notes that follow the presenter's scenario and step, the poll and the clocks")
	f.DurationVar(&o.Timer, "timer", 0, "count the lecture down from this on the notes screen (e.g. 45m)")
	f.StringVar(&o.RoomURL, "room-url", "", "join a room shared through the NATS server at nats://HOST:PORT (tls:// off loopback)")
	f.StringVar(&o.RoomName, "room", "", "the shared room's name (letters, digits, _ and -)")
	f.StringVar(&o.RoomListen, "room-listen", "", "host the shared room's NATS server (embedded) on HOST:PORT for the other front-ends")
	f.StringVar(&o.RoomToken, "room-token", "", "the secret front-ends give NATS (16 characters or more; better in TOOLGATE_ROOM_TOKEN)")
	f.StringVar(&o.RoomNKey, "room-nkey", "", "an NKey seed file front-ends prove themselves to NATS with (made by the host if missing)")
	f.StringVar(&o.RoomFingerprint, "room-fingerprint", "", "the SHA256 fingerprint of the NATS server's certificate, as its host printed it")
	f.StringVar(&o.RoomCA, "room-ca", "", "a PEM file of the authority that signed the NATS server's certificate")
	f.StringVar(&o.LogPath, "log", "", "append the server's log lines to this file (created with mode 0600) instead of stderr")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if err := serveFromEnv(f, c.env.Getenv); err != nil {
			return &exitError{ExitUsage, err}
		}
		if err := checkServe(f, &o); err != nil {
			return &exitError{ExitUsage, err}
		}
		all, err := c.scenarioSet()
		if err != nil {
			return err
		}
		o.Scenarios = all
		makeCodes(f, &o, c.env.Stderr)
		if c.env.Serve == nil {
			return &exitError{ExitUsage, fmt.Errorf("serve is not available in this build")}
		}
		if o.LogPath != "" {
			logFile, err := safefile.OpenAppend(o.LogPath, 0o600)
			if err != nil {
				return &exitError{ExitUsage, fmt.Errorf("%s: %v", name(f, "log"), logReason(err))}
			}
			defer logFile.Close()
			o.Log = logFile
		}
		return c.env.Serve(o)
	}
	return cmd
}

// serveFromEnv sets each flag not given on the command line from its
// variable; a value the flag refuses is an error naming the variable.
func serveFromEnv(f *pflag.FlagSet, getenv func(string) string) error {
	for _, s := range serveSettings {
		v := getenv(s.env)
		if v == "" || f.Changed(s.flag) {
			continue
		}
		if err := f.Set(s.flag, v); err != nil {
			return fmt.Errorf("%s=%q: %v", s.env, v, reason(err))
		}
		// Set marks the flag changed; name tells the two apart again.
		f.Lookup(s.flag).Annotations = map[string][]string{"env": {s.env}}
	}
	return nil
}

// logReason says why a log file cannot be opened, without Go's prefix.
func logReason(err error) string {
	var nr *safefile.NotRegularError
	if errors.As(err, &nr) {
		return safefile.Kind(nr.Mode) + ", not a regular file"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// reason is a flag parser's complaint without its Go prefix.
func reason(err error) string {
	msg := err.Error()
	if _, after, ok := strings.Cut(msg, " flag: "); ok {
		msg = after
	}
	switch {
	case strings.Contains(msg, "invalid syntax"), strings.Contains(msg, "value out of range"):
		return "not a whole number"
	case strings.Contains(msg, "time: "):
		return "not a duration (like 30s, 10m or 1h)"
	}
	return msg
}

// name is how an error names where a value came from: the variable that
// set it, or the flag.
func name(f *pflag.FlagSet, flag string) string {
	fl := f.Lookup(flag)
	if env := fl.Annotations["env"]; len(env) > 0 {
		return fmt.Sprintf("%s=%s", env[0], fl.Value)
	}
	return fmt.Sprintf("--%s %s", flag, fl.Value)
}

// checkServe refuses values that parse but make no sense. The limits
// whose default follows --max-sessions stay 0 unless given: classroom
// fills them.
func checkServe(f *pflag.FlagSet, o *ServeOptions) error {
	atLeastOne := []struct {
		flag  string
		value int
	}{{"max-sessions", o.MaxSessions}, {"login-failures", o.LoginFailures}}
	if f.Changed("max-waiting") {
		atLeastOne = append(atLeastOne, struct {
			flag  string
			value int
		}{"max-waiting", o.MaxWaiting})
	}
	if f.Changed("max-waiting-per-address") {
		atLeastOne = append(atLeastOne, struct {
			flag  string
			value int
		}{"max-waiting-per-address", o.MaxWaitingPerAddress})
	}
	for _, v := range atLeastOne {
		if v.value < 1 || v.value > 100000 {
			return fmt.Errorf("%s: want from 1 to 100000", name(f, v.flag))
		}
	}
	if o.Timer < 0 || o.Timer > 24*time.Hour {
		return fmt.Errorf("%s: want a duration from 0 to 24h (like 45m)", name(f, "timer"))
	}
	for _, d := range []struct {
		flag  string
		value time.Duration
	}{{"idle", o.Idle}, {"login-timeout", o.LoginTimeout}} {
		if d.value <= 0 {
			return fmt.Errorf("%s: want a positive duration (like 30s or 10m)", name(f, d.flag))
		}
	}
	if err := checkRoom(f, o); err != nil {
		return err
	}
	if f.Changed("max-sessions-per-address") && (o.MaxSessionsPerAddress < 1 || o.MaxSessionsPerAddress > 100000) {
		return fmt.Errorf("%s: want from 1 to 100000", name(f, "max-sessions-per-address"))
	}
	return nil
}

// makeCodes makes the codes not given — a class code when nobody could
// log in otherwise, a presenter code when nobody could lead — and says
// them on stderr (not in the log: no code is ever logged); it warns of a
// code given that is weak.
func makeCodes(f *pflag.FlagSet, o *ServeOptions, stderr io.Writer) {
	if o.ClassCode == "" && o.AuthorizedKeys == "" && !o.Open {
		o.ClassCode, o.MadeClassCode = classroom.NewCode(), true
		fmt.Fprintf(stderr, "toolgate: class code: %s (made for this lecture: students type it; it is on the presenter's screen)\n", o.ClassCode)
	}
	if o.PresenterCode == "" && o.PresenterKeys == "" {
		o.PresenterCode, o.MadePresenterCode = classroom.NewCode(), true
		fmt.Fprintf(stderr, "toolgate: presenter code: %s (made for this lecture: keep it to yourself)\n", o.PresenterCode)
	}
	for _, c := range []struct {
		flag, code string
		made       bool
	}{{"class-code", o.ClassCode, o.MadeClassCode}, {"presenter-code", o.PresenterCode, o.MadePresenterCode}, {"notes-code", o.NotesCode, false}} {
		if c.code == "" || c.made {
			continue
		}
		if bits := classroom.CodeBits(c.code); bits < classroom.StrongBits {
			fmt.Fprintf(stderr, "toolgate: WARNING: %s is weak (about %.0f bits; want %d): anyone who reaches the port may guess it in time; leave it out to have one made\n",
				source(f, c.flag), bits, classroom.StrongBits)
		}
	}
}

// source names where a secret came from, without the secret.
func source(f *pflag.FlagSet, flag string) string {
	if env := f.Lookup(flag).Annotations["env"]; len(env) > 0 {
		return env[0]
	}
	return "--" + flag
}

var fingerprintRe = regexp.MustCompile(`^SHA256:[A-Za-z0-9+/]{43}$`)

// checkRoom refuses a shared room's settings that cannot work: a room
// needs a name, one way to reach NATS and one credential; off loopback,
// TLS.
func checkRoom(f *pflag.FlagSet, o *ServeOptions) error {
	shared := o.RoomURL != "" || o.RoomListen != ""
	if !shared {
		for _, flag := range []string{"room", "room-token", "room-nkey", "room-fingerprint", "room-ca"} {
			if f.Lookup(flag).Value.String() != "" {
				return fmt.Errorf("%s: only for a shared room: give --room-url (join) or --room-listen (host) too", source(f, flag))
			}
		}
		return nil
	}
	switch {
	case o.RoomURL != "" && o.RoomListen != "":
		return fmt.Errorf("%s and %s: give one: join a room's NATS server, or host it", name(f, "room-url"), name(f, "room-listen"))
	case o.RoomName == "":
		return errors.New("a shared room needs a name: give --room NAME (the same on every front-end)")
	case !classroom.ValidRoomName(o.RoomName):
		return fmt.Errorf("%s: want letters, digits, _ and -, at most 32", name(f, "room"))
	case (o.RoomToken == "") == (o.RoomNKey == ""):
		return errors.New("a shared room needs one of --room-token and --room-nkey (the same on every front-end)")
	case o.RoomToken != "" && len(o.RoomToken) < 16:
		return fmt.Errorf("%s: want at least 16 characters", source(f, "room-token"))
	case o.RoomFingerprint != "" && !fingerprintRe.MatchString(o.RoomFingerprint):
		return fmt.Errorf("%s: want SHA256: and 43 characters of base64, as the host printed it", name(f, "room-fingerprint"))
	case o.RoomFingerprint != "" && o.RoomCA != "":
		return fmt.Errorf("%s and %s: give one", name(f, "room-fingerprint"), name(f, "room-ca"))
	}
	if o.RoomURL != "" {
		if err := classroom.CheckRoomURL(o.RoomURL, o.RoomFingerprint != "" || o.RoomCA != ""); err != nil {
			return fmt.Errorf("%s: %v", name(f, "room-url"), err)
		}
		return nil
	}
	_, port, err := net.SplitHostPort(o.RoomListen)
	if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 1 || n > 65535 {
		return fmt.Errorf("%s: want HOST:PORT, like 0.0.0.0:4222", name(f, "room-listen"))
	}
	for _, flag := range []string{"room-fingerprint", "room-ca"} {
		if f.Lookup(flag).Value.String() != "" {
			return fmt.Errorf("%s: for a front-end that joins (--room-url); the host makes its own certificate", source(f, flag))
		}
	}
	return nil
}
