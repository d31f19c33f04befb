package importer

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"toolgate/assess"
	"toolgate/decode"
)

// DefaultMaxBatch is the most bytes of one batch line the import writes:
// a quarter of what `toolgate audit` reads in one value (1 MiB), so that a
// long log becomes several batches that audit all reads.
const DefaultMaxBatch = 256 << 10

// MaxRemembered is how many ids an import remembers to find an id used
// twice far apart; past it the oldest are forgotten, and a note says so.
const MaxRemembered = 1 << 20

// maxProblems is how many problems are kept; the rest are counted.
const maxProblems = 200

// Batch is one audit batch and where in the transcript it came from.
type Batch struct {
	assess.AuditInput
	// Where names the lines the batch came from, for a person.
	Where string
}

// run is the state of one transcript import shared by its parts.
type run struct {
	name    string
	o       TranscriptOptions
	emitFn  func(Batch) error
	batches int
	notes   []string
	noted   map[string]int // note key → index in notes
	// problems are errors in the input that did not stop the import:
	// each is at its place, the rest was read.
	problems     []*Error
	moreProblems int
	cut          *Error
	fatal        error
	// document: the transcript is a body or an array, not lines that may
	// still grow.
	document bool
	seen     ids
}

func (r *run) problem(e *Error) {
	if len(r.problems) >= maxProblems {
		r.moreProblems++
		return
	}
	r.problems = append(r.problems, e)
}

// cutAt records where the input was cut; what came before is audited.
func (r *run) cutAt(line, col int, msg string) {
	if r.cut == nil {
		r.cut = &Error{Name: r.name, Line: line, Column: col, Msg: msg}
	}
}

// note adds a note once; a note with the same key replaces the earlier.
func (r *run) note(key, format string, args ...any) {
	text := fmt.Sprintf(format, args...)
	if r.noted == nil {
		r.noted = map[string]int{}
	}
	if i, ok := r.noted[key]; ok {
		r.notes[i] = text
		return
	}
	r.noted[key] = len(r.notes)
	r.notes = append(r.notes, text)
}

// batch emits one audit batch, split by id into several when its line
// would pass the batch limit. Splitting by id keeps the audit's answer:
// every request and every result of one id go to the same part.
func (r *run) batch(requested, results []string, closed bool, where string) error {
	if requested == nil {
		requested = []string{}
	}
	if results == nil {
		results = []string{}
	}
	max := r.o.MaxBatch
	if max <= 0 {
		max = DefaultMaxBatch
	}
	size := 40
	for _, id := range requested {
		size += jsonLen(id)
	}
	for _, id := range results {
		size += jsonLen(id)
	}
	if size <= max {
		return r.emit(requested, results, closed, where)
	}
	type part struct {
		requested, results []string
		size               int
	}
	var parts []*part
	of := map[string]*part{}
	add := func(id string) *part {
		if p, ok := of[id]; ok {
			return p
		}
		if len(parts) == 0 || parts[len(parts)-1].size+jsonLen(id) > max-40 {
			parts = append(parts, &part{})
		}
		p := parts[len(parts)-1]
		of[id] = p
		return p
	}
	for _, id := range requested {
		p := add(id)
		p.requested = append(p.requested, id)
		p.size += jsonLen(id)
	}
	for _, id := range results {
		p := add(id)
		p.results = append(p.results, id)
		p.size += jsonLen(id)
	}
	for i, p := range parts {
		if err := r.emit(p.requested, p.results, closed, fmt.Sprintf("%s (part %d of %d, split by id to stay under %d KiB a batch)", where, i+1, len(parts), max>>10)); err != nil {
			return err
		}
	}
	return nil
}

func (r *run) emit(requested, results []string, closed bool, where string) error {
	if requested == nil {
		requested = []string{}
	}
	if results == nil {
		results = []string{}
	}
	r.batches++
	return r.emitFn(Batch{AuditInput: assess.AuditInput{Requested: requested, Results: results, Closed: closed}, Where: where})
}

// jsonLen is how many bytes id takes in a JSON array: quotes, escapes
// and the comma.
func jsonLen(id string) int {
	n := len(id) + 3
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case c == '"' || c == '\\':
			n++
		case c < 0x20:
			n += 5
		}
	}
	return n
}

