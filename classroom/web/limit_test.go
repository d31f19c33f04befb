package web

import (
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// addrConn is a connection from an address, for the caps alone.
type addrConn struct {
	net.Conn
	from net.Addr
}

func (c addrConn) RemoteAddr() net.Addr { return c.from }
func (c addrConn) Close() error         { return nil }

// An address at its own cap gives up one of its own places for its
// newcomer, never another address's, even when the total is full too.
func TestAnAddressAtItsCapGivesUpItsOwnPlace(t *testing.T) {
	l := newCapListener(nil, 3, 2, func(string, string) {})
	now := time.Unix(1000, 0)
	l.now = func() time.Time { return now }
	from := func(ip string) net.Conn {
		return addrConn{from: &net.TCPAddr{IP: net.ParseIP(ip), Port: 40000}}
	}
	b := l.admit(from("10.0.0.2")) // the oldest of all
	now = now.Add(time.Second)
	a1, a2 := l.admit(from("10.0.0.1")), l.admit(from("10.0.0.1"))
	require.NotNil(t, a1)
	require.NotNil(t, a2)
	require.NotNil(t, b)
	now = now.Add(time.Hour) // every one of them idle long: any could go
	a3 := l.admit(from("10.0.0.1"))
	require.NotNil(t, a3, "the newcomer gets a place")
	assert.False(t, b.closed, "the other address keeps its place")
	assert.True(t, a1.closed || a2.closed, "one of the address's own went")
	assert.Equal(t, 3, l.count())
}
