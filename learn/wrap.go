package learn

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
)

// wrap wraps plain text to a display width at the line-break
// opportunities of Unicode's line-breaking rules (UAX #14): after spaces,
// and between CJK characters, so Chinese wraps like Chinese and an English
// word inside it stays whole. A word longer than the width is cut. It is
// the trainer's own wrap (tui/layout.go), which is not exported.
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
