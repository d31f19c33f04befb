package room

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"

	"toolgate/classroom/config"
	"toolgate/classroom/internal/outside"
	"toolgate/classroom/natshost"
	"toolgate/safefile"
	"toolgate/tui"
)

// Shared is a NATSRoom with its connection, and the NATS server it
// hosts, if it does.
type Shared struct {
	*NATSRoom
	nc   *nats.Conn
	host *natshost.Host
	// URL is the hosted server's address, for the others; Fingerprint its
	// certificate's when it speaks TLS; PublicKey the NKey front-ends
	// prove themselves with.
	URL, Fingerprint, PublicKey string
}

// OpenShared hosts or joins the room's NATS server and joins the room cfg
// names; log gets a line for each trouble. A front-end that cannot reach
// NATS tries again for cfg.StartWait, or until ctx is done.
func OpenShared(ctx context.Context, cfg config.Room, log func(format string, v ...any)) (*Shared, error) {
	if !cfg.Shared() {
		return nil, errors.New("a shared room needs Room.URL (join) or Room.Listen (host)")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.WithDefaults()
	if log == nil {
		log = func(string, ...any) {}
	}
	sr := &Shared{}
	var auth nats.Option
	if cfg.NKeyFile != "" {
		kp, err := loadNKey(cfg.NKeyFile, cfg.Listen != "")
		if err != nil {
			return nil, err
		}
		if sr.PublicKey, err = kp.PublicKey(); err != nil {
			return nil, err
		}
		auth = nats.Nkey(sr.PublicKey, kp.Sign)
	} else {
		auth = nats.Token(cfg.Token)
	}
	id := newFrontEndID()
	var room atomic.Pointer[NATSRoom]
	opts := []nats.Option{auth, nats.Name("toolgate front-end " + id),
		nats.MaxReconnects(-1), nats.ReconnectWait(cfg.ReconnectWait), nats.ReconnectJitter(100*time.Millisecond, time.Second),
		// A server gone without a word (its machine off) is noticed in
		// seconds, not the default minutes.
		nats.PingInterval(2 * time.Second), nats.MaxPingsOutstanding(3),
		nats.Timeout(5 * time.Second), nats.ReconnectBufSize(1 << 20),
		nats.DisconnectErrHandler(func(*nats.Conn, error) {
			if r := room.Load(); r != nil {
				r.Disconnected()
			}
		}),
		nats.ReconnectHandler(func(*nats.Conn) {
			if r := room.Load(); r != nil {
				r.Reconnected()
			}
		}),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			if r := room.Load(); r != nil {
				r.logf("nats "+err.Error(), "room %s: nats: %v", cfg.Name, err)
			}
		}),
		nats.ClosedHandler(func(*nats.Conn) {
			if r := room.Load(); r != nil {
				r.ConnectionClosed()
			}
		}),
	}
	url := cfg.URL
	if cfg.Listen != "" {
		h, err := natshost.Start(cfg, sr.PublicKey, log)
		if err != nil {
			return nil, err
		}
		sr.host, sr.Fingerprint, sr.URL = h, h.Fingerprint(), h.URL()
		opts = append(opts, nats.InProcessServer(h.Server()))
		url = ""
	} else if strings.HasPrefix(cfg.URL, "tls://") || cfg.CAFile != "" || cfg.Fingerprint != "" {
		tc, err := clientTLS(cfg)
		if err != nil {
			return nil, err
		}
		opts = append(opts, nats.Secure(tc))
	}
	nc, err := connectRetrying(ctx, cfg, log, url, opts)
	if err != nil {
		sr.shutdownHost()
		return nil, fmt.Errorf("room %s: NATS at %s: %w", cfg.Name, cfg.URL+cfg.Listen, err)
	}
	r, err := NewNATSRoom(nc, id, cfg, log)
	if err != nil {
		nc.Close()
		sr.shutdownHost()
		return nil, err
	}
	room.Store(r)
	sr.NATSRoom, sr.nc = r, nc
	return sr, nil
}

