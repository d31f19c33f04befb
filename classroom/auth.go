package classroom

import (
	"crypto/subtle"
	"time"

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

// Role is what a login may do in the room.
type Role int

// The roles: a student follows and answers; the presenter leads; the
// notes role follows the presenter on a second screen with the talking
// points (the lecturer's own laptop, say), and neither leads nor answers.
const (
	Student Role = iota
	Presenter
	Notes
)

func (r Role) String() string { return [...]string{"student", "presenter", "notes"}[r] }

type ctxKey string

const (
	keyState ctxKey = "toolgate.state"
	keyFails ctxKey = "toolgate.fails"
)

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
func (s *Server) roleOf(sess ssh.Session) (role Role, via string) {
	ext := sess.Permissions().Extensions
	via = ext[extVia]
	switch ext[extRole] {
	case roleNotes:
		return Notes, via
	case rolePresenter:
	default:
		return Student, via
	}
	if fp, ok := ext[extKey]; ok {
		key := sess.PublicKey()
		if key == nil || gossh.FingerprintSHA256(key) != fp || s.presenterKeys == nil || !s.presenterKeys.has(key) {
			return Student, via
		}
	}
	return Presenter, via
}

// publicKey approves a listed key. Only a signature makes it a login, so
// the role goes into the permissions (see extRole).
func (s *Server) publicKey(ctx ssh.Context, key ssh.PublicKey) bool {
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
	return s.checkCode(ctx, password, "password")
}

// keyboard always asks: whatever the flags, a lecturer at a stock ssh
// client gets a prompt to type the presenter code at.
func (s *Server) keyboard(ctx ssh.Context, challenge gossh.KeyboardInteractiveChallenge) bool {
	if s.cfg.Open && s.cfg.PresenterCode == "" && s.cfg.NotesCode == "" {
		// Nothing to ask: anyone is a student.
		setExt(ctx, extVia, "keyboard-interactive")
		return true
	}
	answers, err := challenge("", "Welcome to toolgate.", []string{s.prompt()}, []bool{false})
	if err != nil || len(answers) != 1 {
		return false
	}
	return s.checkCode(ctx, answers[0], "keyboard-interactive")
}

// prompt is what keyboard-interactive asks for.
func (s *Server) prompt() string {
	switch {
	case s.cfg.Open && s.cfg.NotesCode != "":
		return "Presenter or notes code (students: just press Enter): "
	case s.cfg.Open:
		return "Presenter code (students: just press Enter): "
	case s.cfg.ClassCode != "":
		return "Class code: "
	default:
		return "Presenter code: "
	}
}

// codeMatches compares in constant time, so the time taken says nothing
// about how much of a guess was right.
func codeMatches(given, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(given), []byte(want)) == 1
}

// checkCode admits a code: the presenter's leads, the class code (or, in
// an open room, no code at all) admits a student. A wrong code is a
// failure of its source address (see penalties) and is answered after a
// delay that grows with each failure on the connection.
func (s *Server) checkCode(ctx ssh.Context, code, method string) bool {
	source := sourceOf(ctx.RemoteAddr())
	if ok, wait := s.penalties.allow(source); !ok {
		s.unchecked.Add(1)
		s.logEvery("timed-out "+source, time.Minute, "login from %s refused unchecked: timed out for failed logins (%v more)", source, wait.Round(time.Second))
		return false
	}
	presenter := codeMatches(code, s.cfg.PresenterCode)
	notes := codeMatches(code, s.cfg.NotesCode)
	student := codeMatches(code, s.cfg.ClassCode) || (s.cfg.Open && code == "")
	switch {
	case presenter:
		setExt(ctx, extRole, rolePresenter)
		setExt(ctx, extVia, method)
		return true
	case notes:
		setExt(ctx, extRole, roleNotes)
		setExt(ctx, extVia, method)
		return true
	case student:
		setExt(ctx, extVia, method)
		return true
	}
	s.failures.Add(1)
	// Never log the code that was tried.
	s.Printf("auth failure from %s user %s (%s)", source, quote(ctx.User()), method)
	if began, lasts := s.penalties.fail(source); began {
		s.Printf("too many failed logins from %s: its logins are refused for %v", source, lasts.Round(time.Second))
	}
	fails, _ := ctx.Value(keyFails).(int)
	fails++
	ctx.SetValue(keyFails, fails)
	delay := time.NewTimer(min(time.Duration(fails), 4) * s.cfg.failDelay)
	defer delay.Stop()
	select {
	case <-delay.C:
	case <-ctx.Done():
	}
	return false
}
