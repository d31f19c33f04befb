package learn

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/vectors"
)

// boardWith is the board of a gate that answers every vector as the book
// does but one, to which it answers line.
func boardWith(t *testing.T, id, line string) Board {
	t.Helper()
	found := false
	o := outcome(func(v vectors.Vector) []byte {
		if v.ID == id {
			found = true
			return []byte(line)
		}
		return finishedGate(v)
	}, 0)
	require.True(t, found, "no vector %s", id)
	b := NewBoard(o)
	require.NotNil(t, b.First)
	require.Equal(t, id, b.First.Vector.ID)
	return b
}

// TestHintsNameTheEdge: the third hint names the edge each vector is
// about, and where the gate stopped early or went past the rule.
func TestHintsNameTheEdge(t *testing.T) {
	const allowed = `{"status":"allowed","code":"admission_allowed","correlationId":"call-1"}`
	for _, tc := range []struct {
		id, line string
		want     []string
	}{
		{"rule/1/name-is-case-sensitive", allowed, []string{"Rule 1 fires here", "compared exactly: a name that differs only in case"}},
		{"rule/1/request-version-absent-tool-v1", allowed, []string{`absent and one that is "" are different values`}},
		{"rule/1/only-the-first-entry-of-a-name-is-read", allowed, []string{"Only the first tool of a name counts"}},
		{"rule/2/record-without-correlation-id", `{"status":"allowed","code":"admission_allowed","correlationId":"call-3"}`,
			[]string{"A record without a correlationId conflicts"}},
		{"rule/3/argument-whitespace", allowed, []string{"your gate answered by rule 8", "String.prototype.trim"}},
		{"rule/3/listed-twice-missing-twice", `{"status":"rejected","code":"invalid_arguments","correlationId":"call-1","missingArguments":["noteId"]}`,
			[]string{"Your gate found rule 3", "missing twice"}},
		{"rule/3/missing-in-contract-order-not-alphabetical", `{"status":"rejected","code":"invalid_arguments","correlationId":"call-2","missingArguments":["noteId","title"]}`,
			[]string{"not sorted"}},
		{"rule/3/name-of-an-inherited-property", allowed, []string{"constructor, __proto__ or toString"}},
		{"rule/3/argument-zero-width-space-is-not-blank", `{"status":"rejected","code":"invalid_arguments","correlationId":"call-1","missingArguments":["noteId"]}`,
			[]string{"answered by rule 3, but rule 8 decides this input: rule 3 passes here", "U+200B"}},
		{"rule/4/before-rule-7", `{"status":"requires_approval","code":"approval_missing","correlationId":"call-2"}`,
			[]string{"answered by rule 7", "rule 4 comes first", "absent is not \"ready\""}},
		{"rule/5/timed-out-effect-absent-does-not-fire", `{"status":"effect_unknown","code":"timed_out_without_readback","correlationId":"call-4","effectStatus":"unknown"}`,
			[]string{"rule 5 passes here", `does not fire rule 5: the book asks for "unknown" exactly`, "Trainer's note, not the book's"}},
		{"rule/6/succeeded-verification-absent", allowed, []string{`absent is not "accepted"`}},
		{"rule/7/approval-expired", `{"status":"requires_approval","code":"approval_missing","correlationId":"call-2"}`,
			[]string{"Your gate found rule 7", `here "expired" gives approval_expired`}},
		{"rule/7/class-absent-fails-closed", allowed, []string{"(fail closed)"}},
		{"rule/7/scope-absent-matched-by-unscoped-approval", `{"status":"requires_approval","code":"approval_scope_mismatch","correlationId":"call-2"}`,
			[]string{"rule 7 passes here", "A scope that is absent equals only an absent one"}},
		{"rule/1/unknown-tool", `{"error":"TypeError: Cannot read properties of undefined (assess.mjs:3:9)"}`,
			[]string{"answered with an error where a verdict was expected", "Rule 1 fires here"}},
	} {
		t.Run(tc.id, func(t *testing.T) {
			b := boardWith(t, tc.id, tc.line)
			hint := Hint(b, 3, assess.English)
			for _, w := range tc.want {
				assert.Contains(t, strings.ToLower(hint), strings.ToLower(w))
			}
			zh := Hint(b, 3, assess.Chinese)
			assert.NotEmpty(t, zh)
			assert.NotContains(t, zh, "%!", "a verb without its argument")
		})
	}
}

// TestEveryVectorHasHints: whatever a gate answers wrong, every decision
// vector has three levels of hint in both languages, none showing code —
// no "return", "===", "if (" — and none with a formatting slip.
func TestEveryVectorHasHints(t *testing.T) {
	for _, v := range Vectors() {
		if v.Layer != vectors.LayerDecision && !strings.HasPrefix(v.ID, "json/duplicate-field-in") {
			continue
		}
		for _, line := range []string{`{"status":"allowed","code":"admission_allowed","correlationId":"x"}`, `{"error":"nope"}`} {
			o := outcome(func(w vectors.Vector) []byte {
				if w.ID == v.ID {
					return []byte(line)
				}
				return finishedGate(w)
			}, 0)
			b := NewBoard(o)
			if b.First == nil {
				continue // the gate's answer happens to agree
			}
			for _, l := range []assess.Lang{assess.English, assess.Chinese} {
				for level := 1; level <= MaxHint; level++ {
					h := Hint(b, level, l)
					require.NotEmpty(t, h, "%s level %d", v.ID, level)
					for _, bad := range []string{"%!", "return ", "===", "if (", "func ", "def "} {
						require.NotContains(t, h, bad, "%s level %d", v.ID, level)
					}
				}
			}
		}
	}
}
