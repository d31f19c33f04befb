package main

// A learner's finished gate, for the tests: the book's decision as
// docs/decision.md §2 states it. RULE3-TRIM marks the line the scripted learner first
// gets wrong.

import "strings"

const jsTrim = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"

func same(a, b *string) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func is(a *string, s string) bool { return a != nil && *a == s }

func assessToolInvocation(in Input) Verdict {
	id := in.Request.CorrelationID
	v := func(status, code string) Verdict { return Verdict{Status: status, Code: code, CorrelationID: id} }
	var tool *Tool
	for i := range in.Contract.Tools {
		if in.Contract.Tools[i].Name == in.Request.Tool.Name {
			tool = &in.Contract.Tools[i]
			break
		}
	}
	if tool == nil {
		return v("rejected", "unknown_tool")
	}
	if !same(tool.Version, in.Request.Tool.Version) {
		return v("rejected", "tool_version_mismatch")
	}
	rec := in.InvocationRecord
	if rec != nil && !is(rec.CorrelationID, id) {
		return v("blocked", "correlation_conflict")
	}
	var missing []string
	for _, name := range tool.RequiredArguments {
		s, ok := in.Request.Arguments[name].(string)
		if !ok || strings.Trim(s, jsTrim) == "" { // RULE3-TRIM
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		out := v("rejected", "invalid_arguments")
		out.MissingArguments = missing
		return out
	}
	if !is(in.Environment.Status, "ready") {
		return v("blocked", "environment_not_ready")
	}
	if rec != nil && is(rec.Status, "timed_out") && is(rec.EffectStatus, "unknown") {
		out := v("effect_unknown", "timed_out_without_readback")
		out.EffectStatus = "unknown"
		return out
	}
	if rec != nil && is(rec.Status, "succeeded") && !is(rec.VerificationStatus, "accepted") {
		return v("needs_evidence", "tool_result_not_verified")
	}
	if !is(tool.EffectClass, "read_only") {
		switch a := in.Approval; {
		case a == nil:
			return v("requires_approval", "approval_missing")
		case a.Status != "active":
			return v("requires_approval", "approval_"+a.Status)
		case !same(a.Scope, tool.ApprovalScope):
			return v("requires_approval", "approval_scope_mismatch")
		}
	}
	return v("allowed", "admission_allowed")
}
