package vectors

// The base inputs every generated admission vector starts from. Each is
// allowed or decided by one rule, so that a single edit shows what it
// changes.
const (
	// baseRead: a read-only tool, every rule passes.
	baseRead = `{
	"contract": {"version": "vectors-v1", "tools": [
		{"name": "notes_read", "version": "v1", "effectClass": "read_only", "requiredArguments": ["noteId"]}]},
	"request": {"correlationId": "call-1", "tool": {"name": "notes_read", "version": "v1"}, "arguments": {"noteId": "n-7"}},
	"environment": {"status": "ready"}}`
	// baseWrite: a write with an active approval for its scope; allowed.
	baseWrite = `{
	"contract": {"version": "vectors-v1", "tools": [
		{"name": "notes_update", "version": "v1", "effectClass": "reversible_write", "requiredArguments": ["noteId", "title"], "approvalScope": "notes_write"}]},
	"request": {"correlationId": "call-2", "tool": {"name": "notes_update", "version": "v1"}, "arguments": {"noteId": "n-7", "title": "Rules"}},
	"environment": {"status": "ready"},
	"approval": {"status": "active", "scope": "notes_write"}}`
	// baseSucceeded: an earlier attempt succeeded and was accepted; allowed.
	baseSucceeded = `{
	"contract": {"version": "vectors-v1", "tools": [
		{"name": "notes_read", "version": "v1", "effectClass": "read_only", "requiredArguments": ["noteId"]}]},
	"request": {"correlationId": "call-3", "tool": {"name": "notes_read", "version": "v1"}, "arguments": {"noteId": "n-7"}},
	"environment": {"status": "ready"},
	"invocationRecord": {"correlationId": "call-3", "status": "succeeded", "verificationStatus": "accepted"}}`
	// baseTimedOut: an earlier attempt timed out, effect unknown; rule 5.
	baseTimedOut = `{
	"contract": {"version": "vectors-v1", "tools": [
		{"name": "notes_read", "version": "v1", "effectClass": "read_only", "requiredArguments": ["noteId"]}]},
	"request": {"correlationId": "call-4", "tool": {"name": "notes_read", "version": "v1"}, "arguments": {"noteId": "n-7"}},
	"environment": {"status": "ready"},
	"invocationRecord": {"correlationId": "call-4", "status": "timed_out", "effectStatus": "unknown"}}`
)

// edit is one change to a base input.
type edit struct {
	path  string
	value any
}

func edits(base string, es ...edit) tree {
	t := parse(base)
	for _, e := range es {
		t = with(t, e.path, e.value)
	}
	return t
}

