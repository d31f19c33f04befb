package importer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// rpcMessage is a JSON-RPC message, as far as the import reads it.
type rpcMessage struct {
	JSONRPC jsontext.Value `json:"jsonrpc"`
	ID      jsontext.Value `json:"id"`
	Method  jsontext.Value `json:"method"`
	Params  rpcParams      `json:"params"`
	Result  presence       `json:"result"`
	Error   presence       `json:"error"`
}

// presence records that a member is there and not null, and skips it.
type presence struct{ set bool }

func (p *presence) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	p.set = dec.PeekKind() != 'n'
	return dec.SkipValue()
}

// rpcParams keeps what notifications/cancelled says; the rest is skipped.
type rpcParams struct {
	requestID jsontext.Value
	reason    string
}

func (p *rpcParams) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if dec.PeekKind() != '{' {
		return dec.SkipValue()
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		switch tok.String() {
		case "requestId":
			v, err := dec.ReadValue()
			if err != nil {
				return err
			}
			p.requestID = jsontext.Value(append([]byte(nil), v...))
		case "reason":
			v, err := dec.ReadValue()
			if err != nil {
				return err
			}
			if v.Kind() == '"' {
				_ = json.Unmarshal(v, &p.reason)
			}
		default:
			if err := dec.SkipValue(); err != nil {
				return err
			}
		}
	}
	_, err := dec.ReadToken()
	return err
}

// Which side sends which MCP requests (ping goes both ways).
var (
	clientMethods = map[string]bool{"initialize": true, "tools/list": true, "tools/call": true, "resources/list": true,
		"resources/templates/list": true, "resources/read": true, "resources/subscribe": true, "resources/unsubscribe": true,
		"prompts/list": true, "prompts/get": true, "completion/complete": true, "logging/setLevel": true}
	serverMethods = map[string]bool{"roots/list": true, "sampling/createMessage": true, "elicitation/create": true}
)

// Sides of an MCP session. A request's id is unique among the requests
// its sender sent; the two sides number theirs apart (the official SDKs
// both from 0).
const (
	sideClient  = "client"
	sideServer  = "server"
	sideUnknown = "?"
)

func other(side string) string {
	switch side {
	case sideClient:
		return sideServer
	case sideServer:
		return sideClient
	}
	return sideUnknown
}

// mcpReader pairs the requests of an MCP session with their responses,
// each side's ids apart: SIDE:ID, where SIDE is the side that sent the
// request (client, server, or ? when the log does not say and the method
// does not tell) and ID the JSON-RPC id, a number as it is and a string
// as it is unless it could be read as a number or has quotes, spaces or
// control characters, then quoted (so 1 and "1" differ). A request
// cancelled with notifications/cancelled needs no answer. The batches
// follow the session: a batch closes when it has grown and every request
// in it is answered, or before it passes the batch limit (requests still
// waiting go on to the next).
type mcpReader struct {
	r       *run
	l       *ledger
	local   string // the side that wrote a read/write log
	guessed bool
	// counts for the notes
	notes, nullIDs, unsided, byOrder, lateCancel int
	cancelled                                    []string
	tags                                         map[string]int
}

func newMCPReader(r *run) *mcpReader {
	l := newLedger(r, "requests", "responses")
	max := r.o.MaxBatch
	if max <= 0 {
		max = DefaultMaxBatch
	}
	l.minBatch = max / 4
	return &mcpReader{r: r, l: l, tags: map[string]int{}}
}

func (m *mcpReader) wrapperStart(w *wrapper) error {
	return &Error{Name: m.r.name, Line: w.line, Column: w.col, Msg: fmt.Sprintf("a body with %q in an MCP log: want one JSON-RPC message a line", w.key)}
}
func (m *mcpReader) wrapperEnd(_ *wrapper) error { return nil }

// sender says which side sent a message, from the log's tag; "" when the
// log does not say.
func (m *mcpReader) sender(e *element, method string, request bool) string {
	switch e.tag {
	case "client", "server":
		return e.tag
	case "read", "write":
		if m.local == "" {
			// The first request whose method tells the side says whose log it is.
			switch {
			case request && clientMethods[method]:
				m.local = map[bool]string{true: sideClient, false: sideServer}[e.tag == "write"]
			case request && serverMethods[method]:
				m.local = map[bool]string{true: sideServer, false: sideClient}[e.tag == "write"]
			default:
				m.local, m.guessed = sideClient, true
			}
		}
		if e.tag == "write" {
			return m.local
		}
		return other(m.local)
	}
	return ""
}

