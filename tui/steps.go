package tui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/scenarios"
	"toolgate/walk"
)

// The walk's steps, each a row of its mark, number, title and the word
// that answers it: the input check, the rules before the current one
// (folded into runs), the current one with its question and explanation,
// those after it, and the verdict from boxed to one line.

// headingPart is the walk's heading with the input check before it: the
// two layers, toolgate's check then the book's rules. Folded, the check
// keeps to one line, then the heading goes; folded again, both go.
func (c scene) headingPart(width int) part {
	st := c.styles.Walk
	heading := paint(st.Heading, wrap(c.walk.Heading, width))
	chk := c.walk.Check
	if chk == nil {
		return part{alts: []string{"\n" + heading, ""}}
	}
	// The check is not a question the way a rule is: it passed, or it
	// refused the input.
	mark, word, style := look.Yes, look.OutcomeWord(assess.Passed, c.lang), st.Passed
	if !chk.Passed {
		mark, word, style = look.No, tr("refused", c.lang), c.styles.tone(look.ToneBad)
	}
	wordWidth := 0
	for _, o := range []assess.Outcome{assess.Passed, assess.Fired, assess.NotReached} {
		wordWidth = max(wordWidth, lipgloss.Width(look.OutcomeLabel(o, c.lang)))
	}
	pad := strings.Repeat(" ", len(fmt.Sprint(len(c.walk.Steps))))
	lead := " " + mark + " " + pad + " "
	line := paint(style, titleRow(lead, chk.Title, word, width, wordWidth))
	// Folded, the check keeps to one line, its title cut: it is
	// toolgate's own line, not one of the rules.
	cut := style.Render(padRight(truncate(lead+chk.Title, width-wordWidth-1), width-wordWidth) + word)
	return part{alts: []string{"\n" + heading + "\n" + line, "\n" + heading + "\n" + cut, "\n" + cut, ""}}
}

// titleRow is a step's row: its lead (mark and number), its title and,
// in a column of wordWidth at the right, the word that answers it. A
// title that does not fit wraps under itself rather than being cut ("5
// Timed out, effect unkno…"); a step not asked yet has no word and uses
// the whole width. On a pane too narrow to wrap sensibly it is cut.
func titleRow(lead, title, word string, width, wordWidth int) string {
	room := width - lipgloss.Width(lead)
	if word != "" {
		room -= wordWidth + 1
	}
	if lipgloss.Width(title) <= room || room < 10 {
		row := truncate(lead+title, lipgloss.Width(lead)+max(room, 0))
		if word == "" {
			return row
		}
		return padRight(row, width-wordWidth) + word
	}
	lines := strings.Split(wrap(title, room), "\n")
	indent := strings.Repeat(" ", lipgloss.Width(lead))
	out := lead + lines[0]
	if word != "" {
		out = padRight(out, width-wordWidth) + word
	}
	for _, l := range lines[1:] {
		out += "\n" + indent + l
	}
	return out
}

// ruleParts renders the steps: those before the current one (folded, a run
// of passed steps becomes one line), the current one with its question and
// explanation, and those after it (not reached, or not yet asked).
func (c scene) ruleParts(width int) (before, current, after part) {
	st := c.styles.Walk
	steps := c.walk.Steps
	cur := c.current()
	wordWidth := 0
	for _, o := range []assess.Outcome{assess.Passed, assess.Fired, assess.NotReached} {
		wordWidth = max(wordWidth, lipgloss.Width(look.OutcomeLabel(o, c.lang)))
	}
	numWidth := len(fmt.Sprint(len(steps)))
	head := func(n int, mark, word string, style ink) string {
		return paint(style, titleRow(fmt.Sprintf(" %s %*d ", mark, numWidth, n), steps[n-1].Title, word, width, wordWidth))
	}
	// Before the current step.
	var full, folded []string
	for _, r := range c.runsBefore() {
		word := look.OutcomeLabel(r.outcome, c.lang)
		if r.outcome != assess.Passed {
			line := head(r.from, look.OutcomeSymbol(r.outcome), word, c.styles.tone(c.walk.Verdict.Tone))
			full, folded = append(full, line), append(folded, line)
			continue
		}
		for n := r.from; n <= r.to; n++ {
			full = append(full, head(n, look.OutcomeSymbol(assess.Passed), word, st.Passed))
		}
		folded = append(folded, st.Passed.Render(truncate(" "+look.OutcomeSymbol(assess.Passed)+" "+span(r.from, r.to)+" "+word, width)))
	}
	if len(full) > 0 {
		before = part{alts: []string{strings.Join(full, "\n"), strings.Join(folded, "\n"), ""}}
	}
	// The current step.
	if cur > 0 {
		step := steps[cur-1]
		mark, word, style := c.currentLook()
		h := head(cur, mark, word, style)
		indent := "     "
		q := paint(st.Question, indentLines(wrap(step.Question, width-len(indent)), indent))
		e := paint(st.Explain, indentLines(wrap(step.Explanation, width-len(indent)), indent))
		if a := c.asideText(step.Aside, width-len(indent)); a != "" {
			e += "\n" + indentLines(a, indent)
		}
		current = part{alts: []string{h + "\n" + q + "\n" + e, h + "\n" + e, h}}
	}
	// After it.
	if cur < len(steps) {
		var lines []string
		var summary string
		if c.reached() {
			for n := cur + 1; n <= len(steps); n++ {
				lines = append(lines, head(n, look.OutcomeSymbol(assess.NotReached), look.OutcomeLabel(assess.NotReached, c.lang), st.NotReached))
			}
			summary = " " + look.OutcomeSymbol(assess.NotReached) + " " + span(cur+1, len(steps)) + " " + look.OutcomeLabel(assess.NotReached, c.lang)
		} else {
			for n := cur + 1; n <= len(steps); n++ {
				lines = append(lines, head(n, "·", "", st.Pending))
			}
			summary = " · " + span(cur+1, len(steps)) + " " + tr("notAsked", c.lang)
		}
		after = part{alts: []string{strings.Join(lines, "\n"), st.NotReached.Render(truncate(summary, width)), ""}}
	}
	return before, current, after
}

