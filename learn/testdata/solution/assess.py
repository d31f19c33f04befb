"""A learner's finished gate, for the tests: the book's decision as
docs/decision.md §2 states it. RULE3-TRIM marks the line the scripted learner first gets
wrong."""

JS_TRIM = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"

MISSING = object()


def assess_tool_invocation(contract, request, environment, approval=None, invocation_record=None):
    rid = request["correlationId"]

    def verdict(status, code, **extra):
        v = {"status": status, "code": code, "correlationId": rid}
        v.update(extra)
        return v

    tool = next((t for t in contract["tools"] if t["name"] == request["tool"]["name"]), None)
    if tool is None:
        return verdict("rejected", "unknown_tool")
    if tool.get("version", MISSING) != request["tool"].get("version", MISSING):
        return verdict("rejected", "tool_version_mismatch")
    record = invocation_record
    if record is not None and record.get("correlationId", MISSING) != rid:
        return verdict("blocked", "correlation_conflict")
    args = request.get("arguments") or {}
    missing = [n for n in tool["requiredArguments"]
               if not isinstance(args.get(n), str) or args[n].strip(JS_TRIM) == ""]  # RULE3-TRIM
    if missing:
        return verdict("rejected", "invalid_arguments", missingArguments=missing)
    if environment.get("status") != "ready":
        return verdict("blocked", "environment_not_ready")
    if record is not None and record.get("status") == "timed_out" and record.get("effectStatus") == "unknown":
        return verdict("effect_unknown", "timed_out_without_readback", effectStatus="unknown")
    if record is not None and record.get("status") == "succeeded" and record.get("verificationStatus") != "accepted":
        return verdict("needs_evidence", "tool_result_not_verified")
    if tool.get("effectClass") != "read_only":
        if approval is None:
            return verdict("requires_approval", "approval_missing")
        if approval["status"] != "active":
            return verdict("requires_approval", "approval_" + approval["status"])
        if approval.get("scope", MISSING) != tool.get("approvalScope", MISSING):
            return verdict("requires_approval", "approval_scope_mismatch")
    return verdict("allowed", "admission_allowed")