func (m *mcpReader) element(e *element) error {
	var msg rpcMessage
	if err := m.r.decodeAt(e, &msg); err != nil {
		return err
	}
	if !isSet(msg.JSONRPC) {
		return e.errorf(m.r.name, 0, "jsonrpc", "required: every message of an MCP log is JSON-RPC 2.0")
	}
	if e.tag != "" {
		m.tags[e.tag]++
	}
	method := ""
	if isSet(msg.Method) {
		if msg.Method.Kind() != '"' {
			return m.r.at(e, "/method", "want string, got %s", jsonKindName(msg.Method.Kind()))
		}
		_ = json.Unmarshal(msg.Method, &method)
	}
	line, _ := e.pos(0)
	switch {
	case isSet(msg.Method) && !isSet(msg.ID):
		m.notes++
		if method == "notifications/cancelled" {
			return m.cancel(e, &msg)
		}
		return nil
	case isSet(msg.Method):
		id, err := encodeID(msg.ID)
		if err != nil {
			return m.r.at(e, "/id", "%v", err)
		}
		side := m.sender(e, method, true)
		if side == "" {
			switch {
			case clientMethods[method]:
				side = sideClient
			case serverMethods[method]:
				side = sideServer
			default:
				side = sideUnknown
				m.unsided++
			}
		}
		key := side + ":" + id
		first, ok, err := m.l.request(key, line)
		if err != nil {
			return err
		}
		if !ok {
			if side != sideUnknown {
				where := "in an earlier batch"
				if first > 0 {
					where = fmt.Sprintf("at line %d", first)
				}
				m.r.problem(m.r.at(e, "/id", "request id %s again from the %s (first %s): MCP forbids reusing an id in a session; left out the second time", id, side, where))
			}
		}
	case msg.Result.set || msg.Error.set:
		if !isSet(msg.ID) {
			m.nullIDs++
			return nil
		}
		id, err := encodeID(msg.ID)
		if err != nil {
			return m.r.at(e, "/id", "%v", err)
		}
		key := m.answers(e, id)
		if err := m.l.result(key, line, func() string { return e.place() }); err != nil {
			return err
		}
	default:
		return e.errorf(m.r.name, 0, "", "neither a request (method), a notification, nor a response (result or error)")
	}
	return m.l.settle()
}

// answers says which request a response with id answers: by the log's
// direction when it has one, else the waiting request of that id (the
// latest when both sides have one waiting: an inner request is answered
// first).
func (m *mcpReader) answers(e *element, id string) string {
	if s := m.sender(e, "", false); s != "" {
		return other(s) + ":" + id
	}
	best, bestSeq, n := "", -1, 0
	for _, side := range [...]string{sideClient, sideServer, sideUnknown} {
		if seq, ok := m.l.waiting(side + ":" + id); ok {
			n++
			if seq > bestSeq {
				best, bestSeq = side+":"+id, seq
			}
		}
	}
	if n > 1 {
		m.byOrder++
	}
	if best != "" {
		return best
	}
	// Nobody waits: a second answer, or an answer nobody asked for.
	for _, side := range [...]string{sideClient, sideServer, sideUnknown} {
		if seq, ok := m.l.answered(side + ":" + id); ok && seq >= bestSeq {
			best, bestSeq = side+":"+id, seq
		}
	}
	if best != "" {
		return best
	}
	return sideUnknown + ":" + id
}

// cancel reads notifications/cancelled: the sender takes back its own
// request, which then needs no answer.
func (m *mcpReader) cancel(e *element, msg *rpcMessage) error {
	if !isSet(msg.Params.requestID) {
		return m.r.at(e, "/params", "notifications/cancelled without params.requestId: which request is cancelled?")
	}
	id, err := encodeID(msg.Params.requestID)
	if err != nil {
		return m.r.at(e, "/params/requestId", "%v", err)
	}
	var keys []string
	if s := m.sender(e, "notifications/cancelled", false); s != "" {
		keys = []string{s + ":" + id}
	} else {
		bestSeq := -1
		for _, side := range [...]string{sideClient, sideServer, sideUnknown} {
			if seq, ok := m.l.waiting(side + ":" + id); ok && seq > bestSeq {
				keys, bestSeq = []string{side + ":" + id}, seq
			}
		}
	}
	for _, k := range keys {
		if m.l.cancel(k) {
			line, _ := e.pos(0)
			text := fmt.Sprintf("%s (line %d)", k, line)
			if msg.Params.reason != "" {
				text += ": " + clipText(msg.Params.reason, 60)
			}
			m.cancelled = append(m.cancelled, text)
			return m.l.settle()
		}
	}
	m.lateCancel++
	return nil
}

