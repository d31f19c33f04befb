package gen

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
)

// The edges: the generator's draw of one field at a time, exported so
// that package practice changes a known scenario with exactly the values
// the differential tests explore (blanks of JavaScript trim's set,
// near-miss statuses, absent against "", a second tool of one name).
// randomAdmission and steer draw through the same functions, so the two
// cannot drift apart. Each draws from the *rand.Rand it is given and
// nothing else.

// Opt is an optional string member as the generator draws it: absent, or
// a string ("" included).
type Opt = opt

// Get is the string and whether the member is present.
func (o opt) Get() (string, bool) { return o.s, o.set }

// Tool is a contract tool as the generator draws one.
type Tool struct {
	Name                                string
	Version, EffectClass, ApprovalScope Opt
	// Required is requiredArguments: zero to three names, now and then
	// one of them twice.
	Required []string
}

// RandomTool is a random contract tool called name: its version, effect
// class and scope drawn from the pools, each now and then absent.
func RandomTool(r *rand.Rand, name string) Tool {
	t := randomTool(r, name)
	return Tool{Name: t.name, Version: t.version, EffectClass: t.effectClass, ApprovalScope: t.approvalScope,
		Required: slices.Clone(t.required)}
}

// ToolName is a tool name: the contract's own names, near misses of them
// (case, a trailing space, a zero-width space), "", and others.
func ToolName(r *rand.Rand) string { return pick(r, nearToolNames...) }

// Version is a tool version: "v1", "v2", "", "V1", or absent.
func Version(r *rand.Rand) Opt { return pickOpt(r, 0.25, versions...) }

// EffectClass is an effect class: the book's three, "", and near misses
// of read_only ("Read_Only", "read_only ", "READ_ONLY"), or absent.
func EffectClass(r *rand.Rand) Opt { return pickOpt(r, 0.2, effectClasses...) }

// ApprovalScope is a scope, of a tool or an approval: "metadata_write",
// "", "other_scope", "Metadata_write", or absent.
func ApprovalScope(r *rand.Rand) Opt { return pickOpt(r, 0.3, scopes...) }

// ArgumentName is a name for requiredArguments or request.arguments.
func ArgumentName(r *rand.Rand) string { return pick(r, argNames...) }

// Argument is a value for a required argument: half the time a usable
// one (a string not blank, some of them only white space that trim keeps:
// U+0085, U+180E, U+200B), else one rule 3 calls missing: left out (omit),
// a Blank string, or a value that is not a string. A value is as
// encoding/json decodes it, numbers as json.Number ("1e400" included).
func Argument(r *rand.Rand) (v any, omit bool) {
	if chance(r, 0.5) {
		return pick(r, goodValues...), false
	}
	v, omit = badArgument(r)
	return plain(v), omit
}

// Blank is a string that String.prototype.trim empties: "" or one to
// three characters of its set (docs/decision.md §2), never U+0085, U+180E
// or U+200B.
func Blank(r *rand.Rand) string { return blank(r) }

// CorrelationID is a correlation id: "request-1", near misses of it,
// "", and others.
func CorrelationID(r *rand.Rand) string { return pick(r, correlationIDs...) }

// RecordCorrelationID is an invocation record's correlationId for a
// request whose id is id: mostly id itself, else absent or another.
func RecordCorrelationID(r *rand.Rand, id string) Opt {
	switch {
	case chance(r, 0.7):
		return some(id)
	case chance(r, 0.3):
		return none
	default:
		return some(CorrelationID(r))
	}
}

// EnvironmentStatus is an environment status that is never "ready": "",
// near misses of it ("Ready", " ready", "ready\u200b"), others, or absent.
func EnvironmentStatus(r *rand.Rand) Opt { return pickOpt(r, 0.3, envStates...) }

// ApprovalStatus is an approval's status, never "": "active" more than
// half the time, else one of ApprovalStatuses.
func ApprovalStatus(r *rand.Rand) string {
	if chance(r, 0.4) {
		return pick(r, approvalStates...)
	}
	return "active"
}

// ApprovalStatuses are the statuses other than "active" that
// ApprovalStatus draws: "expired", "revoked", near misses of "active",
// and others.
func ApprovalStatuses() []string { return slices.Clone(approvalStates) }

// RecordStatus is an invocation record's status: "timed_out",
// "succeeded", near misses of them, "", or absent.
func RecordStatus(r *rand.Rand) Opt { return pickOpt(r, 0.15, recordStates...) }

// EffectStatus is an invocation record's effectStatus: "unknown", near
// misses of it, others, "", or absent.
func EffectStatus(r *rand.Rand) Opt { return pickOpt(r, 0.4, effectStates...) }

// VerificationStatus is an invocation record's verificationStatus:
// "accepted", near misses of it, others, "", or absent.
func VerificationStatus(r *rand.Rand) Opt { return pickOpt(r, 0.35, checkStates...) }

// plain is a tree value as encoding/json decodes it with UseNumber:
// string, json.Number, bool, nil, []any, map[string]any. The objects
// nonString builds name each member once; were a name there twice, the
// first would be kept.
func plain(v any) any {
	switch v := v.(type) {
	case number:
		return json.Number(v)
	case *object:
		m := make(map[string]any, len(v.members))
		for _, mb := range v.members {
			if _, ok := m[mb.name]; !ok {
				m[mb.name] = plain(mb.value)
			}
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = plain(x)
		}
		return out
	}
	return v
}
