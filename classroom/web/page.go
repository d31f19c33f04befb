package web

import (
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"toolgate/assess"
	"toolgate/tui"
)

//go:embed static
var staticFiles embed.FS

var pageTemplate = template.Must(template.ParseFS(staticFiles, "static/page.html"))

func static(name, contentType string) http.HandlerFunc {
	body, err := staticFiles.ReadFile("static/" + name)
	if err != nil {
		panic(err) // embedded: present at build
	}
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Cache-Control", "max-age=300")
		_, _ = w.Write(body)
	}
}

// langOf is the page's language: the switch's (?lang=), else the
// browser's first choice of English and Chinese.
func langOf(r *http.Request) assess.Lang {
	switch r.URL.Query().Get("lang") {
	case "zh":
		return assess.Chinese
	case "en":
		return assess.English
	}
	if c, err := r.Cookie("lang"); err == nil {
		if c.Value == "zh" {
			return assess.Chinese
		}
		if c.Value == "en" {
			return assess.English
		}
	}
	accept := r.Header.Get("Accept-Language")
	if len(accept) > 256 {
		accept = accept[:256]
	}
	for _, part := range strings.Split(accept, ",") {
		tag := strings.ToLower(strings.TrimSpace(strings.SplitN(part, ";", 2)[0]))
		switch {
		case strings.HasPrefix(tag, "zh"):
			return assess.Chinese
		case strings.HasPrefix(tag, "en"):
			return assess.English
		}
	}
	return assess.English
}

func code(l assess.Lang) string { return [...]string{"en", "zh"}[l] }

// State is the room as a phone may see it: never the presenter's
// controls, never the answers before the reveal, never anything another
// student sent. It is each SSE event's JSON.
type State struct {
	Lang     string `json:"lang"`
	Open     bool   `json:"open"`
	Revealed bool   `json:"revealed"`
	Round    int    `json:"round"`
	// Status says where the room is, in words.
	Status string `json:"status"`
	// Scene is the live scenario's situation, without its conclusion (its
	// title, which may answer the question, only after the reveal).
	Number int    `json:"number,omitempty"`
	Title  string `json:"title,omitempty"`
	Scene  string `json:"scene,omitempty"`
	// Question is open while the room is asked.
	Question *Question `json:"question,omitempty"`
	// Yours is this phone's answer of the round (0: none).
	Yours     int     `json:"yours,omitempty"`
	YoursCode string  `json:"yoursCode,omitempty"`
	Reveal    *Reveal `json:"reveal,omitempty"`
	// Ended is the room's last word, when it has said it.
	Ended string `json:"ended,omitempty"`
}

// Question is the room's question.
type Question struct {
	Prompt  string   `json:"prompt"`
	Choices []Choice `json:"choices"`
}

// Choice is one answer; Codes the codes of a rule that has several.
type Choice struct {
	Step  int    `json:"step"`
	Label string `json:"label"`
	Codes []Code `json:"codes,omitempty"`
}

// Code is a rule's code.
type Code struct {
	Code    string `json:"code"`
	Meaning string `json:"meaning"`
}

// Reveal is the reveal: the verdict (its tone in a word as well as a
// colour), what decided, what it does NOT prove, and this phone's mark.
type Reveal struct {
	Symbol   string `json:"symbol"`
	Headline string `json:"headline"`
	Word     string `json:"word"`
	Tone     string `json:"tone"`
	Decided  string `json:"decided"`
	NotProve []Line `json:"notProve"`
	Mark     string `json:"mark,omitempty"`
	MarkText string `json:"markText,omitempty"`
}

// Line is a labelled line.
type Line struct {
	Label string `json:"label"`
	Text  string `json:"text"`
}

var tones = map[int]string{1: "good", 2: "bad", 3: "hold"}

