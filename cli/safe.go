package cli

import (
	"toolgate/scenarios"
	"toolgate/termsafe"
)

// safeScenarios escapes what is shown of scenarios from files — where
// each came from, its titles and texts — once, as they are loaded: every
// command that prints them, the trainer and a served lecture then show
// an escape sequence in a file as \x1b, never send it to a terminal
// (ids are refused unless [a-z0-9-]: scenarios.CheckID). The inputs are
// left as they are (a control character may be what a scenario is
// about): they are always shown quoted.
func safeScenarios(list []scenarios.Scenario) {
	text := func(t *scenarios.Text) {
		t.En, t.Zh = termsafe.Text(t.En), termsafe.Text(t.Zh)
	}
	for i := range list {
		s := &list[i]
		s.File = termsafe.Line(s.File)
		s.Title.En, s.Title.Zh = termsafe.Line(s.Title.En), termsafe.Line(s.Title.Zh)
		text(&s.Story)
		text(&s.Injected)
		text(&s.DoesNotProve)
		text(&s.Notes)
	}
}
