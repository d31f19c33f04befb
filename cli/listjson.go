package cli

import (
	"fmt"
	"io"
	"slices"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"toolgate/assess"
	"toolgate/learn"
	"toolgate/practice"
	"toolgate/progress"
	"toolgate/scenarios"
	"toolgate/walk"
)

// The listings a script reads, as JSON in the one schema of
// docs/output.schema.json: `list --format json` (listDocument) and
// `progress --format json` (progressReport). Keys are stable English
// identifiers; text in the chosen language is only in "text" objects.

// listItemJSON is one scenario of `list --format json`: where it is, the
// answer it walks to (the same verdict as trace --format json) and its
// title and headline.
type listItemJSON struct {
	Track    scenarios.Track   `json:"track"`
	Number   int               `json:"number"`
	ID       string            `json:"id"`
	Lang     string            `json:"lang"`
	Verdict  any               `json:"verdict"`
	Decisive int               `json:"decisive"`
	Text     map[string]string `json:"text"`
}

// writeListJSON writes the scenarios as one JSON array, even of one.
func writeListJSON(w io.Writer, all []scenarios.Scenario, l assess.Lang) error {
	out := make([]listItemJSON, len(all))
	for i, s := range all {
		wk := walk.Of(s, l)
		out[i] = listItemJSON{Track: s.Track(), Number: s.Number, ID: s.ID, Lang: l.String(), Verdict: verdictJSON(wk),
			Decisive: wk.Decisive, Text: map[string]string{"title": s.Title.In(l), "headline": wk.Verdict.Headline}}
	}
	return writeJSONDocument(w, out)
}

// progressJSON is `progress --format json`: the progress the trainer
// keeps, counted track by track as the text shows it.
type progressJSON struct {
	// File is where the progress is kept.
	File string `json:"file"`
	Lang string `json:"lang"`
	// Tracks are the loaded scenarios' tracks, in order.
	Tracks []progressTrackJSON `json:"tracks"`
	// Unloaded is progress on scenarios not loaded now (a course's
	// scenarios without --scenarios), by id.
	Unloaded []progressItemJSON `json:"unloaded"`
	// Points is the quiz score over the answers kept, a right answer a
	// point, the right rule with the wrong code half; Answered counts
	// them.
	Points   float64 `json:"points"`
	Answered int     `json:"answered"`
	// Last is the id of the scenario last open; LastLang the language
	// the trainer was last used in.
	Last     string `json:"last,omitempty"`
	LastLang string `json:"lastLang,omitempty"`
	// Learn is the exercise track (toolgate learn), a programming
	// language each, in the order learn lists them; absent before a run.
	Learn []progressLearnJSON `json:"learn,omitempty"`
	// Practice is the practice's mastery per rule; absent before any
	// practice.
	Practice *progressPracticeJSON `json:"practice,omitempty"`
}

// progressLearnJSON is the exercise track in one programming language:
// its last run stage by stage, and the best it did.
type progressLearnJSON struct {
	Lang string `json:"lang"`
	// Rules is how many rules, from rule 1 in order, passed every vector
	// in the best run; Green that one run agreed on every decision vector.
	Rules  int                       `json:"rules"`
	Green  bool                      `json:"green"`
	Runs   int                       `json:"runs"`
	Stages map[string]progress.Stage `json:"stages"`
}

// progressPracticeJSON is the practice's Leitner boxes, rule by rule.
type progressPracticeJSON struct {
	// Mastered counts the rules in a box from MasteredBox up.
	Mastered    int                `json:"mastered"`
	MasteredBox int                `json:"masteredBox"`
	Rules       []progressRuleJSON `json:"rules"`
}

type progressRuleJSON struct {
	Rule int `json:"rule"`
	// Box is 0 for a rule never practised, else 1 (just missed) to 5.
	Box      int  `json:"box"`
	Right    int  `json:"right"`
	Wrong    int  `json:"wrong"`
	Mastered bool `json:"mastered"`
}

