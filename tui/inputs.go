package tui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"toolgate/look"
)

// The inputs pane shows every part of the input, absent ones as absent,
// with the fields the current rule reads marked. A marked value is never
// cut: it wraps under its label. When the pane is too short, fields no rule
// is reading are counted instead of listed; beyond that it scrolls to the
// first marked field. The full view (i) shows every value whole.

// reads are the paths the current step reads.
func (c *common) reads() []string {
	if cur := c.current(); cur > 0 && cur <= len(c.walk.Steps) {
		return c.walk.Steps[cur-1].Reads
	}
	return nil
}

// renderInputs fits the inputs pane to a height.
func (c *common) renderInputs(width, height int) string {
	lines, anchor := c.inputLines(width, false, false)
	if len(lines) > height {
		lines, anchor = c.inputLines(width, true, false)
	}
	out, _ := scrolled(lines, width, height, anchor, anchor+1, c.inputsScroll, c.scrollHint)
	return out
}

// renderFullInputs is the full view: every field, every value whole.
func (c *common) renderFullInputs(width, height int) string {
	lines, anchor := c.inputLines(width, false, true)
	head := []string{c.styles.Walk.Heading.Render(truncate(tr("fullTitle", c.lang), width)),
		c.styles.Dim.Render(truncate(tr("fullClose", c.lang), width)), ""}
	lines = append(head, lines...)
	out, _ := scrolled(lines, width, height, anchor+len(head), anchor+len(head)+1, c.inputsScroll, c.scrollHint)
	return out
}

// inputLines lists the input; anchor is the first marked line. Compact
// counts the unmarked fields; whole wraps every value, not only the
// marked ones.
func (c *common) inputLines(width int, compact, whole bool) (lines []string, anchor int) {
	st := c.styles.Inputs
	reads := c.reads()
	anchor = -1
	lines = []string{st.Title.Render(tr("inputs", c.lang))}
	if cur := c.current(); cur > 0 && len(reads) > 0 {
		lines = append(lines, c.styles.Dim.Render(truncate(fmt.Sprintf(c.walk.ReadsBy, cur), width)))
	}
	labelWidth := min(21, width/2)
	if whole {
		labelWidth = min(labelWidth, 16)
	}
	valueWidth := width - labelWidth - 2
	row := func(marked bool, label, value string, absent bool) []string {
		mark, ls, vs := "  ", st.Label, st.Value
		if absent {
			vs = st.Absent
			value = look.Absent(c.lang)
		}
		if marked {
			mark, ls, vs = "> ", st.Marked, st.MarkedValue
			if anchor < 0 {
				anchor = len(lines)
			}
		}
		if value == "" {
			return []string{ls.Render(truncate(mark+label, width))}
		}
		l := padRight(truncate(label, labelWidth-1), labelWidth)
		fits := lipgloss.Width(label) < labelWidth && lipgloss.Width(value) <= valueWidth
		if fits || (!marked && !whole) {
			return []string{ls.Render(mark+l) + vs.Render(truncate(value, valueWidth))}
		}
		// A field a rule reads is shown whole: the label on its line, the
		// value wrapped under it.
		out := []string{ls.Render(truncate(mark+label, width))}
		for _, p := range strings.Split(hardWrap(value, width-4), "\n") {
			out = append(out, "    "+vs.Render(p))
		}
		return out
	}
	fields := c.walk.Fields
	for _, section := range look.Sections(fields) {
		title := look.SectionTitle(section, c.lang)
		var in []look.Field
		for _, f := range fields {
			if f.Section == section {
				in = append(in, f)
			}
		}
		if len(in) == 1 && in[0].Path == section && in[0].Absent {
			lines = append(lines, row(look.Reads(in[0], reads), title, "", true)...)
			continue
		}
		if compact {
			hidden := 0
			var shown []string
			for _, f := range in {
				if look.Reads(f, reads) {
					shown = append(shown, row(true, f.Label, f.Value, f.Absent)...)
				} else {
					hidden++
				}
			}
			more := ""
			if hidden > 0 {
				more = fmt.Sprintf(" (+%d)", hidden)
			}
			lines = append(lines, st.Section.Render(truncate(title, width-lipgloss.Width(more)))+c.styles.Dim.Render(more))
			lines = append(lines, shown...)
			continue
		}
		lines = append(lines, st.Section.Render(truncate(title, width)))
		for _, group := range groupTools(in) {
			if len(group) > 1 && !anyRead(group, reads) && !whole {
				lines = append(lines, row(false, toolKey(group[0]), toolSummary(group), false)...)
				continue
			}
			if k := toolKey(group[0]); k != "" {
				lines = append(lines, row(false, k, "", false)...)
				for _, f := range group {
					lines = append(lines, row(look.Reads(f, reads), "  "+strings.TrimPrefix(f.Label, k+"."), f.Value, f.Absent)...)
				}
				continue
			}
			for _, f := range group {
				lines = append(lines, row(look.Reads(f, reads), f.Label, f.Value, f.Absent)...)
			}
		}
	}
	if anchor < 0 {
		anchor = 0
	}
	return lines, anchor
}

// hardWrap wraps a value (JSON text, often without spaces) at spaces where
// it can and anywhere where it must.
func hardWrap(s string, width int) string {
	if width <= 0 {
		return ""
	}
	return wrap(s, width)
}

// groupTools groups a contract's fields by tool, so that a tool no rule is
// reading can be shown on one line. Other fields are groups of one.
func groupTools(fields []look.Field) [][]look.Field {
	var out [][]look.Field
	for _, f := range fields {
		k := toolKey(f)
		if k != "" && len(out) > 0 && toolKey(out[len(out)-1][0]) == k {
			out[len(out)-1] = append(out[len(out)-1], f)
			continue
		}
		out = append(out, []look.Field{f})
	}
	return out
}

// toolKey is "tools[0]" for a field of a contract tool, else "".
func toolKey(f look.Field) string {
	if !strings.HasPrefix(f.Label, "tools[") {
		return ""
	}
	k, _, _ := strings.Cut(f.Label, ".")
	return k
}

func anyRead(fields []look.Field, reads []string) bool {
	for _, f := range fields {
		if look.Reads(f, reads) {
			return true
		}
	}
	return false
}

// toolSummary is a tool on one line: name, version and effect class.
func toolSummary(fields []look.Field) string {
	var parts []string
	for _, f := range fields {
		switch {
		case f.Absent:
		case strings.HasSuffix(f.Label, ".name"), strings.HasSuffix(f.Label, ".version"), strings.HasSuffix(f.Label, ".effectClass"):
			parts = append(parts, unquote(f.Value))
		}
	}
	return strings.Join(parts, " ")
}

func unquote(s string) string {
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}
