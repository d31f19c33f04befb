package tui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/scenarios"
	"toolgate/walk"
)

// TestPollIsTheRoomsQuestion: the question a phone is asked is the SSH
// room's — the same choices, codes and right answer, in both languages —
// and the reveal shows the walk's verdict with both "does NOT prove"
// lines.
func TestPollIsTheRoomsQuestion(t *testing.T) {
	for _, s := range scenarios.Builtin() {
		for _, l := range []assess.Lang{assess.English, assess.Chinese} {
			p, r, w := PollOf(s, l), RevealOf(s, l), walk.Of(s, l)
			require.NotEmpty(t, p.Choices, s.ID)
			assert.Equal(t, w.Verdict.Headline, r.Headline, s.ID)
			assert.NotEmpty(t, r.Word, s.ID)
			var strong int
			for _, d := range w.Verdict.Details {
				if d.Strong {
					strong++
				}
			}
			assert.Len(t, r.NotProve, strong, s.ID)
			switch s.Track() {
			case scenarios.TrackAudit:
				options, correct := auditOptions(s)
				assert.Len(t, p.Choices, len(options), s.ID)
				assert.Equal(t, correct, r.Step, s.ID)
				assert.Equal(t, options[correct-1].In(l), p.Choices[correct-1].Label, s.ID)
			case scenarios.TrackAdmission, scenarios.TrackOutcome:
				assert.Len(t, p.Choices, len(w.Steps), s.ID)
				assert.Equal(t, w.Decisive, r.Step, s.ID)
			}
			for _, c := range p.Choices {
				if s.Track() != scenarios.TrackAdmission {
					assert.Empty(t, c.Codes)
					continue
				}
				if n := len(codeOptions(c.Step)); n > 1 {
					assert.Len(t, c.Codes, n, "rule %d", c.Step)
				} else {
					assert.Empty(t, c.Codes)
				}
			}
			mark, _ := r.Mark(r.Step, r.Code, l)
			assert.Equal(t, "right", mark, s.ID)
			mark, _ = r.Mark(r.Step%len(p.Choices)+1, "", l)
			if len(p.Choices) > 1 {
				assert.Equal(t, "wrong", mark, s.ID)
			}
		}
	}
}