func admission() []generated {
	var out []generated
	add := func(id string, t tree) { out = append(out, generated{id, marshal(t)}) }
	read, write, succeeded, timedOut := parse(baseRead), parse(baseWrite), parse(baseSucceeded), parse(baseTimedOut)

	// Every rule fires, every code and status appears, and the order
	// between rules holds when several would fire.
	add("rule/8/allowed-read", read)
	add("rule/8/allowed-write-approved", write)
	add("rule/8/allowed-succeeded-accepted", succeeded)
	add("rule/1/unknown-tool", with(read, "request.tool.name", "notes_delete"))
	add("rule/1/unknown-tool-empty-contract", with(read, "contract.tools", []any{}))
	add("rule/1/name-is-case-sensitive", with(read, "request.tool.name", "Notes_Read"))
	add("rule/1/version-mismatch", with(read, "request.tool.version", "v2"))
	add("rule/1/version-is-a-string-not-a-number", with(read, "request.tool.version", "v1.0"))
	add("rule/1/request-version-absent-tool-v1", with(read, "request.tool.version", absent))
	add("rule/1/both-versions-absent", edits(baseRead, edit{"request.tool.version", absent}, edit{"contract.tools.0.version", absent}))
	add("rule/1/request-version-empty-tool-version-absent", edits(baseRead, edit{"request.tool.version", ""}, edit{"contract.tools.0.version", absent}))
	add("rule/1/both-versions-empty", edits(baseRead, edit{"request.tool.version", ""}, edit{"contract.tools.0.version", ""}))
	add("rule/1/tool-named-empty-string", edits(baseRead, edit{"request.tool.name", ""}, edit{"contract.tools.0.name", ""}))
	add("rule/1/only-the-first-entry-of-a-name-is-read", with(read, "contract.tools",
		[]any{parse(`{"name":"notes_read","version":"v0","effectClass":"irreversible_write","requiredArguments":[]}`),
			parse(`{"name":"notes_read","version":"v1","effectClass":"read_only","requiredArguments":["noteId"]}`)}))
	add("rule/1/the-first-entry-decides-what-later-rules-read", with(read, "contract.tools",
		[]any{parse(`{"name":"notes_read","version":"v1","effectClass":"irreversible_write","requiredArguments":[]}`),
			parse(`{"name":"notes_read","version":"v1","effectClass":"read_only","requiredArguments":["noteId"]}`)}))
	add("rule/1/before-rule-2", edits(baseSucceeded, edit{"request.tool.name", "other"}, edit{"invocationRecord.correlationId", "call-9"}))
	add("rule/2/correlation-conflict", with(succeeded, "invocationRecord.correlationId", "call-9"))
	add("rule/2/correlation-differs-in-case", with(succeeded, "invocationRecord.correlationId", "CALL-3"))
	add("rule/2/before-rule-3", edits(baseSucceeded, edit{"invocationRecord.correlationId", "call-9"}, edit{"request.arguments", absent}))
	add("rule/2/record-without-correlation-id", with(succeeded, "invocationRecord.correlationId", absent))
	add("rule/2/empty-record", with(read, "invocationRecord", map[string]any{}))
	add("rule/2/empty-ids-match", edits(baseSucceeded, edit{"request.correlationId", ""}, edit{"invocationRecord.correlationId", ""}))
	add("rule/3/arguments-empty-object", with(read, "request.arguments", map[string]any{}))
	add("rule/3/arguments-absent", with(read, "request.arguments", absent))
	add("rule/3/arguments-null", with(read, "request.arguments", nil))
	add("rule/3/two-missing-in-contract-order", with(write, "request.arguments", map[string]any{"extra": "x"}))
	add("rule/3/missing-in-contract-order-not-alphabetical", edits(baseWrite,
		edit{"contract.tools.0.requiredArguments", []any{"title", "noteId"}}, edit{"request.arguments", map[string]any{}}))
	add("rule/3/listed-twice-missing-twice", edits(baseRead,
		edit{"contract.tools.0.requiredArguments", []any{"noteId", "noteId"}}, edit{"request.arguments", map[string]any{}}))
	add("rule/3/listed-twice-present", with(read, "contract.tools.0.requiredArguments", []any{"noteId", "noteId"}))
	add("rule/3/name-empty-string", edits(baseRead,
		edit{"contract.tools.0.requiredArguments", []any{""}}, edit{"request.arguments", map[string]any{"": "x"}}))
	add("rule/3/name-empty-string-missing", with(read, "contract.tools.0.requiredArguments", []any{""}))
	add("rule/3/name-of-an-inherited-property", with(read, "contract.tools.0.requiredArguments", []any{"constructor", "__proto__", "toString"}))
	add("rule/3/extra-arguments-are-fine", with(read, "request.arguments", map[string]any{"noteId": "n-7", "limit": 5.0, "deep": map[string]any{"a": []any{1.0}}}))
	add("rule/3/no-required-arguments", edits(baseRead, edit{"contract.tools.0.requiredArguments", []any{}}, edit{"request.arguments", absent}))
	for _, c := range []fieldCase{
		{"absent", absent}, {"null", nil}, {"empty-string", ""}, {"number", 7.0}, {"zero", 0.0},
		{"boolean", false}, {"array", []any{"n-7"}}, {"object", map[string]any{"id": "n-7"}},
		{"whitespace", " "}, {"string-null", "null"}, {"tab-newline", "\t\n\r\v\f"}, {"no-break-space", "\u00a0"},
		{"ideographic-space", "\u3000"}, {"byte-order-mark", "\ufeff"}, {"line-separator", "\u2028\u2029"},
		{"thin-and-hair-spaces", "\u2009\u200a\u202f\u205f\u1680"},
		{"zero-width-space-is-not-blank", "\u200b"}, {"next-line-is-not-blank", "\u0085"}, {"mongolian-vowel-separator-is-not-blank", "\u180e"},
		{"padded-value", "  n-7  "},
	} {
		add("rule/3/argument-"+c.name, with(read, "request.arguments.noteId", c.value))
	}
	add("rule/3/before-rule-4", edits(baseRead, edit{"request.arguments", absent}, edit{"environment", map[string]any{}}))
	add("rule/4/environment-status-absent", with(read, "environment", map[string]any{}))
	add("rule/4/environment-degraded", with(read, "environment.status", "degraded"))
	add("rule/4/environment-status-case", with(read, "environment.status", "READY"))
	add("rule/4/environment-status-padded", with(read, "environment.status", "ready "))
	add("rule/4/before-rule-5", with(timedOut, "environment.status", "starting"))
	add("rule/4/before-rule-7", edits(baseWrite, edit{"environment", map[string]any{}}, edit{"approval", absent}))
	add("rule/5/timed-out-effect-unknown", timedOut)
	add("rule/5/timed-out-effect-absent-does-not-fire", with(timedOut, "invocationRecord.effectStatus", absent))
	add("rule/5/timed-out-effect-empty-does-not-fire", with(timedOut, "invocationRecord.effectStatus", ""))
	add("rule/5/unknown-is-case-sensitive", with(timedOut, "invocationRecord.effectStatus", "Unknown"))
	add("rule/5/status-absent-effect-unknown", with(timedOut, "invocationRecord.status", absent))
	add("rule/5/timed-out-effect-read-back", with(timedOut, "invocationRecord.effectStatus", "read_back"))
	add("rule/5/effect-unknown-but-not-timed-out", with(timedOut, "invocationRecord.status", "failed"))
	add("rule/5/before-rule-7", edits(baseWrite, edit{"approval", absent},
		edit{"invocationRecord", parse(`{"correlationId":"call-2","status":"timed_out","effectStatus":"unknown"}`)}))
	add("rule/6/succeeded-not-verified", with(succeeded, "invocationRecord.verificationStatus", "not_run"))
	add("rule/6/succeeded-verification-absent", with(succeeded, "invocationRecord.verificationStatus", absent))
	add("rule/6/succeeded-verification-rejected", with(succeeded, "invocationRecord.verificationStatus", "rejected"))
	add("rule/6/accepted-is-case-sensitive", with(succeeded, "invocationRecord.verificationStatus", "Accepted"))
	add("rule/6/failed-record-passes", edits(baseSucceeded, edit{"invocationRecord.status", "failed"}, edit{"invocationRecord.verificationStatus", absent}))
	add("rule/6/before-rule-7", edits(baseWrite, edit{"approval", absent},
		edit{"invocationRecord", parse(`{"correlationId":"call-2","status":"succeeded"}`)}))
	add("rule/7/approval-missing", with(write, "approval", absent))
	add("rule/7/approval-null", with(write, "approval", nil))
	add("rule/7/approval-expired", with(write, "approval.status", "expired"))
	add("rule/7/approval-revoked", with(write, "approval.status", "revoked"))
	add("rule/7/approval-status-case", with(write, "approval.status", "ACTIVE"))
	add("rule/7/approval-status-spells-approval-missing", with(write, "approval.status", "missing"))
	add("rule/7/approval-status-with-spaces", with(write, "approval.status", " active "))
	add("rule/7/approval-status-unicode", with(write, "approval.status", "已过期"))
	add("rule/7/approval-scope-mismatch", with(write, "approval.scope", "notes_read"))
	add("rule/7/not-active-before-scope", edits(baseWrite, edit{"approval.status", "revoked"}, edit{"approval.scope", "other"}))
	add("rule/7/irreversible-write", with(write, "contract.tools.0.effectClass", "irreversible_write"))
	add("rule/7/irreversible-write-no-approval", edits(baseWrite, edit{"contract.tools.0.effectClass", "irreversible_write"}, edit{"approval", absent}))
	add("rule/7/unknown-class-fails-closed", edits(baseRead, edit{"contract.tools.0.effectClass", "read_mostly"}))
	add("rule/7/class-case-fails-closed", edits(baseRead, edit{"contract.tools.0.effectClass", "READ_ONLY"}))
	add("rule/7/class-absent-fails-closed", edits(baseRead, edit{"contract.tools.0.effectClass", absent}))
	add("rule/7/class-empty-fails-closed", edits(baseRead, edit{"contract.tools.0.effectClass", ""}))
	add("rule/7/scope-absent-is-not-the-tool-name", edits(baseWrite, edit{"contract.tools.0.approvalScope", absent}, edit{"approval.scope", "notes_update"}))
	add("rule/7/scope-absent-approval-names-old-scope", with(write, "contract.tools.0.approvalScope", absent))
	add("rule/7/scope-absent-matched-by-unscoped-approval", edits(baseWrite, edit{"contract.tools.0.approvalScope", absent}, edit{"approval.scope", absent}))
	add("rule/7/scoped-tool-not-matched-by-unscoped-approval", with(write, "approval.scope", absent))
	add("rule/7/scope-empty-not-matched-by-unscoped-approval", edits(baseWrite, edit{"contract.tools.0.approvalScope", ""}, edit{"approval.scope", absent}))
	add("rule/7/scope-empty-is-a-value", edits(baseWrite, edit{"contract.tools.0.approvalScope", ""}, edit{"approval.scope", ""}))
	add("rule/7/scope-empty-is-not-the-name", edits(baseWrite, edit{"contract.tools.0.approvalScope", ""}, edit{"approval.scope", "notes_update"}))
	add("rule/7/approval-ignored-for-read", with(read, "approval", parse(`{"status":"expired","scope":"x"}`)))

	// Every field: absent, null, "", and a wrong type. Each case starts
	// from the base where the field matters.
	fields := []struct {
		base, path, kind string
	}{
		{baseRead, "contract", "object"},
		{baseRead, "contract.version", "string"},
		{baseRead, "contract.tools", "array"},
		{baseRead, "contract.tools.0", "object"},
		{baseRead, "contract.tools.0.name", "string"},
		{baseRead, "contract.tools.0.version", "string"},
		{baseRead, "contract.tools.0.effectClass", "string"},
		{baseRead, "contract.tools.0.requiredArguments", "array"},
		{baseRead, "contract.tools.0.requiredArguments.0", "string"},
		{baseWrite, "contract.tools.0.approvalScope", "string"},
		{baseRead, "request", "object"},
		{baseRead, "request.correlationId", "string"},
		{baseRead, "request.tool", "object"},
		{baseRead, "request.tool.name", "string"},
		{baseRead, "request.tool.version", "string"},
		{baseRead, "request.arguments", "object"},
		{baseRead, "environment", "object"},
		{baseRead, "environment.status", "string"},
		{baseWrite, "approval", "object"},
		{baseWrite, "approval.status", "string"},
		{baseWrite, "approval.scope", "string"},
		{baseSucceeded, "invocationRecord", "object"},
		{baseSucceeded, "invocationRecord.correlationId", "string"},
		{baseSucceeded, "invocationRecord.status", "string"},
		{baseSucceeded, "invocationRecord.verificationStatus", "string"},
		{baseTimedOut, "invocationRecord.effectStatus", "string"},
	}
	for _, f := range fields {
		for _, c := range caseSet(f.kind) {
			if c.value == absent && isArrayElement(f.path) {
				continue // an array element cannot be left out
			}
			add("field/"+dotted(f.path)+"/"+c.name, with(parse(f.base), f.path, c.value))
		}
	}

	// Unknown fields: an error everywhere but inside arguments; names are
	// case-sensitive.
	add("unknown/top-level-typo", with(succeeded, "invocationRecrod", parse(`{"correlationId":"call-3","status":"timed_out"}`)))
	add("unknown/top-level-capitalised", with(read, "Environment", parse(`{"status":"ready"}`)))
	add("unknown/in-tool", with(read, "contract.tools.0.effectclass", "read_only"))
	add("unknown/in-request-tool", with(read, "request.tool.versions", "v1"))
	add("unknown/in-approval", with(write, "approval.expires", "2030-01-01"))
	add("unknown/in-record", with(succeeded, "invocationRecord.verifiedBy", "ci"))
	add("unknown/inside-arguments-is-fine", with(read, "request.arguments.unexpected", true))

	// Texts a generic JSON library accepts and a strict decoder refuses.
	raw := func(id, text string) { out = append(out, generated{id, []byte(text)}) }
	raw("json/duplicate-field", `{"contract":{"version":"v","tools":[]},"request":{"correlationId":"c","tool":{"name":"t"}},"request":{"correlationId":"d","tool":{"name":"t"}}}`)
	raw("json/duplicate-field-in-environment", `{"contract":{"version":"v","tools":[{"name":"t","effectClass":"read_only","requiredArguments":[]}]},"request":{"correlationId":"c","tool":{"name":"t"}},"environment":{"status":"down","status":"ready"}}`)
	raw("json/duplicate-argument", `{"contract":{"tools":[{"name":"t","effectClass":"read_only","requiredArguments":["a"]}]},"request":{"correlationId":"c","tool":{"name":"t"},"arguments":{"a":"","a":"x"}},"environment":{"status":"ready"}}`)
	raw("json/duplicate-record", `{"contract":{"tools":[{"name":"t","effectClass":"read_only","requiredArguments":[]}]},"request":{"correlationId":"c","tool":{"name":"t"}},"environment":{"status":"ready"},"invocationRecord":{"correlationId":"c","status":"timed_out","effectStatus":"unknown"},"invocationRecord":null}`)
	raw("json/not-an-object", `["contract","request"]`)
	raw("json/empty-object", `{}`)
	raw("json/unicode-escapes", `{"contract":{"version":"v","tools":[{"name":"t\u00e9","effectClass":"read_only","requiredArguments":[]}]},"request":{"correlationId":"c","tool":{"name":"té"}},"environment":{"status":"\u0072eady"}}`)
	raw("json/lone-surrogate", `{"contract":{"tools":[{"name":"t","effectClass":"read_only","requiredArguments":["a"]}]},"request":{"correlationId":"c","tool":{"name":"t"},"arguments":{"a":"\ud800"}},"environment":{"status":"ready"}}`)
	raw("json/missing-required-arguments-list", `{"contract":{"tools":[{"name":"t","effectClass":"read_only"}]},"request":{"correlationId":"c","tool":{"name":"t"}},"environment":{"status":"ready"}}`)
	raw("json/environment-missing", `{"contract":{"tools":[{"name":"t","effectClass":"read_only","requiredArguments":[]}]},"request":{"correlationId":"c","tool":{"name":"t"}}}`)
	return out
}

func isArrayElement(path string) bool {
	i := len(path) - 1
	for i >= 0 && path[i] >= '0' && path[i] <= '9' {
		i--
	}
	return i < len(path)-1 && (i < 0 || path[i] == '.')
}
