package cli

import (
	"errors"
	"io"

	"toolgate/assess"
	"toolgate/decode"
)

// verdictLine is one line of `toolgate assess` output: the verdict, and
// when asked for the two layers that led to it: the input check it
// passed, then the decision's trace.
type verdictLine struct {
	assess.VerdictJSON
	Check *checkJSON `json:"check,omitempty"`
	Trace []stepJSON `json:"trace,omitempty"`
}

// errorLine is an input that got no answer, and the layer that refused
// it: "input" for toolgate's input check, "decision" for the audit of a
// batch that lists a request twice (the seed's Java throws).
type errorLine struct {
	Error string `json:"error"`
	Layer string `json:"layer"`
}

// layerOf is the layer an error of an answerFunc comes from.
func layerOf(err error) string {
	if _, ok := errors.AsType[*assess.AuditError](err); ok {
		return "decision"
	}
	return "input"
}

// answerFunc answers one input: the value to write as its line, or an
// error — a *decode.NotJSON stops the stream, any other error becomes the
// input's {"error": ...} line.
type answerFunc func(raw []byte) (any, error)

// admissionAnswer decides admission inputs, with or without the trace.
func admissionAnswer(withTrace bool, lang assess.Lang) answerFunc {
	return func(raw []byte) (any, error) {
		in, err := decode.Input(raw)
		if err != nil {
			return nil, err
		}
		if !withTrace {
			v := assess.Assess(&in)
			vl := verdictLine{VerdictJSON: v.JSON()}
			return &vl, nil
		}
		return explainedLine(&in, lang), nil
	}
}

// assessStream answers every admission input of r with one line on w.
// Without the trace, a JSON Lines input takes the fast lane (decode.Fast,
// assess.Assess, appendVerdict); anything it does not take is read the
// usual way, so errors are said as before.
func assessStream(r io.Reader, name string, w io.Writer, withTrace bool, lang assess.Lang, maxValue int) error {
	a := answerer{slow: admissionAnswer(withTrace, lang)}
	if !withTrace {
		a.newFast = admissionFast
	}
	return answerStream(r, name, w, a, maxValue)
}

// admissionFast decides a whole line of JSON Lines without reflection.
func admissionFast() fastFunc {
	var f decode.Fast
	var missing []string
	return func(b, line []byte) ([]byte, bool) {
		in, ok := f.Input(line)
		if !ok {
			return b, false
		}
		v := assess.AssessAppend(in, missing)
		if v.MissingArguments != nil {
			missing = v.MissingArguments
		}
		return appendVerdict(b, &v), true
	}
}

// auditFast audits a whole line of JSON Lines without reflection; the
// audit's input error (a request ID listed twice) is left to the usual
// way, which says where it is.
func auditFast() fastFunc {
	var f decode.Fast
	return func(b, line []byte) ([]byte, bool) {
		in, ok := f.Audit(line)
		if !ok {
			return b, false
		}
		r, err := assess.AuditSpans(in.Text, in.Requested, in.Results, in.Closed)
		if err != nil {
			return b, false
		}
		return appendAudit(b, &r), true
	}
}
