package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/cli"
)

// TestHostileStreams runs assess (audit for the audit-* files) on every
// file of testdata/streams — a byte order mark, values too deep or too
// large, numbers that do not fit, a long unknown key, "" against absent,
// text that is not JSON — and pins what it writes, on stdout and stderr,
// and its exit status. The 03 file is read with --max-value 300 so that
// a small file shows the limit. Regenerate with `go test ./cli -run
// TestHostileStreams -update` and read the diff.
func TestHostileStreams(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../testdata/streams/*.jsonl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var b strings.Builder
	for _, f := range files {
		args := []string{"assess"}
		if strings.Contains(f, "audit") {
			args = []string{"audit"}
		}
		if strings.Contains(f, "too-large") {
			args = append(args, "--max-value", "300")
		}
		args = append(args, f)
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		out, errOut, code := run(t, "", nil, args...)
		fmt.Fprintf(&b, "$ toolgate %s   # %d bytes\n%s%sexit %d\n\n", strings.Join(args, " "), len(data), out, errOut, code)
	}
	golden.RequireEqual(t, b.String())
}

// fullDisk fails every write, as /dev/full does.
type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) { return 0, errNoSpace }

var errNoSpace = fmt.Errorf("write /dev/stdout: no space left on device")

// TestWriteErrorsAreReported: `trace --format md > /dev/full`, notes,
// list, validate and progress used to exit 0. Every command checks its
// output: a lost write is a message and exit status 3.
func TestWriteErrorsAreReported(t *testing.T) {
	t.Parallel()
	input, err := os.ReadFile("../testdata/inputs.jsonl")
	require.NoError(t, err)
	progressPath := filepath.Join(t.TempDir(), "progress.json")
	for _, args := range [][]string{
		{"list"}, {"trace", "4"}, {"trace", "--all", "--format", "md"}, {"trace", "6", "--format", "json"},
		{"notes"}, {"validate", "../examples"}, {"progress"}, {"assess"}, {"assess", "--trace"},
		{"audit"}, {"new"}, {"--help"}, {"--version"}, {"list", "--help"},
	} {
		var errb strings.Builder
		stdin := string(input)
		if args[0] == "audit" {
			stdin = `{"requested":["A"],"results":["A"]}`
		}
		code := cli.Run(args, cli.Env{Stdin: strings.NewReader(stdin), Stdout: fullDisk{}, Stderr: &errb,
			Getenv: func(string) string { return "" }, ProgressPath: progressPath})
		assert.Equal(t, cli.ExitWrite, code, "%v: %s", args, errb.String())
		assert.Equal(t, "toolgate: writing the output: write /dev/stdout: no space left on device\n", errb.String(), "%v", args)
	}
}
