package gatecheck

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"toolgate/scenarios"
	"toolgate/vectors"
)

// answer is the union of the answer shapes of the three tracks, as a gate
// writes them. Fields a gate adds beyond these (a trace, a reason) are
// ignored.
type answer struct {
	Error jsontext.Value `json:"error"`
	// Admission.
	Status           jsontext.Value `json:"status"`
	Code             jsontext.Value `json:"code"`
	CorrelationID    jsontext.Value `json:"correlationId"`
	MissingArguments jsontext.Value `json:"missingArguments"`
	EffectStatus     jsontext.Value `json:"effectStatus"`
	// Audit.
	Diagnostics jsontext.Value `json:"diagnostics"`
	Pending     jsontext.Value `json:"pending"`
	// Outcome.
	Class jsontext.Value `json:"class"`
}

// isSet reports whether a member was present with a value other than null.
func isSet(v jsontext.Value) bool { return len(v) > 0 && string(v) != "null" }

// Compare compares a gate's line with the expected answer of a vector of
// a layer. diffs lists each way they differ ("code: want
// approval_missing, got admission_allowed"); problem is set instead when
// the line is not an answer at all (not JSON, not an object).
//
// On an admission vector of the input layer — one toolgate's input check
// refuses — a gate agrees by refusing it or by answering anything but
// allowed: only letting it through is failing open.
func Compare(track scenarios.Track, layer string, expect, line []byte) (diffs []string, problem string) {
	if !track.Valid() {
		return nil, fmt.Sprintf("%s: want %s", track, scenarios.TrackNames())
	}
	var got answer
	if err := json.Unmarshal(line, &got, jsontext.AllowDuplicateNames(false), jsontext.AllowInvalidUTF8(false)); err != nil {
		if !jsontext.Value(line).IsValid() {
			return nil, "not JSON"
		}
		if se, ok := errors.AsType[*json.SemanticError](err); ok && se.JSONPointer == "" {
			return nil, "not a JSON object"
		}
		// A member of the wrong type: a disagreement, named below.
		return []string{fmt.Sprintf("answer: %s", cleanErr(err))}, ""
	}
	var want answer
	if err := json.Unmarshal(expect, &want); err != nil {
		return nil, "the expectation does not decode: " + err.Error()
	}
	if layer == vectors.LayerInput && track == scenarios.TrackAdmission {
		if !isSet(got.Error) && sameJSON(got.Status, jsontext.Value(`"allowed"`)) {
			return []string{"admits an input toolgate's input check refuses: answering allowed to it fails open (refuse it, or answer anything but allowed)"}, ""
		}
		return nil, ""
	}
	switch {
	case isSet(want.Error) && isSet(got.Error):
		return nil, ""
	case isSet(want.Error):
		return []string{"want an input error (an {\"error\":…} line), got an answer"}, ""
	case isSet(got.Error):
		return []string{"want an answer, got an input error: " + Sanitize(clip(got.Error, 200))}, ""
	}
	d := func(field string, want, got jsontext.Value) {
		if !sameJSON(want, got) {
			diffs = append(diffs, fmt.Sprintf("%s: want %s, got %s", field, show(want), show(got)))
		}
	}
	switch track {
	case scenarios.TrackAudit:
		// Both lists are always there in toolgate's answer; a gate that
		// leaves out an empty one says the same.
		d("diagnostics", orEmptyList(want.Diagnostics), orEmptyList(got.Diagnostics))
		d("pending", orEmptyList(want.Pending), orEmptyList(got.Pending))
	case scenarios.TrackOutcome:
		d("class", want.Class, got.Class)
	case scenarios.TrackAdmission:
		d("status", want.Status, got.Status)
		d("code", want.Code, got.Code)
		d("correlationId", want.CorrelationID, got.CorrelationID)
		// docs/decision.md §2: missingArguments appears only with invalid_arguments,
		// effectStatus only with timed_out_without_readback.
		d("missingArguments", want.MissingArguments, got.MissingArguments)
		d("effectStatus", want.EffectStatus, got.EffectStatus)
	}
	return diffs, ""
}

func cleanErr(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}

func orEmptyList(v jsontext.Value) jsontext.Value {
	if !isSet(v) {
		return jsontext.Value("[]")
	}
	return v
}

// sameJSON compares two JSON values by meaning (member order and spacing
// aside); an absent value equals only another absent one or null.
func sameJSON(a, b jsontext.Value) bool {
	if !isSet(a) || !isSet(b) {
		return isSet(a) == isSet(b)
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return equal(x, y)
}

func equal(x, y any) bool {
	switch x := x.(type) {
	case map[string]any:
		y, ok := y.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equal(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := y.([]any)
		return ok && slices.EqualFunc(x, y, equal)
	}
	return x == y
}

// show is a value as a diff line shows it.
func show(v jsontext.Value) string {
	if !isSet(v) {
		return "absent"
	}
	c := jsontext.Value(slices.Clone([]byte(v)))
	if c.Compact() != nil {
		return strconv.Quote(string(v))
	}
	return Sanitize(clip(c, 200))
}
