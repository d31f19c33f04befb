package cli_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/classroom/config"
	"toolgate/cli"
)

// serve runs `toolgate serve` with a fake server that records what it was
// handed and says its notices, as the real one does first.
func serve(env map[string]string, args ...string) (got *cli.ServeOptions, stderr string, code int) {
	var out, errb bytes.Buffer
	e := cli.Env{
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return env[k] },
		Serve: func(o cli.ServeOptions) error {
			got = &o
			errb.WriteString(o.Notices)
			return nil
		},
	}
	code = cli.Run(append([]string{"serve"}, args...), e)
	return got, errb.String(), code
}

// Issue 11, item 12: an invalid setting, from a flag or the environment,
// is refused at start, naming the flag or the variable.
func TestServeRefusesInvalidSettings(t *testing.T) {
	t.Parallel()
	code := map[string]string{"TOOLGATE_CLASS_CODE": "tulip"}
	with := func(k, v string) map[string]string {
		m := map[string]string{k: v}
		for k, v := range code {
			m[k] = v
		}
		return m
	}
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{with("TOOLGATE_MAX_SESSIONS", "abc"), nil, `TOOLGATE_MAX_SESSIONS="abc": not a whole number`},
		{with("TOOLGATE_MAX_SESSIONS", "0"), nil, `TOOLGATE_MAX_SESSIONS=0: want from 1 to 100000`},
		{with("TOOLGATE_IDLE", "bogus"), nil, `TOOLGATE_IDLE="bogus": not a duration (like 30s, 10m or 1h)`},
		{with("TOOLGATE_IDLE", "-5s"), nil, `TOOLGATE_IDLE=-5s: want a positive duration`},
		{code, []string{"--idle", "-5s"}, `--idle -5s: want a positive duration`},
		{code, []string{"--idle", "0"}, `--idle 0s: want a positive duration`},
		{code, []string{"--max-sessions", "0"}, `--max-sessions 0: want from 1 to 100000`},
		{with("TOOLGATE_LOGIN_TIMEOUT", "0s"), nil, `TOOLGATE_LOGIN_TIMEOUT=0s: want a positive duration`},
		{with("TOOLGATE_MAX_WAITING", "-1"), nil, `TOOLGATE_MAX_WAITING=-1: want from 1 to 100000`},
		{with("TOOLGATE_MAX_WAITING_PER_ADDRESS", "lots"), nil, `TOOLGATE_MAX_WAITING_PER_ADDRESS="lots": not a whole number`},
		{with("TOOLGATE_LOGIN_FAILURES", "0"), nil, `TOOLGATE_LOGIN_FAILURES=0: want from 1 to 100000`},
		{with("TOOLGATE_MAX_PTY", "6000x6000"), nil, `TOOLGATE_MAX_PTY="6000x6000": want from 40x10`},
		{code, []string{"--max-pty", "wide"}, `invalid argument "wide" for "--max-pty" flag: want WIDTHxHEIGHT`},
		{code, []string{"--max-sessions-per-address", "0"}, `--max-sessions-per-address 0: want from 1 to 100000`},
	} {
		t.Run(strings.Join(append(keys(tc.env), tc.args...), " "), func(t *testing.T) {
			got, stderr, exit := serve(tc.env, tc.args...)
			assert.Equal(t, cli.ExitUsage, exit)
			assert.Contains(t, stderr, tc.want)
			assert.Nil(t, got, "the server never starts")
		})
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k, v := range m {
		if k != "TOOLGATE_CLASS_CODE" {
			out = append(out, k+"="+v)
		}
	}
	return out
}

