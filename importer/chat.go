package importer

import (
	"fmt"
	"sort"

	"github.com/go-json-experiment/json/jsontext"
)

type chatToolCall struct {
	ID    jsontext.Value `json:"id"`
	Index jsontext.Value `json:"index"`
}

type chatMessage struct {
	Role       string         `json:"role"`
	ToolCalls  []chatToolCall `json:"tool_calls"`
	ToolCallID jsontext.Value `json:"tool_call_id"`
	Function   jsontext.Value `json:"function_call"`
}

type chatChoice struct {
	Index   int          `json:"index"`
	Message *chatMessage `json:"message"`
	Delta   *chatMessage `json:"delta"`
}

// chatElement is a Chat Completions message, a choice of a response, or
// a whole response or streamed chunk.
type chatElement struct {
	chatMessage `json:",inline"`
	Object      string        `json:"object"`
	Choices     []chatChoice  `json:"choices"`
	Message     *chatMessage  `json:"message"`
	Delta       *chatMessage  `json:"delta"`
	Index       int           `json:"index"`
	Type        string        `json:"type"`
	Data        *langchainMsg `json:"data"`
}

// langchainMsg is the data of a LangChain message dict.
type langchainMsg struct {
	ToolCalls        []chatToolCall `json:"tool_calls"`
	InvalidToolCalls []chatToolCall `json:"invalid_tool_calls"`
	ToolCallID       jsontext.Value `json:"tool_call_id"`
}

// chatReader pairs an assistant message's tool_calls with the role tool
// messages right after it, as Chat Completions requires (LangChain's
// message dicts the same way: an ai message's tool_calls, then tool
// messages). Any other message ends the exchange.
type chatReader struct {
	r         *run
	langchain bool
	x         exchange
	phase     int // 0 none, 1 after an assistant message with calls, 2 in its tool messages
	// streamed chunks: calls by choice index
	chunks  map[int]*exchange
	chunkAt map[int]string
	nChunks int
	choices int
}

func newChatReader(r *run, langchain bool) *chatReader {
	return &chatReader{r: r, langchain: langchain, chunks: map[int]*exchange{}, chunkAt: map[int]string{}}
}

func (c *chatReader) wrapperStart(w *wrapper) error {
	if w.key == "choices" && c.phase != 0 {
		// A response after a request: its choices answer the request.
		return c.close(true, "")
	}
	return nil
}

func (c *chatReader) wrapperEnd(_ *wrapper) error { return nil }

func (c *chatReader) element(e *element) error {
	var m chatElement
	if err := c.r.decodeAt(e, &m); err != nil {
		return err
	}
	switch {
	case c.langchain:
		return c.langchainMessage(e, &m)
	case e.key == "choices" || (m.Message != nil && m.Role == ""):
		return c.choice(e, m.Index, m.Message, m.Delta, "")
	case m.Object == "chat.completion.chunk" || m.Object == "chat.completion" || (len(m.Choices) > 0 && m.Role == ""):
		for i := range m.Choices {
			ch := &m.Choices[i]
			if err := c.choice(e, ch.Index, ch.Message, ch.Delta, pointer("choices", i)); err != nil {
				return err
			}
		}
		return nil
	}
	return c.message(e, &m.chatMessage, "")
}

// choice reads one choice of a response, or its delta in a chunk.
func (c *chatReader) choice(e *element, index int, msg, delta *chatMessage, base string) error {
	if delta != nil {
		c.nChunks++
		x := c.chunks[index]
		if x == nil {
			x = &exchange{}
			c.chunks[index] = x
			c.chunkAt[index] = e.place()
		}
		for i, tc := range delta.ToolCalls {
			id, ok, err := idText(tc.ID)
			if err != nil {
				return c.r.at(e, base+pointer("delta", "tool_calls", i, "id"), "%v", err)
			}
			if ok { // a later delta of one call carries no id
				c.r.call(x, e, base+pointer("delta", "tool_calls", i, "id"), "tool call", id, ok)
			}
		}
		return nil
	}
	if msg == nil {
		return c.r.at(e, base, "a choice with neither message nor delta")
	}
	c.choices++
	if c.choices > 1 && c.phase == 1 {
		// Another choice is another answer to the same request.
		if err := c.close(c.r.o.Closed, fmt.Sprintf("%s: %s → one choice of several (open)", c.x.callsAt, toolCalls(len(c.x.calls)))); err != nil {
			return err
		}
	}
	return c.message(e, msg, base+"/message")
}

