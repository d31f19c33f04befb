package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"toolgate/assess"
	"toolgate/classroom/config"
	"toolgate/safefile"
	"toolgate/scenarios"
)

// ServeOptions is what the command line hands to the SSH server: the
// lecture's configuration, whole, and what only the command line knows.
type ServeOptions struct {
	Config    config.Config
	Scenarios []scenarios.Scenario
	// Lang is --lang: the language of a session whose SSH client sends
	// no LANG (a session's own wins); English when not given.
	Lang assess.Lang
	// MadeClassCode and MadePresenterCode say the codes were made for
	// this lecture (none was given): they are said at start.
	MadeClassCode, MadePresenterCode bool
	// Log is where the server's log lines go (--log FILE, opened to
	// append); nil is stderr. LogPath names it.
	Log     io.Writer
	LogPath string
	// Notices are the lines the command line has for stderr at start
	// (the codes made, a weak code). Serve says them first, once it has
	// taken the shutdown signals: a supervisor that stops the server as
	// soon as it has said something must meet its handler, not the
	// default action that kills it without a goodbye.
	Notices string
}

// parsePTYSize reads --max-pty: WIDTHxHEIGHT, within config's bounds.
func parsePTYSize(v string) (config.Size, error) {
	w, h, ok := strings.Cut(strings.ToLower(strings.TrimSpace(v)), "x")
	width, err1 := strconv.Atoi(w)
	height, err2 := strconv.Atoi(h)
	if !ok || err1 != nil || err2 != nil {
		return config.Size{}, fmt.Errorf("want WIDTHxHEIGHT, like 300x100")
	}
	p := config.Size{Width: width, Height: height}
	if err := config.CheckPTY(p); err != nil {
		return p, errors.New(ptyBounds)
	}
	return p, nil
}

// ptyBounds is config.CheckPTY's bounds, said for --max-pty.
var ptyBounds = fmt.Sprintf("want from %dx%d to %d wide, %d high and %d cells",
	config.MinPTY, config.MinPTYHeight, config.MaxPTYSide, config.MaxPTYSide, config.MaxPTYCells)

// ptyFlag is --max-pty.
type ptyFlag struct{ p *config.Size }

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

// serveSetting is a serve flag, the config field it sets, and the
// variable the environment may give it in; a flag on the command line
// wins over its variable.
type serveSetting struct {
	flag, field, env string
}

var serveSettings = []serveSetting{
	{"listen", "Listen", "TOOLGATE_LISTEN"},
	{"host-key", "HostKeyPath", "TOOLGATE_HOST_KEY"},
	{"max-sessions", "MaxSessions", "TOOLGATE_MAX_SESSIONS"},
	{"idle", "Idle", "TOOLGATE_IDLE"},
	{"login-timeout", "LoginTimeout", "TOOLGATE_LOGIN_TIMEOUT"},
	{"max-waiting", "MaxWaiting", "TOOLGATE_MAX_WAITING"},
	{"max-waiting-per-address", "MaxWaitingPerAddress", "TOOLGATE_MAX_WAITING_PER_ADDRESS"},
	{"max-sessions-per-address", "MaxSessionsPerAddress", "TOOLGATE_MAX_SESSIONS_PER_ADDRESS"},
	{"login-failures", "LoginFailures", "TOOLGATE_LOGIN_FAILURES"},
	{"max-pty", "MaxPTY", "TOOLGATE_MAX_PTY"},
	{"class-code", "ClassCode", "TOOLGATE_CLASS_CODE"},
	{"authorized-keys", "AuthorizedKeys", "TOOLGATE_AUTHORIZED_KEYS"},
	{"presenter-key", "PresenterKeys", "TOOLGATE_PRESENTER_KEY"},
	{"presenter-code", "PresenterCode", "TOOLGATE_PRESENTER_CODE"},
	{"notes-code", "NotesCode", "TOOLGATE_NOTES_CODE"},
	{"timer", "Timer", "TOOLGATE_TIMER"},
	{"room-url", "Room.URL", "TOOLGATE_ROOM_URL"},
	{"room", "Room.Name", "TOOLGATE_ROOM"},
	{"room-listen", "Room.Listen", "TOOLGATE_ROOM_LISTEN"},
	{"room-token", "Room.Token", "TOOLGATE_ROOM_TOKEN"},
	{"room-nkey", "Room.NKeyFile", "TOOLGATE_ROOM_NKEY"},
	{"room-fingerprint", "Room.Fingerprint", "TOOLGATE_ROOM_FINGERPRINT"},
	{"room-ca", "Room.CAFile", "TOOLGATE_ROOM_CA"},
	{"web", "Web.Listen", "TOOLGATE_WEB"},
	{"web-url", "Web.URL", "TOOLGATE_WEB_URL"},
	{"web-tls", "Web.TLS", "TOOLGATE_WEB_TLS"},
	{"web-max-conns", "Web.MaxConns", "TOOLGATE_WEB_MAX_CONNS"},
	{"web-max-conns-per-address", "Web.MaxConnsPerAddress", "TOOLGATE_WEB_MAX_CONNS_PER_ADDRESS"},
	{"open", "Open", ""},
	{"log", "", "TOOLGATE_LOG"},
}

