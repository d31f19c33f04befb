package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"toolgate/practice"
	"toolgate/scenarios"
)

// The frame: the header (title, tracks, where the walk is), the active
// mode's body or an overlay (the notices, the introduction, the help), and
// the footer (the last notice, or the mode's keys with ? and q).

// cover is what the root shows over every mode: what was said before the
// start (or a reload), the introduction, the ? help.
type cover struct {
	// notices are shown in full on the first screen until a key (and
	// after a reload, under noticesTitle).
	notices      []string
	noticesTitle string
	// intro shows what the trainer is for and what the decision does
	// not do (seed 000's non-goals): once, on a learner's first start,
	// and again from the help (d: introAgain); introOffset scrolls it
	// on a small screen.
	intro, introAgain bool
	introOffset       int
	showHelp          bool
	helpOffset        int
}

// shown reports whether something covers the mode's body.
func (c cover) shown() bool { return len(c.notices) > 0 || c.intro || c.showHelp }

// View renders the frame.
func (m Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	if !m.shell.noMouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = "toolgate"
	st := m.active().Status()
	if st.practice {
		v.WindowTitle = "toolgate — " + tr("modepractice", m.c.lang)
	} else if st.place.has() {
		v.WindowTitle = fmt.Sprintf("toolgate — %s %d", tr("scenario", m.c.lang), st.place.written().Number)
	}
	return v
}

// Render is the frame as text: never wider than the terminal and never
// taller. It draws from the state alone and changes nothing.
func (m Model) Render() string {
	if m.drawn != nil {
		m.drawn()
	}
	c := m.c
	if c.layout() == layoutTooSmall {
		msg := fmt.Sprintf(tr("enlarge", c.lang), minWidth, minHeight, c.width, c.height)
		// wrap breaks Chinese between characters, not before "："
		return clamp(lipgloss.Place(c.width, c.height, lipgloss.Center, lipgloss.Center,
			lipgloss.NewStyle().Align(lipgloss.Center).Render(wrap(msg, max(c.width, 1)))), c.width, c.height)
	}
	st := m.active().Status()
	if st.full && !m.cover.shown() {
		frame := m.active().View()
		if m.slashed() || m.notice != "" {
			// The presenter draws its own footer: a notice, or what a
			// / found, takes its place until the next key.
			if i := strings.LastIndexByte(frame, '\n'); i >= 0 {
				frame = frame[:i+1] + m.renderFooter(st)
			}
		}
		return clamp(frame, c.width, c.height)
	}
	header := clamp(m.renderHeader(st), c.width, 1)
	footer := m.renderFooter(st)
	height := c.height - 2
	var body string
	switch {
	case len(m.cover.notices) > 0:
		body = joinColumns(height, "", column{m.renderNotices(height), c.width})
	case m.cover.intro:
		body = joinColumns(height, "", column{m.renderIntro(height), c.width})
	case m.cover.showHelp:
		body = joinColumns(height, "", column{m.renderHelp(height), c.width})
	case !st.place.has() && m.mode != modeNotes:
		body = joinColumns(height, "", column{c.styles.Dim.Render(tr("emptyTrack", c.lang)), c.width})
	default:
		body = m.active().View()
	}
	return header + "\n" + body + "\n" + footer
}

