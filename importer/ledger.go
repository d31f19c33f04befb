package importer

import (
	"fmt"
	"strings"
)

// ledger pairs requests with results by id over a whole transcript — an
// MCP session, a run of OpenAI Responses items, server tools answered in
// a later turn — and emits audit batches as it goes: a batch whenever
// every request so far is answered, and before a batch grows past the
// batch limit (the ids still waiting stay for the next one). An id's
// requests and results always go to the same batch, so the batches audit
// as the whole transcript would, whatever their number.
type ledger struct {
	r     *run
	order []string
	ent   map[string]*lentry
	open  int
	size  int
	seq   int
	// settled remembers the ids of emitted batches, to tell a late
	// second result (duplicate) from one nobody asked for (unknown).
	settled   map[string]uint8
	forgot    bool
	from, to  int // lines of the current batch
	nReq, nRe int
	// describe names the batch for a person: "requests", "calls".
	reqWord, resWord string
	// dropped counts results to cancelled requests.
	dropped int
	// minBatch: when every request is answered, emit only once the batch
	// has this many bytes (0: at once, one batch an exchange).
	minBatch int
}

type lentry struct {
	requested bool
	cancelled bool
	results   int
	line      int
	seq       int
}

// What settled remembers of an id.
const (
	setRequested uint8 = 1 << iota
	setAnswered
	setCancelled
)

func newLedger(r *run, reqWord, resWord string) *ledger {
	return &ledger{r: r, ent: map[string]*lentry{}, settled: map[string]uint8{}, reqWord: reqWord, resWord: resWord}
}

func (l *ledger) touch(line int) {
	if l.from == 0 || line < l.from {
		l.from = line
	}
	if line > l.to {
		l.to = line
	}
}

// MaxWaiting is how many requests may wait for their answer at once.
const MaxWaiting = 1 << 20

// request adds a request. ok is false when the id was requested before
// (first is the line, 0 when it was in an earlier batch). err says that
// too many requests wait at once.
func (l *ledger) request(key string, line int) (first int, ok bool, err error) {
	if l.open >= MaxWaiting {
		return 0, false, &Error{Name: l.r.name, Line: line, Column: 1, Msg: fmt.Sprintf("more than %d %s waiting for an answer at once: toolgate holds no more", MaxWaiting, l.reqWord)}
	}
	if e, seen := l.ent[key]; seen {
		if e.requested {
			return e.line, false, nil
		}
		// A result came before its request: they meet in this batch.
		e.requested, e.line = true, line
		l.seq++
		e.seq = l.seq
		if e.results == 0 {
			l.open++
		}
		l.nReq++
		l.touch(line)
		return 0, true, nil
	}
	if l.settled[key]&setRequested != 0 {
		return 0, false, nil
	}
	l.seq++
	l.ent[key] = &lentry{requested: true, line: line, seq: l.seq}
	l.order = append(l.order, key)
	l.open++
	l.nReq++
	l.size += jsonLen(key)
	l.touch(line)
	return 0, true, nil
}

// waiting says whether key is requested and not answered yet in this
// batch, and the order of its request.
func (l *ledger) waiting(key string) (seq int, ok bool) {
	e, seen := l.ent[key]
	if !seen || !e.requested || e.cancelled || e.results > 0 {
		return 0, false
	}
	return e.seq, true
}

// answered says whether key was requested and answered (in this batch or
// an earlier one), and how recently.
func (l *ledger) answered(key string) (seq int, ok bool) {
	if e, seen := l.ent[key]; seen {
		return e.seq, e.requested && e.results > 0
	}
	return 0, l.settled[key]&(setRequested|setAnswered) == setRequested|setAnswered
}