func TestServeSettings(t *testing.T) {
	t.Parallel()
	got, stderr, exit := serve(map[string]string{"TOOLGATE_CLASS_CODE": "tulip", "TOOLGATE_MAX_SESSIONS": "60",
		"TOOLGATE_IDLE": "20m", "TOOLGATE_MAX_PTY": "300x100", "TOOLGATE_PRESENTER_CODE": "orchid"})
	require.Equal(t, 0, exit, stderr)
	assert.Equal(t, config.Config{Listen: "127.0.0.1:2323", MaxSessions: 60, Idle: 20 * time.Minute,
		LoginTimeout: 30 * time.Second, LoginFailures: 20,
		MaxPTY: config.Size{Width: 300, Height: 100}, ClassCode: "tulip", PresenterCode: "orchid"}, got.Config)
	assert.NotEmpty(t, got.Scenarios)
	assert.Contains(t, stderr, "WARNING: TOOLGATE_CLASS_CODE is weak (about 24 bits; want 40)")
	assert.NotContains(t, stderr, "tulip", "a code given is never printed")
	// The waiting limits not given are left at 0, which config derives
	// from MaxSessions (config.TestWaitingFollowsMaxSessions).

	// A flag wins over its variable, even an invalid one.
	got, stderr, exit = serve(map[string]string{"TOOLGATE_MAX_SESSIONS": "abc"}, "--open", "--max-sessions", "5", "--max-waiting", "7",
		"--presenter-code", "Correct-Horse-9-Battery")
	require.Equal(t, 0, exit, stderr)
	assert.Equal(t, [3]int{5, 7, 0}, [3]int{got.Config.MaxSessions, got.Config.MaxWaiting, got.Config.MaxWaitingPerAddress})
	assert.True(t, got.Config.Open)
	assert.Empty(t, stderr, "a strong code is not warned about")

	got, _, exit = serve(map[string]string{"TOOLGATE_MAX_SESSIONS_PER_ADDRESS": "3", "TOOLGATE_CLASS_CODE": "tulip"})
	require.Equal(t, 0, exit)
	assert.Equal(t, 3, got.Config.MaxSessionsPerAddress)
}

// Issue 24, item 5: without a code, strong ones are made and said at
// start; a code given is never printed.
func TestServeMakesCodes(t *testing.T) {
	t.Parallel()
	got, stderr, exit := serve(nil)
	require.Equal(t, 0, exit, stderr)
	words := `[a-z]{3,6}-[a-z]{3,6}-[a-z]{3,6}-[a-z]{3,6}`
	assert.Regexp(t, "^"+words+"$", got.Config.ClassCode)
	assert.Regexp(t, "^"+words+"$", got.Config.PresenterCode)
	assert.NotEqual(t, got.Config.ClassCode, got.Config.PresenterCode)
	assert.True(t, got.MadeClassCode && got.MadePresenterCode)
	assert.Contains(t, stderr, "toolgate: class code: "+got.Config.ClassCode+" (made for this lecture")
	assert.Contains(t, stderr, "toolgate: presenter code: "+got.Config.PresenterCode+" (made for this lecture: keep it to yourself)")

	// A room with keys or an open room gets no class code; a presenter
	// key, no presenter code.
	got, stderr, exit = serve(nil, "--open", "--presenter-key", "/dev/null")
	require.Equal(t, 0, exit, stderr)
	assert.Empty(t, got.Config.ClassCode+got.Config.PresenterCode)
	assert.Empty(t, stderr)
}

