package importer_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/importer"
	"toolgate/scenarios"
)

func fixture(t *testing.T, parts ...string) (string, []byte) {
	t.Helper()
	name := filepath.Join(append([]string{"..", "testdata", "harness"}, parts...)...)
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	return name, data
}

func TestEffectClassFailsClosed(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name string
		a    *mcp.ToolAnnotations
		want string
	}{
		{"no annotations", nil, assess.IrreversibleWrite},
		{"empty annotations", &mcp.ToolAnnotations{}, assess.IrreversibleWrite},
		{"read-only", &mcp.ToolAnnotations{ReadOnlyHint: true}, assess.ReadOnly},
		{"read-only wins over destructive", &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &yes}, assess.ReadOnly},
		{"not destructive", &mcp.ToolAnnotations{DestructiveHint: &no}, assess.ReversibleWrite},
		{"destructive", &mcp.ToolAnnotations{DestructiveHint: &yes}, assess.IrreversibleWrite},
		{"idempotent says nothing of effects", &mcp.ToolAnnotations{IdempotentHint: true}, assess.IrreversibleWrite},
	}
	for _, tt := range tests {
		got, why := importer.EffectClass(tt.a)
		assert.Equal(t, tt.want, got, tt.name)
		assert.NotEmpty(t, why)
	}
}

func TestMCPFilesystemServer(t *testing.T) {
	name, data := fixture(t, "mcp", "filesystem-tools-list.json")
	imp, err := importer.MCP(name, data, "fs-2025-06")
	require.NoError(t, err)
	assert.Equal(t, "a JSON-RPC response to tools/list", imp.Form)
	classes := map[string]string{}
	for _, tool := range imp.Contract.Tools {
		classes[tool.Name] = tool.EffectClass
		assert.Equal(t, "", tool.Version, "MCP has no tool versions: the version is left out")
	}
	// The reference filesystem server as it is: 14 tools, move_file
	// destructive.
	assert.Equal(t, map[string]string{
		"read_file": "read_only", "read_text_file": "read_only", "read_media_file": "read_only", "read_multiple_files": "read_only",
		"write_file": "irreversible_write", "edit_file": "irreversible_write", "create_directory": "reversible_write",
		"list_directory": "read_only", "list_directory_with_sizes": "read_only", "directory_tree": "read_only",
		"move_file": "irreversible_write", "search_files": "read_only", "get_file_info": "read_only",
		"list_allowed_directories": "read_only",
	}, classes)
	require.Len(t, imp.Contract.Tools, 14)
	assert.Equal(t, "move_file", imp.Contract.Tools[10].Name)
	assert.Equal(t, []string{"source", "destination"}, imp.Contract.Tools[10].RequiredArguments)
	assert.Equal(t, []string{}, imp.Contract.Tools[13].RequiredArguments)
	require.Len(t, imp.Notes, 3)
	assert.Contains(t, imp.Notes[0], "2 tools of 14 with required arguments whose schema type is not string")
	assert.Contains(t, imp.Notes[1], `read_multiple_files: required argument "paths" has type array`)
	assert.Contains(t, imp.Notes[2], `edit_file: required argument "edits" has type array`)

	// The layout is stable: the same list gives the same bytes, and the
	// contract reads back as a valid contract of docs/decision.md §1.
	again, err := importer.MCP(name, data, "fs-2025-06")
	require.NoError(t, err)
	assert.Equal(t, imp.Contract.JSON(), again.Contract.JSON())
	assert.True(t, bytes.HasPrefix(imp.Contract.JSON(), []byte("{\n  \"version\": \"fs-2025-06\",\n  \"tools\": [\n    {\n      \"name\": \"read_file\",\n      \"effectClass\": \"read_only\",\n      \"requiredArguments\": [\n        \"path\"\n      ]\n    },")))
	in := `{"contract":` + string(imp.Contract.JSON()) + `,"request":{"correlationId":"c1","tool":{"name":"write_file"},"arguments":{"path":"a","content":"b"}},"environment":{"status":"ready"}}`
	decoded, err := decode.Input([]byte(in))
	require.NoError(t, err)
	assert.Equal(t, assess.CodeApprovalMissing, assess.Assess(&decoded).Code, "a destructive write needs an approval")
	assert.False(t, decoded.Contract.Tools[0].Version.Present(), "no version: a request without one matches")
}

