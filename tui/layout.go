package tui

import (
	"regexp"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/viewport"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
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

// wrap wraps plain text to a display width at the line-break
// opportunities of Unicode's line-breaking rules (UAX #14): after spaces,
// and between CJK characters, so Chinese wraps like Chinese and an English
// word inside it stays whole. A word longer than the width is cut.
func wrap(s string, width int) string {
	if width <= 0 {
		return ""
	}
	// A range of numbers ("1–8") is one word: word joiners keep its dash
	// from being a place to break, and go once it is wrapped.
	s = numberRange.ReplaceAllString(s, "$1\u2060–\u2060")
	paras := strings.Split(s, "\n")
	for i, para := range paras {
		paras[i] = strings.Join(noOrphan(wrapPara(para, width), width), "\n")
	}
	return strings.ReplaceAll(strings.Join(paras, "\n"), "\u2060", "")
}

// numberRange is a number before the dash of a range.
var numberRange = regexp.MustCompile(`([0-9])–`)

// wrapPara wraps one paragraph into lines.
func wrapPara(para string, width int) []string {
	var out strings.Builder
	var line strings.Builder
	lineWidth := 0
	flush := func() {
		out.WriteString(strings.TrimRight(line.String(), " "))
		line.Reset()
		lineWidth = 0
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
	return strings.Split(out.String(), "\n")
}

// noOrphan keeps a paragraph's last line from being one Chinese
// character alone ("时", "录？"): the character before it, where a line
// may break between the two, goes down with it. An opening bracket or
// quote left at the end of the line above goes down too.
func noOrphan(lines []string, width int) []string {
	n := len(lines)
	if n < 2 {
		return lines
	}
	last := []rune(lines[n-1])
	han := 0
	for _, r := range last {
		switch {
		case unicode.Is(unicode.Han, r):
			han++
		case unicode.IsPunct(r):
		default:
			return lines
		}
	}
	if han != 1 || !unicode.Is(unicode.Han, last[0]) {
		return lines
	}
	prev := []rune(lines[n-2])
	k := len(prev) - 1
	if k < 2 || !unicode.Is(unicode.Han, prev[k]) {
		return lines
	}
	for k > 1 && strings.ContainsRune("（“《「『【‘(", prev[k-1]) {
		k--
	}
	moved := string(prev[k:]) + string(last)
	if ansi.StringWidth(moved) > width {
		return lines
	}
	out := append([]string(nil), lines...)
	out[n-2], out[n-1] = strings.TrimRight(string(prev[:k]), " "), moved
	return out
}

// wrapItems lays items out in lines of width, sep between them on a
// line, never breaking an item where it fits a line of its own ("7 写入
// 未获有效批准" stays whole); an item wider than the width wraps alone.
func wrapItems(items []string, sep string, width int) string {
	var lines []string
	line := ""
	for _, it := range items {
		switch {
		case line == "":
			line = it
		case ansi.StringWidth(line+sep+it) <= width:
			line += sep + it
		default:
			lines = append(lines, line)
			line = it
		}
		if ansi.StringWidth(line) > width {
			wrapped := strings.Split(wrap(line, width), "\n")
			lines = append(lines, wrapped[:len(wrapped)-1]...)
			line = wrapped[len(wrapped)-1]
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// wrapStyled wraps text that may carry colour codes at its spaces. A
// Chinese line painted in one style (the quiz's marks, its questions)
// wraps as Chinese does, between its characters, and each line is
// painted again.
func wrapStyled(s string, width int) string {
	if width <= 0 {
		return ""
	}
	pre := leadingSGR.FindString(s)
	rest := s[len(pre):]
	post := trailingSGR.FindString(rest)
	inner := rest[:len(rest)-len(post)]
	if strings.Contains(inner, "\x1b") || !hasHan(inner) {
		return ansi.Wrap(s, width, "")
	}
	lines := strings.Split(wrap(inner, width), "\n")
	if pre != "" || post != "" {
		for i, l := range lines {
			lines[i] = pre + l + post
		}
	}
	return strings.Join(lines, "\n")
}

// hasHan reports whether text has a Chinese character.
func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// leadingSGR and trailingSGR are the colour codes around a line painted
// in one style.
var (
	leadingSGR  = regexp.MustCompile(`^(\x1b\[[0-9;:]*m)+`)
	trailingSGR = regexp.MustCompile(`(\x1b\[[0-9;:]*m)+$`)
)

// padRight pads a styled string with spaces to a display width.
func padRight(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-lipgloss.Width(s)))
}

func indentLines(s, indent string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = indent + l
	}
	return strings.Join(lines, "\n")
}

func placeCenter(s string, width, height int) string {
	return lipgloss.Place(width, height, lipgloss.Center, lipgloss.Center, s)
}

// lineCount is the number of lines of a text ("" is one line).
func lineCount(s string) int { return strings.Count(s, "\n") + 1 }

// scrolled shows height lines of a pane's content through a viewport. The
// window starts at the content's anchor line (what must be seen: the
// verdict, the current rule, the selected knob) moved by the learner's own
// scrolling; when the content does not fit, the first or last line says
// how much more there is and which keys show it, so that nothing is cut
// off without a word. It also returns the learner's offset as far as it
// took effect: clamped so that the window stays on the content.
func scrolled(lines []string, width, height, anchor, anchorEnd, userOffset int, hint func(above, below int) (string, string)) (string, int) {
	if height <= 0 {
		return "", 0
	}
	if len(lines) <= height {
		return strings.Join(lines, "\n"), 0
	}
	// Room for the two hint lines.
	inner := max(height-2, 1)
	start := 0
	if anchorEnd > inner {
		// Show the whole anchor block if it fits, its start if not.
		start = anchorEnd - inner
		if anchorEnd-anchor > inner {
			start = anchor
		}
	}
	offset := clampInt(start+userOffset, 0, len(lines)-inner)
	vp := viewport.New(viewport.WithWidth(width), viewport.WithHeight(inner))
	vp.SetContentLines(lines)
	vp.SetYOffset(offset)
	above, below := offset, len(lines)-offset-inner
	up, down := hint(above, below)
	return up + "\n" + vp.View() + "\n" + down, offset - start
}

// scrollUsed is, for one frame, the learner's scroll offsets as the panes
// drawn used them (see Model.clampScroll).
type scrollUsed struct {
	scroll, inputs       int
	sawScroll, sawInputs bool
}

// scrolledPane is scrolled for a pane the learner scrolls with J/K and
// the wheel (the walk, the path, the presenter, the notes).
func (c *common) scrolledPane(lines []string, width, height, anchor, anchorEnd int, hint func(above, below int) (string, string)) string {
	out, used := scrolled(lines, width, height, anchor, anchorEnd, c.scroll, hint)
	if c.used != nil {
		c.used.scroll, c.used.sawScroll = used, true
	}
	return out
}

// scrolledInputs is scrolled for the inputs, which scroll on their own.
func (c *common) scrolledInputs(lines []string, width, height, anchor, anchorEnd int) string {
	out, used := scrolled(lines, width, height, anchor, anchorEnd, c.inputsScroll, c.scrollHint)
	if c.used != nil {
		c.used.inputs, c.used.sawInputs = used, true
	}
	return out
}