// stateOf is what a phone sees of the room's word msg, with its own
// answer (of round).
func (s *Server) stateOf(msg tui.RoomMsg, round, step int, codeSaid string, l assess.Lang) State {
	st := State{Lang: code(l), Open: msg.Open, Revealed: msg.Revealed, Round: msg.Round}
	if msg.Ending != tui.NoGoodbye {
		st.Ended = msg.Ending.Text(l)
		st.Open, st.Revealed = false, false
		return st
	}
	sc, live := s.byID[msg.Live]
	switch {
	case !live:
		st.Status = text(l, "waiting")
		return st
	case msg.Open:
		st.Status = fmt.Sprintf(text(l, "open"), msg.Round)
	case msg.Revealed:
		st.Status = fmt.Sprintf(text(l, "revealed"), msg.Round)
	default:
		st.Status = text(l, "closedStatus")
	}
	st.Number = sc.Number
	st.Scene = sc.Scene.In(l)
	if msg.Revealed {
		st.Title = sc.Title.In(l)
		if story := sc.Story.In(l); story != "" {
			st.Scene = story
		}
	}
	if round == msg.Round && (msg.Open || msg.Revealed) {
		st.Yours, st.YoursCode = step, codeSaid
	}
	if msg.Open {
		p := tui.PollOf(sc, l)
		q := &Question{Prompt: p.Prompt}
		for _, c := range p.Choices {
			ch := Choice{Step: c.Step, Label: c.Label}
			for _, k := range c.Codes {
				ch.Codes = append(ch.Codes, Code{Code: k.Code, Meaning: k.Meaning})
			}
			q.Choices = append(q.Choices, ch)
		}
		st.Question = q
	}
	if msg.Revealed && msg.Round > 0 {
		r := tui.RevealOf(sc, l)
		rv := &Reveal{Symbol: r.Symbol, Headline: r.Headline, Word: r.Word, Tone: tones[int(r.Tone)], Decided: r.Decided}
		for _, line := range r.NotProve {
			rv.NotProve = append(rv.NotProve, Line{Label: line.Label, Text: line.Text})
		}
		if st.Yours > 0 {
			rv.Mark, rv.MarkText = r.Mark(st.Yours, st.YoursCode, l)
		}
		st.Reveal = rv
	}
	return st
}

// page is the page: the join form without a cookie, the room with one.
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	l := langOf(r)
	if v := r.URL.Query().Get("lang"); v == "en" || v == "zh" {
		http.SetCookie(w, &http.Cookie{Name: "lang", Value: v, Path: "/", HttpOnly: true, Secure: s.o.Secure, SameSite: http.SameSiteStrictMode})
	}
	id := s.identity(r)
	var ph *phone
	if id != "" {
		ph, _ = s.phones.get(id, true)
	}
	data := pageData{Lang: code(l), T: texts[l], Other: code(1 - l), OtherName: texts[1-l]["langName"]}
	if ph == nil {
		// The QR link's token fills the form; the script sends it.
		if t := r.URL.Query().Get("t"); t != "" && len(t) <= 64 && t == s.token {
			data.Token = t
		}
		data.Join = true
		s.render(w, http.StatusOK, data)
		return
	}
	msg, _, round, step, c := ph.state()
	st := s.stateOf(msg, round, step, c, l)
	data.CSRF, data.State = s.csrf(id), st
	s.render(w, http.StatusOK, data)
}

type pageData struct {
	Lang, Other, OtherName string
	T                      map[string]string
	Join                   bool
	Token                  string
	// Error is one of our own messages, never anything a client sent.
	Error string
	CSRF  string
	State State
}

func (s *Server) render(w http.ResponseWriter, status int, d pageData) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = pageTemplate.Execute(w, d)
}

// fail answers a refused join or answer: the page with one of our own
// messages, or the message alone to the script.
//
// args fill the message's numbers: what the room offers, never what the
// client sent.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, l assess.Lang, msg string, args ...any) {
	said := text(l, msg)
	if len(args) > 0 {
		said = fmt.Sprintf(said, args...)
	}
	if r.Header.Get("X-CSRF-Token") != "" || strings.Contains(r.Header.Get("Accept"), "application/json") {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": said})
		return
	}
	s.render(w, status, pageData{Lang: code(l), T: texts[l], Other: code(1 - l), OtherName: texts[1-l]["langName"], Join: s.identity(r) == "", Error: said})
}

