package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Sizes that decide the layout.
const (
	minWidth, minHeight = 40, 12
	twoColumnWidth      = 80
	threeColumnWidth    = 120
)

type layout int

const (
	layoutTooSmall layout = iota
	layoutOne
	layoutTwo
	layoutThree
)

func layoutFor(width, height int) layout {
	switch {
	case width < minWidth || height < minHeight:
		return layoutTooSmall
	case width >= threeColumnWidth:
		return layoutThree
	case width >= twoColumnWidth:
		return layoutTwo
	}
	return layoutOne
}

// columns are the widths of the panes for a terminal width: they grow with
// the terminal, so that a wide screen shows whole values instead of
// spending its width on padding. A zero width is a pane not shown.
type columns struct{ list, walk, inputs int }

// sepWidth is the width of " │ " between panes.
const sepWidth = 3

func columnsFor(width int) columns {
	switch layoutFor(width, minHeight) {
	case layoutThree:
		list := clampInt(width/5, 24, 36)
		inputs := clampInt(width*36/100, 44, 76)
		return columns{list: list, inputs: inputs, walk: width - list - inputs - 2*sepWidth}
	case layoutTwo:
		inputs := clampInt(width*2/5, 36, 48)
		return columns{inputs: inputs, walk: width - inputs - sepWidth}
	case layoutOne, layoutTooSmall: // the walk alone, below
	}
	return columns{walk: width}
}

func clampInt(v, lo, hi int) int { return max(lo, min(v, hi)) }

// column is a pane's text and the width it is given.
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
	return line + strings.Repeat(" ", max(0, width-w))
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