// ids remembers ids seen, and where, up to MaxRemembered.
type ids struct {
	at     map[string]int32 // id → line
	forgot bool
}

func (s *ids) get(id string) (int, bool) {
	l, ok := s.at[id]
	return int(l), ok
}

func (s *ids) put(id string, line int) {
	if s.at == nil {
		s.at = map[string]int32{}
	}
	if len(s.at) >= MaxRemembered {
		clear(s.at)
		s.forgot = true
	}
	s.at[id] = int32(line)
}

// exchange is one model turn's calls and the results that answer them.
type exchange struct {
	calls   []string
	set     map[string]struct{}
	results []string
	// Where the calls and the results came from.
	callsAt, resultsAt   string
	callTurns, resultMsg int
}

func (x *exchange) reset() {
	x.calls, x.results = x.calls[:0], x.results[:0]
	clear(x.set)
	x.callsAt, x.resultsAt = "", ""
	x.callTurns, x.resultMsg = 0, 0
}

// call adds a requested id found at e (pointer is the JSON Pointer of the
// id in e). An empty id, or one already requested in this exchange, is a
// problem at its place and left out; one requested in an earlier
// exchange is a problem too (the APIs refuse it), and kept.
func (r *run) call(x *exchange, e *element, pointer, what, id string, present bool) {
	if !present || id == "" {
		r.problem(r.at(e, pointer, "%s: %s; left out of the batch (nothing can answer it)", what, map[bool]string{true: "empty id", false: "no id"}[present]))
		return
	}
	if x.set == nil {
		x.set = map[string]struct{}{}
	}
	if _, dup := x.set[id]; dup {
		first, _ := r.seen.get(id)
		r.problem(r.at(e, pointer, "%s id %q again in one turn (first in the message at line %d): which call would a result answer? Left out the second time", what, id, first))
		return
	}
	line, _ := e.pos(0)
	if first, dup := r.seen.get(id); dup {
		r.problem(r.at(e, pointer, "%s id %q was used before, in the message at line %d: ids are unique in a conversation (the APIs refuse a repeated one)", what, id, first))
	} else {
		r.seen.put(id, line)
	}
	x.set[id] = struct{}{}
	x.calls = append(x.calls, id)
}

// result adds a result id found at e. An empty one is a problem, left out.
func (r *run) result(x *exchange, e *element, pointer, what, id string, present bool) {
	if !present || id == "" {
		r.problem(r.at(e, pointer, "%s: %s; left out of the batch (it answers nothing)", what, map[bool]string{true: "empty id", false: "no id"}[present]))
		return
	}
	x.results = append(x.results, id)
}

// at is a problem at the field pointer of element e.
func (r *run) at(e *element, pointer, format string, args ...any) *Error {
	off, ok := offsetOf(e.raw, pointer)
	if !ok {
		off = 0
	}
	return e.errorf(r.name, off, dotted(pointer), format, args...)
}

// dotted turns a JSON Pointer into a field path: "/content/2/id" →
// "content[2].id".
func dotted(pointer string) string {
	var b strings.Builder
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		if tok == "" {
			continue
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if tok != "" && strings.Trim(tok, "0123456789") == "" {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

// finish emits an exchange: its calls against its results.
func (r *run) finish(x *exchange, closed bool, how string) error {
	if len(x.calls) == 0 && len(x.results) == 0 {
		x.reset()
		return nil
	}
	where := how
	if where == "" {
		where = fmt.Sprintf("%s: %d %s", x.callsAt, len(x.calls), plural(len(x.calls), "call", "calls"))
		if x.resultsAt != "" {
			where += fmt.Sprintf(" → %s: %d %s", x.resultsAt, len(x.results), plural(len(x.results), "result", "results"))
		}
	}
	err := r.batch(slices.Clone(x.calls), slices.Clone(x.results), closed, where)
	x.reset()
	return err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// pointer builds a JSON Pointer from its tokens.
func pointer(tokens ...any) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		switch t := t.(type) {
		case string:
			b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
		case int:
			fmt.Fprint(&b, t)
		}
	}
	return b.String()
}

// describeJSON says what a decoding error means: the field, the message
// and the byte offset (-1 when not known).
func describeJSON(err error) (string, string, int64) { return decode.Describe(err, false) }

func jsonKindName(k jsontext.Kind) string { return decode.JSONKind(k) }

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
