package web

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/classroom/room"
	"toolgate/scenarios"
	"toolgate/tui"
)

func newTestServer(t *testing.T) *Server {
	s := New(Options{Room: room.NewLocal(), Scenarios: scenarios.Builtin()})
	t.Cleanup(s.phones.close)
	return s
}

// What a phone is told of the room is never the counts, the presenter's
// numbers or anything another student sent; open and revealed are always
// there.
func TestStateShowsAPhoneItsOwnOnly(t *testing.T) {
	s := newTestServer(t)
	live := scenarios.Builtin()[3].ID
	msg := tui.RoomMsg{Live: live, Round: 2, Open: true, Counts: map[int]int{4: 9}, Answered: 9, Students: 12, Sessions: 14, Peak: 20, Phone: 5}
	for _, m := range []tui.RoomMsg{msg, {Live: live, Round: 2, Revealed: true, Counts: map[int]int{4: 9}, Answered: 9}, {}} {
		body, err := json.Marshal(s.stateOf(m, 2, 4, "", assess.English))
		require.NoError(t, err)
		var fields map[string]any
		require.NoError(t, json.Unmarshal(body, &fields))
		assert.Contains(t, fields, "open")
		assert.Contains(t, fields, "revealed")
		for _, no := range []string{"counts", "answered", "students", "sessions", "peak", "phone"} {
			assert.NotContains(t, strings.ToLower(string(body)), `"`+no+`"`)
		}
	}
	st := s.stateOf(msg, 2, 4, "", assess.English)
	assert.Empty(t, st.Title, "the title would answer the question")
	assert.Equal(t, 4, st.Yours)
	assert.Equal(t, 0, s.stateOf(msg, 1, 4, "", assess.English).Yours, "an answer of another round is not this one's")
}

func TestLanguage(t *testing.T) {
	for _, tc := range []struct {
		url, accept string
		want        assess.Lang
	}{
		{"/", "zh-CN,zh;q=0.9,en;q=0.8", assess.Chinese},
		{"/", "en-GB,zh;q=0.5", assess.English},
		{"/", "fr-FR", assess.English},
		{"/?lang=en", "zh-CN", assess.English},
		{"/?lang=zh", "", assess.Chinese},
		{"/?lang=xx", strings.Repeat("x", 10000), assess.English},
	} {
		r := httptest.NewRequest("GET", tc.url, nil)
		r.Header.Set("Accept-Language", tc.accept)
		assert.Equal(t, tc.want, langOf(r), tc.url+" "+tc.accept[:min(len(tc.accept), 20)])
	}
}

// A cookie is the server's own, whole: another identity, another MAC,
// another lecture's key is nobody.
func TestCookieIsSigned(t *testing.T) {
	s, other := newTestServer(t), newTestServer(t)
	rec := httptest.NewRecorder()
	s.setCookie(rec, "0123456789abcdef")
	good := rec.Result().Cookies()[0]
	req := func(v string) *http.Request {
		r := httptest.NewRequest("GET", "/", nil)
		r.AddCookie(&http.Cookie{Name: cookieName, Value: v})
		return r
	}
	assert.Equal(t, "0123456789abcdef", s.identity(req(good.Value)))
	assert.Empty(t, other.identity(req(good.Value)), "another lecture's key")
	assert.Empty(t, s.identity(req("0123456789abcdee"+good.Value[16:])), "another identity")
	assert.Empty(t, s.identity(req(good.Value+"x")))
	assert.Empty(t, s.identity(req("x.y")))
	assert.NotEqual(t, s.csrf("0123456789abcdef"), s.csrf("0123456789abcdee"))
}

type codes struct{}

func (codes) Check(code string) Verdict {
	if code == "tulip" {
		return Student
	}
	return Wrong
}
func (codes) Penalize(context.Context, string, int) {}

// A stream outlives the read timeout and its heartbeats: it still
// carries the room's news after many of each (the server's read
// deadline once ended every stream after 10 s).
func TestStreamOutlivesTheTimeouts(t *testing.T) {
	r := room.NewLocal()
	s := New(Options{Room: r, Scenarios: scenarios.Builtin(), Codes: codes{},
		Limits: Limits{ReadTimeout: 50 * time.Millisecond, Heartbeat: 20 * time.Millisecond}})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = s.Serve(l, nil) }()
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	base := "http://" + l.Addr().String()

	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	res, err := c.PostForm(base+"/join", url.Values{"code": {"tulip"}})
	require.NoError(t, err)
	res.Body.Close()
	res, err = c.Get(base + "/events")
	require.NoError(t, err)
	defer res.Body.Close()
	lines := make(chan string, 100)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	// Ten heartbeats: five read timeouts.
	for beats := 0; beats < 10; {
		line, ok := <-lines
		require.True(t, ok, "the stream ended")
		if line == ": beat" {
			beats++
		}
	}
	lecturer := r.Join(room.Presenter, func(tui.RoomMsg) {})
	defer lecturer.Leave()
	lecturer.Go(scenarios.Builtin()[3].ID, 0)
	for line := range lines {
		if strings.Contains(line, `"number":4`) {
			return
		}
	}
	t.Fatal("the stream ended before the news")
}

// The page says the seed's term for what a verdict does not prove,
// 不能推导, as the trainer does: never 不能证明 beside it.
func TestChineseUsesTheSeedsTerm(t *testing.T) {
	for key, s := range texts[assess.Chinese] {
		assert.NotContains(t, s, "不能证明", key)
	}
	assert.Contains(t, text(assess.Chinese, "notProve"), "不能推导")
}

// The page's texts are a map a template and the script index by name:
// a missing key would be a silent "". Every text has both languages, and
// every name the Go code, the template and the script ask for is there.
func TestEveryTextAskedForIsThere(t *testing.T) {
	for key, en := range texts[assess.English] {
		assert.NotEmpty(t, en, key)
		assert.NotEmpty(t, texts[assess.Chinese][key], "%s has no Chinese text", key)
	}
	for key := range texts[assess.Chinese] {
		assert.Contains(t, texts[assess.English], key, "%s has no English text", key)
	}
	asked := map[string]*regexp.Regexp{
		"page.go":          regexp.MustCompile(`text\([a-zA-Z.]+, "([a-zA-Z]+)"\)`),
		"text.go":          regexp.MustCompile(`msg[A-Za-z]+ += "([a-zA-Z]+)"`),
		"static/page.html": regexp.MustCompile(`index \$?\.T "([a-zA-Z]+)"`),
	}
	for file, re := range asked {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		found := re.FindAllStringSubmatch(string(src), -1)
		assert.NotEmpty(t, found, "%s asks for no text: is the pattern still right?", file)
		for _, m := range found {
			assert.Contains(t, texts[assess.English], m[1], "%s asks for %q", file, m[1])
		}
	}
	// The script reads its texts from the page's data-t-* attributes.
	script, err := os.ReadFile("static/app.js")
	require.NoError(t, err)
	page, err := os.ReadFile("static/page.html")
	require.NoError(t, err)
	for _, m := range regexp.MustCompile(`\bt\("([a-z]+)"\)`).FindAllStringSubmatch(string(script), -1) {
		assert.Contains(t, string(page), "data-t-"+m[1]+"=", "app.js asks for %q", m[1])
	}
}
