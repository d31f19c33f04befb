package config

import (
	"fmt"
	"strings"
)

// Problem is what Validate finds wrong with a setting. The library says
// it in its own words (Error.Error); a command line words it in its own,
// naming its flags.
type Problem uint8

// The problems, by the settings they concern.
const (
	// OutOfRange: a number outside [Error.Min, Error.Max].
	OutOfRange Problem = iota + 1
	// NotPositive: a duration that must be above zero.
	NotPositive
	// TimerOutOfRange: Timer outside 0 to MaxTimer.
	TimerOutOfRange
	// PTYOutOfRange: MaxPTY smaller than MinPTY×MinPTYHeight, or larger
	// than MaxPTYSide or MaxPTYCells.
	PTYOutOfRange
	// NoLogin: no class code, no authorized keys, and not open.
	NoLogin
	// SameCode: two roles with one code (a student would have the
	// lecturer's).
	SameCode
	// NotShared: a shared room's setting without a shared room.
	NotShared
	// JoinAndHost: both Room.URL and Room.Listen.
	JoinAndHost
	// NoRoomName: a shared room without a name.
	NoRoomName
	// BadRoomName: a name other than letters, digits, _ and -, at most 32.
	BadRoomName
	// NoCredential: neither or both of Room.Token and Room.NKeyFile.
	NoCredential
	// ShortToken: a token under MinTokenBytes.
	ShortToken
	// BadFingerprint: a pin other than SHA256: and 43 characters of base64.
	BadFingerprint
	// PinAndCA: both Room.Fingerprint and Room.CAFile.
	PinAndCA
	// BadURL: a Room.URL other than nats:// or tls://, a host and a port.
	BadURL
	// PlainOffLoopback: nats:// to another machine, without a pin or an
	// authority.
	PlainOffLoopback
	// BadListen: a Room.Listen other than HOST:PORT.
	BadListen
	// HostPins: a pin or an authority given to the front-end that hosts
	// NATS (it makes its own certificate).
	HostPins
	// WebOff: a setting of the phones' page without Web.Listen.
	WebOff
	// BadWebListen: a Web.Listen other than HOST:PORT.
	BadWebListen
	// BadWebURL: a Web.URL other than http(s)://HOST[:PORT][/PATH].
	BadWebURL
)

var problemNames = [...]string{
	OutOfRange: "out of range", NotPositive: "not positive", TimerOutOfRange: "timer out of range",
	PTYOutOfRange: "terminal size out of range", NoLogin: "no login", SameCode: "same code",
	NotShared: "not shared", JoinAndHost: "join and host", NoRoomName: "no room name", BadRoomName: "bad room name",
	NoCredential: "no credential", ShortToken: "short token", BadFingerprint: "bad fingerprint", PinAndCA: "pin and authority",
	BadURL: "bad URL", PlainOffLoopback: "plain text off loopback", BadListen: "bad listen address", HostPins: "host pins",
	WebOff: "web page off", BadWebListen: "bad web listen address", BadWebURL: "bad web URL",
}

func (p Problem) String() string {
	if int(p) < len(problemNames) && problemNames[p] != "" {
		return problemNames[p]
	}
	return fmt.Sprintf("problem %d", p)
}

// Error is a setting Validate refuses: what is wrong, and the fields it
// concerns, by their path in Config ("MaxSessions", "Room.URL").
type Error struct {
	Problem Problem
	Fields  []string
	// Min and Max bound an OutOfRange number.
	Min, Max int
}

// Error says it in the library's words, naming the fields.
func (e *Error) Error() string {
	subject := strings.Join(e.Fields, " and ")
	switch e.Problem {
	case OutOfRange:
		return fmt.Sprintf("%s: want from %d to %d", subject, e.Min, e.Max)
	case NotPositive:
		return subject + ": want a positive duration"
	case TimerOutOfRange:
		return fmt.Sprintf("%s: want a duration from 0 to %v", subject, MaxTimer)
	case PTYOutOfRange:
		return fmt.Sprintf("%s: want from %dx%d to %d wide, %d high and %d cells", subject, MinPTY, MinPTYHeight, MaxPTYSide, MaxPTYSide, MaxPTYCells)
	case NoLogin:
		return "no way to log in: set a class code, authorized keys, or open the room to anyone"
	case SameCode:
		return subject + " are the same code: give each role its own"
	case NotShared:
		return subject + ": only for a shared room: set Room.URL (join) or Room.Listen (host) too"
	case JoinAndHost:
		return subject + ": set one: join a room's NATS server, or host it"
	case NoRoomName:
		return "a shared room needs a name (the same on every front-end)"
	case BadRoomName:
		return subject + ": want letters, digits, _ and -, at most 32"
	case NoCredential:
		return "a shared room needs one of Room.Token and Room.NKeyFile (the same on every front-end)"
	case ShortToken:
		return fmt.Sprintf("%s: want at least %d characters", subject, MinTokenBytes)
	case BadFingerprint:
		return subject + ": want SHA256: and 43 characters of base64, as the host printed it"
	case PinAndCA:
		return subject + ": set one"
	case BadURL:
		return subject + ": want nats://HOST:PORT or tls://HOST:PORT (credentials go in Room.Token or Room.NKeyFile)"
	case PlainOffLoopback:
		return subject + ": off loopback, front-ends speak TLS to NATS: use tls://, with Room.Fingerprint or Room.CAFile if its certificate is not from a public authority"
	case BadListen:
		return subject + ": want HOST:PORT"
	case HostPins:
		return subject + ": for a front-end that joins (Room.URL); the host makes its own certificate"
	case WebOff:
		return subject + ": only with the phones' page: set Web.Listen too"
	case BadWebListen:
		return subject + ": want HOST:PORT"
	case BadWebURL:
		return subject + ": want http://HOST[:PORT] or https://HOST[:PORT], with a path at most"
	}
	return subject + ": " + e.Problem.String()
}
