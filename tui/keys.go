package tui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"toolgate/assess"
)

// Every key the trainer answers to is declared here, in one key map per
// mode; each is a help.KeyMap, so the footer and the ? help show exactly
// the bindings that a press would use. A key means one thing in a mode
// and state: digits open a scenario while browsing and answer while a
// question is open, and the two are never enabled at once. Modes match
// keys only with key.Matches on these bindings, never by raw string.

// modeKeys is a mode's key map: its help, and the global keys as the mode
// has enabled them.
type modeKeys interface {
	help.KeyMap
	globals() globalKeys
}

func binding(l assess.Lang, keys []string, helpKey, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, tr(desc, l)))
}

// globalKeys are handled by the root model in every mode.
type globalKeys struct {
	Help, Lang, Quit key.Binding
	// Quiz and WhatIf switch modes; a mode disables them where a switch
	// makes no sense (what-if while a room's question is open).
	Quiz, WhatIf key.Binding
}

func makeNewGlobalKeys(l assess.Lang) globalKeys {
	return globalKeys{
		Help:   binding(l, []string{"?"}, "?", "kHelp"),
		Lang:   binding(l, []string{"L"}, "L", "kLang"),
		Quit:   binding(l, []string{"q", "ctrl+c"}, "q", "kQuit"),
		Quiz:   binding(l, []string{"g"}, "g", "kQuiz"),
		WhatIf: binding(l, []string{"w"}, "w", "kWhatIf"),
	}
}

func (g globalKeys) globals() globalKeys { return g }

// walkKeys step through a walk, move between scenarios and scroll.
type walkKeys struct {
	Next, Back, Run, Restart   key.Binding
	NextScenario, PrevScenario key.Binding
	Track                      key.Binding
	ScrollDown, ScrollUp       key.Binding
	Inputs, Full               key.Binding
	// Path opens the path to allowed; Edit opens the scenario's file.
	Path, Edit key.Binding
	// Close and Scroll are an open overlay's keys, for the footer (the
	// overlay matches its keys itself); off while none is open.
	Close, Scroll key.Binding
}

func makeNewWalkKeys(l assess.Lang) walkKeys {
	return walkKeys{
		Next:         binding(l, []string{"right", "l", "space", "pgdown"}, "→/space/pgdn", "kNext"),
		Back:         binding(l, []string{"left", "h", "pgup"}, "←/pgup", "kBack"),
		Run:          binding(l, []string{"e", "enter"}, "e/enter", "kRun"),
		Restart:      binding(l, []string{"r"}, "r", "kRestart"),
		NextScenario: binding(l, []string{"n"}, "n", "kNextScen"),
		PrevScenario: binding(l, []string{"p"}, "p", "kPrevScen"),
		Track:        binding(l, []string{"t"}, "t", "kTrack"),
		ScrollDown:   binding(l, []string{"J", "shift+down"}, "J", "kScroll"),
		ScrollUp:     binding(l, []string{"K", "shift+up"}, "K", "kScrollUp"),
		Inputs:       binding(l, []string{"tab"}, "tab", "kInputs"),
		Full:         binding(l, []string{"i"}, "i", "kFull"),
		Path:         binding(l, []string{"a"}, "a", "kPath"),
		Edit:         disabled(binding(l, []string{"E"}, "E", "kEdit")),
		Close:        disabled(binding(l, []string{"esc"}, "esc", "kClose")),
		Scroll:       disabled(binding(l, []string{"down", "up"}, "↑/↓", "kScrollBoth")),
	}
}

// disabled is a binding off until a mode turns it on.
func disabled(b key.Binding) key.Binding {
	b.SetEnabled(false)
	return b
}

// listKeys choose a scenario.
type listKeys struct {
	Up, Down, Open, List, Jump, Filter key.Binding
	// KeepFilter and ClearFilter end the filter: enter keeps it, esc
	// clears it (while it is typed, or kept where esc means nothing
	// else).
	KeepFilter, ClearFilter key.Binding
}

