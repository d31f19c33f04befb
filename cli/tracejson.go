package cli

import (
	"io"

	"toolgate/assess"
	"toolgate/scenarios"
	"toolgate/walk"
)

// The machine-readable walk: one shape for `trace --format json` and
// `assess --trace` (docs/output.schema.json, docs/output.md). Keys are
// stable English identifiers and values are raw JSON values; the only
// strings in the chosen language are in objects and fields named "text".

// stepJSON is one step of a walk, on every track: an admission rule, an
// audit check, an outcome question.
type stepJSON struct {
	// Step is the step's number from 1; on the admission track it is
	// the rule's number.
	Step int `json:"step"`
	// ID names what the step asks, in the polarity that fires: a rule id
	// ("environment_not_ready"), an audit check ("duplicate_request_id",
	// "result", "batch_end") or an outcome class ("protocol_error").
	ID      string   `json:"id"`
	Outcome string   `json:"outcome"`
	Reads   []string `json:"reads"`
	// Audit steps: the result this step looked at, the diagnostics it
	// found, and at the batch end the requested IDs never seen.
	Result      *auditResultJSON `json:"result,omitempty"`
	Diagnostics []string         `json:"diagnostics,omitempty"`
	Unseen      []string         `json:"unseen,omitempty"`
	Text        stepTextJSON     `json:"text"`
}

type auditResultJSON struct {
	Index int    `json:"index"`
	ID    string `json:"id"`
}

type stepTextJSON struct {
	Title       string `json:"title"`
	Question    string `json:"question"`
	Explanation string `json:"explanation"`
	// TrainerNote is the trainer's note on the step, never the book's
	// word: where a careful harness would go further than the book.
	TrainerNote string `json:"trainerNote,omitempty"`
}

// checkJSON is the first layer of a walk: toolgate's input check, not
// the book's (nor the seed's). Every input that gets a walk has passed
// it; an input it refuses gets an error line instead.
type checkJSON struct {
	Passed bool          `json:"passed"`
	Text   checkTextJSON `json:"text"`
}

type checkTextJSON struct {
	Title       string `json:"title"`
	Explanation string `json:"explanation"`
}

// checkOf is a walk's input check as JSON; nil when the track has none
// (the outcome track's classification is its own check).
func checkOf(c *walk.Check) *checkJSON {
	if c == nil {
		return nil
	}
	return &checkJSON{Passed: c.Passed, Text: checkTextJSON{Title: c.Title, Explanation: c.Explanation}}
}

// caveatJSON is one thing a verdict does NOT prove, and where it comes
// from: the rule that decided (admission), the track (audit, outcome),
// or the scenario.
type caveatJSON struct {
	Source string `json:"source"`
	Text   string `json:"text"`
}

// The sources of a caveat; the audit's and the outcomes' are their
// track's name (scenarios.Track's String).
const (
	caveatRule     = "rule"
	caveatScenario = "scenario"
)

// stepsJSON is a walk's steps with their raw values. Steps are numbered
// from 1, so an admission step's number is its rule's.
func stepsJSON(steps []walk.Step) []stepJSON {
	out := make([]stepJSON, len(steps))
	for i, st := range steps {
		sj := stepJSON{Step: i + 1, ID: st.ID, Outcome: st.Outcome.String(), Reads: nonNil(st.Reads),
			Text: stepTextJSON{Title: st.Title, Question: st.Question, Explanation: st.Explanation, TrainerNote: st.Aside}}
		if a := st.Audit; a != nil {
			if a.Kind == assess.AuditScan && a.Err == nil {
				sj.Result = &auditResultJSON{Index: a.Index, ID: a.ID}
			}
			sj.Diagnostics = a.Added
			if a.Kind == assess.AuditClose {
				sj.Unseen = nonNil(a.Unseen)
			}
		}
		out[i] = sj
	}
	return out
}

// detailsJSON sorts a verdict's lines into the JSON's places: what it
// does NOT prove (from source, or from the scenario) and the texts by
// key. The lines that repeat a raw value of the verdict are left out.
func detailsJSON(details []walk.Detail, source string, text map[string]string) []caveatJSON {
	dnp := []caveatJSON{}
	for _, d := range details {
		switch d.Key {
		case walk.DetailDoesNotProve:
			dnp = append(dnp, caveatJSON{Source: source, Text: d.Text})
		case walk.DetailScenarioDoesNotProve:
			dnp = append(dnp, caveatJSON{Source: caveatScenario, Text: d.Text})
		case walk.DetailCorrelationID, walk.DetailMissingArguments, walk.DetailEffectStatus, walk.DetailPending:
			// raw in the verdict
		default:
			text[d.Key] = d.Text
		}
	}
	return dnp
}

// tracedLine is a line of `toolgate assess --trace`: the verdict line of
// docs/decision.md §2, unchanged, with the language, the trace, what the verdict does
// NOT prove and its texts.
type tracedLine struct {
	verdictLine
	Lang         string            `json:"lang"`
	DoesNotProve []caveatJSON      `json:"doesNotProve"`
	Text         map[string]string `json:"text"`
}

