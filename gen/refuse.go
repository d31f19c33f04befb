package gen

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// The input check's schema (docs/decision.md §1), which the refusals break one
// place at a time.

type kind uint8

const (
	kString    kind = iota + 1 // a string, required
	kOptString                 // absent or a string
	kObject                    // an object, required
	kOptObject                 // absent, null or an object
	kArray                     // an array, required
	kBool                      // absent or a boolean (an audit's closed)
)

type shape struct {
	kind    kind
	members []field // an object's known members; none when free
	free    bool    // any members, any values (request.arguments)
	elem    *shape  // an array's elements
}

type field struct {
	name  string
	shape *shape
}

func (s *shape) field(name string) *shape {
	for _, f := range s.members {
		if f.name == name {
			return f.shape
		}
	}
	return nil
}

func (s *shape) names() []string {
	names := make([]string, len(s.members))
	for i, f := range s.members {
		names[i] = f.name
	}
	return names
}

var (
	stringShape    = &shape{kind: kString}
	optStringShape = &shape{kind: kOptString}
	admissionShape = &shape{kind: kObject, members: []field{
		{"contract", &shape{kind: kObject, members: []field{
			{"version", optStringShape},
			{"tools", &shape{kind: kArray, elem: &shape{kind: kObject, members: []field{
				{"name", stringShape},
				{"version", optStringShape},
				{"effectClass", optStringShape},
				{"requiredArguments", &shape{kind: kArray, elem: stringShape}},
				{"approvalScope", optStringShape},
			}}}},
		}}},
		{"request", &shape{kind: kObject, members: []field{
			{"correlationId", stringShape},
			{"tool", &shape{kind: kObject, members: []field{{"name", stringShape}, {"version", optStringShape}}}},
			{"arguments", &shape{kind: kOptObject, free: true}},
		}}},
		{"environment", &shape{kind: kObject, members: []field{{"status", optStringShape}}}},
		{"approval", &shape{kind: kOptObject, members: []field{{"status", stringShape}, {"scope", optStringShape}}}},
		{"invocationRecord", &shape{kind: kOptObject, members: []field{
			{"correlationId", optStringShape},
			{"status", optStringShape},
			{"effectStatus", optStringShape},
			{"verificationStatus", optStringShape},
		}}},
	}}
	auditShape = &shape{kind: kObject, members: []field{
		{"requested", &shape{kind: kArray, elem: stringShape}},
		{"results", &shape{kind: kArray, elem: stringShape}},
		{"closed", &shape{kind: kBool}},
	}}
)

// slot is a place in a tree that holds a value of a known shape: a member
// of an object (parent, name) or an element of an array (array, index).
type slot struct {
	path   string
	shape  *shape
	parent *object
	name   string
	array  []any
	index  int
}

func (s slot) set(v any) {
	if s.parent != nil {
		s.parent.set(s.name, v)
	} else {
		s.array[s.index] = v
	}
}

// shaped is an object of a known shape.
type shaped struct {
	object *object
	shape  *shape
	path   string
}

