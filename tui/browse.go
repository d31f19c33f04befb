package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"toolgate/scenarios"
)

// browseModel is the walk mode: choose a scenario in the list, open it, and
// step through the decision order one rule at a time to the verdict.
type browseModel struct {
	c     common
	place place
	list  browsing
	panes panes
	// editable says whether a scenario's file can be opened in the
	// lecturer's editor (E); nil: none can.
	editable func(scenarios.Scenario) bool
	out      outbox
}

var _ component = browseModel{}

func newBrowseModel(c common, p place, editable func(scenarios.Scenario) bool) browseModel {
	m := browseModel{c: c, place: p, list: newBrowsing(), panes: newPanes(), editable: editable}
	m.fill()
	return m
}

func (m browseModel) scene() scene { return scene{m.c, m.place} }

// keys are the walk mode's bindings: for the state it is in (now), or
// all of the mode's, for the ? help.
func (m browseModel) keys(now bool) browseKeyMap {
	c := m.scene()
	k := browseKeyMap{walkKeys: newWalkKeys(c.lang), listKeys: newListKeys(c.lang), globalKeys: newGlobalKeys(c.lang)}
	if now {
		c.stepKeysFor(&k.walkKeys, &k.listKeys)
	} else {
		// In the help, enter is listed once: it opens from the list, and
		// in the walk runs to the verdict, as e does.
		k.Run.SetHelp("e", tr("kRunEnter", c.lang))
	}
	c.layoutKeys(&k.walkKeys, &k.listKeys)
	onIf(canPath(&m.place), &k.Path)
	if !now && !canPath(&m.place) {
		// The help lists what-if where it works; w elsewhere says where.
		off(&k.WhatIf)
	}
	if now {
		m.list.stateKeys(c.lang, &k.walkKeys, &k.listKeys, &k.globalKeys)
	}
	onIf(m.editable != nil && m.place.has() && m.editable(m.place.written()), &k.Edit)
	return k
}

func (m browseModel) KeyMap() modeKeys     { return m.keys(true) }
func (m browseModel) HelpKeyMap() modeKeys { return m.keys(false) }

func (m browseModel) Update(msg tea.Msg) (component, tea.Cmd) {
	m.out, m.place.events = nil, nil
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case progressMsg:
		m.list.walked = msg.p.Walked
		return m, nil
	case enterMsg:
		m.place = msg.place
		if msg.list != nil {
			m.list = *msg.list
		}
	case backMsg:
		m.place = msg.place
	case commonMsg:
		m.c = msg.c
		m.place.setLang(m.c.lang)
	case deckMsg:
		m.place.reload(msg.d)
	case tea.KeyPressMsg:
		k := m.keys(true)
		if key.Matches(msg, k.Edit) {
			m.out.post(editMsg{})
			return m, nil
		}
		m.list.filter.hide = nil // the walk shows every title
		m.list, cmd = m.list.handle(m.c, &m.place, &m.out, msg, k.walkKeys, k.listKeys, true)
	case tea.MouseWheelMsg:
		m.list.wheel(&m.place, msg)
	case tea.MouseClickMsg:
		m.list.click(m.panes, m.scene(), &m.place, m.body(), msg, true)
	}
	m.fill()
	return m, cmd
}

// body is the walk mode's panes.
func (m browseModel) body() body {
	c := m.scene()
	return m.list.body(c, walkExtras{hint: c.stepHint(false)})
}

func (m *browseModel) fill() { m.list.fill(&m.panes, m.c, &m.place, m.body()) }

func (m browseModel) SetSize(width, height int) component {
	m.c.width, m.c.height = width, height
	m.fill()
	return m
}

func (m browseModel) View() string { return m.panes.draw(m.c, m.body(), m.c.height-2) }

func (m browseModel) Posted() []tea.Msg { return append(m.out, m.place.events...) }

func (m browseModel) Status() status { return status{place: m.place, right: m.place.where()} }

// handOver is the walk's list, for the mode that follows it.
func (m browseModel) handOver() browsing { return m.list }

// where is the header's "4/14": the open scenario of the track's.
func (p *place) where() string {
	if !p.has() {
		return ""
	}
	return fmt.Sprintf("%d/%d", p.written().Number, len(p.inTrack()))
}
