package nav

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"
)

// deck is a fixed shape: last[t][i] is scenario i's last step in track t.
type deck [][]int

func (d deck) Tracks() int           { return len(d) }
func (d deck) Scenarios(t int) int   { return len(d[t]) }
func (d deck) LastStep(t, i int) int { return d[t][i] }
func act(k Kind) Action              { return Action{Kind: k} }
func run(d Deck, s State, as ...Action) State {
	for _, a := range as {
		s = Navigate(d, s, a)
	}
	return s
}

// three tracks: admission-like (8 scenarios), audit-like, outcome-like.
var three = deck{{2, 4, 9, 8, 3, 6, 7, 9}, {5, 5}, {2, 4, 3}}

func TestNavigate(t *testing.T) {
	start := State{}
	tests := []struct {
		name    string
		actions []Action
		want    State
	}{
		{"starts on the list at scenario 1", nil, State{}},
		{"open focuses the walk without revealing", []Action{{Kind: Jump, N: 2}, act(ToList), act(Open)}, State{Scenario: 1, Focus: Walk}},
		{"next reveals step 1", []Action{act(Next)}, State{Step: 1, Focus: Walk}},
		{"stepping stops at the verdict", []Action{act(Next), act(Next), act(Next), act(Next)}, State{Step: 2, Focus: Walk}},
		{"back steps back, never below 0", []Action{act(Next), act(Back), act(Back)}, State{Focus: Walk}},
		{"to the verdict", []Action{{Kind: Jump, N: 4}, act(ToVerdict)}, State{Scenario: 3, Step: 8, Focus: Walk}},
		{"restart", []Action{{Kind: Jump, N: 4}, act(ToVerdict), act(Restart)}, State{Scenario: 3, Focus: Walk}},
		{"next scenario starts at step 0", []Action{{Kind: Jump, N: 4}, act(ToVerdict), act(NextScenario)}, State{Scenario: 4, Focus: Walk}},
		{"prev scenario wraps", []Action{act(PrevScenario)}, State{Scenario: 7, Focus: Walk}},
		{"a jump past the end does nothing", []Action{{Kind: Jump, N: 3}, {Kind: Jump, N: 9}}, State{Scenario: 2, Focus: Walk}},
		{"a jump to 0 does nothing", []Action{{Kind: Jump, N: 0}}, State{}},
		{"to list keeps the step", []Action{{Kind: Jump, N: 5}, act(Next), act(ToList)}, State{Scenario: 4, Step: 1}},
		{"next track starts on its list", []Action{{Kind: Jump, N: 5}, act(Next), act(NextTrack)}, State{Track: 1}},
		{"tracks wrap", []Action{act(NextTrack), act(NextTrack), act(NextTrack)}, State{}},
		{"select opens a scenario of any track", []Action{{Kind: Select, Track: 2, N: 1}}, State{Track: 2, Scenario: 1, Focus: Walk}},
		{"select outside the deck does nothing", []Action{{Kind: Select, Track: 3, N: 0}, {Kind: Select, Track: 1, N: 2}}, State{}},
		{"reveal shows the walk up to a step", []Action{{Kind: Jump, N: 3}, act(ToList), {Kind: Reveal, N: 5}}, State{Scenario: 2, Step: 5, Focus: Walk}},
		{"reveal stops at the verdict", []Action{{Kind: Jump, N: 3}, {Kind: Reveal, N: 99}}, State{Scenario: 2, Step: 9, Focus: Walk}},
		{"reveal stops at the start", []Action{{Kind: Jump, N: 3}, act(Next), {Kind: Reveal, N: -4}}, State{Scenario: 2, Focus: Walk}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, run(three, start, tt.actions...))
		})
	}
}

func TestReached(t *testing.T) {
	assert.False(t, Reached(three, State{Step: 1}))
	assert.True(t, Reached(three, State{Step: 2}))
	assert.False(t, Reached(deck{}, State{}))
}

func TestEmptyDeck(t *testing.T) {
	for _, d := range []deck{{}, {{}}, {{}, {3}}} {
		for k := None; k <= Reveal; k++ {
			s := Navigate(d, State{Track: 5, Scenario: 3, Step: 9}, Action{Kind: k, N: 1})
			if d.Tracks() > 0 {
				assert.Less(t, s.Track, d.Tracks())
			}
		}
	}
}

// TestNavigateStaysInTheDeck: whatever the deck and the actions, the state
// names a scenario that exists and a step between 0 and its verdict.
func TestNavigateStaysInTheDeck(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := deck(rapid.SliceOfN(rapid.SliceOfN(rapid.IntRange(1, 9), 1, 12), 1, 4).Draw(t, "deck"))
		s := State{}
		actions := rapid.SliceOf(rapid.Custom(func(t *rapid.T) Action {
			return Action{Kind: Kind(rapid.IntRange(0, int(Reveal)).Draw(t, "kind")),
				N: rapid.IntRange(-2, 14).Draw(t, "n"), Track: rapid.IntRange(-1, 4).Draw(t, "track")}
		})).Draw(t, "actions")
		for _, a := range actions {
			prev := s
			s = Navigate(d, s, a)
			if s.Track < 0 || s.Track >= d.Tracks() || s.Scenario < 0 || s.Scenario >= d.Scenarios(s.Track) {
				t.Fatalf("%+v then %+v: left the deck: %+v", prev, a, s)
			}
			if s.Step < 0 || s.Step > d.LastStep(s.Track, s.Scenario) {
				t.Fatalf("%+v then %+v: step out of range: %+v", prev, a, s)
			}
			if a.Kind == Next && s.Step != min(prev.Step+1, d.LastStep(s.Track, s.Scenario)) {
				t.Fatalf("next from %+v gave %+v", prev, s)
			}
		}
	})
}