func TestMCPPagesAndBareResults(t *testing.T) {
	name, data := fixture(t, "mcp", "paged-tools-list.jsonl")
	imp, err := importer.MCP(name, data, "")
	require.NoError(t, err)
	assert.Equal(t, "2 pages, each a JSON-RPC response to tools/list", imp.Form)
	require.Len(t, imp.Contract.Tools, 2)
	assert.Equal(t, "irreversible_write", imp.Contract.Tools[1].EffectClass, "readOnlyHint false and no destructiveHint")
	assert.Contains(t, strings.Join(imp.Notes, "\n"), `nextCursor "page-3"`)

	name, data = fixture(t, "mcp", "fetch-tools-list-result.json")
	imp, err = importer.MCP(name, data, "")
	require.NoError(t, err)
	assert.Equal(t, "a bare tools/list result", imp.Form)
	assert.Equal(t, []string{"fetch → irreversible_write (no annotations; MCP's default destructiveHint is true)"}, imp.Why)
}

func TestMCPErrors(t *testing.T) {
	tests := []struct {
		file, want string
	}{
		{"error-response.json", "error-response.json:1:33: error: the server answered tools/list with an error: {\"code\":-32601,\"message\":\"Method not found: tools/list\"}"},
		{"bad-annotation.json", "bad-annotation.json:4:36: result.tools[1].annotations.readOnlyHint: want boolean, got string"},
		{"bad-required.json", "bad-required.json:2:75: tools[0].inputSchema.required[1]: want a non-empty string, got number"},
		{"duplicate-tool.json", "duplicate-tool.json:3:12: tools[1].name: tool \"deploy\" again (first at tools[0])"},
	}
	for _, tt := range tests {
		name, data := fixture(t, "mcp", tt.file)
		_, err := importer.MCP(name, data, "")
		require.Error(t, err, tt.file)
		assert.Contains(t, err.Error(), tt.want)
	}
	inline := []struct{ in, want string }{
		{``, "-: empty: no JSON value"},
		{`{"tools": [`, "-:1:12: not JSON: unexpected end of input"},
		{`{"tools": [}`, "-:1:12: not JSON"},
		{`{"tools": "all"}`, "-:1:11: tools: want array, got string"},
		{`{"tools": [{"name": ""}]}`, "-:1:21: tools[0].name: required, a non-empty string"},
		{`{"tools": [null]}`, "-:1:12: tools[0]: want object, got null"},
		{`{"tools": [{"name": "a", "inputSchema": "x"}]}`, "tools[0].inputSchema: want object, got string"},
		{`{"result": null, "jsonrpc": "2.0", "id": 1}`, "result.tools: required"},
		{`{"tools": [{"name": "a"}]}`, "-:1:12: tools[0]: a: no inputSchema: MCP requires one"},
		{`{"jsonrpc": "1.0", "id": 1, "result": {"tools": []}}`, `jsonrpc: want "2.0", got "1.0"`},
		{`{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}`, "this is a request, not the answer"},
		{`{"tools": [], "tools": []}`, `duplicate field "tools"`},
		{`["tools"]`, "tools[0]: want object, got string"},
		{strings.Repeat("[", 200) + strings.Repeat("]", 200), "nested deeper than 128 levels"},
		{"{\"tools\": [{\"name\": \"a\xff\"}]}", "invalid UTF-8"},
	}
	for _, tt := range inline {
		_, err := importer.MCP("-", []byte(tt.in), "")
		require.Error(t, err, tt.in)
		assert.Contains(t, err.Error(), tt.want, tt.in)
	}
}

func TestReadAllIsBounded(t *testing.T) {
	_, err := importer.ReadAll(strings.NewReader(strings.Repeat(" ", importer.MaxInput+10)), "big.json")
	assert.ErrorContains(t, err, "big.json: larger than 32 MiB")
}

