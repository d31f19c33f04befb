package decode_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/decode"
)

// tripleBase is an input where every field is present and every rule
// passes: a write-class tool whose approval scope is "s", an active
// approval for "s", and a record that succeeded and was accepted.
const tripleBase = `{"contract":{"version":"c1","tools":[{"name":"t","version":"v1","effectClass":"reversible_write",
 "requiredArguments":["a"],"approvalScope":"s"}]},
 "request":{"correlationId":"r1","tool":{"name":"t","version":"v1"},"arguments":{"a":"x"}},
 "environment":{"status":"ready"},"approval":{"status":"active","scope":"s"},
 "invocationRecord":{"correlationId":"r1","status":"succeeded","verificationStatus":"accepted","effectStatus":"read_back"}}`

// triple is one field of docs/decision.md §1 set to "", to null, and left out, with
// what each gives: a verdict code, or "error: " and the input error.
type triple struct {
	path string
	// edit, when set, changes the base first (to reach the rule that
	// reads the field).
	edit map[string]any
	want [3]string // "", null, absent
}

// triples covers every member of the admission input: "" is a value,
// absent is not a value, and null where a string is expected is refused
// (the book compares null and absent differently, so an input must say
// absent by leaving the member out).
var triples = []triple{
	{path: "contract", want: [3]string{"error: contract: want object, got string", "error: contract: required", "error: contract: required"}},
	// The decision never reads the contract's version.
	{path: "contract.version", want: [3]string{"admission_allowed", "error: contract.version: null where a string is expected", "admission_allowed"}},
	{path: "contract.tools", want: [3]string{"error: contract.tools: want array, got string", "error: contract.tools: required", "error: contract.tools: required"}},
	// A tool may be named "", which is not the requested "t".
	{path: "contract.tools.0.name", want: [3]string{"unknown_tool", "error: contract.tools[0].name: null where a string is expected", "error: contract.tools[0].name: required"}},
	// Neither "" nor absent is the request's "v1".
	{path: "contract.tools.0.version", want: [3]string{"tool_version_mismatch", "error: contract.tools[0].version: null where a string is expected", "tool_version_mismatch"}},
	// Every class but "read_only" is a write, "" and absent included.
	{path: "contract.tools.0.effectClass", edit: map[string]any{"approval": nil},
		want: [3]string{"approval_missing", "error: contract.tools[0].effectClass: null where a string is expected", "approval_missing"}},
	// The book calls requiredArguments.filter: a tool without the list would crash it.
	{path: "contract.tools.0.requiredArguments", want: [3]string{"error: contract.tools[0].requiredArguments: want array, got string", "error: contract.tools[0].requiredArguments: required", "error: contract.tools[0].requiredArguments: required"}},
	// Absent equals only absent, "" only "": the approval's "s" is neither.
	{path: "contract.tools.0.approvalScope", want: [3]string{"approval_scope_mismatch", "error: contract.tools[0].approvalScope: null where a string is expected", "approval_scope_mismatch"}},
	{path: "contract.tools.0.approvalScope", edit: map[string]any{"approval.scope": ""},
		want: [3]string{"admission_allowed", "error: contract.tools[0].approvalScope: null where a string is expected", "approval_scope_mismatch"}},
	// A tool without approvalScope is not matched by its own name.
	{path: "contract.tools.0.approvalScope", edit: map[string]any{"approval.scope": "t"},
		want: [3]string{"approval_scope_mismatch", "error: contract.tools[0].approvalScope: null where a string is expected", "approval_scope_mismatch"}},
	// A tool without approvalScope is matched by an approval without scope.
	{path: "contract.tools.0.approvalScope", edit: map[string]any{"approval.scope": absent},
		want: [3]string{"approval_scope_mismatch", "error: contract.tools[0].approvalScope: null where a string is expected", "admission_allowed"}},
	{path: "request", want: [3]string{"error: request: want object, got string", "error: request: required", "error: request: required"}},
	// A request may be "", which the record's "r1" is not.
	{path: "request.correlationId", want: [3]string{"correlation_conflict", "error: request.correlationId: null where a string is expected", "error: request.correlationId: required"}},
	{path: "request.tool", want: [3]string{"error: request.tool: want object, got string", "error: request.tool: required", "error: request.tool: required"}},
	{path: "request.tool.name", want: [3]string{"unknown_tool", "error: request.tool.name: null where a string is expected", "error: request.tool.name: required"}},
	{path: "request.tool.version", want: [3]string{"tool_version_mismatch", "error: request.tool.version: null where a string is expected", "tool_version_mismatch"}},
	{path: "request.arguments", want: [3]string{"error: request.arguments: want object, got string", "invalid_arguments", "invalid_arguments"}},
	// Arguments hold any JSON: null is a value, and not a string.
	{path: "request.arguments.a", want: [3]string{"invalid_arguments", "invalid_arguments", "invalid_arguments"}},
	// The book reads environment.status: no environment would crash it.
	{path: "environment", want: [3]string{"error: environment: want object, got string", "error: environment: required", "error: environment: required"}},
	{path: "environment.status", want: [3]string{"environment_not_ready", "error: environment.status: null where a string is expected", "environment_not_ready"}},
	{path: "approval", want: [3]string{"error: approval: want object, got string", "approval_missing", "approval_missing"}},
	// The book would answer approval_ or approval_undefined.
	{path: "approval.status", want: [3]string{"error: approval.status: required, a non-empty string", "error: approval.status: null where a string is expected", "error: approval.status: required, a non-empty string"}},
	{path: "approval.scope", edit: map[string]any{"contract.tools.0.approvalScope": ""},
		want: [3]string{"admission_allowed", "error: approval.scope: null where a string is expected", "approval_scope_mismatch"}},
	{path: "approval.scope", want: [3]string{"approval_scope_mismatch", "error: approval.scope: null where a string is expected", "approval_scope_mismatch"}},
	{path: "invocationRecord", want: [3]string{"error: invocationRecord: want object, got string", "admission_allowed", "admission_allowed"}},
	// A record without a correlationId belongs to another request.
	{path: "invocationRecord.correlationId", want: [3]string{"correlation_conflict", "error: invocationRecord.correlationId: null where a string is expected", "correlation_conflict"}},
	{path: "invocationRecord.status", want: [3]string{"admission_allowed", "error: invocationRecord.status: null where a string is expected", "admission_allowed"}},
	{path: "invocationRecord.verificationStatus", want: [3]string{"tool_result_not_verified", "error: invocationRecord.verificationStatus: null where a string is expected", "tool_result_not_verified"}},
	// Rule 5 fires on "unknown" exactly: neither "" nor absent fires it.
	{path: "invocationRecord.effectStatus", edit: map[string]any{"invocationRecord.status": "timed_out"},
		want: [3]string{"admission_allowed", "error: invocationRecord.effectStatus: null where a string is expected", "admission_allowed"}},
}

