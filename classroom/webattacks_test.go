package classroom

// The phones' page attacked on loopback, as attacks_test.go does SSH.

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"toolgate/classroom/config"
	"toolgate/classroom/natshost"
)

// Wrong codes typed on phones are paced as SSH's, together with them:
// after the address's quick answers, a wrong code waits for its turn;
// a right one gets in at once, whatever the address sent.
func TestWebWrongCodesAreThrottledRightOneGetsIn(t *testing.T) {
	clock := newFakeClock()
	srv, addr, base, log := startWeb(t, config.Config{ClassCode: "tulip", LoginFailures: 3}, Lecture{failDelay: time.Millisecond, failRefill: time.Hour, now: clock.now})
	for range 2 {
		status, err := newPhone(base).join("tuilp")
		require.NoError(t, err)
		assert.Equal(t, http.StatusForbidden, status)
	}
	// SSH's wrong codes count for the same address.
	_, err := dial(addr, "guess")
	require.Error(t, err)
	waiting := make(chan int, 1)
	go func() { status, _ := newPhone(base).join("guess"); waiting <- status }()
	waitUntil(t, "the fourth wrong code is checked", func() bool { return srv.failures.Load() == 4 })
	status, err := newPhone(base).join("tulip")
	require.NoError(t, err)
	assert.Equal(t, http.StatusSeeOther, status, "a right code gets in at once")
	student := connect(t, addr, "tulip")
	student.waitFor(t, "Scenarios")
	select {
	case <-waiting:
		t.Fatal("the wrong code was answered before its turn")
	default:
	}
	assert.Contains(t, log.String(), "auth failure from 127.0.0.1 by phone")
}

// A code right for another role never makes a phone the presenter.
func TestWebPresenterCodeIsNotForPhones(t *testing.T) {
	srv, _, base, _ := startWeb(t, config.Config{ClassCode: "tulip", PresenterCode: "orchid"}, Lecture{})
	status, err := newPhone(base).join("orchid")
	require.NoError(t, err)
	assert.Equal(t, http.StatusForbidden, status)
	assert.Zero(t, srv.Web().Phones())
	assert.Zero(t, srv.failures.Load(), "a right code is no failure")
}

// rawGet opens a connection and sends a GET for path; it returns the
// status line, or "" when the connection was closed first.
func rawGet(addr, path string) (string, net.Conn, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return "", nil, err
	}
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path); err != nil {
		return "", c, nil
	}
	line, _ := bufio.NewReader(c).ReadString('\n')
	return strings.TrimSpace(line), c, nil
}

// Connections are capped per address and in total, event streams
// included: the next is told 503 and closed.
func TestWebConnectionsAreCapped(t *testing.T) {
	for _, tc := range []struct {
		name string
		web  config.Web
	}{{"per address", config.Web{MaxConnsPerAddress: 3}}, {"in total", config.Web{MaxConns: 3}}} {
		t.Run(tc.name, func(t *testing.T) {
			srv, _, base, _ := startWeb(t, config.Config{ClassCode: "tulip", Web: tc.web}, Lecture{})
			var phones []*phoneClient
			for range 3 {
				p := newPhone(base)
				p.c.Transport = &http.Transport{MaxConnsPerHost: 1}
				_, err := p.join("tulip")
				require.NoError(t, err)
				phones = append(phones, p)
			}
			for _, p := range phones {
				p.c.Transport.(*http.Transport).CloseIdleConnections()
			}
			waitUntil(t, "the joins' connections are closed", func() bool { return srv.Web().Conns() == 0 })
			for _, p := range phones {
				require.NoError(t, p.follow())
				t.Cleanup(p.stop)
			}
			waitUntil(t, "three streams open", func() bool { return srv.Web().Conns() == 3 })
			line, c, err := rawGet(strings.TrimPrefix(base, "http://"), "/app.css")
			require.NoError(t, err)
			defer c.Close()
			assert.Equal(t, "HTTP/1.1 503 Service Unavailable", line, "streams count against the cap")
			phones[0].stop()
			waitUntil(t, "a stream closed gives its place back", func() bool { return srv.Web().Conns() == 2 })
			line, c2, err := rawGet(strings.TrimPrefix(base, "http://"), "/app.css")
			require.NoError(t, err)
			defer c2.Close()
			assert.Equal(t, "HTTP/1.1 200 OK", line)
		})
	}
}