// renderHeader is the title, the tracks (the current one in brackets)
// and where the walk is; parts that do not fit are left out.
func (m Model) renderHeader(ms status) string {
	c := m.c
	st := c.styles
	left := st.Header.App.Render(tr("app", c.lang))
	var tabs []string
	for _, t := range scenarios.Tracks {
		title := t.Title(c.lang)
		if t == ms.place.track() {
			tabs = append(tabs, st.Header.Tab.Render("["+title+"]"))
		} else {
			tabs = append(tabs, st.Dim.Render(title))
		}
	}
	middle := strings.Join(tabs, " ")
	right := ""
	if ms.right != "" {
		right = st.Header.Right.Render(ms.right)
	}
	tries := [][]string{{left, middle, right}, {middle, right}, {middle}, {left}}
	// The practice's mastery by rule, once there is any; it gives way
	// first where it does not fit.
	mastery := practice.HeaderText(m.prog, c.lang)
	if mastery != "" {
		mastery = st.Header.Right.Render(mastery)
	}
	switch {
	case ms.practice:
		short := st.Header.App.Render(tr("appPractice", c.lang))
		tries = [][]string{{short, right}, {right}}
		if mastery != "" {
			tries = append([][]string{{short, mastery, right}, {mastery, right}}, tries...)
		}
	case mastery != "":
		tries = append([][]string{{left, middle, mastery, right}, {middle, mastery, right}}, tries...)
	}
	for _, parts := range tries {
		width := 0
		for _, p := range parts {
			width += lipgloss.Width(p)
		}
		gaps := len(parts) - 1
		if width+2*gaps > c.width {
			continue
		}
		if gaps == 0 {
			return parts[0]
		}
		space := c.width - width
		out := parts[0]
		for i, p := range parts[1:] {
			n := space / gaps
			if i == gaps-1 {
				n = space - (gaps-1)*(space/gaps)
			}
			out += strings.Repeat(" ", n) + p
		}
		return out
	}
	return left
}

// renderFooter is a frozen room's notice, the notice of the last key, or
// the mode's keys; "? keys" and "q quit" are always on it.
func (m Model) renderFooter(ms status) string {
	c := m.c
	notice := m.notice
	if frozen := ms.frozen.text(c.lang); frozen != "" {
		notice = frozen // until the room is back, whatever the last key said
	}
	if notice != "" {
		return clamp(c.styles.Verdict.Label.Render(truncate("! "+notice, c.width)), c.width, 1)
	}
	rest, tail := m.footerKeys()
	h := m.help
	h.SetWidth(0) // measured here: bubbles' help counts a wide character as one cell
	right := fitTail(h, tail, c.width)
	sep := h.Styles.ShortSeparator.Render(h.ShortSeparator)
	room := c.width - lipgloss.Width(right) - lipgloss.Width(sep)
	left := fitHelp(h, rest, room)
	if m.slashed() {
		// What the / found, before the keys that close it.
		said := c.styles.Dim.Render(tr("noFilter", c.lang))
		if lipgloss.Width(said)+lipgloss.Width(sep)+lipgloss.Width(left) <= room {
			left = said + sep + left
		}
	}
	if left == "" || room < 8 {
		return clamp(right, c.width, 1)
	}
	return clamp(left+sep+right, c.width, 1)
}

// fitTail is the footer's tail, each key whole: where it is wider than
// the screen, the keys before the last (quit) give way, from the right,
// to an ellipsis.
func fitTail(h help.Model, bs []key.Binding, width int) string {
	view := h.ShortHelpView(bs)
	if len(bs) < 2 || lipgloss.Width(view) <= width {
		return view
	}
	sep := h.Styles.ShortSeparator.Render(h.ShortSeparator)
	last := h.ShortHelpView(bs[len(bs)-1:])
	for n := len(bs) - 2; n >= 0; n-- {
		view = h.Styles.Ellipsis.Render(h.Ellipsis)
		if n > 0 {
			view = h.ShortHelpView(bs[:n]) + sep + view
		}
		view += sep + last
		if lipgloss.Width(view) <= width {
			return view
		}
	}
	return last
}

// fitHelp is as many of the bindings as fit a width, each whole, and an
// ellipsis for those left out: a key's help is never cut in the middle
// ("g 关闭测…").
func fitHelp(h help.Model, bs []key.Binding, width int) string {
	ellipsis := h.Styles.ShortSeparator.Render(h.ShortSeparator) + h.Styles.Ellipsis.Render(h.Ellipsis)
	for n := len(bs); n > 0; n-- {
		view := h.ShortHelpView(bs[:n])
		if n < len(bs) {
			view += ellipsis
		}
		if lipgloss.Width(view) <= width {
			return view
		}
	}
	return ""
}

