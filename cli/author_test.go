package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/scenarios"
)

// TestValidateBadCorpus pins the exact message for every broken file of
// testdata/bad. Regenerate with `go test ./cli -run TestValidateBadCorpus
// -update` and read the diff.
func TestValidateBadCorpus(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, "", nil, "validate", "../testdata/bad")
	assert.Equal(t, 1, code)
	golden.RequireEqual(t, out)
	files, err := os.ReadDir("../testdata/bad")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 20)
	for _, f := range files {
		assert.Contains(t, out, f.Name(), "every broken file is reported")
	}
}

// TestValidateGoodCorpus: files that are odd but right load — a byte
// order mark, a %YAML directive, anchors and merge keys, numbers that only
// JSON reads as numbers, a scope named "", null for the three optional
// objects.
func TestValidateGoodCorpus(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, "", nil, "validate", "../testdata/good")
	assert.Equal(t, 0, code, out)
	assert.Equal(t, "6 files checked: 6 valid, 0 with problems (0 problems)\n", out)
}

// TestValidateCountsWhatItRead: a path that is not there, or not a file,
// is skipped and counted apart, never as a file with problems (it was
// "2 valid, 1 with problems" for three valid files and a missing path,
// and "-1 valid" for one missing file).
func TestValidateCountsWhatItRead(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, "", nil, "validate", "../examples", "/nonexistent")
	assert.Equal(t, 1, code)
	assert.Equal(t, "/nonexistent: stat: no such file or directory\n3 files checked: 3 valid, 0 with problems; 1 path skipped (1 problem)\n", out)
	out, _, code = run(t, "", nil, "validate", "nonexist.yaml")
	assert.Equal(t, 1, code)
	assert.Equal(t, "nonexist.yaml: stat: no such file or directory\n0 files checked: 0 valid, 0 with problems; 1 path skipped (1 problem)\n", out)
}

func TestValidateExamples(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, "", nil, "validate", "../examples")
	assert.Equal(t, 0, code, out)
	assert.Equal(t, "3 files checked: 3 valid, 0 with problems (0 problems)\n", out)
}

func TestValidateLimits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := filepath.Join(dir, "ten-megabytes.yaml")
	data := bytes.Repeat([]byte("# padding\n"), 1<<20) // 10 MiB
	require.NoError(t, os.WriteFile(big, data, 0o600))
	out, _, code := run(t, "", nil, "validate", big)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "ten-megabytes.yaml: file is larger than 1048576 bytes, the most a scenario may have")

	out, _, code = run(t, "", nil, "validate", t.TempDir())
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "no scenario files")

	out, _, code = run(t, "", nil, "validate", filepath.Join(dir, "nope"))
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "nope: stat: no such file or directory")
}

func TestValidateClashWithBuiltin(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data, err := scenarios.Template(scenarios.TrackAdmission)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "demo.yaml"), bytes.Replace(data, []byte("id: my-first-scenario"), []byte("id: demo"), 1), 0o600))
	out, _, code := run(t, "", nil, "validate", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, `demo.yaml: id "demo" is already used by data/admission/08-demo.yaml (a built-in scenario; rename it, or load with --only)`)
}

func TestScenariosDirLoadsBesideBuiltins(t *testing.T) {
	t.Parallel()
	out, errOut, code := run(t, "", nil, "--scenarios", "../examples", "list", "--track", "admission")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "17  course-version-bump", "after the 14 built-in admission scenarios")
	assert.Empty(t, errOut)

	out, _, code = run(t, "", map[string]string{"TOOLGATE_SCENARIOS": "../examples"}, "list", "--only")
	require.Equal(t, 0, code)
	assert.Equal(t, 3, strings.Count(out, "course-"))

	// A broken file is reported and skipped; the rest still load.
	dir := t.TempDir()
	good, _ := os.ReadFile("../examples/timeout-read-back.yaml")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "good.yaml"), good, 0o600))
	bad, _ := os.ReadFile("../testdata/bad/06-wrong-type-in-input.yaml")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad.yaml"), bad, 0o600))
	out, errOut, code = run(t, "", nil, "--scenarios", dir, "--only", "list")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "course-timeout-read-back")
	assert.Contains(t, errOut, "bad.yaml:5:56: input.request.tool.version: want string, got number")
	assert.Contains(t, errOut, "loaded 1 of 2 scenario files")

	out, _, code = run(t, "", nil, "--scenarios", "../examples", "trace", "course-expired-approval-irreversible", "--format", "md")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "### Lecturer notes")

	_, errOut, code = run(t, "", nil, "--only", "list")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--only: give the scenarios")
}

func TestNew(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	name := filepath.Join(dir, "mine.yaml")
	_, errOut, code := run(t, "", nil, "new", name, "--track", "audit")
	require.Equal(t, 0, code, errOut)
	out, _, code := run(t, "", nil, "validate", name)
	assert.Equal(t, 0, code, "a new scenario validates as it is: %s", out)

	_, errOut, code = run(t, "", nil, "new", name)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "already exists; toolgate new does not overwrite")

	out, _, code = run(t, "", nil, "new")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "track: admission")
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1, "no temporary file is left behind")
}

// validate flags an injected line the input contradicts.
func TestValidateFlagsAStaleInjectedLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "stale.yaml"), []byte(`id: stale-timeout
title: {en: "Timed out, but read back"}
injected:
  en: "record timed_out with effectStatus: unknown"
  zh: 记录为 timed_out，effectStatus 为 "unknown"
input:
  contract: {tools: [{name: t, version: v1, effectClass: read_only, requiredArguments: []}]}
  request: {correlationId: r, tool: {name: t, version: v1}}
  environment: {status: ready}
  invocationRecord: {correlationId: r, status: timed_out, effectStatus: read_back}
expect: {status: allowed, code: admission_allowed}
`), 0o644))
	out, _, code := run(t, "", nil, "validate", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, `stale.yaml:4:7: injected.en: says effectStatus unknown, but the input's effectStatus is "read_back"`)
	assert.Contains(t, out, `stale.yaml:5:7: injected.zh: says effectStatus unknown, but the input's effectStatus is "read_back"`)
	assert.Contains(t, out, "1 file checked: 0 valid, 1 with problems (2 problems)")
}
