package practice

import (
	"fmt"

	"toolgate/scenarios"
)

// title names a case in both languages, by its scenario's number only: a
// scenario's title can be a rule's ("Correlation conflict", 参数形状不合格),
// which would give the answer away.
func title(base scenarios.Scenario) scenarios.Text {
	return scenarios.Text{
		En: fmt.Sprintf("Practice: scenario %d, changed", base.Number),
		Zh: fmt.Sprintf("练习：场景 %d（有改动）", base.Number),
	}
}

// story says, in both languages, which scenario the case changes and
// what changed — never what the change decides, nor a rule's number,
// title or code (it names the scenario by its number alone, for the same
// reason as title).
func story(base scenarios.Scenario, ch Change) scenarios.Text {
	return scenarios.Text{
		En: fmt.Sprintf("Scenario %d, with one change: %s Everything else is as in the scenario. Which rule decides now, and with which code?",
			base.Number, ChangeText(ch, 0)),
		Zh: fmt.Sprintf("场景 %d，只改了一处：%s其余与原场景相同。现在由哪条规则作出判断，代码是什么？",
			base.Number, ChangeText(ch, 1)),
	}
}

// ChangeText says a change as a sentence in a language (0 English, 1
// Chinese): the field, what it is now, what it was.
func ChangeText(ch Change, lang int) string {
	now, was := clip(ch.Now), clip(ch.Was)
	if ch.Op == OpInsert {
		if lang == 1 {
			return fmt.Sprintf("在 %s 插入了一个同名工具 %s（原来在这里及其后的工具各后移一位）。", ch.Path, now)
		}
		return fmt.Sprintf("a tool of the same name, %s, is put in at %s (the tools from there on move down one).", now, ch.Path)
	}
	if lang == 1 {
		switch {
		case ch.Now == absent:
			return fmt.Sprintf("%s 现在缺失（原来是 %s）。", ch.Path, was)
		case ch.Was == absent:
			return fmt.Sprintf("%s 现在是 %s（原来缺失）。", ch.Path, now)
		}
		return fmt.Sprintf("%s 现在是 %s（原来是 %s）。", ch.Path, now, was)
	}
	switch {
	case ch.Now == absent:
		return fmt.Sprintf("%s is now left out (it was %s).", ch.Path, was)
	case ch.Was == absent:
		return fmt.Sprintf("%s is now %s (it was left out).", ch.Path, now)
	}
	return fmt.Sprintf("%s is now %s (it was %s).", ch.Path, now, was)
}

// clip shortens a value shown in a story to its first 160 characters.
func clip(s string) string {
	n := 0
	for i := range s {
		if n == 160 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
