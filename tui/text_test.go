package tui

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEveryTextExists finds every tr("key") in the package and checks the
// key has both languages: a missing key renders as an empty string, which
// no snapshot of the common paths might show.
func TestEveryTextExists(t *testing.T) {
	re := regexp.MustCompile(`tr\("([A-Za-z]+)"`)
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), "_test.go") || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		data, err := os.ReadFile(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			text, ok := ui[m[1]]
			if assert.True(t, ok, "%s uses tr(%q), which is not in ui", e.Name(), m[1]) {
				assert.NotEmpty(t, text[0], m[1])
				assert.NotEmpty(t, text[1], m[1])
			}
		}
	}
}
