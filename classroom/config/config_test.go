package config

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Codes made for a lecture are four words, 45.9 bits; a code a person
// chose is measured, and tulip is weak.
func TestCodes(t *testing.T) {
	a, b := NewCode(), NewCode()
	assert.Regexp(t, `^[a-z]{3,6}(-[a-z]{3,6}){3}$`, a)
	assert.NotEqual(t, a, b)
	assert.InDelta(t, 45.9, CodeBits(a), 0.1)
	assert.Less(t, CodeBits("tulip"), float64(StrongBits))
	assert.Less(t, CodeBits("amber-otter"), float64(StrongBits))
	assert.GreaterOrEqual(t, CodeBits("Tr0ub4dor&3-horse-battery"), float64(StrongBits))
}

// Default is a lecture that only lacks its codes; MakeCodes makes them
// where nobody could log in or lead, and not otherwise.
func TestDefaultAndMakeCodes(t *testing.T) {
	c := Default()
	var bad *Error
	require.ErrorAs(t, c.Validate(), &bad)
	assert.Equal(t, NoLogin, bad.Problem)
	class, presenter := c.MakeCodes()
	assert.True(t, class && presenter)
	require.NoError(t, c.Validate())
	assert.NotEqual(t, c.ClassCode, c.PresenterCode)

	open := Default()
	open.Open, open.PresenterKeys = true, "/dev/null"
	class, presenter = open.MakeCodes()
	assert.False(t, class || presenter)
	assert.Empty(t, open.ClassCode+open.PresenterCode)
	assert.Equal(t, Default().WithDefaults(), Default(), "the defaults are whole")
}

// The waiting limits left at zero follow MaxSessions: twice it in all,
// and as many for one address (a class behind one NAT); one given stays.
func TestWaitingFollowsMaxSessions(t *testing.T) {
	for _, tc := range []struct {
		in                 Config
		sessions, all, per int
	}{
		{Config{}, DefaultMaxSessions, 2 * DefaultMaxSessions, 2 * DefaultMaxSessions},
		{Config{MaxSessions: 60}, 60, 120, 120},
		{Config{MaxSessions: 5, MaxWaiting: 7}, 5, 7, 7},
		{Config{MaxSessions: 5, MaxWaitingPerAddress: 2}, 5, 10, 2},
	} {
		got := tc.in.WithDefaults()
		all, per := got.Waiting()
		assert.Equal(t, [3]int{tc.sessions, tc.all, tc.per}, [3]int{got.MaxSessions, all, per}, "%+v", tc.in)
	}
}

