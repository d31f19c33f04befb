package tui

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"toolgate/assess"
	"toolgate/nav"
	"toolgate/scenarios"
	"toolgate/walk"
	"toolgate/whatif"
)

// place is where a learner is in the deck and what they see there: the
// open scenario at a step of its walk, walked in a language, with the
// what-if's edited input (or a scenario walked outside the deck: a
// practice case), and how far the panes are scrolled from where they
// follow the walk. Each mode keeps its own; the root hands it from one
// mode to the next (enterMsg). A place moves only through navigate, which
// asks the pure stepper (nav).
type place struct {
	deck *deck
	at   nav.State
	// walk is the open scenario walked in walkLang, with the edited
	// input when there is one.
	walk     walk.Walk
	walkLang assess.Lang
	edited   *assess.Input
	outside  *scenarios.Scenario
	// scroll and inputsScroll are how far the learner scrolled the main
	// pane (the walk, or what covers it) and the inputs, from where they
	// follow the walk, as the panes took them; any move of the walk
	// resets them.
	scroll, inputsScroll int
	// events are what moving here tells the progress (a scenario opened,
	// a verdict reached), posted to the root with the mode's own
	// messages; the mode's Update starts them afresh.
	events []tea.Msg
}

func newPlace(d *deck, l assess.Lang) place { return place{deck: d, walkLang: l} }

// Tracks, Scenarios and LastStep make a place the stepper's deck. The open
// scenario's last step is its walk's, which what-if may have changed.
func (p *place) Tracks() int { return len(p.deck.byTrack) }

func (p *place) Scenarios(t int) int { return len(p.deck.byTrack[t]) }

func (p *place) LastStep(t, i int) int {
	if t == p.at.Track && i == p.at.Scenario && (p.edited != nil || p.outside != nil) {
		return p.walk.Decisive + 1
	}
	return p.deck.last[t][i]
}

// track is the current track.
func (p *place) track() scenarios.Track { return scenarios.Tracks[p.at.Track] }

// admissionInput is an admission scenario's input; the zero input for a
// scenario of another track, which has none.
func admissionInput(s scenarios.Scenario) assess.Input {
	c, _ := s.Case.(scenarios.AdmissionCase)
	return c.Input
}

// inTrack is the current track's scenarios.
func (p *place) inTrack() []scenarios.Scenario { return p.deck.byTrack[p.at.Track] }

// has reports whether there is a scenario open (a lecturer's directory
// may leave a track empty).
func (p *place) has() bool { return p.outside != nil || len(p.inTrack()) > 0 }

// written is the open scenario as written.
func (p *place) written() scenarios.Scenario {
	if p.outside != nil {
		return *p.outside
	}
	return p.inTrack()[p.at.Scenario]
}

// scenario is the open scenario, with the what-if's input when edited.
// An edited input is no longer the scenario as written: what was injected
// and what the scenario does not prove belonged to the input as written,
// so they give way to what was edited, and the story says it is an
// edited copy (which is also what a saved experiment keeps).
func (p *place) scenario() scenarios.Scenario {
	s := p.written()
	if !p.changed() {
		return s
	}
	var en, zh []string
	c, _ := s.Case.(scenarios.AdmissionCase)
	for _, e := range whatif.Edits(c.Input, *p.edited) {
		en = append(en, e.Text(assess.English))
		zh = append(zh, e.Text(assess.Chinese))
	}
	c.Input = *p.edited
	s.Case = c
	s.Injected = scenarios.Text{En: "edited in what-if: " + strings.Join(en, "; "), Zh: "在假设模式中修改：" + strings.Join(zh, "；")}
	s.Story = scenarios.Text{
		En: fmt.Sprintf("An edited copy of scenario %q (%s), made in what-if mode; its original story and caveat no longer hold. Changed: %s.", s.ID, s.Title.En, strings.Join(en, "; ")),
		Zh: fmt.Sprintf("场景 %q（%s）在假设模式中修改后的副本；原来的故事与“本场景不证明”一行不再适用。改动：%s。", s.ID, s.Title.In(assess.Chinese), strings.Join(zh, "；")),
	}
	s.DoesNotProve = scenarios.Text{}
	return s
}

// showEdited shows an edited input in place of the scenario's (nil: the
// scenario as written again), walked whole. It keeps a copy of its own:
// the caller's input must not be pointed into.
func (p *place) showEdited(in *assess.Input) {
	p.edited = nil
	if in != nil {
		edited := *in
		p.edited = &edited
	}
	p.rewalk()
	p.setStep(p.lastStep())
}

// changed reports whether the input shown is edited: it differs from the
// scenario as written.
func (p *place) changed() bool {
	return p.edited != nil && !reflect.DeepEqual(*p.edited, admissionInput(p.written()))
}

