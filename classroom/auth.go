package classroom

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"time"

	"toolgate/classroom/room"

	"toolgate/classroom/internal/outside"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// A login's role travels in the permissions of the authentication method
// that succeeded, never in state a callback leaves behind: the public-key
// callback also answers a client's unsigned queries ("would this key
// do?"), so a key it approves proves nothing until its signature is
// verified — and x/crypto/ssh then hands over the permissions that this
// very key's callback returned. Every other attempt starts from fresh
// permissions. soft-serve's CVE-2023-43809 was a key approved by a query
// and kept through a keyboard-interactive login.
const (
	extRole = "toolgate-role" // rolePresenter, roleNotes, or absent
	extKey  = "toolgate-key"  // the presenter key's SHA256 fingerprint
	extVia  = "toolgate-via"  // how the login was made, for the log

	rolePresenter = "presenter"
	roleNotes     = "notes"
)

type ctxKey string

const (
	keyState ctxKey = "toolgate.state"
	keyFails ctxKey = "toolgate.fails"
)

// Identity is a session's identity in the room: the public key its
// client offered at login — OpenSSH offers its keys before it asks for a
// code, accepted or not — as a short hash. It is what a student offers,
// not what a student proved: it keeps the sessions of one client to one
// vote, and a client that offers none votes once a session (the
// presenter sees how many did).
func Identity(key gossh.PublicKey) string {
	if key == nil {
		return ""
	}
	sum := sha256.Sum256(key.Marshal())
	return hex.EncodeToString(sum[:8])
}

func stateOf(ctx ssh.Context) *connState {
	st, _ := ctx.Value(keyState).(*connState)
	return st
}

func setExt(ctx ssh.Context, key, value string) {
	p := ctx.Permissions()
	if p.Extensions == nil {
		p.Extensions = map[string]string{}
	}
	p.Extensions[key] = value
}

// roleOf reads a session's role from its authenticated permissions; a
// presenter key must also be the key the session's signature was made
// with, and still be listed.
func (s *Server) roleOf(sess ssh.Session) (role room.Role, via string) {
	ext := sess.Permissions().Extensions
	via = ext[extVia]
	switch ext[extRole] {
	case roleNotes:
		return room.Notes, via
	case rolePresenter:
	default:
		return room.Student, via
	}
	if fp, ok := ext[extKey]; ok {
		key := sess.PublicKey()
		if key == nil || gossh.FingerprintSHA256(key) != fp || s.presenterKeys == nil || !s.presenterKeys.has(key) {
			return room.Student, via
		}
	}
	return room.Presenter, via
}

// publicKey approves a listed key. Only a signature makes it a login, so
// the role goes into the permissions (see extRole).
func (s *Server) publicKey(ctx ssh.Context, key ssh.PublicKey) bool {
	if st := stateOf(ctx); st != nil {
		// Listed or not, the key the client offers is its identity in
		// the room (one vote, see Identity).
		st.offered(key)
	}
	if s.presenterKeys != nil && s.presenterKeys.has(key) {
		setExt(ctx, extRole, rolePresenter)
		setExt(ctx, extKey, gossh.FingerprintSHA256(key))
		setExt(ctx, extVia, "public key")
		return true
	}
	if s.authorizedKeys != nil && s.authorizedKeys.has(key) {
		setExt(ctx, extVia, "public key")
		return true
	}
	// Not a failure yet: the client may go on to a code.
	return false
}

func (s *Server) password(ctx ssh.Context, password string) bool {
	return s.loggedIn(ctx, s.checkCode(ctx, password, "password"))
}

// loggedIn tells the gate a code let the connection in (ok): it keeps its
// place whatever comes (see gate). A key approved by the public-key
// callback proves nothing yet (see extRole): its connection is counted
// in when it opens a channel.
func (s *Server) loggedIn(ctx ssh.Context, ok bool) bool {
	if st := stateOf(ctx); ok && st != nil && st.conn != nil {
		st.conn.progressed(loggedIn)
	}
	return ok
}

// keyboard always asks: whatever the flags, a lecturer at a stock ssh
// client gets a prompt to type the presenter code at.
func (s *Server) keyboard(ctx ssh.Context, challenge gossh.KeyboardInteractiveChallenge) bool {
	if s.cfg.Open && s.cfg.PresenterCode == "" && s.cfg.NotesCode == "" {
		// Nothing to ask: anyone is a student.
		setExt(ctx, extVia, "keyboard-interactive")
		return s.loggedIn(ctx, true)
	}
	answers, err := challenge("", "Welcome to toolgate. 欢迎使用 toolgate。", []string{s.prompt()}, []bool{false})
	if err != nil || len(answers) != 1 {
		return false
	}
	return s.loggedIn(ctx, s.checkCode(ctx, answers[0], "keyboard-interactive"))
}

