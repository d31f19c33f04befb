package importer

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// decodeAt decodes the element's JSON into out; an error names the line,
// column and field.
func (r *run) decodeAt(e *element, out any) error {
	err := json.Unmarshal(e.raw, out, lenient)
	if err == nil {
		return nil
	}
	path, msg, off := describeJSON(err)
	if off < 0 {
		off = 0
	}
	line, col := e.pos(off)
	return &Error{Name: r.name, Line: line, Column: col, Path: join(e.path(), path), Msg: msg}
}

// idText reads an id member: a string. present is false when it is
// absent or null.
func idText(v jsontext.Value) (id string, present bool, err error) {
	switch v.Kind() {
	case 0, 'n':
		return "", false, nil
	case '"':
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return "", false, err
		}
		return s, true, nil
	default:
		return "", false, fmt.Errorf("want string, got %s", jsonKindName(v.Kind()))
	}
}

// content is a message's content: a string (no blocks) or an array of
// blocks.
type content[B any] struct {
	blocks []B
	// text is the string content (for a user message's sum).
	text string
}

func (c *content[B]) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch dec.PeekKind() {
	case '[':
		return json.UnmarshalDecode(dec, &c.blocks)
	case '"':
		return json.UnmarshalDecode(dec, &c.text)
	case 'n':
		return dec.SkipValue()
	default:
		k := dec.PeekKind()
		if err := dec.SkipValue(); err != nil {
			return err
		}
		return fmt.Errorf("want string or array, got %s", jsonKindName(k))
	}
}

// anthBlock is a content block of Anthropic Messages (or Bedrock
// Converse), as far as the import reads it.
type anthBlock struct {
	Type       string         `json:"type"`
	ID         jsontext.Value `json:"id"`
	ToolUseID  jsontext.Value `json:"tool_use_id"`
	ToolUse    *bedrockRef    `json:"toolUse"`
	ToolResult *bedrockRef    `json:"toolResult"`
	// Text is a text block's, for a user message's sum.
	Text string `json:"text"`
}

type bedrockRef struct {
	ToolUseID jsontext.Value `json:"toolUseId"`
}

type anthMessage struct {
	Role    string             `json:"role"`
	Content content[anthBlock] `json:"content"`
}

// anthReader pairs each assistant turn's tool_use blocks with the
// tool_result blocks of the user turn after it. Consecutive messages of
// one role are one turn, as the API merges them. Server tools
// (server_tool_use, mcp_tool_use) may be answered in a later assistant
// turn: they are paired by id until a user turn with no tool results ends
// the agent's run.
type anthReader struct {
	r       *run
	format  string
	callW   string // "tool_use" or "toolUse"
	resultW string
	x       exchange
	// phase: 0 before any turn, 1 in an assistant turn, 2 in the user
	// turn after one (or a user turn with nothing before).
	phase int
	// userResults: the current user turn has tool results.
	userResults bool
	srv         *ledger
	// what a person should know
	stream    int // streaming events read
	streamErr string
	inMessage bool // a streamed message is open
	// said is the conversation read so far, one sum a message
	// (messageSum): the Messages API is stateless, so
	// a request body that comes after a response restates everything
	// before it — a recorded run is request, response, request (with the
	// tool results), response. Only a request's messages beyond said are
	// new. restating is the request body being read, which restates
	// said's first upto messages (as many as were read before it): at is
	// how far it is, before how many messages from before said it held.
	// streamed is the streamed message being read, for its sum.
	said             []uint64
	track            bool
	restating        *wrapper
	upto, at, before int
	streamed         []anthBlock
}

func newAnthropicReader(r *run, format string) *anthReader {
	a := &anthReader{r: r, format: format, callW: "tool_use", resultW: "tool_result", track: true}
	if format == FormatBedrock {
		a.callW, a.resultW = "toolUse", "toolResult"
	}
	a.srv = newLedger(r, "server_tool_use", "server tool results")
	return a
}

// wrapperStart takes a body: a request body after what was read
// restates it.
func (a *anthReader) wrapperStart(w *wrapper) error {
	if a.track && !w.response() && len(a.said) > 0 {
		a.restating, a.upto, a.at, a.before = w, len(a.said), 0, 0
	}
	return nil
}

