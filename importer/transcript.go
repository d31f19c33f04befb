package importer

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"toolgate/assess"
	"toolgate/decode"
)

// Transcript formats.
const (
	FormatAnthropic = "anthropic"
	FormatOpenAI    = "openai"
	FormatMCP       = "mcp"
)

// FormatNames says each format for people.
var FormatNames = map[string]string{
	FormatAnthropic: "Anthropic Messages (tool_use.id in an assistant turn, tool_result.tool_use_id in the next user turn)",
	FormatOpenAI:    "OpenAI Responses items (function_call.call_id, function_call_output.call_id)",
	FormatMCP:       "an MCP JSON-RPC message log (request ids, response ids)",
}

// Batches is what a transcript became: audit batches, in order, each with
// where it came from.
type Batches struct {
	Format string
	// Batches are the audit inputs; Where says for each where in the
	// transcript it came from.
	Batches []assess.AuditInput
	Where   []string
	// Notes are things a person should know: parts skipped, ids that
	// could not be matched.
	Notes []string
}

// TranscriptOptions steers an import.
type TranscriptOptions struct {
	// Format forces a format; "" detects it.
	Format string
	// Closed says the transcript is over: a batch still waiting for its
	// answer is closed, so its unanswered calls are missing, not pending.
	Closed bool
}

// elem is one message or item of a transcript, and where it is.
type elem struct {
	raw  jsontext.Value
	v    decode.Value // the top-level value it is in
	off  int64        // its offset in v
	path string       // how to name it, e.g. "messages[3]" or "line 4"
}

func (e elem) errorf(name, field, format string, args ...any) *Error {
	line, col := e.v.Position(e.off)
	path := e.path
	if field != "" {
		path = join(path, field)
	}
	return &Error{Name: name, Line: line, Column: col, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// Transcript reads a transcript and turns its tool calls into audit
// batches. name is the input's name in errors.
func Transcript(name string, data []byte, o TranscriptOptions) (Batches, error) {
	vals, err := values(name, data)
	if err != nil {
		return Batches{}, err
	}
	elems, format, notes, err := unwrap(name, vals)
	if err != nil {
		return Batches{}, err
	}
	if o.Format != "" {
		if _, ok := FormatNames[o.Format]; !ok {
			return Batches{}, fmt.Errorf("--format %q: want anthropic, openai or mcp", o.Format)
		}
		format = o.Format
	}
	if format == "" {
		format = detect(elems)
	}
	var b Batches
	switch format {
	case FormatAnthropic:
		b, err = anthropic(name, elems, o.Closed)
	case FormatOpenAI:
		b, err = openai(name, elems, o.Closed)
	case FormatMCP:
		b, err = mcpLog(name, elems, o.Closed)
	default:
		return Batches{}, &Error{Name: name, Msg: "no tool calls found, and the format cannot be told: want Anthropic Messages " +
			"(messages with tool_use / tool_result blocks), OpenAI Responses items (function_call / function_call_output) " +
			"or an MCP JSON-RPC log (one message a line); --format says which"}
	}
	if err != nil {
		return Batches{}, err
	}
	b.Format = format
	b.Notes = append(notes, b.Notes...)
	return b, nil
}

// unwrap finds the list of messages or items: the "messages" of an
// Anthropic request, the "output" of an OpenAI response or the "input" of
// a request, a bare array, or one value a line. format is set when the
// wrapper tells it.
func unwrap(name string, vals []decode.Value) ([]elem, string, []string, error) {
	var notes []string
	if len(vals) == 1 {
		v := vals[0]
		switch jsontext.Value(v.Raw).Kind() {
		case '[':
			es, err := elements(name, v, v.Raw, 0, "")
			return es, "", nil, err
		case '{':
			m, err := members(v.Raw)
			if err != nil {
				return nil, "", nil, at(name, v, "", "%v", err)
			}
			list := func(key string) ([]elem, error) {
				return elements(name, v, m[key].Raw, m[key].Offset, key)
			}
			switch {
			case m["messages"].Raw != nil:
				es, err := list("messages")
				return es, FormatAnthropic, nil, err
			case m["output"].Raw != nil:
				es, err := list("output")
				return es, FormatOpenAI, nil, err
			case m["input"].Raw != nil:
				if prev, ok, _ := str(m, "previous_response_id"); ok {
					notes = append(notes, fmt.Sprintf("this request continues response %s: the function calls it answers are in that "+
						"response, not here, so their outputs show as unknown: import the response's output items with it", prev))
				}
				if m["input"].Raw.Kind() == '"' {
					return nil, FormatOpenAI, notes, nil // a plain text input: no items
				}
				es, err := list("input")
				return es, FormatOpenAI, notes, err
			}
		}
	}
	var out []elem
	for _, v := range vals {
		if jsontext.Value(v.Raw).Kind() == '[' {
			// A JSON-RPC batch on one line.
			es, err := elements(name, v, v.Raw, 0, fmt.Sprintf("line %d", v.Line))
			if err != nil {
				return nil, "", nil, err
			}
			out = append(out, es...)
			continue
		}
		path := fmt.Sprintf("line %d", v.Line)
		if len(vals) == 1 {
			path = ""
		}
		out = append(out, elem{raw: v.Raw, v: v, off: 0, path: path})
	}
	return out, "", notes, nil
}

// elements lists the elements of an array value found at off in v.
func elements(name string, v decode.Value, raw jsontext.Value, off int64, path string) ([]elem, error) {
	if raw.Kind() != '[' {
		return nil, at(name, v, path, "want array, got %s", decode.JSONKind(raw.Kind()))
	}
	dec := jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true))
	if _, err := dec.ReadToken(); err != nil {
		return nil, at(name, v, path, "%v", err)
	}
	var out []elem
	for i := 0; dec.PeekKind() != ']'; i++ {
		val, err := dec.ReadValue()
		if err != nil {
			return nil, at(name, v, path, "%v", err)
		}
		val = bytes.Clone(val) // the decoder reuses its buffer
		start := dec.InputOffset() - int64(len(val))
		out = append(out, elem{raw: val, v: v, off: off + start, path: path + "[" + strconv.Itoa(i) + "]"})
	}
	return out, nil
}

