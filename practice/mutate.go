package practice

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"

	jsonv2 "github.com/go-json-experiment/json"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/gen"
	"toolgate/whatif"
)

// Change is the one thing a case changes in its scenario: a field, what
// it was and what it is now, each as JSON ("absent" when left out). Op is
// "insert" when a tool is put in at Path, the tools from there on moving
// down one; "" when the field at Path is set.
type Change struct {
	Path string `json:"path"`
	Op   string `json:"op,omitempty"`
	Was  string `json:"was"`
	Now  string `json:"now"`
}

// OpInsert is the Op of a tool put in.
const OpInsert = "insert"

// absent is how a member that is left out is shown.
const absent = "absent"

// mutation changes one field of a copy of an input with a value drawn by
// gen, the generator the differential tests use; ok is false when it does
// not apply to this input (an approval's status when there is no
// approval) or would change nothing.
type mutation func(r *rand.Rand, in *assess.Input) (c Change, ok bool)

func pickOf[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// opt is gen's optional member as assess's.
func opt(o gen.Opt) assess.Opt {
	if s, ok := o.Get(); ok {
		return assess.Some(s)
	}
	return assess.Absent
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
	b, err := jsonv2.Marshal(v, jsonv2.Deterministic(true))
	if err != nil {
		return "?"
	}
	return string(b)
}

// value is an argument value gen drew (numbers as json.Number) as the
// input check leaves it: a number a float64, or an assess.Number when it
// does not fit one (1e400).
func value(v any) any {
	switch v := v.(type) {
	case json.Number:
		n, err := decode.Number(string(v))
		if err != nil {
			return assess.Number(v) // gen wrote it, so it is JSON: not reached
		}
		return n
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = value(x)
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = value(x)
		}
		return out
	}
	return v
}

// setOpt is a mutation of one optional string member, drawn by draw.
func setOpt(path string, field func(in *assess.Input) *assess.Opt, draw func(*rand.Rand) gen.Opt) mutation {
	return func(r *rand.Rand, in *assess.Input) (Change, bool) {
		f := field(in)
		if f == nil {
			return Change{}, false
		}
		was := *f
		*f = opt(draw(r))
		return Change{Path: path, Was: showOpt(was), Now: showOpt(*f)}, *f != was
	}
}

// requested is the index of the tool the request names (the first of its
// name, the one rule 1 reads), or -1.
func requested(in *assess.Input) int {
	return slices.IndexFunc(in.Contract.Tools, func(t assess.Tool) bool { return t.Name == in.Request.Tool.Name })
}

// toolOpt is a mutation of an optional member of the requested tool.
func toolOpt(member string, field func(t *assess.Tool) *assess.Opt, draw func(*rand.Rand) gen.Opt) mutation {
	return func(r *rand.Rand, in *assess.Input) (Change, bool) {
		i := requested(in)
		if i < 0 {
			return Change{}, false
		}
		path := "contract.tools[" + strconv.Itoa(i) + "]." + member
		return setOpt(path, func(in *assess.Input) *assess.Opt { return field(&in.Contract.Tools[i]) }, draw)(r, in)
	}
}

// recordOpt is a mutation of an optional member of the invocation record.
func recordOpt(member string, field func(*assess.InvocationRecord) *assess.Opt, draw func(*rand.Rand) gen.Opt) mutation {
	return func(r *rand.Rand, in *assess.Input) (Change, bool) {
		if in.InvocationRecord == nil {
			return Change{}, false
		}
		return setOpt("invocationRecord."+member, func(in *assess.Input) *assess.Opt { return field(in.InvocationRecord) }, draw)(r, in)
	}
}

