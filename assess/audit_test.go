package assess_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
)

func TestAuditSeedAndEdgeCases(t *testing.T) {
	tests := []struct {
		name               string
		requested, results []string
		open               bool
		diagnostics        []string
		pending            []string
	}{
		{"seed 1: out of order is fine", []string{"A", "B"}, []string{"B", "A"}, false, []string{}, []string{}},
		{"seed 2: duplicate, missing, unknown", []string{"A", "B"}, []string{"A", "A", "C"}, false,
			[]string{"duplicate:A", "missing:B", "unknown:C"}, []string{}},
		{"empty batch", nil, nil, false, []string{}, []string{}},
		{"a request never answered", []string{"A"}, nil, false, []string{"missing:A"}, []string{}},
		{"an answer never requested", nil, []string{"X"}, false, []string{"unknown:X"}, []string{}},
		{"unknown twice is both", nil, []string{"X", "X"}, false, []string{"duplicate:X", "unknown:X"}, []string{}},
		{"three copies report duplicate once", []string{"A"}, []string{"A", "A", "A"}, false, []string{"duplicate:A"}, []string{}},
		{"open batch: pending, not missing", []string{"A", "B", "C"}, []string{"B"}, true, []string{}, []string{"A", "C"}},
		{"open batch still reports unknown", []string{"A"}, []string{"Z"}, true, []string{"unknown:Z"}, []string{"A"}},
		{"byte order: upper before lower", []string{"b", "B"}, nil, false, []string{"missing:B", "missing:b"}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := assess.AuditInput{Requested: tt.requested, Results: tt.results, Closed: !tt.open}
			got, err := assess.Audit(in)
			require.NoError(t, err)
			assert.Equal(t, tt.diagnostics, got.Diagnostics)
			assert.Equal(t, tt.pending, got.Pending)
			again, steps, err := assess.ExplainAudit(in)
			require.NoError(t, err)
			assert.Equal(t, got, again)
			require.Len(t, steps, 2+len(tt.results), "requests, one a result, close")
		})
	}
}