// flagOf is the flag that sets a config field.
func flagOf(field string) string {
	for _, s := range serveSettings {
		if s.field == field {
			return s.flag
		}
	}
	return field
}

func newServe(c *common) *cobra.Command {
	o := ServeOptions{Config: config.Default()}
	cfg := &o.Config
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

Each session is in the language its SSH client asks for (LANG, LC_ALL); --lang zh makes
Chinese the language of those that ask for none.

The log — one line per connection, login failure, refusal and takeover — goes to stderr, or
with --log FILE (TOOLGATE_LOG) to the end of FILE, created with mode 0600; FILE must be a
regular file (a named pipe or a device is refused). The start-up lines go to both.

A room larger than one machine: several front-ends share one room through NATS. One hosts
an embedded NATS server (--room-listen), the others join it (--room-url); all give the same
--room and --room-token (or --room-nkey). Students connect to any front-end (one DNS name or a
TCP load balancer in front); the lecturer too. Off loopback NATS speaks TLS: the host makes a
certificate and prints its fingerprint for --room-fingerprint.

Phones in the hall: --web HOST:PORT serves a page beside SSH on which students answer the
poll from a phone browser, in the same room. The projector and the notes screen show a QR
code of its link (--web-url when phones reach it by another address); the link carries a
token for this lecture, so a phone that scans it types no code. Plain HTTP is for a lecture
LAN and is warned of; --web-tls makes a certificate and prints its fingerprint. See docs/web.md.`,
		Example: `  TOOLGATE_CLASS_CODE=tulip TOOLGATE_PRESENTER_CODE=orchid toolgate serve
  toolgate serve --listen 0.0.0.0:2323 --class-code tulip --presenter-key ~/.ssh/id_ed25519.pub
  toolgate serve --open --max-sessions 60 --idle 20m
  toolgate serve --listen 0.0.0.0:2323 --web 0.0.0.0:8080 --web-url http://10.0.0.5:8080
  TOOLGATE_ROOM_TOKEN=... toolgate serve --class-code tulip --room lecture --room-listen 0.0.0.0:4222
  TOOLGATE_ROOM_TOKEN=... toolgate serve --class-code tulip --room lecture --room-url tls://10.0.0.5:4222 --room-fingerprint SHA256:...`,
		Args:              cobra.NoArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	f := cmd.Flags()
	f.StringVar(&cfg.Listen, "listen", cfg.Listen, "address to listen on; a public one must be given on purpose")
	f.StringVar(&cfg.HostKeyPath, "host-key", "", "the server's ed25519 key, created on first start (default in the XDG state directory)")
	f.IntVar(&cfg.MaxSessions, "max-sessions", cfg.MaxSessions, "most sessions at once; the next is told the room is full")
	f.DurationVar(&cfg.Idle, "idle", cfg.Idle, "close a session after this long without a keypress")
	f.DurationVar(&cfg.LoginTimeout, "login-timeout", cfg.LoginTimeout, "close a connection that has not logged in and started its session within this")
	f.IntVar(&cfg.MaxWaiting, "max-waiting", 0, "most connections waiting to log in at once (default twice --max-sessions)")
	f.IntVar(&cfg.MaxWaitingPerAddress, "max-waiting-per-address", 0, "most connections from one address waiting to log in (default --max-waiting: a class behind one NAT is one address)")
	f.IntVar(&cfg.MaxSessionsPerAddress, "max-sessions-per-address", 0, "most sessions open from one address (default no cap: a class behind one NAT is one address)")
	f.IntVar(&cfg.LoginFailures, "login-failures", cfg.LoginFailures, "wrong codes one address gets answered at once; then one every 3s (a right code always gets in)")
	f.Var(ptyFlag{&cfg.MaxPTY}, "max-pty", "largest terminal a session is drawn at (WIDTHxHEIGHT); a larger one is clamped")
	f.StringVar(&cfg.ClassCode, "class-code", "", "the code students type to get in")
	f.StringVar(&cfg.AuthorizedKeys, "authorized-keys", "", "an authorized_keys file of students' keys to admit (re-read when it changes)")
	f.BoolVar(&cfg.Open, "open", false, "let anyone in without a code or key (prints a warning)")
	f.StringVar(&cfg.PresenterKeys, "presenter-key", "", "an authorized_keys file of the lecturer's keys")
	f.StringVar(&cfg.PresenterCode, "presenter-code", "", "the code that leads the room; each presenter login takes the room over")
	f.StringVar(&cfg.NotesCode, "notes-code", "", "the code of the lecturer's second screen: speaker notes that follow the presenter's scenario and step, the poll and the clocks")
	f.DurationVar(&cfg.Timer, "timer", 0, "count the lecture down from this on the notes screen (e.g. 45m)")
	f.StringVar(&cfg.Room.URL, "room-url", "", "join a room shared through the NATS server at nats://HOST:PORT (tls:// off loopback)")
	f.StringVar(&cfg.Room.Name, "room", "", "the shared room's name (letters, digits, _ and -)")
	f.StringVar(&cfg.Room.Listen, "room-listen", "", "host the shared room's NATS server (embedded) on HOST:PORT for the other front-ends")
	f.StringVar(&cfg.Room.Token, "room-token", "", "the secret front-ends give NATS (16 characters or more; better in TOOLGATE_ROOM_TOKEN)")
	f.StringVar(&cfg.Room.NKeyFile, "room-nkey", "", "an NKey seed file front-ends prove themselves to NATS with (made by the host if missing)")
	f.StringVar(&cfg.Room.Fingerprint, "room-fingerprint", "", "the SHA256 fingerprint of the NATS server's certificate, as its host printed it")
	f.StringVar(&cfg.Room.CAFile, "room-ca", "", "a PEM file of the authority that signed the NATS server's certificate")
	f.StringVar(&cfg.Web.Listen, "web", "", "also serve the phones' page on HOST:PORT: students answer the poll from a phone, by QR code (plain HTTP is warned of; see --web-tls)")
	f.StringVar(&cfg.Web.URL, "web-url", "", "the address phones reach the page at, for the QR code (default from --web)")
	f.BoolVar(&cfg.Web.TLS, "web-tls", false, "serve the phones' page over HTTPS with a certificate this host makes (its fingerprint is printed)")
	f.IntVar(&cfg.Web.MaxConns, "web-max-conns", 0, fmt.Sprintf("most connections to the phones' page at once, event streams included (default %d)", config.DefaultWebMaxConns))
	f.IntVar(&cfg.Web.MaxConnsPerAddress, "web-max-conns-per-address", 0, "most connections to the phones' page from one address (default no cap: a class behind one NAT is one address)")
	f.StringVar(&o.LogPath, "log", "", "append the server's log lines to this file (created with mode 0600) instead of stderr")
	cmd.RunE = func(_ *cobra.Command, _ []string) (err error) {
		if err := serveFromEnv(f, c.env.Getenv); err != nil {
			return &exitError{ExitUsage, err}
		}
		// The codes not given are made first, so that Validate sees a
		// room someone can log in to; they are said only once it passed.
		o.MadeClassCode, o.MadePresenterCode = cfg.MakeCodes()
		if err := checkServe(f, cfg); err != nil {
			return &exitError{ExitUsage, err}
		}
		all, err := c.scenarioSet()
		if err != nil {
			return err
		}
		o.Scenarios = all
		if c.lang != "" {
			if o.Lang, err = c.language(); err != nil {
				return err
			}
		}
		var notices strings.Builder
		sayCodes(f, &o, &notices)
		o.Notices = notices.String()
		if c.env.Serve == nil {
			return &exitError{ExitUsage, fmt.Errorf("serve is not available in this build")}
		}
		if o.LogPath != "" {
			logFile, err := safefile.OpenAppend(o.LogPath, 0o600)
			if err != nil {
				return &exitError{ExitUsage, fmt.Errorf("%s: %v", name(f, "log"), logReason(err))}
			}
			// The log has been written to: a close that fails may have
			// lost its last lines, which the exit status says.
			defer func() {
				if cerr := logFile.Close(); cerr != nil && err == nil {
					err = fmt.Errorf("%s: %v", name(f, "log"), cerr)
				}
			}()
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
		if s.env == "" {
			continue
		}
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

// checkServe refuses what config.Validate refuses, and a cap given as
// 0: on the command line, a flag given names a cap, and 0 is none.
func checkServe(f *pflag.FlagSet, cfg *config.Config) error {
	if err := cfg.Validate(); err != nil {
		return configError(f, err)
	}
	for _, flag := range []string{"max-waiting", "max-waiting-per-address", "max-sessions-per-address", "web-max-conns", "web-max-conns-per-address"} {
		if f.Changed(flag) && f.Lookup(flag).Value.String() == "0" {
			return fmt.Errorf("%s: want from 1 to %d", name(f, flag), config.MaxLimit)
		}
	}
	return nil
}

// configError says a config error in the command line's words: by the flag or
// the variable that set each field, with its value unless it is a secret
// or beside the point.
func configError(f *pflag.FlagSet, err error) error {
	var e *config.Error
	if !errors.As(err, &e) {
		return err
	}
	named := func(i int) string { return name(f, flagOf(e.Fields[i])) }
	said := func(i int) string { return source(f, flagOf(e.Fields[i])) }
	switch e.Problem {
	case config.OutOfRange:
		return fmt.Errorf("%s: want from %d to %d", named(0), e.Min, e.Max)
	case config.NotPositive:
		return fmt.Errorf("%s: want a positive duration (like 30s or 10m)", named(0))
	case config.TimerOutOfRange:
		return fmt.Errorf("%s: want a duration from 0 to 24h (like 45m)", named(0))
	case config.PTYOutOfRange:
		return fmt.Errorf("%s: %s", named(0), ptyBounds)
	case config.NoLogin:
		return errors.New("no way to log in: give --class-code, --authorized-keys, or --open to let anyone in")
	case config.SameCode:
		return fmt.Errorf("%s and %s are the same code: give each role its own", said(0), said(1))
	case config.NotShared:
		return fmt.Errorf("%s: only for a shared room: give --room-url (join) or --room-listen (host) too", said(0))
	case config.JoinAndHost:
		return fmt.Errorf("%s and %s: give one: join a room's NATS server, or host it", named(0), named(1))
	case config.NoRoomName:
		return errors.New("a shared room needs a name: give --room NAME (the same on every front-end)")
	case config.BadRoomName:
		return fmt.Errorf("%s: want letters, digits, _ and -, at most 32", named(0))
	case config.NoCredential:
		return errors.New("a shared room needs one of --room-token and --room-nkey (the same on every front-end)")
	case config.ShortToken:
		return fmt.Errorf("%s: want at least %d characters", said(0), config.MinTokenBytes)
	case config.BadFingerprint:
		return fmt.Errorf("%s: want SHA256: and 43 characters of base64, as the host printed it", named(0))
	case config.PinAndCA:
		return fmt.Errorf("%s and %s: give one", named(0), named(1))
	case config.BadURL:
		return fmt.Errorf("%s: want nats://HOST:PORT or tls://HOST:PORT (credentials go in --room-token or --room-nkey)", named(0))
	case config.PlainOffLoopback:
		return fmt.Errorf("%s: off loopback, front-ends speak TLS to NATS: use tls://, with --room-fingerprint or --room-ca if its certificate is not from a public authority", named(0))
	case config.BadListen:
		return fmt.Errorf("%s: want HOST:PORT, like 0.0.0.0:4222", named(0))
	case config.HostPins:
		return fmt.Errorf("%s: for a front-end that joins (--room-url); the host makes its own certificate", said(0))
	case config.WebOff:
		return fmt.Errorf("%s: only with the phones' page: give --web HOST:PORT too", said(0))
	case config.BadWebListen:
		return fmt.Errorf("%s: want HOST:PORT, like 0.0.0.0:8080", named(0))
	case config.BadWebURL:
		return fmt.Errorf("%s: want http://HOST[:PORT] or https://HOST[:PORT]", named(0))
	}
	return err
}

// sayCodes writes to w, for stderr, the codes made for this lecture
// (config.MakeCodes), never for the log: no code is ever logged. It warns
// of a code given that is weak.
func sayCodes(f *pflag.FlagSet, o *ServeOptions, w io.Writer) {
	cfg := &o.Config
	if o.MadeClassCode {
		fmt.Fprintf(w, "toolgate: class code: %s (made for this lecture: students type it; it is on the presenter's screen)\n", cfg.ClassCode)
	}
	if o.MadePresenterCode {
		fmt.Fprintf(w, "toolgate: presenter code: %s (made for this lecture: keep it to yourself)\n", cfg.PresenterCode)
	}
	for _, c := range []struct {
		flag, code string
		made       bool
	}{{"class-code", cfg.ClassCode, o.MadeClassCode}, {"presenter-code", cfg.PresenterCode, o.MadePresenterCode}, {"notes-code", cfg.NotesCode, false}} {
		if c.code == "" || c.made {
			continue
		}
		if bits := config.CodeBits(c.code); bits < config.StrongBits {
			fmt.Fprintf(w, "toolgate: WARNING: %s is weak (about %.0f bits; want %d): anyone who reaches the port may guess it in time; leave it out to have one made\n",
				source(f, c.flag), bits, config.StrongBits)
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
