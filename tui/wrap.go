package tui

import (
	"regexp"
	"strings"
	"unicode"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
)

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
