package learn

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkSaveToResult measures what a learner waits for: from the save
// of assess.mjs to the finished run of the gate over every vector — the
// watcher's quiet time (Quiet), node's start, 242 vectors through the
// harness and gatecheck's comparison. Each save alternates between a gate
// that gets rule 3 wrong and the finished one, so every save changes the
// file. docs/learn.md has the figure and the command:
//
//	go test ./learn -run '^$' -bench SaveToResult -benchtime 20x
func BenchmarkSaveToResult(b *testing.B) {
	if len(JavaScript.Missing()) > 0 {
		b.Skip("node is not on PATH")
	}
	dir := b.TempDir()
	if _, err := Init(dir, JavaScript); err != nil {
		b.Fatal(err)
	}
	var versions [2][]byte
	for i, wrong := range []bool{true, false} {
		data, err := os.ReadFile(filepath.Join("testdata", "solution", "assess.mjs"))
		if err != nil {
			b.Fatal(err)
		}
		if wrong {
			bug := rule3Bugs[JavaScript]
			data = []byte(strings.Replace(string(data), bug[0], bug[1], 1))
		}
		versions[i] = data
	}
	results := make(chan Outcome, 1)
	stop, err := Watch(dir, JavaScript, Quiet, func() {
		results <- Check(context.Background(), Config{Dir: dir, Lang: JavaScript})
	})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	save := func(i int) time.Duration {
		start := time.Now()
		if err := os.WriteFile(filepath.Join(dir, "assess.mjs"), versions[i%2], 0o644); err != nil {
			b.Fatal(err)
		}
		o := <-results
		if o.Report == nil {
			b.Fatalf("the gate did not run: %+v %+v", o.Gate, o.Build)
		}
		return time.Since(start)
	}
	save(1) // node's first start reads its files from disk
	b.ResetTimer()
	var worst time.Duration
	for i := range b.N {
		worst = max(worst, save(i))
	}
	b.ReportMetric(float64(worst.Milliseconds()), "worst-ms")
}

// BenchmarkCheck is one run of the gate without the watcher, per
// language whose toolchain is here (go and java include their build).
func BenchmarkCheck(b *testing.B) {
	for _, l := range Langs() {
		b.Run(l.String(), func(b *testing.B) {
			if len(l.Missing()) > 0 {
				b.Skip("no toolchain")
			}
			dir := b.TempDir()
			if _, err := Init(dir, l); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if o := Check(context.Background(), Config{Dir: dir, Lang: l}); o.Report == nil {
					b.Fatalf("%+v %+v", o.Gate, o.Build)
				}
			}
		})
	}
}
