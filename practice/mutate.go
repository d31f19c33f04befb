package practice

import (
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/go-json-experiment/json"

	"toolgate/assess"
	"toolgate/whatif"
)

// Change is the one thing a case changes in its scenario: a field, what
// it was and what it is now, each as JSON ("absent" when left out).
type Change struct {
	Path string `json:"path"`
	Was  string `json:"was"`
	Now  string `json:"now"`
}

// absent is how a member that is left out is shown.
const absent = "absent"

// mutation changes one field of a copy of an input; ok is false when it
// does not apply to this input (an approval's status when there is no
// approval) or would change nothing.
type mutation func(r *rand.Rand, in *assess.Input) (c Change, ok bool)

// The values the mutations draw from: the near misses that the book's
// exact comparisons turn into lessons (case, spaces, absent against "",
// a status spelled like a code), as gen's pools do for the differential
// tests.
var (
	toolNames     = []string{"document_delete", "Document_read_metadata", "document_read_metadata ", "document_update_metadata", "document_read_metadata"}
	versions      = []string{"v2", "", "V1", "v1.0", "v1"}
	effectClasses = []string{assess.ReadOnly, assess.ReversibleWrite, assess.IrreversibleWrite, "", "READ_ONLY", "read_mostly"}
	scopes        = []string{"metadata_write", "metadata_read", "Metadata_write", ""}
	argValues     = []any{"", "   ", "\t\n", "\u3000", "\u200b", "chapter-12", " chapter-11 ", 11.0, nil, true, []any{"chapter-11"}}
	envStates     = []string{"ready", "degraded", "READY", "ready ", "starting"}
	approvalState = []string{"active", "expired", "revoked", "pending", "Active", " active", "missing"}
	recordIDs     = []string{"request-other", "Request-1", "", "request-1"}
	recordStates  = []string{assess.StatusTimedOut, assess.StatusSuccess, "failed", "Succeeded"}
	effectStates  = []string{assess.EffectUnknown, "Unknown", "read_back", ""}
	checkStates   = []string{assess.Accepted, "not_run", "Accepted", "rejected"}
	newArguments  = []string{"locale", "documentId", "field"}
)