// A flood of wrong codes from the hall's address holding every place
// gives them up to a right code.
func TestWebWrongCodesGiveTheirPlaceUp(t *testing.T) {
	srv, _, base, _ := startWeb(t, config.Config{ClassCode: "tulip", LoginFailures: 1, Web: config.Web{MaxConnsPerAddress: 4}}, Lecture{failDelay: time.Hour, failRefill: time.Hour})
	for range 4 {
		go func() { _, _ = newPhone(base).join("guess") }()
	}
	waitUntil(t, "four wrong codes wait for their answers", func() bool { return srv.failures.Load() == 4 })
	status, err := newPhone(base).join("tulip")
	require.NoError(t, err)
	assert.Equal(t, http.StatusSeeOther, status)
}

// Bodies and headers are bounded; no text a client sent comes back.
func TestWebBoundsAndNoEcho(t *testing.T) {
	_, _, base, log := startWeb(t, config.Config{ClassCode: "tulip"}, Lecture{failDelay: time.Millisecond})
	c := &http.Client{}
	res, err := c.Post(base+"/join", "application/x-www-form-urlencoded", strings.NewReader("code="+strings.Repeat("a", 8<<10)))
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusBadRequest, res.StatusCode, "a body over 4 KB")

	req, _ := http.NewRequest("GET", base+"/", nil)
	req.Header.Set("X-Big", strings.Repeat("b", 16<<10))
	res, err = c.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, res.StatusCode)

	evil := `<script>alert(1)</script>zq-marker`
	res, err = c.PostForm(base+"/join", url.Values{"code": {evil}})
	require.NoError(t, err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	assert.Equal(t, http.StatusForbidden, res.StatusCode)
	assert.NotContains(t, string(body), "zq-marker")
	assert.NotContains(t, string(body), "alert(1)")
	assert.NotContains(t, log.String(), "zq-marker", "no code is logged")

	page, err := newPhone(base).get("/?t=" + url.QueryEscape(evil) + "&lang=" + url.QueryEscape(evil))
	require.NoError(t, err)
	assert.NotContains(t, page, "zq-marker")
}

// The answer needs the page's token; another site's page is refused;
// the cookie is HttpOnly and SameSite=Strict; every answer carries a
// policy that allows no inline script.
func TestWebCSRFCookieAndPolicy(t *testing.T) {
	srv, addr, base, _ := startWeb(t, config.Config{ClassCode: "tulip", PresenterCode: "orchid"}, Lecture{})
	lecturer := connect(t, addr, "orchid")
	lecturer.waitFor(t, "You lead the room")
	require.NoError(t, lecturer.send("4"))
	require.NoError(t, lecturer.send("o"))
	res, err := newPhone(base).c.PostForm(base+"/join", url.Values{"code": {"tulip"}})
	require.NoError(t, err)
	res.Body.Close()
	var cookie *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == "toolgate" {
			cookie = c
		}
	}
	require.NotNil(t, cookie)
	assert.True(t, cookie.HttpOnly)
	assert.Equal(t, http.SameSiteStrictMode, cookie.SameSite)
	assert.False(t, cookie.Secure, "plain HTTP: a Secure cookie would not come back")

	p := newPhone(base)
	_, err = p.join("tulip")
	require.NoError(t, err)
	require.NoError(t, p.follow())
	t.Cleanup(p.stop)
	p.sees(t, "the question", func(s webState) bool { return s.Open })
	post := func(token string, header http.Header) int {
		form := url.Values{"choice": {"4"}, "round": {fmt.Sprint(p.state().Round)}}
		if token != "" {
			form.Set("csrf", token)
		}
		req, _ := http.NewRequest("POST", base+"/answer", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range header {
			req.Header[k] = v
		}
		res, err := p.c.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res.StatusCode
	}
	assert.Equal(t, http.StatusForbidden, post("", nil), "no token")
	assert.Equal(t, http.StatusForbidden, post(p.csrf+"x", nil), "a wrong token")
	assert.Equal(t, http.StatusForbidden, post(p.csrf, http.Header{"Origin": {"http://evil.example"}}), "another site's page")
	assert.Equal(t, http.StatusForbidden, post(p.csrf, http.Header{"Sec-Fetch-Site": {"cross-site"}}))
	assert.Zero(t, srv.Room().Stats().Answered)
	assert.Equal(t, http.StatusSeeOther, post(p.csrf, nil), "the page's own form")
	waitUntil(t, "the answer counts", func() bool { return srv.Room().Stats().Answered == 1 })

	for _, path := range []string{"/", "/app.js", "/events", "/nothing"} {
		res, err := p.c.Head(base + path)
		require.NoError(t, err)
		res.Body.Close()
		csp := res.Header.Get("Content-Security-Policy")
		assert.Contains(t, csp, "script-src 'self'", path)
		assert.NotContains(t, csp, "unsafe-inline", path)
		assert.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"), path)
	}
	page, err := p.get("/")
	require.NoError(t, err)
	assert.NotRegexp(t, `<script>|<script [^>]*>[^<]`, page, "no inline script")
	assert.NotContains(t, page, "orchid")
	assert.NotContains(t, page, "answered", "no count on a phone")
}

