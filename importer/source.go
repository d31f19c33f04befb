package importer

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// element is one message, item, event or log line of a transcript: a
// JSON value and where it is. raw is valid only during the call that
// hands it over.
type element struct {
	raw       []byte
	line, col int
	// key is the list it is an element of ("messages", "output", ...;
	// "" for a top-level array or a line of its own); index its place
	// in that list, -1 for none.
	key   string
	index int
	// tag is what the line said around the value: "client" or "server"
	// (a client's log), "read" or "write" (a connection's log), or
	// "event:NAME" (server-sent events).
	tag string
	// wrap is the request or response body it is in, nil for none.
	wrap *wrapper
}

// place names the element for a person: its line, and its path in a body.
func (e *element) place() string {
	switch {
	case e.key != "":
		return fmt.Sprintf("%s[%d] (line %d)", e.key, e.index, e.line)
	case e.index >= 0:
		return fmt.Sprintf("[%d] (line %d)", e.index, e.line)
	}
	return fmt.Sprintf("line %d", e.line)
}

// path names the element in an error's field path.
func (e *element) path() string {
	switch {
	case e.key != "":
		return e.key + "[" + strconv.Itoa(e.index) + "]"
	case e.index >= 0:
		return "[" + strconv.Itoa(e.index) + "]"
	}
	return ""
}

// pos is the line and column of byte off of the element.
func (e *element) pos(off int64) (int, int) { return posIn(e.raw, off, e.line, e.col) }

// errorf is an error at the element (at byte off of it; 0 for its start),
// naming field within it.
func (e *element) errorf(name string, off int64, field, format string, args ...any) *Error {
	line, col := e.pos(off)
	return &Error{Name: name, Line: line, Column: col, Path: join(e.path(), field), Msg: fmt.Sprintf(format, args...)}
}

// wrapper is a request or response body around a list of elements.
type wrapper struct {
	key       string // the list: messages, input, output, contents, choices, candidates
	line, col int
	n         int // 1 for the first body of the input
	// Small members, when present as strings.
	id, object, model, typ, prevID string
	// textInput: "input" is a string (a Responses request with no items).
	textInput bool
}

// response says whether the body is a model's answer (its list is what
// the model said) rather than a request (the conversation so far).
func (w *wrapper) response() bool {
	return w.key == "output" || w.key == "choices" || w.key == "candidates"
}

func (w *wrapper) String() string {
	kind := "request body"
	if w.response() {
		kind = "response body"
	}
	return fmt.Sprintf("the %s at line %d (%q)", kind, w.line, w.key)
}

// sink receives what the source reads.
type sink interface {
	element(e *element) error
	wrapperStart(w *wrapper) error
	wrapperEnd(w *wrapper) error
}

// listKeys are the members that hold a body's list of elements.
var listKeys = []string{"messages", "input", "output", "contents", "choices", "candidates"}

// source reads a transcript: JSON values (a body, an array, one a line),
// lines of a log with JSON after a prefix, server-sent events; and says
// what it skipped and where the input was cut.
type source struct {
	name string
	run  *run
	sc   *scanner
	out  sink
	// jsonl: 0 unknown, 1 one value a line, 2 values over lines.
	jsonl   int
	buf     []byte
	line    []byte
	bodies  int
	text    textLines
	sse     sse
	prefix  map[string]int // prefixed log lines by their prefix
	records int            // top-level values and log lines read
	// elementsOnly: the top-level values are messages, not bodies.
	elementsOnly bool
	// logErrors are a connection log's own error lines.
	logErrors []string
	// lineElements counts elements that are a line or an event of their
	// own, not an element of a body or an array.
	lineElements int
}

// textLines are lines that are not JSON: a banner, a stack trace, a log
// line without a message.
type textLines struct {
	n     int
	first []string
}

type sse struct {
	event     string
	data      []byte
	scan      valueScan
	line, col int
	pending   bool
	events    int
	done      bool
}

