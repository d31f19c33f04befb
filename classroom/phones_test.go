package classroom

import (
	"fmt"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/classroom/config"
	"toolgate/classroom/web"
	"toolgate/qrtext"
)

// TestLectureWithPhones: a lecture on loopback, 3 SSH students and 50
// phones in one room: the presenter's count is all of them, frozen at
// the reveal; the reveal reaches every phone, with the verdict, what
// decided and what it does NOT prove; the notes screen says how many
// answered each way.
func TestLectureWithPhones(t *testing.T) {
	const nPhones = 50
	srv, addr, base, _ := startWeb(t, config.Config{ClassCode: "tulip", PresenterCode: "orchid", NotesCode: "fern", MaxSessions: 100}, Lecture{})
	lecturer := connect(t, addr, "orchid")
	lecturer.waitFor(t, "You lead the room")
	notes := connect(t, addr, "fern")
	var students []*session
	for range 3 {
		students = append(students, connect(t, addr, "tulip"))
	}
	for _, s := range students {
		s.waitFor(t, "Scenarios")
	}
	phones := make([]*phoneClient, nPhones)
	for i := range phones {
		p := newPhone(base)
		code := "tulip"
		if i%2 == 0 {
			code = srv.Web().Token() // the QR link's token
		}
		status, err := p.join(code)
		require.NoError(t, err)
		require.Equal(t, 303, status)
		require.NoError(t, p.follow())
		t.Cleanup(p.stop)
		phones[i] = p
	}
	waitUntil(t, "every phone is in the room", func() bool { return srv.Room().Stats().Students == 3+nPhones })

	require.NoError(t, lecturer.send("4"))
	require.NoError(t, lecturer.send("o"))
	for _, p := range phones {
		p.sees(t, "the question on every phone", func(s web.State) bool { return s.Open && s.Question != nil })
	}
	q := phones[0].state().Question
	assert.Contains(t, q.Prompt, "Which rule fires?")
	assert.NotEmpty(t, q.Choices)
	assert.Empty(t, phones[0].state().Title, "the title would answer the question")
	for _, s := range students {
		s.waitFor(t, "Predict first")
		require.NoError(t, s.send("4"))
		s.waitFor(t, "Wait for the reveal")
	}
	for i, p := range phones {
		choice := 4
		if i%5 == 0 {
			choice = 2
		}
		status, err := p.answer(choice)
		require.NoError(t, err)
		require.Equal(t, 204, status)
	}
	total := 3 + nPhones
	lecturer.waitFor(t, fmt.Sprintf("answered %d of %d", total, total))
	notes.waitFor(t, fmt.Sprintf("3 answered over SSH, %d by phone", nPhones))
	require.NoError(t, lecturer.send("v"))
	lecturer.waitFor(t, fmt.Sprintf("rule 2: %d", nPhones/5))
	for i, p := range phones {
		p.sees(t, "the reveal on every phone", func(s web.State) bool { return s.Revealed && s.Reveal != nil })
		r := p.state().Reveal
		assert.NotEmpty(t, r.Headline)
		assert.NotEmpty(t, r.Decided)
		assert.Len(t, r.NotProve, 2, "both lines of what it does NOT prove")
		want := 4
		if i%5 == 0 {
			want = 2
		}
		assert.Equal(t, want, p.state().Yours, "each phone's own answer, kept")
	}
	// Too late: the count is frozen at the reveal.
	status, err := phones[1].answer(3)
	require.NoError(t, err)
	assert.Equal(t, 409, status)
	st := srv.Room().Stats()
	assert.Equal(t, [3]int{total, nPhones, total}, [3]int{st.Answered, st.Phone, st.Students})
}

// readQR finds the QR code drawn on a screen (its half blocks, whole
// lines of them) and reads it back into a matrix of rows rows; an error
// while the code is not all on the screen yet.
func readQR(screen string, rows int) ([][]bool, error) {
	var block []string
	col := -1
	for _, line := range strings.Split(screen, "\n") {
		runes := []rune(line)
		start := -1
		for i, r := range runes {
			if strings.ContainsRune("█▀▄", r) {
				start = i
				break
			}
		}
		if start < 0 || (col >= 0 && start != col) {
			if len(block) > 0 {
				break
			}
			continue
		}
		col = start
		if start+rows > len(runes) {
			return nil, fmt.Errorf("a QR line shorter than the code: %q", line)
		}
		block = append(block, string(runes[start:start+rows]))
	}
	return qrtext.Read(strings.Join(block, "\n"), rows)
}

// seesQR waits for the whole QR code on a session's screen — a frame
// can arrive in parts, its last lines after the text beside it — and
// reads it back.
func seesQR(t *testing.T, s *session, rows int) [][]bool {
	t.Helper()
	var m [][]bool
	waitUntil(t, "a whole QR code on the screen", func() bool {
		var err error
		m, err = readQR(s.screen(), rows)
		return err == nil
	})
	return m
}

// The projector and the notes screen show the phones' link as a QR
// code: read back from the screen, it is the matrix of the link.
func TestProjectorAndNotesShowTheQRCode(t *testing.T) {
	srv, addr, _, _ := startWeb(t, config.Config{ClassCode: "tulip", PresenterCode: "orchid", NotesCode: "fern"}, Lecture{})
	want, err := qrtext.Matrix(srv.JoinURL())
	require.NoError(t, err)
	lecturer := connectWith(t, dialer{auth: []gossh.AuthMethod{answer("orchid")}}, addr, ptyOpts{width: 160, height: 60})
	lecturer.waitFor(t, "You lead the room")
	require.NoError(t, lecturer.send("4"))
	require.NoError(t, lecturer.send("f"))
	lecturer.waitFor(t, "Answer by phone")
	short, _, _ := strings.Cut(srv.JoinURL(), "?")
	lecturer.waitFor(t, short)
	assert.Equal(t, want, seesQR(t, lecturer, len(want)), "the projector's QR code")

	notes := connectWith(t, dialer{auth: []gossh.AuthMethod{answer("fern")}}, addr, ptyOpts{width: 120, height: 80})
	notes.waitFor(t, "Answer by phone")
	assert.Equal(t, want, seesQR(t, notes, len(want)), "the notes screen's QR code")
}