// probe is what detection looks at in an element.
type probe struct {
	JSONRPC jsontext.Value `json:"jsonrpc"`
	Type    string         `json:"type"`
	Role    string         `json:"role"`
	Content jsontext.Value `json:"content"`
}

// detect tells the format from the elements: the tool-call markers of
// each format, else every element being JSON-RPC.
func detect(es []elem) string {
	votes := map[string]int{}
	rpc := 0
	for _, e := range es {
		var p probe
		if json.Unmarshal(e.raw, &p) != nil {
			continue
		}
		switch {
		case isSet(p.JSONRPC):
			rpc++
		case p.Type == "function_call" || p.Type == "function_call_output" || p.Type == "custom_tool_call" || p.Type == "custom_tool_call_output":
			votes[FormatOpenAI]++
		case p.Content.Kind() == '[':
			var blocks []probe
			if json.Unmarshal(p.Content, &blocks) == nil {
				for _, b := range blocks {
					if b.Type == "tool_use" || b.Type == "tool_result" || b.Type == "server_tool_use" {
						votes[FormatAnthropic]++
					}
				}
			}
		}
	}
	switch {
	case rpc > 0 && rpc == len(es):
		return FormatMCP
	case votes[FormatOpenAI] > 0 && votes[FormatAnthropic] == 0:
		return FormatOpenAI
	case votes[FormatAnthropic] > 0 && votes[FormatOpenAI] == 0:
		return FormatAnthropic
	}
	return ""
}

func isSet(v jsontext.Value) bool { return len(v) > 0 && v.Kind() != 'n' }

// block is an Anthropic content block, as far as the import reads it.
type block struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	ToolUseID string `json:"tool_use_id"`
}

type message struct {
	Role    string         `json:"role"`
	Content jsontext.Value `json:"content"`
}

