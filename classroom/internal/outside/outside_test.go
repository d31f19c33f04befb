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
