package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"toolgate/assess"
	"toolgate/nav"
	"toolgate/scenarios"
)

// browsing is what the walk, the quiz and the room have alike: the list
// with its filter, the inputs shown in the walk's place (tab), the
// overlays, and what the learner walked before (the list's answers). Each
// of the three keeps its own, handed on with the place when the learner
// switches between them; this file is the code they share.
type browsing struct {
	filter filterState
	// showInputs shows the inputs instead of the walk in the one-column
	// layout (tab).
	showInputs bool
	overlays
	// walked is the progress's: the scenarios walked to the verdict.
	walked []string
}

// overlays are what covers a mode's panes while open: the path to allowed
// (a) and every input value whole (i). The walk, the quiz, the room and
// the what-if open them and answer their keys alike (overlayKey).
type overlays struct {
	// path is the path to allowed, while its panel is open.
	path *pathPanel
	full bool
}

func newBrowsing() browsing { return browsing{filter: newFilter()} }

// busy reports whether the filter is being typed or an overlay is open:
// they take every key, before a mode's own.
func (b browsing) busy() bool { return b.filter.typing || b.path != nil || b.full }

// stateKeys leaves on only what the overlays and the filter answer to
// while they are open: every mode that shares them (the walk, the quiz,
// the room) calls it last, after its own keys.
func (b browsing) stateKeys(lang assess.Lang, w *walkKeys, l *listKeys, g *globalKeys) {
	switch {
	case b.path != nil:
		overlayOnly(lang, "a/esc", w, l, g)
	case b.full:
		overlayOnly(lang, "i/esc", w, l, g)
	case b.filter.typing:
		// Every other key is a letter of the filter: none runs a
		// command, and ctrl+c alone quits.
		allOff(w, l)
		off(&g.Help, &g.Lang, &g.Quiz, &g.WhatIf)
		on(&l.KeepFilter, &l.ClearFilter)
		g.Quit.SetKeys("ctrl+c")
		g.Quit.SetHelp("ctrl+c", tr("kQuit", lang))
	default:
		// A kept filter: esc clears it where esc means nothing else
		// (from the walk of three columns, it goes back to the list
		// first).
		onIf(b.filter.input.Value() != "" && !l.List.Enabled(), &l.ClearFilter)
	}
}

// overlayOnly leaves on only the keys an overlay answers to: its own key
// or esc closes it, the arrows scroll it.
func overlayOnly(lang assess.Lang, closeKeys string, w *walkKeys, l *listKeys, g *globalKeys) {
	allOff(w, l)
	off(&g.Quiz, &g.WhatIf)
	on(&w.Close, &w.Scroll)
	w.Close.SetHelp(closeKeys, tr("kClose", lang))
}

// allOff turns off every walk and list key.
func allOff(w *walkKeys, l *listKeys) {
	off(&w.Next, &w.Back, &w.Run, &w.Restart, &w.NextScenario, &w.PrevScenario, &w.Track, &w.ScrollDown, &w.ScrollUp,
		&w.Inputs, &w.Full, &w.Path, &w.Edit, &w.Close, &w.Scroll,
		&l.Up, &l.Down, &l.Open, &l.List, &l.Jump, &l.Filter, &l.KeepFilter, &l.ClearFilter)
}

// stepKeysFor enables the stepping and list keys that would do something
// now: enter opens from the list and runs to the verdict in the walk.
func (c scene) stepKeysFor(w *walkKeys, l *listKeys) {
	inWalk := c.at.Focus == nav.Walk
	onIf(!inWalk, &l.Open)
	if !inWalk {
		w.Run.SetKeys("e")
		w.Run.SetHelp("e", tr("kRun", c.lang))
	}
	onIf(!c.reached() && c.has(), &w.Run, &w.Next)
	onIf(c.at.Step > 0, &w.Back, &w.Restart)
	onIf(inWalk && c.layout() == layoutThree, &l.List)
	onIf(c.has(), &w.NextScenario, &w.PrevScenario, &l.Up, &l.Down, &l.Jump, &w.Full)
	c.layoutKeys(w, l)
}

// layoutKeys turns off the keys of panes the layout does not show: the
// list's esc where there is no list column (its / shows the list while
// the filter is typed), tab where the inputs have a column of their own.
// The ? help follows it too.
func (c common) layoutKeys(w *walkKeys, l *listKeys) {
	lay := c.layout()
	if lay != layoutThree {
		off(&l.List)
	}
	if lay != layoutOne {
		off(&w.Inputs)
	}
}

// overlayKey opens and runs the overlays: the path to allowed (a, when
// allowed here) and the inputs in full (i). While one is open it takes
// every key: its own key or esc closes it, ↑/↓ and J/K scroll it, the
// rest is ignored. It reports whether it took the key.
func (b *overlays) overlayKey(c common, p *place, out *outbox, msg tea.KeyPressMsg, pathAllowed bool) bool {
	w, l := newWalkKeys(c.lang), newListKeys(c.lang)
	switch {
	case b.path != nil:
		switch {
		case key.Matches(msg, w.Path), key.Matches(msg, l.List):
			b.path = nil
		case key.Matches(msg, w.ScrollDown), key.Matches(msg, l.Down):
			p.scroll++
		case key.Matches(msg, w.ScrollUp), key.Matches(msg, l.Up):
			p.scroll--
		}
		return true
	case b.full:
		switch {
		case key.Matches(msg, w.Full), key.Matches(msg, l.List):
			b.full = false
		case key.Matches(msg, w.ScrollDown), key.Matches(msg, l.Down), key.Matches(msg, w.Next):
			p.inputsScroll++
		case key.Matches(msg, w.ScrollUp), key.Matches(msg, l.Up), key.Matches(msg, w.Back):
			p.inputsScroll--
		}
		return true
	case key.Matches(msg, w.Path):
		if !canPath(p) {
			out.say(tr("pathAdmission", c.lang))
		} else if pathAllowed {
			b.path, p.scroll = openPath(p), 0
		}
		return true
	case key.Matches(msg, w.Full) && p.has():
		b.full, p.inputsScroll = true, 0
		return true
	}
	return false
}

