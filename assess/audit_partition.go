package assess

import (
	"hash/maphash"
	"strconv"

	"toolgate/internal/partition"
)

// Span is an ID as a part of a text: text[Start:End].
type Span struct {
	Start, End uint32
}

// AuditSpans audits like Audit a batch whose IDs are spans of one text,
// as a decoder finds them in the line it read: no string is made of each
// ID, and the lists hold no pointers for the garbage collector to follow
// (a batch of a million requests is two million IDs).
func AuditSpans(text []byte, requested, results []Span, closed bool) (AuditResult, error) {
	seed := maphash.MakeSeed()
	n := len(requested)
	id := func(ref uint32) []byte {
		var sp Span
		if int(ref) < n {
			sp = requested[ref]
		} else {
			sp = results[int(ref)-n]
		}
		return text[sp.Start:sp.End]
	}
	return partitioned(n, n+len(results), id, closed, func(b []byte) uint64 { return maphash.Bytes(seed, b) })
}

// partitioned audits the IDs id(0) to id(total-1), of which the first n
// are the requests, on the fast lane (internal/partition), and says it as
// the audit does.
func partitioned[T ~string | ~[]byte](n, total int, id func(ref uint32) T, closed bool, hash func(T) uint64) (AuditResult, error) {
	diagnostics, pending, dupReq := partition.Audit(n, total, id, closed, hash)
	if dupReq >= 0 {
		return AuditResult{}, &AuditError{Path: "requested[" + strconv.Itoa(dupReq) + "]", ID: string(id(uint32(dupReq)))}
	}
	SortUTF16(diagnostics)
	SortUTF16(pending)
	return AuditResult{Diagnostics: diagnostics, Pending: pending}, nil
}
