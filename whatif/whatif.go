// Package whatif holds the knobs a learner turns to change one input of an
// admission scenario at a time: the environment, the approval, the
// invocation record, an argument, the version asked for, the tool's effect
// class. A knob only edits the input; assess decides what the edit means.
package whatif

import (
	"maps"
	"reflect"
	"slices"

	"toolgate/assess"
)

// Knob is one thing a learner can change.
type Knob struct {
	ID      string
	Title   [2]string
	Options [][2]string
	// Evidence marks a knob that rewrites what already happened (the
	// invocation record) or the contract, not the request or its
	// situation: turning it is never a fix, and NotAFix says why.
	Evidence bool
	NotAFix  [2]string
	// apply sets an option on a copy of the input.
	apply func(in *assess.Input, option int)
}

// Name is the knob's title in a language.
func (k Knob) Name(l assess.Lang) string { return k.Title[l] }

// Option is an option's label in a language.
func (k Knob) Option(i int, l assess.Lang) string { return k.Options[i][l] }

// Current is the option the input is at: the one whose Apply leaves it as
// it is; -1 when none does (a scenario as written may have values no knob
// names, such as a record for another id than the knob's).
func (k Knob) Current(in assess.Input) int {
	for o := range k.Options {
		if reflect.DeepEqual(k.Apply(in, o), in) {
			return o
		}
	}
	return -1
}

// Apply returns a copy of the input with the knob set to an option; the
// input passed is not changed.
func (k Knob) Apply(in assess.Input, option int) assess.Input {
	c := Clone(in)
	k.apply(&c, option)
	return c
}

// Clone copies an input deeply enough that editing the copy never changes
// the original.
func Clone(in assess.Input) assess.Input {
	c := in
	c.Contract.Tools = slices.Clone(in.Contract.Tools)
	for i := range c.Contract.Tools {
		c.Contract.Tools[i].RequiredArguments = slices.Clone(in.Contract.Tools[i].RequiredArguments)
	}
	c.Request.Arguments = maps.Clone(in.Request.Arguments)
	if in.Approval != nil {
		a := *in.Approval
		c.Approval = &a
	}
	if in.InvocationRecord != nil {
		r := *in.InvocationRecord
		c.InvocationRecord = &r
	}
	return c
}

// tool is the contract entry the request names (the first of that name),
// or nil.
func tool(in *assess.Input) *assess.Tool {
	for i := range in.Contract.Tools {
		if in.Contract.Tools[i].Name == in.Request.Tool.Name {
			return &in.Contract.Tools[i]
		}
	}
	return nil
}

// record returns the invocation record, creating one for this request if
// there is none, so that its status knobs have something to set.
func record(in *assess.Input) *assess.InvocationRecord {
	if in.InvocationRecord == nil {
		in.InvocationRecord = &assess.InvocationRecord{CorrelationID: assess.Some(in.Request.CorrelationID), Status: assess.Some(assess.StatusSuccess)}
	}
	return in.InvocationRecord
}

// opts are the options of a knob over an optional member: each value,
// then absent.
func opts(values ...string) [][2]string {
	out := make([][2]string, 0, len(values)+1)
	for _, v := range values {
		out = append(out, [2]string{v, v})
	}
	return append(out, absentOption)
}

var absentOption = [2]string{"absent", "缺失"}

// pick is option o of an optional member's knob (opts): the value, or
// absent past the values.
func pick(values []string, o int) assess.Opt {
	if o < len(values) {
		return assess.Some(values[o])
	}
	return assess.Absent
}