// result adds a result. A result for an id of an earlier batch is
// emitted at once, as a batch of its own that audits as it would have
// with the earlier one: a second answer is a duplicate. where names it.
func (l *ledger) result(key string, line int, where func() string) error {
	if e, seen := l.ent[key]; seen {
		if e.cancelled {
			l.dropped++
			return nil
		}
		e.results++
		if e.requested && e.results == 1 {
			l.open--
		}
		l.nRe++
		l.size += jsonLen(key)
		l.touch(line)
		return nil
	}
	switch s := l.settled[key]; {
	case s&setCancelled != 0:
		l.dropped++
		return nil
	case s&setAnswered != 0 && s&setRequested != 0:
		return l.r.batch([]string{key}, []string{key, key}, true, where()+": a second answer to an id answered in an earlier batch")
	case s&setAnswered != 0:
		return l.r.batch(nil, []string{key, key}, true, where()+": a second answer to an id nobody asked for")
	}
	l.ent[key] = &lentry{results: 1}
	l.order = append(l.order, key)
	l.nRe++
	l.size += jsonLen(key)
	l.touch(line)
	return nil
}

// cancel takes back a request: it needs no answer, and an answer that
// comes anyway is left out. ok is false when key is not waiting.
func (l *ledger) cancel(key string) bool {
	e, seen := l.ent[key]
	if !seen || !e.requested || e.cancelled || e.results > 0 {
		return false
	}
	e.cancelled = true
	l.open--
	return true
}

// settle emits the batch when nothing is waiting, or, when it has grown
// past the limit, the part of it that is answered.
func (l *ledger) settle() error {
	if len(l.order) == 0 {
		return nil
	}
	if l.open == 0 && l.nReq > 0 && l.size >= l.minBatch {
		return l.emit(true, false)
	}
	max := l.r.o.MaxBatch
	if max <= 0 {
		max = DefaultMaxBatch
	}
	if l.size > max/2 {
		return l.emit(true, true)
	}
	return nil
}

// close emits what is left: a request without an answer is missing when
// closed, pending when not.
func (l *ledger) close(closed bool) error {
	if len(l.order) == 0 {
		return nil
	}
	return l.emit(closed, false)
}

// emit writes the batch; keepWaiting leaves the requests still waiting
// for the next batch.
func (l *ledger) emit(closed, keepWaiting bool) error {
	var requested, results, keep []string
	nReq, nRes := 0, 0
	for _, key := range l.order {
		e := l.ent[key]
		if keepWaiting && e.requested && !e.cancelled && e.results == 0 {
			keep = append(keep, key)
			continue
		}
		var bits uint8
		switch {
		case e.cancelled:
			bits = setRequested | setCancelled
		default:
			if e.requested {
				requested = append(requested, key)
				nReq++
				bits |= setRequested
			}
			for range e.results {
				results = append(results, key)
				nRes++
			}
			if e.results > 0 {
				bits |= setAnswered
			}
		}
		if len(l.settled) >= MaxRemembered {
			clear(l.settled)
			l.forgot = true
		}
		l.settled[key] = bits
		delete(l.ent, key)
	}
	counts := fmt.Sprintf("%d %s, %d %s", nReq, l.word(l.reqWord, nReq), nRes, l.word(l.resWord, nRes))
	where := fmt.Sprintf("lines %d–%d: %s", l.from, l.to, counts)
	if l.from == l.to {
		where = fmt.Sprintf("line %d: %s", l.from, counts)
	}
	if keepWaiting {
		where += fmt.Sprintf(" (%d still waiting go on to the next batch)", len(keep))
	}
	l.order = append(l.order[:0], keep...)
	if !keepWaiting {
		l.open = 0
	}
	l.size = 0
	l.from, l.to = 0, 0
	for _, key := range keep {
		l.size += jsonLen(key)
		l.touch(l.ent[key].line)
	}
	l.nReq, l.nRe = 0, 0
	if len(requested) == 0 && len(results) == 0 {
		return nil
	}
	return l.r.batch(requested, results, closed, where)
}

// word is a plural noun for n: "requests" becomes "request" for 1.
func (l *ledger) word(w string, n int) string {
	if n == 1 {
		if i := strings.IndexByte(w, ' '); i > 0 && strings.HasSuffix(w[:i], "s") {
			return w[:i-1] + w[i:]
		}
		return strings.TrimSuffix(w, "s")
	}
	return w
}
