package importer_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/importer"
)

// tableTranscript writes, in format, one turn that calls the ids of calls
// and the turn after it that answers with the ids of results.
func tableTranscript(format string, calls, results []string) string {
	q := func(s string) string { return fmt.Sprintf("%q", s) }
	join := func(ids []string, f func(string) string) string {
		var parts []string
		for _, id := range ids {
			parts = append(parts, f(id))
		}
		return strings.Join(parts, ",")
	}
	lines := func(ids []string, f func(string) string) string {
		var parts []string
		for _, id := range ids {
			parts = append(parts, f(id))
		}
		return strings.Join(parts, "\n")
	}
	switch format {
	case importer.FormatAnthropic:
		return `{"messages":[{"role":"user","content":"go"},{"role":"assistant","content":[` +
			join(calls, func(id string) string { return `{"type":"tool_use","id":` + q(id) + `,"name":"f","input":{}}` }) +
			`]},{"role":"user","content":[` +
			join(results, func(id string) string { return `{"type":"tool_result","tool_use_id":` + q(id) + `,"content":"ok"}` }) + `]}]}`
	case importer.FormatOpenAIChat:
		return `{"messages":[{"role":"user","content":"go"},{"role":"assistant","content":null,"tool_calls":[` +
			join(calls, func(id string) string {
				return `{"id":` + q(id) + `,"type":"function","function":{"name":"f","arguments":"{}"}}`
			}) + `]},` +
			join(results, func(id string) string { return `{"role":"tool","tool_call_id":` + q(id) + `,"content":"ok"}` }) + `]}`
	case importer.FormatOpenAI:
		return `{"input":[{"role":"user","content":"go"},` +
			join(calls, func(id string) string {
				return `{"type":"function_call","call_id":` + q(id) + `,"name":"f","arguments":"{}"}`
			}) + `,` +
			join(results, func(id string) string { return `{"type":"function_call_output","call_id":` + q(id) + `,"output":"ok"}` }) + `]}`
	case importer.FormatMCP:
		return lines(calls, func(id string) string {
			return `{"jsonrpc":"2.0","id":` + q(id) + `,"method":"tools/call","params":{"name":"f","arguments":{}}}`
		}) + "\n" + lines(results, func(id string) string {
			return `{"jsonrpc":"2.0","id":` + q(id) + `,"result":{"content":[]}}`
		}) + "\n"
	case importer.FormatClaudeCode:
		return lines(calls, func(id string) string {
			return `{"type":"assistant","sessionId":"s1","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":` + q(id) + `,"name":"Bash","input":{}}]}}`
		}) + "\n" + lines(results, func(id string) string {
			return `{"type":"user","sessionId":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":` + q(id) + `,"content":"ok"}]}}`
		}) + "\n"
	case importer.FormatGemini:
		return `{"contents":[{"role":"user","parts":[{"text":"go"}]},{"role":"model","parts":[` +
			join(calls, func(id string) string { return `{"functionCall":{"id":` + q(id) + `,"name":"f","args":{}}}` }) +
			`]},{"role":"user","parts":[` +
			join(results, func(id string) string {
				return `{"functionResponse":{"id":` + q(id) + `,"name":"f","response":{"ok":true}}}`
			}) + `]}]}`
	case importer.FormatLangChain:
		return `[{"type":"human","data":{"content":"go"}},{"type":"ai","data":{"content":"","tool_calls":[` +
			join(calls, func(id string) string { return `{"name":"f","args":{},"id":` + q(id) + `,"type":"tool_call"}` }) +
			`]}},` +
			join(results, func(id string) string { return `{"type":"tool","data":{"content":"ok","tool_call_id":` + q(id) + `}}` }) + `]`
	case importer.FormatVercel:
		return `[{"role":"user","content":"go"},{"role":"assistant","content":[` +
			join(calls, func(id string) string {
				return `{"type":"tool-call","toolCallId":` + q(id) + `,"toolName":"f","input":{}}`
			}) +
			`]},{"role":"tool","content":[` +
			join(results, func(id string) string {
				return `{"type":"tool-result","toolCallId":` + q(id) + `,"toolName":"f","output":{"type":"text","value":"ok"}}`
			}) + `]}]`
	case importer.FormatBedrock:
		return `{"messages":[{"role":"user","content":[{"text":"go"}]},{"role":"assistant","content":[` +
			join(calls, func(id string) string { return `{"toolUse":{"toolUseId":` + q(id) + `,"name":"f","input":{}}}` }) +
			`]},{"role":"user","content":[` +
			join(results, func(id string) string {
				return `{"toolResult":{"toolUseId":` + q(id) + `,"content":[{"text":"ok"}],"status":"success"}}`
			}) + `]}]}`
	case importer.FormatCodex:
		return lines(calls, func(id string) string {
			return `{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}","call_id":` + q(id) + `}}`
		}) + "\n" + lines(results, func(id string) string {
			return `{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":` + q(id) + `,"output":"ok"}}`
		}) + "\n"
	}
	panic(format)
}

// TestIssue22Table is the table the issue asks for: each format, and
// what the audit says of a transcript that is over (--closed) when every
// call is answered, one is not, one is answered twice, and a result
// answers a call nobody made. MCP shows each id with its side.
func TestIssue22Table(t *testing.T) {
	cases := []struct {
		name           string
		calls, results []string
		want           string
	}{
		{"healthy", []string{"A", "B"}, []string{"B", "A"}, ""},
		{"missing", []string{"A", "B"}, []string{"A"}, "missing:B"},
		{"duplicate", []string{"A"}, []string{"A", "A"}, "duplicate:A"},
		{"unknown", []string{"A"}, []string{"A", "X"}, "unknown:X"},
	}
	var table strings.Builder
	table.WriteString("| format | healthy | missing | duplicate | unknown |\n|---|---|---|---|---|\n")
	for _, format := range importer.Formats {
		row := "| " + format
		for _, c := range cases {
			in := tableTranscript(format, c.calls, c.results)
			b, err := importer.Transcript(format, []byte(in), importer.TranscriptOptions{Closed: true})
			require.NoError(t, err, "%s %s:\n%s", format, c.name, in)
			assert.Equal(t, format, b.Format, "%s %s", format, c.name)
			assert.Empty(t, b.Problems, "%s %s", format, c.name)
			d, p := diagnostics(t, b)
			assert.Empty(t, p, "%s %s: closed, nothing pending", format, c.name)
			want := c.want
			if format == importer.FormatMCP && want != "" {
				side := "client:"
				if c.name == "unknown" {
					side = "?:" // a response nobody waits for: its side unknown
				}
				want = strings.Replace(want, ":", ":"+side, 1)
			}
			got := strings.Join(d, " ")
			assert.Equal(t, want, got, "%s %s", format, c.name)
			if got == "" {
				got = "none"
			}
			row += " | `" + got + "`"
		}
		table.WriteString(row + " |\n")
	}
	t.Log("\n" + table.String())
}