// Knobs are the knobs, in menu order.
func Knobs() []Knob {
	envs := []string{assess.StatusReady, "degraded"}
	statuses := []string{assess.StatusSuccess, assess.StatusTimedOut, "failed"}
	verifications := []string{assess.Accepted, "not_run"}
	effects := []string{assess.EffectUnknown, "read_back"}
	classes := []string{assess.ReadOnly, assess.ReversibleWrite, assess.IrreversibleWrite}
	return []Knob{
		{
			ID:      "environment",
			Title:   [2]string{"Environment status", "环境状态"},
			Options: opts(envs...),
			apply: func(in *assess.Input, o int) {
				in.Environment.Status = pick(envs, o)
			},
		},
		{
			ID:    "approval",
			Title: [2]string{"Approval", "批准"},
			Options: [][2]string{{"none", "无"}, {assess.StatusActive, assess.StatusActive}, {"expired", "expired"}, {"revoked", "revoked"},
				{"another scope", "范围不符"}, {"no scope", "没有 scope"}},
			apply: func(in *assess.Input, o int) {
				var scope assess.Opt
				if t := tool(in); t != nil {
					scope = t.ApprovalScope
				}
				switch o {
				case 0:
					in.Approval = nil
				case 1:
					in.Approval = &assess.Approval{Status: assess.StatusActive, Scope: scope}
				case 2:
					in.Approval = &assess.Approval{Status: "expired", Scope: scope}
				case 3:
					in.Approval = &assess.Approval{Status: "revoked", Scope: scope}
				case 4:
					in.Approval = &assess.Approval{Status: assess.StatusActive, Scope: assess.Some(scope.Or(in.Request.Tool.Name) + "_other")}
				default:
					in.Approval = &assess.Approval{Status: assess.StatusActive}
				}
			},
		},
		{
			ID:       "record",
			Title:    [2]string{"Invocation record", "调用记录"},
			Evidence: true,
			NotAFix: [2]string{"a record says what an earlier attempt did; leaving it out hides it and undoes nothing",
				"记录说明之前的尝试做了什么；把它拿掉只是把它藏起来，什么也没有撤销"},
			Options: [][2]string{{"none", "无"}, {"same id", "同一 ID"}, {"other id", "其他 ID"}, {"no id", "没有 ID"}},
			apply: func(in *assess.Input, o int) {
				switch o {
				case 0:
					in.InvocationRecord = nil
				case 1:
					record(in).CorrelationID = assess.Some(in.Request.CorrelationID)
				case 2:
					record(in).CorrelationID = assess.Some(in.Request.CorrelationID + "-earlier")
				default:
					record(in).CorrelationID = assess.Absent
				}
			},
		},
		{
			ID:       "status",
			Title:    [2]string{"Record status", "记录状态"},
			Evidence: true,
			NotAFix: [2]string{"rewriting a record's status does not change what the call did",
				"改写记录的状态不会改变调用实际做了什么"},
			Options: opts(statuses...),
			apply: func(in *assess.Input, o int) {
				record(in).Status = pick(statuses, o)
			},
		},
		{
			ID:       "verification",
			Title:    [2]string{"Verification", "验证"},
			Evidence: true,
			NotAFix: [2]string{"only an actual verification may accept a result; writing accepted into the record is not one",
				"只有真正做过的验证才能接受结果；把 accepted 写进记录并不是验证"},
			Options: opts(verifications...),
			apply: func(in *assess.Input, o int) {
				record(in).VerificationStatus = pick(verifications, o)
			},
		},
		{
			ID:       "effect",
			Title:    [2]string{"Effect status", "效果状态"},
			Evidence: true,
			NotAFix: [2]string{"only a real read-back of the target may say what the effect was; writing it into the record is not reading it back",
				"只有真正回读目标才能说明效果如何；把它写进记录并不是回读"},
			Options: opts(effects...),
			apply: func(in *assess.Input, o int) {
				record(in).EffectStatus = pick(effects, o)
			},
		},
		{
			ID:      "argument",
			Title:   [2]string{"First required argument", "第一个必填参数"},
			Options: [][2]string{{"as written", "保持原样"}, {"dropped", "删除"}, {"empty", "空字符串"}, {"spaces only", "只有空格"}},
			apply: func(in *assess.Input, o int) {
				t := tool(in)
				if t == nil || len(t.RequiredArguments) == 0 {
					return
				}
				name := t.RequiredArguments[0]
				if in.Request.Arguments == nil && o != 1 {
					in.Request.Arguments = map[string]any{}
				}
				switch o {
				case 0:
					if v, ok := in.Request.Arguments[name].(string); !ok || assess.IsBlank(v) {
						in.Request.Arguments[name] = "value-" + name
					}
				case 1:
					delete(in.Request.Arguments, name)
				case 2:
					in.Request.Arguments[name] = ""
				default:
					in.Request.Arguments[name] = "   "
				}
			},
		},
		{
			ID:      "version",
			Title:   [2]string{"Version asked for", "请求的版本"},
			Options: [][2]string{{"the contract's", "契约中的版本"}, {"one the contract lacks", "契约没有的版本"}, absentOption},
			apply: func(in *assess.Input, o int) {
				t := tool(in)
				if t == nil {
					return
				}
				switch o {
				case 0:
					in.Request.Tool.Version = t.Version
				case 1:
					in.Request.Tool.Version = assess.Some(t.Version.Or("v") + "-next")
				default:
					in.Request.Tool.Version = assess.Absent
				}
			},
		},
		{
			ID:       "class",
			Title:    [2]string{"Tool's effect class", "工具的效果类别"},
			Evidence: true,
			NotAFix: [2]string{"the contract says what the tool does; relabelling a write as read-only does not make it one",
				"契约说明工具做什么；把写入标成只读并不会让它变成只读"},
			Options: opts(classes...),
			apply: func(in *assess.Input, o int) {
				// The first tool of the name: the only one rule 1 reads.
				if t := tool(in); t != nil {
					t.EffectClass = pick(classes, o)
				}
			},
		},
	}
}
