// Package fastlane is the fast lane of toolgate's input check: one pass
// over an admission or audit input's text, without reflection, that
// accepts only what the strict decoder (decode.Input, decode.Audit)
// accepts and reads it to the same values. decode exports it as
// decode.Fast; the fuzz targets of decode hold it to the strict decoder
// on every input. A change of the input check is made in decode first,
// then here (docs/decision.md, "What to change").
package fastlane

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"unicode/utf8"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"

	"toolgate/assess"
	"toolgate/internal/limits"
)

// Fast decodes admission inputs in one pass over the text, without
// reflection and without building the arguments map: each argument is
// recorded by name with what rule 3 needs of its value (assess.Argument).
// It accepts only inputs that Input accepts, and decodes them to the same
// verdict; on anything else — not JSON, an unknown field, a wrong type, a
// missing field, a duplicate name — it says no, and the caller runs Input,
// whose error is the one every message and position comes from.
//
// It reads the shape of docs/decision.md §1 and checks the JSON grammar of what it
// reads itself; what it does not read itself it hands to jsontext, with
// the options Input uses: a string with escapes or bytes outside ASCII,
// a number, and an array or object inside arguments. The fuzz targets
// hold it to Input on every input.
//
// The input it returns, and every string in it, points into the data it
// was given and into the Fast itself: it is valid until the next call and
// while the data is unchanged. A Fast is not safe for concurrent use.
type Fast struct {
	// b is the text and i the read position in it.
	b []byte
	i int

	in    assess.Input
	appr  assess.Approval
	rec   assess.InvocationRecord
	tools []assess.Tool
	// names holds every tool's requiredArguments back to back.
	names []string
	args  []assess.Argument
	// text holds strings that had escapes, unescaped.
	text []byte

	audit AuditText
	// spans holds an audit's requested IDs, then its results; unescaped
	// lists those whose text is in f.text, and joined is the line with
	// f.text after it.
	spans     []assess.Span
	unescaped []int
	joined    []byte
}

// maxArguments is the most arguments Fast reads (each name is compared
// with the ones before it); more are read by Input.
const maxArguments = 32

// Input decodes one admission input, which must be all of data but for
// whitespace around it. ok is false when data is anything Input would not
// decode without an error, and for a few inputs Input reads itself: more
// than 32 arguments, a value nested deeper than limits.MaxDepth (which a Stream
// refuses).
func (f *Fast) Input(data []byte) (in *assess.Input, ok bool) {
	f.b, f.i = data, 0
	f.in = assess.Input{}
	f.tools, f.names, f.args, f.text = f.tools[:0], f.names[:0], f.args[:0], f.text[:0]
	f.space()
	if !f.input() {
		return nil, false
	}
	f.space()
	if f.i != len(f.b) {
		return nil, false
	}
	return &f.in, true
}

// AuditText is an audit input as Fast reads it: its IDs are spans of
// Text (assess.AuditSpans), which is the line read, or a copy of it with
// the IDs that had escapes unescaped after it.
type AuditText struct {
	Text               []byte
	Requested, Results []assess.Span
	Closed             bool
}

// Audit decodes one correlation-audit input as Audit does, under the
// same terms as Input: ok is false for anything Audit would not decode
// without an error.
func (f *Fast) Audit(data []byte) (in *AuditText, ok bool) {
	f.b, f.i = data, 0
	f.text = f.text[:0]
	if cap(f.spans) > 1<<16 || cap(f.joined) > 1<<20 || cap(f.text) > 1<<20 {
		// A large batch's lists and texts are not kept for the next.
		f.spans, f.unescaped, f.joined, f.text = nil, nil, nil, nil
	}
	f.spans, f.unescaped = f.spans[:0], f.unescaped[:0]
	if len(data) > 1<<16 {
		// Every ID has two quotes: the list grows once.
		f.spans = slices.Grow(f.spans, bytes.Count(data, quote)/2)
	}
	f.space()
	if !f.auditInput() {
		return nil, false
	}
	f.space()
	if f.i != len(f.b) || len(data)+len(f.text) > math.MaxUint32 {
		return nil, false
	}
	f.audit.Text = data
	if len(f.unescaped) > 0 {
		f.joined = append(append(f.joined[:0], data...), f.text...)
		f.audit.Text = f.joined
		for _, i := range f.unescaped {
			f.spans[i].Start += uint32(len(data))
			f.spans[i].End += uint32(len(data))
		}
	}
	return &f.audit, true
}