func TestAuditInputErrors(t *testing.T) {
	tests := []struct {
		name               string
		requested, results []string
		want               string
	}{
		{"duplicate request", []string{"A", "A"}, []string{"A"}, `requested[1]: duplicate request ID "A": which request would a result answer?`},
		{"duplicate empty request", []string{"", "A", ""}, nil, `requested[2]: duplicate request ID "": which request would a result answer?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := assess.Audit(assess.AuditInput{Requested: tt.requested, Results: tt.results, Closed: true})
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
			_, steps, err := assess.ExplainAudit(assess.AuditInput{Requested: tt.requested, Results: tt.results, Closed: true})
			require.Error(t, err)
			last := steps[len(steps)-1]
			assert.Equal(t, assess.Fired, last.Outcome, "the step that found the error fired")
			assert.NotEmpty(t, last.Explanation(assess.English))
			assert.NotEmpty(t, last.Explanation(assess.Chinese))
		})
	}
}

// TestEmptyIDIsAnID: "" is an ID like any other, as the seed's Java
// audit takes it.
func TestEmptyIDIsAnID(t *testing.T) {
	got, err := assess.Audit(assess.AuditInput{Requested: []string{"", "A"}, Results: []string{"A", "", "", "B"}, Closed: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"duplicate:", "unknown:B"}, got.Diagnostics)
	got, err = assess.Audit(assess.AuditInput{Requested: []string{""}, Results: nil, Closed: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"missing:"}, got.Diagnostics)
}

// TestAuditSortsByUTF16: diagnostics sort as Java's TreeSet sorts them.
func TestAuditSortsByUTF16(t *testing.T) {
	got, err := assess.Audit(assess.AuditInput{Requested: nil, Results: []string{"Ａ", "😀"}, Closed: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"unknown:😀", "unknown:Ａ"}, got.Diagnostics)
}

// TestAuditErrorReason: the error's machine name, in English in every
// language.
func TestAuditErrorReason(t *testing.T) {
	for _, tt := range []struct {
		requested, results []string
		want               string
	}{
		{[]string{"A", "A"}, []string{"A"}, "duplicate_request_id"},
	} {
		_, err := assess.Audit(assess.AuditInput{Requested: tt.requested, Results: tt.results, Closed: true})
		var ae *assess.AuditError
		require.ErrorAs(t, err, &ae)
		assert.Equal(t, tt.want, ae.Reason(), "%q %q", tt.requested, tt.results)
	}
}

// TestAuditStepKindID: each kind of step has its own stable id, and a
// kind that is none of them has none.
func TestAuditStepKindID(t *testing.T) {
	_, steps, err := assess.ExplainAudit(assess.AuditInput{Requested: []string{"A", "B"}, Results: []string{"B"}, Closed: true})
	require.NoError(t, err)
	var ids []string
	for _, st := range steps {
		ids = append(ids, st.Kind.ID())
	}
	assert.Equal(t, []string{"duplicate_request_id", "result", "batch_end"}, ids)
	assert.Empty(t, assess.AuditStepKind(0).ID())
	assert.Empty(t, (assess.AuditClose + 1).ID())
}

func TestAuditStepsSayWhichCheckFired(t *testing.T) {
	_, steps, err := assess.ExplainAudit(assess.AuditInput{Requested: []string{"A", "B"}, Results: []string{"A", "A", "C"}, Closed: true})
	require.NoError(t, err)
	require.Len(t, steps, 5)
	assert.Equal(t, assess.Passed, steps[1].Outcome)
	assert.Equal(t, []string{"duplicate:A"}, steps[2].Added)
	assert.Equal(t, `Result 2: "A"`, steps[2].Title(assess.English))
	assert.Equal(t, "requested; seen before → duplicate:A", steps[2].Explanation(assess.English))
	assert.Equal(t, "never requested → unknown:C; first time seen", steps[3].Explanation(assess.English))
	assert.Equal(t, []string{"missing:B"}, steps[4].Added)
	assert.Equal(t, `the batch is over (ended, or past its deadline), so "B" never arrived → missing`, steps[4].Explanation(assess.English))
	assert.Equal(t, `批次已结束（已收尾或已过截止时间），"B" 没有到达 → missing`, steps[4].Explanation(assess.Chinese))
	assert.Equal(t, []string{"results[1]", "requested"}, steps[2].Reads)
}

// naiveAudit recomputes the audit with plain set arithmetic.
func naiveAudit(in assess.AuditInput) assess.AuditResult {
	count := map[string]int{}
	for _, id := range in.Results {
		count[id]++
	}
	set := map[string]bool{}
	for id, n := range count {
		if !slices.Contains(in.Requested, id) {
			set["unknown:"+id] = true
		}
		if n > 1 {
			set["duplicate:"+id] = true
		}
	}
	pending := []string{}
	for _, id := range in.Requested {
		if count[id] == 0 {
			if in.Closed {
				set["missing:"+id] = true
			} else {
				pending = append(pending, id)
			}
		}
	}
	diags := []string{}
	for d := range set {
		diags = append(diags, d)
	}
	sortUTF16(diags)
	sortUTF16(pending)
	return assess.AuditResult{Diagnostics: diags, Pending: pending}
}

// sortUTF16 sorts by UTF-16 code units, the slow way: each string encoded.
func sortUTF16(list []string) {
	slices.SortFunc(list, func(a, b string) int {
		return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
	})
}

func randomBatch(rng *rand.Rand) assess.AuditInput {
	alphabet := rng.IntN(8) + 1
	id := func() string { return strconv.Itoa(rng.IntN(alphabet)) }
	var in assess.AuditInput
	seen := map[string]bool{}
	for range rng.IntN(alphabet + 1) {
		if r := id(); !seen[r] {
			seen[r] = true
			in.Requested = append(in.Requested, r)
		}
	}
	for range rng.IntN(10) {
		in.Results = append(in.Results, id())
	}
	in.Closed = rng.IntN(2) == 0
	return in
}

// TestAuditProperties checks, on 20,000 seeded random batches, that the
// audit equals a naive set computation, that the order of results never
// changes it, and that closing the batch turns exactly the pending IDs
// into missing ones.
func TestAuditProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2026))
	for i := range 20000 {
		in := randomBatch(rng)
		got, err := assess.Audit(in)
		require.NoError(t, err)
		require.Equal(t, naiveAudit(in), got, "batch %d: %+v", i, in)

		shuffled := in
		shuffled.Results = slices.Clone(in.Results)
		rng.Shuffle(len(shuffled.Results), func(a, b int) {
			shuffled.Results[a], shuffled.Results[b] = shuffled.Results[b], shuffled.Results[a]
		})
		again, err := assess.Audit(shuffled)
		require.NoError(t, err)
		require.Equal(t, got, again, "order of results changed the audit: %+v", in)

		open, closed := in, in
		open.Closed, closed.Closed = false, true
		o, err := assess.Audit(open)
		require.NoError(t, err)
		c, err := assess.Audit(closed)
		require.NoError(t, err)
		require.Empty(t, c.Pending)
		want := slices.Clone(o.Diagnostics)
		for _, id := range o.Pending {
			want = append(want, "missing:"+id)
		}
		sortUTF16(want)
		require.Equal(t, want, c.Diagnostics, "closing must turn exactly the pending IDs into missing: %+v", in)
	}
}

// FuzzAudit: any IDs, no panic; either an input error or the naive answer.
//
//	go test ./assess -run '^$' -fuzz FuzzAudit -fuzztime 30s
func FuzzAudit(f *testing.F) {
	f.Add("A,B", "B,A", true)
	f.Add("A,B", "A,A,C", true)
	f.Add("A,A", "A", false)
	f.Add("", "X,X", true)
	f.Fuzz(func(t *testing.T, req, res string, closed bool) {
		split := func(s string) []string {
			if s == "" {
				return nil
			}
			var out []string
			start := 0
			for i := range len(s) {
				if s[i] == ',' {
					out = append(out, s[start:i])
					start = i + 1
				}
			}
			return append(out, s[start:])
		}
		in := assess.AuditInput{Requested: split(req), Results: split(res), Closed: closed}
		got, err := assess.Audit(in)
		if err != nil {
			return
		}
		if want := naiveAudit(in); !slices.Equal(want.Diagnostics, got.Diagnostics) || !slices.Equal(want.Pending, got.Pending) {
			t.Fatalf("audit %+v = %+v, naive %+v", in, got, want)
		}
	})
}

// benchBatch is a closed batch of n requests whose results come back in
// reverse order, with one in a hundred unknown and one in a hundred
// repeated. The IDs are slices of one text, as toolgate's decoder hands
// them out (slices of the line it read).
func benchBatch(n int) assess.AuditInput {
	var text strings.Builder
	var ends []int
	add := func(id string) {
		text.WriteString(id)
		ends = append(ends, text.Len())
	}
	for i := range n {
		add("req-" + strconv.Itoa(i))
	}
	for i := range n {
		// Reversed, with one in a hundred unknown and one in a hundred repeated.
		switch i % 100 {
		case 7:
			add("stray-" + strconv.Itoa(i))
		case 42:
			add("req-0")
		default:
			add("req-" + strconv.Itoa(n-1-i))
		}
	}
	all := text.String()
	ids := make([]string, len(ends))
	start := 0
	for i, end := range ends {
		ids[i], start = all[start:end], end
	}
	return assess.AuditInput{Requested: ids[:n:n], Results: ids[n:], Closed: true}
}

// TestAuditAgreesWithItsTrace: Audit (IDs split by hash into partitions)
// answers as ExplainAudit (one map, step by step), errors included, on
// random batches small and large, with a good hash and with hashes that
// make different IDs collide in a partition and in a table.
func TestAuditAgreesWithItsTrace(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 2026))
	hashes := map[string]func(string) uint64{
		"maphash": nil,
		"length":  func(s string) uint64 { return uint64(len(s)) * 0x9E3779B97F4A7C15 },
		"last byte": func(s string) uint64 {
			if s == "" {
				return 0
			}
			return uint64(s[len(s)-1]) << 24 // the partition; the table is left to collide
		},
	}
	for name, hash := range hashes {
		for i := range 600 {
			size := 1 + rng.IntN(20)
			if i%100 == 0 {
				size = 5000 + rng.IntN(5000) // several partitions
			}
			in := assess.AuditInput{Closed: rng.IntN(2) == 0}
			id := func() string { return "id-" + strconv.Itoa(rng.IntN(size*2)) }
			seen := map[string]bool{}
			for range size {
				r := id()
				if !seen[r] || rng.IntN(50) == 0 {
					seen[r] = true
					in.Requested = append(in.Requested, r)
				}
			}
			for range size + rng.IntN(3) {
				in.Results = append(in.Results, id())
			}
			if rng.IntN(40) == 0 {
				in.Requested = append(in.Requested, "")
			}
			if rng.IntN(40) == 0 {
				in.Results = append(in.Results, "")
			}
			want, _, wantErr := assess.ExplainAudit(in)
			var got assess.AuditResult
			var err error
			if hash == nil {
				got, err = assess.Audit(in)
				// The same IDs as spans of one text.
				text, req, res := spans(in)
				fromSpans, spanErr := assess.AuditSpans(text, req, res, in.Closed)
				require.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(spanErr), "spans, batch %d", i)
				if wantErr == nil {
					require.Equal(t, want, fromSpans, "spans, batch %d", i)
				}
			} else {
				got, err = assess.AuditWithHash(in, hash)
			}
			require.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(err), "%s, batch %d", name, i)
			if wantErr == nil {
				require.Equal(t, want, got, "%s, batch %d", name, i)
			}
		}
	}
}

// TestAuditOfTheBenchmarkBatch: the benchmark's batch gets the answer a
// naive set computation gives.
func TestAuditOfTheBenchmarkBatch(t *testing.T) {
	in := benchBatch(10_000)
	got, err := assess.Audit(in)
	require.NoError(t, err)
	require.Equal(t, naiveAudit(in), got)
}

// BenchmarkAudit1k, 10k, 100k and 1M show how the audit grows: 10× the
// batch should cost at most 11× the time. ns/request is the time per
// requested ID.
func BenchmarkAudit1k(b *testing.B)   { benchAudit(b, 1_000) }
func BenchmarkAudit10k(b *testing.B)  { benchAudit(b, 10_000) }
func BenchmarkAudit100k(b *testing.B) { benchAudit(b, 100_000) }
func BenchmarkAudit1M(b *testing.B)   { benchAudit(b, 1_000_000) }

func benchAudit(b *testing.B, n int) {
	in := benchBatch(n)
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		if _, err := assess.Audit(in); err != nil {
			b.Fatal(err)
		}
	}
	// The CPU time too: on a shared machine the wall time also counts the
	// time other programs had the core.
	b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/request")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/request")
}

// spans writes a batch's IDs into one text, with a comma between two.
func spans(in assess.AuditInput) ([]byte, []assess.Span, []assess.Span) {
	var text []byte
	list := func(ids []string) []assess.Span {
		out := make([]assess.Span, len(ids))
		for i, id := range ids {
			text = append(text, ',')
			out[i] = assess.Span{Start: uint32(len(text)), End: uint32(len(text) + len(id))}
			text = append(text, id...)
		}
		return out
	}
	req := list(in.Requested)
	return text, req, list(in.Results)
}

func TestAuditKinds(t *testing.T) {
	tests := []struct {
		in   assess.AuditInput
		want []assess.AuditKind
	}{
		{assess.AuditInput{Requested: []string{"a"}, Results: []string{"a"}, Closed: true}, []assess.AuditKind{assess.AuditClean}},
		{assess.AuditInput{Requested: []string{"a", "b"}, Results: []string{"a", "a", "c"}, Closed: true},
			[]assess.AuditKind{assess.AuditUnknown, assess.AuditDuplicate, assess.AuditMissing}},
		{assess.AuditInput{Requested: []string{"a", "b"}, Results: []string{"c"}}, []assess.AuditKind{assess.AuditUnknown, assess.AuditPending}},
		{assess.AuditInput{Requested: []string{"missing:x"}, Results: []string{"missing:x", "missing:x"}, Closed: true}, []assess.AuditKind{assess.AuditDuplicate}},
	}
	for _, tt := range tests {
		r, err := assess.Audit(tt.in)
		require.NoError(t, err)
		assert.Equal(t, tt.want, r.Kinds(), "%+v", tt.in)
	}
	for _, k := range assess.AuditKinds() {
		assert.NotEmpty(t, k.String())
	}
}

// A batch that requested nothing has nothing missing; when results came
// all the same (each unknown), its end does not say there was nothing to
// pair.
func TestNothingRequestedSaysOnlyWhatIsTrue(t *testing.T) {
	_, steps, err := assess.ExplainAudit(assess.AuditInput{Requested: []string{}, Results: []string{"X"}, Closed: true})
	require.NoError(t, err)
	end := steps[len(steps)-1]
	require.Equal(t, assess.AuditClose, end.Kind)
	for _, l := range []assess.Lang{assess.English, assess.Chinese} {
		assert.NotContains(t, end.Explanation(l), "pair", l)
		assert.NotContains(t, end.Explanation(l), "配对", l)
	}
	assert.Contains(t, end.Explanation(assess.English), "nothing can be missing")
}
