package difftest

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/gen"
)

// toolgateAudit is toolgate's audit of one input (decode.Audit, then
// assess.Audit), or the error that refused it; a panic is an error too.
func toolgateAudit(data []byte) (res assess.AuditResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	in, err := decode.Audit(data)
	if err != nil {
		return assess.AuditResult{}, err
	}
	return assess.Audit(in)
}

// javaLine is a batch in AuditHarness's line format: "R", the requested
// IDs, "|", the result IDs, each the hex of its UTF-8 bytes, "-" if empty.
func javaLine(b gen.Batch) []byte {
	var s strings.Builder
	s.WriteString("R")
	ids := func(xs []string) {
		for _, x := range xs {
			s.WriteByte(' ')
			if x == "" {
				s.WriteByte('-')
			} else {
				s.WriteString(hex.EncodeToString([]byte(x)))
			}
		}
	}
	ids(b.Requested)
	s.WriteString(" |")
	ids(b.Results)
	return []byte(s.String())
}

// javaDiagnostics reads an AuditHarness answer: the diagnostics, or
// ok false for ERR (the seed's audit threw).
func javaDiagnostics(t *testing.T, line string) (diagnostics []string, ok bool) {
	t.Helper()
	if line == "ERR" {
		return nil, false
	}
	fields := strings.Fields(line)
	require.Equal(t, "OK", fields[0], "AuditHarness answered %q", line)
	diagnostics = []string{}
	for _, f := range fields[1:] {
		b, err := hex.DecodeString(f)
		require.NoError(t, err, "AuditHarness answered %q", line)
		diagnostics = append(diagnostics, string(b))
	}
	return diagnostics, true
}

// TestAuditAgainstJava runs the seed's own Java audit on generated closed
// batches (absent or true closed: the only case the seed knows) and
// toolgate's on the same batches as JSON: the same diagnostics, in the
// same order; where Java throws (a request ID listed twice), toolgate
// refuses the input.
func TestAuditAgainstJava(t *testing.T) {
	javac, java := tool(t, "javac"), tool(t, "java")
	classes := t.TempDir()
	run(t, exec.CommandContext(t.Context(), javac, "--release", "17", "-encoding", "UTF-8", "-d", classes,
		filepath.Join("..", "scripts", "java", "AuditHarness.java")), false)

	n := 20_000
	if testing.Short() {
		n = 5_000
	}
	r := rand.New(rand.NewPCG(2026, 2))
	batches := make([]gen.Batch, n)
	lines := make([][]byte, n)
	for i := range batches {
		b := gen.NewBatch(r)
		if b.Closed != nil && !*b.Closed {
			b.Closed = nil
		}
		batches[i], lines[i] = b, javaLine(b)
	}
	cmd := exec.CommandContext(t.Context(), java, "-cp", classes, "AuditHarness")
	cmd.Stdin = strings.NewReader(string(writeFile(lines)))
	answers := run(t, cmd, false)
	require.Len(t, answers, n, "AuditHarness answers every line")

	d := disagreements{inputs: n}
	for i, b := range batches {
		want, ok := javaDiagnostics(t, answers[i])
		res, err := toolgateAudit(b.JSON())
		switch {
		case !ok && err != nil:
		case !ok:
			d.add("java threw, toolgate answered", b.JSON(), "java:     ERR", fmt.Sprintf("toolgate: %q pending %q", res.Diagnostics, res.Pending))
		case err != nil:
			d.add("java answered, toolgate refused", b.JSON(), fmt.Sprintf("java:     %q", want), "toolgate: "+err.Error())
		case !equalStrings(want, res.Diagnostics) || len(res.Pending) != 0:
			d.add("other diagnostics", b.JSON(), fmt.Sprintf("java:     %q", want), fmt.Sprintf("toolgate: %q pending %q", res.Diagnostics, res.Pending))
		}
	}
	d.report(t, "toolgate against the seed's Java (audit)")
}

// writeFile is lines, each ended by a newline.
func writeFile(lines [][]byte) []byte {
	var b []byte
	for _, l := range lines {
		b = append(append(b, l...), '\n')
	}
	return b
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestAuditAgainstNode audits generated inputs, open batches and refusals
// among them, with toolgate and with the Node implementation written from
// docs/decision.md alone: both refuse, or both give the same diagnostics and
// pending IDs as JSON values.
func TestAuditAgainstNode(t *testing.T) {
	n := 20_000
	if testing.Short() {
		n = 5_000
	}
	r := rand.New(rand.NewPCG(2026, 3))
	inputs := make([][]byte, n)
	for i := range inputs {
		inputs[i] = gen.Audit(r)
	}
	node := nodeAnswers(t, "audit", inputs)

	d := disagreements{inputs: n}
	for i, input := range inputs {
		res, err := toolgateAudit(input)
		var mine string
		if err != nil {
			b, _ := json.Marshal(map[string]string{"error": err.Error()})
			mine = string(b)
		} else {
			b, err := json.Marshal(res)
			require.NoError(t, err)
			mine = string(b)
		}
		switch {
		case refused(node[i]) && refused(mine):
		case refused(node[i]):
			d.add("node "+codeOf(node[i])+", toolgate answered", input, "node:     "+node[i], "toolgate: "+mine)
		case refused(mine):
			d.add("node answered, toolgate refused", input, "node:     "+node[i], "toolgate: "+mine)
		case !sameJSON([]byte(node[i]), []byte(mine)):
			d.add("other diagnostics or pending", input, "node:     "+node[i], "toolgate: "+mine)
		}
	}
	d.report(t, "toolgate against node (audit)")
}
