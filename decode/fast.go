package decode

import (
	"bytes"
	"encoding/binary"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"

	"toolgate/assess"
)

// Fast decodes admission inputs in one pass over jsontext tokens, without
// reflection and without building the arguments map: each argument is
// recorded by name with what rule 3 needs of its value (assess.Argument).
// It accepts exactly the inputs Input accepts and decodes them to the
// same verdict; on anything else — not JSON, an unknown field, a wrong
// type, a missing field — it reports failure and the caller runs Input,
// whose error is then the one every message and position comes from.
//
// The input it returns, and every string in it, points into the data it
// was given and into the Fast itself: it is valid until the next call and
// while the data is unchanged. A Fast is not safe for concurrent use.
type Fast struct {
	dec jsontext.Decoder
	src bytes.Buffer

	in    assess.Input
	env   assess.Environment
	appr  assess.Approval
	rec   assess.InvocationRecord
	tools []assess.Tool
	// names holds every tool's requiredArguments back to back.
	names []string
	args  []assess.Argument
	// ptrs holds the strings that *string fields point to.
	ptrs []string
	// text holds strings that had escapes, unquoted.
	text []byte
}

// Input decodes one admission input, which must be all of data but for
// whitespace around it. ok is false when data is anything Input would not
// decode without an error (and for a few odd inputs it would: Input
// then says what they are).
func (f *Fast) Input(data []byte) (in *assess.Input, ok bool) {
	f.src = *bytes.NewBuffer(data)
	f.dec.Reset(&f.src)
	f.in = assess.Input{}
	f.tools, f.names, f.args, f.ptrs, f.text = f.tools[:0], f.names[:0], f.args[:0], f.ptrs[:0], f.text[:0]
	if cap(f.ptrs) == 0 {
		// Pointers into ptrs must stay valid while it grows: a grown
		// slice is a new array and the old one is kept by the pointers.
		f.ptrs = make([]string, 0, 16)
	}
	f.dec.PeekKind() // reads data into the decoder, for peek
	if !f.input() {
		return nil, false
	}
	// Nothing but whitespace may follow the value.
	for _, c := range data[f.dec.InputOffset():] {
		if !isSpace(c) {
			return nil, false
		}
	}
	return &f.in, true
}

// Fields of an input, as bits, so that a missing required one is found
// after the object is read.
const (
	haveContract uint8 = 1 << iota
	haveRequest
)

func (f *Fast) input() bool {
	var have uint8
	return f.object(func(name string) bool {
		switch name {
		case "contract":
			have |= haveContract
			return f.contract()
		case "request":
			have |= haveRequest
			return f.request()
		case "environment":
			if f.null() {
				return true
			}
			f.env = assess.Environment{}
			f.in.Environment = &f.env
			return f.object(func(name string) bool {
				return name == "status" && f.str(&f.env.Status)
			})
		case "approval":
			if f.null() {
				return true
			}
			f.appr = assess.Approval{}
			f.in.Approval = &f.appr
			return f.object(func(name string) bool {
				switch name {
				case "status":
					return f.str(&f.appr.Status)
				case "scope":
					return f.ptr(&f.appr.Scope)
				}
				return false
			})
		case "invocationRecord":
			if f.null() {
				return true
			}
			f.rec = assess.InvocationRecord{}
			f.in.InvocationRecord = &f.rec
			return f.object(func(name string) bool {
				switch name {
				case "correlationId":
					return f.str(&f.rec.CorrelationID)
				case "status":
					return f.str(&f.rec.Status)
				case "verificationStatus":
					return f.ptr(&f.rec.VerificationStatus)
				case "effectStatus":
					return f.ptr(&f.rec.EffectStatus)
				}
				return false
			})
		}
		return false
	}) && have == haveContract|haveRequest
}

func (f *Fast) contract() bool {
	tools := false
	return f.object(func(name string) bool {
		switch name {
		case "version":
			return f.str(&f.in.Contract.Version)
		case "tools":
			tools = true
			return f.toolList()
		}
		return false
	}) && tools
}

func (f *Fast) toolList() bool {
	if !f.begin('[') {
		return false
	}
	for f.peek() == '{' {
		var t assess.Tool
		if !f.object(func(name string) bool {
			switch name {
			case "name":
				return f.str(&t.Name)
			case "version":
				return f.str(&t.Version)
			case "effectClass":
				return f.str(&t.EffectClass)
			case "requiredArguments":
				return f.required(&t.RequiredArguments)
			case "approvalScope":
				return f.ptr(&t.ApprovalScope)
			}
			return false
		}) || t.Name == "" {
			return false
		}
		f.tools = append(f.tools, t)
	}
	f.in.Contract.Tools = f.tools
	return f.begin(']')
}

// required reads a requiredArguments list: non-empty strings, or null.
func (f *Fast) required(list *[]string) bool {
	if f.null() {
		return true
	}
	if !f.begin('[') {
		return false
	}
	start := len(f.names)
	for f.peek() == '"' {
		var s string
		if !f.str(&s) || s == "" {
			return false
		}
		f.names = append(f.names, s)
	}
	*list = f.names[start:len(f.names):len(f.names)]
	return f.begin(']')
}