// A phone whose stream drops keeps its place and its answer for the
// grace; after it, it leaves the room as an SSH student who hangs up.
func TestWebPhoneReconnectsKeepingItsAnswer(t *testing.T) {
	srv, addr, base, _ := startWeb(t, config.Config{ClassCode: "tulip", PresenterCode: "orchid"}, Lecture{webGrace: time.Hour})
	lecturer := connect(t, addr, "orchid")
	lecturer.waitFor(t, "You lead the room")
	require.NoError(t, lecturer.send("4"))
	require.NoError(t, lecturer.send("o"))
	p := newPhone(base)
	_, err := p.join("tulip")
	require.NoError(t, err)
	require.NoError(t, p.follow())
	p.sees(t, "the question", func(s webState) bool { return s.Open })
	status, err := p.answer(3)
	require.NoError(t, err)
	require.Equal(t, http.StatusNoContent, status)
	p.sees(t, "its answer", func(s webState) bool { return s.Yours == 3 })
	p.stop()
	p.last = webState{}
	require.NoError(t, p.follow())
	t.Cleanup(p.stop)
	p.sees(t, "its answer, again", func(s webState) bool { return s.Open && s.Yours == 3 })
	assert.Equal(t, 1, srv.Room().Stats().Answered)
}

var _ = context.Background
var _ gossh.AuthMethod

