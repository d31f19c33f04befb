package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/nav"
	"toolgate/scenarios"
)

// presentModel is the projector layout: the current step large and
// centred, the rules already passed listed compactly above it, the verdict
// whole once reached, and a thin progress line with the clock at the
// bottom. A clicker's keys (→ ← PgDn PgUp enter b .) drive it.
type presentModel struct {
	c     common
	place place
	// main is the projector's content, scrolled where even folded it
	// does not fit.
	main  scroller
	blank bool
	// ask shows "which rule fires?" before a scenario's first step, for
	// the lecturer to ask the hall.
	ask    bool
	clocks lectureClocks
	out    outbox
	// room, when set, is the room this projector leads: its presenter
	// switched to the projector's layout. state is the room as it last
	// said; classCode is shown for latecomers.
	room      Room
	state     RoomMsg
	classCode string
	// joinURL is the phones' link, shown as a QR code (see joinPart).
	joinURL string
}

var _ component = presentModel{}

// newRoomPresentModel is the projector's layout of a room's presenter,
// at the room's place.
func newRoomPresentModel(c common, p place, limit time.Duration, room Room, state RoomMsg, classCode string) presentModel {
	m := presentModel{c: c, place: p, main: newScroller(), clocks: newLectureClocks(limit), room: room, state: state, classCode: classCode}
	m.place.navigate(nav.Action{Kind: nav.Open})
	return m
}

// polling reports whether the room's question on the projected scenario
// is open.
func (m presentModel) polling() bool {
	return m.room != nil && m.state.Open && m.place.has() && m.place.written().ID == m.state.Live
}

func newPresentModel(c common, p place, limit time.Duration) presentModel {
	m := presentModel{c: c, place: p, main: newScroller(), clocks: newLectureClocks(limit)}
	m.place.navigate(nav.Action{Kind: nav.Open})
	return m
}

func (m presentModel) scene() scene { return scene{m.c, m.place} }

// Init starts the lecture's clocks.
func (m presentModel) Init() tea.Cmd { return m.clocks.init() }

func (m presentModel) keys(now bool) presentKeyMap {
	c := m.scene()
	k := newPresentKeyMap(c.lang)
	if !now {
		return k
	}
	onIf(c.has(), &k.Next)
	if c.reached() {
		// A clicker has one forward button: past the verdict it is the
		// next scenario, as the next slide.
		k.Next.SetHelp(k.Next.Help().Key, tr("kNextScen", c.lang))
	}
	onIf(c.at.Step > 0, &k.Back, &k.Restart)
	onIf(c.has(), &k.NextScenario, &k.PrevScenario, &k.Jump)
	if m.room != nil {
		on(&k.OpenPoll, &k.Reveal, &k.Leave)
		// The room's question is the ask.
		off(&k.Ask)
	}
	if m.blank {
		off(&k.Help, &k.Lang, &k.OpenPoll, &k.Reveal, &k.Leave)
	}
	return k
}

func (m presentModel) KeyMap() modeKeys     { return m.keys(true) }
func (m presentModel) HelpKeyMap() modeKeys { return m.keys(false) }

func (m presentModel) Update(msg tea.Msg) (component, tea.Cmd) {
	m.out, m.place.events = nil, nil
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case commonMsg:
		m.c = msg.c
		m.place.setLang(m.c.lang)
	case deckMsg:
		m.place.reload(msg.d)
	case RoomMsg:
		m.follow(msg)
	case tea.KeyPressMsg:
		m.key(msg)
	case tea.MouseWheelMsg:
		overlays{}.wheel(&m.place, msg)
	default:
		var ok bool
		if m.clocks, cmd, ok = m.clocks.update(msg); !ok {
			return m, nil
		}
	}
	m.fill()
	return m, cmd
}

