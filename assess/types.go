// Package assess is toolgate's functional core: the admission decision of
// docs/decision.md for one tool invocation, with the trace of how it was reached.
//
// Everything here is pure: values in, values out, no I/O, no clock, no
// globals that change, no randomness. The same input always gives the same
// verdict and the same trace. Renderers (CLI, TUI) only render what this
// package returns.
package assess

import "unicode/utf8"

// Input mirrors the JSON input of docs/decision.md §1, as the input check leaves it:
// every member the book's function needs is there, and every optional
// string member is an Opt, absent or a string. Optional objects are
// pointers: nil means absent (or an explicit JSON null, which the book
// treats the same).
type Input struct {
	Contract         Contract          `json:"contract"`
	Request          Request           `json:"request"`
	Environment      Environment       `json:"environment"`
	Approval         *Approval         `json:"approval,omitempty"`
	InvocationRecord *InvocationRecord `json:"invocationRecord,omitempty"`
}

// Contract is the set of tools the harness has agreed to offer.
type Contract struct {
	// Version is never read by the decision.
	Version Opt    `json:"version,omitzero"`
	Tools   []Tool `json:"tools"`
}

// Tool is one entry of the contract.
type Tool struct {
	Name        string `json:"name"`
	Version     Opt    `json:"version,omitzero"`
	EffectClass Opt    `json:"effectClass,omitzero"`
	// RequiredArguments is the book's minimal list of argument names, in
	// order, a name possibly twice; never nil after the input check ([]
	// for none).
	RequiredArguments []string `json:"requiredArguments"`
	// ApprovalScope is the scope an approval must name: absent is matched
	// only by an approval that names no scope.
	ApprovalScope Opt `json:"approvalScope,omitzero"`
}

// Effect classes named by the book. Any other value, and an absent one,
// is write-class.
const (
	ReadOnly          = "read_only"
	ReversibleWrite   = "reversible_write"
	IrreversibleWrite = "irreversible_write"
)

// The other values the book's function compares with.
const (
	StatusReady    = "ready"     // environment.status
	StatusActive   = "active"    // approval.status
	StatusTimedOut = "timed_out" // invocationRecord.status
	StatusSuccess  = "succeeded" // invocationRecord.status
	EffectUnknown  = "unknown"   // invocationRecord.effectStatus
	Accepted       = "accepted"  // invocationRecord.verificationStatus
)

// IsWrite reports whether calling the tool counts as a write: an
// effectClass other than "read_only" exactly — absent, "", an unheard-of
// class or "Read_Only" included.
func (t *Tool) IsWrite() bool { return !t.EffectClass.Is(ReadOnly) }

// Request is what the model asked for.
type Request struct {
	CorrelationID string  `json:"correlationId"`
	Tool          ToolRef `json:"tool"`
	// Arguments holds any JSON values, decoded the encoding/json way
	// (string, float64, bool, nil, []any, map[string]any), except that a
	// number too large for a float64 is a Number.
	Arguments map[string]any `json:"arguments,omitzero"`
	// Given is the arguments as a decoder that keeps no values records
	// them (decode.Fast, for the verdict-only stream): each name once,
	// with what rule 3 needs of its value. Rule 3 reads it only when
	// Arguments is nil.
	Given []Argument `json:"-"`
}

// Argument is one argument of a request as rule 3 sees it: its name and
// why its value is unusable — "" for a string that is not blank, else one
// of the Why constants (never WhyAbsent: an absent argument is not
// listed). Value is the string when Why is WhyBlank.
type Argument struct {
	Name  string
	Why   string
	Value string
}

// WhyValue says why an argument value is unusable, or "" when it is a
// string that is not blank after trimming whitespace. The reason is a Why*
// constant.
func WhyValue(v any) string {
	switch v := v.(type) {
	case string:
		return WhyString(v)
	case nil:
		return WhyNull
	case float64, int, int64, Number:
		return WhyNumber
	case bool:
		return WhyBool
	case []any:
		return WhyArray
	case map[string]any:
		return WhyObject
	}
	return WhyNotString
}

