package cli

import (
	"github.com/go-json-experiment/json/jsontext"

	"toolgate/assess"
)

// appendVerdict writes a verdict line as json.Marshal writes an
// assess.Verdict — {status, code, correlationId, missingArguments?,
// effectStatus?} (docs/decision.md §2) — without reflection, and a newline.
func appendVerdict(b []byte, v *assess.Verdict) []byte {
	b = append(b, `{"status":"`...)
	b = append(b, v.Status.String()...)
	b = append(b, `","code":`...)
	// approval_<status> carries the approval's status as the input gave
	// it: a quote or a control character in it is escaped, as in any
	// string.
	b = appendString(b, v.CodeName())
	b = append(b, `,"correlationId":`...)
	b = appendString(b, v.CorrelationID)
	if len(v.MissingArguments) > 0 {
		b = append(b, `,"missingArguments":`...)
		b = appendStrings(b, v.MissingArguments)
	}
	if v.EffectStatus != "" {
		b = append(b, `,"effectStatus":`...)
		b = appendString(b, v.EffectStatus)
	}
	return append(b, "}\n"...)
}

// appendAudit writes an audit result line, {"diagnostics":[...],
// "pending":[...]}, as json.Marshal writes an assess.AuditResult, and a
// newline.
func appendAudit(b []byte, r *assess.AuditResult) []byte {
	b = append(b, `{"diagnostics":`...)
	b = appendStrings(b, r.Diagnostics)
	b = append(b, `,"pending":`...)
	b = appendStrings(b, r.Pending)
	return append(b, "}\n"...)
}

func appendStrings(b []byte, list []string) []byte {
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendString writes s as a JSON string the way json.Marshal does:
// printable ASCII as it is, everything else through jsontext.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			b, _ = jsontext.AppendQuote(b, s) // invalid UTF-8 is replaced, as json.Marshal does
			return b
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