// mutations are the changes a case may make, one field each, every value
// from gen's draw of that field.
func mutations() []mutation {
	return []mutation{
		// The request: which tool, which version, which call.
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			was := in.Request.Tool.Name
			in.Request.Tool.Name = gen.ToolName(r)
			return Change{Path: "request.tool.name", Was: strconv.Quote(was), Now: strconv.Quote(in.Request.Tool.Name)}, was != in.Request.Tool.Name
		},
		setOpt("request.tool.version", func(in *assess.Input) *assess.Opt { return &in.Request.Tool.Version }, gen.Version),
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			was := in.Request.CorrelationID
			in.Request.CorrelationID = gen.CorrelationID(r)
			return Change{Path: "request.correlationId", Was: strconv.Quote(was), Now: strconv.Quote(in.Request.CorrelationID)}, was != in.Request.CorrelationID
		},

		// The contract's tool of that name.
		toolOpt("version", func(t *assess.Tool) *assess.Opt { return &t.Version }, gen.Version),
		toolOpt("effectClass", func(t *assess.Tool) *assess.Opt { return &t.EffectClass }, gen.EffectClass),
		toolOpt("approvalScope", func(t *assess.Tool) *assess.Opt { return &t.ApprovalScope }, gen.ApprovalScope),
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			i := requested(in)
			if i < 0 {
				return Change{}, false
			}
			t := &in.Contract.Tools[i]
			was := slices.Clone(t.RequiredArguments)
			t.RequiredArguments = append(was[:len(was):len(was)], gen.ArgumentName(r))
			return Change{Path: "contract.tools[" + strconv.Itoa(i) + "].requiredArguments", Was: show(was), Now: show(t.RequiredArguments)}, true
		},
		// A second tool of the request's name, before or after the first:
		// rule 1 reads only the first of a name.
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			if requested(in) < 0 {
				return Change{}, false
			}
			g := gen.RandomTool(r, in.Request.Tool.Name)
			t := assess.Tool{Name: g.Name, Version: opt(g.Version), EffectClass: opt(g.EffectClass),
				RequiredArguments: append([]string{}, g.Required...), ApprovalScope: opt(g.ApprovalScope)}
			at := r.IntN(len(in.Contract.Tools) + 1)
			in.Contract.Tools = slices.Insert(slices.Clone(in.Contract.Tools), at, t)
			return Change{Path: "contract.tools[" + strconv.Itoa(at) + "]", Op: OpInsert, Was: absent, Now: show(t)}, true
		},

		// The arguments: one the tool requires, or all of them.
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			i := requested(in)
			if i < 0 || len(in.Contract.Tools[i].RequiredArguments) == 0 {
				return Change{}, false
			}
			name := pickOf(r, in.Contract.Tools[i].RequiredArguments)
			old, had := in.Request.Arguments[name]
			was := absent
			if had {
				was = show(old)
			}
			v, omit := gen.Argument(r)
			if omit {
				delete(in.Request.Arguments, name)
				return Change{Path: "request.arguments." + name, Was: was, Now: absent}, had
			}
			if in.Request.Arguments == nil {
				in.Request.Arguments = map[string]any{}
			}
			v = value(v)
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

		setOpt("environment.status", func(in *assess.Input) *assess.Opt { return &in.Environment.Status }, gen.EnvironmentStatus),

		// The approval: put in or left out, its status, its scope.
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			was := approvalText(in.Approval)
			if in.Approval != nil {
				in.Approval = nil
			} else {
				in.Approval = &assess.Approval{Status: gen.ApprovalStatus(r), Scope: opt(gen.ApprovalScope(r))}
			}
			return Change{Path: "approval", Was: was, Now: approvalText(in.Approval)}, true
		},
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			if in.Approval == nil {
				return Change{}, false
			}
			was := in.Approval.Status
			in.Approval.Status = gen.ApprovalStatus(r)
			return Change{Path: "approval.status", Was: strconv.Quote(was), Now: strconv.Quote(in.Approval.Status)}, was != in.Approval.Status
		},
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			if in.Approval == nil {
				return Change{}, false
			}
			return setOpt("approval.scope", func(in *assess.Input) *assess.Opt { return &in.Approval.Scope }, gen.ApprovalScope)(r, in)
		},

		// The record of an earlier call: put in or left out, each member.
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			was := recordText(in.InvocationRecord)
			if in.InvocationRecord != nil {
				in.InvocationRecord = nil
			} else {
				in.InvocationRecord = &assess.InvocationRecord{CorrelationID: opt(gen.RecordCorrelationID(r, in.Request.CorrelationID)),
					Status: opt(gen.RecordStatus(r)), EffectStatus: opt(gen.EffectStatus(r)), VerificationStatus: opt(gen.VerificationStatus(r))}
			}
			return Change{Path: "invocationRecord", Was: was, Now: recordText(in.InvocationRecord)}, true
		},
		func(r *rand.Rand, in *assess.Input) (Change, bool) {
			id := in.Request.CorrelationID
			return recordOpt("correlationId", func(rec *assess.InvocationRecord) *assess.Opt { return &rec.CorrelationID },
				func(r *rand.Rand) gen.Opt { return gen.RecordCorrelationID(r, id) })(r, in)
		},
		recordOpt("status", func(rec *assess.InvocationRecord) *assess.Opt { return &rec.Status }, gen.RecordStatus),
		recordOpt("effectStatus", func(rec *assess.InvocationRecord) *assess.Opt { return &rec.EffectStatus }, gen.EffectStatus),
		recordOpt("verificationStatus", func(rec *assess.InvocationRecord) *assess.Opt { return &rec.VerificationStatus }, gen.VerificationStatus),
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
