// Package nav is the trainer's stepper as a pure function: where the learner
// is (track, scenario, step, focus) and what an action makes of it, as
// maaslalani/slides' navigation does for slides. It knows nothing of keys,
// terminals or Bubble Tea; the TUI maps keys to actions and renders the
// state, and the tests drive it without a terminal.
package nav

// Focus is where enter goes: the list (open the scenario) or the walk.
type Focus int

// The focuses.
const (
	List Focus = iota
	Walk
)

func (f Focus) String() string {
	if f == Walk {
		return "walk"
	}
	return "list"
}

// Deck is the shape of what can be walked: how many tracks, how many
// scenarios each, and the last step of each scenario (the step that shows
// the verdict: one a rule up to the rule that fires, then one more).
type Deck interface {
	Tracks() int
	Scenarios(track int) int
	LastStep(track, scenario int) int
}

// State is where the learner is.
type State struct {
	Track, Scenario int
	// Step is how far the walk has gone: 0 before the first rule is
	// asked, LastStep when the verdict shows.
	Step  int
	Focus Focus
}

// Kind is what an action does.
type Kind int

// The actions.
const (
	None         Kind = iota
	Next              // reveal the next step, up to the verdict
	Back              // hide the last step revealed
	ToVerdict         // reveal every step and the verdict
	Restart           // hide every step
	Open              // open the selected scenario (focus the walk)
	ToList            // focus the list
	NextScenario      // open the next scenario at its start
	PrevScenario      // open the previous scenario at its start
	Jump              // open scenario N (from 1) of the track
	NextTrack         // show the next track, its first scenario selected
	Select            // open scenario N (from 0) of track T at its start
	Reveal            // show the walk up to step N (focus the walk)
)

// Action is one thing the learner (or the room) asks for. N is the
// scenario number for Jump (from 1), the index for Select (from 0) and
// the step for Reveal; Track is Select's track.
type Action struct {
	Kind     Kind
	N, Track int
}

// Navigate is where an action takes the learner. It never leaves the deck:
// selections wrap around, steps stop at 0 and at the verdict, and a jump
// past the end does nothing.
func Navigate(d Deck, s State, a Action) State {
	n := 0
	if d.Tracks() > 0 {
		s.Track = clamp(s.Track, 0, d.Tracks()-1)
		n = d.Scenarios(s.Track)
	}
	if n == 0 && a.Kind != NextTrack && a.Kind != Select {
		return State{Track: s.Track, Focus: s.Focus}
	}
	if n > 0 {
		// A state from outside (a resumed session, a room) may name a
		// scenario that is no longer there.
		s.Scenario = clamp(s.Scenario, 0, n-1)
	}
	last := func() int { return d.LastStep(s.Track, s.Scenario) }
	open := func(i int) {
		s.Scenario = ((i % n) + n) % n
		s.Step = 0
	}
	switch a.Kind {
	case None:
		// Nothing to do but the clamping below.
	case Next:
		s.Focus = Walk
		s.Step = min(s.Step+1, last())
	case Back:
		s.Step = max(s.Step-1, 0)
	case ToVerdict:
		s.Focus = Walk
		s.Step = last()
	case Restart:
		s.Step = 0
	case Open:
		s.Focus = Walk
	case ToList:
		s.Focus = List
	case NextScenario:
		open(s.Scenario + 1)
		s.Focus = Walk
	case PrevScenario:
		open(s.Scenario - 1)
		s.Focus = Walk
	case Jump:
		if a.N >= 1 && a.N <= n {
			open(a.N - 1)
			s.Focus = Walk
		}
	case NextTrack:
		if d.Tracks() == 0 {
			return s
		}
		s.Track = (s.Track + 1) % d.Tracks()
		s.Scenario, s.Step, s.Focus = 0, 0, List
	case Select:
		if a.Track < 0 || a.Track >= d.Tracks() || a.N < 0 || a.N >= d.Scenarios(a.Track) {
			return s
		}
		s.Track, s.Scenario, s.Step, s.Focus = a.Track, a.N, 0, Walk
	case Reveal:
		s.Step, s.Focus = a.N, Walk // clamped below
	}
	if d.Tracks() > 0 && d.Scenarios(s.Track) > 0 {
		s.Scenario = clamp(s.Scenario, 0, d.Scenarios(s.Track)-1)
		s.Step = clamp(s.Step, 0, d.LastStep(s.Track, s.Scenario))
	}
	return s
}

// Reached reports whether the state shows the verdict.
func Reached(d Deck, s State) bool {
	if d.Tracks() == 0 || d.Scenarios(s.Track) == 0 {
		return false
	}
	return s.Step >= d.LastStep(s.Track, s.Scenario)
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }
