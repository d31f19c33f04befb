package plain

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/scenarios"
	"toolgate/walk"
)

func talk(t *testing.T, o Options, script string) string {
	t.Helper()
	o.Scenarios = scenarios.Builtin()
	var out bytes.Buffer
	require.NoError(t, Run(strings.NewReader(script), &out, o))
	return out.String()
}

// TestSessions pins what a screen reader reads: the list, a scenario
// stepped to its verdict, a prediction, the other tracks, Chinese.
func TestSessions(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   Options
		script string
	}{
		{"list-and-walk", Options{}, "4\n\n\n\n\n\n\n\n\n\nq\n"},
		{"predict", Options{Scenario: "2"}, "p\n4\nn\nv\nq\n"},
		{"tracks", Options{}, "t\n2\nv\nt\n5\nv\nq\n"},
		{"zh", Options{Lang: assess.Chinese}, "6\nv\n?\nbogus\nq\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			golden.RequireEqual(t, talk(t, tc.opts, tc.script))
		})
	}
}

// TestSameTextsAsTheTrainer: every scenario told in plain mode carries its
// walk's verdict and every detail line, as the trainer shows them.
func TestSameTextsAsTheTrainer(t *testing.T) {
	for _, l := range []assess.Lang{assess.English, assess.Chinese} {
		for _, s := range scenarios.Builtin() {
			out := talk(t, Options{Lang: l, Scenario: s.ID}, "v\nq\n")
			w := walk.Of(s, l)
			assert.Contains(t, out, w.Verdict.Headline, s.ID)
			for _, d := range w.Verdict.Details {
				assert.Contains(t, out, d.Label, s.ID)
				assert.Contains(t, out, strings.TrimSuffix(d.Text, "."), s.ID)
			}
			assert.NotContains(t, out, "\x1b", "no escape codes: a screen reader reads text")
			assert.NotContains(t, out, "╭", "no box drawing")
		}
	}
}

// TestLongLineIsRefused: a pasted or streamed line over the bound ends the
// session with a clear error, not a growing buffer.
func TestLongLineIsRefused(t *testing.T) {
	var out bytes.Buffer
	err := Run(strings.NewReader(strings.Repeat("x", maxLine+1)+"\n"), &out, Options{Scenarios: scenarios.Builtin()})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "longer than 4096 bytes")
}

// TestEndOfInputEnds: a script without q ends at the end of its input.
func TestEndOfInputEnds(t *testing.T) {
	out := talk(t, Options{}, "1\n")
	assert.Contains(t, out, "Scenario 1: Unknown tool.")
}

// TestQuizAsksBeforeItTells: with --quiz, a scenario's title and its
// "Injected:" line (which name the answer: "documentId is missing") are
// told only after the prediction, as the trainer's quiz hides them; the
// list names no title either.
func TestQuizAsksBeforeItTells(t *testing.T) {
	for _, l := range []assess.Lang{assess.English, assess.Chinese} {
		out := talk(t, Options{Lang: l, Quiz: true}, "2\n4\nq\n")
		s, ok := scenarios.Find(scenarios.Builtin(), scenarios.TrackAdmission, "2")
		require.True(t, ok)
		asked := strings.Index(out, strings.SplitN(texts.Predict.in(l), "%", 2)[0])
		require.GreaterOrEqual(t, asked, 0, "the quiz asks first:\n%s", out)
		before, after := out[:asked], out[asked:]
		// (In Chinese scenario 2's title is rule 3's name: the title line,
		// not the bare words, is what must wait.)
		title := fmt.Sprintf(texts.Scenario.in(l), s.Number, s.Title.In(l))
		assert.NotContains(t, before, title, "the title names the answer")
		assert.NotContains(t, before, s.Injected.In(l), "the injected line names the answer")
		assert.Contains(t, after, title, "told after the answer")
		assert.Contains(t, after, s.Injected.In(l), "told after the answer")
		assert.Contains(t, after, walk.Of(s, l).Verdict.Headline)
	}
}
