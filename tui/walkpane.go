package tui

import (
	"fmt"
	"regexp"
	"strings"

	"charm.land/lipgloss/v2"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/walk"
)

// The walk pane is the heart of the trainer: the scenario, the rules as far
// as they have been revealed, and the verdict with what it does NOT prove.
// It is built as parts, each with a few renderings from the fullest to the
// most folded ("" is a part left out). When the pane is taller than the
// screen, parts are folded in a fixed order — hints, the heading, the rules
// not reached, the rules passed, the story — so that the verdict and every
// line of it stay on screen; only when even the most folded pane does not
// fit does it scroll, with a line saying what is above or below. While a
// question asks for a rule by its number, the rules are never folded: the
// hint and the story give way to them instead.

type partID int

const (
	partTitle partID = iota
	partBanner
	partListHints
	partInjected
	partStory
	partHeading
	partBefore
	partCurrent
	partAfter
	partRoom
	partQuestion
	partHint
	partVerdict
	partCount
)

// foldOrder is the order in which parts are folded: each entry sets a part
// to its next rendering. Earlier entries cost the learner least.
var foldOrder = []partID{
	partListHints, partHeading, partHeading, partAfter, partBefore, partInjected, partHint,
	partCurrent, partStory, partTitle, partVerdict, partCurrent, partVerdict,
	partBefore, partAfter, partVerdict,
}

// part is one piece of a pane with its renderings, from the fullest to
// the most folded; a rendering is made only when it is asked for (most
// frames fit without folding, and a boxed verdict is costly to draw).
type part struct {
	alts []string
	made []bool
	gen  func(i int) string
	sel  int
}

// lazy is a part of n renderings made by gen.
func lazy(n int, gen func(i int) string) part {
	return part{alts: make([]string, n), made: make([]bool, n), gen: gen}
}

func (p part) text() string {
	if len(p.alts) == 0 {
		return ""
	}
	i := min(p.sel, len(p.alts)-1)
	if p.gen != nil && !p.made[i] {
		p.alts[i], p.made[i] = p.gen(i), true
	}
	return p.alts[i]
}

// walkExtras is what a mode adds to the walk pane.
type walkExtras struct {
	// banner is never folded: the what-if's warning and its last change.
	banner []string
	// question is an open question, or the marked answer.
	question []string
	// room is the lecture hall's state for this session.
	room []string
	// hint says what the next key does; "" is the default for the step.
	hint string
	// listHints shows the list's keys where there is no list column;
	// filterNote says there what a kept filter matches.
	listHints  bool
	filterNote string
	// hideStory keeps the story back (a question is open).
	hideStory bool
	// hideTitle keeps back what names the answer while a prediction is
	// asked: the scenario's title and what was injected.
	hideTitle bool
	// hideCaveats keeps the verdict's "does NOT prove" lines back while
	// the learner is asked which it is.
	hideCaveats bool
	// maskID is a scenario whose title the list keeps back: the room's
	// live one, until its answer is revealed.
	maskID string
	// keepRules keeps every rule listed while a question asks for a rule
	// (or an outcome's question) by its number: the story folds first.
	keepRules bool
	// title, when set, is the pane's title instead of the scenario's
	// number and title (a practice case is no scenario of the list).
	title string
}

// walkPane is the pane built for one width, ready to be fitted to a
// height.
type walkPane struct {
	parts [partCount]part
	width int
	// reached says the verdict shows: it is then the part that must be
	// seen (lines' anchor), the current rule before.
	reached bool
}