// connectRetrying connects to NATS, again and again with a growing wait
// (0.5 s, doubling, at most 10 s) for at most cfg.StartWait, or until ctx
// is done — but not after NATS said the credentials are wrong, nor after
// a certificate that is not the one pinned: trying again would not
// change those.
func connectRetrying(ctx context.Context, cfg config.Room, log func(string, ...any), url string, opts []nats.Option) (*nats.Conn, error) {
	deadline := time.Now().Add(cfg.StartWait)
	backoff := 500 * time.Millisecond
	for attempt := 1; ; attempt++ {
		nc, err := nats.Connect(url, opts...)
		if err == nil {
			if attempt > 1 {
				log("room %s: reached NATS at %s after %d attempts", cfg.Name, url, attempt)
			}
			return nc, nil
		}
		if errors.Is(err, nats.ErrAuthorization) || errors.Is(err, nats.ErrAuthExpired) || errors.Is(err, nats.ErrAuthRevoked) ||
			strings.Contains(err.Error(), "certificate") || time.Now().Add(backoff).After(deadline) {
			return nil, err
		}
		log("room %s: NATS at %s: %v (attempt %d; again in %v)", cfg.Name, url, err, attempt, backoff)
		wait := time.NewTimer(backoff)
		select {
		case <-wait.C:
		case <-ctx.Done():
			wait.Stop()
			return nil, context.Cause(ctx)
		}
		backoff = min(2*backoff, 10*time.Second)
	}
}

// Close leaves the room, and stops the server it hosts.
func (s *Shared) Close() {
	s.NATSRoom.Close()
	s.nc.Close()
	s.shutdownHost()
}

// Closing is HostClosing when this front-end hosts the room's NATS: the
// room stops at the others too (frozen, until the host is back);
// otherwise as for any front-end of a shared room (NATSRoom.Closing).
func (s *Shared) Closing() tui.Goodbye {
	if s.host != nil {
		return tui.HostClosing
	}
	return s.NATSRoom.Closing()
}

// crash ends the front-end's part without a word, as a killed process
// would (tests).
func (s *Shared) crash() {
	s.stop()
	s.nc.Close()
	s.shutdownHost()
}

func (s *Shared) shutdownHost() {
	if s.host != nil {
		s.host.Shutdown()
		s.host.WaitForShutdown()
	}
}

// Bounds of the files a front-end reads for a shared room.
const (
	maxSeedFile = 4096
	maxCAFile   = 1 << 20
)

// loadNKey reads a user seed; a host makes one (mode 0600) if the file
// is not there yet, to copy to the other front-ends.
func loadNKey(path string, create bool) (nkeys.KeyPair, error) {
	data, err := safefile.ReadRegular(path, maxSeedFile)
	var tooLarge *safefile.TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist) && create:
		return newNKey(path)
	case errors.As(err, &tooLarge):
		return nil, fmt.Errorf("NKey seed %s: not an NKey seed (too long)", path)
	case err != nil:
		return nil, fmt.Errorf("NKey seed: %w", outside.PathError(path, err))
	}
	kp, err := nkeys.FromSeed([]byte(strings.TrimSpace(string(data))))
	if err != nil {
		return nil, fmt.Errorf("NKey seed %s: %w", path, err)
	}
	if pub, _ := kp.PublicKey(); !nkeys.IsValidPublicUserKey(pub) {
		return nil, fmt.Errorf("NKey seed %s: not a user seed (SU…)", path)
	}
	return kp, nil
}

// newNKey makes a user seed and writes it to path, whole or not at all
// and never over a file there (another host's seed made a moment before).
func newNKey(path string) (nkeys.KeyPair, error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return nil, err
	}
	seed, err := kp.Seed()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("NKey seed: %w", err)
	}
	if err := safefile.WriteNew(path, append(seed, '\n'), 0o600); err != nil {
		return nil, fmt.Errorf("NKey seed: %w", err)
	}
	return kp, nil
}

// clientTLS checks the server's certificate: pinned, from CAFile, or from
// the system's authorities.
func clientTLS(cfg config.Room) (*tls.Config, error) {
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	switch {
	case cfg.Fingerprint != "":
		pin := cfg.Fingerprint
		// The pin is the check: the name on a pinned certificate is not.
		tc.InsecureSkipVerify = true
		tc.VerifyConnection = func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return errors.New("the room's NATS server showed no certificate")
			}
			if got := natshost.Fingerprint(cs.PeerCertificates[0].Raw); got != pin {
				return fmt.Errorf("the room's NATS server's certificate is %s, not the one pinned, %s", got, pin)
			}
			return nil
		}
	case cfg.CAFile != "":
		data, err := safefile.ReadRegular(cfg.CAFile, maxCAFile)
		if err != nil {
			return nil, fmt.Errorf("room certificate authority: %w", outside.PathError(cfg.CAFile, err))
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(data) {
			return nil, fmt.Errorf("room certificate authority %s: no PEM certificate in it", cfg.CAFile)
		}
		tc.RootCAs = pool
	}
	return tc, nil
}
