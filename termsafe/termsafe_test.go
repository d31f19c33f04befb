package termsafe

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain title":                           "plain title",
		"数据库 · ünïcode 👩‍💻":                     "数据库 · ünïcode 👩‍💻",
		"\x1b]52;c;cHduZWQ=\a":                  `\x1b]52;c;cHduZWQ=\x07`,
		"\x1b[2J\x1b]0;pwned\x07":               `\x1b[2J\x1b]0;pwned\x07`,
		"a\u202ecod.exe":                        `a\u202ecod.exe`,
		"zero\u200bwidth":                       `zero\u200bwidth`,
		"c1 \u009b31m":                          `c1 \u009b31m`,
		"two\nlines\tand tab":                   "two\\x0alines\tand tab",
		"bad \xff byte, real \ufffd":            `bad \xff byte, real ` + "\ufffd",
		"del\x7f":                               `del\x7f`,
		"isolate \u2066x\u2069 mark \u200f end": `isolate \u2066x\u2069 mark \u200f end`,
	} {
		assert.Equal(t, want, Line(in), "%q", in)
	}
	assert.Equal(t, "two\nlines\tkept, \\x1b[2J not", Text("two\nlines\tkept, \x1b[2J not"))
	assert.NotEqual(t, "\x1b", Line("\x1b"))
	assert.Equal(t, "fine", Line("fine"))
}
