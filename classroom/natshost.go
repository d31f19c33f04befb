package classroom

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"

	"toolgate/safefile"
)

// SharedRoomConfig is how a front-end reaches a shared room: it joins a
// NATS server at URL, or hosts one (embedded) on Listen that the other
// front-ends join. Front-ends prove themselves to NATS with Token or the
// NKey seed in NKeyFile (one of them); off loopback they speak TLS.
type SharedRoomConfig struct {
	URL, Listen, Room string
	Token, NKeyFile   string
	// CAFile is the certificate authority to trust for URL's server;
	// Fingerprint pins its certificate instead (as printed by the front-end
	// that hosts it). Without either, a tls:// URL is checked against the
	// system's authorities.
	CAFile, Fingerprint string
	// StoreDir keeps a hosted server's JetStream files and its
	// certificate, so that a restarted host has the room back.
	StoreDir string
	Log      func(format string, v ...any)

	// StartWait is how long a front-end that cannot reach NATS at start
	// tries again (0: DefaultStartWait): the host may not be up yet, or
	// its port flooded.
	StartWait time.Duration

	// Tests shorten these (see NATSRoomConfig).
	beat, dead, opTimeout, reconnectWait time.Duration
	// tls makes a host on loopback speak TLS too (tests).
	tls bool
}

// DefaultStartWait is how long a front-end tries to reach NATS at start.
const DefaultStartWait = 5 * time.Minute

// connectRetrying connects to NATS, again and again with a growing wait
// (0.5 s, doubling, at most 10 s) for at most cfg.StartWait — but not
// after NATS said the credentials are wrong, nor after a certificate that
// is not the one pinned: trying again would not change those.
func connectRetrying(cfg SharedRoomConfig, url string, opts []nats.Option) (*nats.Conn, error) {
	wait := cfg.StartWait
	if wait <= 0 {
		wait = DefaultStartWait
	}
	deadline := time.Now().Add(wait)
	backoff := 500 * time.Millisecond
	for attempt := 1; ; attempt++ {
		nc, err := nats.Connect(url, opts...)
		if err == nil {
			if attempt > 1 {
				cfg.Log("room %s: reached NATS at %s after %d attempts", cfg.Room, url, attempt)
			}
			return nc, nil
		}
		if errors.Is(err, nats.ErrAuthorization) || errors.Is(err, nats.ErrAuthExpired) || errors.Is(err, nats.ErrAuthRevoked) ||
			strings.Contains(err.Error(), "certificate") || time.Now().Add(backoff).After(deadline) {
			return nil, err
		}
		cfg.Log("room %s: NATS at %s: %v (attempt %d; again in %v)", cfg.Room, url, err, attempt, backoff)
		time.Sleep(backoff)
		backoff = min(2*backoff, 10*time.Second)
	}
}

// SharedRoom is a NATSRoom with its connection, and the NATS server it
// hosts, if it does.
type SharedRoom struct {
	*NATSRoom
	nc     *nats.Conn
	server *natsHost
	// URL is the hosted server's address, for the others; Fingerprint its
	// certificate's when it speaks TLS; PublicKey the NKey front-ends
	// prove themselves with.
	URL, Fingerprint, PublicKey string
}

// Loopback reports whether host (a name or an address) stays on this
// machine.
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckRoomURL says what is wrong with a --room-url: want nats:// or
// tls://, a host and a port; off loopback, TLS.
func CheckRoomURL(raw string, tlsGiven bool) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "nats" && u.Scheme != "tls") || u.Hostname() == "" || u.Port() == "" || u.User != nil || (u.Path != "" && u.Path != "/") {
		return errors.New("want nats://HOST:PORT or tls://HOST:PORT (credentials go in --room-token or --room-nkey)")
	}
	if !Loopback(u.Hostname()) && u.Scheme != "tls" && !tlsGiven {
		return errors.New("off loopback, front-ends speak TLS to NATS: use tls://, with --room-fingerprint or --room-ca if its certificate is not from a public authority")
	}
	return nil
}