func (m *presentModel) key(msg tea.KeyPressMsg) {
	k := m.keys(true)
	p := &m.place
	if m.blank {
		// A blanked screen wakes on any key but does nothing else, as
		// slide software does.
		m.blank = false
		return
	}
	switch {
	case key.Matches(msg, k.Blank):
		m.blank = true
	case key.Matches(msg, k.Clock):
		// The clocks keep running; c only shows or hides them.
		m.clocks.show = !m.clocks.show
	case key.Matches(msg, k.Ask):
		m.ask = !m.ask
	case key.Matches(msg, k.OpenPoll):
		// The question starts from the scene, asked as the room sees it.
		p.setStep(0)
		m.room.Open()
	case key.Matches(msg, k.Reveal):
		m.room.Reveal()
	case key.Matches(msg, k.Leave):
		m.out.post(projectorMsg{on: false, place: handed(*p)})
	case key.Matches(msg, k.Next) && p.reached():
		p.navigate(nav.Action{Kind: nav.NextScenario})
	default:
		// The rest step as in the walk; the projector has no list.
		p.stepKey(msg, k.walkKeys, listKeys{Jump: k.Jump}, filterState{})
		p.navigate(nav.Action{Kind: nav.Open})
	}
}

// follow takes the room's news: the reveal shows the verdict.
func (m *presentModel) follow(msg RoomMsg) {
	prev := m.state
	m.state = msg
	p := &m.place
	if msg.Revealed && !prev.Revealed && p.has() && p.written().ID == msg.Live {
		p.setStep(p.lastStep())
	}
}

func (m *presentModel) fill() {
	if m.blank || !m.place.has() {
		return
	}
	lines, anchor := m.content()
	m.place.scroll = m.main.fill(lines, m.c.width, m.c.height-1, anchor, len(lines), m.place.scroll, m.c.moreHint)
}

func (m presentModel) SetSize(width, height int) component {
	m.c.width, m.c.height = width, height
	m.fill()
	return m
}

// View is the whole frame: the presenter has no header or help line.
func (m presentModel) View() string {
	c := m.c
	if m.blank {
		return strings.Repeat("\n", max(c.height-1, 0))
	}
	if !m.place.has() {
		return ""
	}
	return joinColumns(c.height-1, "", column{m.main.View(), c.width}) + "\n" + m.footer()
}

func (m presentModel) Posted() []tea.Msg { return append(m.out, m.place.events...) }

func (m presentModel) Status() status {
	return status{place: m.place, right: m.place.where(), full: true}
}

// Presenter parts, folded in this order until the frame fits.
const (
	pTitle = iota
	pStory
	pPassed
	pCurrent
	pHint
	pPoll
	pVerdict
	pJoin
	pCount
)

var presentFold = []int{pJoin, pJoin, pHint, pStory, pPassed, pCurrent, pVerdict, pCurrent, pPassed, pVerdict, pCurrent, pVerdict, pPoll}

// content is the projector's lines, folded to the frame's height, and
// where the window over them starts (the verdict once reached).
func (m presentModel) content() (lines []string, anchor int) {
	c := m.scene()
	parts := m.parts()
	height := c.height - 1
	total := func() int {
		n := 1 // the empty line on top
		for _, p := range parts {
			if t := p.text(); t != "" {
				n += lineCount(t) + 1
			}
		}
		return n - 1
	}
	for _, id := range presentFold {
		if total() <= height {
			break
		}
		if p := &parts[id]; p.sel < len(p.alts)-1 {
			p.sel++
		}
	}
	var blocks []string
	for _, p := range parts {
		if t := p.text(); t != "" {
			blocks = append(blocks, lipgloss.PlaceHorizontal(c.width, lipgloss.Center, t))
		}
	}
	gap := "\n\n" + strings.Repeat("\n", grow(c.common))
	lines = strings.Split("\n"+strings.Join(blocks, gap), "\n")
	if c.reached() {
		anchor = len(lines) - lineCount(parts[pVerdict].text())
	}
	return lines, anchor
}

