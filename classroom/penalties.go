package classroom

import (
	"net"
	"sync"
	"time"
)

// maxSources bounds how many addresses the penalties remember.
const maxSources = 1 << 16

// penalties throttle failed logins by source address, after OpenSSH's
// PerSourcePenalties. A source has burst failures to spend; one comes back
// every refill. A source with none left is timed out: its code logins are
// refused, the right code included, until resume failures are back. A
// class behind one NAT shares one address, so burst is sized for a room's
// typos, not for one person's.
type penalties struct {
	burst  int
	refill time.Duration
	now    func() time.Time

	mu      sync.Mutex
	sources map[string]*penalty
}

type penalty struct {
	tokens   float64
	at       time.Time
	timedOut bool
}

func newPenalties(burst int, refill time.Duration, now func() time.Time) *penalties {
	return &penalties{burst: burst, refill: refill, now: now, sources: map[string]*penalty{}}
}

// resume is how many failures must be back before a time-out ends.
func (p *penalties) resume() float64 { return float64(min(p.burst, 5)) }

// catchUp brings e's tokens up to now.
func (p *penalties) catchUp(e *penalty, now time.Time) {
	if now.After(e.at) {
		e.tokens = min(float64(p.burst), e.tokens+float64(now.Sub(e.at))/float64(p.refill))
	}
	e.at = now
	if e.timedOut && e.tokens >= p.resume() {
		e.timedOut = false
	}
}

// allow reports whether source may try a code now; if not, for how much
// longer its time-out lasts.
func (p *penalties) allow(source string) (bool, time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e, ok := p.sources[source]
	if !ok {
		return true, 0
	}
	p.catchUp(e, p.now())
	if e.timedOut {
		return false, p.wait(e)
	}
	return true, 0
}

func (p *penalties) wait(e *penalty) time.Duration {
	return time.Duration((p.resume() - e.tokens) * float64(p.refill))
}

// fail spends one of source's failures. began reports that this failure
// started its time-out (to be logged once), which lasts for lasts.
func (p *penalties) fail(source string) (began bool, lasts time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	e, ok := p.sources[source]
	if !ok {
		if !p.makeRoomLocked(now) {
			// Every remembered source is timed out: this one waits for room.
			return false, 0
		}
		e = &penalty{tokens: float64(p.burst), at: now}
		p.sources[source] = e
	}
	p.catchUp(e, now)
	e.tokens = max(e.tokens-1, 0)
	if e.tokens < 1 && !e.timedOut {
		e.timedOut = true
		return true, p.wait(e)
	}
	return false, 0
}

// makeRoomLocked keeps the table bounded: sources whose failures are all
// back are forgotten first, then any that is not timed out.
func (p *penalties) makeRoomLocked(now time.Time) bool {
	if len(p.sources) < maxSources {
		return true
	}
	for k, e := range p.sources {
		p.catchUp(e, now)
		if e.tokens >= float64(p.burst) {
			delete(p.sources, k)
		}
	}
	if len(p.sources) < maxSources {
		return true
	}
	for k, e := range p.sources {
		if !e.timedOut {
			delete(p.sources, k)
			return true
		}
	}
	return false
}

// sourceOf is the address a limit counts by: an IPv4 address, or an IPv6
// /64 (one host's usual share, which it can spread over at will).
func sourceOf(addr net.Addr) string {
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
