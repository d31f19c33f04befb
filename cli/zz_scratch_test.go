package cli

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

func BenchmarkZFloor(b *testing.B) {
	sample, _ := os.ReadFile("../testdata/inputs.jsonl")
	data := bytes.Repeat(sample, 100000/8)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		d := jsontext.NewDecoder(bytes.NewReader(data))
		for {
			if _, err := d.ReadValue(); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
	}
}