// OpenSharedRoom hosts or joins the room's NATS server and joins the room.
func OpenSharedRoom(cfg SharedRoomConfig) (*SharedRoom, error) {
	if cfg.Log == nil {
		cfg.Log = func(string, ...any) {}
	}
	if (cfg.Token == "") == (cfg.NKeyFile == "") {
		return nil, errors.New("a shared room needs one of --room-token and --room-nkey")
	}
	if (cfg.URL == "") == (cfg.Listen == "") {
		return nil, errors.New("a shared room needs one of --room-url (join) and --room-listen (host)")
	}
	sr := &SharedRoom{}
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
	reconnectWait := cfg.reconnectWait
	if reconnectWait == 0 {
		reconnectWait = time.Second
	}
	opts := []nats.Option{auth, nats.Name("toolgate front-end " + id),
		nats.MaxReconnects(-1), nats.ReconnectWait(reconnectWait), nats.ReconnectJitter(100*time.Millisecond, time.Second),
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
				r.logf("nats "+err.Error(), "room %s: nats: %v", cfg.Room, err)
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
		h, fp, err := hostNATS(cfg, sr.PublicKey)
		if err != nil {
			return nil, err
		}
		sr.server, sr.Fingerprint = h, fp
		sr.URL = h.ClientURL()
		opts = append(opts, nats.InProcessServer(h.srv))
		url = ""
	} else {
		if err := CheckRoomURL(cfg.URL, cfg.CAFile != "" || cfg.Fingerprint != ""); err != nil {
			return nil, fmt.Errorf("--room-url %s: %w", cfg.URL, err)
		}
		if strings.HasPrefix(cfg.URL, "tls://") || cfg.CAFile != "" || cfg.Fingerprint != "" {
			tc, err := clientTLS(cfg)
			if err != nil {
				return nil, err
			}
			opts = append(opts, nats.Secure(tc))
		}
	}
	nc, err := connectRetrying(cfg, url, opts)
	if err != nil {
		sr.shutdownServer()
		return nil, fmt.Errorf("room %s: NATS at %s: %w", cfg.Room, cfg.URL+cfg.Listen, err)
	}
	r, err := NewNATSRoom(nc, id, NATSRoomConfig{Room: cfg.Room, Log: cfg.Log, Beat: cfg.beat, Dead: cfg.dead, OpTimeout: cfg.opTimeout})
	if err != nil {
		nc.Close()
		sr.shutdownServer()
		return nil, err
	}
	room.Store(r)
	sr.NATSRoom, sr.nc = r, nc
	return sr, nil
}

// Close leaves the room, and stops the server it hosts.
func (s *SharedRoom) Close() {
	s.NATSRoom.Close()
	s.nc.Close()
	s.shutdownServer()
}

// crash ends the front-end's part without a word, as a killed process
// would (tests).
func (s *SharedRoom) crash() {
	s.NATSRoom.stop()
	s.nc.Close()
	s.shutdownServer()
}

func (s *SharedRoom) shutdownServer() {
	if s.server != nil {
		s.server.Shutdown()
		s.server.WaitForShutdown()
	}
}

// Bounds of the files a front-end reads for a shared room.
const (
	maxSeedFile = 4096
	maxPEMFile  = 64 << 10
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
		return nil, fmt.Errorf("--room-nkey %s: not an NKey seed (too long)", path)
	case err != nil:
		return nil, fmt.Errorf("--room-nkey: %w", pathError(path, err))
	}
	kp, err := nkeys.FromSeed([]byte(strings.TrimSpace(string(data))))
	if err != nil {
		return nil, fmt.Errorf("--room-nkey %s: %w", path, err)
	}
	if pub, _ := kp.PublicKey(); !nkeys.IsValidPublicUserKey(pub) {
		return nil, fmt.Errorf("--room-nkey %s: not a user seed (SU…)", path)
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
		return nil, fmt.Errorf("--room-nkey: %w", err)
	}
	if err := safefile.WriteNew(path, append(seed, '\n'), 0o600); err != nil {
		return nil, fmt.Errorf("--room-nkey: %w", err)
	}
	return kp, nil
}

