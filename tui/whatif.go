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

// whatIfState is the learner's experiment on the open scenario: the input
// as edited, the edits to undo, and what the last change did.
type whatIfState struct {
	on      bool
	cursor  int
	input   assess.Input
	history []assess.Input
	changes int
	// message says what the last change did to the verdict.
	message string
}

// editable reports whether what-if works on the open scenario: its knobs
// are the admission input's.
func (m Model) editable() bool { return m.track == scenarios.TrackAdmission && len(m.all) > 0 }

// edited is the open scenario with the experiment's input.
func (m Model) edited() scenarios.Scenario {
	s := m.all[m.sel]
	if m.whatIf.on {
		s.Input = m.whatIf.input
	}
	return s
}

func (m *Model) startWhatIf() {
	if !m.editable() {
		m.notice = tr("whatIfAdmission", m.lang)
		return
	}
	m.whatIf = whatIfState{on: true, input: whatif.Clone(m.all[m.sel].Input)}
	m.quiz.phase = quizIdle
	m.step = m.lastStep()
	m.focus = focusWalk
}

func (m *Model) stopWhatIf() {
	m.whatIf = whatIfState{}
	m.walk = walk.Of(m.all[m.sel], m.lang)
	m.step = m.lastStep()
}

// setInput runs assess on an edited input at once and says plainly what
// changed: "verdict: A → B (rule 7 now fires)".
func (m *Model) setInput(in assess.Input, record bool) {
	before := m.walk
	if record {
		m.whatIf.history = append(m.whatIf.history, m.whatIf.input)
		m.whatIf.changes++
	}
	m.whatIf.input = in
	m.walk = walk.Of(m.edited(), m.lang)
	m.step = m.lastStep()
	m.whatIf.message = changeMessage(before, m.walk, m.lang)
}

func changeMessage(before, after walk.Walk, l assess.Lang) string {
	if before.Verdict.Short == after.Verdict.Short && before.Decisive == after.Decisive {
		return fmt.Sprintf(tr("whatIfSame", l), after.Verdict.Short, after.Decisive)
	}
	return fmt.Sprintf(tr("whatIfChanged", l), before.Verdict.Short, after.Verdict.Short, after.Decisive)
}

// whatIfKey handles a key in what-if mode; it reports whether it did.
func (m *Model) whatIfKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	k := m.keys
	knobs := whatif.Knobs()
	knob := knobs[m.whatIf.cursor]
	switch {
	case key.Matches(msg, k.WhatIf), msg.String() == "esc":
		m.stopWhatIf()
	case key.Matches(msg, k.Up):
		m.whatIf.cursor = (m.whatIf.cursor + len(knobs) - 1) % len(knobs)
	case key.Matches(msg, k.Down):
		m.whatIf.cursor = (m.whatIf.cursor + 1) % len(knobs)
	case key.Matches(msg, k.Next), msg.String() == "enter":
		next := (knob.Current(m.whatIf.input) + 1) % len(knob.Options)
		m.setInput(knob.Apply(m.whatIf.input, next), true)
	case key.Matches(msg, k.Back):
		cur := knob.Current(m.whatIf.input)
		if cur < 0 {
			cur = 0
		}
		prev := (cur + len(knob.Options) - 1) % len(knob.Options)
		m.setInput(knob.Apply(m.whatIf.input, prev), true)
	case msg.Code >= '1' && msg.Code <= '9' && int(msg.Code-'1') < len(knob.Options):
		m.setInput(knob.Apply(m.whatIf.input, int(msg.Code-'1')), true)
	case key.Matches(msg, k.Undo):
		if n := len(m.whatIf.history); n > 0 {
			prev := m.whatIf.history[n-1]
			m.whatIf.history = m.whatIf.history[:n-1]
			m.setInput(prev, false)
		}
	case key.Matches(msg, k.Reset):
		m.whatIf.history = nil
		m.setInput(whatif.Clone(m.all[m.sel].Input), false)
		m.whatIf.message = tr("whatIfReset", m.lang)
	case key.Matches(msg, k.Save) && k.Save.Enabled():
		return true, m.saveExperimentCmd()
	}
	// Every other key is swallowed: the experiment ends with w or esc,
	// not by wandering to another scenario.
	return true, nil
}

// savedScenarioMsg reports where an experiment was written.
type savedScenarioMsg struct {
	path string
	err  error
}

// saveExperimentCmd hands the experiment to Options.SaveScenario, which
// keeps it (the tui itself writes no file).
func (m Model) saveExperimentCmd() tea.Cmd {
	save, s := m.saveScenario, m.edited()
	if save == nil {
		return nil
	}
	return func() tea.Msg {
		path, err := save(s)
		return savedScenarioMsg{path: path, err: err}
	}
}

// renderKnobs is the what-if menu: each knob with its options, the
// current one marked.
func (m Model) renderKnobs(width int) string {
	st := m.styles
	lines := []string{st.List.Title.Render(tr("whatIfTitle", m.lang)), st.Dim.Render(truncate(tr("whatIfKeys", m.lang), width)), ""}
	for i, k := range whatif.Knobs() {
		cur := k.Current(m.whatIf.input)
		name := k.Name(m.lang)
		if i == m.whatIf.cursor {
			lines = append(lines, st.List.Selected.Render(truncate("> "+name, width)))
		} else {
			lines = append(lines, truncate("  "+name, width))
		}
		var opts []string
		for j := range k.Options {
			// No-break spaces keep an option on one line when wrapped.
			o := strings.ReplaceAll(fmt.Sprintf("%d %s", j+1, k.Option(j, m.lang)), " ", "\u00a0")
			if j == cur {
				o = "[" + o + "]"
			}
			opts = append(opts, o)
		}
		lines = append(lines, paint(st.Dim, indentLines(wrap(strings.Join(opts, "  "), width-4), "    ")))
	}
	lines = append(lines, "", paint(st.Dim, wrap(fmt.Sprintf(tr("whatIfCount", m.lang), m.whatIf.changes), width)))
	return strings.Join(lines, "\n")
}
