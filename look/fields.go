package look

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"toolgate/assess"
)

// Field is one line of an input as renderers show it: a path such as
// "request.tool.version" (the same paths a trace step reads) and its value.
type Field struct {
	// Section is the input's part: contract, request, environment,
	// approval or invocationRecord.
	Section string
	Path    string
	// Label is the path within the section, e.g. "tool.version".
	Label string
	// Value is the JSON text of the value; "" when Absent.
	Value  string
	Absent bool
}

// Sections lists the sections of fields in the order they first appear.
func Sections(fields []Field) []string {
	var out []string
	for _, f := range fields {
		if !slices.Contains(out, f.Section) {
			out = append(out, f.Section)
		}
	}
	return out
}

// SectionTitle names a section for people.
func SectionTitle(section string, l assess.Lang) string {
	titles := map[string][2]string{
		"contract":         {"Contract", "契约"},
		"request":          {"Request", "请求"},
		"environment":      {"Environment", "环境"},
		"approval":         {"Approval", "批准"},
		"invocationRecord": {"Invocation record", "调用记录"},
		"requested":        {"Requested IDs", "请求 ID"},
		"results":          {"Result IDs, in arrival order", "结果 ID（按到达顺序）"},
		"closed":           {"Batch", "批次"},
		"error":            {"JSON-RPC error", "JSON-RPC 错误"},
		"result":           {"Result", "结果"},
	}
	if t, ok := titles[section]; ok {
		return t[l]
	}
	return section
}

// Absent is how an absent input or field reads.
func Absent(l assess.Lang) string {
	if l == assess.Chinese {
		return "— 无 —"
	}
	return "— none —"
}

// Fields lists every field of an input, absent ones included, so that no
// part of the input is ever hidden. A path in trace that names no field
// (a required argument the request lacks) is added as an absent field, so
// that what a rule looked for and did not find can be pointed at.
func Fields(in assess.Input, trace assess.Trace) []Field {
	out := fields(in)
	for _, step := range trace {
		for _, r := range step.Reads {
			if slices.ContainsFunc(out, func(f Field) bool { return covers(f.Path, r) || covers(r, f.Path) }) {
				continue
			}
			section, label, _ := strings.Cut(r, ".")
			last := slices.IndexFunc(out, func(f Field) bool { return f.Section == section })
			for last >= 0 && last+1 < len(out) && out[last+1].Section == section {
				last++
			}
			f := Field{Section: section, Path: r, Label: label, Absent: true}
			out = slices.Insert(out, last+1, f)
		}
	}
	return out
}

// covers reports whether path is inside (or is) the read path r.
func covers(path, r string) bool {
	return path == r || strings.HasPrefix(path, r+".") || strings.HasPrefix(path, r+"[")
}

func fields(in assess.Input) []Field {
	var out []Field
	add := func(section, label, value string, absent bool) {
		out = append(out, Field{Section: section, Path: section + "." + label, Label: label, Value: value, Absent: absent})
	}
	str := func(section, label, v string, optional bool) {
		add(section, label, quote(v), optional && v == "")
	}
	// opt is an optional string: absent when nil, "" shown as "".
	opt := func(section, label string, v *string) {
		if v == nil {
			add(section, label, "", true)
			return
		}
		str(section, label, *v, false)
	}
	str("contract", "version", in.Contract.Version, false)
	if len(in.Contract.Tools) == 0 {
		add("contract", "tools", "[]", false)
	}
	for i, t := range in.Contract.Tools {
		p := "tools[" + strconv.Itoa(i) + "]."
		str("contract", p+"name", t.Name, false)
		str("contract", p+"version", t.Version, false)
		str("contract", p+"effectClass", t.EffectClass, true)
		if len(t.RequiredArguments) == 0 {
			add("contract", p+"requiredArguments", "", true)
		} else {
			add("contract", p+"requiredArguments", jsonText(t.RequiredArguments), false)
		}
		opt("contract", p+"approvalScope", t.ApprovalScope)
	}
	r := in.Request
	str("request", "correlationId", r.CorrelationID, false)
	str("request", "tool.name", r.Tool.Name, false)
	str("request", "tool.version", r.Tool.Version, false)
	if len(r.Arguments) == 0 {
		add("request", "arguments", "", true)
	}
	names := make([]string, 0, len(r.Arguments))
	for name := range r.Arguments {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		add("request", "arguments."+name, jsonText(r.Arguments[name]), false)
	}
	if e := in.Environment; e != nil {
		str("environment", "status", e.Status, false)
	} else {
		out = append(out, Field{Section: "environment", Path: "environment", Absent: true})
	}
	if a := in.Approval; a != nil {
		str("approval", "status", a.Status, false)
		opt("approval", "scope", a.Scope)
	} else {
		out = append(out, Field{Section: "approval", Path: "approval", Absent: true})
	}
	if rec := in.InvocationRecord; rec != nil {
		str("invocationRecord", "correlationId", rec.CorrelationID, false)
		str("invocationRecord", "status", rec.Status, false)
		opt("invocationRecord", "verificationStatus", rec.VerificationStatus)
		opt("invocationRecord", "effectStatus", rec.EffectStatus)
	} else {
		out = append(out, Field{Section: "invocationRecord", Path: "invocationRecord", Absent: true})
	}
	return out
}

// Reads reports whether a field is among the paths a step read: the same
// path, or inside a read path ("contract.tools" covers every tool field);
// an absent part matches the reads inside it ("approval" for
// "approval.status").
func Reads(f Field, reads []string) bool {
	return slices.ContainsFunc(reads, func(r string) bool { return covers(f.Path, r) || f.Absent && covers(r, f.Path) })
}

func quote(s string) string { return strconv.Quote(s) }

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return string(b)
}
