// Command jsoncheck is the floor the performance measurements compare
// toolgate with (scripts/perf.sh): it checks the JSON syntax of every value
// of a file with jsontext — the grammar, UTF-8, duplicate names, as
// toolgate's decoder does — and decides nothing. It prints how many values
// it read.
//
//	go build -o /tmp/jsoncheck ./scripts/jsoncheck && /tmp/jsoncheck inputs.jsonl
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/go-json-experiment/json/jsontext"
)

func main() {
	in := io.Reader(os.Stdin)
	if len(os.Args) > 1 {
		f, err := os.Open(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "jsoncheck:", err)
			os.Exit(2)
		}
		defer func() { _ = f.Close() }() // only read
		in = f
	}
	dec := jsontext.NewDecoder(bufio.NewReaderSize(in, 64<<10))
	n := 0
	for {
		if _, err := dec.ReadValue(); err == io.EOF {
			break
		} else if err != nil {
			fmt.Fprintln(os.Stderr, "jsoncheck:", err)
			os.Exit(1)
		}
		n++
	}
	fmt.Println(n, "values")
}