// footerKeys are the keys the footer lists: the state's own (rest), and
// the help and quit keys that end it (tail).
func (m Model) footerKeys() (rest, tail []key.Binding) {
	k := m.keys()
	g := k.globals()
	for _, b := range k.ShortHelp() {
		if b.Help() == g.Help.Help() || b.Help() == g.Quit.Help() {
			continue
		}
		rest = append(rest, b)
	}
	for _, b := range []key.Binding{g.Help, g.Quit} {
		if b.Enabled() {
			tail = append(tail, b)
		}
	}
	if m.cover.showHelp && !m.slashed() {
		hk := newHelpKeyMap(m.c.lang)
		if m.c.width < 80 {
			// Said whole at 60 columns, in either language.
			hk.Intro.SetHelp("d", tr("kIntroShort", m.c.lang))
		}
		tail = []key.Binding{hk.Close, hk.Intro, g.Quit}
		rest = nil
	}
	if len(m.cover.notices) > 0 || m.cover.intro {
		tail, rest = []key.Binding{g.Quit}, nil
	}
	return rest, tail
}

// renderHelp is every key of the active mode, in columns, paged when it
// does not fit.
func (m Model) renderHelp(height int) string {
	c := m.c
	title := c.styles.Walk.Heading.Render(fmt.Sprintf(tr("helpTitle", c.lang), tr("mode"+m.mode.String(), c.lang)))
	h := m.help
	h.ShowAll = true
	h.SetWidth(0) // measured here, not cut by bubbles
	// The groups side by side as far as the width allows, the rest in
	// rows below.
	var rows []string
	var row []string
	rowWidth := 0
	for _, g := range m.active().HelpKeyMap().FullHelp() {
		col := h.FullHelpView([][]key.Binding{g})
		w := lipgloss.Width(col) + 4
		if len(row) > 0 && rowWidth+w > c.width-6 {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
			row, rowWidth = nil, 0
		}
		row = append(row, lipgloss.NewStyle().PaddingRight(4).Render(col))
		rowWidth += w
	}
	if len(row) > 0 {
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
	}
	full := strings.Join(rows, "\n\n")
	lines := append([]string{title, ""}, strings.Split(full, "\n")...)
	// The box fits the screen: a column's padding gives way first, its
	// text only where a key's help is wider than the screen.
	for i, l := range lines {
		lines[i] = fitLine(l, max(c.width-6, 1))
	}
	inner := max(height-2, 1)
	if len(lines) > inner {
		offset := clampInt(m.cover.helpOffset, 0, len(lines)-inner+1)
		lines = lines[offset:]
		if len(lines) > inner {
			lines = append(lines[:inner-1], c.styles.Hint.Render(tr("helpMore", c.lang)))
		}
	}
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 2).Render(strings.Join(lines, "\n"))
	return placeCenter(box, c.width, height)
}

// fitLine cuts a styled line to width: trailing spaces silently, text
// with an ellipsis.
func fitLine(l string, width int) string {
	if lipgloss.Width(l) <= width {
		return l
	}
	if lipgloss.Width(strings.TrimRight(ansi.Strip(l), " ")) <= width {
		return ansi.Truncate(l, width, "")
	}
	return truncate(l, width)
}

// renderNotices shows what was said before the trainer started, whole.
func (m Model) renderNotices(height int) string {
	c := m.c
	width := max(min(c.width-8, 90), 10)
	title := tr("noticesTitle", c.lang)
	if m.cover.noticesTitle != "" {
		title = tr(m.cover.noticesTitle, c.lang)
	}
	lines := []string{c.styles.Walk.Heading.Render(title), ""}
	var body []string
	for _, n := range m.cover.notices {
		body = append(body, strings.Split(wrap("! "+n, width), "\n")...)
	}
	if room := max(height-8, 1); len(body) > room {
		// A directory of broken files says more than a screen holds; the
		// whole list is on stderr.
		more := len(body) - room + 1
		body = append(body[:room-1], fmt.Sprintf(tr("noticesMore", c.lang), more))
	}
	lines = append(lines, body...)
	lines = append(lines, "", c.styles.Dim.Render(tr("noticesClose", c.lang)))
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 2).Render(strings.Join(lines, "\n"))
	return placeCenter(box, c.width, height)
}