type progressTrackJSON struct {
	Track     scenarios.Track    `json:"track"`
	Walked    int                `json:"walked"`
	Total     int                `json:"total"`
	Points    float64            `json:"points"`
	Answered  int                `json:"answered"`
	Scenarios []progressItemJSON `json:"scenarios"`
	Text      map[string]string  `json:"text"`
}

// progressItemJSON is one scenario's progress; Answer is the quiz answer
// kept, as the progress file has it.
type progressItemJSON struct {
	Number int               `json:"number,omitzero"`
	ID     string            `json:"id"`
	Walked bool              `json:"walked"`
	Answer *progress.Answer  `json:"answer,omitempty"`
	Text   map[string]string `json:"text,omitempty"`
}

// progressDoc counts the progress over the loaded scenarios.
func progressDoc(path string, p progress.Progress, all []scenarios.Scenario, l assess.Lang) progressJSON {
	doc := progressJSON{File: path, Lang: l.String(), Tracks: []progressTrackJSON{}, Unloaded: []progressItemJSON{},
		Last: p.Last, LastLang: p.Lang}
	item := func(id string) progressItemJSON {
		it := progressItemJSON{ID: id, Walked: slices.Contains(p.Walked, id)}
		if a, ok := p.Quiz[id]; ok {
			it.Answer = &a
		}
		return it
	}
	known := map[string]bool{}
	for _, group := range byTrack(all) {
		t := progressTrackJSON{Track: group[0].Track(), Total: len(group), Scenarios: []progressItemJSON{},
			Text: map[string]string{"title": group[0].Track().Title(l)}}
		halves := 0
		for _, s := range group {
			known[s.ID] = true
			it := item(s.ID)
			it.Number, it.Text = s.Number, map[string]string{"title": s.Title.In(l)}
			if it.Walked {
				t.Walked++
			}
			if it.Answer != nil {
				t.Answered++
				halves += it.Answer.Halves()
			}
			t.Scenarios = append(t.Scenarios, it)
		}
		t.Points = float64(halves) / 2
		doc.Tracks = append(doc.Tracks, t)
	}
	var other []string
	for _, id := range p.Walked {
		if !known[id] {
			other = append(other, id)
		}
	}
	for id := range p.Quiz {
		if !known[id] && !slices.Contains(other, id) {
			other = append(other, id)
		}
	}
	slices.Sort(other)
	for _, id := range other {
		doc.Unloaded = append(doc.Unloaded, item(id))
	}
	halves, answered := p.Score()
	doc.Points, doc.Answered = float64(halves)/2, answered
	for _, lang := range learn.Langs() {
		if lp, ok := p.Learn[lang.String()]; ok {
			if lp.Stages == nil {
				lp.Stages = map[string]progress.Stage{}
			}
			doc.Learn = append(doc.Learn, progressLearnJSON{Lang: lang.String(), Rules: lp.Rules, Green: lp.Green,
				Runs: lp.Runs, Stages: lp.Stages})
		}
	}
	if len(p.Practice) > 0 {
		pr := &progressPracticeJSON{MasteredBox: practice.Mastered, Rules: []progressRuleJSON{}}
		for _, m := range practice.Rules(p) {
			pr.Rules = append(pr.Rules, progressRuleJSON{Rule: int(m.Rule), Box: m.Box, Right: m.Right, Wrong: m.Wrong,
				Mastered: m.IsMastered()})
			if m.IsMastered() {
				pr.Mastered++
			}
		}
		doc.Practice = pr
	}
	return doc
}

// empty is progress with nothing walked and nothing answered.
func (d progressJSON) empty() bool {
	if d.Answered > 0 || len(d.Learn) > 0 || d.Practice != nil {
		return false
	}
	for _, t := range d.Tracks {
		if t.Walked > 0 {
			return false
		}
	}
	return !slices.ContainsFunc(d.Unloaded, func(it progressItemJSON) bool { return it.Walked })
}

// writeJSONDocument writes one indented JSON document and a newline.
func writeJSONDocument(w io.Writer, v any) error {
	if err := json.MarshalWrite(w, v, jsontext.WithIndent("  "), json.Deterministic(true)); err != nil {
		return fmt.Errorf("writing the JSON: %w", err)
	}
	_, err := fmt.Fprintln(w)
	return err
}
