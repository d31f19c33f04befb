package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Sizes that decide the layout.
const (
	minWidth, minHeight = 40, 12
	twoColumnWidth      = 80
	threeColumnWidth    = 120
	listWidth           = 24
	inputsWidth         = 44
	narrowInputsWidth   = 36
)

type layout int

const (
	layoutTooSmall layout = iota
	layoutOne
	layoutTwo
	layoutThree
)

func (m Model) layout() layout {
	switch {
	case m.width < minWidth || m.height < minHeight:
		return layoutTooSmall
	case m.width >= threeColumnWidth:
		return layoutThree
	case m.width >= twoColumnWidth:
		return layoutTwo
	}
	return layoutOne
}

// View renders the frame.
func (m Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.WindowTitle = "toolgate"
	if len(m.all) > 0 {
		v.WindowTitle = fmt.Sprintf("toolgate — %s %d", tr("scenario", m.lang), m.all[m.sel].Number)
	}
	return v
}

// Render is the frame as text: never wider than the terminal and never
// taller.
func (m Model) Render() string {
	return clamp(m.render(), m.width, m.height)
}

func (m Model) render() string {
	if m.layout() == layoutTooSmall {
		msg := fmt.Sprintf(tr("enlarge", m.lang), minWidth, minHeight, m.width, m.height)
		return lipgloss.Place(m.width, m.height, lipgloss.Center, lipgloss.Center,
			lipgloss.NewStyle().Width(m.width).Align(lipgloss.Center).Render(msg))
	}
	header := m.renderHeader()
	footer := m.help.ShortHelpView(m.keys.ShortHelp())
	bodyHeight := m.height - lipgloss.Height(header) - lipgloss.Height(footer)
	var body string
	switch {
	case m.showHelp:
		body = m.renderHelp(bodyHeight)
	case len(m.all) == 0:
		body = ""
	default:
		body = m.renderBody(bodyHeight)
	}
	body = lipgloss.NewStyle().Height(bodyHeight).MaxHeight(bodyHeight).Render(body)
	return lipgloss.JoinVertical(lipgloss.Left, header, body, footer)
}

func (m Model) renderHeader() string {
	left := m.styles.Header.App.Render(tr("app", m.lang))
	lang := "EN · 中文"
	if len(m.all) > 0 {
		lang = fmt.Sprintf("%s %d/%d · %s", tr("scenario", m.lang), m.all[m.sel].Number, len(m.all), "EN/中文")
	}
	right := m.styles.Header.Right.Render(lang)
	gap := m.width - lipgloss.Width(left) - lipgloss.Width(right)
	if gap < 1 {
		return left
	}
	return left + strings.Repeat(" ", gap) + right
}

func (m Model) renderBody(height int) string {
	gap := lipgloss.NewStyle().PaddingLeft(1).MarginLeft(1).
		Border(lipgloss.NormalBorder(), false, false, false, true).BorderForeground(m.styles.palette.Dim)
	switch m.layout() {
	case layoutThree:
		walkWidth := m.width - listWidth - inputsWidth - 6
		list := m.renderList(listWidth, height)
		walk := gap.Height(height).Render(m.renderWalk(walkWidth, height, false))
		inputs := gap.Height(height).Render(m.renderInputs(inputsWidth, height))
		return lipgloss.JoinHorizontal(lipgloss.Top, list, walk, inputs)
	case layoutTwo:
		walkWidth := m.width - narrowInputsWidth - 3
		walk := m.renderWalk(walkWidth, height, true)
		inputs := gap.Height(height).Render(m.renderInputs(narrowInputsWidth, height))
		return lipgloss.JoinHorizontal(lipgloss.Top, walk, inputs)
	}
	if m.showInputs {
		return m.renderInputs(m.width, height)
	}
	return m.renderWalk(m.width, height, true)
}

func (m Model) renderHelp(height int) string {
	title := m.styles.Walk.Heading.Render(tr("helpTitle", m.lang)) + "  " + m.styles.Dim.Render(tr("helpClose", m.lang))
	full := m.help
	full.ShowAll = true
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(1, 2).
		Render(title + "\n\n" + full.FullHelpView(m.keys.FullHelp()))
	return lipgloss.Place(m.width, height, lipgloss.Center, lipgloss.Center, box)
}

// clamp cuts every line to width and the frame to height, so that no
// frame ever spills, whatever the content and the terminal size.
func clamp(s string, width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > width {
			lines[i] = ansi.Truncate(l, width, "")
		}
	}
	return strings.Join(lines, "\n")
}

// truncate cuts plain text to a display width with an ellipsis.
func truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	return ansi.Truncate(s, width, "…")
}

// wrap wraps text to a display width (CJK-aware).
func wrap(s string, width int) string {
	if width <= 0 {
		return ""
	}
	return lipgloss.NewStyle().Width(width).Render(s)
}

// padRight pads a styled string with spaces to a display width.
func padRight(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-lipgloss.Width(s)))
}
