package importer_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/importer"
)

// The tests of issue 22, a bullet each: real shapes read right (no false
// finding), no silent pass, no fail-open contract. Each fails on the
// import as it was before the issue.

// corpusFile imports a case of testdata/transcripts.
func corpusFile(t *testing.T, rel string, o importer.TranscriptOptions) importer.Batches {
	t.Helper()
	name := filepath.ToSlash(filepath.Join("testdata", "transcripts", rel))
	data, err := os.ReadFile(filepath.Join("..", name))
	require.NoError(t, err)
	b, err := importer.Transcript(name, data, o)
	require.NoError(t, err)
	return b
}

// diagnostics audits every batch and joins what audit says.
func diagnostics(t *testing.T, b importer.Batches) (diags, pending []string) {
	t.Helper()
	for _, in := range b.Batches {
		r, err := assess.Audit(in)
		require.NoError(t, err, "a batch audit cannot answer: %v", in)
		diags = append(diags, r.Diagnostics...)
		pending = append(pending, r.Pending...)
	}
	slices.Sort(diags)
	slices.Sort(pending)
	return diags, pending
}

func problems(b importer.Batches) string {
	var s []string
	for _, p := range b.Problems {
		s = append(s, p.Error())
	}
	return strings.Join(s, "\n")
}

// MCP: the SDKs number requests from 0 on both sides; the server's own
// requests (roots/list, sampling) are apart from the client's.
func TestIssue22MCPSidesApart(t *testing.T) {
	b := corpusFile(t, "mcp/live-session.jsonl", importer.TranscriptOptions{Closed: true})
	d, p := diagnostics(t, b)
	assert.Empty(t, d)
	assert.Empty(t, p)
	assert.Contains(t, b.Batches[0].Requested, "client:0")
	assert.Contains(t, b.Batches[0].Requested, "server:0")
	// With the log's own direction (a client's log) too.
	b = corpusFile(t, "mcp/claude-desktop.log", importer.TranscriptOptions{})
	assert.Contains(t, b.Batches[0].Requested, "server:0")
}

// MCP: a request cancelled with notifications/cancelled is not missing.
func TestIssue22MCPCancelled(t *testing.T) {
	b := corpusFile(t, "mcp/cancelled.closed.jsonl", importer.TranscriptOptions{Closed: true})
	d, _ := diagnostics(t, b)
	assert.NotContains(t, d, "missing:client:1")
	assert.Equal(t, []string{"missing:client:3"}, d, "a request never answered nor cancelled is still missing")
	assert.Contains(t, strings.Join(b.Notes, "\n"), "1 request cancelled with notifications/cancelled, so not missing")
}

// MCP: a log cut mid-line, or with banner lines, is audited as far as it
// goes and says where it was cut.
func TestIssue22MCPCutAndBanner(t *testing.T) {
	b := corpusFile(t, "mcp/banner-cut.jsonl", importer.TranscriptOptions{})
	_, p := diagnostics(t, b)
	assert.Equal(t, []string{"client:2"}, p, "the call in flight when the log was cut")
	require.NotNil(t, b.Cut)
	assert.Equal(t, "testdata/transcripts/mcp/banner-cut.jsonl:9:1: the input ends inside the value that starts here: audited what came before it", b.Cut.Error())
	assert.Contains(t, strings.Join(b.Notes, "\n"), "2 lines that are not JSON skipped (line 1: Secure MCP Filesystem Server running on stdio")
	b = corpusFile(t, "mcp/claude-desktop.log", importer.TranscriptOptions{})
	require.NotNil(t, b.Cut)
	assert.Contains(t, b.Cut.Error(), "claude-desktop.log:21:62: the input ends inside the message on this line")
}

