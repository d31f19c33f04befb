package tui

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"toolgate/assess"
	"toolgate/nav"
	"toolgate/progress"
	"toolgate/scenarios"
	"toolgate/walk"
	"toolgate/whatif"
)

// common is what every mode shares, as soft-serve's Common: the terminal's
// size, the styles, the language, the clock, the scenarios, where the
// learner is and the walk of the open scenario. Modes change where the
// learner is only through navigate, which asks the pure stepper (nav).
type common struct {
	all []scenarios.Scenario
	// byTrack is all by track, in the order of scenarios.Tracks; last is
	// the last step of each as written.
	byTrack [][]scenarios.Scenario
	last    [][]int
	// short is each scenario's answer in a few words, in each language,
	// for the list.
	short [][][2]string

	at nav.State
	// walk is the open scenario walked in the current language, with the
	// what-if's input when one is edited.
	walk   walk.Walk
	edited *assess.Input
	// outside is a scenario walked that is not in the deck (a practice
	// case); nil walks the deck's.
	outside *scenarios.Scenario

	lang          assess.Lang
	theme         Theme
	dark          bool
	width, height int
	styles        Styles
	clock         func() time.Time

	prog progress.Progress
	// dirty asks the root to save the progress after this key.
	dirty bool
	// notice is one line shown in the footer until the next key.
	notice string
	// scroll is how far the learner scrolled the walk (and inputs) pane
	// from where it follows the walk; any move of the walk resets it.
	scroll, inputsScroll int
	// used, while Model.clampScroll draws a frame, collects what the
	// panes made of scroll and inputsScroll; nil otherwise.
	used *scrollUsed
}

func newCommon(all []scenarios.Scenario, l assess.Lang, theme Theme, clock func() time.Time) common {
	c := common{lang: l, theme: theme, dark: theme != ThemeLight, width: 120, height: 40, clock: clock}
	c.setScenarios(all)
	c.restyle()
	return c
}

// setScenarios takes a set of scenarios: at start, and when the
// lecturer's files are reloaded.
func (c *common) setScenarios(all []scenarios.Scenario) {
	c.all, c.byTrack, c.last, c.short = all, nil, nil, nil
	for _, t := range scenarios.Tracks {
		in := scenarios.InTrack(all, t)
		lasts := make([]int, len(in))
		shorts := make([][2]string, len(in))
		for i, s := range in {
			en := walk.Of(s, assess.English)
			lasts[i] = en.Decisive + 1
			shorts[i] = [2]string{listAnswer(en), listAnswer(walk.Of(s, assess.Chinese))}
		}
		c.byTrack = append(c.byTrack, in)
		c.last = append(c.last, lasts)
		c.short = append(c.short, shorts)
	}
}

// reload takes a new set of scenarios and keeps the learner where they
// were: on the same scenario (by id) at the same step when it is still
// there, else at the same place in the track.
func (c *common) reload(all []scenarios.Scenario) {
	id := ""
	if c.has() {
		id = c.written().ID
	}
	c.setScenarios(all)
	c.edited = nil
	for i, s := range c.inTrack() {
		if s.ID == id {
			c.at.Scenario = i
		}
	}
	c.at = nav.Navigate(c, c.at, nav.Action{}) // clamped to what is there now
	c.opened()
}

// Tracks, Scenarios and LastStep make common the stepper's deck. The open
// scenario's last step is its walk's, which what-if may have changed.
func (c *common) Tracks() int { return len(c.byTrack) }

func (c *common) Scenarios(t int) int { return len(c.byTrack[t]) }

func (c *common) LastStep(t, i int) int {
	if t == c.at.Track && i == c.at.Scenario && (c.edited != nil || c.outside != nil) {
		return c.walk.Decisive + 1
	}
	return c.last[t][i]
}

func (c *common) restyle() { c.styles = newStyles(c.theme, c.dark) }

// track is the current track's name.
func (c *common) track() string { return scenarios.Tracks[c.at.Track] }

// inTrack is the current track's scenarios.
func (c *common) inTrack() []scenarios.Scenario { return c.byTrack[c.at.Track] }

// has reports whether there is a scenario open (a lecturer's directory
// may leave a track empty).
func (c *common) has() bool { return c.outside != nil || len(c.inTrack()) > 0 }

