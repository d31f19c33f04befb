package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"toolgate/assess"
	"toolgate/scenarios"
	"toolgate/walk"
	"toolgate/whatif"
)

// whatIfModel is the what-if mode: the learner changes one input of an
// admission scenario at a time and sees at once what assess makes of it.
type whatIfModel struct {
	c common
	// place is the scenario experimented on; its edited input is the
	// experiment.
	place place
	panes panes
	// knobBar says the panes are the one-column layout's: the selected
	// knob above the walk.
	knobBar bool
	cursor  int
	// history is the inputs before each change, for undo.
	history []assess.Input
	// message says what the last change did to the verdict.
	message string
	overlays
	// save keeps an experiment (nil: the key is off).
	save func(scenarios.Scenario) (string, error)
	out  outbox
}

var _ component = whatIfModel{}

func newWhatIfModel(c common, p place, save func(scenarios.Scenario) (string, error)) whatIfModel {
	return whatIfModel{c: c, place: p, panes: newPanes(), save: save}
}

func (m whatIfModel) scene() scene { return scene{m.c, m.place} }

// start opens the experiment on a place's scenario, whole walk shown.
func (m whatIfModel) start(p place) whatIfModel {
	m = whatIfModel{c: m.c, place: p, panes: m.panes, save: m.save}
	in := whatif.Clone(admissionInput(m.place.written()))
	m.place.showEdited(&in)
	return m
}

// stop ends the experiment: the scenario as written, walked whole, the
// place to hand back.
func (m whatIfModel) stop() place {
	p := m.place
	p.showEdited(nil)
	return p
}

func (m whatIfModel) keys(now bool) whatIfKeyMap {
	k := newWhatIfKeyMap(m.c.lang)
	onIf(m.save != nil, &k.Save)
	if !now {
		return k
	}
	onIf(m.path != nil && m.path.path.Reachable && !m.path.path.Allowed, &k.Apply)
	if m.path != nil || m.full {
		// An overlay is open: its key or esc closes it, and only it;
		// the experiment goes on under it.
		off(&k.WhatIf, &k.KnobUp, &k.KnobDown, &k.ValueNext, &k.ValuePrev, &k.Option, &k.Undo, &k.Reset, &k.Save,
			&k.ScrollDown, &k.ScrollUp, &k.Full, &k.Path)
		on(&k.Close, &k.Scroll)
		k.Close.SetHelp(map[bool]string{true: "a/esc", false: "i/esc"}[m.path != nil], tr("kClose", m.c.lang))
		return k
	}
	onIf(len(m.history) > 0, &k.Undo)
	onIf(m.place.changed(), &k.Reset)
	return k
}

func (m whatIfModel) KeyMap() modeKeys     { return m.keys(true) }
func (m whatIfModel) HelpKeyMap() modeKeys { return m.keys(false) }

// set runs assess on an edited input at once and says plainly what
// changed: "verdict: A → B (rule 7 now fires)".
func (m *whatIfModel) set(in assess.Input, record bool) {
	before := m.place.walk
	if record {
		m.history = append(m.history, m.place.input())
	}
	m.place.showEdited(&in)
	m.message = changeMessage(before, m.place.walk, m.c.lang)
}

func changeMessage(before, after walk.Walk, l assess.Lang) string {
	if before.Verdict.Short == after.Verdict.Short && before.Decisive == after.Decisive {
		return fmt.Sprintf(tr("whatIfSame", l), after.Verdict.Short, after.Decisive)
	}
	if before.Decisive == after.Decisive {
		// Another code from the same rule: it fired before too.
		return fmt.Sprintf(tr("whatIfChangedSameRule", l), before.Verdict.Short, after.Verdict.Short, after.Decisive)
	}
	return fmt.Sprintf(tr("whatIfChanged", l), before.Verdict.Short, after.Verdict.Short, after.Decisive)
}

func (m whatIfModel) Update(msg tea.Msg) (component, tea.Cmd) {
	m.out, m.place.events = nil, nil
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case enterMsg:
		m = m.start(msg.place)
	case commonMsg:
		m.c = msg.c
		m.place.setLang(m.c.lang)
	case tea.KeyPressMsg:
		cmd = m.key(msg)
	case tea.MouseWheelMsg:
		m.wheel(&m.place, msg)
	}
	m.fill()
	return m, cmd
}

