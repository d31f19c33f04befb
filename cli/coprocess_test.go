package cli_test

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"toolgate/cli"
)

// A harness that writes one request and waits for its verdict: each
// answer must come while the input stays open. The deadline only keeps a
// broken build from hanging the tests; an answer that comes at all passes.
const coprocessDeadline = 2 * time.Minute

var coprocessCases = []struct {
	cmd   string
	input []string
	want  []string
}{
	{"assess", []string{
		`{"contract":{"tools":[]},"request":{"correlationId":"r1","tool":{"name":"x"}},"environment":{}}`,
		`{"contract":{"tools":[{"name":"t","effectClass":"read_only","requiredArguments":[]}]},"request":{"correlationId":"r2","tool":{"name":"t"}},"environment":{"status":"ready"}}`,
		// Over three lines: the usual way.
		"{\"contract\":{\"tools\":[]},\n\"request\":{\"correlationId\":\"r3\",\n\"tool\":{\"name\":\"x\"}},\"environment\":{}}",
		`{"contract":{"tools":[]},"request":{"correlationId":"r4","tool":{"name":"x"}},"environment":{},"typo":1}`,
	}, []string{
		`{"status":"rejected","code":"unknown_tool","correlationId":"r1"}`,
		`{"status":"allowed","code":"admission_allowed","correlationId":"r2"}`,
		`{"status":"rejected","code":"unknown_tool","correlationId":"r3"}`,
		`{"error":"line 6: typo: unknown field; an input has contract, request, environment, approval, invocationRecord","layer":"input"}`,
	}},
	{"audit", []string{
		`{"requested":["A","B"],"results":["B","A"]}`,
		`{"requested":["A","A"],"results":[]}`,
		`{"requested":["A"],"results":["A","C"],"closed":false}`,
	}, []string{
		`{"diagnostics":[],"pending":[]}`,
		`{"error":"line 2: requested[1]: duplicate request ID \"A\": which request would a result answer?","layer":"decision"}`,
		`{"diagnostics":["unknown:C"],"pending":[]}`,
	}},
}

// converse writes each input and reads its answer before writing the
// next, then closes the input.
func converse(t *testing.T, stdin io.WriteCloser, stdout io.Reader, inputs, want []string) {
	t.Helper()
	lines := make(chan string)
	go func() {
		defer close(lines)
		r := bufio.NewReader(stdout)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			lines <- strings.TrimSuffix(line, "\n")
		}
	}()
	written := make(chan error, 1)
	for i, in := range inputs {
		go func() {
			_, err := io.WriteString(stdin, in+"\n")
			written <- err
		}()
		select {
		case line, ok := <-lines:
			require.True(t, ok, "the output ended before the answer to input %d", i+1)
			require.Equal(t, want[i], line)
		case <-time.After(coprocessDeadline):
			t.Fatalf("no answer to input %d while the input stays open", i+1)
		}
		require.NoError(t, <-written)
	}
	require.NoError(t, stdin.Close())
}

// TestAnswersComeWhileTheInputStaysOpen runs assess and audit in process
// on pipes.
func TestAnswersComeWhileTheInputStaysOpen(t *testing.T) {
	t.Parallel()
	for _, tc := range coprocessCases {
		t.Run(tc.cmd, func(t *testing.T) {
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			done := make(chan int, 1)
			go func() {
				code := cli.Run([]string{tc.cmd}, cli.Env{Stdin: inR, Stdout: outW, Stderr: io.Discard,
					Getenv: func(string) string { return "" }})
				outW.Close()
				done <- code
			}()
			converse(t, inW, outR, tc.input, tc.want)
			require.Equal(t, cli.ExitInvalid, <-done)
		})
	}
}

// TestBinaryAnswersWhileTheInputStaysOpen does the same with the real
// binary on operating-system pipes.
func TestBinaryAnswersWhileTheInputStaysOpen(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "toolgate")
	out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput()
	require.NoError(t, err, string(out))
	for _, tc := range coprocessCases {
		t.Run(tc.cmd, func(t *testing.T) {
			cmd := exec.Command(bin, tc.cmd)
			stdin, err := cmd.StdinPipe()
			require.NoError(t, err)
			stdout, err := cmd.StdoutPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			converse(t, stdin, stdout, tc.input, tc.want)
			err = cmd.Wait()
			var ee *exec.ExitError
			require.ErrorAs(t, err, &ee, fmt.Sprint(err))
			require.Equal(t, cli.ExitInvalid, ee.ExitCode())
		})
	}
}