var absent = struct{}{}

// withField returns base with path set to v ("" or nil), or removed when
// v is absent, after the edits.
func withField(t testing.TB, tr triple, v any) []byte {
	var in map[string]any
	if err := json.Unmarshal([]byte(tripleBase), &in); err != nil {
		t.Fatal(err)
	}
	for p, e := range tr.edit {
		set(in, p, e)
	}
	set(in, tr.path, v)
	out, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func set(in map[string]any, path string, v any) {
	parts := strings.Split(path, ".")
	var cur any = in
	for _, p := range parts[:len(parts)-1] {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[p]
		case []any:
			cur = c[p[0]-'0']
		}
	}
	m := cur.(map[string]any)
	last := parts[len(parts)-1]
	if v == absent {
		delete(m, last)
		return
	}
	m[last] = v
}

func answer(data []byte) string {
	in, err := decode.Input(data)
	if err != nil {
		return "error: " + err.Error()
	}
	v := assess.Assess(&in)
	return v.CodeName()
}

func TestEmptyNullAbsentTriples(t *testing.T) {
	for _, tr := range triples {
		name := tr.path
		for k, v := range tr.edit {
			name += "," + k + "=" + strings.TrimSpace(string(must(json.Marshal(v))))
		}
		t.Run(name, func(t *testing.T) {
			for i, v := range []any{"", nil, absent} {
				got := answer(withField(t, tr, v))
				want := tr.want[i]
				if strings.HasPrefix(want, "error: ") {
					assert.True(t, strings.HasPrefix(got, want), "%s = %v: got %q, want %q", tr.path, []string{`""`, "null", "absent"}[i], got, want)
					continue
				}
				assert.Equal(t, want, got, "%s = %v", tr.path, []string{`""`, "null", "absent"}[i])
				// "" survives being written back (a what-if save).
				in, err := decode.Input(withField(t, tr, v))
				require.NoError(t, err)
				b, err := decode.Encode(in)
				require.NoError(t, err)
				back, err := decode.Input(b)
				require.NoError(t, err)
				assert.Equal(t, in, back, "%s = %v written back:\n%s", tr.path, []string{`""`, "null", "absent"}[i], b)
			}
		})
	}
	// Every field of the input is covered.
	covered := map[string]bool{}
	for _, tr := range triples {
		covered[tr.path] = true
	}
	var base map[string]any
	require.NoError(t, json.Unmarshal([]byte(tripleBase), &base))
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, c := range v {
				p := strings.TrimPrefix(prefix+"."+k, ".")
				assert.True(t, covered[p], "no triple for %s", p)
				walk(p, c)
			}
		case []any:
			for i, c := range v {
				if _, ok := c.(map[string]any); ok {
					walk(prefix+"."+string(rune('0'+i)), c)
				}
			}
		}
	}
	walk("", base)
}

// TestAuditTriples: the audit's fields set to "", null and left out.
func TestAuditTriples(t *testing.T) {
	for _, tt := range []struct {
		field string
		want  [3]string
	}{
		{"requested", [3]string{"requested: want array, got string", "requested: required: an array of IDs ([] for none)", "requested: required: an array of IDs ([] for none)"}},
		{"results", [3]string{"results: want array, got string", "results: required: an array of IDs ([] for none)", "results: required: an array of IDs ([] for none)"}},
		// closed absent means true: a batch handed over whole; null is
		// not a boolean.
		{"closed", [3]string{"closed: want boolean, got string", "closed: null where a boolean is expected: leave the member out to say absent", "closed"}},
	} {
		for i, v := range []string{`""`, "null", ""} {
			in := map[string]string{"requested": `["A"]`, "results": `[]`, "closed": `false`}
			if v == "" {
				delete(in, tt.field)
			} else {
				in[tt.field] = v
			}
			var parts []string
			for k, v := range in {
				parts = append(parts, `"`+k+`":`+v)
			}
			a, err := decode.Audit([]byte("{" + strings.Join(parts, ",") + "}"))
			got := "closed"
			if err != nil {
				got = err.Error()
			} else if !a.Closed {
				got = "open"
			}
			assert.Equal(t, tt.want[i], got, "%s = %s", tt.field, []string{`""`, "null", "absent"}[i])
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