func (s *source) walk() error {
	for {
		s.sc.skipSpace()
		c, ok := s.sc.peek()
		if !ok {
			break
		}
		line, col := s.sc.pos()
		if c != '{' && c != '[' {
			if err := s.textLine(line); err != nil {
				return err
			}
			continue
		}
		atStart := col == 1
		// A log with text lines in it is read a line at a time: a
		// line that looks like JSON and is not is more of the text.
		textual := s.text.n > 0
		s.buf, ok = s.value(s.buf[:0], line, col, textual)
		if !ok {
			if s.run.cut != nil || s.run.fatal != nil {
				break
			}
			continue
		}
		if s.buf == nil { // a large document, streamed
			continue
		}
		if textual && !jsontext.Value(s.buf).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) {
			rest, _ := s.sc.readLine(nil, 200)
			s.textAt(line, append(s.buf, rest...))
			continue
		}
		s.records++
		if s.jsonl == 0 {
			s.jsonl = 2
			if atStart && bytes.IndexByte(s.buf, '\n') < 0 {
				s.jsonl = 1
			}
		}
		if err := s.dispatch(s.buf, line, col); err != nil {
			return err
		}
	}
	if err := s.flushSSE(); err != nil {
		return err
	}
	if s.run.fatal != nil {
		return s.run.fatal
	}
	if s.sc.rerr == errTooLarge {
		return &Error{Name: s.name, Msg: fmt.Sprintf("larger than %d MiB, the most toolgate imports", MaxTranscript>>20)}
	}
	if s.sc.rerr != nil {
		return &Error{Name: s.name, Msg: s.sc.rerr.Error()}
	}
	return nil
}

// value reads the top-level value at line:col. ok is false when it could
// not be read (the problem is recorded); the returned buffer is nil when
// the value was a document too large to hold, streamed instead.
func (s *source) value(dst []byte, line, col int, textual bool) ([]byte, bool) {
	if !s.elementsOnly && !textual && s.largeBody() {
		// A body larger than what is buffered, its list in sight: read
		// it one element at a time from the start.
		if err := s.stream(nil, line, col); err != nil {
			s.run.fatal = err
			return nil, false
		}
		return nil, true
	}
	raw, st, deep := s.sc.readValue(dst, MaxElement, MaxDepth, s.jsonl == 1 || textual)
	switch st {
	case scanOK:
		return raw, true
	case scanTooLarge:
		// A document larger than one element: read its list one
		// element at a time.
		if err := s.stream(raw, line, col); err != nil {
			s.run.fatal = err
			return nil, false
		}
		return nil, true
	case scanCut:
		s.run.cutAt(line, col, "the input ends inside the value that starts here: audited what came before it")
		return nil, false
	case scanBroken:
		rest, _ := s.sc.readLine(nil, 200)
		if textual {
			s.textAt(line, append(raw, rest...))
			return nil, false
		}
		s.run.problem(&Error{Name: s.name, Line: line, Column: col, Msg: "not a complete JSON value: the line ends inside it (cut when it was written?); skipped"})
		return nil, false
	case scanTooDeep:
		l, c := posIn(raw, deep, line, col)
		s.run.fatal = &Error{Name: s.name, Line: l, Column: c, Msg: fmt.Sprintf("nested deeper than %d levels", MaxDepth)}
		return nil, false
	default: // scanBad
		s.run.fatal = &Error{Name: s.name, Line: line, Column: col, Msg: describeStatus(st)}
		return nil, false
	}
}

// peekAhead is how much of a value is looked at before it is read, to
// tell a large body from a message.
const peekAhead = 64 << 10

// largeBody says whether the object the scanner is at is a body whose
// list starts within the next peekAhead bytes and that does not end
// there: too large to be worth holding whole.
func (s *source) largeBody() bool {
	head := s.sc.lookahead(peekAhead)
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	if end, st := valueEnd(head, MaxDepth); st == scanOK && end <= len(head) {
		return false // it ends in sight: read it whole
	}
	w := s.wrapperOf(head, 0, 0)
	return w != nil && !w.textInput
}

// dispatch hands over a whole top-level value: the elements of an array,
// a body's list, or the value itself.
func (s *source) dispatch(raw []byte, line, col int) error {
	if raw[0] == '[' {
		return s.array(raw, line, col, "", nil)
	}
	// Bodies come first or alone: once a line is a message of its own,
	// the lines after it are too (and are not searched for a body) — but
	// for a request body with its messages: a recorded run of a
	// stateless API is request, response, request, response, each
	// request restating the conversation (the reader leaves out what it
	// restates).
	if !s.elementsOnly || bytes.Contains(raw, []byte(`"messages"`)) {
		if w := s.wrapperOf(raw, line, col); w != nil {
			return s.body(raw, line, col, w)
		}
		s.elementsOnly = s.jsonl == 1
	}
	s.lineElements++
	return s.out.element(&element{raw: raw, line: line, col: col, index: -1})
}