// input is the admission input shown: the what-if's edited one, or the
// scenario's as written.
func (p *place) input() assess.Input {
	if p.edited != nil {
		return *p.edited
	}
	return admissionInput(p.written())
}

// navigate moves the learner and, when another scenario opens, walks it.
func (p *place) navigate(a nav.Action) {
	before := p.at
	p.at = nav.Navigate(p, p.at, a)
	if p.at.Track != before.Track || p.at.Scenario != before.Scenario || !p.walked() {
		p.opened()
	}
	if p.at != before {
		p.scroll, p.inputsScroll = 0, 0
	}
	if p.reached() && p.has() && p.outside == nil {
		p.events = append(p.events, walkedMsg{id: p.written().ID})
	}
}

// walked reports whether the walk shown is the open scenario's.
func (p *place) walked() bool { return p.has() && len(p.walk.Steps) > 0 }

// opened walks the scenario just opened, as written, and tells the
// progress which it is.
func (p *place) opened() {
	p.edited = nil
	if !p.has() {
		p.walk = walk.Walk{}
		return
	}
	p.rewalk()
	if p.outside == nil {
		p.events = append(p.events, openedMsg{id: p.written().ID})
	}
}

// rewalk walks the open scenario again (a new language, an edit).
func (p *place) rewalk() {
	if p.has() {
		p.walk = walk.Of(p.scenario(), p.walkLang)
	}
}

// setLang walks the open scenario in another language.
func (p *place) setLang(l assess.Lang) {
	p.walkLang = l
	p.rewalk()
}

// reached reports whether the verdict shows.
func (p *place) reached() bool { return p.walked() && nav.Reached(p, p.at) }

// lastStep is the step that shows the verdict.
func (p *place) lastStep() int { return p.walk.Decisive + 1 }

// current is the number of the rule the walk is on (0 before the first),
// the one that fired once the verdict shows.
func (p *place) current() int { return min(p.at.Step, p.walk.Decisive) }

// setStep shows the walk up to a step (the quiz's reveal, the room's),
// from the top of the panes.
func (p *place) setStep(step int) {
	p.navigate(nav.Action{Kind: nav.Reveal, N: step})
	p.scroll, p.inputsScroll = 0, 0
}

// openID opens a scenario by id, in its track, at its start; an id not
// loaded opens nothing.
func (p *place) openID(id string) {
	if t, i, ok := p.deck.find(id); ok {
		p.navigate(nav.Action{Kind: nav.Select, Track: t, N: i})
	}
}

// reload takes a new deck and keeps the learner where they were: on the
// same scenario (by id) at the same step when it is still there, else at
// the same place in the track.
func (p *place) reload(d *deck) {
	id := ""
	if p.has() && p.outside == nil {
		id = p.written().ID
	}
	p.deck, p.edited = d, nil
	if p.outside != nil {
		return
	}
	for i, s := range p.inTrack() {
		if s.ID == id {
			p.at.Scenario = i
		}
	}
	p.at = nav.Navigate(p, p.at, nav.Action{}) // clamped to what is there now
	p.opened()
}

// reads are the paths the current step reads.
func (p *place) reads() []string {
	if cur := p.current(); cur > 0 && cur <= len(p.walk.Steps) {
		return p.walk.Steps[cur-1].Reads
	}
	return nil
}

// visible is the indexes (in the track) of the scenarios the filter passes.
func (p *place) visible(f filterState) []int {
	var out []int
	for i, s := range p.inTrack() {
		if f.matches(s) {
			out = append(out, i)
		}
	}
	return out
}

// moveInList selects the previous or next scenario that the filter
// passes.
func (p *place) moveInList(f filterState, delta int) {
	vis := p.visible(f)
	if len(vis) == 0 {
		return
	}
	i := slices.Index(vis, p.at.Scenario)
	if i < 0 {
		i = 0
	} else {
		i = (i + delta + len(vis)) % len(vis)
	}
	p.selectInList(vis[i])
}

// selectInList opens scenario i of the track with the focus left on the
// list.
func (p *place) selectInList(i int) {
	p.navigate(nav.Action{Kind: nav.Select, Track: p.at.Track, N: i})
	p.navigate(nav.Action{Kind: nav.ToList})
}

// stepRun is steps before the current one shown together: a run of
// passed steps (folded into one line when room is short), or one step
// that did not pass (an audit's finding), which is never folded.
type stepRun struct {
	from, to int // step numbers, from 1
	outcome  assess.Outcome
}

// runsBefore are the steps before the current one, in runs.
func (p *place) runsBefore() []stepRun {
	var runs []stepRun
	for n := 1; n < p.current(); n++ {
		o := p.walk.Steps[n-1].Outcome
		if last := len(runs) - 1; last >= 0 && o == assess.Passed && runs[last].outcome == assess.Passed {
			runs[last].to = n
			continue
		}
		runs = append(runs, stepRun{from: n, to: n, outcome: o})
	}
	return runs
}
