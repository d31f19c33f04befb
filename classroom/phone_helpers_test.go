package classroom

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"toolgate/classroom/config"
	"toolgate/classroom/web"
)

// startWeb serves cfg and l as start does, and the phones' page on
// 127.0.0.1:0; it returns the page's base URL too.
func startWeb(t testing.TB, cfg config.Config, l Lecture) (*Server, string, string, *lockedLog) {
	t.Helper()
	srv, addr, base, log, _ := startWebDropping(t, cfg, l)
	return srv, addr, base, log
}

// startWebDropping is startWeb with the page's listener in the test's
// hands: drop closes every connection it took, as a phone that changes
// network sees it.
func startWebDropping(t testing.TB, cfg config.Config, l Lecture) (*Server, string, string, *lockedLog, *dropper) {
	t.Helper()
	cfg.Web.Listen = "127.0.0.1:0"
	wl, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	base := "http://" + wl.Addr().String()
	cfg.Web.URL = base
	srv, addr, log := start(t, cfg, l)
	d := &dropper{Listener: wl}
	go func() { _ = srv.ServeWeb(d, nil) }()
	return srv, addr, base, log, d
}

// dropper is a listener that keeps what it accepted, to close it.
type dropper struct {
	net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func (d *dropper) Accept() (net.Conn, error) {
	c, err := d.Listener.Accept()
	if err == nil {
		d.mu.Lock()
		d.conns = append(d.conns, c)
		d.mu.Unlock()
	}
	return c, err
}

// drop closes every connection taken so far.
func (d *dropper) drop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, c := range d.conns {
		_ = c.Close()
	}
	d.conns = nil
}

// phoneClient is a phone: a browser's cookie jar, the page's CSRF token,
// and the room as its event stream last said.
type phoneClient struct {
	base string
	c    *http.Client
	csrf string

	mu     sync.Mutex
	last   web.State
	events int
	cancel context.CancelFunc
	done   chan struct{}
}

func newPhone(base string) *phoneClient {
	jar, _ := cookiejar.New(nil)
	return &phoneClient{base: base, c: &http.Client{Jar: jar, Timeout: 0, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

var csrfMeta = regexp.MustCompile(`<meta name="csrf-token" content="([^"]+)">`)

// join posts a code; ok when the page let the phone in.
func (p *phoneClient) join(code string) (status int, err error) {
	res, err := p.c.PostForm(p.base+"/join", url.Values{"code": {code}})
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		return res.StatusCode, nil
	}
	page, err := p.get("/")
	if err != nil {
		return 0, err
	}
	m := csrfMeta.FindStringSubmatch(page)
	if m == nil {
		return 0, fmt.Errorf("no csrf token on the page")
	}
	p.csrf = m[1]
	return res.StatusCode, nil
}

func (p *phoneClient) get(path string) (string, error) {
	res, err := p.c.Get(p.base + path)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return string(b), err
}

// answer posts a choice with the token in the header, as the script does,
// for the round the phone was last shown.
func (p *phoneClient) answer(choice int) (int, error) {
	return p.answerRound(choice, p.state().Round)
}

// answerRound posts a choice for a round.
func (p *phoneClient) answerRound(choice, round int) (int, error) {
	form := url.Values{"choice": {fmt.Sprint(choice)}, "round": {fmt.Sprint(round)}}
	req, _ := http.NewRequest("POST", p.base+"/answer", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-CSRF-Token", p.csrf)
	res, err := p.c.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, nil
}

// follow opens the event stream and keeps the latest state until stop.
func (p *phoneClient) follow() error {
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", p.base+"/events?lang=en", nil)
	res, err := p.c.Do(req)
	if err != nil {
		cancel()
		return err
	}
	if res.StatusCode != http.StatusOK {
		cancel()
		res.Body.Close()
		return fmt.Errorf("events: %s", res.Status)
	}
	p.cancel, p.done = cancel, make(chan struct{})
	go func() {
		defer close(p.done)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var st web.State
			if json.Unmarshal([]byte(data), &st) == nil {
				p.mu.Lock()
				p.last, p.events = st, p.events+1
				p.mu.Unlock()
			}
		}
	}()
	return nil
}

func (p *phoneClient) stop() {
	if p.cancel != nil {
		p.cancel()
		<-p.done
	}
}

// state is the room as the stream last said.
func (p *phoneClient) state() web.State {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last
}

// sees waits until the stream says what ok wants.
func (p *phoneClient) sees(t testing.TB, what string, ok func(web.State) bool) {
	t.Helper()
	waitUntil(t, what, func() bool { return ok(p.state()) })
}

type webState = web.State
