package classroom

import (
	"sync"
	"time"
)

// maxRateLogKeys bounds what a rateLog remembers: past it, it forgets
// all, and a flood of new keys is at worst a line per key again.
const maxRateLogKeys = 1024

// rateLog lets the line of one key through at most once every so often,
// so that a flood is one line, not a flood of lines. The zero value is
// ready, on the wall clock.
type rateLog struct {
	now func() time.Time

	mu   sync.Mutex
	last map[string]time.Time
}

// allow reports whether the line of key may be logged now; if so it
// counts as logged. A clock that went back lets the line through.
func (l *rateLog) allow(key string, every time.Duration) bool {
	now := time.Now()
	if l.now != nil {
		now = l.now()
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
