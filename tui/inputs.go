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

// inputsPane fits the inputs pane to a height: every field with its
// label whole (a long one on a line of its own), else with long labels
// cut, else only the fields the rule reads, the others counted. Beyond
// that it scrolls, from its anchor, the first marked field.
func (c scene) inputsPane(width, height int) (lines []string, anchor int) {
	for _, f := range []inputFit{{}, {cutLabels: true}, {compact: true}} {
		if lines, anchor = c.inputLines(width, f); len(lines) <= height {
			break
		}
	}
	return lines, anchor
}

// inputFit is how the inputs are fitted to the pane's height.
type inputFit struct {
	// compact counts the fields the rule does not read; cutLabels cuts
	// a label too long for its column; whole wraps every value (the
	// full view).
	compact, cutLabels, whole bool
}

// fullInputs is the full view: every field, every value whole, under its
// title; anchor is the first marked field.
func (c scene) fullInputs(width int) (lines []string, anchor int) {
	lines, anchor = c.inputLines(width, inputFit{whole: true})
	head := []string{c.styles.Walk.Heading.Render(truncate(tr("fullTitle", c.lang), width)),
		c.styles.Dim.Render(truncate(tr("fullClose", c.lang), width)), ""}
	return append(head, lines...), anchor + len(head)
}

// inputLines lists the input, fitted as fit says; anchor is the first
// marked line.
func (c scene) inputLines(width int, fit inputFit) (lines []string, anchor int) {
	compact, whole := fit.compact, fit.whole
	st := c.styles.Inputs
	reads := c.reads()
	lines = []string{st.Title.Render(tr("inputs", c.lang))}
	if cur := c.current(); cur > 0 && len(reads) > 0 {
		lines = append(lines, c.styles.Dim.Render(truncate(fmt.Sprintf(c.walk.ReadsBy, cur), width)))
	}
	r := inputRows{c: c, width: width, whole: whole, cutLabels: fit.cutLabels, anchor: -1}
	r.label = min(21, width/2)
	if whole {
		r.label = min(r.label, 16)
	}
	r.lines = lines
	fields := c.walk.Fields
	for _, section := range look.Sections(fields) {
		var in []look.Field
		for _, f := range fields {
			if f.Section == section {
				in = append(in, f)
			}
		}
		title := look.SectionTitle(section, c.lang)
		switch {
		case len(in) == 1 && in[0].Path == section && in[0].Absent:
			r.add(look.Reads(in[0], reads), title, "", true)
		case compact:
			r.compactSection(title, in, reads)
		default:
			r.section(title, in, reads)
		}
	}
	return r.lines, max(r.anchor, 0)
}

// inputRows builds the inputs pane's lines.
type inputRows struct {
	c                scene
	width, label     int
	whole, cutLabels bool
	lines            []string
	anchor           int
}

// add adds one field: label and value, marked when the current rule
// reads it. A marked value (or, in the full view, any value) that does
// not fit beside its label goes whole on the lines under it.
func (r *inputRows) add(marked bool, label, value string, absent bool) {
	st := r.c.styles.Inputs
	mark, ls, vs := "  ", st.Label, st.Value
	if absent {
		vs, value = st.Absent, look.Absent(r.c.lang)
	}
	if marked {
		mark, ls, vs = "> ", st.Marked, st.MarkedValue
		if r.anchor < 0 {
			r.anchor = len(r.lines)
		}
	}
	if value == "" {
		r.lines = append(r.lines, ls.Render(truncate(mark+label, r.width)))
		return
	}
	valueWidth := r.width - r.label - 2
	labelFits := lipgloss.Width(label) < r.label
	fits := labelFits && lipgloss.Width(value) <= valueWidth
	if fits || (!marked && !r.whole && (labelFits || r.cutLabels)) {
		l := padRight(truncate(label, r.label-1), r.label)
		r.lines = append(r.lines, ls.Render(mark+l)+vs.Render(truncate(value, valueWidth)))
		return
	}
	// The label whole on its line, the value under it: whole when
	// marked (or in the full view), else cut to the line.
	r.lines = append(r.lines, ls.Render(truncate(mark+label, r.width)))
	if !marked && !r.whole {
		r.lines = append(r.lines, "    "+vs.Render(truncate(value, r.width-4)))
		return
	}
	for _, p := range strings.Split(wrapValue(value, r.width-4), "\n") {
		r.lines = append(r.lines, "    "+vs.Render(p))
	}
}

// wrapValue wraps a value shown whole. A JSON array or object breaks
// after a comma where it can: `"d` / `ocumentId"]` would read as two
// names. A piece too long for a line is still broken inside.
func wrapValue(value string, width int) string {
	if !strings.HasPrefix(value, "[") && !strings.HasPrefix(value, "{") {
		return wrap(value, width)
	}
	items := strings.SplitAfter(value, ",")
	return wrapItems(items, "", width)
}

// compactSection lists only the fields the rule reads, counting the rest.
func (r *inputRows) compactSection(title string, in []look.Field, reads []string) {
	hidden := 0
	rest := inputRows{c: r.c, width: r.width, label: r.label, whole: r.whole, cutLabels: r.cutLabels, anchor: -1}
	for _, f := range in {
		if look.Reads(f, reads) {
			rest.add(true, f.Label, f.Value, f.Absent)
		} else {
			hidden++
		}
	}
	more := ""
	if hidden > 0 {
		// Say what the count is: fields this rule does not read, which i
		// shows.
		more = fmt.Sprintf(tr(map[bool]string{true: "moreField", false: "moreFields"}[hidden == 1], r.c.lang), hidden)
	}
	r.lines = append(r.lines, r.c.styles.Inputs.Section.Render(truncate(title, r.width-lipgloss.Width(more)))+r.c.styles.Dim.Render(more))
	if r.anchor < 0 && rest.anchor >= 0 {
		r.anchor = len(r.lines) + rest.anchor
	}
	r.lines = append(r.lines, rest.lines...)
}

// section lists every field; a contract's tool that no rule reads is
// one line.
func (r *inputRows) section(title string, in []look.Field, reads []string) {
	r.lines = append(r.lines, r.c.styles.Inputs.Section.Render(truncate(title, r.width)))
	for _, group := range groupTools(in) {
		k := toolKey(group[0])
		switch {
		case len(group) > 1 && !anyRead(group, reads) && !r.whole:
			r.add(false, k, toolSummary(group), false)
		case k != "":
			r.add(false, k, "", false)
			for _, f := range group {
				r.add(look.Reads(f, reads), "  "+strings.TrimPrefix(f.Label, k+"."), f.Value, f.Absent)
			}
		default:
			for _, f := range group {
				r.add(look.Reads(f, reads), f.Label, f.Value, f.Absent)
			}
		}
	}
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
