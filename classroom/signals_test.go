//go:build unix

package classroom

import (
	"context"
	"net"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/classroom/config"
	"toolgate/scenarios"
)

// Item 11: SIGHUP ends the lecture as SIGTERM does, with the goodbye.
func TestSIGHUPSaysGoodbye(t *testing.T) {
	// Serial: signals the test process, which every test shares.
	log := &lockedLog{}
	srv, err := New(config.Config{ClassCode: "tulip", HostKeyPath: filepath.Join(t.TempDir(), "host_ed25519")},
		Lecture{Scenarios: scenarios.Builtin(), Log: log})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, stop := NotifyShutdown(context.Background())
	defer stop()
	ran := make(chan error, 1)
	go func() { ran <- srv.Run(ctx, l) }()
	student := connect(t, l.Addr().String(), "tulip")
	student.waitFor(t, "Scenarios")
	require.NoError(t, syscall.Kill(syscall.Getpid(), syscall.SIGHUP))
	require.True(t, student.closed(t))
	assert.Contains(t, student.raw(), "The lecture is over")
	require.NoError(t, <-ran)
	assert.Contains(t, log.String(), "hangup: telling 1 sessions the lecture is over")
}
