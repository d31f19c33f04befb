// Package partition is the fast lane of the correlation audit: the audit
// without its trace, in time linear in the batch up to millions of IDs.
// assess.Audit and assess.AuditSpans answer through it; assess's own
// audit (ExplainAudit, one map, step by step) is the reference it is held
// to (assess/audit_test.go compares them on random batches, with hashes
// that make IDs collide). A change of the audit's rules is made in assess
// first, then here (docs/decision.md, "What to change").
package partition

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// The audit without its trace, in time linear in the batch up to millions
// of IDs. One hash map of a million IDs does not fit the processor's
// caches, and every lookup then waits for memory: the cost per request
// grew 2.6 times from 1k to 1M. Instead the IDs are split by their hash
// into partitions of about partitionSize IDs, each ID's bytes copied next
// to its partition's others (two passes over memory in order), and each
// partition is then audited with a small table that stays in the cache.
// An ID is compared with another only in its own partition, whose bytes
// are all in one place.

// What the audit knows of an ID, as bits of its state.
const (
	idRequested uint8 = 1 << iota
	idSeen
	idDuplicate
)

// partitionSize is about how many IDs a partition holds: with their
// bytes (8k IDs of 10 bytes: 180 KB), its table (64 KB) and states, a
// partition fits a core's L2 cache.
const partitionSize = 32768

// maxPartitionBits caps the partitions at 256: more streams written at
// once are more pages than the processor keeps addresses for (the
// scatter of 1,024 partitions cost twice as much). Past 2M IDs
// partitions grow.
const maxPartitionBits = 8

// A partition is one run of bytes, an ID after another, each as the low
// half of its hash (4 bytes), where it came from (4 bytes: an index into
// requested, or len(requested)+ an index into results), its length
// (uvarint) and its bytes.
const recordHead = 8

// stageSize is the bytes of a partition gathered before they are copied
// to the partition in one piece: a few cache lines written in order
// rather than a few bytes at a time to each of 256 places.
const stageSize = 256

// recordSize is the bytes an ID takes in its partition.
func recordSize(n int) int { return recordHead + uvarintLen(n) + n }

func uvarintLen(n int) int { return (bits.Len(uint(n)|1) + 6) / 7 }

// idRecord is one ID of the partition being audited: the low half of its
// hash, where it came from, and where its bytes are in the partition.
type idRecord struct {
	hash, ref, start, end uint32
}