// currentLook is how the current step is marked, in the walk and on the
// projector: passed, in the explanation's style, or fired, in the
// verdict's tone.
func (c scene) currentLook() (mark, word string, style ink) {
	o := c.walk.Steps[c.current()-1].Outcome
	if o == assess.Fired {
		return look.OutcomeSymbol(o), look.OutcomeLabel(o, c.lang), c.styles.tone(c.walk.Verdict.Tone)
	}
	return look.OutcomeSymbol(assess.Passed), look.OutcomeLabel(assess.Passed, c.lang), c.styles.Walk.Explain
}

// where says how far a walk shown up to step is, the step and the number
// of steps in format ("rule 3/8"), or at the verdict which step decided.
func (c scene) where(step int, format string) string {
	if step > c.walk.Decisive {
		return fmt.Sprintf(tr("atVerdict", c.lang), c.stepWord(), c.walk.Decisive)
	}
	return fmt.Sprintf(format, c.stepWord(), step, len(c.walk.Steps))
}

// span is "3" or "3–7".
func span(from, to int) string {
	if from == to {
		return fmt.Sprint(from)
	}
	return fmt.Sprintf("%d–%d", from, to)
}

// verdictAlt renders the verdict from the fullest (0) to the most compact
// (3): boxed with its label, boxed with the label on the headline,
// unboxed, and only the headline and what it does NOT prove.
func (c scene) verdictAlt(width, i int, hideCaveats bool) string {
	v := c.walk.Verdict
	tone := c.styles.tone(v.Tone)
	label := c.styles.Verdict.Label
	details := func(w int, only bool) []string {
		var out []string
		for _, d := range v.Details {
			if only && !d.Strong {
				continue
			}
			prefix := d.Label + tr("colon", c.lang)
			body := d.Text
			// Every line that limits the verdict would answer "which
			// of these does it NOT prove?": "allowed is not" as much
			// as the caveats.
			if hideCaveats && (d.Strong || d.Key == walk.DetailAllowedIsNot) {
				body = tr("caveatHidden", c.lang)
			}
			text := wrap(prefix+body, w)
			if d.Strong {
				text = boldPrefix(label, prefix, text)
			}
			out = append(out, text)
		}
		return out
	}
	border := inkOf(lipgloss.NewStyle().Inline(true).Foreground(c.styles.palette.Tone(v.Tone)))
	box := func(lines []string) string { return drawBox(lines, width, border) }
	inner := width - 4
	headline := v.Symbol + " " + v.Headline
	labelled := tr("verdict", c.lang) + tr("colon", c.lang) + headline
	switch i {
	case 0:
		full := append([]string{label.Render(tr("verdict", c.lang)), paint(tone, wrap(headline, inner))}, details(inner, false)...)
		return box(full)
	case 1:
		compact := append([]string{paint(tone, wrap(labelled, inner))}, details(inner, false)...)
		return box(compact)
	case 2:
		return strings.Join(append([]string{paint(tone, wrap(labelled, width))}, details(width, false)...), "\n")
	}
	return strings.Join(append([]string{paint(tone, wrap(labelled, width))}, details(width, true)...), "\n")
}

// boldPrefix styles prefix at the start of already wrapped text.
func boldPrefix(st ink, prefix, wrapped string) string {
	if rest, ok := strings.CutPrefix(wrapped, prefix); ok {
		return st.Render(prefix) + rest
	}
	return wrapped
}

// drawBox draws a rounded box width cells wide around lines already
// wrapped to width-4, in the border's colour: what lipgloss' border does,
// without measuring and wrapping the text a second time.
func drawBox(lines []string, width int, border ink) string {
	inner := max(width-4, 0)
	var b strings.Builder
	b.WriteString(border.Render("╭" + strings.Repeat("─", max(width-2, 0)) + "╮"))
	side := border.Render("│")
	for _, block := range lines {
		for _, l := range strings.Split(block, "\n") {
			b.WriteString("\n" + side + " " + fitWidth(l, inner) + " " + side)
		}
	}
	b.WriteString("\n" + border.Render("╰"+strings.Repeat("─", max(width-2, 0))+"╯"))
	return b.String()
}

// stepWord is "rule" on the admission track and "step" on the others,
// which have no rules.
func (c scene) stepWord() string {
	switch c.track() {
	case scenarios.TrackAdmission:
		return tr("rule", c.lang)
	case scenarios.TrackAudit:
		return tr("step", c.lang)
	case scenarios.TrackOutcome:
		return tr("question", c.lang)
	}
	return tr("step", c.lang)
}
