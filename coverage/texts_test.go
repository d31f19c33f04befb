package coverage

import (
	"testing"

	"toolgate/internal/texttest"
)

// Every text of the coverage report is there in English and in Chinese.
func TestTexts(t *testing.T) { texttest.Complete(t, texts) }