// wrapperOf says whether an object is a body around a list, and which.
func (s *source) wrapperOf(raw []byte, line, col int) *wrapper {
	if !mayWrap(raw) {
		return nil
	}
	ms := topMembers(raw)
	has := func(k string) bool { _, ok := ms[k]; return ok }
	if has("jsonrpc") || has("call_id") {
		return nil
	}
	w := &wrapper{line: line, col: col}
	for _, k := range listKeys {
		m, ok := ms[k]
		if !ok {
			continue
		}
		switch {
		case k == "input" && m.kind == '"' && !has("type"):
			w.key, w.textInput = k, true
		case m.kind != '[':
			continue
		case (k == "input" || k == "output") && has("type") && !has("object"):
			continue // an item with an input or output of its own
		default:
			w.key = k
		}
		break
	}
	if w.key == "" {
		return nil
	}
	small := func(k string) string {
		m, ok := ms[k]
		if !ok || m.kind != '"' || m.end < 0 || m.end-m.start > 4096 {
			return ""
		}
		v, err := strconv.Unquote(string(raw[m.start:m.end]))
		if err != nil || !utf8.ValidString(v) {
			return ""
		}
		return v
	}
	w.id, w.object, w.model, w.typ, w.prevID = small("id"), small("object"), small("model"), small("type"), small("previous_response_id")
	return w
}

// mayWrap is a quick look for a list key anywhere in raw.
func mayWrap(raw []byte) bool {
	for _, k := range listKeys {
		if bytes.Contains(raw, []byte(`"`+k+`"`)) {
			return true
		}
	}
	return false
}

// span is where a top-level member's value is in an object's text.
type span struct {
	start, end int
	kind       byte
}

// topMembers finds the top-level members of an object: where each value
// is, and its kind ('"', '{', '[', '0' for a number or literal). The text
// is not checked here: a JSON decoder reads it afterwards. A cut object
// gives the members before the cut.
func topMembers(raw []byte) map[string]span {
	out := map[string]span{}
	eachMember(raw, func(key []byte, sp span) bool {
		k, err := strconv.Unquote(string(key))
		if err != nil {
			k = string(key[1 : len(key)-1])
		}
		if _, dup := out[k]; !dup {
			out[k] = sp
		}
		return true
	})
	return out
}

// findMember finds one top-level member, without building a map.
func findMember(raw []byte, name string) (span, bool) {
	var found span
	ok := false
	eachMember(raw, func(key []byte, sp span) bool {
		if len(key) == len(name)+2 && string(key[1:len(key)-1]) == name {
			found, ok = sp, true
			return false
		}
		return true
	})
	return found, ok
}

// eachMember calls f with each top-level member's quoted name and value,
// until f says stop.
func eachMember(raw []byte, f func(key []byte, sp span) bool) {
	i := 1
	for {
		for i < len(raw) && (isSpace(raw[i]) || raw[i] == ',') {
			i++
		}
		if i >= len(raw) || raw[i] != '"' {
			return
		}
		end, st := valueEnd(raw[i:], MaxDepth)
		if st != scanOK {
			return
		}
		key := raw[i : i+end]
		i += end
		for i < len(raw) && (isSpace(raw[i]) || raw[i] == ':') {
			i++
		}
		if i >= len(raw) {
			return
		}
		kind := raw[i]
		end, st = valueEnd(raw[i:], MaxDepth)
		if kind != '"' && kind != '{' && kind != '[' {
			kind = '0'
		}
		if st != scanOK {
			if kind == '[' || kind == '{' {
				f(key, span{start: i, end: -1, kind: kind}) // cut: where it starts
			}
			return
		}
		if !f(key, span{start: i, end: i + end, kind: kind}) {
			return
		}
		i += end
	}
}

