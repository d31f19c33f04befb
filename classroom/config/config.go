// Package config is how a lecture is served: one Config, its Default,
// and Validate, which says what is wrong with it by the settings' own
// names. A command line maps its flags and environment onto a Config and
// words Validate's errors in its own terms (as soft-serve's config
// does); this package depends on nothing of the server's, so a command
// line that builds a Config does not depend on the trainer.
package config

import (
	"net"
	"net/url"
	"regexp"
	"strconv"
	"time"
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
	// LoginTimeout closes a connection that has not started its session
	// (handshake, login, PTY, shell) this long after it connected.
	LoginTimeout time.Duration
	// MaxWaiting caps the connections waiting to log in (0: twice
	// MaxSessions); MaxWaitingPerAddress caps them for one address (0:
	// MaxWaiting: a class behind one NAT logs in from one).
	MaxWaiting, MaxWaitingPerAddress int
	// MaxSessionsPerAddress caps the sessions open from one address (0:
	// none, the default: a hall behind one NAT is one address).
	MaxSessionsPerAddress int
	// LoginFailures is how many wrong codes one address gets answered at
	// once; then one every 3 s (a right code always gets in).
	LoginFailures int
	// MaxPTY is the largest terminal a session is drawn at; a larger one
	// is clamped, and told so.
	MaxPTY Size
	// ClassCode is what students type to get in (password or
	// keyboard-interactive); AuthorizedKeys admits listed keys. With
	// neither, Open must be set: the room is then open to anyone.
	ClassCode      string
	AuthorizedKeys string
	Open           bool
	// PresenterKeys lists the keys that lead the room; PresenterCode is
	// typed to lead it. A presenter's login takes the room over from the
	// session that led it.
	PresenterKeys string
	PresenterCode string
	// NotesCode admits the lecturer's second screen: the speaker notes,
	// following the presenter's scenario and step.
	NotesCode string
	// Timer counts the lecture down on the notes screen (0: no countdown).
	Timer time.Duration
	// Room is a room shared with other front-ends; its zero value is a
	// room of this server alone.
	Room Room
	// Web is the phones' page beside the SSH server; its zero value is
	// none.
	Web Web
}

// Web is the page phones answer the room's poll from (see classroom/web
// and docs/web.md): served on Listen, in plain HTTP (a lecture LAN,
// warned of) or with TLS and a certificate the host makes (its
// fingerprint printed).
type Web struct {
	Listen string
	// URL is the address phones reach the page at, for the QR code and
	// the projector (default: from Listen and TLS).
	URL string
	TLS bool
	// CertDir keeps the host's certificate (made on first start).
	CertDir string
	// MaxConns caps the page's connections open (its event streams
	// too); MaxConnsPerAddress caps them from one address (0: none, the
	// default: a hall behind one NAT is one address).
	MaxConns, MaxConnsPerAddress int
}

// DefaultWebMaxConns is how many connections the page takes by default:
// a hall of 1,000 phones, each with its stream and an answer on the way.
const DefaultWebMaxConns = 3000

// On reports whether the page is served.
func (w Web) On() bool { return w.Listen != "" }

// BaseURL is where phones reach the page: URL, or Listen's.
func (w Web) BaseURL() string {
	if w.URL != "" {
		return w.URL
	}
	scheme := "http"
	if w.TLS {
		scheme = "https"
	}
	return scheme + "://" + w.Listen
}

