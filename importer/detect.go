package importer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Transcript formats.
const (
	FormatAnthropic  = "anthropic"
	FormatOpenAI     = "openai" // OpenAI Responses
	FormatOpenAIChat = "openai-chat"
	FormatMCP        = "mcp"
	FormatClaudeCode = "claude-code"
	FormatGemini     = "gemini"
	FormatLangChain  = "langchain"
	FormatVercel     = "vercel"
	FormatBedrock    = "bedrock"
	FormatCodex      = "codex"
)

// Formats lists the transcript formats, in the order they are shown.
var Formats = []string{FormatAnthropic, FormatOpenAIChat, FormatOpenAI, FormatMCP, FormatClaudeCode,
	FormatGemini, FormatLangChain, FormatVercel, FormatBedrock, FormatCodex}

// FormatNames says each format for people.
var FormatNames = map[string]string{
	FormatAnthropic:  "Anthropic Messages (tool_use.id in an assistant turn, tool_result.tool_use_id in the user turn after it)",
	FormatOpenAI:     "OpenAI Responses items (a call's call_id, its output's call_id)",
	FormatOpenAIChat: "OpenAI Chat Completions messages (tool_calls[].id, then role tool messages' tool_call_id)",
	FormatMCP:        "an MCP JSON-RPC message log (request ids against response ids, each side's apart)",
	FormatClaudeCode: "a Claude Code session log (one entry a line; tool_use and tool_result blocks in their messages)",
	FormatGemini:     "Gemini contents (functionCall in a model turn, functionResponse in the turn after it)",
	FormatLangChain:  "LangChain messages_to_dict (an ai message's tool_calls[].id, then tool messages' tool_call_id)",
	FormatVercel:     "Vercel AI SDK messages (tool-call parts' toolCallId, then tool-result parts' toolCallId)",
	FormatBedrock:    "Amazon Bedrock Converse messages (toolUse.toolUseId, then toolResult.toolUseId)",
	FormatCodex:      "a Codex CLI rollout (response_item entries: OpenAI Responses items)",
}

// formatAliases are other names --format takes.
var formatAliases = map[string]string{
	"openai-responses": FormatOpenAI, "responses": FormatOpenAI, "chat": FormatOpenAIChat,
	"chat-completions": FormatOpenAIChat, "claude": FormatClaudeCode, "ai-sdk": FormatVercel,
	"converse": FormatBedrock, "google": FormatGemini,
}

// FormatByName finds a format by its name or an alias.
func FormatByName(name string) (string, bool) {
	if _, ok := FormatNames[name]; ok {
		return name, true
	}
	f, ok := formatAliases[name]
	return f, ok
}

// fset is a set of formats, a bit each.
type fset uint16

func bit(f string) fset {
	i := slices.Index(Formats, f)
	if i < 0 {
		return 0
	}
	return 1 << i
}

func bits(fs ...string) fset {
	var s fset
	for _, f := range fs {
		s |= bit(f)
	}
	return s
}

func (s fset) has(f string) bool { return s&bit(f) != 0 }

func (s fset) list() []string {
	var out []string
	for _, f := range Formats {
		if s.has(f) {
			out = append(out, f)
		}
	}
	return out
}

func (s fset) single() (string, bool) {
	l := s.list()
	if len(l) == 1 {
		return l[0], true
	}
	return "", false
}

// Sets of formats an element can belong to.
var (
	anyFormat   = fset(1<<len(Formats) - 1)
	messageKind = bits(FormatAnthropic, FormatOpenAIChat, FormatOpenAI, FormatVercel, FormatBedrock)
)

// verdict is what one element says of the format.
type verdict struct {
	set fset
	// what names the element for a person: "a Chat Completions message
	// with tool_calls".
	what string
	// refuse names a format toolgate does not read.
	refuse string
}