// MCP: a long log becomes batches under audit's 1 MiB value limit, which
// audit as the whole log would.
func TestIssue22MCPLongLogSplit(t *testing.T) {
	var log bytes.Buffer
	for i := range 20000 {
		fmt.Fprintf(&log, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read","arguments":{"path":"/srv/%d"}}}`+"\n", i, i)
		if i != 777 {
			fmt.Fprintf(&log, `{"jsonrpc":"2.0","id":%d,"result":{"content":[]}}`+"\n", i)
		}
	}
	fmt.Fprintf(&log, `{"jsonrpc":"2.0","id":5,"result":{"content":[]}}`+"\n")
	b, err := importer.Transcript("long.jsonl", log.Bytes(), importer.TranscriptOptions{Closed: true})
	require.NoError(t, err)
	require.Greater(t, len(b.Batches), 1)
	for _, line := range bytes.Split(bytes.TrimSpace(b.JSONLines()), []byte("\n")) {
		assert.Less(t, len(line), decode.DefaultMaxValue, "a batch audit reads whole")
		_, err := decode.Audit(line)
		require.NoError(t, err)
	}
	d, _ := diagnostics(t, b)
	assert.Equal(t, []string{"duplicate:client:5", "missing:client:777"}, d)
}

// MCP: JSON-RPC ids are numbers or strings, and 1 is not "1".
func TestIssue22MCPIDsUnambiguous(t *testing.T) {
	b := corpusFile(t, "mcp/ids-collide.closed.jsonl", importer.TranscriptOptions{Closed: true})
	d, _ := diagnostics(t, b)
	assert.Equal(t, []string{`missing:client:"\"1\""`, "missing:client:1", `unknown:?:"1"`}, d)
}

// Chat Completions: requests, responses and messages, read as such; a
// --format that does not fit is refused, never 0 batches.
func TestIssue22ChatCompletions(t *testing.T) {
	b := corpusFile(t, "openai-chat/request.json", importer.TranscriptOptions{})
	assert.Equal(t, importer.FormatOpenAIChat, b.Format, `{"messages":…} with role tool is Chat, not Anthropic`)
	d, p := diagnostics(t, b)
	assert.Empty(t, d)
	assert.Empty(t, p)
	b = corpusFile(t, "openai-chat/response-open.json", importer.TranscriptOptions{})
	_, p = diagnostics(t, b)
	assert.Equal(t, []string{"call_Ww4Rt9Ky2Ub7Io3Pa8Sd1Fg"}, p)
	b = corpusFile(t, "openai-chat/missing.jsonl", importer.TranscriptOptions{})
	d, _ = diagnostics(t, b)
	assert.Equal(t, []string{"missing:call_Tq5Wr8Ey1Ui4Op7As2Df9Gh3"}, d)

	data, err := os.ReadFile("../testdata/transcripts/openai-chat/request.json")
	require.NoError(t, err)
	_, err = importer.Transcript("request.json", data, importer.TranscriptOptions{Format: importer.FormatOpenAI})
	assert.ErrorContains(t, err, "request.json:6:5: messages[2]: with --format openai: this is a Chat Completions message with tool_calls, not OpenAI Responses items; --format openai-chat reads it")
}

// Anthropic: parallel results in two user messages are one turn; a result
// repeated there is a duplicate.
func TestIssue22AnthropicSplitUserTurns(t *testing.T) {
	b := corpusFile(t, "anthropic/split-user-turns.json", importer.TranscriptOptions{})
	d, p := diagnostics(t, b)
	assert.Empty(t, d)
	assert.Empty(t, p)
	b = corpusFile(t, "anthropic/split-user-turns-duplicate.json", importer.TranscriptOptions{})
	d, _ = diagnostics(t, b)
	assert.Equal(t, []string{"duplicate:toolu_01Jm5QcV8sTn1Xf6Ga3Pk2Uw"}, d)
}

// Anthropic: a server tool answered in a later turn, as programmatic tool
// calling does, is not missing.
func TestIssue22AnthropicServerToolLater(t *testing.T) {
	b := corpusFile(t, "anthropic/server-tool-later.json", importer.TranscriptOptions{Closed: true})
	d, p := diagnostics(t, b)
	assert.Empty(t, d)
	assert.Empty(t, p)
}

// Anthropic: a streamed response (server-sent events) is read.
func TestIssue22AnthropicStream(t *testing.T) {
	b := corpusFile(t, "anthropic/stream.sse", importer.TranscriptOptions{})
	assert.Equal(t, importer.FormatAnthropic, b.Format)
	_, p := diagnostics(t, b)
	assert.Equal(t, []string{"toolu_01Rt7Mx2Hw9Qc4Lp6Vn1Kd8B"}, p)
}

// Responses: the tools the client runs are paired, and their unanswered
// calls reported.
func TestIssue22ResponsesClientTools(t *testing.T) {
	b := corpusFile(t, "openai/client-tools.json", importer.TranscriptOptions{})
	d, p := diagnostics(t, b)
	assert.Empty(t, d)
	assert.Empty(t, p)
	assert.Len(t, b.Batches, 6, "computer, local shell, shell, apply_patch, custom tool, MCP approval")
	b = corpusFile(t, "openai/client-tools-missing.jsonl", importer.TranscriptOptions{})
	d, _ = diagnostics(t, b)
	assert.Equal(t, []string{"missing:call_Pq1Wo4Ie7Ru2Ty5Ui8Op3As6"}, d)
}

// Responses: previous_response_id has a recipe that works — the response,
// then the request that continues it.
func TestIssue22ResponsesPreviousResponse(t *testing.T) {
	b := corpusFile(t, "openai/response-then-request.json", importer.TranscriptOptions{Closed: true})
	d, p := diagnostics(t, b)
	assert.Empty(t, d)
	assert.Empty(t, p)
	b = corpusFile(t, "openai/request-continues-elsewhere.json", importer.TranscriptOptions{})
	assert.Contains(t, strings.Join(b.Notes, "\n"), "Put the response first: cat response.json request.json | toolgate import transcript")
}

// Claude Code session logs: an assistant message over several lines,
// results on lines of their own.
func TestIssue22ClaudeCode(t *testing.T) {
	b := corpusFile(t, "claude-code/session.jsonl", importer.TranscriptOptions{})
	assert.Equal(t, importer.FormatClaudeCode, b.Format)
	d, p := diagnostics(t, b)
	assert.Empty(t, d)
	assert.Empty(t, p)
	b = corpusFile(t, "claude-code/interrupted.jsonl", importer.TranscriptOptions{})
	d, _ = diagnostics(t, b)
	assert.Equal(t, []string{"missing:toolu_01Xe3Vr8Kp5Nm2Qz7Wc4Hb9L"}, d)
}

// Gemini, LangChain, Vercel AI SDK (and Bedrock, Codex): read; a format
// still not read is named in the refusal.
func TestIssue22MoreFormats(t *testing.T) {
	for _, c := range []struct{ file, format string }{
		{"gemini/request-no-ids.json", importer.FormatGemini}, {"langchain/messages.json", importer.FormatLangChain},
		{"vercel/model-messages.json", importer.FormatVercel}, {"bedrock/converse.json", importer.FormatBedrock},
		{"codex/rollout.jsonl", importer.FormatCodex},
	} {
		b := corpusFile(t, c.file, importer.TranscriptOptions{})
		assert.Equal(t, c.format, b.Format, c.file)
	}
	b := corpusFile(t, "gemini/request-no-ids.json", importer.TranscriptOptions{})
	assert.Contains(t, strings.Join(b.Notes, "\n"), "by name and order", "Gemini calls without ids: it says how they were paired")
	for file, name := range map[string]string{
		"unsupported/ollama-chat.jsonl": "Ollama", "unsupported/assistants-run-step.json": "OpenAI Assistants",
		"unsupported/legacy-function-call.json": "legacy function calling",
	} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "transcripts", file))
		require.NoError(t, err)
		_, err = importer.Transcript(file, data, importer.TranscriptOptions{})
		assert.ErrorContains(t, err, name, file)
	}
}