// handle takes the keys the walk, the quiz and the room share — the
// list's filter, the overlays, tab, stepping — with the bindings the mode
// enabled.
func (b browsing) handle(c common, p *place, out *outbox, msg tea.KeyPressMsg, w walkKeys, l listKeys, pathAllowed bool) (browsing, tea.Cmd) {
	if b.filter.typing {
		var cmd tea.Cmd
		b.filter, cmd = p.filterKey(b.filter, msg)
		return b, cmd
	}
	if b.overlayKey(c, p, out, msg, pathAllowed) {
		return b, nil
	}
	switch {
	case key.Matches(msg, l.Filter):
		b.filter.typing = true
		return b, b.filter.input.Focus()
	case key.Matches(msg, l.ClearFilter):
		b.filter.input.SetValue("")
	case key.Matches(msg, w.Inputs):
		b.showInputs = !b.showInputs
	default:
		p.stepKey(msg, w, l, b.filter)
	}
	return b, nil
}

// stepKey moves through the walk and the list: the keys the walk, the quiz
// and the room share (and the presenter's, which has no list).
func (p *place) stepKey(msg tea.KeyPressMsg, w walkKeys, l listKeys, f filterState) {
	switch {
	case key.Matches(msg, l.Open):
		p.navigate(nav.Action{Kind: nav.Open})
	case key.Matches(msg, w.Run):
		p.navigate(nav.Action{Kind: nav.ToVerdict})
	case key.Matches(msg, w.Next):
		p.navigate(nav.Action{Kind: nav.Next})
	case key.Matches(msg, w.Back):
		p.navigate(nav.Action{Kind: nav.Back})
	case key.Matches(msg, w.Restart):
		p.navigate(nav.Action{Kind: nav.Restart})
	case key.Matches(msg, l.Up):
		p.moveInList(f, -1)
	case key.Matches(msg, l.Down):
		p.moveInList(f, +1)
	case key.Matches(msg, w.NextScenario):
		p.navigate(nav.Action{Kind: nav.NextScenario})
	case key.Matches(msg, w.PrevScenario):
		p.navigate(nav.Action{Kind: nav.PrevScenario})
	case key.Matches(msg, l.Jump):
		p.navigate(nav.Action{Kind: nav.Jump, N: int(msg.Code - '0')})
	case key.Matches(msg, l.List):
		p.navigate(nav.Action{Kind: nav.ToList})
	case key.Matches(msg, w.Track):
		p.navigate(nav.Action{Kind: nav.NextTrack})
	case key.Matches(msg, w.ScrollDown):
		p.scroll++
	case key.Matches(msg, w.ScrollUp):
		p.scroll--
	}
}

// body is the walk's panes, with what a mode adds to the walk.
func (b browsing) body(c scene, x walkExtras) body {
	// Where there is no list column, say how to reach another scenario,
	// before a walk starts (not in the quiz, whose digits answer).
	noList := c.layout() != layoutThree
	x.listHints = noList && c.at.Step == 0 && x.question == nil
	if v := b.filter.input.Value(); noList && v != "" && !b.filter.typing {
		// A kept filter, with no list to show it.
		x.filterNote = fmt.Sprintf(tr("filterKept", c.lang), v, len(c.visible(b.filter)), len(c.inTrack()))
	}
	return body{
		left:      func(w, h int) string { return c.renderList(b.filter, b.walked, w, h, nil, x.maskID, x.answering) },
		inputs:    true,
		extras:    x,
		giveWay:   true,
		alone:     b.showInputs,
		full:      b.full,
		listAlone: b.filter.typing,
	}
}

// fill lays out the panes of a mode that browses: the path to allowed
// over them while it is open, else the body.
func (b browsing) fill(ps *panes, c common, p *place, bd body) {
	height := c.height - 2
	if b.path != nil {
		ps.cover(c, p, b.path.lines(scene{c, *p}, c.width), height)
		return
	}
	ps.fill(c, p, bd, height)
}

// stepHint says what the next key does at this step, truthfully for the
// focus, the track and the mode.
func (c scene) stepHint(presenter bool) string {
	switch {
	case !c.has():
		return ""
	case c.at.Step == 0 && presenter:
		return tr("startHintPresent", c.lang)
	case c.at.Step == 0 && c.at.Focus == nav.List:
		return tr("startHintList", c.lang)
	case c.at.Step == 0:
		return tr("startHint", c.lang)
	case c.at.Step == c.walk.Decisive && !c.reached():
		last := c.walk.Decisive == len(c.walk.Steps)
		switch c.track() {
		case scenarios.TrackAdmission:
			if last {
				return fmt.Sprintf(tr("lastRuleHint", c.lang), c.at.Step)
			}
			return fmt.Sprintf(tr("firedHint", c.lang), c.at.Step)
		case scenarios.TrackAudit:
			return tr("lastHint", c.lang)
		case scenarios.TrackOutcome:
			return fmt.Sprintf(tr("questionHint", c.lang), c.at.Step)
		}
		return tr("lastHint", c.lang)
	}
	return ""
}
