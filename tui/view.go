package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"

	"toolgate/scenarios"
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
// taller. Every part is cut to the width as it is laid out, so the frame
// is measured once.
func (m Model) Render() string {
	if m.present && m.layout() != layoutTooSmall {
		return clamp(m.renderPresenter(), m.width, m.height)
	}
	if m.layout() == layoutTooSmall {
		msg := fmt.Sprintf(tr("enlarge", m.lang), minWidth, minHeight, m.width, m.height)
		return clamp(lipgloss.Place(m.width, m.height, lipgloss.Center, lipgloss.Center,
			lipgloss.NewStyle().Width(m.width).Align(lipgloss.Center).Render(msg)), m.width, m.height)
	}
	header := clamp(m.renderHeader(), m.width, 1)
	footer := clamp(m.help.ShortHelpView(m.keys.ShortHelp()), m.width, 1)
	if m.notice != "" {
		footer = clamp(m.styles.Verdict.Label.Render("! "+m.notice), m.width, 1)
	}
	bodyHeight := m.height - 2
	var body string
	switch {
	case m.quiz.summary:
		body = joinColumns(bodyHeight, "", column{m.renderSummary(bodyHeight), m.width})
	case m.showHelp:
		body = joinColumns(bodyHeight, "", column{m.renderHelp(bodyHeight), m.width})
	case len(m.all) == 0:
		body = joinColumns(bodyHeight, "", column{"", m.width})
	default:
		body = m.renderBody(bodyHeight)
	}
	return header + "\n" + body + "\n" + footer
}

// renderHeader is the title, the tracks (the current one in brackets)
// and where the walk is; parts that do not fit are left out.
func (m Model) renderHeader() string {
	left := m.styles.Header.App.Render(tr("app", m.lang))
	var tabs []string
	for _, t := range scenarios.Tracks {
		title := scenarios.TrackTitle(t, m.lang)
		if t == m.track {
			tabs = append(tabs, m.styles.Header.Tab.Render("["+title+"]"))
		} else {
			tabs = append(tabs, m.styles.Dim.Render(title))
		}
	}
	middle := strings.Join(tabs, " ")
	right := ""
	if len(m.all) > 0 {
		r := fmt.Sprintf("%d/%d", m.all[m.sel].Number, len(m.all))
		if m.quiz.on {
			right, asked := m.quiz.score()
			r = fmt.Sprintf(tr("score", m.lang), right, asked) + " · " + r
		}
		right = m.styles.Header.Right.Render(r)
	}
	for _, parts := range [][]string{{left, middle, right}, {middle, right}, {middle}, {left}} {
		width := 0
		for _, p := range parts {
			width += lipgloss.Width(p)
		}
		gaps := len(parts) - 1
		if width+2*gaps > m.width {
			continue
		}
		if gaps == 0 {
			return parts[0]
		}
		space := m.width - width
		out := parts[0]
		for i, p := range parts[1:] {
			n := space / gaps
			if i == gaps-1 {
				n = space - (gaps-1)*(space/gaps)
			}
			out += strings.Repeat(" ", n) + p
		}
		return out
	}
	return left
}

func (m Model) renderBody(height int) string {
	sep := m.styles.Dim.Render(" │ ")
	switch m.layout() {
	case layoutThree:
		walkWidth := m.width - listWidth - inputsWidth - 2*3
		left := m.renderList(listWidth, height)
		if m.whatIf.on {
			left = m.renderKnobs(listWidth)
		}
		return joinColumns(height, sep,
			column{left, listWidth},
			column{m.renderWalk(walkWidth, height, false), walkWidth},
			column{m.renderInputs(inputsWidth, height), inputsWidth})
	case layoutTwo:
		walkWidth := m.width - narrowInputsWidth - 3
		right := m.renderInputs(narrowInputsWidth, height)
		if m.whatIf.on {
			right = m.renderKnobs(narrowInputsWidth)
		}
		return joinColumns(height, sep,
			column{m.renderWalk(walkWidth, height, true), walkWidth},
			column{right, narrowInputsWidth})
	}
	if m.whatIf.on && !m.showInputs {
		return joinColumns(height, "", column{m.renderKnobs(m.width) + "\n\n" + m.renderWalk(m.width, height, true), m.width})
	}
	if m.showInputs {
		return joinColumns(height, "", column{m.renderInputs(m.width, height), m.width})
	}
	return joinColumns(height, "", column{m.renderWalk(m.width, height, true), m.width})
}

func (m Model) renderHelp(height int) string {
	title := m.styles.Walk.Heading.Render(tr("helpTitle", m.lang)) + "  " + m.styles.Dim.Render(tr("helpClose", m.lang))
	full := m.help
	full.ShowAll = true
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(1, 2).
		Render(title + "\n\n" + full.FullHelpView(m.keys.FullHelp()))
	return lipgloss.Place(m.width, height, lipgloss.Center, lipgloss.Center, box)
}

// column is a panel's text and the width it is given.
type column struct {
	text  string
	width int
}

// joinColumns lays columns side by side, each line cut or padded to its
// column's width, height lines in all. It measures every line once, which
// keeps a frame well under a millisecond.
func joinColumns(height int, sep string, cols ...column) string {
	split := make([][]string, len(cols))
	for i, c := range cols {
		split[i] = strings.Split(c.text, "\n")
	}
	var b strings.Builder
	for row := range height {
		if row > 0 {
			b.WriteByte('\n')
		}
		for i, c := range cols {
			if i > 0 {
				b.WriteString(sep)
			}
			line := ""
			if row < len(split[i]) {
				line = split[i][row]
			}
			b.WriteString(fitWidth(line, c.width))
		}
	}
	return b.String()
}

// fitWidth cuts or pads a styled line to exactly width cells.
func fitWidth(line string, width int) string {
	w := ansi.StringWidth(line)
	switch {
	case w > width:
		line = ansi.Truncate(line, width, "")
		w = ansi.StringWidth(line)
	case w == width:
		return line
	}
	return line + strings.Repeat(" ", width-w)
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

// wrap wraps plain text to a display width at the line-break
// opportunities of Unicode's line-breaking rules (UAX #14): after spaces,
// and between CJK characters, so Chinese wraps like Chinese and an English
// word inside it stays whole. A word longer than the width is cut.
func wrap(s string, width int) string {
	if width <= 0 {
		return ""
	}
	var out, line strings.Builder
	lineWidth := 0
	flush := func() {
		out.WriteString(strings.TrimRight(line.String(), " "))
		line.Reset()
		lineWidth = 0
	}
	for i, para := range strings.Split(s, "\n") {
		if i > 0 {
			out.WriteByte('\n')
		}
		state := -1
		for para != "" {
			var seg string
			var mustBreak bool
			seg, para, mustBreak, state = uniseg.FirstLineSegmentInString(para, state)
			segWidth := ansi.StringWidth(strings.TrimRight(seg, " "))
			if lineWidth > 0 && lineWidth+segWidth > width {
				flush()
				out.WriteByte('\n')
			}
			if segWidth > width {
				seg = ansi.Hardwrap(seg, width, true)
				if k := strings.LastIndexByte(seg, '\n'); k >= 0 {
					out.WriteString(seg[:k+1])
					seg = seg[k+1:]
				}
			}
			line.WriteString(seg)
			lineWidth += ansi.StringWidth(seg)
			if mustBreak && para != "" {
				flush()
				out.WriteByte('\n')
			}
		}
		flush()
	}
	return out.String()
}

// padRight pads a styled string with spaces to a display width.
func padRight(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-lipgloss.Width(s)))
}
