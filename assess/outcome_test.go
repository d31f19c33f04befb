package assess_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
)

func boolPtr(b bool) *bool { return &b }

func TestClassify(t *testing.T) {
	tests := []struct {
		name string
		in   assess.OutcomeInput
		want assess.OutcomeClass
	}{
		{"found", assess.OutcomeInput{Result: &assess.ToolResult{Found: boolPtr(true)}}, assess.ClassFound},
		{"not found is a result, not an error", assess.OutcomeInput{Result: &assess.ToolResult{Found: boolPtr(false)}}, assess.ClassNotFound},
		{"invalid arguments as an isError result", assess.OutcomeInput{Result: &assess.ToolResult{IsError: true, ErrorKind: "invalid_arguments"}}, assess.ClassInvalidArguments},
		{"invalid arguments the old way, -32602", assess.OutcomeInput{Error: &assess.RPCError{Code: -32602, Message: "Invalid params"}}, assess.ClassInvalidArguments},
		{"permission denied", assess.OutcomeInput{Result: &assess.ToolResult{IsError: true, ErrorKind: "permission_denied"}}, assess.ClassPermissionDenied},
		{"execution error", assess.OutcomeInput{Result: &assess.ToolResult{IsError: true, ErrorKind: "execution_error"}}, assess.ClassExecutionError},
		{"an error result without a kind is an execution error", assess.OutcomeInput{Result: &assess.ToolResult{IsError: true}}, assess.ClassExecutionError},
		{"parse error is a protocol error", assess.OutcomeInput{Error: &assess.RPCError{Code: -32700, Message: "Parse error"}}, assess.ClassProtocolError},
		{"unknown method is a protocol error", assess.OutcomeInput{Error: &assess.RPCError{Code: -32601}}, assess.ClassProtocolError},
		{"MCP's own -32602 unknown tool is a protocol error", assess.OutcomeInput{Error: &assess.RPCError{Code: -32602, Message: "Unknown tool: invalid_tool_name"}}, assess.ClassProtocolError},
		{"unknown tool in any case", assess.OutcomeInput{Error: &assess.RPCError{Code: -32602, Message: "unknown TOOL: x"}}, assess.ClassProtocolError},
		{"-32602 that names no unknown tool is read as old-style invalid arguments", assess.OutcomeInput{Error: &assess.RPCError{Code: -32602, Message: "Unknown"}}, assess.ClassInvalidArguments},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			class, steps, err := assess.Classify(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, class)
			fired := 0
			for i, s := range steps {
				switch {
				case s.Outcome == assess.Fired:
					fired++
					assert.Equal(t, tt.want, s.Class)
				case fired == 0:
					assert.Equal(t, assess.Passed, s.Outcome, "step %d", i+1)
				default:
					assert.Equal(t, assess.NotReached, s.Outcome, "step %d", i+1)
				}
				for _, l := range []assess.Lang{assess.English, assess.Chinese} {
					assert.NotEmpty(t, s.Title(l))
					assert.NotEmpty(t, s.Question(l))
					if s.Class != assess.ClassFound || s.Outcome != assess.Passed {
						assert.NotEmpty(t, s.Explanation(l), "step %d", i+1)
					}
				}
			}
			assert.Equal(t, 1, fired)
			for _, l := range []assess.Lang{assess.English, assess.Chinese} {
				assert.NotEmpty(t, class.Next(l))
				assert.NotEmpty(t, class.Mistake(l))
				assert.NotEmpty(t, class.MCP(l))
			}
		})
	}
}

func TestClassifyExplains(t *testing.T) {
	_, steps, err := assess.Classify(assess.OutcomeInput{Error: &assess.RPCError{Code: -32602, Message: "Invalid params"}})
	require.NoError(t, err)
	assert.Equal(t, `a JSON-RPC error came back, but -32602 "Invalid params" is the invalid-params code and names no unknown tool: the trainer reads it as an old-style invalid-arguments report, which the next question takes`,
		steps[0].Explanation(assess.English))
	assert.Equal(t, `a JSON-RPC error -32602 "Invalid params": read as invalid arguments sent the way servers did before MCP 2025-11-25 — the trainer's reading, since the code alone says only "invalid params"`,
		steps[1].Explanation(assess.English))
	assert.Contains(t, assess.ClassInvalidArguments.MCP(assess.English), "2025-11-25")
	assert.Contains(t, assess.ClassPermissionDenied.Mistake(assess.English), "another user id")
	assert.Contains(t, assess.ClassNotFound.Mistake(assess.English), "null for both not-found and failure")
}

func TestCheckOutcome(t *testing.T) {
	tests := []struct {
		name string
		in   assess.OutcomeInput
		want string
	}{
		{"neither", assess.OutcomeInput{}, "input: want error or result, got neither"},
		{"both", assess.OutcomeInput{Error: &assess.RPCError{}, Result: &assess.ToolResult{}}, "input: want error or result, got both"},
		{"kind on success", assess.OutcomeInput{Result: &assess.ToolResult{ErrorKind: "execution_error", Found: boolPtr(true)}},
			"result.errorKind: only an error result (isError: true) has an error kind"},
		{"unknown kind", assess.OutcomeInput{Result: &assess.ToolResult{IsError: true, ErrorKind: "oops"}},
			`result.errorKind: unknown kind "oops" (want invalid_arguments, permission_denied or execution_error)`},
		{"success without found", assess.OutcomeInput{Result: &assess.ToolResult{}},
			"result.found: required when isError is false: did the lookup find its thing?"},
		{"found on an error", assess.OutcomeInput{Result: &assess.ToolResult{IsError: true, Found: boolPtr(false)}},
			"result.found: only a successful result (isError: false) says found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := assess.Classify(tt.in)
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}
