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

var keyWords = map[string][2]string{
	"kHint":  {"hint", "提示"},
	"kInput": {"whole input", "完整输入"},
	"kRun":   {"run again", "再运行"},
	"kUp":    {"scroll up", "向上"},
	"kDown":  {"scroll", "滚动"},
	"kPgUp":  {"page up", "上一页"},
	"kPgDn":  {"page down", "下一页"},
	"kLang":  {"中文", "English"},
	"kHelp":  {"more keys", "更多按键"},
	"kQuit":  {"quit", "退出"},
}

func newKeyMap(l assess.Lang) keyMap {
	b := func(keys []string, help, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, keyWords[desc][l]))
	}
	return keyMap{
		Hint:     b([]string{"h"}, "h", "kHint"),
		Input:    b([]string{"i"}, "i", "kInput"),
		Run:      b([]string{"r"}, "r", "kRun"),
		Up:       b([]string{"up", "k"}, "↑", "kUp"),
		Down:     b([]string{"down", "j"}, "↓", "kDown"),
		PageUp:   b([]string{"pgup", "b"}, "pgup", "kPgUp"),
		PageDown: b([]string{"pgdown", "space", "f"}, "pgdn/space", "kPgDn"),
		Lang:     b([]string{"L"}, "L", "kLang"),
		Help:     b([]string{"?"}, "?", "kHelp"),
		Quit:     b([]string{"q", "ctrl+c"}, "q", "kQuit"),
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