// anthropic pairs each assistant turn's tool_use blocks with the
// tool_result blocks of the next user turn. A user turn with results that
// answers no tool_use turn is a batch of its own, with nothing requested.
func anthropic(name string, es []elem, closedAll bool) (Batches, error) {
	type turn struct {
		role            string
		uses, results   []string
		server, answers []string // server tools: both in the assistant turn
		e               elem
	}
	turns := make([]turn, len(es))
	for i, e := range es {
		var m message
		if err := unmarshal(name, e.v, e.raw, e.off, e.path, &m); err != nil {
			return Batches{}, err
		}
		if m.Role != "user" && m.Role != "assistant" {
			return Batches{}, e.errorf(name, "role", "want \"user\" or \"assistant\", got %q", m.Role)
		}
		t := turn{role: m.Role, e: e}
		if m.Content.Kind() == '[' {
			var blocks []block
			if err := unmarshal(name, e.v, m.Content, e.off+contentOffset(e.raw), join(e.path, "content"), &blocks); err != nil {
				return Batches{}, err
			}
			for j, b := range blocks {
				field := "content[" + strconv.Itoa(j) + "]"
				switch {
				case b.Type == "tool_use" && m.Role == "assistant":
					t.uses = append(t.uses, b.ID)
				case b.Type == "tool_use":
					return Batches{}, e.errorf(name, field, "a tool_use block in a user turn: only the assistant calls tools")
				case b.Type == "tool_result" && m.Role == "user":
					t.results = append(t.results, b.ToolUseID)
				case b.Type == "tool_result":
					return Batches{}, e.errorf(name, field, "a tool_result block in an assistant turn: results come in the next user turn")
				case (b.Type == "server_tool_use" || b.Type == "mcp_tool_use") && m.Role == "assistant":
					t.server = append(t.server, b.ID)
				case strings.HasSuffix(b.Type, "_tool_result") && b.ToolUseID != "":
					t.answers = append(t.answers, b.ToolUseID)
				}
			}
		}
		turns[i] = t
	}
	var out Batches
	answered := make([]bool, len(turns))
	for i, t := range turns {
		if len(t.server) > 0 || len(t.answers) > 0 {
			closed := closedAll || i+1 < len(turns)
			out.add(t.server, t.answers, closed, fmt.Sprintf("%s: server tools (server_tool_use and its result, both in this assistant turn)", t.e.place()))
		}
		if t.role == "user" && len(t.results) > 0 && !answered[i] {
			out.add(nil, t.results, true, fmt.Sprintf("%s: %d tool_result with no tool_use turn right before it", t.e.place(), len(t.results)))
		}
		if t.role != "assistant" || len(t.uses) == 0 {
			continue
		}
		switch {
		case i+1 < len(turns) && turns[i+1].role == "user":
			answered[i+1] = true
			out.add(t.uses, turns[i+1].results, true, fmt.Sprintf("%s: %d tool_use → %s: %d tool_result",
				t.e.place(), len(t.uses), turns[i+1].e.place(), len(turns[i+1].results)))
		case i+1 < len(turns):
			out.add(t.uses, nil, true, fmt.Sprintf("%s: %d tool_use → %s is another assistant turn, not the results",
				t.e.place(), len(t.uses), turns[i+1].e.place()))
		default:
			out.add(t.uses, nil, closedAll, fmt.Sprintf("%s: %d tool_use → no user turn yet (open)", t.e.place(), len(t.uses)))
		}
	}
	return out, nil
}

// contentOffset finds where "content" starts in a message's text.
func contentOffset(raw jsontext.Value) int64 {
	m, err := members(raw)
	if err != nil {
		return 0
	}
	return m["content"].Offset
}

// place names an element with its line.
func (e elem) place() string {
	line, _ := e.v.Position(e.off)
	if e.path == "" || strings.HasPrefix(e.path, "line ") {
		return fmt.Sprintf("line %d", line)
	}
	return fmt.Sprintf("%s (line %d)", e.path, line)
}

func (b *Batches) add(requested, results []string, closed bool, where string) {
	if requested == nil {
		requested = []string{}
	}
	if results == nil {
		results = []string{}
	}
	b.Batches = append(b.Batches, assess.AuditInput{Requested: requested, Results: results, Closed: closed})
	b.Where = append(b.Where, where)
}

// item is an OpenAI Responses item, as far as the import reads it.
type item struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	Role   string `json:"role"`
}

// openai groups a run of function calls with the run of outputs right
// after it; outputs anywhere else answer nothing in this transcript.
func openai(name string, es []elem, closedAll bool) (Batches, error) {
	items := make([]item, len(es))
	for i, e := range es {
		if err := unmarshal(name, e.v, e.raw, e.off, e.path, &items[i]); err != nil {
			return Batches{}, err
		}
	}
	isCall := func(t string) bool { return t == "function_call" || t == "custom_tool_call" }
	isOutput := func(t string) bool { return t == "function_call_output" || t == "custom_tool_call_output" }
	var out Batches
	hosted := 0
	for i := 0; i < len(items); {
		switch t := items[i].Type; {
		case isCall(t):
			start := i
			var calls, results []string
			for i < len(items) && (isCall(items[i].Type) || items[i].Type == "reasoning") {
				if isCall(items[i].Type) {
					calls = append(calls, items[i].CallID)
				}
				i++
			}
			callsEnd := i
			for i < len(items) && isOutput(items[i].Type) {
				results = append(results, items[i].CallID)
				i++
			}
			closed := closedAll || callsEnd < len(items)
			where := fmt.Sprintf("%s: %d function_call", es[start].place(), len(calls))
			switch {
			case len(results) > 0:
				where += fmt.Sprintf(" → %s: %d function_call_output", es[callsEnd].place(), len(results))
			case callsEnd < len(items):
				where += fmt.Sprintf(" → %s is a %s, not an output", es[callsEnd].place(), describeItem(items[callsEnd]))
			default:
				where += " → no output yet (open)"
			}
			out.add(calls, results, closed, where)
		case isOutput(t):
			start := i
			var results []string
			for i < len(items) && isOutput(items[i].Type) {
				results = append(results, items[i].CallID)
				i++
			}
			out.add(nil, results, true, fmt.Sprintf("%s: %d function_call_output with no function_call right before", es[start].place(), len(results)))
		default:
			if strings.HasSuffix(t, "_call") {
				hosted++
			}
			i++
		}
	}
	if hosted > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("%d hosted tool call items (web_search_call, file_search_call, ...) were left out: "+
			"the platform runs them and they carry their own result", hosted))
	}
	return out, nil
}

