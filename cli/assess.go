package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json"

	"toolgate/assess"
	"toolgate/decode"
)

// stepJSON is one trace step as JSON, in one language.
type stepJSON struct {
	Rule        int      `json:"rule"`
	ID          string   `json:"id"`
	Question    string   `json:"question"`
	Outcome     string   `json:"outcome"`
	Explanation string   `json:"explanation"`
	Reads       []string `json:"reads"`
}

func traceJSON(t assess.Trace, l assess.Lang) []stepJSON {
	out := make([]stepJSON, len(t))
	for i, s := range t {
		reads := s.Reads
		if reads == nil {
			reads = []string{}
		}
		out[i] = stepJSON{Rule: int(s.Rule), ID: s.Rule.ID(), Question: s.Rule.Question(l),
			Outcome: s.Outcome.String(), Explanation: s.Explanation(l), Reads: reads}
	}
	return out
}

// verdictLine is one line of `toolgate assess` output.
type verdictLine struct {
	Status           assess.Status `json:"status"`
	Code             assess.Code   `json:"code"`
	CorrelationID    string        `json:"correlationId"`
	MissingArguments []string      `json:"missingArguments,omitempty"`
	EffectStatus     string        `json:"effectStatus,omitempty"`
	Trace            []stepJSON    `json:"trace,omitempty"`
}

func lineOf(v assess.Verdict) verdictLine {
	return verdictLine{Status: v.Status, Code: v.Code, CorrelationID: v.CorrelationID,
		MissingArguments: v.MissingArguments, EffectStatus: v.EffectStatus}
}

type errorLine struct {
	Error string `json:"error"`
}

// assessStream answers every input of r with one line on w.
func assessStream(r io.Reader, name string, w io.Writer, withTrace bool, lang assess.Lang) error {
	out := bufio.NewWriterSize(w, 64<<10)
	stream := decode.NewStream(bufio.NewReaderSize(r, 64<<10))
	invalid, total := 0, 0
	for {
		raw, line, err := stream.Next()
		if err == io.EOF {
			break
		}
		var sx *decode.SyntaxError
		if errors.As(err, &sx) {
			_ = out.Flush()
			return &exitError{ExitUsage, fmt.Errorf("%s:%d:%d: not JSON: %s", name, sx.Line, sx.Column, sx.Msg)}
		}
		if err != nil {
			_ = out.Flush()
			return &exitError{ExitUsage, fmt.Errorf("%s: %w", name, err)}
		}
		total++
		in, err := decode.Input(raw)
		if err != nil {
			invalid++
			if err := json.MarshalWrite(out, errorLine{fmt.Sprintf("line %d: %v", line, err)}); err != nil {
				return err
			}
			out.WriteByte('\n')
			continue
		}
		var vl verdictLine
		if withTrace {
			v, t := assess.Explain(&in)
			vl = lineOf(v)
			vl.Trace = traceJSON(t, lang)
		} else {
			vl = lineOf(assess.Assess(&in))
		}
		if err := json.MarshalWrite(out, &vl); err != nil {
			return err
		}
		out.WriteByte('\n')
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if invalid > 0 {
		return &exitError{ExitInvalid, fmt.Errorf("%s: %d of %d inputs were invalid (see their error lines)", name, invalid, total)}
	}
	return nil
}