// parts are the projector's parts, each from its fullest rendering to
// its most folded.
func (m presentModel) parts() [pCount]part {
	c := m.scene()
	// A big screen gives the step more room: a terminal cannot grow its
	// font, but it can spend its space.
	width := min(c.width-4, max(100, c.width*3/4))
	s := c.written()
	var parts [pCount]part
	head := fmt.Sprintf("%s · %s %d", strings.ToUpper(c.track().Title(c.lang)), tr("scenario", c.lang), s.Number)
	title := head + " · " + s.Title.In(c.lang)
	// While the room is asked, on every track: an audit scenario's title
	// names its diagnostics, the choice the room is asked for.
	asking := (m.ask || m.polling()) && c.current() == 0
	if asking {
		// While the room is asked, the title would answer for it.
		title = head
	}
	parts[pTitle] = part{alts: []string{c.styles.Walk.Title.Render(truncate(title, c.width))}}
	if c.current() == 0 {
		parts[pStory] = part{alts: []string{m.startText(width, asking), ""}}
		if !m.polling() {
			parts[pHint] = part{alts: []string{paint(c.styles.Walk.Hint, wrap(c.stepHint(true), width)), ""}}
		}
	} else {
		parts[pPassed] = part{alts: m.passedAlts(c, width)}
		parts[pCurrent] = lazy(4, func(i int) string { return m.currentAlt(c, width, i) })
	}
	if c.reached() {
		parts[pVerdict] = lazy(4, func(i int) string { return c.verdictAlt(width, i, false) })
	}
	if m.joinURL != "" && c.current() == 0 && !c.reached() {
		parts[pJoin] = joinPart(c.common, m.joinURL, width)
	}
	if rs := m.state; m.room != nil && rs.Revealed && rs.Round > 0 && s.ID == rs.Live {
		// The room's answers, once revealed: before, they would answer
		// the question for the hall.
		// It breaks between its counts, never inside one ("3 without
		// a" / "key").
		items := strings.Split(histogram(rs, c.track(), c.walk, c.lang), " · ")
		items[0] = fmt.Sprintf(tr("roomPollRevealed", c.lang), rs.Round) + "  " + items[0]
		parts[pPoll] = part{alts: []string{paint(c.styles.Verdict.Label, wrapItems(items, " · ", width)), ""}}
	}
	return parts
}

// startText is a scenario before its first step: the scene and, while the
// room is asked, the question with its choices, as the room sees them.
func (m presentModel) startText(width int, asking bool) string {
	c := m.scene()
	var lines []string
	if story := c.storyText(false, asking); story != "" {
		lines = append(lines, paint(c.styles.Walk.Story, wrap(story, width)), "")
	}
	if asking && c.track() != scenarios.TrackAudit { // the audit's choices are on the students' screens
		q, qClass := tr("askRule", c.lang), tr("askClass", c.lang)
		if m.polling() {
			q, qClass = tr("askRoomRule", c.lang), tr("askRoomClass", c.lang)
		}
		if c.track() == scenarios.TrackOutcome {
			q = qClass
		}
		lines = append(lines, paint(c.styles.Verdict.Label, wrap(q, width)))
		var opts []string
		for i, step := range c.walk.Steps {
			opts = append(opts, fmt.Sprintf("%d %s", i+1, step.Title))
		}
		lines = append(lines, wrapItems(opts, "   ", width), "")
	}
	return strings.Join(lines, "\n")
}

// passedAlts lists the rules passed before the current one compactly:
// each with its number and title on a line, or all on one line.
func (m presentModel) passedAlts(c scene, width int) []string {
	var names, runs []string
	for _, r := range c.runsBefore() {
		for n := r.from; n <= r.to; n++ {
			item := fmt.Sprintf("%s %d %s", look.OutcomeSymbol(r.outcome), n, c.walk.Steps[n-1].Title)
			if a := look.OutcomeAnswer(r.outcome, c.lang); a != "" {
				item += tr("colon", c.lang) + a
			}
			names = append(names, item)
		}
		runs = append(runs, fmt.Sprintf("%s %s %s", look.OutcomeSymbol(r.outcome), span(r.from, r.to), look.OutcomeLabel(r.outcome, c.lang)))
	}
	if len(names) == 0 {
		return nil
	}
	dim := c.styles.Walk.Passed
	// Each item whole when the list wraps, in Chinese too.
	list := wrapItems(names, "   ", width)
	return []string{paint(dim, list), dim.Render(truncate(strings.Join(runs, " · "), width)), ""}
}

