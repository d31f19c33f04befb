package practice

import (
	"fmt"
	"strings"

	"toolgate/assess"
	"toolgate/progress"
)

// Mastered is the Leitner box from which a rule or code counts as
// mastered: three right answers in a row since the last wrong one.
const Mastered = 4

// Mastery is how a rule stands in the practice.
type Mastery struct {
	Rule assess.Rule
	// Box is its Leitner box, 0 when never practised.
	Box          int
	Right, Wrong int
}

// IsMastered reports whether the rule is in a box from Mastered up.
func (m Mastery) IsMastered() bool { return m.Box >= Mastered }

// Rules is the mastery of each rule, 1 to 8, from the progress.
func Rules(p progress.Progress) []Mastery {
	out := make([]Mastery, 0, assess.NumRules)
	for r := assess.RuleToolInContract; r <= assess.RuleAllow; r++ {
		b := p.Practice[RuleKey(r)]
		out = append(out, Mastery{Rule: r, Box: b.Box, Right: b.Right, Wrong: b.Wrong})
	}
	return out
}

// Boxes draws the rules' boxes in eight cells, rule 1 first: · never
// practised, ▁ box 1 (just missed) up to █ box 5.
func Boxes(p progress.Progress) string {
	cells := []string{"·", "▁", "▃", "▅", "▇", "█"}
	var b strings.Builder
	for _, m := range Rules(p) {
		b.WriteString(cells[min(max(m.Box, 0), progress.MaxBox)])
	}
	return b.String()
}

// HeaderText is the practice's mastery in a few words for the trainer's
// header, e.g. "rules ▅█▁·▃··· 2/8 mastered"; "" before any practice.
func HeaderText(p progress.Progress, l assess.Lang) string {
	if len(p.Practice) == 0 {
		return ""
	}
	n := 0
	for _, m := range Rules(p) {
		if m.IsMastered() {
			n++
		}
	}
	if l == assess.Chinese {
		return fmt.Sprintf("规则 %s 已掌握 %d/%d", Boxes(p), n, assess.NumRules)
	}
	return fmt.Sprintf("rules %s %d/%d mastered", Boxes(p), n, assess.NumRules)
}
