package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/cli"
	"toolgate/progress"
)

// TestLearnInitNeverOverwrites: init writes the starter, and a second
// init keeps every file the learner has, putting back only one removed.
func TestLearnInitNeverOverwrites(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "gate")
	out, _, code := run(t, "", nil, "learn", "init", "--lang", "js", dir)
	require.Equal(t, 0, code, out)
	for _, f := range []string{"assess.mjs", "harness.mjs", "assess.test.mjs", "README.md"} {
		assert.Contains(t, out, "wrote "+filepath.Join(dir, f))
	}
	mine := []byte("export function assessToolInvocation() { return 'mine'; }\n")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "assess.mjs"), mine, 0o644))
	require.NoError(t, os.Remove(filepath.Join(dir, "harness.mjs")))
	out, _, code = run(t, "", nil, "learn", "init", "--lang", "javascript", dir)
	require.Equal(t, 0, code)
	assert.Contains(t, out, "kept  "+filepath.Join(dir, "assess.mjs")+" (yours; not overwritten)")
	assert.Contains(t, out, "wrote "+filepath.Join(dir, "harness.mjs"))
	got, err := os.ReadFile(filepath.Join(dir, "assess.mjs"))
	require.NoError(t, err)
	assert.Equal(t, mine, got)

	_, errOut, code := run(t, "", nil, "learn", "init", "--lang", "cobol", dir)
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, errOut, `unknown language "cobol": want js, py, go or java`)
	_, errOut, code = run(t, "", nil, "learn", "init", dir)
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, errOut, "give --lang js, py, go or java")
}

// TestLearnOnceExitStatus: learn --once exits 1 on the starter (red), 2
// when the learner's file does not even parse — with its file and line
// — and 0 once the gate agrees; each run is kept in the progress.
func TestLearnOnceExitStatus(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not on PATH: learn --once on a JavaScript gate is not run here")
	}
	dir := t.TempDir()
	state := filepath.Join(t.TempDir(), "progress.json")
	env := map[string]string{"PROGRESS": state}
	_, _, code := run(t, "", nil, "learn", "init", "--lang", "js", dir)
	require.Equal(t, 0, code)

	out, _, code := run(t, "", env, "learn", "--once", dir)
	assert.Equal(t, cli.ExitInvalid, code)
	assert.Contains(t, out, "this is the seed's red step")

	broken := "export function assessToolInvocation({ contract }) {\n  if (contract {\n}\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "assess.mjs"), []byte(broken), 0o644))
	out, _, code = run(t, "", env, "learn", "--once", dir)
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, out, "Your gate does not run — in your code or its toolchain, not in toolgate.")
	assert.Contains(t, out, "assess.mjs:2")
	assert.Contains(t, out, "SyntaxError")

	solution, err := os.ReadFile(filepath.Join("..", "learn", "testdata", "solution", "assess.mjs"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "assess.mjs"), solution, 0o644))
	out, _, code = run(t, "", env, "learn", "--once", "--lang", "zh", dir)
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "绿——你的门在每个判断向量上都与本书一致")

	p, _, err := progress.Store{Path: state}.Load()
	require.NoError(t, err)
	js := p.Learn["js"]
	assert.Equal(t, 2, js.Runs, "the run that could not run is not kept")
	assert.True(t, js.Green)
	assert.Equal(t, 8, js.Rules)
	out, _, code = run(t, "", env, "progress")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "JavaScript green · rules 8/8 · 2 runs")
}

// TestLearnNeedsAStarter: learn in a directory without one says how to
// start, and the watch view needs a terminal.
func TestLearnNeedsAStarter(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, errOut, code := run(t, "", nil, "learn", "--once", dir)
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, errOut, "holds no starter")
	assert.Contains(t, errOut, "toolgate learn init --lang js "+dir)
	_, _, code = run(t, "", nil, "learn", "init", "--lang", "py", dir)
	require.Equal(t, 0, code)
	_, errOut, code = run(t, "", nil, "learn", dir)
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, errOut, "the watch view needs a terminal; give --once")
}

// TestPracticeGolden pins `toolgate practice --seed 1 --count 5`, the
// worksheet and the JSON lines: a change to gen's pools or to how
// practice draws shows here. Regenerate with `go test ./cli -run
// TestPracticeGolden -update` and read the diff.
func TestPracticeGolden(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for _, args := range [][]string{
		{"practice", "--seed", "1", "--count", "5"},
		{"practice", "--seed", "1", "--count", "5", "--format", "json"},
	} {
		out, errOut, code := run(t, "", nil, args...)
		fmt.Fprintf(&b, "$ toolgate %s\n%s%sexit %d\n\n", strings.Join(args, " "), out, errOut, code)
	}
	golden.RequireEqual(t, b.String())
}

// TestPracticeSameSeedSameCases: the worksheet and the JSON lines are the
// same for a seed, differ for another, and each line's verdict is what
// toolgate assess answers for its input.
func TestPracticeSameSeedSameCases(t *testing.T) {
	t.Parallel()
	a, _, code := run(t, "", nil, "practice", "--seed", "7", "--count", "5")
	require.Equal(t, 0, code)
	b, _, _ := run(t, "", nil, "practice", "--seed", "7", "--count", "5")
	c, _, _ := run(t, "", nil, "practice", "--seed", "8", "--count", "5")
	assert.Equal(t, a, b)
	assert.NotEqual(t, a, c)
	assert.Contains(t, a, "# Practice: which rule decides? (seed 7)")
	assert.Contains(t, a, "## Answers")
	zh, _, _ := run(t, "", nil, "practice", "--seed", "7", "--count", "5", "--lang", "zh")
	assert.Contains(t, zh, "## 答案")

	lines, _, code := run(t, "", nil, "practice", "--seed", "7", "--count", "20", "--format", "json")
	require.Equal(t, 0, code)
	var inputs bytes.Buffer
	var verdicts []string
	for _, line := range strings.Split(strings.TrimSpace(lines), "\n") {
		var pc struct {
			Input   jsontext.Value `json:"input"`
			Verdict jsontext.Value `json:"verdict"`
			Story   struct {
				En string `json:"en"`
				Zh string `json:"zh"`
			} `json:"story"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &pc))
		require.NotEmpty(t, pc.Story.En)
		require.NotEmpty(t, pc.Story.Zh)
		inputs.Write(append(pc.Input, '\n'))
		verdicts = append(verdicts, string(pc.Verdict))
	}
	out, _, code := run(t, inputs.String(), nil, "assess")
	require.Equal(t, 0, code)
	assert.Equal(t, verdicts, strings.Split(strings.TrimSpace(out), "\n"), "toolgate assess answers each as the line says")

	_, errOut, code := run(t, "", nil, "practice", "--count", "0")
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, errOut, "--count 0: want 1 to 1000")
	_, errOut, code = run(t, "", nil, "practice", "--format", "text")
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, errOut, `--format "text": want md or json`)
}