// body hands over the list of a body held whole.
func (s *source) body(raw []byte, line, col int, w *wrapper) error {
	s.bodies++
	w.n = s.bodies
	if err := s.out.wrapperStart(w); err != nil {
		return err
	}
	if !w.textInput {
		m := topMembers(raw)[w.key]
		l, c := posIn(raw, int64(m.start), line, col)
		if err := s.array(raw[m.start:m.end], l, c, w.key, w); err != nil {
			return err
		}
	}
	return s.out.wrapperEnd(w)
}

// array hands over the elements of an array held whole.
func (s *source) array(raw []byte, line, col int, key string, w *wrapper) error {
	sc := subScanner(s.name, raw, line, col)
	return s.elements(sc, key, w, MaxDepth-1)
}

// elements reads an array at sc, one element at a time.
func (s *source) elements(sc *scanner, key string, w *wrapper, depth int) error {
	sc.peek()
	sc.take(1) // [
	var buf []byte
	for i := 0; ; i++ {
		sc.skipSpace()
		c, ok := sc.peek()
		if !ok {
			l, col := sc.pos()
			s.run.cutAt(l, col, fmt.Sprintf("the input ends inside the list, after %d elements: audited what came before", i))
			return nil
		}
		if c == ']' {
			sc.take(1)
			return nil
		}
		if i > 0 {
			if c != ',' {
				l, col := sc.pos()
				return &Error{Name: s.name, Line: l, Column: col, Msg: fmt.Sprintf("not JSON: want ',' or ']' after an element, got %q", c)}
			}
			sc.take(1)
			sc.skipSpace()
		}
		line, col := sc.pos()
		var st scanStatus
		var deep int64
		buf, st, deep = sc.readValue(buf[:0], MaxElement, depth, false)
		switch st {
		case scanOK:
		case scanCut:
			s.run.cutAt(line, col, fmt.Sprintf("the input ends inside element %d of the list: audited what came before it", i))
			return nil
		case scanTooDeep:
			l, c := posIn(buf, deep, line, col)
			return &Error{Name: s.name, Line: l, Column: c, Msg: fmt.Sprintf("nested deeper than %d levels", MaxDepth)}
		default:
			return &Error{Name: s.name, Line: line, Column: col, Msg: describeStatus(st)}
		}
		s.records++
		if err := s.out.element(&element{raw: buf, line: line, col: col, key: key, index: i, wrap: w}); err != nil {
			return err
		}
	}
}

// stream reads a document too large to hold: head is what was read of
// it, the rest follows in the scanner. Its list is read one element at a
// time.
func (s *source) stream(head []byte, line, col int) error {
	sc := s.sc
	if head != nil {
		old := s.sc
		rest := io.MultiReader(bytes.NewReader(append([]byte(nil), old.buf[old.i:old.n]...)), old.r)
		if old.eof {
			rest = bytes.NewReader(old.buf[old.i:old.n])
		}
		start := old.off - int64(len(head))
		sc = &scanner{name: s.name, r: io.MultiReader(bytes.NewReader(head), rest), buf: make([]byte, scanBuffer),
			off: start, line: line, lineStart: start - int64(col-1), max: old.max}
		s.sc = sc
	}
	s.jsonl = 2
	s.records++
	if c, _ := sc.peek(); c == '[' {
		return s.elements(sc, "", nil, MaxDepth-1)
	}
	// An object: its members one by one, until the list.
	sc.peek()
	sc.take(1)
	w := &wrapper{line: line, col: col}
	s.bodies++
	w.n = s.bodies
	started := false
	var val []byte
	for i := 0; ; i++ {
		sc.skipSpace()
		c, ok := sc.peek()
		if !ok {
			l, cc := sc.pos()
			s.run.cutAt(l, cc, "the input ends inside the body: audited what came before")
			break
		}
		if c == '}' {
			sc.take(1)
			break
		}
		if i > 0 {
			if c != ',' {
				l, cc := sc.pos()
				return &Error{Name: s.name, Line: l, Column: cc, Msg: fmt.Sprintf("not JSON: want ',' or '}' after a member, got %q", c)}
			}
			sc.take(1)
			sc.skipSpace()
		}
		kl, kc := sc.pos()
		var st scanStatus
		val, st, _ = sc.readValue(val[:0], 1<<20, 1, false)
		key, err := strconv.Unquote(string(val))
		if st != scanOK || err != nil {
			return &Error{Name: s.name, Line: kl, Column: kc, Msg: "not JSON: want a member name"}
		}
		sc.skipSpace()
		if c, ok := sc.peek(); !ok || c != ':' {
			l, cc := sc.pos()
			return &Error{Name: s.name, Line: l, Column: cc, Msg: "not JSON: want ':' after a member name"}
		}
		sc.take(1)
		sc.skipSpace()
		c, _ = sc.peek()
		if !started && c == '[' && slices.Contains(listKeys, key) {
			w.key = key
			started = true
			if err := s.out.wrapperStart(w); err != nil {
				return err
			}
			if err := s.elements(sc, key, w, MaxDepth-2); err != nil {
				return err
			}
			if s.run.cut != nil {
				break
			}
			continue
		}
		vl, vc := sc.pos()
		val, st, _ = sc.readValue(val[:0], MaxElement, MaxDepth-1, false)
		if st != scanOK {
			if st == scanCut {
				s.run.cutAt(vl, vc, "the input ends inside the body: audited what came before")
				break
			}
			return &Error{Name: s.name, Line: vl, Column: vc, Path: key, Msg: describeStatus(st)}
		}
		if val[0] == '"' && len(val) < 4096 {
			v, _ := strconv.Unquote(string(val))
			switch key {
			case "id":
				w.id = v
			case "object":
				w.object = v
			case "model":
				w.model = v
			case "type":
				w.typ = v
			case "previous_response_id":
				w.prevID = v
			}
		}
	}
	if !started {
		return &Error{Name: s.name, Line: line, Column: col, Msg: fmt.Sprintf("a value of more than %d MiB with no list of messages or items in it (%s)",
			MaxElement>>20, strings.Join(listKeys, ", "))}
	}
	return s.out.wrapperEnd(w)
}

