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
	if x, ok := sectionTitle(section); ok {
		return x.in(l)
	}
	return section
}

// Absent is how an absent input or field reads.
func Absent(l assess.Lang) string { return texts.Absent.in(l) }

// Fields lists every field of an input, absent ones included, so that no
// part of the input is ever hidden. A path in trace that names no field
// (a required argument the request lacks) is added as an absent field, so
// that what a rule looked for and did not find can be pointed at.
func Fields(in assess.Input, trace assess.Trace) []Field {
	out := fields(in)
	for _, step := range trace {
		for _, r := range step.Reads {
			if slices.ContainsFunc(out, func(f Field) bool { return covers(f.Path, r) || f.Absent && covers(r, f.Path) }) {
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
	str := func(section, label, v string) {
		add(section, label, quote(v), false)
	}
	// opt is an optional member: absent, or a string ("" shown as "").
	opt := func(section, label string, v assess.Opt) {
		if s, ok := v.Get(); ok {
			str(section, label, s)
			return
		}
		add(section, label, "", true)
	}
	opt("contract", "version", in.Contract.Version)
	if len(in.Contract.Tools) == 0 {
		add("contract", "tools", "[]", false)
	}
	for i, t := range in.Contract.Tools {
		p := "tools[" + strconv.Itoa(i) + "]."
		str("contract", p+"name", t.Name)
		opt("contract", p+"version", t.Version)
		opt("contract", p+"effectClass", t.EffectClass)
		add("contract", p+"requiredArguments", jsonText(orEmpty(t.RequiredArguments)), false)
		opt("contract", p+"approvalScope", t.ApprovalScope)
	}
	r := in.Request
	str("request", "correlationId", r.CorrelationID)
	str("request", "tool.name", r.Tool.Name)
	opt("request", "tool.version", r.Tool.Version)
	if len(r.Arguments) == 0 {
		add("request", "arguments", "", r.Arguments == nil)
		if r.Arguments != nil {
			out[len(out)-1].Value = "{}"
		}
	}
	names := make([]string, 0, len(r.Arguments))
	for name := range r.Arguments {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		add("request", "arguments."+name, jsonText(r.Arguments[name]), false)
	}
	opt("environment", "status", in.Environment.Status)
	if a := in.Approval; a != nil {
		str("approval", "status", a.Status)
		opt("approval", "scope", a.Scope)
	} else {
		out = append(out, Field{Section: "approval", Path: "approval", Absent: true})
	}
	if rec := in.InvocationRecord; rec != nil {
		opt("invocationRecord", "correlationId", rec.CorrelationID)
		opt("invocationRecord", "status", rec.Status)
		opt("invocationRecord", "verificationStatus", rec.VerificationStatus)
		opt("invocationRecord", "effectStatus", rec.EffectStatus)
	} else {
		out = append(out, Field{Section: "invocationRecord", Path: "invocationRecord", Absent: true})
	}
	return out
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
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
