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

// applyReload takes the reloaded scenarios, keeping the learner's place;
// what is wrong with the files is shown whole, as at start, instead of
// being lost behind the full screen. An experiment or a question in
// progress ends: its scenario may have changed under it.
func (m *Model) applyReload(msg reloadedMsg) {
	c := &m.c
	if msg.err != nil || len(msg.all) == 0 {
		// Nothing usable: keep what is shown, and say why.
		text := tr("reloadNone", c.lang)
		if msg.err != nil {
			text = msg.err.Error()
		}
		m.notices = append(append([]string{}, msg.problems...), text)
		m.noticesTitle = "reloadTitle"
		return
	}
	if m.mode == modeWhatIf {
		m.whatIf.stop(c)
		m.mode = m.back
	}
	c.reload(msg.all)
	switch m.mode {
	case modeQuiz:
		m.quiz = m.quiz.start(c)
	case modeRoom:
		m.room.q = question{}
	}
	m.notices, m.noticesTitle = msg.problems, "reloadTitle"
	c.notice = fmt.Sprintf(tr("reloaded", c.lang), len(msg.all), len(msg.problems))
}

// editCmd opens the open scenario's file in the lecturer's editor, then
// reloads.
func (m Model) editCmd() tea.Cmd {
	if m.edit == nil || !m.c.has() {
		return nil
	}
	cmd := m.edit(m.c.written())
	if cmd == nil {
		return nil
	}
	return tea.ExecProcess(cmd, func(error) tea.Msg { return reloadMsg{} })
}

// editable reports whether the open scenario came from a file the
// lecturer can edit.
func (m Model) editable() bool {
	return m.edit != nil && m.reload != nil && m.c.has() && m.edit(m.c.written()) != nil
}