func (c *common) buildWalkPane(width int, x walkExtras) walkPane {
	p := walkPane{width: width, reached: c.reached()}
	if !c.has() || width <= 0 {
		return p
	}
	st := c.styles.Walk
	s := c.written()
	title := fmt.Sprintf("%s %d · %s", tr("scenario", c.lang), s.Number, s.Title.In(c.lang))
	if x.hideTitle {
		title = fmt.Sprintf("%s %d", tr("scenario", c.lang), s.Number)
	}
	if x.title != "" {
		title = x.title
	}
	p.parts[partTitle] = part{alts: []string{paint(st.Title, wrap(title, width)), st.Title.Render(truncate(title, width))}}
	if len(x.banner) > 0 {
		p.parts[partBanner] = part{alts: []string{wrapLines(x.banner, width)}}
	}
	if x.listHints || x.filterNote != "" {
		var hints []string
		if x.filterNote != "" {
			hints = append(hints, wrap(x.filterNote, width))
		}
		if x.listHints {
			// Each key with its word, whole: "t" is not left at the
			// end of one line and "track" at the start of the next.
			hints = append(hints, wrapItems(strings.Split(tr("noListHint", c.lang), " · "), " · ", width))
		}
		p.parts[partListHints] = part{alts: []string{paint(c.styles.Dim, strings.Join(hints, "\n")), ""}}
	}
	if inj := c.scenario().Injected.In(c.lang); inj != "" && !x.hideTitle {
		p.parts[partInjected] = part{alts: []string{paint(c.styles.Dim, wrap(tr("injected", c.lang)+tr("colon", c.lang)+inj, width)), ""}}
	}
	if story := c.storyText(p.reached, x.hideTitle); story != "" && (c.at.Step == 0 || p.reached) && !x.hideStory {
		p.parts[partStory] = part{alts: []string{"\n" + paint(st.Story, wrap(story, width)), ""}}
	}
	p.parts[partHeading] = c.headingPart(width)
	before, current, after := c.ruleParts(width)
	if x.keepRules {
		// Only the fullest rendering: the rules the question numbers
		// are never folded into "1–8 not asked yet".
		before.alts, after.alts = before.alts[:min(len(before.alts), 1)], after.alts[:min(len(after.alts), 1)]
	}
	p.parts[partBefore], p.parts[partCurrent], p.parts[partAfter] = before, current, after
	if len(x.room) > 0 {
		p.parts[partRoom] = part{alts: []string{"\n" + wrapLines(x.room, width)}}
	}
	if len(x.question) > 0 {
		p.parts[partQuestion] = part{alts: []string{"\n" + wrapLines(x.question, width)}}
	}
	if hint := x.hint; hint != "" {
		p.parts[partHint] = part{alts: []string{"\n" + paint(st.Hint, wrap(hint, width)), ""}}
	}
	if p.reached {
		p.parts[partVerdict] = lazy(4, func(i int) string { return c.verdictAlt(width, i, x.hideCaveats) })
	}
	return p
}

// storyText is what the walk tells of the scenario: before the verdict its
// scene, the situation without its conclusion; once the verdict shows,
// its story, which may say the lesson. A scenario without a scene tells
// its story from the start, but never while a question is asked.
func (c *common) storyText(reached, asking bool) string {
	s := c.written()
	if reached {
		return s.Story.In(c.lang)
	}
	if scene := s.Scene.In(c.lang); scene != "" {
		return scene
	}
	if asking {
		return ""
	}
	return s.Story.In(c.lang)
}

// headingPart is the walk's heading with the input check before it: the
// two layers, toolgate's check then the book's rules. Folded, the check
// keeps to one line, then the heading goes; folded again, both go.
func (c *common) headingPart(width int) part {
	st := c.styles.Walk
	heading := paint(st.Heading, wrap(c.walk.Heading, width))
	chk := c.walk.Check
	if chk == nil {
		return part{alts: []string{"\n" + heading, ""}}
	}
	// The check is not a question the way a rule is: it passed, or it
	// refused the input.
	mark, word, style := "✓", look.OutcomeWord(assess.Passed, c.lang), st.Passed
	if !chk.Passed {
		mark, word, style = "✗", tr("refused", c.lang), c.styles.tone(look.ToneBad)
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

// asideText is a step's trainer's note as the walk shows it, marked as
// the trainer's own and never the book's; "" when the step has none.
func (c *common) asideText(aside string, width int) string {
	if aside == "" || width <= 0 {
		return ""
	}
	return paint(c.styles.Hint, wrap(walk.AsideLabel(c.lang)+tr("colon", c.lang)+aside, width))
}

// wrapLines wraps styled lines one by one; a numbered option ("  2  text")
// wraps under its text, not under its number.
func wrapLines(lines []string, width int) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if m := optionPrefix.FindString(l); m != "" && width > len(m)+8 {
			out[i] = m + indentLines(wrapStyled(l[len(m):], width-len(m)), strings.Repeat(" ", len(m)))[len(m):]
			continue
		}
		out[i] = wrapStyled(l, width)
	}
	return strings.Join(out, "\n")
}

// optionPrefix is the number of an option line.
var optionPrefix = regexp.MustCompile(`^ +[0-9]+  `)

// height is the pane's height as its parts are now folded.
func (p walkPane) height() int {
	n := 0
	for _, pt := range p.parts {
		if t := pt.text(); t != "" {
			n += lineCount(t)
		}
	}
	return n
}