func (c *chatReader) message(e *element, m *chatMessage, base string) error {
	switch m.Role {
	case "assistant":
		if c.phase != 0 {
			how := ""
			if c.phase == 1 {
				how = fmt.Sprintf("%s: %s → %s is another assistant message, not their tool messages", c.x.callsAt, toolCalls(len(c.x.calls)), e.place())
			}
			if err := c.close(true, how); err != nil {
				return err
			}
		}
		if len(m.ToolCalls) == 0 {
			return nil
		}
		c.phase = 1
		c.x.callsAt = e.place()
		for i, tc := range m.ToolCalls {
			id, ok, err := idText(tc.ID)
			if err != nil {
				return c.r.at(e, base+pointer("tool_calls", i, "id"), "%v", err)
			}
			c.r.call(&c.x, e, base+pointer("tool_calls", i, "id"), "tool call", id, ok)
		}
	case "tool":
		if c.phase != 2 {
			if c.phase == 0 {
				c.x.callsAt = ""
			}
			c.phase = 2
			c.x.resultsAt = e.place()
		}
		c.x.resultMsg++
		id, ok, err := idText(m.ToolCallID)
		if err != nil {
			return c.r.at(e, base+"/tool_call_id", "%v", err)
		}
		c.r.result(&c.x, e, base+"/tool_call_id", "tool message", id, ok)
	case "user", "system", "developer":
		if c.phase != 0 {
			how := ""
			if c.phase == 1 {
				how = fmt.Sprintf("%s: %s → %s is a %s message, not their tool messages", c.x.callsAt, toolCalls(len(c.x.calls)), e.place(), m.Role)
			}
			return c.close(true, how)
		}
	case "function":
		return c.r.at(e, base+"/role", "a role function message (OpenAI's legacy function calling) has no id to pair by: toolgate does not read it")
	default:
		return c.r.at(e, base+"/role", "want \"system\", \"developer\", \"user\", \"assistant\" or \"tool\", got %q", m.Role)
	}
	return nil
}

// close ends the exchange.
func (c *chatReader) close(closed bool, how string) error {
	if how == "" {
		switch {
		case c.x.callsAt == "":
			how = fmt.Sprintf("%s: %d tool %s with no tool calls right before", c.x.resultsAt, c.x.resultMsg, plural(c.x.resultMsg, "message", "messages"))
		case c.x.resultsAt == "":
			how = fmt.Sprintf("%s: %s → no tool message", c.x.callsAt, toolCalls(len(c.x.calls)))
		default:
			how = fmt.Sprintf("%s: %s → %s: %d tool %s", c.x.callsAt, toolCalls(len(c.x.calls)), c.x.resultsAt, c.x.resultMsg, plural(c.x.resultMsg, "message", "messages"))
		}
	}
	c.phase = 0
	return c.r.finish(&c.x, closed, how)
}

func (c *chatReader) langchainMessage(e *element, m *chatElement) error {
	if m.Data == nil {
		return e.errorf(c.r.name, 0, "data", "required: a LangChain message dict is {\"type\": ..., \"data\": {...}}")
	}
	switch m.Type {
	case "ai", "AIMessageChunk":
		cm := chatMessage{Role: "assistant", ToolCalls: append(append([]chatToolCall(nil), m.Data.ToolCalls...), m.Data.InvalidToolCalls...)}
		if err := c.message(e, &chatMessage{Role: "assistant"}, "/data"); err != nil {
			return err
		}
		if len(cm.ToolCalls) == 0 {
			return nil
		}
		c.phase = 1
		c.x.callsAt = e.place()
		for i, tc := range m.Data.ToolCalls {
			if err := c.lcCall(e, tc, pointer("data", "tool_calls", i, "id")); err != nil {
				return err
			}
		}
		for i, tc := range m.Data.InvalidToolCalls {
			if err := c.lcCall(e, tc, pointer("data", "invalid_tool_calls", i, "id")); err != nil {
				return err
			}
		}
		return nil
	case "tool", "ToolMessageChunk":
		return c.message(e, &chatMessage{Role: "tool", ToolCallID: m.Data.ToolCallID}, "/data")
	case "remove":
		return nil
	}
	return c.message(e, &chatMessage{Role: "user"}, "/data")
}

func (c *chatReader) lcCall(e *element, tc chatToolCall, ptr string) error {
	id, ok, err := idText(tc.ID)
	if err != nil {
		return c.r.at(e, ptr, "%v", err)
	}
	c.r.call(&c.x, e, ptr, "tool call", id, ok)
	return nil
}

func (c *chatReader) end() error {
	switch c.phase {
	case 1:
		how := fmt.Sprintf("%s: %s → no tool message yet (open)", c.x.callsAt, toolCalls(len(c.x.calls)))
		if err := c.close(c.r.o.Closed, how); err != nil {
			return err
		}
	case 2:
		if err := c.close(c.r.o.Closed || c.r.document, ""); err != nil {
			return err
		}
	}
	if c.nChunks > 0 {
		c.r.note("stream", "%d streamed chunks read: a streamed response holds the assistant's tool calls only, so they wait for tool messages that are not in it", c.nChunks)
	}
	idx := make([]int, 0, len(c.chunks))
	for i := range c.chunks {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		x := c.chunks[i]
		how := fmt.Sprintf("%s: %s streamed in choice %d → no tool message yet (open)", c.chunkAt[i], toolCalls(len(x.calls)), i)
		if err := c.r.finish(x, c.r.o.Closed, how); err != nil {
			return err
		}
	}
	return nil
}

func toolCalls(n int) string { return fmt.Sprintf("%d tool %s", n, plural(n, "call", "calls")) }
