package walk_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/scenarios"
	"toolgate/walk"
)

// Every scenario of every track walks to a verdict that says what it does
// NOT prove, in both languages, and the walk's answer is the core's.
func TestEveryScenarioWalks(t *testing.T) {
	for _, s := range scenarios.MustBuiltin() {
		for _, l := range []assess.Lang{assess.English, assess.Chinese} {
			w := walk.Of(s, l)
			require.NotEmpty(t, w.Steps, s.ID)
			require.GreaterOrEqual(t, w.Decisive, 1, s.ID)
			require.LessOrEqual(t, w.Decisive, len(w.Steps), s.ID)
			for i, st := range w.Steps {
				assert.NotEmpty(t, st.Title, "%s step %d", s.ID, i+1)
				assert.NotEmpty(t, st.Question, "%s step %d", s.ID, i+1)
				if i+1 > w.Decisive {
					assert.Equal(t, assess.NotReached, st.Outcome, "%s step %d", s.ID, i+1)
				}
			}
			assert.NotEmpty(t, w.Verdict.Headline, s.ID)
			assert.NotEmpty(t, w.Verdict.Symbol, s.ID)
			strong := 0
			for _, d := range w.Verdict.Details {
				if d.Strong {
					strong++
				}
			}
			want := 1
			if s.DoesNotProve.In(l) != "" {
				want = 2 // the scenario's own caveat is a "does not prove" line too
			}
			assert.Equal(t, want, strong, "%s: the 'does NOT prove' lines", s.ID)
			assert.NotEmpty(t, w.Fields, s.ID)
		}
		w := walk.Of(s, assess.English)
		switch s.Track {
		case scenarios.TrackAdmission:
			assert.Equal(t, assess.Assess(&s.Input), w.Result, s.ID)
		case scenarios.TrackAudit:
			r, err := assess.Audit(s.Audit)
			a := w.Result.(walk.AuditAnswer)
			if err != nil {
				assert.Equal(t, err.Error(), a.Error, s.ID)
			} else {
				assert.Equal(t, r.Diagnostics, a.Diagnostics, s.ID)
				assert.Equal(t, r.Pending, a.Pending, s.ID)
			}
		case scenarios.TrackOutcome:
			class, _, err := assess.Classify(s.Outcome)
			require.NoError(t, err)
			assert.Equal(t, walk.OutcomeAnswer{Class: class}, w.Result, s.ID)
		}
	}
}
