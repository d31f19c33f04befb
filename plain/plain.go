// Package plain is toolgate's accessible line mode: the same walks as the
// trainer, told as plain sentences, one step for each line typed, with no
// alternate screen, no box drawing and no cursor movement. It is usable
// with a screen reader and leaves a readable log. Questions are answered
// by typing a number and Enter. It renders the walks of package walk, so
// the decision and the texts are the same as in the full-screen trainer.
package plain

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/nav"
	"toolgate/scenarios"
	"toolgate/walk"
)

// Options configure a plain session.
type Options struct {
	Scenarios []scenarios.Scenario
	Lang      assess.Lang
	// Track and Scenario open a scenario at start, as in the trainer;
	// Track 0 is none given.
	Track    scenarios.Track
	Scenario string
	// Quiz asks which step decides before each walk, as the trainer's
	// --quiz does: a scenario's title and its "Injected:" line name the
	// answer, so they are told only after the prediction.
	Quiz bool
}

// maxLine bounds one typed line: a line mode must not grow without end on
// a paste or a stream.
const maxLine = 4096

// session is where the learner is.
type session struct {
	out     io.Writer
	all     []scenarios.Scenario
	byTrack [][]scenarios.Scenario
	at      nav.State
	lang    assess.Lang
	walk    walk.Walk
	// asking is set while a prediction waits for its number; running
	// while the walk is told to its verdict in one go.
	asking, running bool
	// quiz is Options.Quiz; told is set once the open scenario's title
	// has been said; right and asked are the quiz's score.
	quiz, told   bool
	right, asked int
	err          error
}

func (s *session) Tracks() int           { return len(s.byTrack) }
func (s *session) Scenarios(t int) int   { return len(s.byTrack[t]) }
func (s *session) LastStep(t, i int) int { return walk.Of(s.byTrack[t][i], s.lang).Decisive + 1 }

// say writes one line; the first write error ends the session.
func (s *session) say(format string, a ...any) {
	if s.err != nil {
		return
	}
	_, s.err = fmt.Fprintf(s.out, format+"\n", a...)
}

// Run reads commands from in and tells the walks on out until q, or the
// end of the input.
func Run(in io.Reader, out io.Writer, o Options) error {
	s := &session{out: out, all: o.Scenarios, lang: o.Lang, quiz: o.Quiz}
	for _, t := range scenarios.Tracks {
		s.byTrack = append(s.byTrack, scenarios.InTrack(o.Scenarios, t))
	}
	s.say("%s", texts.Welcome.in(s.lang))
	track := o.Track
	if track == 0 {
		track = scenarios.TrackAdmission
	}
	if sc, ok := scenarios.Find(o.Scenarios, track, o.Scenario); ok && o.Scenario != "" {
		s.open(sc.ID)
	} else {
		if t := indexOf(scenarios.Tracks, o.Track); t > 0 {
			s.at.Track = t
		}
		s.list()
	}
	lines := bufio.NewScanner(in)
	lines.Buffer(make([]byte, 0, 512), maxLine)
	for s.err == nil && lines.Scan() {
		if !s.command(strings.TrimSpace(lines.Text())) {
			break
		}
	}
	if err := lines.Err(); err != nil && s.err == nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("a line longer than %d bytes: plain mode reads one short command a line", maxLine)
		}
		return err
	}
	return s.err
}

func indexOf(list []scenarios.Track, x scenarios.Track) int {
	for i, v := range list {
		if v == x {
			return i
		}
	}
	return -1
}

// open opens a scenario by id and tells its start.
func (s *session) open(id string) {
	for t, in := range s.byTrack {
		for i, sc := range in {
			if sc.ID == id {
				s.at = nav.Navigate(s, s.at, nav.Action{Kind: nav.Select, Track: t, N: i})
				s.start()
				return
			}
		}
	}
}

func (s *session) scenario() scenarios.Scenario { return s.byTrack[s.at.Track][s.at.Scenario] }

// list tells the track's scenarios.
func (s *session) list() {
	t := scenarios.Tracks[s.at.Track]
	in := s.byTrack[s.at.Track]
	s.say("")
	s.say(texts.Track.in(s.lang), t.Title(s.lang), len(in))
	if s.quiz {
		// A title names the answer: the quiz tells it after.
		s.say("%s", texts.QuizList.in(s.lang))
	} else {
		for _, sc := range in {
			s.say("  %d. %s", sc.Number, sc.Title.In(s.lang))
		}
	}
	s.say(texts.Choose.in(s.lang), len(in))
}

// start tells a scenario before its first step.
func (s *session) start() {
	sc := s.scenario()
	s.walk = walk.Of(sc, s.lang)
	s.asking, s.told = false, false
	s.say("")
	if s.quiz {
		s.say(texts.ScenarioNumber.in(s.lang), sc.Number)
	} else {
		s.tell()
	}
	if story := sc.Story.In(s.lang); story != "" {
		s.say("%s", story)
	}
	if c := s.walk.Check; c != nil {
		s.say("%s%s%s%s", c.Title, texts.Colon.in(s.lang), c.Explanation, texts.Period.in(s.lang))
	}
	s.say("%s%s", s.walk.Heading, texts.Period.in(s.lang))
	if s.quiz {
		s.ask()
		return
	}
	s.say("%s", texts.StartKeys.in(s.lang))
}

// tell says the open scenario's title and what it injects, once: at its
// start, or in the quiz after the prediction.
func (s *session) tell() {
	if s.told {
		return
	}
	s.told = true
	sc := s.scenario()
	s.say(texts.Scenario.in(s.lang), sc.Number, sc.Title.In(s.lang))
	if inj := sc.Injected.In(s.lang); inj != "" {
		s.say(texts.Injected.in(s.lang), inj)
	}
}