// prompt is what keyboard-interactive asks for, in both languages: the
// client's locale arrives only after the login.
func (s *Server) prompt() string {
	switch {
	case s.cfg.Open && s.cfg.NotesCode != "":
		return "Presenter or notes code (students: just press Enter) / 主讲或讲稿口令（学生直接按回车）: "
	case s.cfg.Open:
		return "Presenter code (students: just press Enter) / 主讲口令（学生直接按回车）: "
	case s.cfg.ClassCode != "":
		return "Class code / 课堂口令: "
	default:
		return "Presenter code / 主讲口令: "
	}
}

// codeDigest is what a code is compared by: every code, whatever its
// length, is compared as 32 bytes, so the time taken says nothing about
// how much of a guess was right, nor how long the code is.
func codeDigest(code string) [sha256.Size]byte { return sha256.Sum256([]byte(code)) }

// codeMatches compares in constant time.
func codeMatches(given [sha256.Size]byte, want string) bool {
	w := codeDigest(want)
	return subtle.ConstantTimeCompare(given[:], w[:])&subtle.ConstantTimeEq(int32(min(len(want), 1)), 1) == 1
}

// checkCode admits a code: the presenter's leads, the class code (or, in
// an open room, no code at all) admits a student. Every code is checked,
// against every role's, and a right one is let in at once: nothing anyone
// else sent from the same address (a hall behind one NAT) refuses it. A
// wrong code is answered late: after a delay that grows with each failure
// on the connection (1 s to 4 s), and after its turn among the wrong
// codes of its address and of the server (see penalties); meanwhile its
// connection is the first to give its place up (see gate).
func (s *Server) checkCode(ctx ssh.Context, code, method string) bool {
	source := outside.Source(ctx.RemoteAddr())
	switch s.codeRole(code) {
	case rolePresenter:
		setExt(ctx, extRole, rolePresenter)
		setExt(ctx, extVia, method)
		return true
	case roleNotes:
		setExt(ctx, extRole, roleNotes)
		setExt(ctx, extVia, method)
		return true
	case roleStudent:
		setExt(ctx, extVia, method)
		return true
	}
	fails, _ := ctx.Value(keyFails).(int)
	fails++
	ctx.SetValue(keyFails, fails)
	if st := stateOf(ctx); st != nil && st.conn != nil {
		st.conn.failed()
	}
	s.wrongCode(ctx, source, "user "+outside.Quote(ctx.User())+" ("+method+")", fails)
	return false
}

// roleStudent is what codeRole says of the class code.
const roleStudent = "student"

// codeRole is the role a code admits, "" for none: every code is checked
// against every role's, in constant time.
func (s *Server) codeRole(code string) string {
	given := codeDigest(code)
	presenter := codeMatches(given, s.cfg.PresenterCode)
	notes := codeMatches(given, s.cfg.NotesCode)
	student := codeMatches(given, s.cfg.ClassCode) || (s.cfg.Open && code == "")
	switch {
	case presenter:
		return rolePresenter
	case notes:
		return roleNotes
	case student:
		return roleStudent
	}
	return ""
}

// wrongCode counts a wrong code, the fails-th of its connection, and
// holds the caller until its answer is due: after a delay that grows
// with the connection's failures (1 s to 4 s), and after its turn among
// the wrong codes of its address and of the server (see penalties), SSH's
// and the phones' alike; or until ctx ends. who says who tried, for the
// log (never the code).
func (s *Server) wrongCode(ctx context.Context, source, who string, fails int) {
	n := s.failures.Add(1)
	// A flood is a line every 10 s for an address.
	s.logEvery("auth failure "+source, 10*time.Second, "auth failure from %s %s; %d wrong codes in all (more from this address are logged at most every 10s)",
		source, who, n)
	wait, cancel := s.penalties.fail(source)
	wait = max(wait, min(time.Duration(fails), 4)*s.lec.failDelay)
	delay := time.NewTimer(wait)
	defer delay.Stop()
	select {
	case <-delay.C:
	case <-ctx.Done():
		cancel()
	}
}
