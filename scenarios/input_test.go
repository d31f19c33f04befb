package scenarios

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// viaGoYAML is how inputs were read before inputWriter: go-yaml's value,
// written by encoding/json.
func viaGoYAML(t *testing.T, data []byte) string {
	t.Helper()
	var v struct {
		Input any `yaml:"input"`
	}
	require.NoError(t, yaml.Unmarshal(data, &v))
	b, err := json.Marshal(v.Input)
	require.NoError(t, err)
	return canonical(t, b)
}

func canonical(t *testing.T, b []byte) string {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(b, &v), string(b))
	out, err := json.Marshal(v)
	require.NoError(t, err)
	return string(out)
}

func viaWriter(t *testing.T, data []byte) (string, error) {
	t.Helper()
	b, err := rawInput(t, data)
	if err != nil {
		return "", err
	}
	return canonical(t, b), nil
}

func rawInput(t *testing.T, data []byte) ([]byte, error) {
	t.Helper()
	g, problem := guard("t.yaml", data)
	require.Nil(t, problem)
	p := fileParser{doc: g.doc}
	return newInputWriter(g.doc.Body).write(nil, p.inputNode(), "input")
}

// TestInputWriterAgreesWithGoYAML: on every value that go-yaml reads as
// JSON reads it, the input is the same as before.
func TestInputWriterAgreesWithGoYAML(t *testing.T) {
	docs := []string{
		"input: {a: 1, b: -2.5, c: true, d: null, e: ~, f: '', g: \"x\\ny\", h: [1, [2, {i: j}]]}",
		"input:\n  a: 0x1F\n  b: 0o17\n  c: 1_000\n  d: +12\n  e: 1.5e3\n  g: 18446744073709551615\n",
		"input:\n  text: |\n    two\n    lines\n  folded: >\n    one\n    line\n",
		"base: &b {x: 1, y: 2}\ninput:\n  m:\n    <<: *b\n    y: 3\n  list: [*b, *b]\n",
		"input:\n  # a comment\n  a:\n  - 1\n  - b: 2\n    c: [3]\n  d: {}\n  e: []\n",
		"input:\n  1: one\n  true: yes\n  null: z\n",
	}
	var files []string
	for _, dir := range []string{"data", "templates", "../examples"} {
		_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && isScenarioFile(path) {
				files = append(files, path)
			}
			return nil
		})
	}
	require.GreaterOrEqual(t, len(files), 26)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		docs = append(docs, string(data))
	}
	for _, doc := range docs {
		got, err := viaWriter(t, []byte(doc))
		require.NoError(t, err, doc)
		assert.Equal(t, viaGoYAML(t, []byte(doc)), got, doc)
	}
}

// TestInputNumbersAreJSONNumbers: what go-yaml turns into strings, JSON
// reads as numbers, and so does a scenario's input now.
func TestInputNumbersAreJSONNumbers(t *testing.T) {
	got, err := rawInput(t, []byte("input: {a: 123456789012345678901234567890, b: 1e400, c: 1e10, d: '1e400', e: \"1e10\"}"))
	require.NoError(t, err)
	assert.Equal(t, `{"a":123456789012345678901234567890,"b":1e400,"c":1e10,"d":"1e400","e":"1e10"}`, string(got))
	assert.Equal(t, `{"a":"123456789012345678901234567890","b":"1e400","c":"1e10","d":"1e400","e":"1e10"}`,
		viaGoYAML(t, []byte("input: {a: 123456789012345678901234567890, b: 1e400, c: 1e10, d: '1e400', e: \"1e10\"}")), "go-yaml alone")

	_, err = viaWriter(t, []byte("input: {a: .inf}"))
	assert.EqualError(t, err, "input.a: .inf: JSON has no infinity or NaN, so no input can hold it")

	// An alias to an anchor inside an anchored mapping: go-yaml reads
	// null, YAML (and the input) mean the anchor's value.
	got, err = rawInput(t, []byte("input: &a\n  x: &x 1\n  y: *x\n"))
	require.NoError(t, err)
	assert.Equal(t, `{"x":1,"y":1}`, string(got))
}