// probe is what classification reads of an element.
type probe struct {
	JSONRPC    jsontext.Value `json:"jsonrpc"`
	Type       jsontext.Value `json:"type"`
	Role       jsontext.Value `json:"role"`
	Content    jsontext.Value `json:"content"`
	Parts      jsontext.Value `json:"parts"`
	ToolCalls  jsontext.Value `json:"tool_calls"`
	ToolCallID jsontext.Value `json:"tool_call_id"`
	ToolName   jsontext.Value `json:"tool_name"`
	Function   jsontext.Value `json:"function_call"`
	Message    jsontext.Value `json:"message"`
	Data       jsontext.Value `json:"data"`
	Payload    jsontext.Value `json:"payload"`
	SessionID  jsontext.Value `json:"sessionId"`
	UUID       jsontext.Value `json:"uuid"`
	LeafUUID   jsontext.Value `json:"leafUuid"`
	Object     jsontext.Value `json:"object"`
	Choices    jsontext.Value `json:"choices"`
	Candidates jsontext.Value `json:"candidates"`
	Output     jsontext.Value `json:"output"`
	Delta      jsontext.Value `json:"delta"`
	Index      jsontext.Value `json:"index"`
	StepDetail jsontext.Value `json:"step_details"`
}

func strOf(v jsontext.Value) string {
	if v.Kind() != '"' {
		return ""
	}
	var s string
	_ = json.Unmarshal(v, &s)
	return s
}

func isSet(v jsontext.Value) bool { return len(v) > 0 && v.Kind() != 'n' }

// Item types of OpenAI Responses.
var (
	responsesCalls = map[string]string{ // call type → its output's type
		"function_call": "function_call_output", "custom_tool_call": "custom_tool_call_output",
		"computer_call": "computer_call_output", "local_shell_call": "local_shell_call_output",
		"shell_call": "shell_call_output", "apply_patch_call": "apply_patch_call_output",
		"mcp_approval_request": "mcp_approval_response",
	}
	responsesOutputs = map[string]bool{}
	responsesHosted  = map[string]bool{"web_search_call": true, "file_search_call": true, "code_interpreter_call": true,
		"image_generation_call": true, "mcp_call": true, "mcp_list_tools": true, "tool_search_call": true, "tool_search_output": true}
	responsesOther = map[string]bool{"message": true, "reasoning": true, "item_reference": true, "compaction": true}
)

func init() {
	for _, o := range responsesCalls {
		responsesOutputs[o] = true
	}
}

func isResponsesItem(t string) bool {
	return responsesCalls[t] != "" || responsesOutputs[t] || responsesHosted[t] || responsesOther[t]
}

var (
	claudeCodeTypes = map[string]bool{"user": true, "assistant": true, "system": true, "summary": true, "progress": true,
		"file-history-snapshot": true, "queue-operation": true, "attachment": true, "result": true}
	codexTypes     = map[string]bool{"session_meta": true, "response_item": true, "event_msg": true, "turn_context": true, "compacted": true}
	langchainTypes = map[string]bool{"human": true, "ai": true, "tool": true, "system": true, "chat": true, "function": true,
		"AIMessageChunk": true, "HumanMessageChunk": true, "ToolMessageChunk": true, "SystemMessageChunk": true,
		"ChatMessageChunk": true, "FunctionMessageChunk": true, "remove": true}
	anthropicEvents = map[string]bool{"message_start": true, "content_block_start": true, "content_block_delta": true,
		"content_block_stop": true, "message_delta": true, "message_stop": true}
)

