package learn

import (
	"charm.land/bubbles/v2/key"

	"toolgate/assess"
)

// keyMap is every key the watch view answers to; it is the help's
// KeyMap, so the footer shows exactly what a press does.
type keyMap struct {
	Hint, Input, Run, Up, Down, PageUp, PageDown, Lang, Help, Quit key.Binding
}

func newKeyMap(l assess.Lang) keyMap {
	b := func(keys []string, help string, desc text) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc.in(l)))
	}
	return keyMap{
		Hint:     b([]string{"h"}, "h", texts.KeyHint),
		Input:    b([]string{"i"}, "i", texts.KeyInput),
		Run:      b([]string{"r"}, "r", texts.KeyRun),
		Up:       b([]string{"up", "k"}, "↑", texts.KeyUp),
		Down:     b([]string{"down", "j"}, "↓", texts.KeyDown),
		PageUp:   b([]string{"pgup", "b"}, "pgup", texts.KeyPgUp),
		PageDown: b([]string{"pgdown", "space", "f"}, "pgdn/space", texts.KeyPgDn),
		Lang:     b([]string{"L"}, "L", texts.KeyLang),
		Help:     b([]string{"?"}, "?", texts.KeyHelp),
		Quit:     b([]string{"q", "ctrl+c"}, "q", texts.KeyQuit),
	}
}

// ShortHelp is the footer.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Hint, k.Input, k.Down, k.Run, k.Lang, k.Help, k.Quit}
}

// FullHelp is the ? help.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Hint, k.Input, k.Run}, {k.Up, k.Down, k.PageUp, k.PageDown}, {k.Lang, k.Help, k.Quit}}
}