// appendRecord appends one ID's record.
func appendRecord[T ~string | ~[]byte](b []byte, h uint32, ref uint32, s T) []byte {
	b = binary.LittleEndian.AppendUint32(b, h)
	b = binary.LittleEndian.AppendUint32(b, ref)
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// Audit audits the IDs id(0) to id(total-1), of which the first n are the
// requests, as the audit without its trace does: the diagnostics
// ("unknown:ID", "duplicate:ID", "missing:ID") and, while the batch is
// open, the IDs pending, both unsorted; dupReq is the first request that
// repeats an earlier one, -1 when none does (the batch is then not to be
// answered). hash spreads the IDs over partitions; any hash gives the
// same answer.
func Audit[T ~string | ~[]byte](n, total int, id func(ref uint32) T, closed bool, hash func(T) uint64) (diagnostics, pending []string, dupReq int) {
	// An ID's hash is kept as 32 bits: the top ones pick its partition,
	// the low ones its place in the partition's table.
	shift := uint(32)
	if parts := total / partitionSize; parts > 1 {
		shift = uint(32 - min(bits.Len(uint(parts-1)), maxPartitionBits))
	}
	part := func(h uint32) int {
		return int(uint64(h) >> shift)
	}
	numParts := 1 << (32 - shift)

	// Pass 1, in order: hashes, and how many IDs and bytes each
	// partition gets.
	hashes := make([]uint32, total)
	count := make([]int, numParts+1)
	size := make([]int, numParts+1)
	for ref := range total {
		s := id(uint32(ref))
		h := uint32(hash(s))
		hashes[ref] = h
		p := part(h)
		count[p+1]++
		size[p+1] += recordSize(len(s))
	}
	for p := range numParts {
		count[p+1] += count[p]
		size[p+1] += size[p]
	}

	// Pass 2, in order: each ID into its partition, so that in a
	// partition the requests come first, each list in its order.
	text := make([]byte, size[numParts])
	at := slices.Clone(size[:numParts])
	stage := make([]byte, numParts*stageSize)
	fill := make([]int, numParts)
	flush := func(p int) {
		at[p] += copy(text[at[p]:], stage[p*stageSize:p*stageSize+fill[p]])
		fill[p] = 0
	}
	for ref := range total {
		s := id(uint32(ref))
		h := hashes[ref]
		p := part(h)
		if size := recordSize(len(s)); fill[p]+size > stageSize {
			flush(p)
			if size > stageSize {
				at[p] += len(appendRecord(text[at[p]:at[p]], h, uint32(ref), s))
				continue
			}
		}
		start := p*stageSize + fill[p]
		fill[p] += len(appendRecord(stage[start:start], h, uint32(ref), s))
	}
	for p := range numParts {
		flush(p)
	}

	// Pass 3, partition by partition, in the cache.
	diagnostics, pending = []string{}, []string{}
	dupReq = -1
	largest := 0
	for p := range numParts {
		largest = max(largest, count[p+1]-count[p])
	}
	table := make([]uint32, 1<<bits.Len(uint(2*largest))) // an ID's place in recs, +1; 0 is free
	recs := make([]idRecord, 0, largest)
	state := make([]uint8, largest)
	for p := range numParts {
		ptext := text[size[p]:size[p+1]]
		recs = recs[:0]
		for off := 0; off < len(ptext); {
			l, k := binary.Uvarint(ptext[off+recordHead:])
			start := off + recordHead + k
			off = start + int(l)
			recs = append(recs, idRecord{hash: binary.LittleEndian.Uint32(ptext[start-recordHead-k:]),
				ref: binary.LittleEndian.Uint32(ptext[start-k-4:]), start: uint32(start), end: uint32(off)})
		}
		slots := 1 << bits.Len(uint(2*len(recs)))
		table = table[:slots]
		clear(table)
		state = state[:len(recs)]
		clear(state)
		mask := uint32(slots - 1)
		for i := range recs {
			r := &recs[i]
			b := ptext[r.start:r.end]
			// The first record of this ID, if any.
			first := -1
			for j := r.hash & mask; ; j = (j + 1) & mask {
				k := int(table[j]) - 1
				if k < 0 {
					table[j] = uint32(i + 1)
					break
				}
				if q := &recs[k]; q.hash == r.hash && string(ptext[q.start:q.end]) == string(b) {
					first = k
					break
				}
			}
			if int(r.ref) < n {
				if first >= 0 && (dupReq < 0 || int(r.ref) < dupReq) {
					dupReq = int(r.ref)
				}
				state[i] = idRequested
				continue
			}
			if first < 0 {
				state[i] = idSeen
				continue
			}
			if state[first]&idSeen != 0 {
				state[first] |= idDuplicate
			}
			state[first] |= idSeen
		}
		for i, st := range state {
			if st == 0 {
				continue // not the first record of its ID
			}
			ref, b := recs[i].ref, ptext[recs[i].start:recs[i].end]
			switch {
			case st&idRequested == 0:
				diagnostics = append(diagnostics, "unknown:"+string(b))
			case st&idSeen == 0 && closed:
				diagnostics = append(diagnostics, "missing:"+string(b))
			case st&idSeen == 0:
				pending = append(pending, string(id(ref)))
			}
			if st&idDuplicate != 0 {
				diagnostics = append(diagnostics, "duplicate:"+string(b))
			}
		}
	}

	return diagnostics, pending, dupReq
}