// classify says which formats an element can belong to.
func classify(raw []byte, e *element) verdict {
	var p probe
	if json.Unmarshal(raw, &p) != nil {
		return verdict{set: anyFormat, what: "a value that is not a JSON object"}
	}
	typ := strOf(p.Type)
	role := strOf(p.Role)
	switch {
	case isSet(p.JSONRPC):
		return verdict{set: bit(FormatMCP), what: "a JSON-RPC message"}
	case codexTypes[typ] && isSet(p.Payload):
		return verdict{set: bit(FormatCodex), what: "a Codex CLI rollout entry"}
	case claudeCodeTypes[typ] && (isSet(p.SessionID) || isSet(p.UUID) || isSet(p.LeafUUID) || (p.Message.Kind() == '{' && !isSet(p.Role))):
		return verdict{set: bit(FormatClaudeCode), what: "a Claude Code session log entry"}
	case langchainTypes[typ] && p.Data.Kind() == '{':
		return verdict{set: bit(FormatLangChain), what: "a LangChain message dict (messages_to_dict)"}
	case anthropicEvents[typ]:
		return verdict{set: bit(FormatAnthropic), what: "an Anthropic streaming event (" + typ + ")"}
	case typ == "ping" || (typ == "error" && p.Data.Kind() != '{' && strings.HasPrefix(e.tag, "event:")):
		return verdict{set: bit(FormatAnthropic), what: "an Anthropic streaming event (" + typ + ")"}
	case strings.HasPrefix(typ, "response."):
		return verdict{set: bit(FormatOpenAI), what: "an OpenAI Responses streaming event (" + typ + ")"}
	case strOf(p.Object) == "chat.completion.chunk" || strOf(p.Object) == "chat.completion" || (isSet(p.Choices) && !isSet(p.Role)):
		return verdict{set: bit(FormatOpenAIChat), what: "an OpenAI Chat Completions response"}
	case e.key == "choices" || ((isSet(p.Message) || isSet(p.Delta)) && isSet(p.Index) && !isSet(p.Role)):
		return verdict{set: bit(FormatOpenAIChat), what: "a Chat Completions choice"}
	case e.key == "candidates" || isSet(p.Candidates):
		return verdict{set: bit(FormatGemini), what: "a Gemini response candidate"}
	case strOf(p.Object) == "thread.run.step" || strOf(p.Object) == "thread.message" || isSet(p.StepDetail):
		return verdict{refuse: "OpenAI Assistants (threads and run steps)", what: "an OpenAI Assistants object"}
	case p.Output.Kind() == '{' && !isSet(p.Role):
		return verdict{set: bit(FormatBedrock), what: "an Amazon Bedrock Converse response"}
	case typ != "" && isResponsesItem(typ) && !(typ == "message" && anthropicBlocks(p.Content)):
		return verdict{set: bit(FormatOpenAI), what: "an OpenAI Responses item (" + typ + ")"}
	case typ == "message" && role == "assistant":
		return verdict{set: bit(FormatAnthropic), what: "an Anthropic Messages response"}
	case p.Parts.Kind() == '[':
		if partsTyped(p.Parts) {
			return verdict{set: bit(FormatVercel), what: "a Vercel AI SDK UI message (parts)"}
		}
		return verdict{set: bit(FormatGemini), what: "a Gemini content (parts)"}
	case role == "model":
		return verdict{set: bit(FormatGemini), what: "a Gemini content"}
	case p.Function.Kind() == '{' || role == "function":
		return verdict{refuse: "OpenAI's legacy function calling (function_call and role function messages carry no ids: nothing to pair)",
			what: "a legacy function_call message"}
	case p.ToolCalls.Kind() == '[':
		if !toolCallsHaveIDs(p.ToolCalls) {
			return verdict{refuse: "tool calls without ids (the shape of Ollama's /api/chat: nothing to pair a result with)",
				what: "a message whose tool_calls have no id"}
		}
		return verdict{set: bit(FormatOpenAIChat), what: "a Chat Completions message with tool_calls"}
	case role == "tool" && isSet(p.ToolCallID):
		return verdict{set: bit(FormatOpenAIChat), what: "a Chat Completions tool message"}
	case role == "tool" && isSet(p.ToolName):
		return verdict{refuse: "tool messages without ids (the shape of Ollama's /api/chat: nothing to pair)", what: "a tool message with tool_name and no id"}
	case role == "tool" && p.Content.Kind() == '[':
		return verdict{set: bit(FormatVercel), what: "a Vercel AI SDK tool message"}
	case role == "tool":
		return verdict{set: bit(FormatOpenAIChat), what: "a tool message"}
	}
	if role == "" {
		if typ != "" {
			return verdict{what: fmt.Sprintf("an object of type %q", clipText(typ, 40))}
		}
		return verdict{what: "an object with no role or type"}
	}
	// A message: the formats its role and its content allow.
	set := messageKind
	switch role {
	case "user", "assistant":
	case "system", "developer":
		set &= bits(FormatOpenAIChat, FormatOpenAI, FormatVercel)
	default:
		return verdict{what: fmt.Sprintf("a message with role %q", clipText(role, 40))}
	}
	what := article(role) + " message"
	switch p.Content.Kind() {
	case '"', 'n', 0:
		set &^= bit(FormatBedrock)
	case '[':
		bset, bwhat := blockFormats(p.Content)
		set &= bset
		if bwhat != "" {
			what += " with " + bwhat
		}
	default:
		// Other content leaves the formats the role allows.
	}
	return verdict{set: set, what: what}
}