// answer takes a phone's answer: a choice of the open question (and the
// code it picked, which only its own mark reads).
func (s *Server) answer(w http.ResponseWriter, r *http.Request) {
	l := langOf(r)
	id := s.identity(r)
	if id == "" {
		s.fail(w, r, http.StatusUnauthorized, l, msgJoinFirst)
		return
	}
	if !sameOrigin(r) || !form(w, r) {
		s.fail(w, r, http.StatusForbidden, l, msgForbidden)
		return
	}
	token := r.Header.Get("X-CSRF-Token")
	if token == "" {
		token = r.PostForm.Get("csrf")
	}
	if len(token) > 64 || !hmacEqual(token, s.csrf(id)) {
		s.fail(w, r, http.StatusForbidden, l, msgForbidden)
		return
	}
	ph, ok := s.phones.get(id, true)
	if !ok {
		s.fail(w, r, http.StatusServiceUnavailable, l, msgFull)
		return
	}
	msg, _, _, _, _ := ph.state()
	sc, live := s.byID[msg.Live]
	if !msg.Open || !live {
		s.fail(w, r, http.StatusConflict, l, msgClosed)
		return
	}
	// round is optional (the routes' contract names choice alone): sent,
	// it makes the answer one for the question the phone was shown, so
	// that a tap on the buttons of a question closed since (the page
	// reconnecting while the lecturer opened the next) is not counted
	// for the next one. The page always sends it.
	if said := r.PostForm.Get("round"); said != "" {
		round, err := strconv.Atoi(said)
		if err != nil {
			s.fail(w, r, http.StatusBadRequest, l, msgBadRound, msg.Round)
			return
		}
		if round != msg.Round {
			s.fail(w, r, http.StatusConflict, l, msgOtherRound, msg.Round)
			return
		}
	}
	p := tui.PollOf(sc, l)
	choice, err := strconv.Atoi(r.PostForm.Get("choice"))
	if err != nil || choice < 1 || choice > len(p.Choices) {
		s.fail(w, r, http.StatusBadRequest, l, msgBadChoice, len(p.Choices))
		return
	}
	codeSaid := r.PostForm.Get("code")
	if codes := p.Choices[choice-1].Codes; codeSaid != "" && !slices.ContainsFunc(codes, func(k tui.PollCode) bool { return k.Code == codeSaid }) {
		// A code the choice does not have (only a rule with several has
		// codes to pick from).
		if len(codes) == 0 {
			s.fail(w, r, http.StatusBadRequest, l, msgNoCodes, choice)
		} else {
			s.fail(w, r, http.StatusBadRequest, l, msgBadCode, choice, choice-1)
		}
		return
	}
	ph.m.Answer(choice)
	ph.said(msg.Round, choice, codeSaid)
	if r.Header.Get("X-CSRF-Token") != "" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func hmacEqual(a, b string) bool {
	return len(a) == len(b) && subtleEq(a, b)
}

// events streams the room to a phone: its state now, then at every
// change, with a comment every 20 s that keeps NATs and proxies open.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	l := langOf(r)
	id := s.identity(r)
	if id == "" {
		s.fail(w, r, http.StatusUnauthorized, l, msgJoinFirst)
		return
	}
	if r.Method == http.MethodHead {
		// The script asks whether its cookie still holds.
		if _, ok := s.phones.get(id, true); !ok {
			s.fail(w, r, http.StatusServiceUnavailable, l, msgFull)
			return
		}
		w.WriteHeader(http.StatusOK)
		return
	}
	ph, ok := s.phones.open(id)
	if !ok {
		s.fail(w, r, http.StatusServiceUnavailable, l, msgFull)
		return
	}
	defer ph.watch(-1)
	if c := connOf(r.Context()); c != nil {
		// A phone's second stream gives its place up when the caps are
		// reached (see capListener).
		c.carries(id)
		defer c.carries("")
	}
	rc := http.NewResponseController(w)
	// A stream is read no further: the request's read deadline would
	// otherwise end it (the server takes a read timeout for a closed
	// connection). A closed connection still ends it.
	_ = rc.SetReadDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	beat := time.NewTicker(s.o.Limits.Heartbeat)
	defer beat.Stop()
	var last []byte
	for {
		msg, changed, round, step, c := ph.state()
		st := s.stateOf(msg, round, step, c, l)
		body, _ := json.Marshal(st)
		_ = rc.SetWriteDeadline(time.Now().Add(writeDeadline))
		if string(body) != string(last) {
			if _, err := fmt.Fprintf(w, "retry: 2000\ndata: %s\n\n", body); err != nil {
				return
			}
			if rc.Flush() != nil {
				return
			}
			last = body
		}
		if st.Ended != "" {
			return
		}
		select {
		case <-changed:
		case <-beat.C:
			_ = rc.SetWriteDeadline(time.Now().Add(writeDeadline))
			if _, err := fmt.Fprint(w, ": beat\n\n"); err != nil || rc.Flush() != nil {
				return
			}
		case <-r.Context().Done():
			return
		case <-s.phones.stop:
			return
		}
	}
}