// A shared room's settings are checked at start like the others, and
// refused by the flag's or the variable's name (a secret's value is not
// printed).
func TestServeRoomSettings(t *testing.T) {
	t.Parallel()
	base := map[string]string{"TOOLGATE_CLASS_CODE": "tulip"}
	with := func(kv ...string) map[string]string {
		m := map[string]string{"TOOLGATE_CLASS_CODE": "tulip"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	const token = "0123456789abcdefXYZ"
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{base, []string{"--room", "lecture"}, "--room: only for a shared room"},
		{with("TOOLGATE_ROOM_TOKEN", token), nil, "TOOLGATE_ROOM_TOKEN: only for a shared room"},
		{base, []string{"--room-url", "nats://127.0.0.1:4222", "--room-token", token}, "a shared room needs a name"},
		{with("TOOLGATE_ROOM", "a.b"), []string{"--room-url", "nats://127.0.0.1:4222", "--room-token", token}, "TOOLGATE_ROOM=a.b: want letters, digits"},
		{base, []string{"--room", "lecture", "--room-url", "nats://127.0.0.1:4222"}, "needs one of --room-token and --room-nkey"},
		{with("TOOLGATE_ROOM_TOKEN", "short-secret"), []string{"--room", "lecture", "--room-url", "nats://127.0.0.1:4222"}, "TOOLGATE_ROOM_TOKEN: want at least 16 characters"},
		{with("TOOLGATE_ROOM_URL", "nats://10.1.2.3:4222", "TOOLGATE_ROOM_TOKEN", token), []string{"--room", "lecture"}, "TOOLGATE_ROOM_URL=nats://10.1.2.3:4222: off loopback, front-ends speak TLS"},
		{base, []string{"--room", "lecture", "--room-url", "http://x:1", "--room-token", token}, "--room-url http://x:1: want nats://HOST:PORT"},
		{base, []string{"--room", "lecture", "--room-url", "tls://10.1.2.3:4222", "--room-token", token, "--room-fingerprint", "abc"}, "--room-fingerprint abc: want SHA256:"},
		{base, []string{"--room", "lecture", "--room-listen", "0.0.0.0", "--room-token", token}, "--room-listen 0.0.0.0: want HOST:PORT"},
		{base, []string{"--room", "lecture", "--room-listen", ":4222", "--room-url", "nats://127.0.0.1:4222", "--room-token", token}, "give one"},
	} {
		t.Run(strings.Join(append(keys(tc.env), tc.args...), " "), func(t *testing.T) {
			got, stderr, exit := serve(tc.env, tc.args...)
			assert.Equal(t, cli.ExitUsage, exit)
			assert.Contains(t, stderr, tc.want)
			assert.NotContains(t, stderr, "short-secret", "a secret is never printed")
			assert.Nil(t, got, "the server never starts")
		})
	}
	got, stderr, exit := serve(with("TOOLGATE_ROOM_TOKEN", token, "TOOLGATE_ROOM", "lecture"), "--room-url", "tls://10.1.2.3:4222",
		"--room-fingerprint", "SHA256:"+strings.Repeat("A", 43))
	require.Equal(t, 0, exit, stderr)
	assert.Equal(t, [4]string{"tls://10.1.2.3:4222", "lecture", token, "SHA256:" + strings.Repeat("A", 43)},
		[4]string{got.Config.Room.URL, got.Config.Room.Name, got.Config.Room.Token, got.Config.Room.Fingerprint})
}

// The phones' page's flags map onto config.Web; what Validate refuses is
// said by the flag or variable that set it.
func TestServeWebFlags(t *testing.T) {
	base := map[string]string{"TOOLGATE_CLASS_CODE": "amber-otter-violet-maple", "TOOLGATE_PRESENTER_CODE": "bold-cedar-lunar-quartz"}
	with := func(kv ...string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{base, []string{"--web-url", "http://10.0.0.5:8080"}, "--web-url: only with the phones' page: give --web HOST:PORT too"},
		{base, []string{"--web-tls"}, "--web-tls: only with the phones' page"},
		{base, []string{"--web", "8080"}, "--web 8080: want HOST:PORT"},
		{base, []string{"--web", ":8080", "--web-url", "ftp://x"}, "--web-url ftp://x: want http://HOST[:PORT]"},
		{with("TOOLGATE_WEB", ":8080"), []string{"--web-max-conns", "0"}, "--web-max-conns 0: want from 1 to 100000"},
		{with("TOOLGATE_WEB", ":8080", "TOOLGATE_WEB_MAX_CONNS_PER_ADDRESS", "-2"), nil, "TOOLGATE_WEB_MAX_CONNS_PER_ADDRESS=-2: want from 1 to 100000"},
	} {
		t.Run(strings.Join(append(keys(tc.env), tc.args...), " "), func(t *testing.T) {
			got, stderr, exit := serve(tc.env, tc.args...)
			assert.Equal(t, cli.ExitUsage, exit)
			assert.Contains(t, stderr, tc.want)
			assert.Nil(t, got, "the server never starts")
		})
	}
	got, stderr, exit := serve(with("TOOLGATE_WEB_TLS", "true"), "--web", "0.0.0.0:8443", "--web-url", "https://hall.example.edu:8443", "--web-max-conns-per-address", "500")
	require.Equal(t, 0, exit, stderr)
	assert.Equal(t, config.Web{Listen: "0.0.0.0:8443", URL: "https://hall.example.edu:8443", TLS: true, MaxConnsPerAddress: 500}, got.Config.Web)
}

// serve --lang is the sessions' language when their client sends none;
// not given, it is English whatever the server's own LANG (a lecture's
// students are not the server's locale).
func TestServeLang(t *testing.T) {
	t.Parallel()
	got, stderr, exit := serve(map[string]string{"LANG": "zh_CN.UTF-8"}, "--open", "--presenter-code", "Correct-Horse-9-Battery")
	require.Equal(t, 0, exit, stderr)
	assert.Equal(t, assess.English, got.Lang)
	got, stderr, exit = serve(nil, "--open", "--presenter-code", "Correct-Horse-9-Battery", "--lang", "zh")
	require.Equal(t, 0, exit, stderr)
	assert.Equal(t, assess.Chinese, got.Lang)
	_, stderr, exit = serve(nil, "--open", "--lang", "fr")
	assert.NotEqual(t, 0, exit)
	assert.Contains(t, stderr, "--lang")
}
