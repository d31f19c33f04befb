package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"toolgate/assess"
	"toolgate/decode"
)

// benchLines is 100,000 JSON Lines: the eight sample inputs, repeated.
func benchLines(b *testing.B) []byte {
	sample, err := os.ReadFile("../testdata/inputs.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	const lines = 100_000
	return bytes.Repeat(sample, lines/bytes.Count(sample, []byte("\n")))
}

// reportInputs reports inputs/s and the CPU time per input (on a shared
// machine the wall time also counts the time other programs had the
// cores; on two cores the CPU time can exceed it).
func reportInputs(b *testing.B, data []byte, cpu int64) {
	n := float64(bytes.Count(data, []byte("\n"))) * float64(b.N)
	b.SetBytes(int64(len(data)))
	b.ReportMetric(n/b.Elapsed().Seconds(), "inputs/s")
	b.ReportMetric(float64(cpuNanos()-cpu)/n, "cpu-ns/input")
}

// BenchmarkSyntaxCheck is the floor the issue measures toolgate against:
// checking the JSON syntax of the same lines with jsontext (the grammar,
// UTF-8, duplicate names), deciding nothing.
func BenchmarkSyntaxCheck(b *testing.B) {
	data := benchLines(b)
	cpu := cpuNanos()
	for b.Loop() {
		dec := jsontext.NewDecoder(bytes.NewReader(data))
		for {
			if _, err := dec.ReadValue(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
	reportInputs(b, data, cpu)
}

// BenchmarkAssessJSONL is `toolgate assess` end to end, in process, on one
// goroutine (the input is not a file): 100,000 JSON Lines decoded, decided
// and written. Compare its cpu-ns/input with BenchmarkSyntaxCheck's.
func BenchmarkAssessJSONL(b *testing.B) {
	data := benchLines(b)
	cpu := cpuNanos()
	for b.Loop() {
		if err := assessStream(bytes.NewReader(data), "bench", io.Discard, false, assess.English, decode.DefaultMaxValue); err != nil {
			b.Fatal(err)
		}
	}
	reportInputs(b, data, cpu)
}

// BenchmarkAssessJSONLFile reads the same lines from a file: answered in
// blocks on every core when GOMAXPROCS is more than 1.
func BenchmarkAssessJSONLFile(b *testing.B) {
	data := benchLines(b)
	path := filepath.Join(b.TempDir(), "in.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	cpu := cpuNanos()
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := assessStream(f, "bench", io.Discard, false, assess.English, decode.DefaultMaxValue); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	reportInputs(b, data, cpu)
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "procs")
}

// BenchmarkAssessJSONLPipe reads the same lines from a pipe written 64 KiB
// at a time: the answers are written whenever the pipe has nothing ready,
// which must not cost the throughput of a file.
func BenchmarkAssessJSONLPipe(b *testing.B) {
	data := benchLines(b)
	cpu := cpuNanos()
	for b.Loop() {
		r, w := io.Pipe()
		go func() {
			for rest := data; len(rest) > 0; {
				n := min(len(rest), 64<<10)
				if _, err := w.Write(rest[:n]); err != nil {
					return
				}
				rest = rest[n:]
			}
			w.Close()
		}()
		if err := assessStream(r, "bench", io.Discard, false, assess.English, decode.DefaultMaxValue); err != nil {
			b.Fatal(err)
		}
	}
	reportInputs(b, data, cpu)
}