// Validate says what is wrong with the page's settings.
func (w Web) Validate() error {
	if !w.On() {
		for _, s := range []struct {
			field string
			set   bool
		}{{"URL", w.URL != ""}, {"TLS", w.TLS}, {"MaxConns", w.MaxConns != 0}, {"MaxConnsPerAddress", w.MaxConnsPerAddress != 0}} {
			if s.set {
				return &Error{Problem: WebOff, Fields: []string{"Web." + s.field}}
			}
		}
		return nil
	}
	if _, port, err := net.SplitHostPort(w.Listen); err != nil || port == "" {
		return &Error{Problem: BadWebListen, Fields: []string{"Web.Listen"}}
	}
	if w.URL != "" {
		u, err := url.Parse(w.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || len(w.URL) > 200 || u.RawQuery != "" || u.Fragment != "" {
			return &Error{Problem: BadWebURL, Fields: []string{"Web.URL"}}
		}
	}
	for _, l := range []struct {
		field string
		value int
	}{{"MaxConns", w.MaxConns}, {"MaxConnsPerAddress", w.MaxConnsPerAddress}} {
		if l.value != 0 && (l.value < 1 || l.value > MaxLimit) {
			return &Error{Problem: OutOfRange, Fields: []string{"Web." + l.field}, Min: 1, Max: MaxLimit}
		}
	}
	return nil
}

// Room is a room shared by several front-ends through NATS: a front-end
// joins the NATS server at URL, or hosts one (embedded) on Listen that
// the others join. Front-ends prove themselves to NATS with Token or the
// NKey seed in NKeyFile (one of them); off loopback they speak TLS.
type Room struct {
	// Name names the room: several rooms may share one NATS.
	Name        string
	URL, Listen string
	Token       string
	NKeyFile    string
	// CAFile is the certificate authority to trust for URL's server;
	// Fingerprint pins its certificate instead (as printed by the
	// front-end that hosts it). Without either, a tls:// URL is checked
	// against the system's authorities.
	CAFile, Fingerprint string
	// StoreDir keeps a hosted server's JetStream files and its
	// certificate, so that a restarted host has the room back.
	StoreDir string
	// TLS makes a host speak TLS on loopback too (off loopback it always
	// does).
	TLS bool
	// StartWait is how long a front-end that cannot reach NATS at start
	// tries again: the host may not be up yet, or its port flooded.
	StartWait time.Duration
	// Beat is how often a front-end says it is here; Dead how long one
	// may be unheard before its students drop out; OpTimeout bounds one
	// request to NATS; ReconnectWait is the pause between attempts to
	// reach it again. Zero is the default; tests shorten them.
	Beat, Dead, OpTimeout, ReconnectWait time.Duration
}

// Size is a terminal's size in cells.
type Size struct{ Width, Height int }

// Defaults of a Config.
const (
	DefaultListen        = "127.0.0.1:2323"
	DefaultMaxSessions   = 200
	DefaultIdle          = 10 * time.Minute
	DefaultLoginTimeout  = 30 * time.Second
	DefaultLoginFailures = 20
	DefaultStartWait     = 5 * time.Minute
	DefaultBeat          = time.Second
	DefaultOpTimeout     = 5 * time.Second
)

// DefaultMaxPTY is the largest terminal a session is drawn at by default.
var DefaultMaxPTY = Size{Width: 300, Height: 100}

// Default is a lecture on this machine, for students who type a code:
// every limit at its default, no code yet (see MakeCodes), no shared room.
func Default() Config {
	return Config{
		Listen:        DefaultListen,
		MaxSessions:   DefaultMaxSessions,
		Idle:          DefaultIdle,
		LoginTimeout:  DefaultLoginTimeout,
		LoginFailures: DefaultLoginFailures,
		MaxPTY:        DefaultMaxPTY,
	}
}

// WithDefaults is c with every setting left at zero taken from Default,
// for a caller that sets only what it changes; the limits whose zero has
// a meaning of its own (MaxWaiting, MaxSessionsPerAddress…) stay.
func (c Config) WithDefaults() Config {
	d := Default()
	or := func(v *int, def int) {
		if *v == 0 {
			*v = def
		}
	}
	orDur := func(v *time.Duration, def time.Duration) {
		if *v == 0 {
			*v = def
		}
	}
	if c.Listen == "" {
		c.Listen = d.Listen
	}
	or(&c.MaxSessions, d.MaxSessions)
	or(&c.LoginFailures, d.LoginFailures)
	or(&c.MaxPTY.Width, d.MaxPTY.Width)
	or(&c.MaxPTY.Height, d.MaxPTY.Height)
	orDur(&c.Idle, d.Idle)
	orDur(&c.LoginTimeout, d.LoginTimeout)
	return c
}

// WithDefaults is r with its pace left at zero taken from the defaults.
func (r Room) WithDefaults() Room {
	orDur := func(v *time.Duration, def time.Duration) {
		if *v == 0 {
			*v = def
		}
	}
	orDur(&r.StartWait, DefaultStartWait)
	orDur(&r.Beat, DefaultBeat)
	orDur(&r.Dead, 5*r.Beat)
	orDur(&r.OpTimeout, DefaultOpTimeout)
	orDur(&r.ReconnectWait, time.Second)
	return r
}

// Waiting is how many connections may wait to log in, in all and from
// one address, once MaxWaiting's and MaxWaitingPerAddress's zeros are
// resolved.
func (c Config) Waiting() (total, perAddress int) {
	total, perAddress = c.MaxWaiting, c.MaxWaitingPerAddress
	if total == 0 {
		total = 2 * c.MaxSessions
	}
	if perAddress == 0 {
		// A hall behind one NAT is one address: it may need every place,
		// and more when someone among the students floods the port.
		perAddress = total
	}
	return total, perAddress
}

// Shared reports whether the room is shared with other front-ends.
func (r Room) Shared() bool { return r.URL != "" || r.Listen != "" }

// MakeCodes makes the codes c lacks, each of four words (NewCode): a
// class code when nobody could log in otherwise, a presenter code when
// nobody could lead. It reports which it made, for the caller to say.
func (c *Config) MakeCodes() (class, presenter bool) {
	if c.ClassCode == "" && c.AuthorizedKeys == "" && !c.Open {
		c.ClassCode, class = NewCode(), true
	}
	if c.PresenterCode == "" && c.PresenterKeys == "" {
		c.PresenterCode, presenter = NewCode(), true
	}
	return class, presenter
}

// The bounds Validate holds the settings to.
const (
	MaxLimit      = 100_000
	MaxTimer      = 24 * time.Hour
	MinPTY        = 40 // columns; MinPTYHeight rows
	MinPTYHeight  = 10
	MaxPTYSide    = 4096
	MaxPTYCells   = 1 << 20
	MinTokenBytes = 16
)

// Validate says what is wrong with c, as an *Error: the first setting it
// refuses, in the order they are listed in Config.
func (c Config) Validate() error {
	for _, l := range []struct {
		field string
		value int
		zero  bool // 0 has a meaning of its own
	}{
		{"MaxSessions", c.MaxSessions, false}, {"LoginFailures", c.LoginFailures, false},
		{"MaxWaiting", c.MaxWaiting, true}, {"MaxWaitingPerAddress", c.MaxWaitingPerAddress, true},
	} {
		if (l.value != 0 || !l.zero) && (l.value < 1 || l.value > MaxLimit) {
			return &Error{Problem: OutOfRange, Fields: []string{l.field}, Min: 1, Max: MaxLimit}
		}
	}
	if c.Timer < 0 || c.Timer > MaxTimer {
		return &Error{Problem: TimerOutOfRange, Fields: []string{"Timer"}}
	}
	for _, d := range []struct {
		field string
		value time.Duration
	}{{"Idle", c.Idle}, {"LoginTimeout", c.LoginTimeout}} {
		if d.value <= 0 {
			return &Error{Problem: NotPositive, Fields: []string{d.field}}
		}
	}
	if err := c.Room.Validate(); err != nil {
		return err
	}
	if err := c.Web.Validate(); err != nil {
		return err
	}
	if v := c.MaxSessionsPerAddress; v != 0 && (v < 1 || v > MaxLimit) {
		return &Error{Problem: OutOfRange, Fields: []string{"MaxSessionsPerAddress"}, Min: 1, Max: MaxLimit}
	}
	if err := CheckPTY(c.MaxPTY); err != nil {
		return err
	}
	if c.ClassCode == "" && c.AuthorizedKeys == "" && !c.Open {
		return &Error{Problem: NoLogin, Fields: []string{"ClassCode", "AuthorizedKeys", "Open"}}
	}
	codes := map[string]string{}
	for _, code := range []struct{ field, code string }{{"ClassCode", c.ClassCode}, {"PresenterCode", c.PresenterCode}, {"NotesCode", c.NotesCode}} {
		if code.code == "" {
			continue
		}
		if other, ok := codes[code.code]; ok {
			// One code for two roles would give a student the lecturer's.
			return &Error{Problem: SameCode, Fields: []string{other, code.field}}
		}
		codes[code.code] = code.field
	}
	return nil
}

// CheckPTY says what is wrong with a largest terminal.
func CheckPTY(s Size) error {
	if s.Width < MinPTY || s.Height < MinPTYHeight || s.Width > MaxPTYSide || s.Height > MaxPTYSide || s.Width*s.Height > MaxPTYCells {
		return &Error{Problem: PTYOutOfRange, Fields: []string{"MaxPTY"}}
	}
	return nil
}

var (
	roomNameRe    = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)
	fingerprintRe = regexp.MustCompile(`^SHA256:[A-Za-z0-9+/]{43}$`)
)