func (a *anthReader) wrapperEnd(w *wrapper) error {
	if a.restating != w {
		return nil
	}
	a.restating = nil
	if a.at < a.upto {
		what := "holds none of the messages read before it"
		if a.at > 0 {
			what = fmt.Sprintf("holds %d of the %d messages read before it, not the rest", a.at, a.upto)
		}
		return &Error{Name: a.r.name, Line: w.line, Column: w.col, Msg: fmt.Sprintf(
			"%s %s: a request body restates the whole conversation (the API keeps none), so this is another conversation, or one cut short; "+
				"import one conversation: its last request body, and the response after it", w, what)}
	}
	if a.before > 0 {
		a.r.note(fmt.Sprintf("before-%d", w.line), "%s restates %d %s from before the first one read: read for their server tools only (their other calls were answered before the input starts)",
			w, a.before, plural(a.before, "message", "messages"))
	}
	return nil
}

// messageSum is a message's role, the ids of its tool blocks and, for a
// user's, its text, as a request that restates it carries them. (An
// assistant's text is left out: a streamed response's comes in deltas,
// not read.)
func messageSum(role, text string, blocks []anthBlock) uint64 {
	user := role == "user"
	h := fnv.New64a()
	h.Write([]byte(role))
	if user {
		h.Write([]byte{0})
		h.Write([]byte(text))
	}
	for i := range blocks {
		b := &blocks[i]
		h.Write([]byte{0})
		h.Write([]byte(b.Type))
		if user {
			h.Write([]byte{0})
			h.Write([]byte(b.Text))
		}
		for _, v := range []jsontext.Value{b.ID, b.ToolUseID} {
			h.Write([]byte{1})
			h.Write(v)
		}
		if b.ToolUse != nil {
			h.Write(b.ToolUse.ToolUseID)
		}
		if b.ToolResult != nil {
			h.Write(b.ToolResult.ToolUseID)
		}
	}
	return h.Sum64()
}

// restated reports whether a message of a request body is one the
// conversation read before holds, to be left out: the ones before the
// first message read (the input starts with a response, the request
// before it left out), then each message read, in order. A message that
// differs from the one read is an error: the body is another
// conversation.
func (a *anthReader) restated(e *element, m *anthMessage, base string) (bool, error) {
	w := a.restating
	if w == nil || a.at == a.upto {
		return false, nil // not restating, or past it: the new part
	}
	switch same := messageSum(m.Role, m.Content.text, m.Content.blocks) == a.said[a.at]; {
	case same:
		a.at++
	case a.at == 0:
		// Before what was read: its client calls were answered before it
		// too, but a server tool it called may be answered in what was
		// read, or later (programmatic tool calling).
		a.before++
		for i := range m.Content.blocks {
			if b := &m.Content.blocks[i]; m.Role == "assistant" && isServer(b.Type) {
				if err := a.block(e, m.Role, b, pointer(i), base+"/content"); err != nil {
					return false, err
				}
			}
		}
	default:
		return false, a.r.at(e, base, "this message of %s is not message %d of the conversation read before it (its role, text or tool blocks differ): "+
			"a request body restates the whole conversation, so this is another one; import one conversation: its last request body, and the response after it",
			w, a.at+1)
	}
	return true, nil
}

// isServer says whether a block is a server tool's call or result.
func isServer(t string) bool {
	return t == "server_tool_use" || t == "mcp_tool_use" || strings.HasSuffix(t, "_tool_result")
}

// remember adds a message read to said (a transcript of more messages
// than toolgate remembers is read without it: a request body in it then
// counts its calls again).
func (a *anthReader) remember(v uint64) {
	if !a.track {
		return
	}
	if len(a.said) >= MaxRemembered {
		a.track, a.said = false, nil
		a.r.note("forgot-said", "more than %d messages: a request body after them is read whole, as a conversation of its own", MaxRemembered)
		return
	}
	a.said = append(a.said, v)
}

func (a *anthReader) element(e *element) error {
	// A streaming event, or a Bedrock response around its message.
	if len(e.raw) > 0 && a.format == FormatAnthropic {
		if done, err := a.event(e); done || err != nil {
			return err
		}
	}
	if a.format == FormatBedrock {
		var resp struct {
			Output *struct {
				Message *anthMessage `json:"message"`
			} `json:"output"`
		}
		if err := a.r.decodeAt(e, &resp); err != nil {
			return err
		}
		if resp.Output != nil && resp.Output.Message != nil {
			return a.message(e, resp.Output.Message, "/output/message")
		}
	}
	var m anthMessage
	if err := a.r.decodeAt(e, &m); err != nil {
		return err
	}
	return a.message(e, &m, "")
}