func (m *whatIfModel) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys(true)
	knobs := whatif.Knobs()
	knob := knobs[m.cursor]
	in := m.place.input()
	if key.Matches(msg, k.Apply) {
		// The path as one change: undo takes it back whole.
		m.set(m.path.path.ToAllowed.Apply(in), true)
		m.path = nil
		return nil
	}
	// The overlays answer as in the other modes; the experiment goes on
	// under them.
	if m.overlayKey(m.c, &m.place, &m.out, msg, true) {
		return nil
	}
	switch {
	case key.Matches(msg, k.KnobUp):
		m.cursor = (m.cursor + len(knobs) - 1) % len(knobs)
	case key.Matches(msg, k.KnobDown):
		m.cursor = (m.cursor + 1) % len(knobs)
	case key.Matches(msg, k.ValueNext):
		m.set(knob.Apply(in, (knob.Current(in)+1)%len(knob.Options)), true)
	case key.Matches(msg, k.ValuePrev):
		cur := max(knob.Current(in), 0)
		m.set(knob.Apply(in, (cur+len(knob.Options)-1)%len(knob.Options)), true)
	case key.Matches(msg, k.Option):
		if n := int(msg.Code - '1'); n < len(knob.Options) {
			m.set(knob.Apply(in, n), true)
		}
	case key.Matches(msg, k.Undo):
		n := len(m.history)
		prev := m.history[n-1]
		m.history = m.history[:n-1]
		m.set(prev, false)
	case key.Matches(msg, k.Reset):
		m.history = nil
		m.set(whatif.Clone(admissionInput(m.place.written())), false)
		m.message = tr("whatIfReset", m.c.lang)
	case key.Matches(msg, k.Save):
		return m.saveCmd()
	case key.Matches(msg, k.ScrollDown):
		m.place.scroll++
	case key.Matches(msg, k.ScrollUp):
		m.place.scroll--
	}
	// Every other key is swallowed: the experiment ends with w or esc,
	// not by wandering to another scenario.
	return nil
}

// savedScenarioMsg reports where an experiment was kept.
type savedScenarioMsg struct {
	path string
	err  error
}

// saveCmd hands the experiment to Options.SaveScenario, which keeps it
// (the tui itself writes no file).
func (m whatIfModel) saveCmd() tea.Cmd {
	save, s := m.save, m.place.scenario()
	return func() tea.Msg {
		path, err := save(s)
		return savedScenarioMsg{path: path, err: err}
	}
}

// extras is what the experiment adds to the walk: the warning that the
// input is edited (only while it is), and what the last change did.
func (m whatIfModel) extras() walkExtras {
	c := m.scene()
	var x walkExtras
	if c.changed() {
		x.banner = append(x.banner, c.styles.Verdict.Label.Render("⚠ "+fmt.Sprintf(tr("whatIfBanner", c.lang), len(m.history))))
	}
	if m.message != "" {
		x.banner = append(x.banner, c.styles.tone(c.walk.Verdict.Tone).Render(m.message))
	}
	x.hideStory = true
	return x
}

// body is the experiment's panes: the knobs beside the walk and, on a
// wide screen, the inputs.
func (m whatIfModel) body() body {
	c := m.scene()
	knobs := func(w, h int) string { return m.renderKnobs(c, w, h) }
	switch {
	case m.full:
		return body{full: true}
	case c.layout() == layoutThree:
		return body{left: knobs, inputs: true, extras: m.extras()}
	}
	return body{right: knobs, extras: m.extras()}
}

func (m *whatIfModel) fill() {
	c, height := m.c, m.c.height-2
	m.knobBar = false
	switch {
	case m.path != nil && !m.full:
		m.panes.cover(c, &m.place, m.path.lines(m.scene(), c.width), height)
	case m.full || c.layout() != layoutOne:
		m.panes.fill(c, &m.place, m.body(), height)
	default:
		// One column: the selected knob on top, the walk below.
		m.knobBar = true
		rest := max(height-lineCount(m.renderKnob(m.scene(), c.width))-1, 1)
		lines, anchor, end := m.scene().buildWalkPane(c.width, m.extras()).fit(rest)
		m.place.scroll = m.panes.main.fill(lines, c.width, rest, anchor, end, m.place.scroll, c.scrollHint)
	}
}

func (m whatIfModel) SetSize(width, height int) component {
	m.c.width, m.c.height = width, height
	m.fill()
	return m
}

func (m whatIfModel) View() string {
	c, height := m.c, m.c.height-2
	if m.knobBar {
		top := m.renderKnob(m.scene(), c.width)
		return joinColumns(height, "", column{top + "\n" + c.styles.Dim.Render(strings.Repeat("─", c.width)) + "\n" + m.panes.main.View(), c.width})
	}
	return m.panes.draw(c, m.body(), height)
}

func (m whatIfModel) Posted() []tea.Msg { return append(m.out, m.place.events...) }

func (m whatIfModel) Status() status { return status{place: m.place, right: m.place.where()} }
