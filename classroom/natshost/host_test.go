package natshost

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/classroom/config"
)

const roomToken = "a-token-for-the-tests-only"

// patience is how long a wait may last before the test gives up: near
// the test's own deadline, never a short clock.
func patience(t testing.TB) time.Time {
	if tt, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if d, ok := tt.Deadline(); ok {
			return d.Add(-time.Until(d) / 10)
		}
	}
	return time.Now().Add(5 * time.Minute)
}

// waitUntil polls cond until it holds, or fails the test (on the test's
// goroutine only).
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := patience(t)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// lines is a log the test reads back.
type lines struct {
	mu  sync.Mutex
	all []string
}

func (l *lines) log(format string, v ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = append(l.all, fmt.Sprintf(format, v...))
}

func (l *lines) count(substr string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, line := range l.all {
		if strings.Contains(line, substr) {
			n++
		}
	}
	return n
}

// host starts a NATS server of the test's own on loopback, its log to
// log.
func host(t *testing.T, log func(string, ...any), tls bool) *Host {
	t.Helper()
	h, err := Start(config.Room{Listen: "127.0.0.1:0", Name: "test", Token: roomToken, StoreDir: t.TempDir(), TLS: tls}, "", log)
	require.NoError(t, err)
	t.Cleanup(func() { h.Shutdown(); h.WaitForShutdown() })
	return h
}

func canBind(ip string) bool {
	l, err := net.Listen("tcp", ip+":0")
	if err != nil {
		return false
	}
	_ = l.Close()
	return true
}

// Issue 24, item 3: anyone who reached the room's NATS port kept the
// front-ends out without a token: the server counted connections before
// they proved themselves (MaxConn 256). One address now holds a few
// places at most; a front-end from another joins.
func TestNATSPortFloodKeepsNoFrontEndOut(t *testing.T) {
	if !canBind("127.0.0.2") {
		t.Skip("cannot connect from 127.0.0.2 here")
	}
	var log lines
	h := host(t, log.log, false)
	addr := strings.TrimPrefix(h.URL(), "nats://")
	held := 0
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
	for range 300 {
		c, err := d.Dial("tcp", addr)
		require.NoError(t, err)
		t.Cleanup(func() { _ = c.Close() })
		if heldOpen(t, c) {
			held++
		}
	}
	assert.LessOrEqual(t, held, natsPerSource, "one address holds a few places")
	nc, err := nats.Connect(h.URL(), nats.Token(roomToken), nats.NoReconnect())
	require.NoError(t, err, "a front-end from another address gets in")
	nc.Close()
	assert.Positive(t, h.Log().Refused())
	assert.LessOrEqual(t, log.count("refused a connection from 127.0.0.2"), 2, "a flood is a line every 10 s")
}

// heldOpen reports whether a NATS server took c in (it says INFO) rather
// than closing it at once.
func heldOpen(t *testing.T, c net.Conn) bool {
	t.Helper()
	_ = c.SetReadDeadline(patience(t))
	buf := make([]byte, 4)
	n, _ := io.ReadFull(c, buf)
	return n == 4 && string(buf) == "INFO"
}

// Issue 24, item 4: wrong tokens wrote a line each to the log (28,704
// lines in 5 s): now a line every 10 s an address, and they are counted.
func TestNATSLogIsRateLimited(t *testing.T) {
	var log lines
	h := host(t, log.log, false)
	began := time.Now()
	for range 40 {
		nc, err := nats.Connect(h.URL(), nats.Token("not-the-token"), nats.NoReconnect())
		if err == nil {
			nc.Close()
			t.Fatal("a wrong token got in")
		}
	}
	waitUntil(t, "the failures are counted", func() bool { return h.Log().AuthFailures() > 0 })
	most := 1 + int(time.Since(began)/(10*time.Second))
	assert.LessOrEqual(t, log.count("wrong credentials from 127.0.0.1"), most)
	assert.Zero(t, log.count("authentication error"), "no line of its own for each")
	assert.LessOrEqual(t, log.count("refused a connection from 127.0.0.1"), most)
	assert.Equal(t, 40, int(h.Log().AuthFailures()+h.Log().Refused()), "each is counted, refused at the front or by NATS")
}

// A host with TLS speaks nothing else: plain text to its port is refused.
func TestTLSHostRefusesPlainText(t *testing.T) {
	h := host(t, nil, true)
	require.True(t, strings.HasPrefix(h.URL(), "tls://"), h.URL())
	require.NotEmpty(t, h.Fingerprint())
	_, err := nats.Connect(strings.Replace(h.URL(), "tls://", "nats://", 1), nats.Token(roomToken), nats.NoReconnect())
	assert.Error(t, err)
}

// TestRoomCertificateIsNeverReplaced: the host's certificate is made
// once; a pair that cannot be read (truncated, half of it gone) is an
// error naming the file, and left as it is — never a new pair whose new
// fingerprint no joining front-end pinned.
func TestRoomCertificateIsNeverReplaced(t *testing.T) {
	dir := t.TempDir()
	certPath, keyPath := filepath.Join(dir, "room-cert.pem"), filepath.Join(dir, "room-key.pem")
	cert, err := Certificate(dir, "10.1.2.3")
	require.NoError(t, err)
	fp := Fingerprint(cert.Certificate[0])
	info, err := os.Stat(keyPath)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the key is the host's alone")
	certPEM, err := os.ReadFile(certPath)
	require.NoError(t, err)
	keyPEM, err := os.ReadFile(keyPath)
	require.NoError(t, err)

	require.NoError(t, os.WriteFile(certPath, certPEM[:len(certPEM)/2], 0o644))
	_, err = Certificate(dir, "10.1.2.3")
	assert.ErrorContains(t, err, certPath, "a truncated certificate is an error")
	got, _ := os.ReadFile(certPath)
	assert.Equal(t, certPEM[:len(certPEM)/2], got, "and is not written over")

	require.NoError(t, os.Remove(certPath))
	_, err = Certificate(dir, "10.1.2.3")
	assert.ErrorContains(t, err, certPath+" is missing", "a key alone is an error")
	assert.NoFileExists(t, certPath)

	require.NoError(t, os.WriteFile(certPath, certPEM, 0o644))
	require.NoError(t, os.Remove(keyPath))
	_, err = Certificate(dir, "10.1.2.3")
	assert.ErrorContains(t, err, keyPath+" is missing", "a certificate alone is an error")

	require.NoError(t, os.WriteFile(keyPath, keyPEM, 0o600))
	again, err := Certificate(dir, "10.1.2.3")
	require.NoError(t, err)
	assert.Equal(t, fp, Fingerprint(again.Certificate[0]), "restored, the same fingerprint")
}
