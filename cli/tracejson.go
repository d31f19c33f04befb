package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

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
	// ("environment_not_ready"), an audit check ("duplicate_or_empty_request_id",
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
}

// caveatJSON is one thing a verdict does NOT prove, and where it comes
// from: the rule that decided (admission), the track (audit, outcome),
// or the scenario.
type caveatJSON struct {
	Source string `json:"source"`
	Text   string `json:"text"`
}

// The sources of a caveat.
const (
	caveatRule     = "rule"
	caveatAudit    = "audit"
	caveatOutcome  = "outcome"
	caveatScenario = "scenario"
)

// traceJSON is an admission trace as steps, in a language.
func traceJSON(t assess.Trace, l assess.Lang) []stepJSON {
	out := make([]stepJSON, len(t))
	for i, s := range t {
		out[i] = stepJSON{Step: int(s.Rule), ID: s.Rule.ID(), Outcome: s.Outcome.String(), Reads: nonNil(s.Reads),
			Text: stepTextJSON{Title: s.Rule.Title(l), Question: s.Rule.Question(l), Explanation: s.Explanation(l)}}
	}
	return out
}

// tracedLine is a line of `toolgate assess --trace`: the verdict line of
// SPEC §1, unchanged, with the language, the trace, what the verdict does
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
	line := &tracedLine{verdictLine: verdictLine{Verdict: v, Trace: traceJSON(t, l)}, Lang: l.String(),
		DoesNotProve: []caveatJSON{{Source: caveatRule, Text: v.Code.Caveat(l)}},
		Text:         map[string]string{"meaning": v.Code.Meaning(l)}}
	if v.Status == assess.StatusAllowed {
		line.Text[walk.DetailAllowedIsNot] = assess.AllowedIsNot(l)
	}
	return line
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// scenarioJSON is one scenario walked to its verdict.
type scenarioJSON struct {
	Track  string `json:"track"`
	Number int    `json:"number"`
	ID     string `json:"id"`
	Lang   string `json:"lang"`
	Input  any    `json:"input"`
	// Verdict is the track's answer: an admission verdict (SPEC §1), an
	// audit's diagnostics and pending IDs (or its input error), or an
	// outcome class.
	Verdict      any          `json:"verdict"`
	Decisive     int          `json:"decisive"`
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

// scenarioDoc builds the JSON of one scenario in a language.
func scenarioDoc(s scenarios.Scenario, l assess.Lang) scenarioJSON {
	wk := walk.Of(s, l)
	doc := scenarioJSON{Track: s.Track, Number: s.Number, ID: s.ID, Lang: l.String(), Decisive: wk.Decisive,
		DoesNotProve: []caveatJSON{}, Text: map[string]string{"title": s.Title.In(l), "headline": wk.Verdict.Headline}}
	for key, t := range map[string]scenarios.Text{"story": s.Story, "injected": s.Injected, "notes": s.Notes} {
		if text := t.In(l); text != "" {
			doc.Text[key] = text
		}
	}
	caveat := caveatRule
	switch s.Track {
	case scenarios.TrackAudit:
		caveat = caveatAudit
		doc.Input = s.Audit
		doc.Trace = auditSteps(s.Audit, wk)
		a, _ := wk.Result.(walk.AuditAnswer)
		av := auditVerdictJSON{Diagnostics: nonNil(a.Diagnostics), Pending: nonNil(a.Pending)}
		if _, err := assess.Audit(s.Audit); err != nil {
			var ae *assess.AuditError
			if errors.As(err, &ae) {
				av.Error = &auditErrorJSON{Path: ae.Path, Reason: "empty_id", ID: ae.ID}
				if ae.Duplicate {
					av.Error.Reason = "duplicate_request_id"
				}
			}
		}
		doc.Verdict = av
	case scenarios.TrackOutcome:
		caveat = caveatOutcome
		doc.Input = s.Outcome
		class, steps, _ := assess.Classify(s.Outcome)
		doc.Verdict = outcomeVerdictJSON{Class: class}
		for i, st := range steps {
			doc.Trace = append(doc.Trace, walkStep(i, st.Class.String(), wk.Steps[i], st.Reads))
		}
	default:
		doc.Input = s.Input
		v, t := assess.Explain(&s.Input)
		doc.Verdict = v
		doc.Trace = traceJSON(t, l)
		doc.PathToAllowed = pathToAllowedJSON(s.Input, l)
	}
	for _, d := range wk.Verdict.Details {
		switch d.Key {
		case walk.DetailDoesNotProve:
			doc.DoesNotProve = append(doc.DoesNotProve, caveatJSON{Source: caveat, Text: d.Text})
		case walk.DetailScenarioDoesNotProve:
			doc.DoesNotProve = append(doc.DoesNotProve, caveatJSON{Source: caveatScenario, Text: d.Text})
		case walk.DetailCorrelationID, walk.DetailMissingArguments, walk.DetailEffectStatus, walk.DetailPending:
			// raw in the verdict
		default:
			doc.Text[d.Key] = d.Text
		}
	}
	if doc.Trace == nil {
		doc.Trace = []stepJSON{}
	}
	return doc
}

// auditSteps are the audit's steps with their raw values.
func auditSteps(in assess.AuditInput, wk walk.Walk) []stepJSON {
	_, steps, _ := assess.ExplainAudit(in)
	out := make([]stepJSON, 0, len(steps))
	for i, st := range steps {
		id := map[assess.AuditStepKind]string{assess.AuditRequests: "duplicate_or_empty_request_id",
			assess.AuditScan: "result", assess.AuditClose: "batch_end"}[st.Kind]
		sj := walkStep(i, id, wk.Steps[i], st.Reads)
		if st.Kind == assess.AuditScan && st.Err == nil {
			sj.Result = &auditResultJSON{Index: st.Index, ID: st.ID}
		}
		sj.Diagnostics = st.Added
		if st.Kind == assess.AuditClose {
			sj.Unseen = nonNil(st.Unseen)
		}
		out = append(out, sj)
	}
	return out
}

func walkStep(i int, id string, st walk.Step, reads []string) stepJSON {
	return stepJSON{Step: i + 1, ID: id, Outcome: st.Outcome.String(), Reads: nonNil(reads),
		Text: stepTextJSON{Title: st.Title, Question: st.Question, Explanation: st.Explanation}}
}

// writeTraceJSON writes one scenario as an object, several as an array.
func writeTraceJSON(w io.Writer, list []scenarios.Scenario, l assess.Lang) error {
	out := make([]scenarioJSON, len(list))
	for i, s := range list {
		out[i] = scenarioDoc(s, l)
	}
	var v any = out
	if len(out) == 1 {
		v = out[0]
	}
	if err := json.MarshalWrite(w, v, jsontext.WithIndent("  "), json.Deterministic(true)); err != nil {
		return fmt.Errorf("writing the trace: %w", err)
	}
	_, err := fmt.Fprintln(w)
	return err
}
