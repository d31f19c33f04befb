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
	for _, s := range scenarios.Builtin() {
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
		switch c := s.Case.(type) {
		case scenarios.AdmissionCase:
			assert.Equal(t, walk.AdmissionAnswer{Verdict: assess.Assess(&c.Input)}, w.Result, s.ID)
		case scenarios.AuditCase:
			r, err := assess.Audit(c.Input)
			a := w.Result.(walk.AuditAnswer)
			if err != nil {
				require.NotNil(t, a.Error, s.ID)
				assert.Equal(t, err.Error(), a.Error.Error(), s.ID)
			} else {
				assert.Equal(t, r.Diagnostics, a.Diagnostics, s.ID)
				assert.Equal(t, r.Pending, a.Pending, s.ID)
			}
		case scenarios.OutcomeCase:
			class, _, err := assess.Classify(c.Input)
			require.NoError(t, err)
			assert.Equal(t, walk.OutcomeAnswer{Class: class}, w.Result, s.ID)
		}
	}
}

// Every step of a walk carries assess's id for what it asks, on every
// track, and an audit step carries the audit's own step.
func TestStepsCarryTheCoresIDs(t *testing.T) {
	for _, s := range scenarios.Builtin() {
		w := walk.Of(s, assess.Chinese)
		var ids []string
		switch c := s.Case.(type) {
		case scenarios.AdmissionCase:
			_, trace := assess.Explain(&c.Input)
			for _, st := range trace {
				ids = append(ids, st.Rule.ID())
			}
		case scenarios.AuditCase:
			_, steps, _ := assess.ExplainAudit(c.Input)
			for i, st := range steps {
				ids = append(ids, st.Kind.ID())
				require.NotNil(t, w.Steps[i].Audit, "%s step %d", s.ID, i+1)
				assert.Equal(t, st, *w.Steps[i].Audit, "%s step %d", s.ID, i+1)
			}
		case scenarios.OutcomeCase:
			_, steps, err := assess.Classify(c.Input)
			require.NoError(t, err)
			for _, st := range steps {
				ids = append(ids, st.Class.String())
			}
		}
		got := make([]string, len(w.Steps))
		for i, st := range w.Steps {
			got[i] = st.ID
			if s.Track() != scenarios.TrackAudit {
				assert.Nil(t, st.Audit, "%s step %d", s.ID, i+1)
			}
		}
		assert.Equal(t, ids, got, s.ID)
	}
}

// The audit's input error is kept as the core's error, which says its
// reason and its place; the walk's verdict says it in the language.
func TestAuditAnswerKeepsTheInputError(t *testing.T) {
	for _, tc := range []struct {
		requested, results []string
		reason, path       string
	}{
		{[]string{"A", "A"}, []string{"A"}, "duplicate_request_id", "requested[1]"},
		{[]string{"", "B", ""}, []string{"B"}, "duplicate_request_id", "requested[2]"},
	} {
		s := scenarios.Scenario{Case: scenarios.AuditCase{Input: assess.AuditInput{Requested: tc.requested, Results: tc.results, Closed: true}}}
		w := walk.Of(s, assess.Chinese)
		a, ok := w.Result.(walk.AuditAnswer)
		require.True(t, ok)
		require.NotNil(t, a.Error)
		assert.Equal(t, []string{tc.reason, tc.path}, []string{a.Error.Reason(), a.Error.Path})
		assert.Equal(t, len(w.Steps), w.Decisive, "the step that found it decides")
		assert.Contains(t, w.Verdict.Details[0].Text, tc.path)
		assert.Contains(t, w.Verdict.Details[0].Text, "：", "said in Chinese")
	}
}

// An admission walk says its two layers: the input check passed (the
// trainer's, not the book's), then the book's rules; a step the book
// decides where a careful harness would go further carries the trainer's
// note apart from its explanation.
func TestAdmissionWalkShowsBothLayersAndTheTrainersNotes(t *testing.T) {
	s, ok := scenarios.Find(scenarios.Builtin(), scenarios.TrackAdmission, "timed-out-no-effect-status")
	require.True(t, ok)
	for _, l := range []assess.Lang{assess.English, assess.Chinese} {
		w := walk.Of(s, l)
		require.NotNil(t, w.Check)
		assert.True(t, w.Check.Passed)
		assert.Contains(t, w.Check.Title, map[assess.Lang]string{assess.English: "not a rule", assess.Chinese: "不是规则"}[l])
		assert.Contains(t, w.Check.Explanation, map[assess.Lang]string{assess.English: "toolgate checks this before the book's rules", assess.Chinese: "toolgate 在本书规则之前做的检查"}[l])
		step := w.Steps[assess.RuleTimeout-1]
		assert.Equal(t, assess.Passed, step.Outcome)
		assert.NotEmpty(t, step.Aside)
		assert.NotContains(t, step.Explanation, step.Aside, "the note is apart from the book's explanation")
		assert.NotEmpty(t, walk.AsideLabel(l))
		for i, st := range w.Steps {
			if i != int(assess.RuleTimeout-1) {
				assert.Empty(t, st.Aside, "step %d", i+1)
			}
		}
	}
	o := walk.Of(scenarios.InTrack(scenarios.Builtin(), scenarios.TrackOutcome)[0], assess.English)
	assert.Nil(t, o.Check)
}

// TestNoTrackIsRefused: a scenario with no case is not walked as some
// track's: its walk says so and has no answer.
func TestNoTrackIsRefused(t *testing.T) {
	w := walk.Of(scenarios.Scenario{ID: "x"}, assess.English)
	assert.Nil(t, w.Result)
	assert.Empty(t, w.Steps)
	assert.Equal(t, "INPUT ERROR", w.Verdict.Headline)
	require.Len(t, w.Verdict.Details, 1)
	assert.Contains(t, w.Verdict.Details[0].Text, "no track")
}
