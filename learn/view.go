package learn

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"toolgate/assess"
	"toolgate/look"
)

// fixedRows are the rows the view takes besides the detail pane: the
// header, a line per stage, the rule under them, the footer.
const fixedRows = 1 + NumStages + 1 + 1

// layout sizes the detail pane to what the stages and footer leave.
func (m *Model) layout() {
	rows := fixedRows
	if m.showHelp {
		rows += 3
	}
	m.vp.SetWidth(max(1, m.width))
	m.vp.SetHeight(max(1, m.height-rows))
	m.help.SetWidth(m.width)
	m.refresh(false)
}

// refresh puts the detail of the board into the pane; top scrolls it
// back to its start.
func (m *Model) refresh(top bool) {
	m.vp.SetContent(m.detail(max(20, m.width)))
	if top {
		m.vp.GotoTop()
	}
}

// View draws the header, the stages, the detail pane and the footer.
func (m Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.WindowTitle = "toolgate learn"
	return v
}

// Render is the frame as text: what View shows.
func (m Model) Render() string {
	s := m.styles
	l := m.human
	var lines []string
	right := texts.Waiting.in(l)
	switch {
	case m.running:
		right = texts.Running.in(l)
	case m.last != nil:
		right = fmt.Sprintf(texts.Run.in(l), m.runs, m.last.Took.Seconds())
	}
	left := s.App.Render(texts.App.in(l)) + s.Dim.Render(" · "+m.opts.Lang.Title()+" · "+m.opts.Dir)
	gap := m.width - lipgloss.Width(left) - lipgloss.Width(right)
	if gap < 1 {
		left = ansi.Truncate(left, max(0, m.width-lipgloss.Width(right)-2), "…")
		gap = max(1, m.width-lipgloss.Width(left)-lipgloss.Width(right))
	}
	lines = append(lines, left+strings.Repeat(" ", gap)+s.Right.Render(right))
	b := m.board
	if m.last == nil {
		b = emptyBoard(m.opts.Lang)
	}
	for i, text := range StageLines(b, l) {
		st := b.Stages[i]
		style := s.Stage.Pass
		switch mark := st.Mark(b.Current); {
		case mark == "·":
			style = s.Stage.Locked
		case mark == look.No:
			style = s.Stage.Now
		case mark == "○":
			style = s.tone(look.ToneHold)
		}
		lines = append(lines, " "+style.Render(text))
	}
	lines = append(lines, s.Rule.Render(strings.Repeat("─", max(0, m.width))))
	lines = append(lines, m.vp.View())
	if m.showHelp {
		lines = append(lines, m.help.View(m.keys))
	} else if m.notice != "" {
		lines = append(lines, s.Hint.Render(m.notice))
	} else {
		lines = append(lines, m.help.ShortHelpView(m.keys.ShortHelp()))
	}
	out := strings.Split(strings.Join(lines, "\n"), "\n")
	if len(out) > m.height {
		out = out[:max(0, m.height)]
	}
	for i, line := range out {
		if lipgloss.Width(line) > m.width {
			out[i] = ansi.Truncate(line, m.width, "")
		}
	}
	return strings.Join(out, "\n")
}

// emptyBoard is the board before the first run: every stage, nothing
// counted.
func emptyBoard(l Lang) Board {
	b := Board{Lang: l}
	for _, v := range Vectors() {
		b.Stages[StageOf(v)-1].Total++
	}
	for i := range b.Stages {
		b.Stages[i].Number, b.Stages[i].Locked = i+1, true
	}
	return b
}

// detail is the pane under the stages: the hints asked for, then what the
// board says, wrapped to width.
func (m Model) detail(width int) string {
	s := m.styles
	l := m.human
	var out []string
	if m.last == nil {
		return s.Dim.Render(texts.Waiting.in(l))
	}
	if m.hint > 0 {
		for level := 1; level <= m.hint; level++ {
			label := fmt.Sprintf(texts.Hint.in(l), level, MaxHint) + strings.TrimRight(l.Colon(), " ")
			out = append(out, wrapLabelled(s.Hint.Render(label), lipgloss.Width(label), Hint(m.board, level, l), width, s.Hint)...)
		}
		out = append(out, "")
	}
	for i, blk := range Blocks(m.board, l) {
		if i > 0 {
			out = append(out, "")
		}
		if blk.Heading != "" {
			for _, h := range strings.Split(wrap(blk.Heading, width), "\n") {
				out = append(out, s.tone(blk.Tone).Render(h))
			}
		}
		labelW := 0
		for _, ln := range blk.Lines {
			if ln.Step == 0 && ln.Label != "|" {
				labelW = max(labelW, lipgloss.Width(ln.Label))
			}
		}
		for _, ln := range blk.Lines {
			out = append(out, m.line(ln, labelW, width)...)
		}
	}
	if b := m.board; b.State == StateFailing || b.State == StateRed {
		out = append(out, "", s.Dim.Render(texts.HintKey.in(l)))
	}
	return strings.Join(out, "\n")
}

// line lays out one line of a block: a label and its text wrapped beside
// it, a step of the walk with its explanation under it, or prose.
func (m Model) line(ln Line, labelW, width int) []string {
	s := m.styles
	switch {
	case ln.Step == assess.Passed:
		// A passed rule on one line; the hints quote it whole when it
		// matters.
		return []string{s.Step.Passed.Render(ansi.Truncate("  "+ln.Label+" — "+ln.Text, width, "…"))}
	case ln.Step != 0:
		out := []string{s.Step.Fired.Render("  " + ln.Label)}
		for _, w := range strings.Split(ansi.Wrap(ln.Text, max(10, width-6), ""), "\n") {
			out = append(out, "      "+s.Step.Fired.Render(w))
		}
		return out
	case ln.Label == "|":
		return []string{s.Dim.Render("  | " + ansi.Truncate(ln.Text, max(1, width-4), "…"))}
	case ln.Label == "":
		return strings.Split(wrap(ln.Text, width), "\n")
	}
	label := pad(ln.Label, labelW)
	text := ln.Text
	if ln.Label == texts.Input.in(m.human) && !m.fullIn {
		// One line of the input; i shows it whole.
		return []string{s.Label.Render(label) + "  " + ansi.Truncate(text, max(1, width-labelW-2), "…")}
	}
	return wrapLabelled(s.Label.Render(label), labelW, text, width, lipgloss.NewStyle())
}

// wrapLabelled writes text wrapped beside a label of width labelW, its
// continuation lines under the text.
func wrapLabelled(label string, labelW int, text string, width int, st lipgloss.Style) []string {
	room := max(10, width-labelW-2)
	wrapped := wrap(text, room)
	if !strings.Contains(text, " ") {
		// JSON on one line: cut it at the edge, not at a hyphen.
		wrapped = ansi.Hardwrap(text, room, false)
	}
	lines := strings.Split(wrapped, "\n")
	out := make([]string, len(lines))
	for i, w := range lines {
		if i == 0 {
			out[i] = label + "  " + st.Render(w)
		} else {
			out[i] = strings.Repeat(" ", labelW+2) + st.Render(w)
		}
	}
	return out
}