// WhyString says why a string argument is unusable: WhyEmpty for "",
// WhyBlank for whitespace only, "" when it is usable.
func WhyString(s string) string {
	switch {
	case s == "":
		return WhyEmpty
	case IsBlank(s):
		return WhyBlank
	}
	return ""
}

// IsBlank reports whether s is empty after trimming whitespace as
// JavaScript's String.prototype.trim does — exactly its set: U+0009–U+000D,
// U+0020, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F,
// U+3000 and U+FEFF. Not U+0085, U+180E or U+200B, which Go's
// unicode.IsSpace and other languages' trims disagree on.
func IsBlank(s string) bool {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c != ' ' && (c < '\t' || c > '\r') {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !IsTrimSpace(r) {
			return false
		}
		i += n
	}
	return true
}

// IsTrimSpace reports whether JavaScript's trim removes r.
func IsTrimSpace(r rune) bool {
	switch {
	case r == ' ', r >= '\t' && r <= '\r':
		return true
	case r < 0xA0:
		return false
	case r == 0xA0, r == 0x1680, r >= 0x2000 && r <= 0x200A, r == 0x2028, r == 0x2029,
		r == 0x202F, r == 0x205F, r == 0x3000, r == 0xFEFF:
		return true
	}
	return false
}

// Number is a JSON number kept as its text: 1e400 does not fit a float64
// but is still a number (so never a string argument), and is written back
// as it came.
type Number string

// MarshalJSON writes the number as it came.
func (n Number) MarshalJSON() ([]byte, error) { return []byte(n), nil }

// ToolRef names a tool and the version the request wants.
type ToolRef struct {
	Name    string `json:"name"`
	Version Opt    `json:"version,omitzero"`
}

// Environment is the caller's snapshot of whether the environment is usable.
type Environment struct {
	Status Opt `json:"status,omitzero"`
}

// Approval is the caller's snapshot of an approval.
type Approval struct {
	// Status is never "" after the input check: the book would answer
	// approval_ or approval_undefined.
	Status string `json:"status"`
	// Scope is the scope the approval names.
	Scope Opt `json:"scope,omitzero"`
}

// InvocationRecord is a record of an earlier attempt of this call, if any.
// Every member is optional.
type InvocationRecord struct {
	CorrelationID      Opt `json:"correlationId,omitzero"`
	Status             Opt `json:"status,omitzero"`
	VerificationStatus Opt `json:"verificationStatus,omitzero"`
	EffectStatus       Opt `json:"effectStatus,omitzero"`
}

// Verdict is the output of the decision: {status, code, correlationId,
// missingArguments?, effectStatus?}. MissingArguments is set only with
// CodeInvalidArguments, EffectStatus ("unknown") only with
// CodeTimedOutWithoutReadback, ApprovalStatus only with
// CodeApprovalStatus.
type Verdict struct {
	Status           Status
	Code             Code
	CorrelationID    string
	MissingArguments []string
	EffectStatus     string
	// ApprovalStatus is the approval's status that went into the code:
	// the code's name is "approval_" + ApprovalStatus.
	ApprovalStatus string
}

// CodeName is the code as the verdict's JSON writes it, such as
// "approval_expired".
func (v *Verdict) CodeName() string { return v.Code.Name(v.ApprovalStatus) }

// VerdictJSON is a verdict as its JSON has it, in the book's member
// order: the code written out (approval_expired), missingArguments and
// effectStatus only with their codes. A JSON value that holds a verdict
// and more members embeds it.
type VerdictJSON struct {
	Status           Status   `json:"status"`
	Code             string   `json:"code"`
	CorrelationID    string   `json:"correlationId"`
	MissingArguments []string `json:"missingArguments,omitempty"`
	EffectStatus     string   `json:"effectStatus,omitempty"`
}

// JSON is the verdict as its JSON has it.
func (v *Verdict) JSON() VerdictJSON {
	return VerdictJSON{v.Status, v.CodeName(), v.CorrelationID, v.MissingArguments, v.EffectStatus}
}

// MarshalJSON writes the verdict's members in the book's order.
func (v Verdict) MarshalJSON() ([]byte, error) { return marshalNoHTML(v.JSON()) }
