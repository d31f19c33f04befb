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
// room's question.
func (c scene) renderList(f filterState, walked []string, width, height int, quiz map[string]quizResult, masked string) string {
	// In the quiz a title names the answer: it shows once the scenario
	// is answered, and no answer shows at all.
	hideAnswers := quiz != nil
	f.hide = func(id string) bool {
		_, answered := quiz[id]
		return hideAnswers && !answered || id == masked
	}
	st := c.styles.List
	head := []string{st.Title.Render(truncate(tr("scenarios", c.lang), width))}
	if f.active() {
		f.input.SetWidth(max(width-3, 1))
		head = append(head, truncate(f.input.View(), width))
	} else {
		head = append(head, "")
	}
	hints := listHints(c.lang)
	if f.typing {
		// While it is typed, every key but these is a letter of it.
		hints = []string{tr("hintKeepFilter", c.lang), tr("hintClearFilter", c.lang)}
	}
	var foot []string
	if height >= len(head)+len(c.inTrack())+len(hints)+2 {
		foot = append(foot, "")
		for _, h := range hints {
			foot = append(foot, c.styles.Dim.Render(truncate(h, width)))
		}
	}
	room := max(height-len(head)-len(foot), 1)
	vis := c.visible(f)
	answers := 0
	for _, i := range vis {
		if a := c.answer(i, walked); a != "" {
			answers += lineCount(wrapCode(a, max(width-2, 1)))
		}
	}
	// An answer goes beside its title where it fits, else on the line
	// below while the list has room for it.
	below := len(vis)+answers <= room && !hideAnswers
	var items []string
	var owner []int // which entry of vis each line belongs to
	sel := 0
	for n, i := range vis {
		s := c.inTrack()[i]
		item := fmt.Sprintf("%d %s", s.Number, s.Title.In(c.lang))
		if _, answered := quiz[s.ID]; hideAnswers && !answered || s.ID == masked {
			item = fmt.Sprintf("%d %s", s.Number, tr("notAnswered", c.lang))
		}
		style, mark := st.Item, "  "
		if i == c.at.Scenario {
			sel = len(items)
			style, mark = st.Selected, "> "
			if c.at.Focus == nav.Walk {
				mark = "» "
			}
		}
		answer := ""
		if !hideAnswers && s.ID != masked {
			answer = c.answer(i, walked)
		}
		line := style.Render(truncate(mark+item, width))
		if answer != "" && lipgloss.Width(mark+item)+2+lipgloss.Width(answer) <= width {
			line = style.Render(mark+item) + strings.Repeat(" ", width-lipgloss.Width(mark+item)-lipgloss.Width(answer)) + st.Code.Render(answer)
			answer = ""
		}
		items, owner = append(items, line), append(owner, n)
		if answer != "" && below {
			for _, l := range strings.Split(wrapCode(answer, max(width-2, 1)), "\n") {
				items, owner = append(items, st.Code.Render("  "+l)), append(owner, n)
			}
		}
	}
	if len(vis) == 0 {
		items = append(items, c.styles.Dim.Render(truncate(tr("noMatch", c.lang), width)))
	}
	// A window over the items that keeps the selection in view.
	if len(items) > room {
		top := clampInt(sel-room/2, 0, len(items)-room)
		window := slices.Clone(items[top : top+room])
		if top > 0 {
			window[0] = c.styles.Dim.Render(truncate(fmt.Sprintf(tr("listAbove", c.lang), owner[top]+1), width))
		}
		if end := top + room; end < len(items) {
			window[room-1] = c.styles.Dim.Render(truncate(fmt.Sprintf(tr("listBelow", c.lang), len(vis)-owner[end-1]), width))
		}
		items = window
	}
	return strings.Join(append(append(head, items...), foot...), "\n")
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