// Log line prefixes, and the side each names.
var logPrefixes = []struct{ marker, tag string }{
	{"Message from client: ", "client"}, // Claude Desktop's MCP server logs
	{"Message from server: ", "server"},
}

// textLine reads a line that does not start with JSON: a server-sent
// event's field, a log line with a message in it, or text to skip.
func (s *source) textLine(line int) error {
	var long bool
	s.line, long = s.sc.readLine(s.line[:0], MaxElement)
	text := s.line
	if long {
		s.run.problem(&Error{Name: s.name, Line: line, Column: 1, Msg: fmt.Sprintf("a line longer than %d MiB; skipped", MaxElement>>20)})
		return nil
	}
	eofAfter := !s.sc.fill()
	// Server-sent events (text/event-stream).
	if field, value, ok := sseField(text); ok {
		switch field {
		case "data":
			return s.sseData(value, line, len(text)-len(value)+1, eofAfter)
		case "event":
			if err := s.flushSSE(); err != nil {
				return err
			}
			s.sse.event = string(value)
		}
		return nil
	}
	// A connection's log, as the Go SDK's LoggingTransport writes it.
	if bytes.HasPrefix(text, []byte("read error: ")) || bytes.HasPrefix(text, []byte("write error: ")) {
		if len(s.logErrors) < 5 {
			s.logErrors = append(s.logErrors, fmt.Sprintf("line %d: %s", line, clipText(string(text), 80)))
		}
		return nil
	}
	for _, p := range [...]string{"read: ", "write: "} {
		if bytes.HasPrefix(text, []byte(p)) {
			return s.prefixed(text, len(p), line, p[:len(p)-2], eofAfter)
		}
	}
	for _, p := range logPrefixes {
		if i := bytes.Index(text, []byte(p.marker)); i >= 0 {
			return s.prefixed(text, i+len(p.marker), line, p.tag, eofAfter)
		}
	}
	s.textAt(line, text)
	return nil
}

// textAt counts a line of text, keeping the first few for the note.
func (s *source) textAt(line int, text []byte) {
	s.text.n++
	if len(s.text.first) < 3 {
		s.text.first = append(s.text.first, fmt.Sprintf("line %d: %s", line, clipText(string(text), 60)))
	}
}

// sseField splits a server-sent event's line into its field and value:
// "data: {...}", "event: message", "id: 7", ": comment".
func sseField(line []byte) (string, []byte, bool) {
	if len(line) == 0 {
		return "", nil, false
	}
	if line[0] == ':' {
		return "comment", nil, true
	}
	i := bytes.IndexByte(line, ':')
	if i < 0 {
		return "", nil, false
	}
	switch field := string(line[:i]); field {
	case "data", "event", "id", "retry":
		v := line[i+1:]
		v = bytes.TrimPrefix(v, []byte{' '})
		return field, v, true
	}
	return "", nil, false
}

