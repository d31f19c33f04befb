package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"toolgate/assess"
	"toolgate/nav"
	"toolgate/scenarios"
)

// browseModel is the walk mode: choose a scenario in the list, open it, and
// step through the decision order one rule at a time to the verdict.
type browseModel struct {
	filter filterState
	// showInputs shows the inputs instead of the walk in the one-column
	// layout (tab).
	showInputs bool
	overlays
}

// overlays are what covers a mode's panes while open: the path to allowed
// (a) and every input value whole (i). The walk, the quiz, the room and
// the what-if open them and answer their keys alike (overlayKey).
type overlays struct {
	// path is the path to allowed, while its panel is open.
	path *pathPanel
	full bool
}

func newBrowse() browseModel { return browseModel{filter: newFilter()} }

// keys are the walk mode's bindings: for the state it is in (now), or
// all of the mode's, for the ? help.
func (b browseModel) keys(c *common, now bool) browseKeyMap {
	k := browseKeyMap{walkKeys: newWalkKeys(c.lang), listKeys: newListKeys(c.lang), globalKeys: newGlobalKeys(c.lang)}
	if now {
		c.stepKeysFor(&k.walkKeys, &k.listKeys)
	} else {
		// In the help, enter is listed once: it opens from the list, and
		// in the walk runs to the verdict, as e does.
		k.Run.SetHelp("e", tr("kRunEnter", c.lang))
	}
	c.layoutKeys(&k.walkKeys, &k.listKeys)
	onIf(canPath(c), &k.Path)
	if now {
		b.stateKeys(c, &k.walkKeys, &k.listKeys, &k.globalKeys)
	}
	return k
}

