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
	cursor int
	// history is the inputs before each change, for undo; the edited
	// input itself is common's (c.edited).
	history []assess.Input
	// message says what the last change did to the verdict.
	message string
	overlays
	// save keeps an experiment (nil: the key is off).
	save func(scenarios.Scenario) (string, error)
}

// startWhatIf opens the experiment on the open scenario, whole walk shown.
func startWhatIf(c *common, save func(scenarios.Scenario) (string, error)) whatIfModel {
	in := whatif.Clone(c.written().Input)
	c.showEdited(&in)
	return whatIfModel{save: save}
}

// stop ends the experiment: the scenario as written, walked whole.
func (m whatIfModel) stop(c *common) { c.showEdited(nil) }

func (m whatIfModel) keys(c *common, now bool) whatIfKeyMap {
	k := newWhatIfKeyMap(c.lang)
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
		k.Close.SetHelp(map[bool]string{true: "a/esc", false: "i/esc"}[m.path != nil], tr("kClose", c.lang))
		return k
	}
	onIf(len(m.history) > 0, &k.Undo)
	onIf(c.changed(), &k.Reset)
	return k
}

// set runs assess on an edited input at once and says plainly what
// changed: "verdict: A → B (rule 7 now fires)".
func (m *whatIfModel) set(c *common, in assess.Input, record bool) {
	before := c.walk
	if record {
		m.history = append(m.history, c.input())
	}
	c.showEdited(&in)
	m.message = changeMessage(before, c.walk, c.lang)
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

func (m whatIfModel) update(c *common, msg tea.KeyPressMsg) (whatIfModel, tea.Cmd) {
	k := m.keys(c, true)
	knobs := whatif.Knobs()
	knob := knobs[m.cursor]
	if key.Matches(msg, k.Apply) {
		// The path as one change: undo takes it back whole.
		m.set(c, m.path.path.ToAllowed.Apply(c.input()), true)
		m.path = nil
		return m, nil
	}
	// The overlays answer as in the other modes; the experiment goes on
	// under them.
	if m.overlayKey(c, msg, true) {
		return m, nil
	}
	switch {
	case key.Matches(msg, k.KnobUp):
		m.cursor = (m.cursor + len(knobs) - 1) % len(knobs)
	case key.Matches(msg, k.KnobDown):
		m.cursor = (m.cursor + 1) % len(knobs)
	case key.Matches(msg, k.ValueNext):
		m.set(c, knob.Apply(c.input(), (knob.Current(c.input())+1)%len(knob.Options)), true)
	case key.Matches(msg, k.ValuePrev):
		cur := max(knob.Current(c.input()), 0)
		m.set(c, knob.Apply(c.input(), (cur+len(knob.Options)-1)%len(knob.Options)), true)
	case key.Matches(msg, k.Option):
		if n := int(msg.Code - '1'); n < len(knob.Options) {
			m.set(c, knob.Apply(c.input(), n), true)
		}
	case key.Matches(msg, k.Undo):
		n := len(m.history)
		prev := m.history[n-1]
		m.history = m.history[:n-1]
		m.set(c, prev, false)
	case key.Matches(msg, k.Reset):
		m.history = nil
		m.set(c, whatif.Clone(c.written().Input), false)
		m.message = tr("whatIfReset", c.lang)
	case key.Matches(msg, k.Save):
		return m, m.saveCmd(c)
	case key.Matches(msg, k.ScrollDown):
		c.scroll++
	case key.Matches(msg, k.ScrollUp):
		c.scroll--
	}
	// Every other key is swallowed: the experiment ends with w or esc,
	// not by wandering to another scenario.
	return m, nil
}

// savedScenarioMsg reports where an experiment was kept.
type savedScenarioMsg struct {
	path string
	err  error
}

// saveCmd hands the experiment to Options.SaveScenario, which keeps it
// (the tui itself writes no file).
func (m whatIfModel) saveCmd(c *common) tea.Cmd {
	save, s := m.save, c.scenario()
	return func() tea.Msg {
		path, err := save(s)
		return savedScenarioMsg{path: path, err: err}
	}
}

// extras is what the experiment adds to the walk: the warning that the
// input is edited (only while it is), and what the last change did.
func (m whatIfModel) extras(c *common) walkExtras {
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

func (m whatIfModel) view(c *common, height int) string {
	x := m.extras(c)
	knobs := func(w, h int) string { return m.renderKnobs(c, w, h) }
	if m.full {
		return c.renderBody(body{full: true}, height)
	}
	if m.path != nil {
		return m.path.render(c, c.width, height)
	}
	switch layoutFor(c.width, c.height) {
	case layoutThree:
		return c.renderBody(body{left: knobs, right: c.renderInputs, extras: x}, height)
	case layoutTwo:
		return c.renderBody(body{right: knobs, extras: x}, height)
	}
	// One column: the selected knob on top, the walk below.
	top := m.renderKnob(c, c.width)
	rest := max(height-lineCount(top)-1, 1)
	walkPane := c.renderWalkPane(c.buildWalkPane(c.width, x), rest)
	return joinColumns(height, "", column{top + "\n" + c.styles.Dim.Render(strings.Repeat("─", c.width)) + "\n" + walkPane, c.width})
}

// knobLines are a knob's name and options, the current option in
// brackets.
func (m whatIfModel) knobLines(c *common, i, width int) []string {
	st := c.styles
	k := whatif.Knobs()[i]
	cur := k.Current(c.input())
	name := k.Name(c.lang)
	var head string
	if i == m.cursor {
		head = st.List.Selected.Render(truncate("> "+name, width))
	} else {
		head = truncate("  "+name, width)
	}
	var opts []string
	for j := range k.Options {
		o := fmt.Sprintf("%d %s", j+1, k.Option(j, c.lang))
		if j == cur {
			o = "[" + o + "]"
		}
		opts = append(opts, o)
	}
	// Each option whole on its line, in Chinese too ("6 没有 scope").
	body := strings.Split(indentLines(wrapItems(opts, "  ", max(width-4, 1)), "    "), "\n")
	for j, l := range body {
		body[j] = st.Dim.Render(l)
	}
	return append([]string{head}, body...)
}

// renderKnob is the one-column layout's knob bar: which knob of how many,
// and its options.
func (m whatIfModel) renderKnob(c *common, width int) string {
	lines := []string{c.styles.List.Title.Render(truncate(fmt.Sprintf(tr("whatIfKnobOf", c.lang), m.cursor+1, len(whatif.Knobs()), len(m.history)), width))}
	lines = append(lines, m.knobLines(c, m.cursor, width)...)
	return strings.Join(lines, "\n")
}

// renderKnobs is the what-if menu: every knob with its options, in a
// window that keeps the selected knob in view.
func (m whatIfModel) renderKnobs(c *common, width, height int) string {
	st := c.styles
	head := []string{st.List.Title.Render(truncate(tr("whatIfTitle", c.lang), width)),
		st.Dim.Render(truncate(fmt.Sprintf(tr("whatIfCount", c.lang), len(m.history)), width)), ""}
	var lines []string
	anchor, end := 0, 0
	for i := range whatif.Knobs() {
		if i == m.cursor {
			anchor = len(lines)
		}
		lines = append(lines, m.knobLines(c, i, width)...)
		if i == m.cursor {
			end = len(lines)
		}
	}
	out, _ := scrolled(lines, width, max(height-len(head), 1), anchor, end, 0, c.moreHint)
	return strings.Join(head, "\n") + "\n" + out
}