func (f *Fast) auditInput() bool {
	if !f.begin('{') {
		return false
	}
	f.audit = AuditText{Closed: true}
	var seen uint8
	var req, res [2]int // where each list is in f.spans
	for first := true; ; first = false {
		name, st := f.next(first)
		if st != more {
			if st == bad || seen&(m1|m2) != m1|m2 {
				return false
			}
			f.audit.Requested = f.spans[req[0]:req[1]:req[1]]
			f.audit.Results = f.spans[res[0]:res[1]:res[1]]
			return true
		}
		var bit uint8
		ok := false
		switch name {
		case "requested":
			req[0] = len(f.spans)
			bit, ok = m1, f.idList()
			req[1] = len(f.spans)
		case "results":
			res[0] = len(f.spans)
			bit, ok = m2, f.idList()
			res[1] = len(f.spans)
		case "closed":
			bit = m3
			switch f.at() {
			case 't':
				ok = f.literal("true")
			case 'f':
				ok = f.literal("false")
				f.audit.Closed = false
			}
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
	}
}

// idList reads a list of strings into f.spans.
func (f *Fast) idList() bool {
	if !f.begin('[') {
		return false
	}
	for first := true; ; first = false {
		switch f.elem(first) {
		case bad:
			return false
		case end:
			return true
		}
		if f.at() != '"' {
			return false
		}
		start, end, escaped, ok := f.stringAt()
		if !ok {
			return false
		}
		if escaped {
			f.unescaped = append(f.unescaped, len(f.spans))
		}
		f.spans = append(f.spans, assess.Span{Start: uint32(start), End: uint32(end)})
	}
}

var quote = []byte{'"'}

// What next and elem find.
const (
	bad  = iota // not JSON, or not the shape
	end         // the object or array ends
	more        // a member or element follows
)

// Bits of the members seen in one object, to find a duplicate.
const (
	m1 uint8 = 1 << iota
	m2
	m3
	m4
	m5
)

func (f *Fast) input() bool {
	if !f.begin('{') {
		return false
	}
	var seen uint8
	for first := true; ; first = false {
		name, st := f.next(first)
		if st != more {
			return st == end && seen&(m1|m2|m3) == m1|m2|m3
		}
		var bit uint8
		ok := false
		switch name {
		case "contract":
			bit, ok = m1, f.contract()
		case "request":
			bit, ok = m2, f.request()
		case "environment":
			bit, ok = m3, f.environment()
		case "approval":
			bit, ok = m4, f.null() || f.approval()
		case "invocationRecord":
			bit, ok = m5, f.null() || f.record()
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
	}
}

func (f *Fast) contract() bool {
	if !f.begin('{') {
		return false
	}
	var seen uint8
	for first := true; ; first = false {
		name, st := f.next(first)
		if st != more {
			return st == end && seen&m2 != 0
		}
		var bit uint8
		ok := false
		switch name {
		case "version":
			bit, ok = m1, f.opt(&f.in.Contract.Version)
		case "tools":
			bit, ok = m2, f.toolList()
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
	}
}

func (f *Fast) toolList() bool {
	if !f.begin('[') {
		return false
	}
	for first := true; ; first = false {
		switch f.elem(first) {
		case bad:
			return false
		case end:
			f.in.Contract.Tools = f.tools
			return true
		}
		if len(f.tools) == limits.MaxTools || !f.tool() {
			return false
		}
	}
}

func (f *Fast) tool() bool {
	if !f.begin('{') {
		return false
	}
	var t assess.Tool
	var seen uint8
	for first := true; ; first = false {
		name, st := f.next(first)
		if st != more {
			if st == bad || seen&(m1|m4) != m1|m4 {
				return false
			}
			f.tools = append(f.tools, t)
			return true
		}
		var bit uint8
		ok := false
		switch name {
		case "name":
			bit, ok = m1, f.str(&t.Name)
		case "version":
			bit, ok = m2, f.opt(&t.Version)
		case "effectClass":
			bit, ok = m3, f.opt(&t.EffectClass)
		case "requiredArguments":
			bit, ok = m4, f.required(&t.RequiredArguments)
		case "approvalScope":
			bit, ok = m5, f.opt(&t.ApprovalScope)
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
	}
}

// required reads a requiredArguments list: strings, "" and repeats
// included.
func (f *Fast) required(list *[]string) bool {
	if !f.begin('[') {
		return false
	}
	start := len(f.names)
	for first := true; ; first = false {
		switch f.elem(first) {
		case bad:
			return false
		case end:
			*list = f.names[start:len(f.names):len(f.names)]
			return true
		}
		if f.at() != '"' || len(f.names)-start == limits.MaxRequiredArguments {
			return false
		}
		s, ok := f.string()
		if !ok {
			return false
		}
		f.names = append(f.names, s)
	}
}

func (f *Fast) request() bool {
	if !f.begin('{') {
		return false
	}
	r := &f.in.Request
	var seen uint8
	for first := true; ; first = false {
		name, st := f.next(first)
		if st != more {
			return st == end && seen&(m1|m2) == m1|m2
		}
		var bit uint8
		ok := false
		switch name {
		case "correlationId":
			bit, ok = m1, f.str(&r.CorrelationID)
		case "tool":
			bit, ok = m2, f.toolRef()
		case "arguments":
			bit, ok = m3, f.null() || f.arguments()
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
	}
}

func (f *Fast) toolRef() bool {
	if !f.begin('{') {
		return false
	}
	r := &f.in.Request.Tool
	var seen uint8
	for first := true; ; first = false {
		name, st := f.next(first)
		if st != more {
			return st == end && seen&m1 != 0
		}
		var bit uint8
		ok := false
		switch name {
		case "name":
			bit, ok = m1, f.str(&r.Name)
		case "version":
			bit, ok = m2, f.opt(&r.Version)
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
	}
}

// arguments records each argument's name and what its value is.
func (f *Fast) arguments() bool {
	if !f.begin('{') {
		return false
	}
	for first := true; ; first = false {
		name, st := f.next(first)
		if st != more {
			f.in.Request.Given = f.args
			return st == end
		}
		if len(f.args) == maxArguments {
			return false
		}
		for _, a := range f.args {
			if a.Name == name {
				return false // a duplicate name
			}
		}
		why, value := "", ""
		switch f.at() {
		case '"':
			s, ok := f.string()
			if !ok {
				return false
			}
			if why = assess.WhyString(s); why == assess.WhyBlank {
				value = s
			}
		case 'n':
			why = assess.WhyNull
			if !f.literal("null") {
				return false
			}
		case 't':
			why = assess.WhyBool
			if !f.literal("true") {
				return false
			}
		case 'f':
			why = assess.WhyBool
			if !f.literal("false") {
				return false
			}
		case '[':
			why = assess.WhyArray
			if !f.nested() {
				return false
			}
		case '{':
			why = assess.WhyObject
			if !f.nested() {
				return false
			}
		default:
			why = assess.WhyNumber
			if !f.number() {
				return false
			}
		}
		f.args = append(f.args, assess.Argument{Name: name, Why: why, Value: value})
	}
}

func (f *Fast) environment() bool {
	if !f.begin('{') {
		return false
	}
	for first := true; ; first = false {
		name, st := f.next(first)
		if st != more {
			return st == end
		}
		if name != "status" || !first || !f.opt(&f.in.Environment.Status) {
			return false // unknown, or status twice
		}
	}
}

func (f *Fast) approval() bool {
	if !f.begin('{') {
		return false
	}
	f.in.Approval = &f.appr
	f.appr = assess.Approval{}
	var seen uint8
	for first := true; ; first = false {
		name, st := f.next(first)
		if st != more {
			return st == end && f.appr.Status != ""
		}
		var bit uint8
		ok := false
		switch name {
		case "status":
			bit, ok = m1, f.str(&f.appr.Status)
		case "scope":
			bit, ok = m2, f.opt(&f.appr.Scope)
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
	}
}

func (f *Fast) record() bool {
	if !f.begin('{') {
		return false
	}
	f.in.InvocationRecord = &f.rec
	f.rec = assess.InvocationRecord{}
	var seen uint8
	for first := true; ; first = false {
		name, st := f.next(first)
		if st != more {
			return st == end
		}
		var bit uint8
		ok := false
		switch name {
		case "correlationId":
			bit, ok = m1, f.opt(&f.rec.CorrelationID)
		case "status":
			bit, ok = m2, f.opt(&f.rec.Status)
		case "verificationStatus":
			bit, ok = m3, f.opt(&f.rec.VerificationStatus)
		case "effectStatus":
			bit, ok = m4, f.opt(&f.rec.EffectStatus)
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
	}
}

// next reads what follows in an object — after its '{' when first, else
// after a member's value: its end, or a comma (unless first), a member's
// name and the colon after it.
func (f *Fast) next(first bool) (name string, st int) {
	f.space()
	c := f.at()
	if c == '}' {
		f.i++
		return "", end
	}
	if !first {
		if c != ',' {
			return "", bad
		}
		f.i++
		f.space()
		c = f.at()
	}
	if c != '"' {
		return "", bad
	}
	name, ok := f.string()
	if !ok {
		return "", bad
	}
	f.space()
	if f.at() != ':' {
		return "", bad
	}
	f.i++
	f.space()
	return name, more
}

// elem reads what follows in an array — after its '[' when first, else
// after an element: its end, or a comma (unless first) and the space
// before the next element.
func (f *Fast) elem(first bool) int {
	f.space()
	c := f.at()
	if c == ']' {
		f.i++
		return end
	}
	if !first {
		if c != ',' {
			return bad
		}
		f.i++
		f.space()
	}
	return more
}

// at is the byte at the read position, 0 past the end (which no rule of
// the grammar accepts where at is asked).
func (f *Fast) at() byte {
	if f.i < len(f.b) {
		return f.b[f.i]
	}
	return 0
}

func (f *Fast) space() {
	for f.i < len(f.b) && isSpace(f.b[f.i]) {
		f.i++
	}
}

// begin reads an opening bracket if it is next.
func (f *Fast) begin(c byte) bool {
	if f.at() != c {
		return false
	}
	f.i++
	return true
}

// null reads a null if it is next.
func (f *Fast) null() bool {
	return f.at() == 'n' && f.literal("null")
}

func (f *Fast) literal(lit string) bool {
	if len(f.b)-f.i < len(lit) || string(f.b[f.i:f.i+len(lit)]) != lit {
		return false
	}
	f.i += len(lit)
	return true
}

// str reads a string; null is not one.
func (f *Fast) str(s *string) bool {
	if f.at() != '"' {
		return false
	}
	var ok bool
	*s, ok = f.string()
	return ok
}

// opt reads an optional member's string; null is not one.
func (f *Fast) opt(o *assess.Opt) bool {
	var s string
	if !f.str(&s) {
		return false
	}
	*o = assess.Some(s)
	return true
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// string reads the string at f.i: a slice of the input when it has no
// escapes, else unescaped into f.text.
func (f *Fast) string() (string, bool) {
	start, end, escaped, ok := f.stringAt()
	if escaped {
		return bytesString(f.text[start:end:end]), ok
	}
	return bytesString(f.b[start:end]), ok
}

// stringAt reads the string at f.i, eight bytes at a time: printable
// ASCII is checked here; a string with escapes is checked and unescaped
// by jsontext, one with other bytes is checked as UTF-8. Its text is
// f.b[start:end], or f.text[start:end] when it had escapes.
func (f *Fast) stringAt() (start, end int, escaped, ok bool) {
	b := f.b
	i := f.i + 1
	wide := false
	for {
		for i+8 <= len(b) {
			w := binary.LittleEndian.Uint64(b[i:])
			q := w ^ (ones * '"')
			s := w ^ (ones * '\\')
			// A high bit set at a quote, a backslash, a control
			// character and, until one is seen, a byte outside ASCII.
			m := (q - ones) &^ q
			m |= (s - ones) &^ s
			m |= (w - ones*0x20) &^ w
			if !wide {
				m |= w
			}
			if m &= highs; m != 0 {
				i += bits.TrailingZeros64(m) / 8
				break
			}
			i += 8
		}
		if i >= len(b) {
			return 0, 0, false, false
		}
		switch c := b[i]; {
		case c == '"':
			start := f.i
			f.i = i + 1
			if escaped {
				from := len(f.text)
				var err error
				if f.text, err = jsontext.AppendUnquote(f.text, b[start:i+1]); err != nil {
					return 0, 0, false, false
				}
				return from, len(f.text), true, true
			}
			if wide && !utf8.Valid(b[start+1:i]) {
				return 0, 0, false, false
			}
			return start + 1, i, false, true
		case c == '\\':
			escaped = true
			i += 2 // jsontext checks the escape
		case c < 0x20:
			return 0, 0, false, false
		default:
			wide = wide || c >= utf8.RuneSelf
			i++
		}
	}
}

// skipString moves past the string at f.i without checking it.
func (f *Fast) skipString() bool {
	for i := f.i + 1; i < len(f.b); i++ {
		switch f.b[i] {
		case '\\':
			i++
		case '"':
			f.i = i + 1
			return true
		}
	}
	return false
}

// nested reads an array or object inside arguments: its end is found by
// counting brackets, then jsontext checks it whole. It may nest at most
// limits.MaxDepth-3 levels (arguments are at depth 3).
func (f *Fast) nested() bool {
	start := f.i
	depth, most := 0, 0
	for f.i < len(f.b) {
		switch f.b[f.i] {
		case '"':
			if !f.skipString() {
				return false
			}
			continue
		case '{', '[':
			depth++
			most = max(most, depth)
		case '}', ']':
			depth--
			if depth == 0 {
				f.i++
				return most <= limits.MaxDepth-3 && jsontext.Value(f.b[start:f.i]).IsValid()
			}
		}
		f.i++
	}
	return false
}

// number reads a number, checked by jsontext.
func (f *Fast) number() bool {
	start := f.i
	for f.i < len(f.b) {
		switch f.b[f.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return jsontext.Value(f.b[start:f.i]).IsValid()
		}
		f.i++
	}
	return false
}

// bytesString is b as a string without a copy: b must not change while
// the string is in use.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
