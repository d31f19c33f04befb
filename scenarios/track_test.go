package scenarios_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/scenarios"
)

// TestTrackText: a track reads and writes as its name, in files and JSON,
// and the zero value (no track) neither writes nor reads.
func TestTrackText(t *testing.T) {
	for _, tr := range scenarios.Tracks {
		b, err := tr.MarshalText()
		require.NoError(t, err)
		var back scenarios.Track
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, tr, back)
		parsed, err := scenarios.ParseTrack(tr.String())
		require.NoError(t, err)
		assert.Equal(t, tr, parsed)
	}
	assert.Equal(t, []string{"admission", "audit", "outcome"},
		[]string{scenarios.TrackAdmission.String(), scenarios.TrackAudit.String(), scenarios.TrackOutcome.String()})
	var zero scenarios.Track
	assert.False(t, zero.Valid())
	assert.Equal(t, "Track(0)", zero.String())
	_, err := zero.MarshalText()
	assert.Error(t, err)
	_, err = json.Marshal(struct{ T scenarios.Track }{})
	assert.Error(t, err, "no track is not written as some track")
	_, err = scenarios.ParseTrack("")
	assert.EqualError(t, err, `track "": want admission, audit, outcome`)
	_, err = scenarios.ParseTrack("Audit")
	assert.Error(t, err, "names are exact")
	b, err := json.Marshal(struct {
		T scenarios.Track `json:"track"`
	}{scenarios.TrackAudit})
	require.NoError(t, err)
	assert.JSONEq(t, `{"track":"audit"}`, string(b))
}

// TestNoCaseIsNoTrack: a scenario nobody filled in has no track, and
// checking it is an error, not an admission check.
func TestNoCaseIsNoTrack(t *testing.T) {
	s := scenarios.Scenario{ID: "x"}
	assert.Equal(t, scenarios.Track(0), s.Track())
	assert.EqualError(t, s.Check(), `scenario "x" has no track`)
	assert.Empty(t, scenarios.InTrack([]scenarios.Scenario{s}, scenarios.TrackAdmission))
}

// TestCasesKnowTheirTrack: each built-in scenario's case is its track's.
func TestCasesKnowTheirTrack(t *testing.T) {
	for _, s := range scenarios.Builtin() {
		switch c := s.Case.(type) {
		case scenarios.AdmissionCase:
			assert.Equal(t, scenarios.TrackAdmission, c.Track(), s.ID)
		case scenarios.AuditCase:
			assert.Equal(t, scenarios.TrackAudit, c.Track(), s.ID)
		case scenarios.OutcomeCase:
			assert.Equal(t, scenarios.TrackOutcome, c.Track(), s.ID)
		default:
			t.Errorf("%s: no case", s.ID)
		}
	}
}
