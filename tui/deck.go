package tui

import (
	"toolgate/assess"
	"toolgate/scenarios"
	"toolgate/walk"
)

// deck is the scenarios as loaded, by track: what every mode walks. It
// never changes once built; a reload builds another, which the root hands
// to the modes (deckMsg).
type deck struct {
	all []scenarios.Scenario
	// byTrack is all by track, in the order of scenarios.Tracks; last is
	// the last step of each as written.
	byTrack [][]scenarios.Scenario
	last    [][]int
	// short is each scenario's answer in a few words, in each language,
	// for the list.
	short [][][2]string
}

func newDeck(all []scenarios.Scenario) *deck {
	d := &deck{all: all}
	for _, t := range scenarios.Tracks {
		in := scenarios.InTrack(all, t)
		lasts := make([]int, len(in))
		shorts := make([][2]string, len(in))
		for i, s := range in {
			en := walk.Of(s, assess.English)
			lasts[i] = en.Decisive + 1
			shorts[i] = [2]string{listAnswer(en), listAnswer(walk.Of(s, assess.Chinese))}
		}
		d.byTrack = append(d.byTrack, in)
		d.last = append(d.last, lasts)
		d.short = append(d.short, shorts)
	}
	return d
}

// find is where a scenario is, by id.
func (d *deck) find(id string) (track, index int, ok bool) {
	for t, in := range d.byTrack {
		for i, s := range in {
			if s.ID == id {
				return t, i, true
			}
		}
	}
	return 0, 0, false
}

// listAnswer is a walk's answer for the list, short enough for its
// column: the status's symbol and the code (the code names the status),
// or the audit's diagnostics, or the class.
func listAnswer(w walk.Walk) string {
	if a, ok := w.Result.(walk.AdmissionAnswer); ok {
		return w.Verdict.Symbol + " " + a.Verdict.Code.String()
	}
	return w.Verdict.Symbol + " " + w.Verdict.Short
}
