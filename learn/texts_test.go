package learn

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/internal/texttest"
)

// Every text of the exercise track is there in English and in Chinese.
func TestTexts(t *testing.T) { texttest.Complete(t, texts) }

// Every rule has a condition, each its own, and every reason the input
// check gives a text of its own, not its name.
func TestEveryRuleAndReasonHasText(t *testing.T) {
	seen := map[text]bool{}
	for r := assess.RuleToolInContract; r <= assess.NumRules; r++ {
		c := condition(r)
		assert.False(t, seen[c], "rule %d", r)
		seen[c] = true
	}
	for _, r := range decode.Reasons() {
		assert.NotEqual(t, text{r, r}, reasonText(r), r)
	}
}
