package importer_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/importer"
)

var update = flag.Bool("update", false, "rewrite the goldens of testdata/transcripts (read the diff before committing it)")

// render is what a golden holds: the format, every batch with where it
// came from, what it is as audit input and what audit says of it, the
// notes, the problems — or the error that refused the input.
func render(name string, b importer.Batches, err error) string {
	var s strings.Builder
	fmt.Fprintf(&s, "# toolgate import transcript %s\n", name)
	if err != nil {
		fmt.Fprintf(&s, "error: %v\n", err)
		return s.String()
	}
	fmt.Fprintf(&s, "format: %s\n", b.Format)
	for i, in := range b.Batches {
		fmt.Fprintf(&s, "batch %d: %s\n", i+1, b.Where[i])
		fmt.Fprintf(&s, "  in:    %s", importer.BatchLine(in))
		r, aerr := assess.Audit(in)
		if aerr != nil {
			fmt.Fprintf(&s, "  audit: error: %v\n", aerr)
			continue
		}
		fmt.Fprintf(&s, "  audit: %s", auditLine(r))
	}
	for _, n := range b.Notes {
		fmt.Fprintf(&s, "note: %s\n", n)
	}
	for _, p := range b.Problems {
		fmt.Fprintf(&s, "problem: %s\n", p)
	}
	return s.String()
}

func auditLine(r assess.AuditResult) string {
	var s strings.Builder
	s.WriteString(`{"diagnostics":[`)
	for i, d := range r.Diagnostics {
		if i > 0 {
			s.WriteByte(',')
		}
		fmt.Fprintf(&s, "%q", d)
	}
	s.WriteString(`],"pending":[`)
	for i, d := range r.Pending {
		if i > 0 {
			s.WriteByte(',')
		}
		fmt.Fprintf(&s, "%q", d)
	}
	s.WriteString("]}\n")
	return s.String()
}

// corpus lists the cases of testdata/transcripts, by format.
func corpus(t *testing.T) map[string][]string {
	t.Helper()
	dirs, err := os.ReadDir(filepath.Join("..", "testdata", "transcripts"))
	require.NoError(t, err)
	out := map[string][]string{}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join("..", "testdata", "transcripts", d.Name()))
		require.NoError(t, err)
		for _, f := range files {
			if !strings.HasSuffix(f.Name(), ".golden") {
				out[d.Name()] = append(out[d.Name()], f.Name())
			}
		}
	}
	return out
}

// TestCorpus imports every case of the corpus and compares with its
// golden; a format a subtest. -update rewrites the goldens.
func TestCorpus(t *testing.T) {
	cases := corpus(t)
	for _, format := range append(importer.Formats, "unsupported") {
		t.Run(format, func(t *testing.T) {
			require.NotEmpty(t, cases[format], "no case for the format")
			for _, file := range cases[format] {
				t.Run(file, func(t *testing.T) {
					name := filepath.ToSlash(filepath.Join("testdata", "transcripts", format, file))
					data, err := os.ReadFile(filepath.Join("..", name))
					require.NoError(t, err)
					o := importer.TranscriptOptions{Closed: strings.Contains(file, ".closed.")}
					b, err := importer.Transcript(name, data, o)
					got := render(name, b, err)
					golden := filepath.Join("..", name+".golden")
					if *update {
						require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
						return
					}
					want, rerr := os.ReadFile(golden)
					require.NoError(t, rerr, "no golden: go test ./importer -run Corpus -update, then read it")
					assert.Equal(t, string(want), got)
					if err == nil {
						if format != "unsupported" {
							assert.Equal(t, format, b.Format, "the format is told from the elements")
						}
						for _, line := range bytes.Split(bytes.TrimSpace(b.JSONLines()), []byte("\n")) {
							if len(line) > 0 {
								_, derr := decode.Audit(line)
								assert.NoError(t, derr, "every batch reads as audit input")
							}
						}
					}
				})
			}
		})
	}
}