func (f *Fast) request() bool {
	tool := false
	r := &f.in.Request
	return f.object(func(name string) bool {
		switch name {
		case "correlationId":
			return f.str(&r.CorrelationID)
		case "tool":
			tool = true
			return f.object(func(name string) bool {
				switch name {
				case "name":
					return f.str(&r.Tool.Name)
				case "version":
					return f.str(&r.Tool.Version)
				}
				return false
			})
		case "arguments":
			return f.null() || f.arguments()
		}
		return false
	}) && tool && r.CorrelationID != "" && r.Tool.Name != ""
}

// arguments records each argument's name and what its value is.
func (f *Fast) arguments() bool {
	ok := f.members(func(name string) bool {
		v, err := f.dec.ReadValue()
		if err != nil {
			return false
		}
		why := ""
		switch v[0] {
		case '"':
			if len(v) == 2 {
				why = assess.WhyEmpty
			}
		case 'n':
			why = assess.WhyNull
		case 't', 'f':
			why = assess.WhyBool
		case '[':
			why = assess.WhyArray
		case '{':
			why = assess.WhyObject
		default:
			why = assess.WhyNumber
		}
		// Arguments sit at depth 3: a value may nest MaxDepth-3 more.
		if len(v) > 2*(MaxDepth-3) && depthOf(v) > MaxDepth-3 {
			return false
		}
		f.args = append(f.args, assess.Argument{Name: name, Why: why})
		return true
	}, true)
	f.in.Request.Given = f.args
	return ok
}

// object reads an object and hands each member's name to field, which
// reads the value or returns false for a name it does not know.
func (f *Fast) object(field func(name string) bool) bool {
	return f.members(field, false)
}

// members reads an object; keep says the names are kept (so they are
// unquoted before field sees them), else they are only compared.
func (f *Fast) members(field func(name string) bool, keep bool) bool {
	if !f.begin('{') {
		return false
	}
	for f.peek() != '}' {
		v, err := f.dec.ReadValue()
		if err != nil || v[0] != '"' {
			return false
		}
		if keep {
			if !field(f.unquote(v)) {
				return false
			}
			continue
		}
		// A known name has no escapes: an escaped one is compared again
		// once unescaped.
		if !field(bytesString(v[1:len(v)-1])) && (!hasEscape(v) || !field(f.unescape(v))) {
			return false
		}
	}
	return f.begin('}')
}

// peek is the first byte of the next token, after whitespace and a comma
// or colon; the decoder checks them when the token is read.
func (f *Fast) peek() byte {
	for _, c := range f.dec.UnreadBuffer() {
		switch c {
		case ' ', '\t', '\n', '\r', ',', ':':
			continue
		}
		return c
	}
	return 0
}

// str reads a string, or null as "".
func (f *Fast) str(s *string) bool {
	v, err := f.dec.ReadValue()
	if err != nil {
		return false
	}
	switch v[0] {
	case '"':
		*s = f.unquote(v)
		return true
	case 'n':
		*s = ""
		return true
	}
	return false
}

// ptr reads an optional string: null is nil.
func (f *Fast) ptr(p **string) bool {
	v, err := f.dec.ReadValue()
	if err != nil {
		return false
	}
	switch v[0] {
	case '"':
		f.ptrs = append(f.ptrs, f.unquote(v))
		*p = &f.ptrs[len(f.ptrs)-1]
		return true
	case 'n':
		*p = nil
		return true
	}
	return false
}

// null reads a null if one is next.
func (f *Fast) null() bool {
	if f.peek() != 'n' {
		return false
	}
	_, err := f.dec.ReadToken()
	return err == nil
}

// begin reads a delimiter if it is next.
func (f *Fast) begin(delim byte) bool {
	if f.peek() != delim {
		return false
	}
	_, err := f.dec.ReadToken()
	return err == nil
}

// unquote is the text of a JSON string: a slice of the input when it has
// no escapes, else unescaped into f.text.
func (f *Fast) unquote(v jsontext.Value) string {
	if !hasEscape(v) {
		return bytesString(v[1 : len(v)-1])
	}
	return f.unescape(v)
}

func (f *Fast) unescape(v jsontext.Value) string {
	start := len(f.text)
	var err error
	if f.text, err = jsontext.AppendUnquote(f.text, v); err != nil {
		return "" // cannot happen: the decoder checked the string
	}
	return bytesString(f.text[start:len(f.text):len(f.text)])
}

// hasEscape reports whether a string has a backslash, eight bytes at a
// time.
func hasEscape(v []byte) bool {
	const ones, highs, slashes = 0x0101010101010101, 0x8080808080808080, 0x5c5c5c5c5c5c5c5c
	for len(v) >= 8 {
		w := binary.LittleEndian.Uint64(v) ^ slashes // a zero byte where v has a backslash
		if (w-ones)&^w&highs != 0 {
			return true
		}
		v = v[8:]
	}
	for _, c := range v {
		if c == '\\' {
			return true
		}
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

// depthOf is how deeply brackets nest in a JSON value.
func depthOf(v []byte) int {
	depth, most, inString := 0, 0, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			most = max(most, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return most
}