// message reads one message; base is the JSON Pointer of the message in
// the element.
func (a *anthReader) message(e *element, m *anthMessage, base string) error {
	if m.Role != "user" && m.Role != "assistant" {
		return a.r.at(e, base+"/role", "want \"user\" or \"assistant\", got %q", m.Role)
	}
	if again, err := a.restated(e, m, base); again || err != nil {
		return err
	}
	a.remember(messageSum(m.Role, m.Content.text, m.Content.blocks))
	if err := a.turn(m.Role, e); err != nil {
		return err
	}
	for i := range m.Content.blocks {
		if err := a.block(e, m.Role, &m.Content.blocks[i], pointer(i), base+"/content"); err != nil {
			return err
		}
	}
	return a.srv.settle()
}

// turn starts a message of role: a new turn, or more of the current one.
func (a *anthReader) turn(role string, e *element) error {
	switch {
	case role == "assistant" && a.phase == 2:
		if err := a.endUserTurn(); err != nil {
			return err
		}
		fallthrough
	case role == "assistant" && a.phase == 0:
		a.phase = 1
		a.x.callsAt = e.place()
		a.x.callTurns = 1
	case role == "assistant":
		a.x.callTurns++
	case a.phase != 2: // a user message after an assistant turn, or first
		a.phase = 2
		a.userResults = false
		a.x.resultsAt = e.place()
		a.x.resultMsg = 1
	default:
		a.x.resultMsg++
	}
	return nil
}

// endUserTurn ends the user turn before a new assistant turn: the
// exchange is over; a user turn with no tool result ends the agent's run,
// so server tools still unanswered are missing.
func (a *anthReader) endUserTurn() error {
	how := ""
	if len(a.x.calls) > 0 && len(a.x.results) == 0 {
		how = fmt.Sprintf("%s → %s: no %s", a.callsWhere(), a.resultsWhere(), a.resultW)
	}
	if err := a.finishExchange(true, how); err != nil {
		return err
	}
	if !a.userResults {
		return a.srv.close(true)
	}
	return nil
}

func (a *anthReader) callsWhere() string {
	s := fmt.Sprintf("%s: %d %s", a.x.callsAt, len(a.x.calls), a.callW)
	if a.x.callTurns > 1 {
		s = fmt.Sprintf("%s (and %d more assistant %s): %d %s", a.x.callsAt, a.x.callTurns-1, plural(a.x.callTurns-1, "message", "messages"), len(a.x.calls), a.callW)
	}
	return s
}

func (a *anthReader) resultsWhere() string {
	s := a.x.resultsAt
	if a.x.resultMsg > 1 {
		s += fmt.Sprintf(" (and %d more user %s, one turn)", a.x.resultMsg-1, plural(a.x.resultMsg-1, "message", "messages"))
	}
	return s
}

func (a *anthReader) finishExchange(closed bool, how string) error {
	if how == "" {
		switch {
		case len(a.x.calls) == 0:
			how = fmt.Sprintf("%s: %d %s with no %s turn right before it", a.resultsWhere(), len(a.x.results), a.resultW, a.callW)
		default:
			how = fmt.Sprintf("%s → %s: %d %s", a.callsWhere(), a.resultsWhere(), len(a.x.results), a.resultW)
		}
	}
	return a.r.finish(&a.x, closed, how)
}