// hostNATS starts the embedded NATS server: JetStream on, only this
// room's front-ends let in, bounded, TLS off loopback (a certificate made
// on first start, whose fingerprint the others pin). It listens on
// loopback only; cfg.Listen is its front (see natsHost), and its log goes
// through one rate-limited natsLog.
func hostNATS(cfg SharedRoomConfig, nkeyPub string) (*natsHost, string, error) {
	host, portText, err := net.SplitHostPort(cfg.Listen)
	port, perr := strconv.Atoi(portText)
	if err != nil || perr != nil || port < 0 || port > 65535 {
		return nil, "", fmt.Errorf("--room-listen %s: want HOST:PORT", cfg.Listen)
	}
	log := &natsLog{log: cfg.Log}
	opts := &server.Options{
		ServerName: "toolgate-" + cfg.Room, Host: "127.0.0.1", Port: server.RANDOM_PORT,
		JetStream: true, StoreDir: filepath.Join(cfg.StoreDir, "jetstream"),
		JetStreamMaxMemory: 64 << 20, JetStreamMaxStore: 1 << 30,
		MaxPayload: 64 << 10, MaxConn: 256, MaxSubs: 10_000, MaxPending: 64 << 20,
		// A front-end proves itself at once: a connection that has not
		// within 2 s is closed.
		AuthTimeout: 2, WriteDeadline: 10 * time.Second, NoSigs: true,
		// Every connection comes through the front, which says whose it is.
		ProxyProtocol: true,
	}
	if nkeyPub != "" {
		opts.Nkeys = []*server.NkeyUser{{Nkey: nkeyPub}}
	} else {
		opts.Authorization = cfg.Token
	}
	var fp string
	if !Loopback(host) || cfg.tls {
		cert, err := roomCertificate(cfg.StoreDir, host)
		if err != nil {
			return nil, "", err
		}
		opts.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		opts.TLS, opts.TLSTimeout = true, 2
		fp = certFingerprint(cert.Certificate[0])
	}
	front, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, "", fmt.Errorf("--room-listen %s: %w", cfg.Listen, err)
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		_ = front.Close()
		return nil, "", fmt.Errorf("--room-listen %s: %w", cfg.Listen, err)
	}
	srv.SetLoggerV2(log, false, false, false)
	go srv.Start()
	if !srv.ReadyForConnections(30 * time.Second) {
		_ = front.Close()
		srv.Shutdown()
		return nil, "", fmt.Errorf("--room-listen %s: the NATS server did not start", cfg.Listen)
	}
	h := newNATSHost(srv, front, opts.TLSConfig != nil, func(source, why string) {
		log.refused.Add(1)
		if log.rate.allow("refused "+source, 10*time.Second) {
			log.log("nats: refused a connection from %s: %s (more are logged at most every 10s)", source, why)
		}
	})
	h.log = log
	return h, fp, nil
}

// natsLog passes the embedded server's warnings and errors on: escaped
// (a client's name is the client's), and at most a line every 10 s for
// one reason from one address — wrong credentials from a loop are a line,
// not a flood, and are counted.
type natsLog struct {
	log  func(string, ...any)
	rate rateLog
	// authFailures counts the connections refused for a wrong token or
	// key; refused those the front refused.
	authFailures, refused atomic.Int64
}

// natsClientLine is a line about one client: "IP:PORT - cid:N", the
// client's quoted name and language if it gave them, then the message.
var natsClientLine = regexp.MustCompile(`^(\S+):\d+ - [a-z]+:\d+(?: - "(?:[^"\\]|\\.)*")* - (.*)$`)

var digits = regexp.MustCompile(`[0-9]+`)

func (l *natsLog) line(format string, v ...any) {
	text := fmt.Sprintf(format, v...)
	source, reason := "", text
	if m := natsClientLine.FindStringSubmatch(text); m != nil {
		host := strings.Trim(m[1], "[]")
		if ip := net.ParseIP(host); ip != nil {
			source = sourceOf(&net.TCPAddr{IP: ip})
		} else {
			source = host
		}
		reason, _, _ = strings.Cut(m[2], " - ")
	}
	key := digits.ReplaceAllString(reason, "N")
	if len(key) > 80 {
		key = key[:80]
	}
	if strings.Contains(reason, "authentication error") || strings.Contains(reason, "Authorization Violation") {
		n := l.authFailures.Add(1)
		if l.rate.allow("auth "+source, 10*time.Second) {
			l.log("nats: wrong credentials from %s (%d in all; more from this address are logged at most every 10s)", source, n)
		}
		return
	}
	if !l.rate.allow(key+" "+source, 10*time.Second) {
		return
	}
	l.log("nats: %s", quoteText(text, 240))
}