func TestScenarioFromMCP(t *testing.T) {
	name, data := fixture(t, "mcp", "filesystem-tools-list.json")
	imp, err := importer.MCP(name, data, "fs")
	require.NoError(t, err)
	for tool, want := range map[string]assess.Code{
		"write_file": assess.CodeApprovalMissing, "read_text_file": assess.CodeAdmissionAllowed,
		"edit_file": assess.CodeApprovalMissing, "list_allowed_directories": assess.CodeAdmissionAllowed,
	} {
		s, err := importer.Scenario(imp, importer.Call{Tool: tool, Source: name})
		require.NoError(t, err)
		out, err := importer.ScenarioYAML(s)
		require.NoError(t, err)
		assert.True(t, bytes.HasPrefix(out, []byte("# Written by toolgate import mcp.")))
		parsed, err := scenarios.Parse("imported.yaml", out)
		require.NoError(t, err, string(out))
		assert.Equal(t, want, parsed.Case.(scenarios.AdmissionCase).Expect.Code, tool)
		assert.Equal(t, "mcp-"+strings.ReplaceAll(tool, "_", "-"), parsed.ID)
	}
	s, err := importer.Scenario(imp, importer.Call{Tool: "edit_file", Arguments: map[string]any{"path": "a.txt"}})
	require.NoError(t, err)
	assert.Equal(t, assess.CodeInvalidArguments, assess.Assess(new(s.Case.(scenarios.AdmissionCase).Input)).Code)
	_, err = importer.Scenario(imp, importer.Call{Tool: "rm_rf"})
	assert.ErrorContains(t, err, `--scenario "rm_rf": no such tool in the list (it has: read_file, read_text_file, read_media_file`)
}

func transcript(t *testing.T, file string, o importer.TranscriptOptions) importer.Batches {
	t.Helper()
	name, data := fixture(t, "transcripts", file)
	b, err := importer.Transcript(name, data, o)
	require.NoError(t, err)
	return b
}

func audits(t *testing.T, b importer.Batches) []assess.AuditResult {
	t.Helper()
	var out []assess.AuditResult
	for _, in := range b.Batches {
		r, err := assess.Audit(in)
		require.NoError(t, err)
		out = append(out, r)
	}
	return out
}