// import mcp reads a model API's tools parameter as what it is, keeping
// its required fields, and refuses a tool with no schema at all.
func TestIssue22ModelAPITools(t *testing.T) {
	for file, want := range map[string][]string{
		"anthropic-tools-request.json": {"path", "content"},
		"openai-chat-tools.json":       {"issue_number", "reason"},
		"openai-responses-tools.json":  {"slot", "attendees"},
	} {
		name, data := fixture(t, "mcp", file)
		imp, err := importer.MCP(name, data, "")
		require.NoError(t, err, file)
		assert.Equal(t, want, imp.Contract.Tools[0].RequiredArguments, file)
		assert.Equal(t, assess.IrreversibleWrite, imp.Contract.Tools[0].EffectClass, "no annotations: fail closed")
		assert.Contains(t, imp.Form, "not MCP tools but", file)
	}
	name, data := fixture(t, "mcp", "no-input-schema.json")
	_, err := importer.MCP(name, data, "")
	assert.ErrorContains(t, err, "no-input-schema.json:3:3: tools[1]: rollback: no inputSchema: MCP requires one")
}

// import mcp reads tools/list from Streamable HTTP's server-sent events.
func TestIssue22ToolsListSSE(t *testing.T) {
	name, data := fixture(t, "mcp", "tools-list.sse")
	imp, err := importer.MCP(name, data, "")
	require.NoError(t, err)
	assert.Equal(t, "a JSON-RPC response to tools/list, in server-sent events", imp.Form)
	assert.Equal(t, []string{"latitude", "longitude"}, imp.Contract.Tools[0].RequiredArguments)
	// Saved with its HTTP head (curl -i), CRLF and all.
	withHead := "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nMcp-Session-Id: 1868a90c\r\n\r\n" + strings.ReplaceAll(string(data), "\n", "\r\n")
	imp, err = importer.MCP(name, []byte(withHead), "")
	require.NoError(t, err)
	assert.Len(t, imp.Contract.Tools, 2)
	bad := []byte("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":7}]}}\n\n")
	_, err = importer.MCP("x.sse", bad, "")
	assert.ErrorContains(t, err, "x.sse:2:58: result.tools[0].name:", "the place is the line and column in the event stream")
}

