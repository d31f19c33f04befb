package scenarios

import (
	"fmt"
	"strings"

	"toolgate/assess"
)

// Track is a scenario's track: which core answers it. The zero value is
// no track: it is not valid, so a Track nobody set is caught (by Valid,
// MarshalText and String) rather than taken for admission.
type Track uint8

// The tracks, in the order they are shown.
const (
	TrackAdmission Track = iota + 1
	TrackAudit
	TrackOutcome
)

// Tracks lists the tracks in order.
var Tracks = []Track{TrackAdmission, TrackAudit, TrackOutcome}

// trackNames are the tracks' names in files, flags and JSON, by Track.
var trackNames = [...]string{TrackAdmission: "admission", TrackAudit: "audit", TrackOutcome: "outcome"}

// TrackNames lists the tracks' names for a message: "admission, audit,
// outcome".
func TrackNames() string {
	names := make([]string, len(Tracks))
	for i, t := range Tracks {
		names[i] = t.String()
	}
	return strings.Join(names, ", ")
}

// Valid says whether t is one of Tracks.
func (t Track) Valid() bool { return t >= TrackAdmission && int(t) < len(trackNames) }

// String is the track's name ("admission"), or Track(n) for a value that
// is not a track.
func (t Track) String() string {
	if !t.Valid() {
		return fmt.Sprintf("Track(%d)", uint8(t))
	}
	return trackNames[t]
}

// ParseTrack reads a track's name.
func ParseTrack(s string) (Track, error) {
	for _, t := range Tracks {
		if trackNames[t] == s {
			return t, nil
		}
	}
	return 0, fmt.Errorf("track %q: want %s", s, TrackNames())
}

// MarshalText writes the track's name; a value that is not a track is an
// error.
func (t Track) MarshalText() ([]byte, error) {
	if !t.Valid() {
		return nil, fmt.Errorf("scenarios: %s is not a track", t)
	}
	return []byte(trackNames[t]), nil
}

// UnmarshalText reads a track's name.
func (t *Track) UnmarshalText(b []byte) error {
	v, err := ParseTrack(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// Title names the track for people.
func (t Track) Title(l assess.Lang) string {
	switch t {
	case TrackAdmission:
		return Text{En: "Admission", Zh: "准入判断"}.In(l)
	case TrackAudit:
		return Text{En: "Correlation audit", Zh: "关联审计"}.In(l)
	case TrackOutcome:
		return Text{En: "Outcomes", Zh: "结果分类"}.In(l)
	}
	return t.String()
}
