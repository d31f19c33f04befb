package tui

import (
	"fmt"
	"strings"

	"toolgate/assess"
	"toolgate/scenarios"
	"toolgate/whatif"
)

// The path to allowed answers "what is missing to get allowed?" for the
// input shown: the smallest set of what-if knob changes that makes the
// verdict allowed, and for each rule that passed, the change that makes it
// fire. whatif.PathToAllowed asks assess about every candidate; this only
// renders it. It is computed when the panel opens (it can take a few
// milliseconds), not on every frame.

// pathPanel is the open panel: the path, for the input it was computed on.
type pathPanel struct {
	path  whatif.Path
	input assess.Input
}

// canPath reports whether the path applies to the open scenario: it is
// computed over the admission knobs.
func canPath(p *place) bool { return p.has() && p.track() == scenarios.TrackAdmission }

func openPath(p *place) *pathPanel {
	in := admissionInput(p.scenario())
	return &pathPanel{path: whatif.PathToAllowed(in), input: in}
}

// lines render the panel for a width.
func (p *pathPanel) lines(c scene, width int) []string {
	st := c.styles
	l := c.lang
	v := p.path.Verdict
	out := []string{st.Walk.Heading.Render(truncate(tr("pathTitle", l), width)),
		st.Dim.Render(truncate(tr("pathKeys", l), width)), "",
		paint(st.tone(c.walk.Verdict.Tone), wrap(fmt.Sprintf(tr("pathNow", l), v.Status, v.CodeName()), width)), ""}
	add := func(s string) { out = append(out, strings.Split(s, "\n")...) }
	changes := func(cs whatif.Changes, indent string) {
		after := cs.Apply(p.input)
		for _, ch := range cs {
			add(hang(ch.Text(l), indent, width))
		}
		for _, e := range whatif.Edits(p.input, after) {
			add(paint(st.Dim, indentLines(wrap(e.Text(l), max(width-len(indent)-4, 1)), indent+"    ")))
		}
	}
	switch {
	case p.path.Allowed:
		add(wrap(tr("pathAlready", l), width))
	case !p.path.Reachable:
		add(wrap(tr("pathUnreachable", l), width))
	default:
		add(paint(st.Verdict.Label, wrap(tr("pathToAllowed", l), width)))
		changes(p.path.ToAllowed, "  ")
		for _, alt := range p.path.Alternatives {
			add(paint(st.Dim, hang(tr("pathOr", l)+alt.Text(l), "  ", width)))
		}
	}
	if nf := p.path.NotAFix; nf != nil {
		out = append(out, "")
		add(paint(st.Verdict.Label, wrap(tr("pathNotAFix", l), width)))
		add(hang(nf.Text(l), "  ", width))
		for _, ch := range nf {
			if why := ch.NotAFix(l); why != "" {
				add(paint(st.Dim, indentLines(wrap(ch.Knob.Name(l)+tr("colon", l)+why, max(width-4, 1)), "    ")))
			}
		}
	}
	if len(p.path.Fire) > 0 {
		out = append(out, "")
		add(paint(st.Verdict.Label, wrap(tr("pathFire", l), width)))
		for _, f := range p.path.Fire {
			head := fmt.Sprintf("%d %s", f.Rule, f.Rule.Title(l))
			if len(f.Changes) == 0 {
				add(paint(st.Dim, hang(head+tr("colon", l)+tr("pathNoKnob", l), "  ", width)))
				continue
			}
			add(hang(head+tr("colon", l)+f.Changes.Text(l), "  ", width))
			add(paint(st.Dim, wrap(fmt.Sprintf("      → %s/%s", f.Verdict.Status, f.Verdict.CodeName()), width)))
		}
	}
	return out
}

// hang wraps an item of the path at indent, its continuation lines two
// cells further in, so that a wrapped change reads as one.
func hang(text, indent string, width int) string {
	rest := indent + "  "
	lines := strings.Split(wrap(text, max(width-len(rest), 1)), "\n")
	for i := range lines {
		if i == 0 {
			lines[i] = indent + lines[i]
			continue
		}
		lines[i] = rest + lines[i]
	}
	return strings.Join(lines, "\n")
}
