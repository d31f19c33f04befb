package walk

import (
	"testing"

	"toolgate/internal/texttest"
)

// Every text of the walk is there in English and in Chinese.
func TestTexts(t *testing.T) { texttest.Complete(t, texts) }