// Validate names what it refuses by the field's path in Config, never by
// a command line's flag; a row for each problem.
func TestValidate(t *testing.T) {
	const token = "0123456789abcdefXYZ"
	pin := "SHA256:" + strings.Repeat("A", 43)
	shared := func(r Room) func(*Config) { return func(c *Config) { c.Room = r } }
	for _, tc := range []struct {
		name    string
		set     func(*Config)
		problem Problem
		fields  []string
	}{
		{"no sessions", func(c *Config) { c.MaxSessions = 0 }, OutOfRange, []string{"MaxSessions"}},
		{"too many sessions", func(c *Config) { c.MaxSessions = MaxLimit + 1 }, OutOfRange, []string{"MaxSessions"}},
		{"no login failures", func(c *Config) { c.LoginFailures = 0 }, OutOfRange, []string{"LoginFailures"}},
		{"negative waiting", func(c *Config) { c.MaxWaiting = -1 }, OutOfRange, []string{"MaxWaiting"}},
		{"negative waiting per address", func(c *Config) { c.MaxWaitingPerAddress = -1 }, OutOfRange, []string{"MaxWaitingPerAddress"}},
		{"a timer over a day", func(c *Config) { c.Timer = 25 * time.Hour }, TimerOutOfRange, []string{"Timer"}},
		{"no idle", func(c *Config) { c.Idle = 0 }, NotPositive, []string{"Idle"}},
		{"negative login timeout", func(c *Config) { c.LoginTimeout = -time.Second }, NotPositive, []string{"LoginTimeout"}},
		{"sessions per address", func(c *Config) { c.MaxSessionsPerAddress = -2 }, OutOfRange, []string{"MaxSessionsPerAddress"}},
		{"a tiny terminal", func(c *Config) { c.MaxPTY = Size{Width: 39, Height: 10} }, PTYOutOfRange, []string{"MaxPTY"}},
		{"a huge terminal", func(c *Config) { c.MaxPTY = Size{Width: 4096, Height: 4096} }, PTYOutOfRange, []string{"MaxPTY"}},
		{"no way in", func(c *Config) { c.ClassCode = "" }, NoLogin, []string{"ClassCode", "AuthorizedKeys", "Open"}},
		{"one code, two roles", func(c *Config) { c.NotesCode = c.ClassCode }, SameCode, []string{"ClassCode", "NotesCode"}},
		{"a name without a room", shared(Room{Name: "lecture"}), NotShared, []string{"Room.Name"}},
		{"a token without a room", shared(Room{Token: token}), NotShared, []string{"Room.Token"}},
		{"join and host", shared(Room{URL: "nats://127.0.0.1:4222", Listen: ":4222", Name: "x", Token: token}), JoinAndHost, []string{"Room.URL", "Room.Listen"}},
		{"no name", shared(Room{URL: "nats://127.0.0.1:4222", Token: token}), NoRoomName, []string{"Room.Name"}},
		{"a name with a dot", shared(Room{URL: "nats://127.0.0.1:4222", Name: "a.b", Token: token}), BadRoomName, []string{"Room.Name"}},
		{"no credential", shared(Room{URL: "nats://127.0.0.1:4222", Name: "x"}), NoCredential, []string{"Room.Token", "Room.NKeyFile"}},
		{"two credentials", shared(Room{URL: "nats://127.0.0.1:4222", Name: "x", Token: token, NKeyFile: "k"}), NoCredential, []string{"Room.Token", "Room.NKeyFile"}},
		{"a short token", shared(Room{URL: "nats://127.0.0.1:4222", Name: "x", Token: "short"}), ShortToken, []string{"Room.Token"}},
		{"a bad pin", shared(Room{URL: "tls://10.0.0.5:4222", Name: "x", Token: token, Fingerprint: "abc"}), BadFingerprint, []string{"Room.Fingerprint"}},
		{"a pin and an authority", shared(Room{URL: "tls://10.0.0.5:4222", Name: "x", Token: token, Fingerprint: pin, CAFile: "ca"}), PinAndCA, []string{"Room.Fingerprint", "Room.CAFile"}},
		{"not NATS", shared(Room{URL: "http://x:1", Name: "x", Token: token}), BadURL, []string{"Room.URL"}},
		{"credentials in the URL", shared(Room{URL: "nats://user:pw@127.0.0.1:4222", Name: "x", Token: token}), BadURL, []string{"Room.URL"}},
		{"plain text off loopback", shared(Room{URL: "nats://10.1.2.3:4222", Name: "x", Token: token}), PlainOffLoopback, []string{"Room.URL"}},
		{"no port to host on", shared(Room{Listen: "0.0.0.0", Name: "x", Token: token}), BadListen, []string{"Room.Listen"}},
		{"a host that pins", shared(Room{Listen: "0.0.0.0:4222", Name: "x", Token: token, Fingerprint: pin}), HostPins, []string{"Room.Fingerprint"}},
		{"a negative beat", shared(Room{URL: "nats://127.0.0.1:4222", Name: "x", Token: token, Beat: -time.Second}), NotPositive, []string{"Room.Beat"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Default()
			c.ClassCode = "tulip"
			tc.set(&c)
			var bad *Error
			require.ErrorAs(t, c.Validate(), &bad)
			assert.Equal(t, tc.problem, bad.Problem, bad.Error())
			assert.Equal(t, tc.fields, bad.Fields)
			assert.NotContains(t, bad.Error(), "--", "the library names no flag")
			assert.NotContains(t, bad.Error(), token, "nor a secret")
		})
	}
	for _, ok := range []Room{
		{},
		{URL: "nats://127.0.0.1:4222", Name: "lecture", Token: token},
		{URL: "nats://10.1.2.3:4222", Name: "lecture", Token: token, Fingerprint: pin},
		{URL: "tls://10.1.2.3:4222", Name: "lecture", NKeyFile: "room.nk"},
		{Listen: "0.0.0.0:4222", Name: "lecture", Token: token},
	} {
		c := Default()
		c.ClassCode, c.Room = "tulip", ok
		assert.NoError(t, c.Validate(), "%+v", ok)
	}
}

// Every problem has its own words.
func TestProblemsAreNamed(t *testing.T) {
	for p := OutOfRange; p <= HostPins; p++ {
		assert.NotContains(t, p.String(), "problem", "%d", p)
		assert.NotEqual(t, "X: "+p.String(), (&Error{Problem: p, Fields: []string{"X"}}).Error(), "%v has words of its own", p)
	}
}
