package scenarios_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSchemaAgreesWithTheLoader checks docs/scenario.schema.json against
// the files toolgate accepts and refuses: every built-in scenario, every
// example and every template validates; the broken files whose fault a
// schema can see do not.
func TestSchemaAgreesWithTheLoader(t *testing.T) {
	c := jsonschema.NewCompiler()
	schema, err := c.Compile("../docs/scenario.schema.json")
	require.NoError(t, err)

	instance := func(t *testing.T, path string) any {
		t.Helper()
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		var v any
		require.NoError(t, yaml.Unmarshal(data, &v), path)
		// Round-trip through JSON so numbers and maps have JSON's types.
		b, err := json.Marshal(v)
		require.NoError(t, err)
		out, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
		require.NoError(t, err)
		return out
	}
	var good []string
	for _, pattern := range []string{"data/*/*.yaml", "templates/*.yaml", "../examples/*"} {
		m, err := filepath.Glob(pattern)
		require.NoError(t, err)
		good = append(good, m...)
	}
	require.Greater(t, len(good), 25)
	for _, path := range good {
		assert.NoError(t, schema.Validate(instance(t, path)), path)
	}
	for _, name := range []string{"03-unknown-field.yaml", "04-unknown-fields-everywhere.yaml", "05-wrong-type-id.yaml",
		"06-wrong-type-in-input.yaml", "07-missing-request.yaml", "08-missing-everything.yaml", "16-unknown-track.yaml",
		"17-another-tracks-field.yaml", "18-unknown-code.yaml", "24-outcome-invalid-input.yaml", "25-misspelt-input-field.yaml",
		"27-several-input-problems.yaml"} {
		assert.Error(t, schema.Validate(instance(t, "../testdata/bad/"+name)), name)
	}
}