// explainedLine decides an input with its trace, for assess --trace.
func explainedLine(in *assess.Input, l assess.Lang) *tracedLine {
	v, t := assess.Explain(in)
	line := &tracedLine{verdictLine: verdictLine{VerdictJSON: v.JSON(), Check: passedCheck(l), Trace: stepsJSON(walk.AdmissionSteps(t, l))},
		Lang: l.String(), Text: map[string]string{}}
	line.DoesNotProve = detailsJSON(walk.AdmissionDetails(v, l), caveatRule, line.Text)
	return line
}

// passedCheck is the input check every decoded admission input has
// passed, as walk says it in a language.
func passedCheck(l assess.Lang) *checkJSON {
	c := walk.AdmissionCheck(l)
	return checkOf(&c)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// scenarioJSON is one scenario walked to its verdict.
type scenarioJSON struct {
	Track  scenarios.Track `json:"track"`
	Number int             `json:"number"`
	ID     string          `json:"id"`
	Lang   string          `json:"lang"`
	Input  any             `json:"input"`
	// Verdict is the track's answer: an admission verdict (docs/decision.md §2), an
	// audit's diagnostics and pending IDs (or its input error), or an
	// outcome class.
	Verdict  any `json:"verdict"`
	Decisive int `json:"decisive"`
	// Check is the input check before the steps: toolgate's, not the
	// book's; absent on the outcome track.
	Check        *checkJSON   `json:"check,omitempty"`
	Trace        []stepJSON   `json:"trace"`
	DoesNotProve []caveatJSON `json:"doesNotProve"`
	// Text holds every text in the chosen language: the scenario's
	// title, story and injected line, the verdict's headline and lines.
	Text map[string]string `json:"text"`
	// PathToAllowed is set for admission scenarios (cli/path.go).
	PathToAllowed *pathJSON `json:"pathToAllowed,omitempty"`
}

type auditVerdictJSON struct {
	Diagnostics []string        `json:"diagnostics"`
	Pending     []string        `json:"pending"`
	Error       *auditErrorJSON `json:"error,omitempty"`
}

// auditErrorJSON is the audit's input error as data; its text is in the
// scenario's text.error.
type auditErrorJSON struct {
	Path string `json:"path"`
	// Reason is "duplicate_request_id" or "empty_id".
	Reason string `json:"reason"`
	ID     string `json:"id,omitempty"`
}

type outcomeVerdictJSON struct {
	Class assess.OutcomeClass `json:"class"`
}

// scenarioDoc builds the JSON of one scenario in a language, all but
// its path to allowed (traceDoc).
func scenarioDoc(s scenarios.Scenario, l assess.Lang) scenarioJSON {
	wk := walk.Of(s, l)
	doc := scenarioJSON{Track: s.Track(), Number: s.Number, ID: s.ID, Lang: l.String(), Decisive: wk.Decisive,
		Verdict: verdictJSON(wk), Check: checkOf(wk.Check), Trace: stepsJSON(wk.Steps),
		Text: map[string]string{"title": s.Title.In(l), "headline": wk.Verdict.Headline}}
	for key, t := range map[string]scenarios.Text{"story": s.Story, "injected": s.Injected, "notes": s.Notes} {
		if text := t.In(l); text != "" {
			doc.Text[key] = text
		}
	}
	var caveat string
	switch c := s.Case.(type) {
	case scenarios.AdmissionCase:
		caveat = caveatRule
		doc.Input = c.Input
	case scenarios.AuditCase:
		caveat = s.Track().String()
		doc.Input = c.Input
	case scenarios.OutcomeCase:
		caveat = s.Track().String()
		doc.Input = c.Input
	}
	doc.DoesNotProve = detailsJSON(wk.Verdict.Details, caveat, doc.Text)
	return doc
}

// verdictJSON is a walk's answer as the JSON has it: an admission
// verdict, an audit's (or its input error), an outcome class.
func verdictJSON(wk walk.Walk) any {
	switch r := wk.Result.(type) {
	case walk.AdmissionAnswer:
		return r.Verdict
	case walk.AuditAnswer:
		av := auditVerdictJSON{Diagnostics: nonNil(r.Diagnostics), Pending: nonNil(r.Pending)}
		if e := r.Error; e != nil {
			av.Error = &auditErrorJSON{Path: e.Path, Reason: e.Reason(), ID: e.ID}
		}
		return av
	case walk.OutcomeAnswer:
		return outcomeVerdictJSON{Class: r.Class}
	}
	return nil // no answer: an input the core refused
}

// traceDoc is a scenario's JSON for trace --format json: scenarioDoc and,
// for an admission scenario, its path to allowed.
func traceDoc(s scenarios.Scenario, l assess.Lang) scenarioJSON {
	doc := scenarioDoc(s, l)
	if c, ok := s.Case.(scenarios.AdmissionCase); ok {
		doc.PathToAllowed = pathToAllowedJSON(c.Input, l)
	}
	return doc
}

// writeTraceJSON writes one scenario as an object, several as an array.
func writeTraceJSON(w io.Writer, list []scenarios.Scenario, l assess.Lang) error {
	out := make([]scenarioJSON, len(list))
	for i, s := range list {
		out[i] = traceDoc(s, l)
	}
	if len(out) == 1 {
		return writeJSONDocument(w, out[0])
	}
	return writeJSONDocument(w, out)
}