// stateKeys leaves on only what the overlays and the filter answer to
// while they are open: every mode that shares them (the walk, the quiz,
// the room) calls it last, after its own keys.
func (b browseModel) stateKeys(c *common, w *walkKeys, l *listKeys, g *globalKeys) {
	switch {
	case b.path != nil:
		overlayOnly(c.lang, "a/esc", w, l, g)
	case b.full:
		overlayOnly(c.lang, "i/esc", w, l, g)
	case b.filter.typing:
		// Every other key is a letter of the filter: none runs a
		// command, and ctrl+c alone quits.
		allOff(w, l)
		off(&g.Help, &g.Lang, &g.Quiz, &g.WhatIf)
		on(&l.KeepFilter, &l.ClearFilter)
		g.Quit.SetKeys("ctrl+c")
		g.Quit.SetHelp("ctrl+c", tr("kQuit", c.lang))
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
func (c *common) stepKeysFor(w *walkKeys, l *listKeys) {
	inWalk := c.at.Focus == nav.Walk
	lay := layoutFor(c.width, c.height)
	onIf(!inWalk, &l.Open)
	if !inWalk {
		w.Run.SetKeys("e")
		w.Run.SetHelp("e", tr("kRun", c.lang))
	}
	onIf(!c.reached() && c.has(), &w.Run, &w.Next)
	onIf(c.at.Step > 0, &w.Back, &w.Restart)
	onIf(inWalk && lay == layoutThree, &l.List)
	onIf(c.has(), &w.NextScenario, &w.PrevScenario, &l.Up, &l.Down, &l.Jump, &w.Full)
	c.layoutKeys(w, l)
}

// layoutKeys turns off the keys of panes the layout does not show: the
// list's esc where there is no list column (its / shows the list while
// the filter is typed), tab where the inputs have a column of their own.
// The ? help follows it too.
func (c *common) layoutKeys(w *walkKeys, l *listKeys) {
	lay := layoutFor(c.width, c.height)
	if lay != layoutThree {
		off(&l.List)
	}
	if lay != layoutOne {
		off(&w.Inputs)
	}
}

// overlayKey opens and runs the overlays: the path to allowed (a, when allowed here) and the inputs in
// full (i). While one is open it takes every key: its own key or esc
// closes it, ↑/↓ and J/K scroll it, the rest is ignored. It reports
// whether it took the key.
func (b *overlays) overlayKey(c *common, msg tea.KeyPressMsg, pathAllowed bool) bool {
	w, l := newWalkKeys(c.lang), newListKeys(c.lang)
	switch {
	case b.path != nil:
		switch {
		case key.Matches(msg, w.Path), key.Matches(msg, l.List):
			b.path = nil
		case key.Matches(msg, w.ScrollDown), key.Matches(msg, l.Down):
			c.scroll++
		case key.Matches(msg, w.ScrollUp), key.Matches(msg, l.Up):
			c.scroll--
		}
		return true
	case b.full:
		switch {
		case key.Matches(msg, w.Full), key.Matches(msg, l.List):
			b.full = false
		case key.Matches(msg, w.ScrollDown), key.Matches(msg, l.Down), key.Matches(msg, w.Next):
			c.inputsScroll++
		case key.Matches(msg, w.ScrollUp), key.Matches(msg, l.Up), key.Matches(msg, w.Back):
			c.inputsScroll--
		}
		return true
	case key.Matches(msg, w.Path):
		if !canPath(c) {
			c.notice = tr("pathAdmission", c.lang)
		} else if pathAllowed {
			b.path, c.scroll = openPath(c), 0
		}
		return true
	case key.Matches(msg, w.Full) && c.has():
		b.full, c.inputsScroll = true, 0
		return true
	}
	return false
}

func (b browseModel) update(c *common, msg tea.KeyPressMsg) (browseModel, tea.Cmd) {
	k := b.keys(c, true)
	b.filter.hide = nil // the walk shows every title
	return b.handle(c, msg, k.walkKeys, k.listKeys, true)
}

// busy reports whether the filter is being typed or an overlay is open:
// they take every key, before a mode's own.
func (b browseModel) busy() bool { return b.filter.typing || b.path != nil || b.full }

// handle takes the keys the walk, the quiz and the room share — the
// list's filter, the overlays, tab, stepping — with the bindings the mode
// enabled.
func (b browseModel) handle(c *common, msg tea.KeyPressMsg, w walkKeys, l listKeys, pathAllowed bool) (browseModel, tea.Cmd) {
	if b.filter.typing {
		var cmd tea.Cmd
		b.filter, cmd = c.filterKey(b.filter, msg)
		return b, cmd
	}
	if b.overlayKey(c, msg, pathAllowed) {
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
		c.stepKey(msg, w, l, b.filter)
	}
	return b, nil
}

// stepKey moves through the walk and the list: the keys the walk, the quiz
// and the room share.
func (c *common) stepKey(msg tea.KeyPressMsg, w walkKeys, l listKeys, f filterState) {
	switch {
	case key.Matches(msg, l.Open):
		c.navigate(nav.Action{Kind: nav.Open})
	case key.Matches(msg, w.Run):
		c.navigate(nav.Action{Kind: nav.ToVerdict})
	case key.Matches(msg, w.Next):
		c.navigate(nav.Action{Kind: nav.Next})
	case key.Matches(msg, w.Back):
		c.navigate(nav.Action{Kind: nav.Back})
	case key.Matches(msg, w.Restart):
		c.navigate(nav.Action{Kind: nav.Restart})
	case key.Matches(msg, l.Up):
		c.moveInList(f, -1)
	case key.Matches(msg, l.Down):
		c.moveInList(f, +1)
	case key.Matches(msg, w.NextScenario):
		c.navigate(nav.Action{Kind: nav.NextScenario})
	case key.Matches(msg, w.PrevScenario):
		c.navigate(nav.Action{Kind: nav.PrevScenario})
	case key.Matches(msg, l.Jump):
		c.navigate(nav.Action{Kind: nav.Jump, N: int(msg.Code - '0')})
	case key.Matches(msg, l.List):
		c.navigate(nav.Action{Kind: nav.ToList})
	case key.Matches(msg, w.Track):
		c.navigate(nav.Action{Kind: nav.NextTrack})
	case key.Matches(msg, w.ScrollDown):
		c.scroll++
	case key.Matches(msg, w.ScrollUp):
		c.scroll--
	}
}

func (b browseModel) view(c *common, height int) string {
	if b.path != nil {
		return b.path.render(c, c.width, height)
	}
	return c.renderBody(b.plainBody(c), height)
}

// plainBody is the walk mode's panes.
func (b browseModel) plainBody(c *common) body { return b.body(c, walkExtras{hint: c.stepHint(false)}) }

// body is the walk mode's panes, with what another mode adds to the walk.
func (b browseModel) body(c *common, x walkExtras) body {
	// Where there is no list column, say how to reach another scenario,
	// before a walk starts (not in the quiz, whose digits answer).
	noList := layoutFor(c.width, c.height) != layoutThree
	x.listHints = noList && c.at.Step == 0 && x.question == nil
	if v := b.filter.input.Value(); noList && v != "" && !b.filter.typing {
		// A kept filter, with no list to show it.
		x.filterNote = fmt.Sprintf(tr("filterKept", c.lang), v, len(c.visible(b.filter)), len(c.inTrack()))
	}
	return body{
		left:      func(w, h int) string { return c.renderList(b.filter, w, h, nil, x.maskID) },
		right:     c.renderInputs,
		extras:    x,
		giveWay:   true,
		alone:     b.showInputs,
		full:      b.full,
		listAlone: b.filter.typing,
	}
}

// stepHint says what the next key does at this step, truthfully for the
// focus, the track and the mode.
func (c *common) stepHint(presenter bool) string {
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
		case scenarios.TrackOutcome:
			return fmt.Sprintf(tr("questionHint", c.lang), c.at.Step)
		}
		return tr("lastHint", c.lang)
	}
	return ""
}
