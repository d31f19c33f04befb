package gatecheck

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"toolgate/decode"
	"toolgate/internal/texttest"
)

// Every text of the report is there in English and in Chinese.
func TestTexts(t *testing.T) { texttest.Complete(t, texts) }

// Every reason the input check gives has a text of its own, not its name.
func TestEveryReasonHasText(t *testing.T) {
	for _, r := range decode.Reasons() {
		assert.NotEqual(t, text{r, r}, reasonText(r), r)
	}
}