// anthropicBlocks says whether content holds Anthropic's block types.
func anthropicBlocks(content jsontext.Value) bool {
	s, _ := blockFormats(content)
	return s == bit(FormatAnthropic)
}

// blockFormats says which formats a content array's blocks allow, and
// names the telling block.
func blockFormats(content jsontext.Value) (fset, string) {
	var blocks []map[string]jsontext.Value
	if json.Unmarshal(content, &blocks) != nil {
		return messageKind, ""
	}
	set := messageKind
	what := ""
	for _, b := range blocks {
		t := strOf(b["type"])
		var s fset
		switch {
		case t == "":
			switch {
			case isSet(b["toolUse"]) || isSet(b["toolResult"]):
				s, what = bit(FormatBedrock), "toolUse / toolResult blocks"
			default:
				s = bit(FormatBedrock)
			}
		case t == "tool_use" || t == "tool_result" || t == "server_tool_use" || t == "mcp_tool_use" || strings.HasSuffix(t, "_tool_result"):
			s, what = bit(FormatAnthropic), t+" blocks"
		case t == "thinking" || t == "redacted_thinking" || t == "document" || t == "search_result" || t == "container_upload":
			s = bit(FormatAnthropic)
		case t == "tool-call" || t == "tool-result" || t == "tool-approval-request" || t == "tool-approval-response" || t == "reasoning":
			s, what = bit(FormatVercel), t+" parts"
		case t == "image_url" || t == "input_audio" || t == "refusal":
			s = bit(FormatOpenAIChat)
		case t == "input_text" || t == "output_text" || t == "input_image" || t == "input_file":
			s = bit(FormatOpenAI)
		case t == "text":
			s = bits(FormatAnthropic, FormatOpenAIChat, FormatVercel)
		case t == "image":
			s = bits(FormatAnthropic, FormatVercel)
		case t == "file":
			s = bits(FormatOpenAIChat, FormatVercel)
		default:
			s = messageKind
		}
		set &= s
	}
	return set, what
}

func partsTyped(parts jsontext.Value) bool {
	var ps []map[string]jsontext.Value
	if json.Unmarshal(parts, &ps) != nil || len(ps) == 0 {
		return false
	}
	return isSet(ps[0]["type"])
}

func toolCallsHaveIDs(calls jsontext.Value) bool {
	var cs []map[string]jsontext.Value
	if json.Unmarshal(calls, &cs) != nil {
		return true
	}
	for _, c := range cs {
		if !isSet(c["id"]) && isSet(c["function"]) {
			return false
		}
	}
	return true
}

// keyFormats is what a body's list key allows.
func keyFormats(key string) fset {
	switch key {
	case "messages":
		return bits(FormatAnthropic, FormatOpenAIChat, FormatVercel, FormatBedrock, FormatLangChain)
	case "input", "output":
		return bit(FormatOpenAI)
	case "contents", "candidates":
		return bit(FormatGemini)
	case "choices":
		return bit(FormatOpenAIChat)
	}
	return anyFormat
}
