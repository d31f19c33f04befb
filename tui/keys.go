package tui

import (
	"charm.land/bubbles/v2/key"

	"toolgate/assess"
)

// keyMap is every key the trainer answers to. It is a help.KeyMap.
type keyMap struct {
	Up, Down, Open, Next, Back, Run, Restart key.Binding
	NextScenario, PrevScenario, Jump, List   key.Binding
	Inputs, Track, Lang, Help, Quit          key.Binding
	// Presenter mode only.
	Blank, Clock key.Binding
	Quiz         key.Binding
	// What-if mode.
	WhatIf, Undo, Reset, Save key.Binding
	// editing says what-if is on: the help line shows its keys.
	editing bool
}

func defaultKeyMap(l assess.Lang) keyMap {
	b := func(keys []string, helpKey, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, tr(desc, l)))
	}
	return keyMap{
		Up:           b([]string{"up", "k"}, "↑/k", "kUp"),
		Down:         b([]string{"down", "j"}, "↓/j", "kDown"),
		Open:         b([]string{"enter"}, "enter", "kOpen"),
		Next:         b([]string{"right", "l", "space", "pgdown"}, "→/space", "kNext"),
		Back:         b([]string{"left", "h", "pgup"}, "←", "kBack"),
		Run:          b([]string{"enter", "e"}, "enter/e", "kRun"),
		Restart:      b([]string{"r"}, "r", "kRestart"),
		NextScenario: b([]string{"n"}, "n", "kNextScen"),
		PrevScenario: b([]string{"p"}, "p", "kPrevScen"),
		Jump:         b([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1–9", "kJump"),
		List:         b([]string{"esc"}, "esc", "kList"),
		Inputs:       b([]string{"tab"}, "tab", "kInputs"),
		Track:        b([]string{"t"}, "t", "kTrack"),
		Blank:        b([]string{"b", "."}, "b/.", "kBlank"),
		Clock:        b([]string{"t"}, "t", "kClock"),
		Quiz:         b([]string{"g"}, "g", "kQuiz"),
		WhatIf:       b([]string{"w"}, "w", "kWhatIf"),
		Undo:         b([]string{"u"}, "u", "kUndo"),
		Reset:        b([]string{"R"}, "R", "kReset"),
		Save:         b([]string{"s"}, "s", "kSave"),
		Lang:         b([]string{"L"}, "L", "kLang"),
		Help:         b([]string{"?"}, "?", "kHelp"),
		Quit:         b([]string{"q", "ctrl+c"}, "q", "kQuit"),
	}
}

// ShortHelp is the line always shown at the bottom.
func (k keyMap) ShortHelp() []key.Binding {
	if k.editing {
		return []key.Binding{k.Down, k.Next, k.Undo, k.Reset, k.Save, k.WhatIf, k.Lang, k.Help, k.Quit}
	}
	return []key.Binding{k.Next, k.Back, k.Open, k.Run, k.Inputs, k.PrevScenario, k.NextScenario, k.Track, k.Lang, k.Help, k.Quit}
}

// FullHelp is the help overlay, in columns.
func (k keyMap) FullHelp() [][]key.Binding {
	if k.Blank.Enabled() {
		return [][]key.Binding{
			{k.Next, k.Back, k.Run, k.Restart},
			{k.PrevScenario, k.NextScenario, k.Jump, k.Track},
			{k.Blank, k.Clock, k.Quiz, k.Lang, k.Help, k.Quit},
		}
	}
	return [][]key.Binding{
		{k.Next, k.Back, k.Run, k.Restart},
		{k.Up, k.Down, k.Open, k.Jump, k.PrevScenario, k.NextScenario, k.List},
		{k.Quiz, k.WhatIf, k.Undo, k.Reset, k.Save},
		{k.Track, k.Inputs, k.Lang, k.Help, k.Quit},
	}
}