func makeNewListKeys(l assess.Lang) listKeys {
	return listKeys{
		Up:          binding(l, []string{"up", "k"}, "↑/k", "kUp"),
		Down:        binding(l, []string{"down", "j"}, "↓/j", "kDown"),
		Open:        binding(l, []string{"enter"}, "enter", "kOpen"),
		List:        binding(l, []string{"esc"}, "esc", "kList"),
		Jump:        binding(l, []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1–9", "kJump"),
		Filter:      binding(l, []string{"/"}, "/", "kFilter"),
		KeepFilter:  disabled(binding(l, []string{"enter"}, "enter", "kKeepFilter")),
		ClearFilter: disabled(binding(l, []string{"esc"}, "esc", "kClearFilter")),
	}
}

func makeAnswerBinding(l assess.Lang) key.Binding {
	return binding(l, []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1–9", "kAnswer")
}

// browseKeyMap is the walk mode's: choose, open, step.
type browseKeyMap struct {
	walkKeys
	listKeys
	globalKeys
}

func (k browseKeyMap) ShortHelp() []key.Binding {
	return enabled(k.KeepFilter, k.ClearFilter, k.Close, k.Scroll, k.Next, k.Back, k.Open, k.Run, k.Inputs, k.PrevScenario, k.NextScenario, k.Track, k.Path, k.Lang, k.Help, k.Quit)
}

func (k browseKeyMap) FullHelp() [][]key.Binding {
	return columnsOf(
		[]key.Binding{k.Next, k.Back, k.Run, k.Restart, k.ScrollDown, k.ScrollUp},
		[]key.Binding{k.Up, k.Down, k.Open, k.Jump, k.Filter, k.PrevScenario, k.NextScenario, k.List},
		[]key.Binding{k.Track, k.Quiz, k.WhatIf, k.Path, k.Edit, k.Inputs, k.Full, k.Lang, k.Help, k.Quit},
	)
}

// quizKeyMap is the quiz's: digits answer; scenarios are chosen with the
// list or n/p.
type quizKeyMap struct {
	walkKeys
	listKeys
	Answer, Peek key.Binding
	globalKeys
}

func (k quizKeyMap) ShortHelp() []key.Binding {
	return enabled(k.KeepFilter, k.ClearFilter, k.Close, k.Scroll, k.Answer, k.Next, k.Back, k.PrevScenario, k.NextScenario, k.Quiz, k.Path, k.Lang, k.Help, k.Quit)
}

func (k quizKeyMap) FullHelp() [][]key.Binding {
	return columnsOf(
		[]key.Binding{k.Answer, k.Next, k.Back, k.Run, k.Restart, k.ScrollDown, k.ScrollUp},
		[]key.Binding{k.Up, k.Down, k.Open, k.Filter, k.PrevScenario, k.NextScenario, k.List},
		[]key.Binding{k.Track, k.Quiz, k.Path, k.Inputs, k.Full, k.Lang, k.Help, k.Quit},
	)
}

// whatIfKeyMap is the what-if's: choose a knob, set it, undo, save.
type whatIfKeyMap struct {
	KnobUp, KnobDown, ValueNext, ValuePrev, Option key.Binding
	Undo, Reset, Save, Done                        key.Binding
	ScrollDown, ScrollUp, Full, Path, Apply        key.Binding
	// Close closes an overlay (the path, the inputs in full), which
	// Scroll scrolls.
	Close, Scroll key.Binding
	globalKeys
}

func makeNewWhatIfKeyMap(l assess.Lang) whatIfKeyMap {
	g := makeNewGlobalKeys(l)
	g.WhatIf = binding(l, []string{"w", "esc"}, "w/esc", "kDone")
	// Scrolling and the overlays are the walk's keys.
	w := makeNewWalkKeys(l)
	return whatIfKeyMap{
		KnobUp:     binding(l, []string{"up", "k"}, "↑/k", "kKnobUp"),
		KnobDown:   binding(l, []string{"down", "j"}, "↓/j", "kKnobDown"),
		ValueNext:  binding(l, []string{"right", "l", "enter", "space"}, "→/enter", "kValue"),
		ValuePrev:  binding(l, []string{"left", "h"}, "←", "kValuePrev"),
		Option:     binding(l, []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1–9", "kOption"),
		Undo:       binding(l, []string{"u"}, "u", "kUndo"),
		Reset:      binding(l, []string{"R"}, "R", "kReset"),
		Save:       binding(l, []string{"s"}, "s", "kSave"),
		ScrollDown: w.ScrollDown,
		ScrollUp:   w.ScrollUp,
		Full:       w.Full,
		Path:       w.Path,
		Apply:      binding(l, []string{"enter"}, "enter", "kApplyPath"),
		Close:      disabled(binding(l, []string{"esc"}, "esc", "kClose")),
		Scroll:     w.Scroll,
		globalKeys: g,
	}
}

func (k whatIfKeyMap) ShortHelp() []key.Binding {
	return enabled(k.Close, k.Scroll, k.Apply, k.KnobDown, k.ValueNext, k.Undo, k.Reset, k.Save, k.WhatIf, k.Path, k.Lang, k.Help, k.Quit)
}

func (k whatIfKeyMap) FullHelp() [][]key.Binding {
	return columnsOf(
		[]key.Binding{k.KnobUp, k.KnobDown, k.ValueNext, k.ValuePrev, k.Option},
		[]key.Binding{k.Undo, k.Reset, k.Save, k.WhatIf, k.ScrollDown, k.ScrollUp},
		[]key.Binding{k.Path, k.Apply, k.Full, k.Lang, k.Help, k.Quit},
	)
}

// presentKeyMap is the projector's: a clicker's keys (→, ←, PgDn, PgUp,
// enter, b, .) step, the same keys as every clicker sends.
// The walk's keys, less what a projector has no use for (running to the
// verdict, the panes' keys), and enter advancing as the clicker's button.
type presentKeyMap struct {
	walkKeys
	Jump              key.Binding
	Blank, Clock, Ask key.Binding
	// OpenPoll, Reveal and Leave are the room's, on only when the
	// projector is a room's presenter's (Leave: back to the room's
	// layout).
	OpenPoll, Reveal, Leave key.Binding
	globalKeys
}

func makeNewPresentKeyMap(l assess.Lang) presentKeyMap {
	g := makeNewGlobalKeys(l)
	// The presenter asks the hall rather than taking a quiz, and edits
	// nothing on the projector.
	off(&g.Quiz, &g.WhatIf)
	w := makeNewWalkKeys(l)
	off(&w.Run, &w.Inputs, &w.Full, &w.Path, &w.Edit)
	w.Next = binding(l, []string{"right", "l", "space", "pgdown", "enter"}, "→/space/enter", "kNextStep")
	return presentKeyMap{
		walkKeys:   w,
		Jump:       makeNewListKeys(l).Jump,
		Blank:      binding(l, []string{"b", "."}, "b/.", "kBlank"),
		Clock:      binding(l, []string{"c"}, "c", "kClock"),
		Ask:        binding(l, []string{"a"}, "a", "kAsk"),
		OpenPoll:   disabled(binding(l, []string{"o"}, "o", "kOpenPoll")),
		Reveal:     disabled(binding(l, []string{"v"}, "v", "kReveal")),
		Leave:      disabled(binding(l, []string{"f", "f5", "esc"}, "f/esc", "kLeaveProjector")),
		globalKeys: g,
	}
}

func (k presentKeyMap) ShortHelp() []key.Binding {
	return enabled(k.OpenPoll, k.Reveal, k.Next, k.Back, k.NextScenario, k.Blank, k.Leave, k.Help, k.Quit)
}

func (k presentKeyMap) FullHelp() [][]key.Binding {
	return columnsOf(
		[]key.Binding{k.OpenPoll, k.Reveal, k.Leave, k.Next, k.Back, k.Restart, k.Ask, k.ScrollDown, k.ScrollUp},
		[]key.Binding{k.PrevScenario, k.NextScenario, k.Jump, k.Track},
		[]key.Binding{k.Blank, k.Clock, k.Lang, k.Help, k.Quit},
	)
}

// roomKeyMap is a session's in the lecture hall: browse, and answer the
// room's question; the presenter also opens and reveals it.
type roomKeyMap struct {
	walkKeys
	listKeys
	Answer, OpenPoll, Reveal, ToLive, Practice key.Binding
	// Projector switches the presenter to the projector's layout.
	Projector key.Binding
	globalKeys
}

func (k roomKeyMap) ShortHelp() []key.Binding {
	return enabled(k.KeepFilter, k.ClearFilter, k.Close, k.Scroll, k.ToLive, k.Answer, k.OpenPoll, k.Reveal, k.Projector, k.Next, k.Back, k.PrevScenario, k.NextScenario, k.Path, k.Practice, k.Lang, k.Help, k.Quit)
}

func (k roomKeyMap) FullHelp() [][]key.Binding {
	return columnsOf(
		[]key.Binding{k.ToLive, k.Answer, k.OpenPoll, k.Reveal, k.Projector, k.Practice, k.Next, k.Back, k.Run, k.Restart},
		[]key.Binding{k.Up, k.Down, k.Open, k.Jump, k.Filter, k.PrevScenario, k.NextScenario, k.List},
		[]key.Binding{k.Track, k.WhatIf, k.Path, k.Inputs, k.Full, k.ScrollDown, k.ScrollUp, k.Lang, k.Help, k.Quit},
	)
}

// helpKeyMap is the ? help's own: close it, page it, quit.
type helpKeyMap struct {
	Close, Down, Up, Intro key.Binding
	globalKeys
}

func makeNewHelpKeyMap(l assess.Lang) helpKeyMap {
	g := makeNewGlobalKeys(l)
	off(&g.Quiz, &g.WhatIf, &g.Help)
	return helpKeyMap{
		Close:      binding(l, []string{"?", "esc"}, "?/esc", "kClose"),
		Down:       binding(l, []string{"down", "j", "J", "pgdown", "space"}, "↓/pgdn", "kPageDown"),
		Up:         binding(l, []string{"up", "k", "K", "pgup"}, "↑/pgup", "kPageUp"),
		Intro:      binding(l, []string{"d"}, "d", "kIntro"),
		globalKeys: g,
	}
}

func (k helpKeyMap) ShortHelp() []key.Binding {
	return enabled(k.Close, k.Intro, k.Down, k.Up, k.Lang, k.Quit)
}

func (k helpKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// noFilterKeyMap is the footer's after a / that no key of the mode
// takes (the presenter, the what-if, the practice, the notes, an overlay,
// the help): the letters typed after it, meant for a filter, do nothing
// until esc or enter closes it; ctrl+c alone quits.
type noFilterKeyMap struct {
	Close key.Binding
	globalKeys
}

func makeNoFilterKeyMap(l assess.Lang) noFilterKeyMap {
	g := makeNewGlobalKeys(l)
	off(&g.Quiz, &g.WhatIf, &g.Help, &g.Lang)
	g.Quit.SetKeys("ctrl+c")
	g.Quit.SetHelp("ctrl+c", tr("kQuit", l))
	return noFilterKeyMap{Close: binding(l, []string{"esc", "enter"}, "esc", "kClose"), globalKeys: g}
}

func (k noFilterKeyMap) ShortHelp() []key.Binding  { return enabled(k.Close, k.Quit) }
func (k noFilterKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// takesSlash reports whether a mode's keys, as they are now, take a /:
// they have a list whose filter is on, or is being typed (the help, an
// overlay and the modes without a list do not).
func takesSlash(k modeKeys) bool {
	l, ok := k.(interface{ filters() bool })
	return ok && l.filters()
}

// filters reports whether / filters the list, or goes into the filter
// being typed (browsing.stateKeys turns its enter and esc on then).
func (l listKeys) filters() bool { return l.Filter.Enabled() || l.KeepFilter.Enabled() }

func enabled(bs ...key.Binding) []key.Binding {
	var out []key.Binding
	for _, b := range bs {
		if b.Enabled() {
			out = append(out, b)
		}
	}
	return out
}

func columnsOf(cols ...[]key.Binding) [][]key.Binding {
	var out [][]key.Binding
	for _, c := range cols {
		if c = enabled(c...); len(c) > 0 {
			out = append(out, c)
		}
	}
	return out
}

func off(bs ...*key.Binding) {
	for _, b := range bs {
		b.SetEnabled(false)
	}
}

// onIf enables bindings when cond holds and disables them otherwise.
func onIf(cond bool, bs ...*key.Binding) {
	for _, b := range bs {
		b.SetEnabled(cond)
	}
}

// keySets are every key map built once per language: a mode copies one
// and enables what its state needs, instead of building some thirty
// bindings on every key and frame.
type keySet struct {
	global           globalKeys
	walk             walkKeys
	list             listKeys
	answer           key.Binding
	openPoll, reveal key.Binding
	toLive           key.Binding
	whatIf           whatIfKeyMap
	present          presentKeyMap
	help             helpKeyMap
	noFilter         noFilterKeyMap
	summary          summaryKeyMap
	practice         practiceKeyMap
	// roomPractice starts practice in a student's room (P: p is the
	// previous scenario there).
	roomPractice key.Binding
	// projector switches a room's presenter to the projector's layout.
	projector key.Binding
}

var keySets = [2]keySet{makeKeySet(assess.English), makeKeySet(assess.Chinese)}

func makeKeySet(l assess.Lang) keySet {
	return keySet{
		global: makeNewGlobalKeys(l), walk: makeNewWalkKeys(l), list: makeNewListKeys(l),
		answer:   makeAnswerBinding(l),
		openPoll: binding(l, []string{"o"}, "o", "kOpenPoll"),
		reveal:   binding(l, []string{"v"}, "v", "kReveal"),
		toLive:   binding(l, []string{"g"}, "g", "kToLive"),
		whatIf:   makeNewWhatIfKeyMap(l), present: makeNewPresentKeyMap(l), help: makeNewHelpKeyMap(l),
		noFilter: makeNoFilterKeyMap(l), summary: makeSummaryKeyMap(l), practice: makePracticeKeyMap(l),
		roomPractice: binding(l, []string{"P"}, "P", "kPractice"),
		projector:    binding(l, []string{"f", "f5"}, "f", "kProjector"),
	}
}

func newGlobalKeys(l assess.Lang) globalKeys         { return keySets[l].global }
func newWalkKeys(l assess.Lang) walkKeys             { return keySets[l].walk }
func newListKeys(l assess.Lang) listKeys             { return keySets[l].list }
func answerBinding(l assess.Lang) key.Binding        { return keySets[l].answer }
func newWhatIfKeyMap(l assess.Lang) whatIfKeyMap     { return keySets[l].whatIf }
func newPresentKeyMap(l assess.Lang) presentKeyMap   { return keySets[l].present }
func newHelpKeyMap(l assess.Lang) helpKeyMap         { return keySets[l].help }
func newNoFilterKeyMap(l assess.Lang) noFilterKeyMap { return keySets[l].noFilter }

func on(bs ...*key.Binding) {
	for _, b := range bs {
		b.SetEnabled(true)
	}
}
