// Package assess is toolgate's functional core: the admission decision of
// SPEC §1 for one tool invocation, with the trace of how it was reached.
//
// Everything here is pure: values in, values out, no I/O, no clock, no
// globals that change, no randomness. The same input always gives the same
// verdict and the same trace. Renderers (CLI, TUI) only render what this
// package returns.
package assess

// Input mirrors the JSON input of SPEC §1. Optional snapshots are pointers:
// nil means absent (or an explicit JSON null, which means the same).
type Input struct {
	Contract         Contract          `json:"contract"`
	Request          Request           `json:"request"`
	Environment      *Environment      `json:"environment,omitempty"`
	Approval         *Approval         `json:"approval,omitempty"`
	InvocationRecord *InvocationRecord `json:"invocationRecord,omitempty"`
}

// Contract is the set of tools the harness has agreed to offer.
type Contract struct {
	Version string `json:"version"`
	Tools   []Tool `json:"tools"`
}

// Tool is one entry of the contract.
type Tool struct {
	Name              string   `json:"name"`
	Version           string   `json:"version"`
	EffectClass       string   `json:"effectClass,omitempty"`
	RequiredArguments []string `json:"requiredArguments,omitempty"`
	// ApprovalScope is the scope an approval must name; nil means the
	// tool's name (SPEC §1).
	ApprovalScope *string `json:"approvalScope,omitzero"`
}

// Effect classes named by SPEC §1. Any other value is write-class.
const (
	ReadOnly          = "read_only"
	ReversibleWrite   = "reversible_write"
	IrreversibleWrite = "irreversible_write"
)

// IsWrite reports whether calling the tool counts as a write. Every class
// other than read_only — including an absent or unheard-of one — is a write:
// the trainer fails closed.
func (t *Tool) IsWrite() bool { return t.EffectClass != ReadOnly }

// Scope is the approval scope this tool requires.
func (t *Tool) Scope() string {
	if t.ApprovalScope != nil {
		return *t.ApprovalScope
	}
	return t.Name
}

// Request is what the model asked for.
type Request struct {
	CorrelationID string  `json:"correlationId"`
	Tool          ToolRef `json:"tool"`
	// Arguments holds any JSON values, decoded the encoding/json way
	// (string, float64, bool, nil, []any, map[string]any), except that a
	// number too large for a float64 is a Number.
	Arguments map[string]any `json:"arguments,omitempty"`
	// Given is the arguments as a decoder that keeps no values records
	// them (decode.Fast, for the verdict-only stream): each name once,
	// with what rule 3 needs of its value. Rule 3 reads it only when
	// Arguments is nil.
	Given []Argument `json:"-"`
}

// Argument is one argument of a request as rule 3 sees it: its name and
// why its value is unusable — "" for a non-empty string, else one of the
// Why constants (never WhyAbsent: an absent argument is not listed).
type Argument struct {
	Name string
	Why  string
}

// WhyValue says why an argument value is unusable, or "" when it is a
// non-empty string. The reason is a Why* constant.
func WhyValue(v any) string {
	switch v := v.(type) {
	case string:
		if v == "" {
			return WhyEmpty
		}
		return ""
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

// Number is a JSON number kept as its text: 1e400 does not fit a float64
// but is still a number (so never a string argument), and is written back
// as it came.
type Number string

// MarshalJSON writes the number as it came.
func (n Number) MarshalJSON() ([]byte, error) { return []byte(n), nil }

// ToolRef names a tool and the version the request wants.
type ToolRef struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Environment is the caller's snapshot of whether the environment is usable.
type Environment struct {
	Status string `json:"status"`
}

// Approval is the caller's snapshot of an approval.
type Approval struct {
	Status string `json:"status"`
	// Scope is the scope the approval names; nil when it names none,
	// which matches no tool (SPEC §1: "" is a scope, absent is not).
	Scope *string `json:"scope,omitzero"`
}

// InvocationRecord is a record of an earlier attempt of this call, if any.
// The optional statuses are nil when absent (or null): "" is a value, and
// an absent effectStatus fires rule 5 where "" does not (SPEC §1).
type InvocationRecord struct {
	CorrelationID      string  `json:"correlationId"`
	Status             string  `json:"status"`
	VerificationStatus *string `json:"verificationStatus,omitzero"`
	EffectStatus       *string `json:"effectStatus,omitzero"`
}

// Verdict is the output of SPEC §1. MissingArguments is set only with
// CodeInvalidArguments, EffectStatus ("unknown") only with
// CodeTimedOutWithoutReadback.
type Verdict struct {
	Status           Status   `json:"status"`
	Code             Code     `json:"code"`
	CorrelationID    string   `json:"correlationId"`
	MissingArguments []string `json:"missingArguments,omitempty"`
	EffectStatus     string   `json:"effectStatus,omitempty"`
}