// ValidRoomName reports whether name may name a shared room: letters,
// digits, _ and -, at most 32.
func ValidRoomName(name string) bool { return roomNameRe.MatchString(name) }

// Validate says what is wrong with a shared room's settings: a room
// needs a name, one way to reach NATS and one credential; off loopback,
// TLS.
func (r Room) Validate() error {
	field := func(p Problem, fields ...string) error {
		for i, f := range fields {
			fields[i] = "Room." + f
		}
		return &Error{Problem: p, Fields: fields}
	}
	if !r.Shared() {
		for _, s := range []struct{ field, value string }{
			{"Name", r.Name}, {"Token", r.Token}, {"NKeyFile", r.NKeyFile}, {"Fingerprint", r.Fingerprint}, {"CAFile", r.CAFile},
		} {
			if s.value != "" {
				return field(NotShared, s.field)
			}
		}
		return nil
	}
	switch {
	case r.URL != "" && r.Listen != "":
		return field(JoinAndHost, "URL", "Listen")
	case r.Name == "":
		return field(NoRoomName, "Name")
	case !ValidRoomName(r.Name):
		return field(BadRoomName, "Name")
	case (r.Token == "") == (r.NKeyFile == ""):
		return field(NoCredential, "Token", "NKeyFile")
	case r.Token != "" && len(r.Token) < MinTokenBytes:
		return field(ShortToken, "Token")
	case r.Fingerprint != "" && !fingerprintRe.MatchString(r.Fingerprint):
		return field(BadFingerprint, "Fingerprint")
	case r.Fingerprint != "" && r.CAFile != "":
		return field(PinAndCA, "Fingerprint", "CAFile")
	}
	for _, d := range []struct {
		field string
		value time.Duration
	}{{"StartWait", r.StartWait}, {"Beat", r.Beat}, {"Dead", r.Dead}, {"OpTimeout", r.OpTimeout}, {"ReconnectWait", r.ReconnectWait}} {
		if d.value < 0 {
			return field(NotPositive, d.field)
		}
	}
	if r.URL != "" {
		return checkURL(r.URL, r.Fingerprint != "" || r.CAFile != "")
	}
	if _, _, err := SplitListen(r.Listen); err != nil {
		return err
	}
	for _, s := range []struct{ field, value string }{{"Fingerprint", r.Fingerprint}, {"CAFile", r.CAFile}} {
		if s.value != "" {
			return field(HostPins, s.field)
		}
	}
	return nil
}

// SplitListen reads a host's Room.Listen: HOST:PORT, the port from 1 to
// 65535 (or 0, for any free one, as tests ask).
func SplitListen(listen string) (host string, port int, err error) {
	host, portText, err := net.SplitHostPort(listen)
	port, perr := strconv.Atoi(portText)
	if err != nil || perr != nil || port < 0 || port > 65535 {
		return "", 0, &Error{Problem: BadListen, Fields: []string{"Room.Listen"}}
	}
	return host, port, nil
}

// checkURL says what is wrong with a Room.URL: want nats:// or tls://, a
// host and a port, no credentials; off loopback, TLS.
func checkURL(raw string, tlsGiven bool) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "nats" && u.Scheme != "tls") || u.Hostname() == "" || u.Port() == "" || u.User != nil || (u.Path != "" && u.Path != "/") {
		return &Error{Problem: BadURL, Fields: []string{"Room.URL"}}
	}
	if !Loopback(u.Hostname()) && u.Scheme != "tls" && !tlsGiven {
		return &Error{Problem: PlainOffLoopback, Fields: []string{"Room.URL"}}
	}
	return nil
}

// Loopback reports whether host (a name or an address) stays on this
// machine.
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