func describeItem(it item) string {
	switch {
	case it.Type == "message" && it.Role != "":
		return it.Role + " message"
	case it.Type == "" && it.Role != "":
		return it.Role + " message"
	case it.Type == "":
		return "item without a type"
	}
	return it.Type
}

// rpcMessage is a JSON-RPC message, as far as the import reads it.
type rpcMessage struct {
	JSONRPC jsontext.Value `json:"jsonrpc"`
	ID      jsontext.Value `json:"id"`
	Method  jsontext.Value `json:"method"`
	Result  jsontext.Value `json:"result"`
	Error   jsontext.Value `json:"error"`
}

// mcpLog makes one batch of a JSON-RPC log: every request id (a message
// with a method and an id) is requested, every response id is a result.
// The log is open unless closed: a cut log may have calls in flight.
func mcpLog(name string, es []elem, closed bool) (Batches, error) {
	type id struct {
		text   string
		isText bool
	}
	var requested, results []id
	var out Batches
	nullIDs, notifications := 0, 0
	for _, e := range es {
		var m rpcMessage
		if err := unmarshal(name, e.v, e.raw, e.off, e.path, &m); err != nil {
			return Batches{}, err
		}
		if !isSet(m.JSONRPC) {
			return Batches{}, e.errorf(name, "jsonrpc", "required: every message of an MCP log is JSON-RPC 2.0")
		}
		readID := func() (id, error) {
			switch m.ID.Kind() {
			case '"':
				var s string
				if err := json.Unmarshal(m.ID, &s); err != nil {
					return id{}, err
				}
				if s == "" {
					return id{}, fmt.Errorf("an empty id cannot be matched")
				}
				return id{s, true}, nil
			case '0':
				return id{string(m.ID), false}, nil
			}
			return id{}, fmt.Errorf("want string or number, got %s", decode.JSONKind(m.ID.Kind()))
		}
		switch {
		case isSet(m.Method) && !isSet(m.ID):
			notifications++
		case isSet(m.Method):
			x, err := readID()
			if err != nil {
				return Batches{}, e.errorf(name, "id", "%v", err)
			}
			requested = append(requested, x)
		case isSet(m.Result) || isSet(m.Error):
			if !isSet(m.ID) {
				nullIDs++
				continue
			}
			x, err := readID()
			if err != nil {
				return Batches{}, e.errorf(name, "id", "%v", err)
			}
			results = append(results, x)
		default:
			return Batches{}, e.errorf(name, "", "neither a request (method), a notification, nor a response (result or error)")
		}
	}
	// JSON-RPC's id 1 and "1" are different ids: show strings quoted when
	// a number with the same text is there too.
	numbers := map[string]bool{}
	for _, x := range append(append([]id(nil), requested...), results...) {
		if !x.isText {
			numbers[x.text] = true
		}
	}
	show := func(xs []id) []string {
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = x.text
			if x.isText && numbers[x.text] {
				s[i] = strconv.Quote(x.text)
			}
		}
		return s
	}
	state := "open: requests without a response are pending (--closed once the session is over)"
	if closed {
		state = "closed"
	}
	out.add(show(requested), show(results), closed, fmt.Sprintf("the whole log: %d requests, %d responses, %s", len(requested), len(results), state))
	if notifications > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("%d %s (no id) left out: nothing answers them", notifications, map[bool]string{true: "notification", false: "notifications"}[notifications == 1]))
	}
	if nullIDs > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("%d responses with id null (to a request that could not be read) cannot be matched and were left out", nullIDs))
	}
	out.Notes = append(out.Notes, "requests from both sides are counted: a server's requests to the client (sampling, elicitation, ping) need answers too")
	return out, nil
}

// JSONLines writes the batches as `toolgate audit` reads them, one a line.
func (b Batches) JSONLines() []byte {
	var buf bytes.Buffer
	for _, in := range b.Batches {
		_ = json.MarshalWrite(&buf, in, json.Deterministic(true))
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}