// block reads one content block of a message of role.
func (a *anthReader) block(e *element, role string, b *anthBlock, idx, base string) error {
	at := base + idx
	t := b.Type
	if a.format == FormatBedrock {
		switch {
		case b.ToolUse != nil:
			t, b.ID, at = "tool_use", b.ToolUse.ToolUseID, at+"/toolUse"
		case b.ToolResult != nil:
			t, b.ToolUseID, at = "tool_result", b.ToolResult.ToolUseID, at+"/toolResult"
		}
	}
	idField, useField := "/id", "/tool_use_id"
	if a.format == FormatBedrock {
		idField, useField = "/toolUseId", "/toolUseId"
	}
	read := func(v jsontext.Value, field string) (string, bool, error) {
		id, ok, err := idText(v)
		if err != nil {
			return "", false, a.r.at(e, at+field, "%v", err)
		}
		return id, ok, nil
	}
	switch {
	case t == "tool_use" && role == "assistant":
		id, ok, err := read(b.ID, idField)
		if err != nil {
			return err
		}
		a.r.call(&a.x, e, at+idField, a.callW, id, ok)
	case t == "tool_use":
		return a.r.at(e, at, "a %s block in a user turn: only the assistant calls tools", a.callW)
	case t == "tool_result" && role == "user":
		id, ok, err := read(b.ToolUseID, useField)
		if err != nil {
			return err
		}
		a.userResults = true
		a.r.result(&a.x, e, at+useField, a.resultW, id, ok)
	case t == "tool_result":
		return a.r.at(e, at, "a %s block in an assistant turn: results come in the user turn after it", a.resultW)
	case (t == "server_tool_use" || t == "mcp_tool_use") && role == "assistant":
		id, ok, err := read(b.ID, "/id")
		if err != nil {
			return err
		}
		if !ok || id == "" {
			a.r.problem(a.r.at(e, at+"/id", "%s: %s; left out", t, map[bool]string{true: "empty id", false: "no id"}[ok]))
			return nil
		}
		line, _ := e.pos(0)
		first, ok, err := a.srv.request(id, line)
		if err != nil {
			return err
		}
		if !ok {
			a.r.problem(a.r.at(e, at+"/id", "%s id %q again (first at line %d): left out the second time", t, id, first))
		}
	case strings.HasSuffix(t, "_tool_result") && role == "assistant":
		id, ok, err := read(b.ToolUseID, "/tool_use_id")
		if err != nil {
			return err
		}
		if !ok || id == "" {
			a.r.problem(a.r.at(e, at+"/tool_use_id", "%s: %s; left out", t, map[bool]string{true: "empty id", false: "no id"}[ok]))
			return nil
		}
		line, _ := e.pos(0)
		return a.srv.result(id, line, func() string { return e.place() })
	}
	return nil
}

