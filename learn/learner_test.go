package learn

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
)

// rule3Bugs turn each language's finished gate (testdata/solution) into
// one that gets rule 3 wrong the way learners do: a blank string taken
// for a value, since it is not trimmed.
var rule3Bugs = map[Lang][2]string{
	JavaScript: {"v.trim() === ''", "v === ''"},
	Python:     {`args[n].strip(JS_TRIM) == ""`, `args[n] == ""`},
	Go:         {`strings.Trim(s, jsTrim) == ""`, `s == "" && strings.Trim(s, jsTrim) == ""`},
	Java:       {"blank((String) value)", "((String) value).isEmpty()"},
}

// prints make each language's gate print a line the way a learner debugs,
// on what is stdout to the learner: the harness must keep it out of the
// answers.
var prints = map[Lang][2]string{
	JavaScript: {"const id = request.correlationId;", "const id = request.correlationId; console.log('checking', id);"},
	Python:     {`rid = request["correlationId"]`, `rid = request["correlationId"]; print("checking", rid)`},
	Go:         {"id := in.Request.CorrelationID", "id := in.Request.CorrelationID; fmt.Println(\"checking\", id)"},
	Java:       {`String id = (String) request.get("correlationId");`, `String id = (String) request.get("correlationId"); System.out.println("checking " + id);`},
}

// solution is the finished gate of a language, with rule 3 wrong or not.
func solution(t *testing.T, l Lang, rule3Wrong bool) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "solution", l.DecisionFile()))
	require.NoError(t, err)
	if rule3Wrong {
		bug := rule3Bugs[l]
		require.Contains(t, string(data), bug[0])
		data = bytes.Replace(data, []byte(bug[0]), []byte(bug[1]), 1)
		p := prints[l]
		require.Contains(t, string(data), p[0])
		data = bytes.Replace(data, []byte(p[0]), []byte(p[1]), 1)
		if l == Go {
			data = bytes.Replace(data, []byte(`import "strings"`), []byte("import (\n\t\"fmt\"\n\t\"strings\"\n)"), 1)
		}
	}
	return data
}

// TestScriptedLearner is a learner's way through the track in each
// language whose toolchain is here: the starter is red, the seed's red
// step; a gate that gets rule 3 wrong passes rules 1 and 2 and fails rule
// 3 on the blank argument, with toolgate's walk to rule 3; the fixed gate
// is green. Three runs of the gate a language.
func TestScriptedLearner(t *testing.T) {
	for _, l := range Langs() {
		t.Run(l.String(), func(t *testing.T) {
			if missing := l.Missing(); len(missing) > 0 {
				t.Skipf("%s is not on PATH: the %s learner is not run here", strings.Join(missing, ", "), l.Title())
			}
			t.Parallel()
			dir := t.TempDir()
			_, err := Init(dir, l)
			require.NoError(t, err)
			check := func() Board {
				return NewBoard(Check(context.Background(), Config{Dir: dir, Lang: l, BuildDir: t.TempDir()}))
			}

			red := check()
			require.Equal(t, StateRed, red.State, "%+v", red.Problem)
			assert.Equal(t, 1, red.Current)
			var text bytes.Buffer
			WriteText(&text, red, assess.English)
			assert.Contains(t, text.String(), "this is the seed's red step")

			write := func(data []byte) {
				require.NoError(t, os.WriteFile(filepath.Join(dir, l.DecisionFile()), data, 0o644))
			}
			write(solution(t, l, true))
			mid := check()
			require.Equal(t, StateFailing, mid.State, "%+v", mid.Problem)
			assert.Contains(t, mid.Stderr, "checking", "what the learner printed is shown, apart from the answers")
			assert.Equal(t, 3, mid.Current, "rule 3 is the one to work on")
			for _, s := range mid.Stages[:2] {
				assert.Zero(t, s.Failing(), "rule %d passes", s.Number)
			}
			require.NotNil(t, mid.First)
			assert.Equal(t, "scenario/blank-argument", mid.First.Vector.ID, "the first rule-3 vector it fails")
			assert.Equal(t, 8, mid.First.GateRule, "the gate let the blank argument through")
			w := mid.First.Walk(assess.English)
			assert.Equal(t, 3, w.Decisive, "toolgate's walk goes to rule 3")
			assert.Contains(t, w.Steps[2].Explanation, "blank after trimming whitespace")
			text.Reset()
			WriteText(&text, mid, assess.English)
			assert.Contains(t, text.String(), "rule 3 fails on scenario/blank-argument")
			assert.Contains(t, text.String(), "3 ➤ Arguments unusable")
			assert.Contains(t, Hint(mid, 3, assess.English), "String.prototype.trim")

			write(solution(t, l, false))
			green := check()
			require.Equal(t, StateGreen, green.State, "%+v", green.Problem)
			agree, total := green.Decision()
			assert.Equal(t, total, agree)
			assert.Equal(t, 8, green.Rules())
		})
	}
}