// Transcripts are streamed: more than the old 32 MiB cap, read through a
// pipe, with little held (the 100 MB case is TestLoad).
func TestIssue22Streamed(t *testing.T) {
	pr, pw := io.Pipe()
	go func() {
		_, err := writeLoad(pw, importer.FormatMCP, 40<<20)
		pw.CloseWithError(err)
	}()
	results := 0
	rep, err := importer.ReadTranscript("big", pr, importer.TranscriptOptions{}, func(b importer.Batch) error {
		results += len(b.Results)
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, importer.FormatMCP, rep.Format)
	assert.Greater(t, results, 30000)
}

// A duplicate or empty tool_use id is reported at its line in the
// transcript, not at "line 1" of the batch stream.
func TestIssue22IDsAtTheirLine(t *testing.T) {
	b := corpusFile(t, "anthropic/bad-ids.json", importer.TranscriptOptions{})
	assert.Equal(t, `testdata/transcripts/anthropic/bad-ids.json:5:32: [1].content[1].id: tool_use id "toolu_01Ee3Tt7Gg1Yy5Uu9Ii2Oo6P" again in one turn (first in the message at line 3): which call would a result answer? Left out the second time
testdata/transcripts/anthropic/bad-ids.json:6:32: [1].content[2].id: tool_use: empty id; left out of the batch (nothing can answer it)`, problems(b))
	for _, in := range b.Batches {
		_, err := assess.Audit(in)
		assert.NoError(t, err, "the batch audits: what the import reported is left out")
	}
}

// Rule 3 reads strings only: the import says which required arguments a
// schema types otherwise, through $ref, anyOf and enum too.
func TestIssue22NonStringRequiredNotes(t *testing.T) {
	name, data := fixture(t, "mcp", "non-string-required.json")
	imp, err := importer.MCP(name, data, "")
	require.NoError(t, err)
	notes := strings.Join(imp.Notes, "\n")
	assert.Contains(t, notes, "2 tools of 3 with required arguments whose schema type is not string: the book's rule 3 reads strings only")
	assert.Contains(t, notes, `update_issue: required argument "issue_number" has type integer or null`)
	assert.Contains(t, notes, `update_issue: required argument "labels" has type array`)
	assert.Contains(t, notes, `update_issue: required argument "milestone" has type number (enum)`)
	assert.NotContains(t, notes, `"state"`, "an enum of strings is a string")
}
