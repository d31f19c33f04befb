package assess

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// Opt is an optional string member of an input: absent, or a string —
// the empty string "" included. The book's function compares an absent
// member (undefined) and a string as different values: absent equals only
// absent, a string only the same string. Opt keeps the two apart, and ==
// compares Opts exactly as the book compares the members.
type Opt struct {
	s  string
	ok bool
}

// Some is the member present with the string s.
func Some(s string) Opt { return Opt{s: s, ok: true} }

// Absent is the member left out.
var Absent Opt

// Get is the string and whether the member is present.
func (o Opt) Get() (string, bool) { return o.s, o.ok }

// Present reports whether the member is there.
func (o Opt) Present() bool { return o.ok }

// Is reports whether the member is present and equal to s.
func (o Opt) Is(s string) bool { return o.ok && o.s == s }

// Or is the string, or def when the member is absent.
func (o Opt) Or(def string) string {
	if o.ok {
		return o.s
	}
	return def
}

// IsZero reports whether the member is absent, so that a JSON encoder
// with omitzero leaves it out.
func (o Opt) IsZero() bool { return !o.ok }

// Quote is the member as an explanation shows it: the string quoted, or
// the word absent.
func (o Opt) Quote() string {
	if o.ok {
		return strconv.Quote(o.s)
	}
	return "absent"
}

// MarshalJSON writes the string. An absent member is left out by omitzero
// and is never written; written alone it is null.
func (o Opt) MarshalJSON() ([]byte, error) {
	if !o.ok {
		return []byte("null"), nil
	}
	return marshalNoHTML(o.s)
}

// marshalNoHTML is json.Marshal without the escapes of <, > and &, as
// every other JSON toolgate writes.
func marshalNoHTML(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// ErrNullString is the answer to a null where a string is expected: the
// book compares null and an absent member differently, so an input says
// absent by leaving the member out.
var ErrNullString = errors.New("null where a string is expected: leave the member out to say absent")

// UnmarshalJSON reads a string; null is an error (ErrNullString).
func (o *Opt) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return ErrNullString
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*o = Some(s)
	return nil
}