func pickOf[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// optValue draws a value for an optional member: absent one time in
// (len+1), else one of xs.
func optValue(r *rand.Rand, xs []string) assess.Opt {
	if r.IntN(len(xs)+1) == 0 {
		return assess.Absent
	}
	return assess.Some(pickOf(r, xs))
}

func showOpt(o assess.Opt) string {
	if s, ok := o.Get(); ok {
		return strconv.Quote(s)
	}
	return absent
}

// show writes a value as compact JSON; a string is quoted with its
// invisible characters escaped ("\u3000", "\u200b"), which a story must
// show.
func show(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	b, err := json.Marshal(v, json.Deterministic(true))
	if err != nil {
		return "?"
	}
	return string(b)
}

// setOpt is a mutation of one optional string member.
func setOpt(path string, field func(in *assess.Input) *assess.Opt, xs []string) mutation {
	return func(r *rand.Rand, in *assess.Input) (Change, bool) {
		f := field(in)
		if f == nil {
			return Change{}, false
		}
		was := *f
		*f = optValue(r, xs)
		return Change{Path: path, Was: showOpt(was), Now: showOpt(*f)}, *f != was
	}
}

// requested is the tool the request names (the first of its name), or
// nil.
func requested(in *assess.Input) *assess.Tool {
	for i := range in.Contract.Tools {
		if in.Contract.Tools[i].Name == in.Request.Tool.Name {
			return &in.Contract.Tools[i]
		}
	}
	return nil
}

// toolPath names the requested tool's entry, "contract.tools[1]".
func toolPath(in *assess.Input) string {
	for i := range in.Contract.Tools {
		if in.Contract.Tools[i].Name == in.Request.Tool.Name {
			return "contract.tools[" + strconv.Itoa(i) + "]"
		}
	}
	return "contract.tools[?]"
}

func mutations() []mutation {
	return []mutation{
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			was := in.Request.Tool.Name
			in.Request.Tool.Name = pickOf(r, toolNames)
			return Change{Path: "request.tool.name", Was: strconv.Quote(was), Now: strconv.Quote(in.Request.Tool.Name)}, was != in.Request.Tool.Name
		},
		setOpt("request.tool.version", func(in *assess.Input) *assess.Opt { return &in.Request.Tool.Version }, versions),
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			t := requested(in)
			if t == nil {
				return Change{}, false
			}
			return setOpt(toolPath(in)+".version", func(*assess.Input) *assess.Opt { return &t.Version }, versions)(r, in)
		},
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			t := requested(in)
			if t == nil {
				return Change{}, false
			}
			return setOpt(toolPath(in)+".effectClass", func(*assess.Input) *assess.Opt { return &t.EffectClass }, effectClasses)(r, in)
		},
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			t := requested(in)
			if t == nil {
				return Change{}, false
			}
			return setOpt(toolPath(in)+".approvalScope", func(*assess.Input) *assess.Opt { return &t.ApprovalScope }, scopes)(r, in)
		},
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			t := requested(in)
			if t == nil {
				return Change{}, false
			}
			was := slices.Clone(t.RequiredArguments)
			t.RequiredArguments = append(t.RequiredArguments, pickOf(r, newArguments))
			return Change{Path: toolPath(in) + ".requiredArguments", Was: show(was), Now: show(t.RequiredArguments)}, true
		},
		// One argument, of the names the tool requires.
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			t := requested(in)
			if t == nil || len(t.RequiredArguments) == 0 {
				return Change{}, false
			}
			name := pickOf(r, t.RequiredArguments)
			old, had := in.Request.Arguments[name]
			was := absent
			if had {
				was = show(old)
			}
			if in.Request.Arguments == nil {
				in.Request.Arguments = map[string]any{}
			}
			if had && r.IntN(4) == 0 {
				delete(in.Request.Arguments, name)
				return Change{Path: "request.arguments." + name, Was: was, Now: absent}, true
			}
			v := pickOf(r, argValues)
			in.Request.Arguments[name] = v
			return Change{Path: "request.arguments." + name, Was: was, Now: show(v)}, was != show(v)
		},
		func(_ *rand.Rand, in *assess.Input) (Change, bool) {
			if in.Request.Arguments == nil {
				return Change{}, false
			}
			was := show(in.Request.Arguments)
			in.Request.Arguments = nil
			return Change{Path: "request.arguments", Was: was, Now: absent}, true
		},
		setOpt("environment.status", func(in *assess.Input) *assess.Opt { return &in.Environment.Status }, envStates),
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			was := approvalText(in.Approval)
			switch r.IntN(3) {
			case 0:
				in.Approval = nil
			case 1:
				in.Approval = &assess.Approval{Status: assess.StatusActive, Scope: assess.Some("metadata_write")}
			default:
				in.Approval = &assess.Approval{Status: assess.StatusActive}
			}
			return Change{Path: "approval", Was: was, Now: approvalText(in.Approval)}, was != approvalText(in.Approval)
		},
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			if in.Approval == nil {
				return Change{}, false
			}
			was := in.Approval.Status
			in.Approval.Status = pickOf(r, approvalState)
			return Change{Path: "approval.status", Was: strconv.Quote(was), Now: strconv.Quote(in.Approval.Status)}, was != in.Approval.Status
		},
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			if in.Approval == nil {
				return Change{}, false
			}
			return setOpt("approval.scope", func(in *assess.Input) *assess.Opt { return &in.Approval.Scope }, scopes)(r, in)
		},
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			was := recordText(in.InvocationRecord)
			id := assess.Some(in.Request.CorrelationID)
			switch r.IntN(6) {
			case 0:
				in.InvocationRecord = nil
			case 1:
				in.InvocationRecord = &assess.InvocationRecord{CorrelationID: id, Status: assess.Some(assess.StatusSuccess), VerificationStatus: assess.Some(assess.Accepted)}
			case 2:
				in.InvocationRecord = &assess.InvocationRecord{CorrelationID: id, Status: assess.Some(assess.StatusTimedOut), EffectStatus: assess.Some(assess.EffectUnknown)}
			case 3:
				in.InvocationRecord = &assess.InvocationRecord{CorrelationID: id, Status: assess.Some(assess.StatusTimedOut)}
			case 4:
				in.InvocationRecord = &assess.InvocationRecord{CorrelationID: id, Status: assess.Some(assess.StatusSuccess)}
			default:
				in.InvocationRecord = &assess.InvocationRecord{CorrelationID: assess.Some("request-other"), Status: assess.Some(assess.StatusSuccess), VerificationStatus: assess.Some(assess.Accepted)}
			}
			return Change{Path: "invocationRecord", Was: was, Now: recordText(in.InvocationRecord)}, was != recordText(in.InvocationRecord)
		},
		recordOpt("invocationRecord.correlationId", func(rec *assess.InvocationRecord) *assess.Opt { return &rec.CorrelationID }, recordIDs),
		recordOpt("invocationRecord.status", func(rec *assess.InvocationRecord) *assess.Opt { return &rec.Status }, recordStates),
		recordOpt("invocationRecord.effectStatus", func(rec *assess.InvocationRecord) *assess.Opt { return &rec.EffectStatus }, effectStates),
		recordOpt("invocationRecord.verificationStatus", func(rec *assess.InvocationRecord) *assess.Opt { return &rec.VerificationStatus }, checkStates),
	}
}

func recordOpt(path string, field func(*assess.InvocationRecord) *assess.Opt, xs []string) mutation {
	return func(r *rand.Rand, in *assess.Input) (Change, bool) {
		if in.InvocationRecord == nil {
			return Change{}, false
		}
		return setOpt(path, func(in *assess.Input) *assess.Opt { return field(in.InvocationRecord) }, xs)(r, in)
	}
}

func approvalText(a *assess.Approval) string {
	if a == nil {
		return absent
	}
	return show(a)
}

func recordText(rec *assess.InvocationRecord) string {
	if rec == nil {
		return absent
	}
	return show(rec)
}

// mutate draws one change that applies to a copy of in; ok is false in
// the unlikely case that none of many draws changed anything.
func mutate(r *rand.Rand, in assess.Input) (out assess.Input, ch Change, ok bool) {
	ms := mutations()
	for range 100 {
		c := whatif.Clone(in)
		if ch, ok := pickOf(r, ms)(r, &c); ok {
			return c, ch, true
		}
	}
	return in, Change{}, false
}