// fold folds parts in foldOrder until the pane fits the height; it
// reports whether it does. A late fold can free more lines than needed
// (an unboxed verdict is much shorter than a boxed one), so the parts are
// then unfolded again in the reverse order, the verdict first, while the
// pane still fits.
func (p *walkPane) fold(height int) bool {
	steps := 0
	for _, id := range foldOrder {
		if p.height() <= height {
			break
		}
		if pt := &p.parts[id]; pt.sel < len(pt.alts)-1 {
			pt.sel++
		}
		steps++
	}
	if p.height() > height {
		return false
	}
	for i := steps - 1; i >= 0; i-- {
		pt := &p.parts[foldOrder[i]]
		if pt.sel == 0 {
			continue
		}
		pt.sel--
		if p.height() > height {
			pt.sel++
		}
	}
	return true
}

// lines are the pane's lines as folded, and where its anchor is: the
// verdict once reached (with an answer just above it), else the current
// rule and what follows it.
func (p walkPane) lines() (lines []string, anchor, anchorEnd int) {
	anchor, anchorEnd = -1, -1
	for id, pt := range p.parts {
		t := pt.text()
		if t == "" {
			continue
		}
		start := len(lines)
		lines = append(lines, strings.Split(t, "\n")...)
		pid := partID(id)
		switch {
		case p.reached && (pid == partQuestion || pid == partVerdict):
			if anchor < 0 {
				anchor = start
			}
			anchorEnd = len(lines)
		case !p.reached && (pid == partCurrent || pid == partQuestion || pid == partHint || pid == partRoom):
			if anchor < 0 {
				anchor = start
			}
			anchorEnd = len(lines)
		}
	}
	if anchor < 0 {
		anchor, anchorEnd = 0, 0
	}
	return lines, anchor, anchorEnd
}

// render fits the pane to a height: folded, and scrolled beyond that.
func (c *common) renderWalkPane(p walkPane, height int) string {
	p.fold(height)
	lines, anchor, end := p.lines()
	return c.scrolledPane(lines, p.width, height, anchor, end, c.scrollHint)
}

// scrollHint is the line above and below a pane that scrolls: how many
// lines there are and the keys that show them.
func (c *common) scrollHint(above, below int) (string, string) {
	return c.countHint(above, below, tr("moreAbove", c.lang), tr("moreBelow", c.lang))
}

// moreHint is the line above and below a window that follows a cursor
// (the knobs, the presenter): how much more there is.
func (c *common) moreHint(above, below int) (string, string) {
	return c.countHint(above, below, tr("moreUp", c.lang), tr("moreDown", c.lang))
}

// countHint says how many lines are above and below, each with its
// format; "" where there are none.
func (c *common) countHint(above, below int, upFormat, downFormat string) (up, down string) {
	if above > 0 {
		up = c.styles.Hint.Render(fmt.Sprintf(upFormat, above))
	}
	if below > 0 {
		down = c.styles.Hint.Render(fmt.Sprintf(downFormat, below))
	}
	return up, down
}

// ruleParts renders the steps: those before the current one (folded, a run
// of passed steps becomes one line), the current one with its question and
// explanation, and those after it (not reached, or not yet asked).
func (c *common) ruleParts(width int) (before, current, after part) {
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

// stepRun is steps before the current one shown together: a run of
// passed steps (folded into one line when room is short), or one step
// that did not pass (an audit's finding), which is never folded.
type stepRun struct {
	from, to int // step numbers, from 1
	outcome  assess.Outcome
}

// runsBefore are the steps before the current one, in runs.
func (c *common) runsBefore() []stepRun {
	var runs []stepRun
	for n := 1; n < c.current(); n++ {
		o := c.walk.Steps[n-1].Outcome
		if last := len(runs) - 1; last >= 0 && o == assess.Passed && runs[last].outcome == assess.Passed {
			runs[last].to = n
			continue
		}
		runs = append(runs, stepRun{from: n, to: n, outcome: o})
	}
	return runs
}

// currentLook is how the current step is marked, in the walk and on the
// projector: passed, in the explanation's style, or fired, in the
// verdict's tone.
func (c *common) currentLook() (mark, word string, style ink) {
	o := c.walk.Steps[c.current()-1].Outcome
	if o == assess.Fired {
		return look.OutcomeSymbol(o), look.OutcomeLabel(o, c.lang), c.styles.tone(c.walk.Verdict.Tone)
	}
	return look.OutcomeSymbol(assess.Passed), look.OutcomeLabel(assess.Passed, c.lang), c.styles.Walk.Explain
}

// where says how far a walk shown up to step is, the step and the number
// of steps in format ("rule 3/8"), or at the verdict which step decided.
func (c *common) where(step int, format string) string {
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
func (c *common) verdictAlt(width, i int, hideCaveats bool) string {
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
			if d.Strong && hideCaveats {
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

// fitsIn reports whether the pane, folded, fits a height without
// scrolling.
func (p walkPane) fitsIn(height int) bool { return p.fold(height) }

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
