package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"toolgate/nav"
	"toolgate/scenarios"
)

// The scenario list keeps the selection in view however many scenarios a
// lecturer's directory holds, and / filters it by number, title (in both
// languages) or id. bubbles/list was tried: its filter runs as a command
// (a message later), and its keys overlap the stepper's (h/l, PgUp/PgDn
// page the list), so the list is this small window over the track, with a
// bubbles/textinput for the filter.

// filterState is the list's filter: typing it, or applied.
type filterState struct {
	input  textinput.Model
	typing bool
	// hide says which scenarios' titles the list keeps back (a quiz's
	// unanswered ones, the room's live one): the filter matches their
	// number only, or what it matched would name the answer.
	hide func(id string) bool
}

func newFilter() filterState {
	in := textinput.New()
	in.Prompt = "/ "
	in.CharLimit = 40
	// Paste reads the system clipboard by running xclip or the like: on a
	// classroom server that would be the server's, run for a student.
	in.KeyMap.Paste.SetEnabled(false)
	return filterState{input: in}
}

// active reports whether a filter is typed or applied.
func (f filterState) active() bool { return f.typing || f.input.Value() != "" }

// matches reports whether a scenario passes the filter.
func (f filterState) matches(s scenarios.Scenario) bool {
	q := strings.ToLower(strings.TrimSpace(f.input.Value()))
	if q == "" {
		return true
	}
	hay := strings.ToLower(fmt.Sprintf("%d %s %s %s", s.Number, s.ID, s.Title.En, s.Title.Zh))
	if f.hide != nil && f.hide(s.ID) {
		hay = fmt.Sprint(s.Number)
	}
	return strings.Contains(hay, q)
}

// filterKey handles a key while the filter is typed: enter keeps it, esc
// clears it, anything else edits it and the selection moves to the first
// match.
func (p *place) filterKey(f filterState, msg tea.KeyPressMsg) (filterState, tea.Cmd) {
	switch msg.String() {
	case "enter":
		f.typing = false
		f.input.Blur()
		return f, nil
	case "esc":
		f.typing = false
		f.input.Blur()
		f.input.SetValue("")
		return f, nil
	}
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	if vis := p.visible(f); len(vis) > 0 && !slices.Contains(vis, p.at.Scenario) {
		p.selectInList(vis[0])
	}
	return f, cmd
}

// renderList is the list column: number, title and, once the learner has
// walked a scenario to its verdict (now or before), its answer on the line
// below when the list has room for two lines a scenario. The scenario
// masked, when not "", shows its number only: its title would answer the
// room's question. Answering, a digit answers the room's question: the
// list then offers no jump.
func (c scene) renderList(f filterState, walked []string, width, height int, quiz map[string]quizResult, masked string, answering bool) string {
	// In the quiz a title names the answer: it shows once the scenario
	// is answered, and no answer shows at all.
	l := listView{c: c, walked: walked, width: width, quiz: quiz, masked: masked, hideAnswers: quiz != nil, answering: answering}
	f.hide = l.hidden
	l.f = f
	head, foot := l.frame(height)
	room := max(height-len(head)-len(foot), 1)
	items := l.window(l.items(room), room)
	return strings.Join(append(append(head, items...), foot...), "\n")
}

// listView is the list as one frame draws it.
type listView struct {
	c           scene
	f           filterState
	walked      []string
	width       int
	quiz        map[string]quizResult
	masked      string
	hideAnswers bool
	// answering: a digit answers a question here (the quiz's, the
	// room's), so the list offers no jump and no enter to open.
	answering bool
}

// hidden reports whether a scenario's title is kept back.
func (l listView) hidden(id string) bool {
	_, answered := l.quiz[id]
	return l.hideAnswers && !answered || id == l.masked
}

// frame is the list's head (its title and the filter) and foot (the keys'
// hints, where there is room for them).
func (l listView) frame(height int) (head, foot []string) {
	c, width := l.c, l.width
	head = []string{c.styles.List.Title.Render(truncate(tr("scenarios", c.lang), width))}
	if l.f.active() {
		l.f.input.SetWidth(max(width-3, 1))
		head = append(head, truncate(l.f.input.View(), width))
	} else {
		head = append(head, "")
	}
	hints := listHints(c.lang, l.hideAnswers || l.answering)
	if l.f.typing {
		// While it is typed, every key but these is a letter of it.
		hints = []string{tr("hintKeepFilter", c.lang), tr("hintClearFilter", c.lang)}
	}
	if height >= len(head)+len(c.inTrack())+len(hints)+2 {
		foot = append(foot, "")
		for _, h := range hints {
			foot = append(foot, c.styles.Dim.Render(truncate(h, width)))
		}
	}
	return head, foot
}

