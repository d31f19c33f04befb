package scenarios

import (
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// allocated is how many bytes f allocates: a budget that does not depend
// on the machine's speed or load.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestGuardBudget: a file nested 10,000 deep behind an apostrophe (20 KB)
// cost 180 MB and 2.6 s, and was called an alias bomb; 80 KB cost 2.5 GB.
// Now the nesting is found in the tokens before the parser recurses.
func TestGuardBudget(t *testing.T) {
	data, err := os.ReadFile("../testdata/bad/29-deep-after-an-apostrophe.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var problems error
	n := allocated(func() { _, problems = Parse("deep.yaml", data) })
	assert.ErrorContains(t, problems, "nested more than 64 levels deep")
	t.Logf("20 KB: %d bytes allocated", n)
	assert.Less(t, n, uint64(8<<20), "bytes allocated for a 20 KB file")

	// The largest file there may be, a megabyte of brackets: the nesting
	// is found in its first 64 KiB.
	big := "id: x\ntitle: {en: it's deep}\ninput: " + strings.Repeat("[", MaxFileSize/2-100) + strings.Repeat("]", MaxFileSize/2-100)
	n = allocated(func() { _, problems = Parse("big.yaml", []byte(big)) })
	assert.ErrorContains(t, problems, "3:71: nested more than 64 levels deep")
	t.Logf("1 MiB: %d bytes allocated", n)
	assert.Less(t, n, uint64(48<<20), "bytes allocated for a 1 MiB file")
}
