package assess_test

import (
	"reflect"
	"testing"
	"time"

	"toolgate/assess"
)

// benchInputs are one input per rule that fires, so the benchmark walks
// every depth of the order.
func benchInputs() []assess.Input {
	edits := []func(*assess.Input){
		func(in *assess.Input) { in.Request.Tool.Name = "nope" },
		func(in *assess.Input) { in.InvocationRecord = record("x", "") },
		func(in *assess.Input) { delete(in.Request.Arguments, "value") },
		func(in *assess.Input) { in.Environment = assess.Environment{} },
		func(in *assess.Input) {
			in.InvocationRecord = record("request-1", "timed_out")
			in.InvocationRecord.EffectStatus = some("unknown")
		},
		func(in *assess.Input) { in.InvocationRecord = record("request-1", "succeeded") },
		func(in *assess.Input) { in.Approval = nil },
		func(*assess.Input) {},
	}
	out := make([]assess.Input, len(edits))
	for i, edit := range edits {
		out[i] = base()
		edit(&out[i])
	}
	return out
}

// BenchmarkAssess is the fast path: the verdict only. Target: < 200 ns/op,
// at most 1 alloc/op (the missing-arguments list of rule 3).
func BenchmarkAssess(b *testing.B) {
	ins := benchInputs()
	b.ReportAllocs()
	cpu := cpuTime()
	for i := 0; b.Loop(); i++ {
		_ = assess.Assess(&ins[i%len(ins)])
	}
	reportCPU(b, cpu)
}

// reportCPU reports the CPU time per operation since cpu: on a shared
// machine the wall time also counts the time other programs had the core.
func reportCPU(b *testing.B, cpu time.Duration) {
	b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkAssessAllowed is the deepest walk: all eight rules.
func BenchmarkAssessAllowed(b *testing.B) {
	in := base()
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		_ = assess.Assess(&in)
	}
	reportCPU(b, cpu)
}

// BenchmarkExplain builds the trace as well.
func BenchmarkExplain(b *testing.B) {
	ins := benchInputs()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_, _ = assess.Explain(&ins[i%len(ins)])
	}
}

// TestAssessAppendAllocatesNothing: with a slice handed back, deciding
// allocates nothing, even when rule 3 lists missing arguments, and
// decides as Assess does.
func TestAssessAppendAllocatesNothing(t *testing.T) {
	ins := benchInputs()
	var missing []string
	for i := range ins {
		v := assess.AssessAppend(&ins[i], missing)
		if v.MissingArguments != nil {
			missing = v.MissingArguments
		}
		if want := assess.Assess(&ins[i]); !reflect.DeepEqual(v, want) {
			t.Fatalf("AssessAppend %+v, Assess %+v", v, want)
		}
	}
	allocs := testing.AllocsPerRun(100, func() {
		for i := range ins {
			if v := assess.AssessAppend(&ins[i], missing); v.MissingArguments != nil {
				missing = v.MissingArguments
			}
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations for %d inputs", allocs, len(ins))
	}
}
