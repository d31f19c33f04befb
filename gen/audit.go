package gen

import (
	"math/rand/v2"
	"slices"
	"strconv"
)

// Batch is a correlation audit's input (docs/decision.md §4) before it is written as
// JSON: the requested IDs (a duplicate among them is an input error), the
// result IDs, and closed, nil when the member is absent (a closed batch).
type Batch struct {
	Requested []string
	Results   []string
	Closed    *bool
}

// idPool holds IDs whose order differs between UTF-16 code units (Java's
// TreeSet, JavaScript's sort) and bytes or code points: a character beyond
// the BMP sorts before U+E000–U+FFFF in UTF-16, after them in UTF-8.
var idPool = []string{"A", "B", "C", "a", "", "😀", "Ａ", "\ue000", "\ufffd", "𝐀", "A😀", "AＡ", "ab",
	"请求-1", "\u00e9", "e\u0301", "A ", "unknown:A", "\uff20", "\U0010ffff"}

// NewBatch is a random audit batch: IDs from a small alphabet, so that
// duplicate, unknown and missing IDs are common, "" among them; one batch
// in ten lists a request ID twice. Closed is absent, true or false.
func NewBatch(r *rand.Rand) Batch {
	var alphabet []string
	if chance(r, 0.05) { // a bigger batch
		for i := range 10 + r.IntN(40) {
			alphabet = append(alphabet, "id-"+strconv.Itoa(i))
		}
	}
	for range 1 + r.IntN(6) {
		alphabet = append(alphabet, pick(r, idPool...))
	}
	var b Batch
	// Requested: distinct IDs in a random order, one now and then twice.
	r.Shuffle(len(alphabet), func(i, j int) { alphabet[i], alphabet[j] = alphabet[j], alphabet[i] })
	for _, id := range alphabet[:r.IntN(len(alphabet)+1)] {
		if !slices.Contains(b.Requested, id) {
			b.Requested = append(b.Requested, id)
		}
	}
	if len(b.Requested) > 0 && chance(r, 0.1) {
		id := pick(r, b.Requested...)
		i := r.IntN(len(b.Requested) + 1)
		b.Requested = slices.Insert(b.Requested, i, id)
	}
	for range r.IntN(2*len(alphabet) + 1) {
		b.Results = append(b.Results, pick(r, alphabet...))
	}
	switch r.IntN(4) {
	case 0, 1:
	case 2:
		b.Closed = new(true)
	default:
		b.Closed = new(false)
	}
	return b
}

func (b Batch) tree() *object {
	ids := func(xs []string) []any {
		out := make([]any, len(xs))
		for i, x := range xs {
			out[i] = x
		}
		return out
	}
	o := obj("requested", ids(b.Requested), "results", ids(b.Results))
	if b.Closed != nil {
		o.set("closed", *b.Closed)
	}
	return o
}

// JSON is the batch as one line of JSON: {"requested":[...],"results":[...]}
// and "closed" when it is not nil.
func (b Batch) JSON() []byte {
	return write(nil, b.tree())
}

// Audit is a random audit input as JSON text, one line: mostly a NewBatch
// (its members now and then reordered, its strings escaped), else refused
// by the input check: not JSON, not an object, a member name twice, an
// unknown member, a wrong type (closed: null among them), a null ID, a
// required list absent.
func Audit(r *rand.Rand) []byte {
	root := NewBatch(r).tree()
	if chance(r, 0.2) {
		shuffle(r, root)
	}
	if chance(r, 0.8) {
		return write(r, root)
	}
	c := &collection{}
	c.collect(root, auditShape, "")
	switch r.IntN(8) {
	case 0:
		return corrupt(r, write(r, root))
	case 1:
		return notObject(r, write(r, root))
	case 2:
		c.duplicate(r)
	case 3:
		c.unknown(r)
	case 4:
		c.wrongType(r)
	case 5: // a null ID
		for {
			name := pick(r, "requested", "results")
			v, _ := root.get(name)
			if ids := v.([]any); len(ids) > 0 {
				ids[r.IntN(len(ids))] = nil
				break
			}
			if chance(r, 0.5) {
				root.set(name, []any{nil})
				break
			}
		}
	case 6:
		root.del(pick(r, "requested", "results"))
	default:
		root.set("closed", nil)
	}
	return write(r, root)
}