// Over TLS, with the certificate the host makes, the cookie is Secure
// and the page asks to be reached by HTTPS only.
func TestWebOverTLS(t *testing.T) {
	wl, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	base := "https://" + wl.Addr().String()
	srv, _, _ := start(t, config.Config{ClassCode: "tulip", Web: config.Web{Listen: wl.Addr().String(), TLS: true}}, Lecture{})
	cert, err := natshost.Certificate(t.TempDir(), "127.0.0.1")
	require.NoError(t, err)
	go func() {
		_ = srv.ServeWeb(wl, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	}()
	assert.True(t, strings.HasPrefix(srv.JoinURL(), base+"/?t="), srv.JoinURL())
	leaf, err := x509.ParseCertificate(cert.Certificate[0])
	require.NoError(t, err)
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.PostForm(base+"/join", url.Values{"code": {"tulip"}})
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	require.NotEmpty(t, res.Cookies())
	assert.True(t, res.Cookies()[0].Secure)
	assert.Contains(t, res.Header.Get("Strict-Transport-Security"), "max-age=")
}

// A client that takes every place and trickles its headers (slowloris)
// gives them up to a right code: a connection serving no request gives
// its place to a new one at the caps, the one longest without a request
// first, so a client that reconnects as fast as it can holds a place
// only until the caps' worth of its own connections come after it.
// Before, every join was told 503 for as long as the client kept
// reconnecting; with a grace of 2 s alone, still every join, when the
// client reconnected as fast as it could.
func TestWebSlowHeadersGiveTheirPlaceUp(t *testing.T) {
	srv, _, base, _ := startWeb(t, config.Config{ClassCode: "tulip", Web: config.Web{MaxConns: 4}}, Lecture{})
	addr := strings.TrimPrefix(base, "http://")
	slow := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		t.Cleanup(func() { _ = c.Close() })
		_, err = fmt.Fprint(c, "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
		require.NoError(t, err)
		return c
	}
	var first []net.Conn
	for range 4 {
		first = append(first, slow())
	}
	waitUntil(t, "the slow client holds every place", func() bool { return srv.Web().Conns() == 4 })
	status, err := newPhone(base).join("tulip")
	require.NoError(t, err)
	assert.Equal(t, http.StatusSeeOther, status)
	// The place given up was the oldest's: it reads its connection closed.
	_ = first[0].SetReadDeadline(time.Now().Add(30 * time.Second))
	_, err = first[0].Read(make([]byte, 1))
	assert.Error(t, err, "the slow client's oldest connection is closed")
}

// rawStream opens the event stream with cookie and returns its status
// line; the connection stays open.
func rawStream(t testing.TB, addr, cookie string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	_, err = fmt.Fprintf(c, "GET /events HTTP/1.1\r\nHost: x\r\nCookie: %s\r\n\r\n", cookie)
	require.NoError(t, err)
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	line, _ := bufio.NewReader(c).ReadString('\n')
	return strings.TrimSpace(line)
}

// cookieOf is the phone's cookie, as a Cookie header says it.
func cookieOf(t testing.TB, p *phoneClient) string {
	t.Helper()
	u, err := url.Parse(p.base)
	require.NoError(t, err)
	for _, c := range p.c.Jar.Cookies(u) {
		if c.Name == "toolgate" {
			return c.String()
		}
	}
	t.Fatal("no cookie")
	return ""
}

// One phone's cookie opening a stream on every place gives its second
// and later streams up to a right code: a phone needs one. Before, a
// single joined phone kept every other phone out.
func TestWebOnePhonesStreamsGiveTheirPlaceUp(t *testing.T) {
	srv, _, base, _ := startWeb(t, config.Config{ClassCode: "tulip", Web: config.Web{MaxConns: 4}}, Lecture{})
	addr := strings.TrimPrefix(base, "http://")
	hog := newPhone(base)
	_, err := hog.join("tulip")
	require.NoError(t, err)
	hog.c.CloseIdleConnections()
	waitUntil(t, "the join's connection is closed", func() bool { return srv.Web().Conns() == 0 })
	cookie := cookieOf(t, hog)
	for range 4 {
		require.Equal(t, "HTTP/1.1 200 OK", rawStream(t, addr, cookie))
	}
	waitUntil(t, "one phone's streams hold every place", func() bool { return srv.Web().Conns() == 4 })
	p := newPhone(base)
	status, err := p.join("tulip")
	require.NoError(t, err)
	require.Equal(t, http.StatusSeeOther, status)
	require.NoError(t, p.follow())
	t.Cleanup(p.stop)
	p.sees(t, "the room on its own stream", func(s webState) bool { return s.Status != "" })
}

// Joins that open no stream (the class code and a script) cannot fill
// the room: a new phone takes the place of the one that has gone longest
// without a stream, and a phone following the room keeps its place and
// its answer. Before, the room said 503 to every right code for the two
// minutes the joins kept their places.
func TestWebStreamlessPhonesGiveTheirPlaceUp(t *testing.T) {
	srv, addr, base, _ := startWeb(t, config.Config{ClassCode: "tulip", PresenterCode: "orchid", Web: config.Web{MaxConns: 4}}, Lecture{webGrace: time.Hour})
	lecturer := connect(t, addr, "orchid")
	lecturer.waitFor(t, "You lead the room")
	require.NoError(t, lecturer.send("4"))
	require.NoError(t, lecturer.send("o"))
	follower := newPhone(base)
	_, err := follower.join("tulip")
	require.NoError(t, err)
	require.NoError(t, follower.follow())
	t.Cleanup(follower.stop)
	follower.sees(t, "the question", func(s webState) bool { return s.Open })
	status, err := follower.answer(3)
	require.NoError(t, err)
	require.Equal(t, http.StatusNoContent, status)
	follower.c.CloseIdleConnections()
	for i := range 12 {
		p := newPhone(base)
		status, err := p.join("tulip")
		require.NoError(t, err)
		require.Equal(t, http.StatusSeeOther, status, "join %d", i+1)
		p.c.CloseIdleConnections()
		waitUntil(t, "only the follower's stream is open", func() bool { return srv.Web().Conns() == 1 })
	}
	assert.Equal(t, 4, srv.Web().Phones())
	assert.Equal(t, 1, srv.Room().Stats().Answered, "the follower keeps its place and its answer")
}

// A script that joins with the class code as fast as it can is a line in
// the log every 10 s, not a line a join. Before, 8 clients on loopback
// wrote 179,118 lines (7.9 MB) in 10 s.
func TestWebJoinsAreLoggedAtMostEvery10s(t *testing.T) {
	_, _, base, log := startWeb(t, config.Config{ClassCode: "tulip"}, Lecture{})
	began := time.Now()
	const joins = 30
	for range joins {
		status, err := newPhone(base).join("tulip")
		require.NoError(t, err)
		require.Equal(t, http.StatusSeeOther, status)
	}
	most := 1 + int(time.Since(began)/(10*time.Second))
	lines := strings.Count(log.String(), "web: a phone joined from 127.0.0.1")
	assert.LessOrEqual(t, lines, most, "a line a join:\n%s", log.String())
	assert.Contains(t, log.String(), "joined in all", "the line counts them")
}

// An answer that is no number is told it is malformed (400), not that
// no question is open (409): the error names what is wrong.
func TestWebMalformedChoiceIsBadRequest(t *testing.T) {
	base, _, p := phoneAtQuestion(t)
	for _, choice := range []string{"abc", "1e3", " 2", "99999999999999999999", ""} {
		req, _ := http.NewRequest("POST", base+"/answer", strings.NewReader(url.Values{"choice": {choice}, "round": {fmt.Sprint(p.state().Round)}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-CSRF-Token", p.csrf)
		res, err := p.c.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		assert.Equal(t, http.StatusBadRequest, res.StatusCode, "choice %q", choice)
		// It says what to send instead (issue 30, item 1), and never
		// what was sent.
		assert.Contains(t, string(body), "a number from 1 to 8", "choice %q", choice)
		if choice != "" {
			assert.NotContains(t, string(body), choice, "what the client sent is not echoed")
		}
	}
	for _, choice := range []string{"0", "9"} {
		status, err := p.answer(mustAtoi(t, choice))
		require.NoError(t, err)
		assert.Equal(t, http.StatusBadRequest, status, "choice %s: no choice of the question", choice)
	}
	status, err := p.answer(2)
	require.NoError(t, err)
	assert.Equal(t, http.StatusNoContent, status)
}

// A tap on the buttons of a question closed since — the page
// reconnecting while the lecturer opened the next — is not counted for
// the next one (409), and a code the rule does not have is malformed
// (400), not taken as no code. Only the answer for the round shown
// counts on the presenter's screen.
func TestWebAnswerIsForTheRoundShown(t *testing.T) {
	base, lecturer, p := phoneAtQuestion(t)
	round := p.state().Round
	require.Positive(t, round)

	status, err := p.answerRound(7, round-1)
	require.NoError(t, err)
	assert.Equal(t, http.StatusConflict, status, "an answer for an earlier round")
	said := p.refusal(t, url.Values{"choice": {"7"}, "round": {fmt.Sprint(round - 1)}})
	assert.Contains(t, said, fmt.Sprintf("question %d is open now", round), "the refusal says which question is open")
	said = p.refusal(t, url.Values{"choice": {"4"}, "code": {"environment_not_ready"}})
	assert.Contains(t, said, "choice 4 has no codes to pick from: leave code out")
	said = p.refusal(t, url.Values{"choice": {"7"}, "code": {"approval_forged"}})
	assert.Contains(t, said, `"question"."choices"[6]."codes"[]."code"`, "where the codes are")
	status, err = p.answerRound(7, round+1)
	require.NoError(t, err)
	assert.Equal(t, http.StatusConflict, status, "an answer for a round not asked yet")

	form := url.Values{"choice": {"7"}, "round": {fmt.Sprint(round)}, "code": {"approval_forged"}}
	req, _ := http.NewRequest("POST", base+"/answer", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-CSRF-Token", p.csrf)
	res, err := p.c.Do(req)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	assert.Equal(t, http.StatusBadRequest, res.StatusCode, "a code rule 7 does not have")
	assert.Zero(t, p.state().Yours, "none of these is the phone's answer")

	status, err = p.answerRound(7, round)
	require.NoError(t, err)
	assert.Equal(t, http.StatusNoContent, status)
	lecturer.waitFor(t, "answered 1 of 1")
}

// phoneAtQuestion is a lecture on loopback with scenario 4's question
// open and one phone joined and following it.
func phoneAtQuestion(t *testing.T) (base string, lecturer *session, p *phoneClient) {
	t.Helper()
	_, addr, base, _ := startWeb(t, config.Config{ClassCode: "tulip", PresenterCode: "orchid"}, Lecture{})
	lecturer = connect(t, addr, "orchid")
	lecturer.waitFor(t, "You lead the room")
	require.NoError(t, lecturer.send("4"))
	require.NoError(t, lecturer.send("o"))
	p = newPhone(base)
	_, err := p.join("tulip")
	require.NoError(t, err)
	require.NoError(t, p.follow())
	t.Cleanup(p.stop)
	p.sees(t, "the question", func(s webState) bool { return s.Open })
	return base, lecturer, p
}

// refusal posts an answer as JSON asks (the header's token) and returns
// the refusal's error text.
func (p *phoneClient) refusal(t *testing.T, form url.Values) string {
	t.Helper()
	req, _ := http.NewRequest("POST", p.base+"/answer", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-CSRF-Token", p.csrf)
	res, err := p.c.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	var body struct{ Error string }
	require.NoError(t, json.NewDecoder(res.Body).Decode(&body))
	require.NotEmpty(t, body.Error, "a refusal (status %d)", res.StatusCode)
	return body.Error
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	require.NoError(t, err)
	return n
}