// sseData takes one data line of an event: a JSON value (or the end
// marker [DONE]). A value may go on over several data lines; it is
// scanned as it comes, and bounded.
func (s *source) sseData(value []byte, line, col int, eofAfter bool) error {
	if s.sse.pending {
		s.sse.data = append(s.sse.data, '\n')
		s.sse.scan.step([]byte{'\n'}, 0)
	} else {
		trimmed := bytes.TrimSpace(value)
		if string(trimmed) == "[DONE]" {
			s.sse.done = true
			return nil
		}
		if len(trimmed) == 0 || (trimmed[0] != '{' && trimmed[0] != '[') {
			s.textAt(line, value)
			return nil
		}
		value = trimmed
		s.sse.data = s.sse.data[:0]
		s.sse.scan = valueScan{maxDepth: MaxDepth}
		s.sse.line, s.sse.col, s.sse.pending = line, col+int(bytes.IndexByte(value, value[0])), true
	}
	if len(s.sse.data)+len(value) > MaxElement {
		s.sse.pending = false
		s.run.problem(&Error{Name: s.name, Line: s.sse.line, Column: s.sse.col, Msg: "event data: " + describeStatus(scanTooLarge) + "; skipped"})
		return nil
	}
	s.sse.data = append(s.sse.data, value...)
	if _, st, done := s.sse.scan.step(value, 0); !done && st == scanOK && !eofAfter {
		return nil // more data lines to come
	}
	return s.flushSSE()
}

// flushSSE hands over the pending event's data.
func (s *source) flushSSE() error {
	if !s.sse.pending {
		return nil
	}
	s.sse.pending = false
	data := bytes.TrimSpace(s.sse.data)
	end, st := valueEnd(data, MaxDepth)
	switch {
	case st == scanCut && s.sc.eof && !s.sc.fill():
		s.run.cutAt(s.sse.line, s.sse.col, "the input ends inside this event's data: audited the events before it")
		return nil
	case st != scanOK:
		s.run.problem(&Error{Name: s.name, Line: s.sse.line, Column: s.sse.col, Msg: "event data: " + describeStatus(st) + "; skipped"})
		return nil
	}
	if !jsontext.Value(data[:end]).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) {
		s.run.problem(&Error{Name: s.name, Line: s.sse.line, Column: s.sse.col, Msg: "event data is not JSON; skipped"})
		return nil
	}
	s.sse.events++
	s.records++
	tag := "event:" + s.sse.event
	if s.sse.event == "" {
		tag = "event:message"
	}
	s.lineElements++
	return s.out.element(&element{raw: data[:end], line: s.sse.line, col: s.sse.col, index: -1, tag: tag})
}

// prefixed hands over the JSON value that a log line holds after a
// prefix; what follows the value on the line is left.
func (s *source) prefixed(text []byte, at, line int, tag string, eofAfter bool) error {
	if s.prefix == nil {
		s.prefix = map[string]int{}
	}
	s.prefix[tag]++
	rest := text[at:]
	if len(rest) == 0 || (rest[0] != '{' && rest[0] != '[') {
		s.text.n++
		return nil
	}
	end, st := valueEnd(rest, MaxDepth)
	switch {
	case st == scanCut && eofAfter:
		s.run.cutAt(line, at+1, "the input ends inside the message on this line: audited the lines before it")
		return nil
	case st != scanOK:
		s.run.problem(&Error{Name: s.name, Line: line, Column: at + 1, Msg: "the message on this line is not a complete JSON value (cut when it was written?); skipped"})
		return nil
	}
	raw := rest[:end]
	if !jsontext.Value(raw).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) {
		s.run.problem(&Error{Name: s.name, Line: line, Column: at + 1, Msg: "the message on this line is not JSON; skipped"})
		return nil
	}
	s.records++
	if raw[0] == '[' {
		return s.array(raw, line, at+1, "", nil)
	}
	s.lineElements++
	return s.out.element(&element{raw: raw, line: line, col: at + 1, index: -1, tag: tag})
}

// clipText cuts s to n runes for a note.
func clipText(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
