// Package natshost runs the NATS server a shared room's front-ends meet
// on, embedded in the front-end that hosts it: JetStream on, only the
// room's front-ends let in, bounded, TLS off loopback with a certificate
// made on first start, reached through a front that caps what one
// address may hold (see front.go), and a log that a flood cannot flood.
package natshost

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
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"toolgate/classroom/config"
	"toolgate/classroom/internal/outside"
	"toolgate/safefile"
)

// maxPEMFile bounds the certificate and key files a host reads.
const maxPEMFile = 64 << 10

// Start starts the embedded NATS server for the room cfg names, on
// cfg.Listen: JetStream on, its files under cfg.StoreDir; only this
// room's front-ends let in, with cfg.Token or, if nkeyPub is set, the
// NKey it names; bounded; TLS off loopback (or with cfg.TLS), with a
// certificate made on first start, whose fingerprint the others pin. The
// server listens on loopback only; cfg.Listen is its front (see Host),
// and its log goes to log through one rate-limited Log.
func Start(cfg config.Room, nkeyPub string, log func(format string, v ...any)) (*Host, error) {
	host, _, err := config.SplitListen(cfg.Listen)
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = func(string, ...any) {}
	}
	nlog := &Log{log: log}
	opts := &server.Options{
		ServerName: "toolgate-" + cfg.Name, Host: "127.0.0.1", Port: server.RANDOM_PORT,
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
	if !config.Loopback(host) || cfg.TLS {
		cert, err := Certificate(cfg.StoreDir, host)
		if err != nil {
			return nil, err
		}
		opts.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		opts.TLS, opts.TLSTimeout = true, 2
		fp = Fingerprint(cert.Certificate[0])
	}
	front, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("room %s: NATS on %s: %w", cfg.Name, cfg.Listen, err)
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		_ = front.Close()
		return nil, fmt.Errorf("room %s: NATS on %s: %w", cfg.Name, cfg.Listen, err)
	}
	srv.SetLoggerV2(nlog, false, false, false)
	go srv.Start()
	if !srv.ReadyForConnections(30 * time.Second) {
		_ = front.Close()
		srv.Shutdown()
		return nil, fmt.Errorf("room %s: NATS on %s: the server did not start", cfg.Name, cfg.Listen)
	}
	h := newHost(srv, front, opts.TLSConfig != nil, func(source, why string) {
		nlog.refused.Add(1)
		if nlog.rate.Allow("refused "+source, 10*time.Second) {
			nlog.log("nats: refused a connection from %s: %s (more are logged at most every 10s)", source, why)
		}
	})
	h.log, h.fingerprint = nlog, fp
	return h, nil
}

// Log passes the embedded server's warnings and errors on: escaped (a
// client's name is the client's), and at most a line every 10 s for one
// reason from one address — wrong credentials from a loop are a line,
// not a flood, and are counted.
type Log struct {
	log  func(string, ...any)
	rate outside.RateLog
	// authFailures counts the connections refused for a wrong token or
	// key; refused those the front refused.
	authFailures, refused atomic.Int64
}

// AuthFailures is how many connections NATS refused for a wrong token
// or key.
func (l *Log) AuthFailures() int64 { return l.authFailures.Load() }

// Refused is how many connections the front refused.
func (l *Log) Refused() int64 { return l.refused.Load() }

// natsClientLine is a line about one client: "IP:PORT - cid:N", the
// client's quoted name and language if it gave them, then the message.
var natsClientLine = regexp.MustCompile(`^(\S+):\d+ - [a-z]+:\d+(?: - "(?:[^"\\]|\\.)*")* - (.*)$`)

var digits = regexp.MustCompile(`[0-9]+`)

func (l *Log) line(format string, v ...any) {
	text := fmt.Sprintf(format, v...)
	source, reason := "", text
	if m := natsClientLine.FindStringSubmatch(text); m != nil {
		host := strings.Trim(m[1], "[]")
		if ip := net.ParseIP(host); ip != nil {
			source = outside.Source(&net.TCPAddr{IP: ip})
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
		if l.rate.Allow("auth "+source, 10*time.Second) {
			l.log("nats: wrong credentials from %s (%d in all; more from this address are logged at most every 10s)", source, n)
		}
		return
	}
	if !l.rate.Allow(key+" "+source, 10*time.Second) {
		return
	}
	l.log("nats: %s", outside.Text(text, 240))
}

// Noticef drops the server's notices (a start, a client that came).
func (*Log) Noticef(string, ...any) {}

// Debugf drops the server's debugging.
func (*Log) Debugf(string, ...any) {}

// Tracef drops the server's traces.
func (*Log) Tracef(string, ...any) {}

// Warnf passes a warning on.
func (l *Log) Warnf(format string, v ...any) { l.line(format, v...) }

// Errorf passes an error on.
func (l *Log) Errorf(format string, v ...any) { l.line(format, v...) }

// Fatalf passes a fatal error on.
func (l *Log) Fatalf(format string, v ...any) { l.line(format, v...) }

// Fingerprint is how a certificate is pinned: SHA256:base64, as ssh
// prints host keys.
func Fingerprint(der []byte) string {
	sum := sha256.Sum256(der)
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}

// Certificate is the hosted server's certificate, made on first
// start (ECDSA P-256, ten years: it is pinned, not checked by name). The
// front-ends pinned its fingerprint: a pair that cannot be read is an
// error, never a reason to make another.
func Certificate(dir, host string) (tls.Certificate, error) {
	certPath, keyPath := filepath.Join(dir, "room-cert.pem"), filepath.Join(dir, "room-key.pem")
	certPEM, certErr := safefile.ReadRegular(certPath, maxPEMFile)
	keyPEM, keyErr := safefile.ReadRegular(keyPath, maxPEMFile)
	certGone, keyGone := errors.Is(certErr, fs.ErrNotExist), errors.Is(keyErr, fs.ErrNotExist)
	switch {
	case certGone && keyGone:
		return newRoomCertificate(certPath, keyPath, host)
	case certErr != nil && !certGone:
		return tls.Certificate{}, fmt.Errorf("room certificate: %w", outside.PathError(certPath, certErr))
	case keyErr != nil && !keyGone:
		return tls.Certificate{}, fmt.Errorf("room certificate: %w", outside.PathError(keyPath, keyErr))
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
// in between leaves a key alone, which Certificate refuses rather
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
