package classroom

import (
	"sync"
	"time"

	"golang.org/x/time/rate"

	"toolgate/classroom/internal/outside"
)

// Total pacing of wrong codes, whatever their address: a burst, then a
// steady rate of answers.
const (
	totalFailBurst = 100
	totalFailRate  = 20
)

// penalties pace the answers to wrong codes, per source address (burst
// failures, then one every refill) and in total. They never refuse a
// login: every code is checked, and a right one is let in at once,
// whatever others sent from its address — a lecture hall behind one NAT
// is one address, and an attacker among the students must not keep the
// others out. A wrong code's answer waits for its turn instead, which
// holds the connection that sent it, and such a connection gives its
// place to a new one when the waiting places are full (see gate).
type penalties struct {
	burst  int
	refill time.Duration
	now    func() time.Time

	mu      sync.Mutex
	sources map[string]*rate.Limiter
	total   *rate.Limiter
}

func newPenalties(burst int, refill time.Duration, now func() time.Time) *penalties {
	return &penalties{burst: burst, refill: refill, now: now, sources: map[string]*rate.Limiter{},
		total: rate.NewLimiter(totalFailRate, totalFailBurst)}
}

// fail takes a turn for a wrong code of source: how long its answer
// waits, and a cancel that gives the turn back if the connection is gone
// before then.
func (p *penalties) fail(source string) (wait time.Duration, cancel func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	lim, ok := p.sources[source]
	if !ok {
		p.makeRoomLocked(now)
		lim = rate.NewLimiter(rate.Every(p.refill), p.burst)
		p.sources[source] = lim
	}
	mine, all := lim.ReserveN(now, 1), p.total.ReserveN(now, 1)
	wait = max(mine.DelayFrom(now), all.DelayFrom(now))
	return wait, func() {
		at := p.now()
		mine.CancelAt(at)
		all.CancelAt(at)
	}
}

// makeRoomLocked keeps the table bounded: sources whose failures are all
// back are forgotten first; if none is, all are.
func (p *penalties) makeRoomLocked(now time.Time) {
	if len(p.sources) < outside.MaxSources {
		return
	}
	for k, lim := range p.sources {
		if lim.TokensAt(now) >= float64(p.burst) {
			delete(p.sources, k)
		}
	}
	if len(p.sources) >= outside.MaxSources {
		clear(p.sources)
	}
}