// scenario is the open scenario, with the what-if's input when edited.
// An edited input is no longer the scenario as written: what was injected
// and what the scenario does not prove belonged to the input as written,
// so they give way to what was edited, and the story says it is an
// edited copy (which is also what a saved experiment keeps).
func (c *common) scenario() scenarios.Scenario {
	s := c.written()
	if !c.changed() {
		return s
	}
	var en, zh []string
	for _, e := range whatif.Edits(s.Input, *c.edited) {
		en = append(en, e.Text(assess.English))
		zh = append(zh, e.Text(assess.Chinese))
	}
	s.Input = *c.edited
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
func (c *common) showEdited(in *assess.Input) {
	c.edited = nil
	if in != nil {
		edited := *in
		c.edited = &edited
	}
	c.rewalk()
	c.setStep(c.lastStep())
}

// changed reports whether the input shown is edited: it differs from the
// scenario as written.
func (c *common) changed() bool {
	return c.edited != nil && !reflect.DeepEqual(*c.edited, c.written().Input)
}

// input is the admission input shown: the what-if's edited one, or the
// scenario's as written.
func (c *common) input() assess.Input {
	if c.edited != nil {
		return *c.edited
	}
	return c.written().Input
}

// written is the open scenario as written.
func (c *common) written() scenarios.Scenario {
	if c.outside != nil {
		return *c.outside
	}
	return c.inTrack()[c.at.Scenario]
}

// navigate moves the learner and, when another scenario opens, walks it.
func (c *common) navigate(a nav.Action) {
	before := c.at
	c.at = nav.Navigate(c, c.at, a)
	if c.at.Track != before.Track || c.at.Scenario != before.Scenario || !c.walked() {
		c.opened()
	}
	if c.at != before {
		c.scroll, c.inputsScroll = 0, 0
	}
	if c.reached() && c.has() && !slices.Contains(c.prog.Walked, c.written().ID) {
		c.prog.MarkWalked(c.written().ID)
		c.dirty = true
	}
}

// walked reports whether the walk shown is the open scenario's.
func (c *common) walked() bool { return c.has() && len(c.walk.Steps) > 0 }

// opened walks the scenario just opened, as written, and remembers it.
func (c *common) opened() {
	c.edited = nil
	if !c.has() {
		c.walk = walk.Walk{}
		return
	}
	c.rewalk()
	if id := c.written().ID; c.prog.Last != id {
		c.prog.Last = id
		c.dirty = true
	}
}

// rewalk walks the open scenario again (a new language, an edit).
func (c *common) rewalk() {
	if c.has() {
		c.walk = walk.Of(c.scenario(), c.lang)
	}
}

// reached reports whether the verdict shows.
func (c *common) reached() bool { return c.walked() && nav.Reached(c, c.at) }

// lastStep is the step that shows the verdict.
func (c *common) lastStep() int { return c.walk.Decisive + 1 }

// current is the number of the rule the walk is on (0 before the first),
// the one that fired once the verdict shows.
func (c *common) current() int { return min(c.at.Step, c.walk.Decisive) }

// setStep shows the walk up to a step (the quiz's reveal, the room's),
// from the top of the panes.
func (c *common) setStep(step int) {
	c.navigate(nav.Action{Kind: nav.Reveal, N: step})
	c.scroll, c.inputsScroll = 0, 0
}

// openID opens a scenario by id, in its track, at its start; an id not
// loaded opens nothing.
func (c *common) openID(id string) {
	for t, in := range c.byTrack {
		for i, s := range in {
			if s.ID == id {
				c.navigate(nav.Action{Kind: nav.Select, Track: t, N: i})
				return
			}
		}
	}
}

// toggleLang switches between English and Chinese, live.
func (c *common) toggleLang() {
	c.lang = 1 - c.lang
	c.rewalk()
	c.prog.Lang = c.lang.String()
	c.dirty = true
}

// stepWord is "rule" on the admission track and "step" on the others,
// which have no rules.
func (c *common) stepWord() string {
	switch c.track() {
	case scenarios.TrackAdmission:
		return tr("rule", c.lang)
	case scenarios.TrackOutcome:
		return tr("question", c.lang)
	}
	return tr("step", c.lang)
}

// listAnswer is a walk's answer for the list, short enough for its
// column: the status's symbol and the code (the code names the status),
// or the audit's diagnostics, or the class.
func listAnswer(w walk.Walk) string {
	if v, ok := w.Result.(assess.Verdict); ok {
		return w.Verdict.Symbol + " " + v.Code.String()
	}
	return w.Verdict.Symbol + " " + w.Verdict.Short
}
