package outside

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestRateLog(t *testing.T) {
	c := &clock{t: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
	l := RateLog{Now: c.now}
	assert.True(t, l.Allow("refused", time.Minute), "a first line")
	assert.False(t, l.Allow("refused", time.Minute), "the same again at once")
	assert.True(t, l.Allow("other", time.Minute), "another key")
	c.t = c.t.Add(59 * time.Second)
	assert.False(t, l.Allow("refused", time.Minute), "within the minute")
	c.t = c.t.Add(time.Second)
	assert.True(t, l.Allow("refused", time.Minute), "a minute on")
	c.t = c.t.Add(-time.Hour)
	assert.True(t, l.Allow("refused", time.Minute), "a clock that went back")
	for i := range maxRateLogKeys {
		l.Allow(fmt.Sprint(i), time.Minute)
	}
	assert.LessOrEqual(t, len(l.last), maxRateLogKeys, "bounded")
	var zero RateLog
	assert.True(t, zero.Allow("x", time.Minute), "the zero value is ready")
	assert.False(t, zero.Allow("x", time.Minute))
}

func TestSource(t *testing.T) {
	for _, tc := range []struct {
		addr net.Addr
		want string
	}{
		{&net.TCPAddr{IP: net.ParseIP("10.1.2.3"), Port: 22}, "10.1.2.3"},
		{&net.TCPAddr{IP: net.ParseIP("2001:db8::1:2:3:4"), Port: 22}, "2001:db8::/64"},
		{nil, "unknown"},
	} {
		assert.Equal(t, tc.want, Source(tc.addr))
	}
}

func TestQuote(t *testing.T) {
	assert.Equal(t, `"a\x1b[2J"`, Quote("a\x1b[2J"))
	long := strings.Repeat("é", 40) // 80 bytes
	q := Quote(long)
	assert.True(t, strings.HasSuffix(q, "…"))
	assert.Equal(t, `"`+strings.Repeat("é", 32)+`"…`, q, "cut on a rune's start")
	assert.Equal(t, strings.Repeat("é", 2)+"…", Text(strings.Repeat("é", 3), 5))
}

func TestLineBudget(t *testing.T) {
	c := &clock{t: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
	b := LineBudget{Rate: 2, Burst: 3, Now: c.now}
	for i := range 3 {
		ok, held := b.Take("a")
		assert.True(t, ok, "line %d of the burst", i+1)
		assert.Zero(t, held)
	}
	for range 5 {
		ok, _ := b.Take("a")
		assert.False(t, ok, "past the burst")
	}
	ok, _ := b.Take("b")
	assert.True(t, ok, "another key has its own budget")
	c.t = c.t.Add(500 * time.Millisecond)
	ok, held := b.Take("a")
	assert.True(t, ok, "a line back after half a second at 2 a second")
	assert.Equal(t, 5, held, "it says how many were held back")
	ok, _ = b.Take("a")
	assert.False(t, ok)
	c.t = c.t.Add(time.Hour)
	for range 3 {
		ok, _ = b.Take("a")
		assert.True(t, ok)
	}
	ok, _ = b.Take("a")
	assert.False(t, ok, "no more than the burst however long it waited")
	c.t = c.t.Add(-time.Hour)
	ok, _ = b.Take("a")
	assert.False(t, ok, "a clock that went back gives nothing")
}
