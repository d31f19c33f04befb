package difftest

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"toolgate/gen"
)

// bookDriver runs the book's assessToolInvocation on each line of a JSON
// Lines file: JSON.stringify of its verdict, or {"error": ...} when it
// throws. The book's module is imported from the path given; nothing of
// it is in this repository.
const bookDriver = `import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
const { assessToolInvocation } = await import(pathToFileURL(process.argv[2]).href);
const out = [];
for (const line of fs.readFileSync(process.argv[3], 'utf8').split('\n')) {
  if (line === '') continue;
  try {
    out.push(JSON.stringify(assessToolInvocation(JSON.parse(line))));
  } catch (e) {
    out.push(JSON.stringify({ error: String(e) }));
  }
}
fs.writeFileSync(1, out.join('\n') + '\n');
`

// TestNodeAgainstBook checks the Node implementation's decision layer
// against the book's own function (docs/decision.md: on every input the check
// accepts, exactly the book's verdict), on 300,000 generated inputs that
// the Node implementation accepts. It runs only when TOOLGATE_BOOK names
// the book's file (examples/agent/tool-invocation-assessment.mjs of the
// public repository Sandu1213/Harness-Engineering-Guide), saved outside
// this repository:
//
//	TOOLGATE_BOOK=/path/to/tool-invocation-assessment.mjs go test ./difftest -run Book -v
func TestNodeAgainstBook(t *testing.T) {
	book := os.Getenv("TOOLGATE_BOOK")
	if book == "" {
		t.Skip("TOOLGATE_BOOK not set: the path of the book's tool-invocation-assessment.mjs")
	}
	book, err := filepath.Abs(book)
	require.NoError(t, err)
	require.FileExists(t, book)
	node := tool(t, "node")
	driver := filepath.Join(t.TempDir(), "book-driver.mjs")
	require.NoError(t, os.WriteFile(driver, []byte(bookDriver), 0o600))

	want := 300_000
	if testing.Short() {
		want = 30_000
	}
	r := rand.New(rand.NewPCG(2026, 4))
	d := disagreements{}
	// Batches of 100,000 keep the memory small: generate, keep what the
	// Node implementation accepts, ask the book about those.
	for d.inputs < want {
		inputs := make([][]byte, 100_000)
		for i := range inputs {
			inputs[i] = gen.Admission(r)
		}
		mine := nodeAnswers(t, "assess", inputs)
		var accepted [][]byte
		var answers []string
		for i, a := range mine {
			if !refused(a) {
				accepted, answers = append(accepted, inputs[i]), append(answers, a)
			}
		}
		file := writeLines(t, "accepted.jsonl", accepted)
		theirs := run(t, exec.CommandContext(t.Context(), node, driver, book, file), false)
		require.Len(t, theirs, len(accepted), "the book's driver answers every line")
		for i, input := range accepted {
			if !sameJSON([]byte(answers[i]), []byte(theirs[i])) {
				d.add("node "+codeOf(answers[i])+", book "+codeOf(theirs[i]), input, "node: "+answers[i], "book: "+theirs[i])
			}
		}
		d.inputs += len(accepted)
	}
	d.report(t, "the Node implementation against the book (decision layer)")
}