// listItems are the list's lines, which scenario (of those visible) each
// belongs to, and the selected one's first line.
type listItems struct {
	lines   []string
	owner   []int
	sel     int
	visible int
}

// items are the scenarios the filter passes, each on a line with its
// answer beside it where it fits, else on the lines below while the list
// has room (room lines) for them.
func (l listView) items(room int) listItems {
	c, width, st := l.c, l.width, l.c.styles.List
	vis := c.visible(l.f)
	answers := 0
	for _, i := range vis {
		if a := c.answer(i, l.walked); a != "" {
			answers += lineCount(wrapCode(a, max(width-2, 1)))
		}
	}
	below := len(vis)+answers <= room && !l.hideAnswers
	out := listItems{visible: len(vis)}
	for n, i := range vis {
		s := c.inTrack()[i]
		item := fmt.Sprintf("%d %s", s.Number, s.Title.In(c.lang))
		if l.hidden(s.ID) {
			item = fmt.Sprintf("%d %s", s.Number, tr("notAnswered", c.lang))
		}
		style, mark := st.Item, "  "
		if i == c.at.Scenario {
			out.sel = len(out.lines)
			style, mark = st.Selected, "> "
			if c.at.Focus == nav.Walk {
				mark = "» "
			}
		}
		answer := ""
		if !l.hideAnswers && s.ID != l.masked {
			answer = c.answer(i, l.walked)
		}
		line := style.Render(truncate(mark+item, width))
		if answer != "" && lipgloss.Width(mark+item)+2+lipgloss.Width(answer) <= width {
			line = style.Render(mark+item) + strings.Repeat(" ", width-lipgloss.Width(mark+item)-lipgloss.Width(answer)) + st.Code.Render(answer)
			answer = ""
		}
		out.lines, out.owner = append(out.lines, line), append(out.owner, n)
		if answer != "" && below {
			for _, a := range strings.Split(wrapCode(answer, max(width-2, 1)), "\n") {
				out.lines, out.owner = append(out.lines, st.Code.Render("  "+a)), append(out.owner, n)
			}
		}
	}
	if len(vis) == 0 {
		out.lines = append(out.lines, c.styles.Dim.Render(truncate(tr("noMatch", c.lang), width)))
	}
	return out
}

// window is room lines of the items that keep the selection in view,
// saying how many scenarios are above and below.
func (l listView) window(it listItems, room int) []string {
	if len(it.lines) <= room {
		return it.lines
	}
	c, width := l.c, l.width
	top := clampInt(it.sel-room/2, 0, len(it.lines)-room)
	window := slices.Clone(it.lines[top : top+room])
	if top > 0 {
		window[0] = c.styles.Dim.Render(truncate(fmt.Sprintf(tr("listAbove", c.lang), it.owner[top]+1), width))
	}
	if end := top + room; end < len(it.lines) {
		window[room-1] = c.styles.Dim.Render(truncate(fmt.Sprintf(tr("listBelow", c.lang), it.visible-it.owner[end-1]), width))
	}
	return window
}

// wrapCode wraps an answer such as "? timed_out_without_readback" at its
// words and underscores, never inside a word and never leaving the symbol
// alone on its line.
func wrapCode(s string, width int) string {
	s = strings.Replace(s, " ", "\u00a0", 1)
	s = strings.ReplaceAll(s, "_", "_\u200b")
	out := wrap(s, width)
	out = strings.ReplaceAll(out, "\u200b", "")
	return strings.ReplaceAll(out, "\u00a0", " ")
}

// answer is a scenario's answer in a few words once the learner has
// walked it to its verdict (now, or in an earlier session: walked); ""
// before.
func (c scene) answer(i int, walked []string) string {
	s := c.inTrack()[i]
	switch {
	case i == c.at.Scenario && c.reached() && c.edited == nil:
		return listAnswer(c.walk)
	case slices.Contains(walked, s.ID):
		return c.deck.short[c.at.Track][i][c.lang]
	}
	return ""
}
