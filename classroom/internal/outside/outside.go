// Package outside is what the classroom's packages share about what
// comes from outside the server: the address a limit counts a client by,
// a log that a flood cannot flood, a client's text made safe for a log
// line, and a file's trouble told with its path.
package outside

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"toolgate/termsafe"
)

// MaxSources bounds how many addresses a table kept per address
// remembers.
const MaxSources = 1 << 16

// Source is the address a limit counts by: an IPv4 address, or an IPv6
// /64 (one host's usual share, which it can spread over at will).
func Source(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		if addr == nil {
			return "unknown"
		}
		return addr.String()
	}
	if ip4 := tcp.IP.To4(); ip4 != nil {
		return ip4.String()
	}
	return tcp.IP.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// maxRateLogKeys bounds what a RateLog remembers: past it, it forgets
// all, and a flood of new keys is at worst a line per key again.
const maxRateLogKeys = 1024

// RateLog lets the line of one key through at most once every so often,
// so that a flood is one line, not a flood of lines. The zero value is
// ready, on the wall clock.
type RateLog struct {
	// Now is the clock (nil: the wall clock).
	Now func() time.Time

	mu   sync.Mutex
	last map[string]time.Time
}

// Allow reports whether the line of key may be logged now; if so it
// counts as logged. A clock that went back lets the line through.
func (l *RateLog) Allow(key string, every time.Duration) bool {
	now := time.Now()
	if l.Now != nil {
		now = l.Now()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if last, ok := l.last[key]; ok && now.Sub(last) < every && !now.Before(last) {
		return false
	}
	if l.last == nil || len(l.last) >= maxRateLogKeys {
		l.last = map[string]time.Time{}
	}
	l.last[key] = now
	return true
}

// LineBudget lets the lines of a key through within a budget: Burst at
// once, then Rate a second, and counts the ones it holds back, for the
// next line let through to say. Unlike RateLog it keeps every line of a
// key that stays within the budget (a hall's logins, each its own line),
// and only a flood is cut. The zero value lets nothing through.
type LineBudget struct {
	Rate  float64
	Burst int
	// Now is the clock (nil: the wall clock).
	Now func() time.Time

	mu   sync.Mutex
	keys map[string]*budget
}

type budget struct {
	tokens float64
	at     time.Time
	held   int
}

// Take reports whether a line of key may be logged now, and if so how
// many of its lines were held back since the last one let through.
func (b *LineBudget) Take(key string) (ok bool, held int) {
	now := time.Now()
	if b.Now != nil {
		now = b.Now()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	k, found := b.keys[key]
	if !found {
		if b.keys == nil || len(b.keys) >= maxRateLogKeys {
			b.keys = map[string]*budget{}
		}
		k = &budget{tokens: float64(b.Burst), at: now}
		b.keys[key] = k
	}
	if d := now.Sub(k.at); d > 0 {
		k.tokens = min(float64(b.Burst), k.tokens+d.Seconds()*b.Rate)
		k.at = now
	}
	if k.tokens < 1 {
		k.held++
		return false, 0
	}
	k.tokens--
	held, k.held = k.held, 0
	return true, held
}

// Quote makes a client-supplied string safe for the log: quoted, with
// control characters and escape sequences escaped, and at most 64 bytes
// of it.
func Quote(v string) string {
	const most = 64
	if len(v) <= most {
		return strconv.Quote(v)
	}
	return strconv.Quote(v[:cut(v, most)]) + "…"
}

// Text escapes text for a log line (see termsafe), and cuts it at most
// bytes: unlike Quote, without quotes, for a line that is mostly another
// server's own words.
func Text(text string, most int) string {
	q := termsafe.Line(text)
	if len(q) > most {
		q = q[:cut(q, most)] + "…"
	}
	return q
}

// cut is the largest length at most most that does not split a rune.
func cut(s string, most int) int {
	for most > 0 && !utf8.RuneStart(s[most]) {
		most--
	}
	return most
}

// PathError names path in err, unless it does already (an open's
// *fs.PathError does).
func PathError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}
