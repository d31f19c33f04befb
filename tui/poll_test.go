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
			if ac, ok := s.Case.(scenarios.AdmissionCase); ok {
				// What a phone can send for the right rule, marked as the
				// scenario file expects: its code right, any other code or
				// none half right, where the rule offers several codes.
				right := p.Choices[r.Step-1]
				if len(right.Codes) == 0 {
					mark, _ = r.Mark(r.Step, "", l)
					assert.Equal(t, "right", mark, "%s: a rule of one code needs none", s.ID)
				}
				for _, c := range right.Codes {
					want := "half"
					if c.Code == ac.Expect.Code.String() {
						want = "right"
					}
					mark, _ = r.Mark(r.Step, c.Code, l)
					assert.Equal(t, want, mark, "%s: code %s", s.ID, c.Code)
				}
				if len(right.Codes) > 0 {
					mark, _ = r.Mark(r.Step, "", l)
					assert.Equal(t, "half", mark, "%s: the rule without its code, as over SSH", s.ID)
				}
			}
			mark, _ = r.Mark(r.Step%len(p.Choices)+1, "", l)
			if len(p.Choices) > 1 {
				assert.Equal(t, "wrong", mark, s.ID)
			}
		}
	}
}

// An audit or an outcome allows and refuses nothing: the word beside a
// reveal's symbol on those tracks is none of the admission verdict's.
func TestRevealWordsBelongToTheirTrack(t *testing.T) {
	for _, s := range scenarios.Builtin() {
		for _, l := range []assess.Lang{assess.English, assess.Chinese} {
			word := RevealOf(s, l).Word
			require.NotEmpty(t, word, s.ID)
			if s.Track() == scenarios.TrackAdmission {
				continue
			}
			for _, verdict := range []string{"allowed", "refused", "held", "允许", "拒绝", "暂缓"} {
				assert.NotEqual(t, verdict, word, "%s %v", s.ID, l)
			}
		}
	}
}
