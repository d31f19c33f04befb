package cli

import (
	"bytes"
	"io"
	"os"
	"runtime/debug"
	"testing"

	"toolgate/assess"
	"toolgate/decode"
)

// BenchmarkAssessJSONL is the `toolgate assess` path end to end, in
// process: 100,000 JSON Lines (the eight scenario inputs, repeated) decoded,
// decided and written. Target: at least 200,000 inputs/s.
func BenchmarkAssessJSONL(b *testing.B) {
	sample, err := os.ReadFile("../testdata/inputs.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	const lines = 100_000
	data := bytes.Repeat(sample, lines/bytes.Count(sample, []byte("\n")))
	n := bytes.Count(data, []byte("\n"))
	defer debug.SetGCPercent(debug.SetGCPercent(400)) // as `toolgate assess` runs
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := assessStream(bytes.NewReader(data), "bench", io.Discard, false, assess.English, decode.DefaultMaxValue); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "inputs/s")
}
