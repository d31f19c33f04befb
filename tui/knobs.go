package tui

import (
	"fmt"
	"strings"

	"toolgate/whatif"
)

// The what-if's knobs: every input a learner may change, each with its
// options, the current one in brackets; a window keeps the selected knob
// in view, and the one-column layout shows the selected knob alone.

// knobLines are a knob's name and options, the current option in
// brackets.
func (m whatIfModel) knobLines(c scene, i, width int) []string {
	st := c.styles
	k := whatif.Knobs()[i]
	cur := k.Current(c.input())
	name := k.Name(c.lang)
	var head string
	if i == m.cursor {
		head = st.List.Selected.Render(truncate("> "+name, width))
	} else {
		head = truncate("  "+name, width)
	}
	var opts []string
	for j := range k.Options {
		o := fmt.Sprintf("%d %s", j+1, k.Option(j, c.lang))
		if j == cur {
			o = "[" + o + "]"
		}
		opts = append(opts, o)
	}
	// Each option whole on its line, in Chinese too ("6 没有 scope").
	body := strings.Split(indentLines(wrapItems(opts, "  ", max(width-4, 1)), "    "), "\n")
	for j, l := range body {
		body[j] = st.Dim.Render(l)
	}
	return append([]string{head}, body...)
}

// renderKnob is the one-column layout's knob bar: which knob of how many,
// and its options.
func (m whatIfModel) renderKnob(c scene, width int) string {
	lines := []string{c.styles.List.Title.Render(truncate(fmt.Sprintf(tr("whatIfKnobOf", c.lang), m.cursor+1, len(whatif.Knobs()), len(m.history)), width))}
	lines = append(lines, m.knobLines(c, m.cursor, width)...)
	return strings.Join(lines, "\n")
}

// renderKnobs is the what-if menu: every knob with its options, in a
// window that keeps the selected knob in view.
func (m whatIfModel) renderKnobs(c scene, width, height int) string {
	st := c.styles
	head := []string{st.List.Title.Render(truncate(tr("whatIfTitle", c.lang), width)),
		st.Dim.Render(truncate(fmt.Sprintf(tr("whatIfCount", c.lang), len(m.history)), width)), ""}
	var lines []string
	anchor, end := 0, 0
	for i := range whatif.Knobs() {
		if i == m.cursor {
			anchor = len(lines)
		}
		lines = append(lines, m.knobLines(c, i, width)...)
		if i == m.cursor {
			end = len(lines)
		}
	}
	out := followed(lines, width, max(height-len(head), 1), anchor, end, c.moreHint)
	return strings.Join(head, "\n") + "\n" + out
}
