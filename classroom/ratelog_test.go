package classroom

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestRateLog(t *testing.T) {
	clock := newFakeClock()
	l := rateLog{now: clock.now}
	assert.True(t, l.allow("refused", time.Minute), "a first line")
	assert.False(t, l.allow("refused", time.Minute), "the same again at once")
	assert.True(t, l.allow("other", time.Minute), "another key")
	clock.advance(59 * time.Second)
	assert.False(t, l.allow("refused", time.Minute), "within the minute")
	clock.advance(time.Second)
	assert.True(t, l.allow("refused", time.Minute), "a minute on")
	clock.advance(-time.Hour)
	assert.True(t, l.allow("refused", time.Minute), "a clock that went back")
	for i := range maxRateLogKeys {
		l.allow(fmt.Sprint(i), time.Minute)
	}
	assert.LessOrEqual(t, len(l.last), maxRateLogKeys, "bounded")
	var zero rateLog
	assert.True(t, zero.allow("x", time.Minute), "the zero value is ready")
	assert.False(t, zero.allow("x", time.Minute))
}
