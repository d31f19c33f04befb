package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
