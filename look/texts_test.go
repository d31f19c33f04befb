package look

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"toolgate/assess"
	"toolgate/internal/texttest"
)

// Every text of look is there in English and in Chinese.
func TestTexts(t *testing.T) { texttest.Complete(t, texts) }

// Every section the fields of any track fall in has a title, and every
// outcome a word.
func TestEverySectionAndOutcomeHasText(t *testing.T) {
	fields := slices.Concat(Fields(assess.Input{}, nil), AuditFields(assess.AuditInput{}), OutcomeFields(assess.OutcomeInput{}))
	sections := Sections(fields)
	assert.Len(t, sections, 10)
	for _, s := range sections {
		_, ok := sectionTitle(s)
		assert.True(t, ok, s)
	}
	for o := assess.Passed; o <= assess.NotReached; o++ {
		for _, l := range []assess.Lang{assess.English, assess.Chinese} {
			assert.NotEmpty(t, OutcomeWord(o, l), "%v %v", o, l)
		}
	}
}