// collection is what a refusal can break in a tree.
type collection struct {
	objects []*object // every object, request.arguments' values included
	shaped  []shaped
	slots   []slot
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func (c *collection) collect(v any, s *shape, path string) {
	switch v := v.(type) {
	case *object:
		c.objects = append(c.objects, v)
		if s == nil || s.free {
			for _, m := range v.members {
				c.collect(m.value, nil, join(path, m.name))
			}
			return
		}
		c.shaped = append(c.shaped, shaped{v, s, path})
		for _, m := range v.members {
			if f := s.field(m.name); f != nil {
				c.slots = append(c.slots, slot{path: join(path, m.name), shape: f, parent: v, name: m.name})
				c.collect(m.value, f, join(path, m.name))
			}
		}
	case []any:
		var e *shape
		if s != nil {
			e = s.elem
		}
		for i, x := range v {
			p := path + "[" + strconv.Itoa(i) + "]"
			if e != nil {
				c.slots = append(c.slots, slot{path: p, shape: e, array: v, index: i})
			}
			c.collect(x, e, p)
		}
	}
}

// slotsOf are the slots of the given kinds; members only when members.
func (c *collection) slotsOf(members bool, kinds ...kind) []slot {
	var out []slot
	for _, s := range c.slots {
		if slices.Contains(kinds, s.shape.kind) && (!members || s.parent != nil) {
			out = append(out, s)
		}
	}
	return out
}

// duplicate gives some member of some object a second time, with the same
// value or another, its name now and then spelled with \u escapes.
func (c *collection) duplicate(r *rand.Rand) {
	var candidates []*object
	for _, o := range c.objects {
		if len(o.members) > 0 {
			candidates = append(candidates, o)
		}
	}
	o := pick(r, candidates...)
	m := pick(r, o.members...)
	d := member{name: m.name, value: m.value, escaped: chance(r, 0.3)}
	if chance(r, 0.5) {
		d.value = pick(r, "ready", "active", "read_only", "request-1", "v1", "x")
	}
	o.members = slices.Insert(o.members, r.IntN(len(o.members)+1), d)
}

// unknown adds a member that the object's shape does not know, mostly a
// misspelt known name, or misspells a member that is there.
func (c *collection) unknown(r *rand.Rand) {
	s := pick(r, c.shaped...)
	known := s.shape.names()
	taken := func(name string) bool {
		return slices.Contains(known, name) || s.object.index(name) >= 0
	}
	name := ""
	for range 16 {
		if chance(r, 0.75) {
			name = misspell(r, pick(r, known...))
		} else {
			name = pick(r, "extra", "名前", "comment", "__proto__", "", "toString")
		}
		if !taken(name) {
			break
		}
	}
	for taken(name) {
		name += "_"
	}
	if len(s.object.members) > 0 && chance(r, 0.4) {
		i := r.IntN(len(s.object.members))
		s.object.members[i].name = name
		return
	}
	v := any(pick(r, "ready", "request-other", "x"))
	if chance(r, 0.2) {
		v = obj()
	}
	s.object.members = slices.Insert(s.object.members, r.IntN(len(s.object.members)+1), member{name: name, value: v})
}

// misspell is name with one typing slip: two letters swapped, one
// dropped or doubled, a letter's case changed, an s added, or snake_case.
func misspell(r *rand.Rand, name string) string {
	b := []rune(name)
	n := len(b)
	switch r.IntN(6) {
	case 0:
		if n > 1 {
			i := r.IntN(n - 1)
			b[i], b[i+1] = b[i+1], b[i]
		}
	case 1:
		i := r.IntN(n)
		b = slices.Delete(b, i, i+1)
	case 2:
		i := r.IntN(n)
		b = slices.Insert(b, i, b[i])
	case 3:
		i := r.IntN(n)
		if s := strings.ToUpper(string(b[i])); s != string(b[i]) {
			b[i] = []rune(s)[0]
		} else {
			b[i] = []rune(strings.ToLower(string(b[i])))[0]
		}
	case 4:
		b = append(b, 's')
	default:
		var out []rune
		for _, c := range b {
			if c >= 'A' && c <= 'Z' {
				out = append(out, '_', c-'A'+'a')
			} else {
				out = append(out, c)
			}
		}
		b = out
	}
	return string(b)
}

// wrongType puts a value of another JSON type in a slot; null only where
// it is not absent (an object or array required) and not a string's.
func (c *collection) wrongType(r *rand.Rand) {
	s := pick(r, c.slots...)
	s.set(wrongValue(r, s.shape.kind))
}

func wrongValue(r *rand.Rand, k kind) any {
	switch k {
	case kString, kOptString:
		return pick[any](r, number("1"), true, []any{}, []any{"x"}, obj(), number("0"))
	case kObject:
		return pick[any](r, nil, "x", number("2"), []any{}, false, "{}")
	case kOptObject:
		return pick[any](r, "x", number("2"), []any{}, true, "")
	case kArray:
		return pick[any](r, nil, obj(), "x", number("3"), "[]")
	default: // kBool
		return pick[any](r, "true", number("1"), nil, []any{}, obj())
	}
}

// nullString puts null where a string goes: in place of a string, or as
// an optional string member that was absent.
func (c *collection) nullString(r *rand.Rand) {
	var absent []slot
	for _, s := range c.shaped {
		for _, f := range s.shape.members {
			if f.shape.kind == kOptString && s.object.index(f.name) < 0 {
				absent = append(absent, slot{parent: s.object, name: f.name})
			}
		}
	}
	texts := c.slotsOf(false, kString, kOptString)
	if len(absent) > 0 && (len(texts) == 0 || chance(r, 0.3)) {
		pick(r, absent...).set(nil)
		return
	}
	pick(r, texts...).set(nil)
}

// required removes a member that the input check requires, other than an
// approval's status (approvalStatus's class).
func (c *collection) required(r *rand.Rand) {
	var candidates []slot
	for _, s := range c.slotsOf(true, kString, kObject, kArray) {
		if s.path != "approval.status" {
			candidates = append(candidates, s)
		}
	}
	s := pick(r, candidates...)
	s.parent.del(s.name)
}

// approvalStatus gives an approval whose status is absent or "".
func approvalStatus(r *rand.Rand, root *object) {
	if v, ok := root.get("approval"); ok {
		if a, ok := v.(*object); ok {
			if chance(r, 0.5) {
				a.del("status")
			} else {
				a.set("status", "")
			}
			return
		}
	}
	root.set("approval", pick(r, obj("status", ""), obj("scope", "metadata_write"), obj(), obj("scope", "", "status", "")))
}

// corrupt makes the JSON text of an object not JSON, keeping it one
// non-blank line: cut short, a trailing comma or garbage, a raw control
// character or a byte that is not UTF-8 in a string, an unpaired surrogate
// escape, a number or literal JSON lacks, a comment or a byte order mark,
// single quotes.
func corrupt(r *rand.Rand, text []byte) []byte {
	open := bytes.IndexByte(text, '{')
	quote := bytes.IndexByte(text, '"')
	end := bytes.LastIndexByte(text, '}')
	insert := func(at int, s string) []byte {
		return slices.Concat(text[:at], []byte(s), text[at:])
	}
	switch r.IntN(10) {
	case 0:
		return text[:open+1+r.IntN(end-open)]
	case 1:
		return insert(end, ",")
	case 2:
		return append(text, pick(r, " x", "}", " {}", "0", ",")...)
	case 3:
		return insert(quote+1, pick(r, "\t", "\x01", "\x1f", "a\x00"))
	case 4:
		return insert(quote+1, pick(r, "\xff", "\xc3", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80"))
	case 5:
		at := bytes.Index(text, []byte(`"correlationId":"`))
		if at < 0 {
			at = quote
		} else {
			at += len(`"correlationId":`)
		}
		return insert(at+1, pick(r, `\ud800`, `\udc00`, `\ud83dx`, `\ude00\ud83d`))
	case 6:
		return insert(end, pick(r, `,"x":NaN`, `,"x":01`, `,"x":0x1`, `,"x":.5`, `,"x":+1`, `,"x":undefined`, `,"x":Infinity`, `,"x":1.`))
	case 7:
		return pick(r, slices.Concat([]byte("/**/"), text), slices.Concat([]byte("\ufeff"), text), slices.Concat(text, []byte("//")))
	case 8:
		return bytes.ReplaceAll(text, []byte(`"`), []byte(`'`))
	default:
		return insert(quote, pick(r, "\\", "'", "x"))
	}
}

// notObject is JSON text that is not an object: the object in an array,
// or a string, number, literal or array.
func notObject(r *rand.Rand, text []byte) []byte {
	if chance(r, 0.3) {
		return slices.Concat([]byte("["), text, []byte("]"))
	}
	return []byte(pick(r, `"x"`, `1`, `true`, `false`, `null`, `[]`, `"{}"`, `""`))
}