func TestTranscripts(t *testing.T) {
	tests := []struct {
		file   string
		format string
		want   []assess.AuditResult
	}{
		{"anthropic-messages.json", importer.FormatAnthropic, []assess.AuditResult{
			{Diagnostics: []string{}, Pending: []string{}},
			{Diagnostics: []string{}, Pending: []string{"toolu_01C4mH8sVb2TfQ9wLx6kR3pZ"}},
		}},
		{"anthropic-missing-result.json", importer.FormatAnthropic, []assess.AuditResult{
			{Diagnostics: []string{"missing:toolu_01RnM3eT8kq2Vb7cXw4Jd9Lh", "unknown:toolu_01Xx9Zz8Yy7Ww6Vv5Uu4Tt3S"}, Pending: []string{}},
		}},
		{"openai-responses-input.json", importer.FormatOpenAI, []assess.AuditResult{
			{Diagnostics: []string{}, Pending: []string{}},
		}},
		{"openai-unknown-output.jsonl", importer.FormatOpenAI, []assess.AuditResult{
			{Diagnostics: []string{}, Pending: []string{}},
			{Diagnostics: []string{"unknown:call_4sFv7Hq2Lm9Zp1Rw"}, Pending: []string{}},
		}},
		{"openai-response-open.json", importer.FormatOpenAI, []assess.AuditResult{
			{Diagnostics: []string{}, Pending: []string{"call_12xYv3cD4eF5gH6i"}},
		}},
		{"mcp-session.jsonl", importer.FormatMCP, []assess.AuditResult{
			{Diagnostics: []string{"unknown:?:9"}, Pending: []string{"client:4"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b := transcript(t, tt.file, importer.TranscriptOptions{})
			assert.Equal(t, tt.format, b.Format)
			assert.Equal(t, tt.want, audits(t, b))
			assert.Len(t, b.Where, len(b.Batches))
			// Every line decodes as `toolgate audit` reads it.
			for _, line := range strings.Split(strings.TrimSpace(string(b.JSONLines())), "\n") {
				_, err := decode.Audit([]byte(line))
				assert.NoError(t, err, line)
			}
		})
	}
	closed := transcript(t, "mcp-session.jsonl", importer.TranscriptOptions{Closed: true})
	assert.Equal(t, []string{"missing:client:4", "unknown:?:9"}, audits(t, closed)[0].Diagnostics, "--closed: in flight becomes missing")
	open := transcript(t, "anthropic-messages.json", importer.TranscriptOptions{Closed: true})
	assert.Equal(t, []string{"missing:toolu_01C4mH8sVb2TfQ9wLx6kR3pZ"}, audits(t, open)[1].Diagnostics)
}

func TestTranscriptShapes(t *testing.T) {
	tests := []struct {
		name, in string
		format   string
		lines    string
	}{
		{"two assistant messages are one turn (the API merges them)", `[{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"x","input":{}}]},{"role":"assistant","content":"done"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1"}]}]`,
			importer.FormatAnthropic, `{"requested":["t1"],"results":["t1"],"closed":true}`},
		{"a user turn without the results", `[{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"x","input":{}}]},{"role":"user","content":"go on"},{"role":"assistant","content":"done"}]`,
			importer.FormatAnthropic, `{"requested":["t1"],"results":[],"closed":true}`},
		{"results with nothing before", `{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t9","content":"x"}]}]}`,
			importer.FormatAnthropic, `{"requested":[],"results":["t9"],"closed":true}`},
		{"server tools in one turn", `[{"role":"assistant","content":[{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}},{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[]}]},{"role":"user","content":"thanks"}]`,
			importer.FormatAnthropic, `{"requested":["srvtoolu_1"],"results":["srvtoolu_1"],"closed":true}`},
		{"one message a line: a log may grow, its last turn is open", "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"x\",\"input\":{}}]}\n{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"a\"}]}\n",
			importer.FormatAnthropic, `{"requested":["a"],"results":["a"],"closed":false}`},
		{"calls then a message", `[{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"},{"type":"message","role":"assistant","content":[]}]`,
			importer.FormatOpenAI, `{"requested":["c1"],"results":[],"closed":true}`},
		{"json-rpc ids 1 and \"1\" differ", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{}}\n",
			importer.FormatMCP, `{"requested":["?:1"],"results":["?:\"1\""],"closed":false}`},
		{"a json-rpc batch on a line", `[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":1,"result":{}}]`,
			importer.FormatMCP, `{"requested":["client:1"],"results":["client:1"],"closed":false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := importer.Transcript("-", []byte(tt.in), importer.TranscriptOptions{})
			require.NoError(t, err)
			assert.Equal(t, tt.format, b.Format)
			assert.Equal(t, tt.lines, strings.TrimSpace(string(b.JSONLines())))
		})
	}
}

func TestTranscriptErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`[{"role":"assistant","content":[{"type":"tool_use","id":7}]}]`, "-:1:57: [0].content[0].id: want string, got number"},
		{"[\n {\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"a\"}]},\n {\"role\":\"robot\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"a\"}]}\n]", "-:3:10: [1].role: want \"user\" or \"assistant\", got \"robot\""},
		{`[{"role":"user","content":[{"type":"tool_use","id":"a"}]}]`, "[0].content[0]: a tool_use block in a user turn"},
		{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"result\":{}}", "-:2:23: id: want string or number, got object"},
		{`{"hello":"world"}`, "no tool calls found, and the format cannot be told"},
		{`[{"type":"function_call","call_id":"a"},{"role":"assistant","content":[{"type":"tool_use","id":"b"}]}]`, "-:1:41: [1]: this is an assistant message with tool_use blocks, but the transcript reads as OpenAI Responses items (from [0] (line 1), an OpenAI Responses item (function_call)): one transcript has one format"},
	}
	for _, tt := range tests {
		_, err := importer.Transcript("-", []byte(tt.in), importer.TranscriptOptions{})
		require.Error(t, err, tt.in)
		assert.Contains(t, err.Error(), tt.want, tt.in)
	}
	_, err := importer.Transcript("-", []byte(`[]`), importer.TranscriptOptions{Format: "bard"})
	assert.ErrorContains(t, err, `--format "bard"`)
	b, err := importer.Transcript("-", []byte(`[{"role":"user","content":"hi"}]`), importer.TranscriptOptions{Format: importer.FormatAnthropic})
	require.NoError(t, err)
	assert.Empty(t, b.Batches, "no tool calls: no batches")
}

// FuzzImport: any bytes give an error or a result, never a panic, and a
// result's batches always decode as audit inputs.
func FuzzImport(f *testing.F) {
	for _, dir := range []string{"harness/mcp", "harness/transcripts", "transcripts/*"} {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", dir, "*"))
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil && !strings.HasSuffix(file, ".golden") {
				f.Add(data)
			}
		}
	}
	f.Add([]byte(`{"tools":[{"name":"a","inputSchema":{"required":["x"]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if imp, err := importer.MCP("f", data, ""); err == nil {
			_ = imp.Contract.JSON()
		}
		for _, format := range append([]string{""}, importer.Formats...) {
			b, err := importer.Transcript("f", data, importer.TranscriptOptions{Format: format})
			if err != nil {
				continue
			}
			for _, line := range bytes.Split(bytes.TrimSpace(b.JSONLines()), []byte("\n")) {
				if len(line) == 0 {
					continue
				}
				if _, err := decode.Audit(line); err != nil {
					t.Errorf("a batch does not decode: %s: %v", line, err)
				}
			}
		}
	})
}

// TestLargeInputs: an input is read whole up to MaxInput, whatever the
// size of one value or of the stream: a long MCP log (many lines, past
// any one buffer) and a tools/list of more than a MiB in one value.
func TestLargeInputs(t *testing.T) {
	var log strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&log, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read","arguments":{"path":"/srv/%d"}}}`+"\n", i, i)
		fmt.Fprintf(&log, `{"jsonrpc":"2.0","id":%d,"result":{"content":[]}}`+"\n", i)
	}
	require.Greater(t, log.Len(), 256<<10)
	b, err := importer.Transcript("log", []byte(log.String()), importer.TranscriptOptions{})
	require.NoError(t, err)
	assert.Equal(t, importer.FormatMCP, b.Format)
	requested, results := 0, 0
	for _, in := range b.Batches {
		requested += len(in.Requested)
		results += len(in.Results)
	}
	assert.Equal(t, 3000, requested)
	assert.Equal(t, 3000, results)

	var list strings.Builder
	list.WriteString(`{"jsonrpc":"2.0","id":1,"result":{"tools":[`)
	for i := range 6000 {
		if i > 0 {
			list.WriteString(",")
		}
		fmt.Fprintf(&list, `{"name":"tool_%d","description":"%s","inputSchema":{"type":"object","required":["path"]},"annotations":{"readOnlyHint":true}}`, i, strings.Repeat("x", 150))
	}
	list.WriteString("]}}")
	require.Greater(t, list.Len(), 1<<20)
	imp, err := importer.MCP("tools.json", []byte(list.String()), "")
	require.NoError(t, err)
	assert.Len(t, imp.Contract.Tools, 6000)
}

// TestDeepInputs: too deep is an error at the bracket that goes too deep,
// however deep.
func TestDeepInputs(t *testing.T) {
	for _, depth := range []int{129, 5000} {
		in := `{"messages":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "}"
		_, err := importer.Transcript("t.json", []byte(in), importer.TranscriptOptions{})
		require.Error(t, err)
		assert.Regexp(t, `^t\.json:1:\d+: nested (deeper|more) than \d+ levels`, err.Error(), depth)
	}
}
