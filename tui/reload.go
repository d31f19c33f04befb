package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"toolgate/scenarios"
)

// reloadMsg asks for the scenarios again: the files changed (--watch), or
// the editor closed.
type reloadMsg struct{}

// reloadedMsg is a reload's result.
type reloadedMsg struct {
	all      []scenarios.Scenario
	problems []string
	err      error
}

// reloadCmd loads the scenarios again, as a command: it reads files.
func (m Model) reloadCmd() tea.Cmd {
	if m.shell.reload == nil {
		return nil
	}
	reload := m.shell.reload
	return func() tea.Msg {
		all, problems, err := reload()
		return reloadedMsg{all: all, problems: problems, err: err}
	}
}

// applyReload takes the reloaded scenarios, keeping the learner's place;
// what is wrong with the files is shown whole, as at start, instead of
// being lost behind the full screen. An experiment or a question in
// progress ends: its scenario may have changed under it.
func (m *Model) applyReload(msg reloadedMsg) {
	if msg.err != nil || len(msg.all) == 0 {
		// Nothing usable: keep what is shown, and say why.
		text := tr("reloadNone", m.c.lang)
		if msg.err != nil {
			text = msg.err.Error()
		}
		m.cover.notices = append(append([]string{}, msg.problems...), text)
		m.cover.noticesTitle = "reloadTitle"
		return
	}
	if m.mode == modeWhatIf {
		m.stopWhatIf()
	}
	m.deck = newDeck(msg.all)
	for _, md := range []mode{modePractice, m.back} {
		if md != m.mode && m.modes.has[md] {
			next, _ := m.modes.get(md).Update(deckMsg{m.deck})
			m.modes.put(next)
		}
	}
	m.update(m.mode, deckMsg{m.deck})
	m.cover.notices, m.cover.noticesTitle = msg.problems, "reloadTitle"
	m.notice = fmt.Sprintf(tr("reloaded", m.c.lang), len(msg.all), len(msg.problems))
}

// editCmd opens the open scenario's file in the lecturer's editor, then
// reloads.
func (m Model) editCmd() tea.Cmd {
	p := m.active().Status().place
	if m.shell.edit == nil || !p.has() {
		return nil
	}
	cmd := m.shell.edit(p.written())
	if cmd == nil {
		return nil
	}
	return tea.ExecProcess(cmd, func(error) tea.Msg { return reloadMsg{} })
}