func (*natsLog) Noticef(string, ...any)           {}
func (*natsLog) Debugf(string, ...any)            {}
func (*natsLog) Tracef(string, ...any)            {}
func (l *natsLog) Warnf(format string, v ...any)  { l.line(format, v...) }
func (l *natsLog) Errorf(format string, v ...any) { l.line(format, v...) }
func (l *natsLog) Fatalf(format string, v ...any) { l.line(format, v...) }

// certFingerprint is how a certificate is pinned: SHA256:base64, as ssh
// prints host keys.
func certFingerprint(der []byte) string {
	sum := sha256.Sum256(der)
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}

// roomCertificate is the hosted server's certificate, made on first
// start (ECDSA P-256, ten years: it is pinned, not checked by name). The
// front-ends pinned its fingerprint: a pair that cannot be read is an
// error, never a reason to make another.
func roomCertificate(dir, host string) (tls.Certificate, error) {
	certPath, keyPath := filepath.Join(dir, "room-cert.pem"), filepath.Join(dir, "room-key.pem")
	certPEM, certErr := safefile.ReadRegular(certPath, maxPEMFile)
	keyPEM, keyErr := safefile.ReadRegular(keyPath, maxPEMFile)
	certGone, keyGone := errors.Is(certErr, fs.ErrNotExist), errors.Is(keyErr, fs.ErrNotExist)
	switch {
	case certGone && keyGone:
		return newRoomCertificate(certPath, keyPath, host)
	case certErr != nil && !certGone:
		return tls.Certificate{}, fmt.Errorf("room certificate: %w", pathError(certPath, certErr))
	case keyErr != nil && !keyGone:
		return tls.Certificate{}, fmt.Errorf("room certificate: %w", pathError(keyPath, keyErr))
	case certGone:
		// The key is written first: a host stopped before the
		// certificate was written never printed a fingerprint.
		return tls.Certificate{}, fmt.Errorf("room certificate %s is missing beside its key %s: restore it, or remove the key to make a new pair (the front-ends then pin its new fingerprint)", certPath, keyPath)
	case keyGone:
		return tls.Certificate{}, fmt.Errorf("room certificate key %s is missing beside %s: restore it, or remove the certificate to make a new pair (the front-ends then pin its new fingerprint)", keyPath, certPath)
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("room certificate %s and key %s: %w (restore them, or remove both to make a new pair: the front-ends then pin its new fingerprint)", certPath, keyPath, err)
	}
	return cert, nil
}

// newRoomCertificate makes the pair and writes it, each file whole or not
// at all and never over one there: the key first, so that a host stopped
// in between leaves a key alone, which roomCertificate refuses rather
// than replaces.
func newRoomCertificate(certPath, keyPath, host string) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: "toolgate room"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().AddDate(10, 0, 0),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, DNSNames: []string{"localhost"}}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else if host != "" {
		tmpl.DNSNames = append(tmpl.DNSNames, host)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return tls.Certificate{}, err
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
	if err := os.MkdirAll(filepath.Dir(keyPath), 0o700); err != nil {
		return tls.Certificate{}, fmt.Errorf("room certificate: %w", err)
	}
	if err := safefile.WriteNew(keyPath, keyPEM, 0o600); err != nil {
		return tls.Certificate{}, fmt.Errorf("room certificate: %w", err)
	}
	if err := safefile.WriteNew(certPath, certPEM, 0o644); err != nil {
		return tls.Certificate{}, fmt.Errorf("room certificate: %w", err)
	}
	return tls.X509KeyPair(certPEM, keyPEM)
}

// clientTLS checks the server's certificate: pinned, from CAFile, or from
// the system's authorities.
func clientTLS(cfg SharedRoomConfig) (*tls.Config, error) {
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
			if got := certFingerprint(cs.PeerCertificates[0].Raw); got != pin {
				return fmt.Errorf("the room's NATS server's certificate is %s, not --room-fingerprint %s", got, pin)
			}
			return nil
		}
	case cfg.CAFile != "":
		data, err := safefile.ReadRegular(cfg.CAFile, maxCAFile)
		if err != nil {
			return nil, fmt.Errorf("--room-ca: %w", pathError(cfg.CAFile, err))
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(data) {
			return nil, fmt.Errorf("--room-ca %s: no PEM certificate in it", cfg.CAFile)
		}
		tc.RootCAs = pool
	}
	return tc, nil
}