// streamEvent is an event of a streamed Anthropic response.
type streamEvent struct {
	Type         string       `json:"type"`
	Message      *anthMessage `json:"message"`
	ContentBlock *anthBlock   `json:"content_block"`
	Error        *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// event reads a server-sent event of a streamed response; done is false
// when e is not one.
func (a *anthReader) event(e *element) (bool, error) {
	t := typeOf(e.raw)
	if !anthropicEvents[t] && t != "ping" && t != "error" {
		return false, nil
	}
	if t == "error" && !strings.HasPrefix(e.tag, "event:") {
		return false, nil
	}
	var ev streamEvent
	if err := a.r.decodeAt(e, &ev); err != nil {
		return true, err
	}
	a.stream++
	switch t {
	case "message_start":
		a.inMessage = true
		a.streamed = a.streamed[:0]
		if err := a.turn("assistant", e); err != nil {
			return true, err
		}
		if ev.Message != nil {
			a.streamed = append(a.streamed, ev.Message.Content.blocks...)
			for i := range ev.Message.Content.blocks {
				if err := a.block(e, "assistant", &ev.Message.Content.blocks[i], pointer(i), "/message/content"); err != nil {
					return true, err
				}
			}
		}
	case "content_block_start":
		if !a.inMessage {
			a.inMessage = true
			if err := a.turn("assistant", e); err != nil {
				return true, err
			}
		}
		if ev.ContentBlock != nil {
			a.streamed = append(a.streamed, *ev.ContentBlock)
			if err := a.block(e, "assistant", ev.ContentBlock, "", "/content_block"); err != nil {
				return true, err
			}
		}
	case "message_stop":
		a.inMessage = false
		a.remember(messageSum("assistant", "", a.streamed))
		return true, a.srv.settle()
	case "error":
		if ev.Error != nil {
			a.streamErr = fmt.Sprintf("line %d: %s: %s", e.line, ev.Error.Type, clipText(ev.Error.Message, 80))
		}
	}
	return true, nil
}

// typeOf is the "type" member of an object, "" when there is none.
func typeOf(raw []byte) string {
	m, ok := findMember(raw, "type")
	if !ok || m.kind != '"' || m.end < 0 || m.end-m.start > 200 {
		return ""
	}
	s, err := strconv.Unquote(string(raw[m.start:m.end]))
	if err != nil {
		return ""
	}
	return s
}

func (a *anthReader) end() error {
	if a.stream > 0 {
		a.r.note("stream", "%d streaming events read: a streamed response holds the assistant's turns only, so its calls wait for results that are not in it", a.stream)
		if a.inMessage {
			a.r.note("stream-cut", "the stream ends inside a message (no message_stop): it was cut")
		}
		if a.streamErr != "" {
			a.r.note("stream-error", "the stream reports an error: %s", a.streamErr)
		}
	}
	switch a.phase {
	case 1:
		how := fmt.Sprintf("%s → no user turn yet (open)", a.callsWhere())
		if a.r.o.Closed {
			how = fmt.Sprintf("%s → no user turn (closed)", a.callsWhere())
		}
		if err := a.finishExchange(a.r.o.Closed, how); err != nil {
			return err
		}
		return a.srv.close(a.r.o.Closed)
	case 2:
		// A body's last user turn is whole; a log's may still grow.
		if err := a.finishExchange(a.r.o.Closed || a.r.document, ""); err != nil {
			return err
		}
		return a.srv.close(a.r.o.Closed || !a.userResults)
	}
	return a.srv.close(a.r.o.Closed)
}

// claudeCodeReader reads a Claude Code session log: one entry a line;
// user and assistant entries hold an Anthropic message each (one
// assistant message may be split over several lines with the same id,
// and parallel results come on lines of their own — one turn either
// way). Subagents' lines (isSidechain) are a conversation of their own.
type claudeCodeReader struct {
	r        *run
	main     *anthReader
	side     map[string]*anthReader
	order    []string
	skipped  map[string]int
	messages int
}

func newClaudeCodeReader(r *run) *claudeCodeReader {
	return &claudeCodeReader{r: r, main: lineReader(r), side: map[string]*anthReader{}, skipped: map[string]int{}}
}

// lineReader reads a log's messages: one a line, never a request body
// that restates them, so none is remembered.
func lineReader(r *run) *anthReader {
	a := newAnthropicReader(r, FormatAnthropic)
	a.track = false
	return a
}

type ccMessage struct {
	m   anthMessage
	set bool
}

func (c *ccMessage) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if dec.PeekKind() != '{' {
		return dec.SkipValue()
	}
	c.set = true
	return json.UnmarshalDecode(dec, &c.m)
}

type ccLine struct {
	Type        string    `json:"type"`
	IsSidechain bool      `json:"isSidechain"`
	AgentID     string    `json:"agentId"`
	Message     ccMessage `json:"message"`
}

func (c *claudeCodeReader) wrapperStart(_ *wrapper) error { return nil }
func (c *claudeCodeReader) wrapperEnd(_ *wrapper) error   { return nil }

func (c *claudeCodeReader) element(e *element) error {
	var l ccLine
	if err := c.r.decodeAt(e, &l); err != nil {
		return err
	}
	if (l.Type != "user" && l.Type != "assistant") || !l.Message.set {
		if l.Type == "" {
			return e.errorf(c.r.name, 0, "type", "required: a Claude Code log entry has a type (user, assistant, summary, ...)")
		}
		c.skipped[l.Type]++
		return nil
	}
	c.messages++
	a := c.main
	if l.IsSidechain {
		key := "sidechain"
		if l.AgentID != "" {
			key = "agent " + l.AgentID
		}
		if c.side[key] == nil {
			c.side[key] = lineReader(c.r)
			c.order = append(c.order, key)
		}
		a = c.side[key]
	}
	return a.message(e, &l.Message.m, "/message")
}

func (c *claudeCodeReader) end() error {
	if err := c.main.end(); err != nil {
		return err
	}
	for _, k := range c.order {
		if err := c.side[k].end(); err != nil {
			return err
		}
	}
	if len(c.order) > 0 {
		c.r.note("sidechains", "subagent lines (isSidechain) were read as conversations of their own: %s", strings.Join(c.order, ", "))
	}
	if len(c.skipped) > 0 {
		var parts []string
		for _, t := range sortedKeys(c.skipped) {
			parts = append(parts, fmt.Sprintf("%d %s", c.skipped[t], t))
		}
		c.r.note("skipped", "entries with no message left out: %s", strings.Join(parts, ", "))
	}
	return nil
}
