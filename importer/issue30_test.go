package importer_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/importer"
)

// Issue 30, item 2: a server tool answered in a later turn, in a run
// recorded as the programmatic tool calling documentation shows it —
// request, response, then each request restating the conversation with
// the tool results, and the response — is answered, not missing; and so
// is the run given from a response on (the response, then the request
// that continues it).
func TestIssue30ServerToolAnsweredInALaterResponse(t *testing.T) {
	for _, file := range []string{"anthropic/ptc-recorded.closed.jsonl", "anthropic/ptc-response-then-request.closed.json"} {
		b := corpusFile(t, file, importer.TranscriptOptions{Closed: true})
		d, p := diagnostics(t, b)
		assert.Empty(t, d, file)
		assert.Empty(t, p, file)
		assert.Empty(t, b.Problems, "%s: a restated message is not a call made twice", file)
		var server []string
		for _, batch := range b.Batches {
			for _, id := range batch.Requested {
				if len(id) > 9 && id[:9] == "srvtoolu_" {
					server = append(server, id)
				}
			}
		}
		assert.Equal(t, []string{"srvtoolu_01Hb8Wq3Lz6Tc1Mx4Ra7Vk9N"}, server, "%s: the code execution, paired once", file)
	}
}

// A request body that does not restate the conversation read before it
// is another conversation: refused, saying where and what to import.
func TestARequestBodyThatRestatesAnotherConversation(t *testing.T) {
	first := `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"x","input":{}}]}]}`
	other := `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"t9","name":"x","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t9"}]}]}`
	_, err := importer.Transcript("-", []byte(first+"\n"+other+"\n"), importer.TranscriptOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "-:2:")
	assert.Contains(t, err.Error(), "is not message 2 of the conversation read before it")
	assert.Contains(t, err.Error(), "import one conversation: its last request body, and the response after it")

	short := `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"hi"}]}`
	_, err = importer.Transcript("-", []byte(first+"\n"+short+"\n"), importer.TranscriptOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "holds 1 of the 2 messages read before it, not the rest")
}