// command does what a typed line asks; it reports whether to go on.
func (s *session) command(line string) bool {
	switch strings.ToLower(line) {
	case "q", "quit", "exit":
		s.say("%s", texts.Bye.in(s.lang))
		return false
	case "?", "h", "help":
		s.say("%s", texts.Help.in(s.lang))
		return true
	case "l", "list":
		s.list()
		return true
	case "t":
		s.at = nav.Navigate(s, s.at, nav.Action{Kind: nav.NextTrack})
		s.list()
		return true
	case "lang":
		s.lang = 1 - s.lang
		s.say("%s", texts.LangNow.in(s.lang))
		return true
	}
	if n, err := strconv.Atoi(line); err == nil {
		// A number answers the open question, else opens that scenario.
		return s.number(n)
	}
	if s.at.Focus == nav.List {
		s.say(texts.Choose.in(s.lang), len(s.byTrack[s.at.Track]))
		return true
	}
	switch strings.ToLower(line) {
	case "":
		s.next()
	case "v", "verdict":
		s.toVerdict()
	case "p", "predict":
		s.ask()
	case "n":
		s.at = nav.Navigate(s, s.at, nav.Action{Kind: nav.NextScenario})
		s.start()
	case "b":
		s.at = nav.Navigate(s, s.at, nav.Action{Kind: nav.PrevScenario})
		s.start()
	case "r":
		s.at = nav.Navigate(s, s.at, nav.Action{Kind: nav.Restart})
		s.start()
	default:
		s.say(texts.Unknown.in(s.lang), clip(line))
	}
	return true
}

// clip quotes at most 40 characters of what was typed.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return strconv.Quote(string(r[:40])) + "…"
	}
	return strconv.Quote(s)
}

// number opens scenario n from the list, or answers the open question.
func (s *session) number(n int) bool {
	if s.asking {
		s.answer(n)
		return true
	}
	if n < 1 || n > len(s.byTrack[s.at.Track]) {
		s.say(texts.Choose.in(s.lang), len(s.byTrack[s.at.Track]))
		return true
	}
	s.at = nav.Navigate(s, s.at, nav.Action{Kind: nav.Jump, N: n})
	s.start()
	return true
}

// next tells one more step, or the verdict after the step that decides.
func (s *session) next() {
	if nav.Reached(s, s.at) {
		s.say("%s", texts.AfterVerdict.in(s.lang))
		return
	}
	s.at = nav.Navigate(s, s.at, nav.Action{Kind: nav.Next})
	if nav.Reached(s, s.at) {
		s.verdict()
		return
	}
	st := s.walk.Steps[s.at.Step-1]
	s.say(texts.Step.in(s.lang), stepWord(s), s.at.Step, st.Title, look.OutcomeLabel(st.Outcome, s.lang))
	s.say(texts.Question.in(s.lang), st.Question)
	s.say(texts.Because.in(s.lang), strings.TrimSuffix(st.Explanation, "."))
	if st.Aside != "" {
		s.say("  %s%s%s%s", walk.AsideLabel(s.lang), texts.Colon.in(s.lang), st.Aside, texts.Period.in(s.lang))
	}
	if s.at.Step == s.walk.Decisive && !s.running {
		s.say("%s", texts.Decides.in(s.lang))
	}
}

func stepWord(s *session) string {
	switch scenarios.Tracks[s.at.Track] {
	case scenarios.TrackAdmission:
		return texts.Rule.in(s.lang)
	case scenarios.TrackAudit, scenarios.TrackOutcome:
	}
	return texts.StepWord.in(s.lang)
}

// verdict tells the verdict, each detail on its own line.
func (s *session) verdict() {
	v := s.walk.Verdict
	s.say(texts.Verdict.in(s.lang), v.Headline)
	for _, d := range v.Details {
		s.say("  %s%s%s%s", d.Label, texts.Colon.in(s.lang), strings.TrimSuffix(d.Text, "."), texts.Period.in(s.lang))
	}
	s.say("%s", texts.AfterVerdict.in(s.lang))
}

// ask asks which step decides, before the walk is told.
func (s *session) ask() {
	if s.at.Step > 0 {
		s.at = nav.Navigate(s, s.at, nav.Action{Kind: nav.Restart})
	}
	s.asking = true
	for i, st := range s.walk.Steps {
		s.say("  %d. %s", i+1, st.Title)
	}
	s.say(texts.Predict.in(s.lang), len(s.walk.Steps))
}

// answer marks a prediction against what decided and tells the walk.
func (s *session) answer(n int) {
	if n < 1 || n > len(s.walk.Steps) {
		s.say(texts.Predict.in(s.lang), len(s.walk.Steps))
		return
	}
	s.asking = false
	s.tell()
	if n == s.walk.Decisive {
		s.say(texts.Right.in(s.lang), n)
	} else {
		s.say(texts.Wrong.in(s.lang), n, s.walk.Decisive)
	}
	if s.quiz {
		s.asked++
		if n == s.walk.Decisive {
			s.right++
		}
		s.say(texts.Score.in(s.lang), s.right, s.asked)
	}
	s.toVerdict()
}

// toVerdict tells every step left and the verdict, without the "press
// Enter" between them.
func (s *session) toVerdict() {
	// A verdict asked for instead of an answer ends the question.
	s.asking = false
	s.tell()
	s.running = true
	for !nav.Reached(s, s.at) {
		s.next()
	}
	s.running = false
}
