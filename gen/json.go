package gen

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"unicode/utf8"
)

// The generators build a small JSON tree, mutate it, then write it. The
// tree keeps member order and allows a name twice, which a Go map cannot.
//
// A value is one of: *object, []any, string, number, bool, nil (null).

// object is a JSON object; its members keep their order, and a name may
// appear twice.
type object struct {
	members []member
}

// member is one name and value of an object. escaped asks for the name to
// be written with \u escapes, so that a name given twice can look different
// in the text.
type member struct {
	name    string
	value   any
	escaped bool
}

// number is a JSON number, written as is.
type number string

// obj builds an object from name, value pairs.
func obj(pairs ...any) *object {
	o := &object{}
	for i := 0; i+1 < len(pairs); i += 2 {
		o.set(pairs[i].(string), pairs[i+1])
	}
	return o
}

// index is the position of the first member called name, or -1.
func (o *object) index(name string) int {
	return slices.IndexFunc(o.members, func(m member) bool { return m.name == name })
}

// get is the value of the first member called name, and whether there is one.
func (o *object) get(name string) (any, bool) {
	if i := o.index(name); i >= 0 {
		return o.members[i].value, true
	}
	return nil, false
}

// set replaces the first member called name, or appends one.
func (o *object) set(name string, v any) {
	if i := o.index(name); i >= 0 {
		o.members[i].value = v
		return
	}
	o.members = append(o.members, member{name: name, value: v})
}

// del removes the first member called name.
func (o *object) del(name string) {
	if i := o.index(name); i >= 0 {
		o.members = slices.Delete(o.members, i, i+1)
	}
}

// writer writes a tree as JSON text. With r set it varies the text without
// changing the value: \u escapes in some strings, spaces and tabs between
// some tokens (never a line break: the text is one line of JSON Lines).
type writer struct {
	r      *rand.Rand
	b      []byte
	spaced bool
}

// write is the JSON text of v; r (which may be nil) varies its spelling.
func write(r *rand.Rand, v any) []byte {
	w := &writer{r: r}
	if r != nil {
		w.spaced = r.IntN(8) == 0
	}
	w.value(v)
	return w.b
}

func (w *writer) space() {
	if w.spaced && w.r.IntN(3) == 0 {
		w.b = append(w.b, " \t"[w.r.IntN(2)])
	}
}

func (w *writer) value(v any) {
	w.space()
	switch v := v.(type) {
	case nil:
		w.b = append(w.b, "null"...)
	case bool:
		w.b = strconv.AppendBool(w.b, v)
	case number:
		w.b = append(w.b, v...)
	case string:
		w.str(v, w.r != nil && w.r.IntN(16) == 0)
	case []any:
		w.b = append(w.b, '[')
		for i, e := range v {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.value(e)
		}
		w.space()
		w.b = append(w.b, ']')
	case *object:
		w.b = append(w.b, '{')
		for i, m := range v.members {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.space()
			w.str(m.name, m.escaped || (w.r != nil && w.r.IntN(32) == 0))
			w.space()
			w.b = append(w.b, ':')
			w.value(m.value)
		}
		w.space()
		w.b = append(w.b, '}')
	default:
		panic("gen: not a JSON value")
	}
}

// str writes s as a JSON string. Escaped, about half of its characters are
// written as \u escapes (all of them without r; a surrogate pair beyond the
// BMP); the rest, and every string otherwise, literally where JSON allows.
func (w *writer) str(s string, escaped bool) {
	const hex = "0123456789abcdef"
	u4 := func(c rune) {
		w.b = append(w.b, '\\', 'u', hex[c>>12&15], hex[c>>8&15], hex[c>>4&15], hex[c&15])
	}
	w.b = append(w.b, '"')
	for _, c := range s {
		switch {
		case escaped && (w.r == nil || w.r.IntN(2) == 0):
			if c > 0xffff {
				c -= 0x10000
				u4(0xd800 + c>>10)
				u4(0xdc00 + c&0x3ff)
			} else {
				u4(c)
			}
		case c == '"' || c == '\\':
			w.b = append(w.b, '\\', byte(c))
		case c == '\n':
			w.b = append(w.b, '\\', 'n')
		case c == '\r':
			w.b = append(w.b, '\\', 'r')
		case c == '\t':
			w.b = append(w.b, '\\', 't')
		case c < 0x20:
			u4(c)
		default:
			w.b = utf8.AppendRune(w.b, c)
		}
	}
	w.b = append(w.b, '"')
}

// pick is one of xs, uniformly.
func pick[T any](r *rand.Rand, xs ...T) T {
	return xs[r.IntN(len(xs))]
}

// chance is true with probability p.
func chance(r *rand.Rand, p float64) bool {
	return r.Float64() < p
}

// shuffle reorders the members of every object in v, recursively.
func shuffle(r *rand.Rand, v any) {
	switch v := v.(type) {
	case *object:
		r.Shuffle(len(v.members), func(i, j int) { v.members[i], v.members[j] = v.members[j], v.members[i] })
		for _, m := range v.members {
			shuffle(r, m.value)
		}
	case []any:
		for _, e := range v {
			shuffle(r, e)
		}
	}
}