func (m *mcpReader) end() error {
	if err := m.l.close(m.r.o.Closed); err != nil {
		return err
	}
	if len(m.cancelled) > 0 {
		shown := m.cancelled
		if len(shown) > 10 {
			shown = shown[:10]
		}
		more := ""
		if len(m.cancelled) > 10 {
			more = fmt.Sprintf(" and %d more", len(m.cancelled)-10)
		}
		m.r.note("cancelled", "%d %s cancelled with notifications/cancelled, so not missing (the receiver need not answer): %s%s",
			len(m.cancelled), plural(len(m.cancelled), "request", "requests"), strings.Join(shown, "; "), more)
	}
	if m.l.dropped > 0 {
		m.r.note("dropped", "%d %s to cancelled requests left out (MCP: the sender ignores them)", m.l.dropped, plural(m.l.dropped, "response", "responses"))
	}
	if m.lateCancel > 0 {
		m.r.note("late-cancel", "%d notifications/cancelled for a request not waiting (answered already, or never sent): nothing to take back", m.lateCancel)
	}
	if m.notes > 0 {
		m.r.note("notifications", "%d %s (no id) left out: nothing answers them", m.notes, plural(m.notes, "notification", "notifications"))
	}
	if m.nullIDs > 0 {
		m.r.note("null", "%d %s with id null (to a request that could not be read) cannot be matched and were left out", m.nullIDs, plural(m.nullIDs, "response", "responses"))
	}
	switch {
	case m.tags["client"]+m.tags["server"] > 0:
		m.r.note("sides", "each message's side is the log's (Message from client / Message from server)")
	case m.tags["read"]+m.tags["write"] > 0:
		how := "its first request's method says so"
		if m.guessed {
			how = "guessed: no request's method says it; the other way round, read the sides swapped"
		}
		m.r.note("sides", "a connection's log (read: / write:): the side that wrote it is the %s (%s)", m.local, how)
	default:
		m.r.note("sides", "the log does not say who sent what: a request's side is its method's (tools/call is the client's, roots/list the server's), "+
			"a response answers the waiting request of its id")
		if m.unsided > 0 {
			m.r.note("unsided", "%d %s whose method either side may send (ping, or a method toolgate does not know) shown as ?:ID", m.unsided, plural(m.unsided, "request", "requests"))
		}
		if m.byOrder > 0 {
			m.r.note("by-order", "%d %s matched a waiting request of both sides: paired with the later one (an inner request is answered first)", m.byOrder, plural(m.byOrder, "response", "responses"))
		}
	}
	if m.l.forgot {
		m.r.note("forgot-ledger", "more than %d ids: the oldest were forgotten, so a late second response to one may show as unknown", MaxRemembered)
	}
	return nil
}

// encodeID writes a JSON-RPC id so that different ids never read alike:
// a number as its value's shortest form (1.0 is 1), a string as it is
// unless it could be taken for a number, starts with a quote, is empty or
// has a space or a control character — then quoted as JSON.
func encodeID(v jsontext.Value) (string, error) {
	switch v.Kind() {
	case '0':
		s := string(v)
		if isInteger(s) {
			if s == "-0" {
				return "0", nil
			}
			return s, nil
		}
		c := jsontext.Value(append([]byte(nil), v...))
		if err := c.Canonicalize(); err != nil {
			return "", err
		}
		return string(c), nil
	case '"':
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return "", err
		}
		if needsQuotes(s) {
			q, err := jsontext.AppendQuote(nil, s)
			if err != nil {
				return "", err
			}
			return string(q), nil
		}
		return s, nil
	default:
		return "", fmt.Errorf("want string or number, got %s", jsonKindName(v.Kind()))
	}
}

func isInteger(s string) bool {
	t := strings.TrimPrefix(s, "-")
	return t != "" && strings.Trim(t, "0123456789") == ""
}

func needsQuotes(s string) bool {
	if s == "" || s[0] == '"' {
		return true
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil || isJSONNumber(s) {
		return true
	}
	for _, r := range s {
		if r <= ' ' || r == 0x7f {
			return true
		}
	}
	return false
}

// isJSONNumber says whether s is a JSON number's text.
func isJSONNumber(s string) bool {
	return jsontext.Value(s).IsValid() && len(s) > 0 && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9'))
}
