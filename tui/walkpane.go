package tui

import (
	"fmt"
	"github.com/charmbracelet/x/ansi"
	"regexp"
	"strings"

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
	// answering says a digit answers the room's question here: the list
	// offers no jump.
	answering bool
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

func (c scene) buildWalkPane(width int, x walkExtras) walkPane {
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
func (c scene) storyText(reached, asking bool) string {
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

// asideText is a step's trainer's note as the walk shows it, marked as
// the trainer's own and never the book's; "" when the step has none.
func (c common) asideText(aside string, width int) string {
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
		if items := strings.Split(l, " · "); len(items) > 1 && ansi.StringWidth(l) > width {
			// A line of counts or keys ("rule 4: 3 · answered 3 of 8 · 2
			// without a key") breaks between its items, not inside one.
			out[i] = wrapItems(items, " · ", width)
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

// fit folds the pane to a height and returns its lines and its anchor
// block, for the walk's scroller: the pane scrolls only where even
// folded it does not fit.
func (p walkPane) fit(height int) (lines []string, anchor, anchorEnd int) {
	p.fold(height)
	return p.lines()
}

// fitsIn reports whether the pane, folded, fits a height without
// scrolling.
func (p walkPane) fitsIn(height int) bool { return p.fold(height) }
