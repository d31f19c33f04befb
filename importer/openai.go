package importer

import (
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// respItem is an OpenAI Responses item, as far as the import reads it.
type respItem struct {
	Type       string         `json:"type"`
	Role       string         `json:"role"`
	ID         jsontext.Value `json:"id"`
	CallID     jsontext.Value `json:"call_id"`
	ApprovalID jsontext.Value `json:"approval_request_id"`
}

// respEvent is a streaming event of the Responses API, or a Codex CLI
// rollout entry, around an item.
type respEvent struct {
	Type    string    `json:"type"`
	Item    *respItem `json:"item"`
	Payload *respItem `json:"payload"`
}

// responsesReader pairs the calls of OpenAI Responses items with their
// outputs by call_id: function calls, custom tool calls, and the tools
// the client runs (computer, local shell, shell, apply_patch) and MCP
// approval requests. An output answers a call anywhere after it, until a
// message item: the conversation has gone on, so a call still unanswered
// then is missing. Hosted tools (web search, file search, ...) are run by
// the platform and carry their own result: they are counted, not paired.
type responsesReader struct {
	r      *run
	codex  bool
	l      *ledger
	hosted map[string]int
	other  map[string]int
	// bodies
	responses  map[string]bool
	checked    *wrapper
	lastWasReq bool
	bodies     int
	events     int
	added      int
}

func newResponsesReader(r *run, codex bool) *responsesReader {
	return &responsesReader{r: r, codex: codex, l: newLedger(r, "calls", "outputs"), hosted: map[string]int{}, other: map[string]int{},
		responses: map[string]bool{}}
}

func (o *responsesReader) wrapperStart(w *wrapper) error {
	o.bodies++
	if w.response() {
		o.lastWasReq = false
		o.record(w)
		return nil
	}
	if o.bodies > 1 && w.prevID == "" && o.lastWasReq {
		return &Error{Name: o.r.name, Line: w.line, Column: w.col, Msg: "a second request body without previous_response_id: " +
			"it restates the conversation, so its calls would count twice. Import one request at a time (the last holds the whole conversation)"}
	}
	o.lastWasReq = true
	if w.prevID != "" {
		o.checked = w
		o.checkPrev(w)
	}
	return nil
}

func (o *responsesReader) record(w *wrapper) {
	if w.id != "" {
		o.responses[w.id] = true
	}
}

// checkPrev says what a request that continues a stored response means
// for its outputs.
func (o *responsesReader) checkPrev(w *wrapper) {
	if o.responses[w.prevID] {
		o.r.note("prev-"+w.prevID, "the request at line %d continues response %s, given before it: its outputs answer that response's calls", w.line, w.prevID)
		return
	}
	o.r.note("prev-"+w.prevID, "the request at line %d continues response %s, which is not in this input: the calls its outputs answer are in that response, "+
		"so they show as unknown. Put the response first: cat response.json request.json | toolgate import transcript "+
		"(GET /v1/responses/%s gives it)", w.line, w.prevID, w.prevID)
}

func (o *responsesReader) wrapperEnd(w *wrapper) error {
	if w.response() {
		o.record(w) // a streamed body may name its id after its list
		return nil
	}
	if w.prevID != "" && o.checked != w {
		o.checked = w
		o.checkPrev(w)
	}
	return nil
}

func (o *responsesReader) element(e *element) error {
	t := typeOf(e.raw)
	base := ""
	var it respItem
	switch {
	case o.codex || strings.HasPrefix(t, "response.") || codexTypes[t]:
		var ev respEvent
		if err := o.r.decodeAt(e, &ev); err != nil {
			return err
		}
		switch {
		case ev.Type == "response_item" && ev.Payload != nil:
			it, base = *ev.Payload, "/payload"
		case ev.Type == "response.output_item.done" && ev.Item != nil:
			o.events++
			o.added--
			it, base = *ev.Item, "/item"
		case ev.Type == "response.output_item.added":
			o.events++
			o.added++
			return nil
		default:
			if strings.HasPrefix(ev.Type, "response.") {
				o.events++
			}
			return nil
		}
	default:
		if err := o.r.decodeAt(e, &it); err != nil {
			return err
		}
	}
	return o.item(e, &it, base)
}

func (o *responsesReader) item(e *element, it *respItem, base string) error {
	line, _ := e.pos(0)
	id := func(v jsontext.Value, field string) (string, bool, error) {
		s, ok, err := idText(v)
		if err != nil {
			return "", false, o.r.at(e, base+field, "%v", err)
		}
		if !ok || s == "" {
			o.r.problem(o.r.at(e, base+field, "%s: %s; left out of the batch", it.Type, map[bool]string{true: "empty id", false: "no id"}[ok]))
			return "", false, nil
		}
		return s, true, nil
	}
	switch t := it.Type; {
	case responsesCalls[t] != "":
		v, field := it.CallID, "/call_id"
		if t == "mcp_approval_request" {
			v, field = it.ID, "/id"
		}
		s, ok, err := id(v, field)
		if err != nil || !ok {
			return err
		}
		first, ok, err := o.l.request(s, line)
		if err != nil {
			return err
		}
		if !ok {
			where := "an earlier batch"
			if first > 0 {
				where = fmt.Sprintf("line %d", first)
			}
			o.r.problem(o.r.at(e, base+field, "%s %q again (first at %s): a call_id is one call; left out the second time", t, s, where))
		}
	case responsesOutputs[t]:
		v, field := it.CallID, "/call_id"
		switch {
		case t == "mcp_approval_response":
			v, field = it.ApprovalID, "/approval_request_id"
		case t == "local_shell_call_output" && !isSet(it.CallID):
			v, field = it.ID, "/id" // its id is the call's call_id
		}
		s, ok, err := id(v, field)
		if err != nil || !ok {
			return err
		}
		if err := o.l.result(s, line, func() string { return e.place() }); err != nil {
			return err
		}
	case responsesHosted[t]:
		o.hosted[t]++
	case t == "message" || (t == "" && it.Role != ""):
		// The conversation goes on: calls still unanswered are missing.
		return o.l.close(true)
	case t == "reasoning" || t == "item_reference" || t == "compaction":
	case t == "":
		return o.r.at(e, base, "neither an item with a type nor a message with a role")
	default:
		o.other[t]++
	}
	return o.l.settle()
}

func (o *responsesReader) end() error {
	if n := sum(o.hosted); n > 0 {
		o.r.note("hosted", "%d hosted tool %s left out (%s): the platform runs them and they carry their own result",
			n, plural(n, "call", "calls"), countList(o.hosted))
	}
	if n := sum(o.other); n > 0 {
		o.r.note("other", "%d %s of a type toolgate does not know left out (%s)", n, plural(n, "item", "items"), countList(o.other))
	}
	if o.events > 0 {
		o.r.note("stream", "%d streaming events read: calls are read from response.output_item.done", o.events)
		if o.added > 0 {
			o.r.note("stream-cut", "%d output items were started and never done: the stream was cut", o.added)
		}
	}
	return o.l.close(o.r.o.Closed)
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func countList(m map[string]int) string {
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
	}
	return strings.Join(parts, ", ")
}