// currentAlt is the current step, large: boxed with its question and
// explanation (0), then smaller (1, 2), then on one line (3).
func (m presentModel) currentAlt(c scene, width, i int) string {
	cur := c.current()
	step := c.walk.Steps[cur-1]
	mark, word, style := c.currentLook()
	big := fmt.Sprintf("%s  %d · %s  —  %s", mark, cur, strings.ToUpper(step.Title), word)
	border := c.styles.palette.Tone(toneOf(step.Outcome, c.walk.Verdict.Tone))
	extra := grow(c.common)
	box := func(pad int, text string) string {
		vertical := pad / 4
		if pad == 4 {
			pad, vertical = pad+2*extra, 1+extra
		}
		return lipgloss.NewStyle().Border(lipgloss.ThickBorder()).Padding(vertical, pad).BorderForeground(border).
			Render(paint(style.Bold(true), wrap(text, max(width-2*pad-2, 1))))
	}
	q := paint(c.styles.Walk.Question, wrap(step.Question, width))
	e := paint(c.styles.Walk.Explain, wrap(step.Explanation, width))
	if a := c.asideText(step.Aside, width); a != "" {
		e += "\n" + a
	}
	switch i {
	case 0:
		return box(4, big) + "\n\n" + q + "\n\n" + e
	case 1:
		return box(2, big) + "\n" + e
	case 2:
		return box(1, big) + "\n" + e
	}
	return paint(style.Bold(true), wrap(big, width))
}

// toneOf is the border colour of a step: its verdict's tone when it
// fired, good when it passed.
func toneOf(o assess.Outcome, verdict look.Tone) look.Tone {
	if o == assess.Fired {
		return verdict
	}
	return look.ToneGood
}

// footer is the thin progress line: scenario k/n, rule j/m or "verdict",
// a bar, and the elapsed time when the clock is on.
func (m presentModel) footer() string {
	c := m.scene()
	scenario := fmt.Sprintf(" %s %d/%d", tr("scenario", c.lang), c.written().Number, len(c.inTrack()))
	left := scenario + " · " + c.where(c.at.Step, "%s %d/%d")
	// The class code before the count: a latecomer needs it whole. The
	// count is only how many answered; where a narrow line has no room
	// for both, the step goes (the projector shows the question).
	var room []string
	if m.classCode != "" {
		room = append(room, fmt.Sprintf(tr("roomClassCode", c.lang), m.classCode))
	}
	if m.polling() {
		room = append(room, fmt.Sprintf(tr("roomAnswered", c.lang), m.state.Answered, m.state.Students))
	}
	if len(room) > 0 {
		// Narrower, the step goes, then the scenario's number, then the
		// count: what is shown is never cut ("answered 1" of "answered 1
		// of 1" reads whole and is not).
		tail := " · " + strings.Join(room, " · ")
		switch {
		case lipgloss.Width(left+tail) <= c.width:
			left += tail
		case lipgloss.Width(scenario+tail) <= c.width:
			left = scenario + tail
		case lipgloss.Width(" "+strings.Join(room, " · ")) <= c.width || len(room) == 1:
			left = " " + strings.Join(room, " · ")
		default:
			left = " " + room[0]
		}
	}
	right := ""
	if m.clocks.show {
		timeUp, times := m.clocks.text(c.common)
		right = times + " "
		if timeUp != "" {
			right = c.styles.tone(look.ToneBad).Render(timeUp) + c.styles.Dim.Render(" · "+right)
		}
	}
	bar := ""
	if n := len(c.walk.Steps) + 1; n > 0 {
		filled := c.at.Step * (c.width / 4) / n
		bar = strings.Repeat("━", filled) + strings.Repeat("─", max(c.width/4-filled, 0))
	}
	line := left + "  " + bar
	gap := c.width - lipgloss.Width(line) - lipgloss.Width(right)
	if gap < 1 {
		// No room for the bar: the clocks matter more on a projector.
		gap = c.width - lipgloss.Width(left) - lipgloss.Width(right)
		if gap < 1 {
			return clamp(c.styles.Dim.Render(left), c.width, 1)
		}
		return c.styles.Dim.Render(left+strings.Repeat(" ", gap)) + c.styles.Dim.Render(right)
	}
	return c.styles.Dim.Render(line+strings.Repeat(" ", gap)) + c.styles.Dim.Render(right)
}

// grow is how much more room a tall screen gives each part: 0 at 30 rows
// or fewer, up to 3.
func grow(c common) int { return clampInt((c.height-30)/10, 0, 3) }
