package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/progress"
)

// outputSchema compiles one output of docs/output.schema.json, with the
// scenario schema it refers to for inputs.
func outputSchema(t *testing.T, def string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	for _, name := range []string{"output.schema.json", "scenario.schema.json"} {
		f, err := os.Open(filepath.Join("..", "docs", name))
		require.NoError(t, err)
		doc, err := jsonschema.UnmarshalJSON(f)
		f.Close()
		require.NoError(t, err, name)
		require.NoError(t, c.AddResource("https://toolgate.invalid/"+name, doc))
	}
	s, err := c.Compile("https://toolgate.invalid/output.schema.json#/$defs/" + def)
	require.NoError(t, err, def)
	return s
}

func instance(t *testing.T, text string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	require.NoError(t, err, text)
	return v
}

// lines validates every line of out against a schema and returns them.
func validLines(t *testing.T, s *jsonschema.Schema, out string) []string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, line := range lines {
		assert.NoError(t, s.Validate(instance(t, line)), line)
	}
	return lines
}

// vectorInputs are the inputs of every vector of a track, one a line.
func vectorInputs(t *testing.T, track string) string {
	t.Helper()
	out, _, code := run(t, "", nil, "vectors", "--track", track)
	require.Equal(t, 0, code)
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var v struct{ Input json.RawMessage }
		require.NoError(t, json.Unmarshal([]byte(line), &v))
		b.Write(v.Input)
		b.WriteByte('\n')
	}
	return b.String()
}

// Every JSON the command line writes is what docs/output.schema.json
// says, on real output: every vector through assess (with and without
// the trace, in both languages) and audit, every scenario of every track
// through trace, the vectors themselves, the imports and a saved progress.
func TestEveryJSONOutputMatchesTheSchema(t *testing.T) {
	t.Parallel()
	t.Run("assess", func(t *testing.T) {
		s := outputSchema(t, "assessLine")
		in := vectorInputs(t, "admission")
		out, _, _ := run(t, in, nil, "assess")
		lines := validLines(t, s, out)
		assert.Len(t, lines, strings.Count(in, "\n"), "a line for each vector")
		assert.Contains(t, out, `,"layer":"input"}`, "the input check's refusals")
		for _, lang := range []string{"en", "zh"} {
			out, _, _ = run(t, in, nil, "assess", "--trace", "--lang", lang)
			lines = validLines(t, s, out)
			assert.Contains(t, lines[0], `"lang":"`+lang+`"`)
		}
		traced := outputSchema(t, "tracedLine")
		assert.NoError(t, traced.Validate(instance(t, lines[0])))
		assert.Error(t, outputSchema(t, "verdict").Validate(instance(t, lines[0])), "a traced line is not a bare verdict")
	})
	t.Run("audit", func(t *testing.T) {
		s := outputSchema(t, "auditLine")
		out, _, _ := run(t, vectorInputs(t, "audit"), nil, "audit")
		validLines(t, s, out)
		out, _, _ = run(t, vectorInputs(t, "audit"), nil, "audit", "--lang", "zh")
		validLines(t, s, out)
	})
	t.Run("trace", func(t *testing.T) {
		s := outputSchema(t, "traceDocument")
		for _, lang := range []string{"en", "zh"} {
			out, _, code := run(t, "", nil, "trace", "--all", "--format", "json", "--lang", lang)
			require.Equal(t, 0, code)
			assert.NoError(t, s.Validate(instance(t, out)), lang)
		}
		for _, args := range [][]string{{"3"}, {"7", "--track", "audit"}, {"8", "--track", "outcome"}} {
			out, _, code := run(t, "", nil, append([]string{"trace", "--format", "json"}, args...)...)
			require.Equal(t, 0, code)
			assert.NoError(t, s.Validate(instance(t, out)), args)
		}
	})
	t.Run("vectors", func(t *testing.T) {
		s := outputSchema(t, "vectorLine")
		for _, track := range []string{"admission", "audit", "outcome"} {
			out, _, code := run(t, "", nil, "vectors", "--track", track)
			require.Equal(t, 0, code)
			validLines(t, s, out)
		}
	})
	t.Run("import", func(t *testing.T) {
		out, _, code := run(t, "", nil, "import", "mcp", "../testdata/harness/mcp/filesystem-tools-list.json", "--contract-version", "fs-1")
		require.Equal(t, 0, code)
		assert.NoError(t, outputSchema(t, "contract").Validate(instance(t, out)))
		for _, name := range []string{"anthropic-messages.json", "openai-responses-input.json", "mcp-session.jsonl", "openai-response-open.json"} {
			out, _, code := run(t, "", nil, "import", "transcript", "../testdata/harness/transcripts/"+name)
			require.Equal(t, 0, code, name)
			validLines(t, outputSchema(t, "auditBatch"), out)
		}
	})
	t.Run("list", func(t *testing.T) {
		s := outputSchema(t, "listDocument")
		for _, args := range [][]string{{}, {"--lang", "zh"}, {"--track", "audit"}, {"--track", "outcome"}, {"--scenarios", "../examples", "--only"}} {
			out, _, code := run(t, "", nil, append([]string{"list", "--format", "json"}, args...)...)
			require.Equal(t, 0, code, args)
			assert.NoError(t, s.Validate(instance(t, out)), args)
		}
	})
	t.Run("progress", func(t *testing.T) {
		s := outputSchema(t, "progressReport")
		path := filepath.Join(t.TempDir(), "progress.json")
		env := map[string]string{"PROGRESS": path}
		out, _, code := run(t, "", env, "progress", "--format", "json")
		require.Equal(t, 0, code)
		assert.NoError(t, s.Validate(instance(t, out)), "no progress yet")
		p := progress.New()
		p.MarkWalked("unknown-tool")
		p.MarkWalked("course-gone")
		p.Record("write-without-approval", progress.Answer{Said: "rule 7, approval_not_active", Half: true, Decided: "rule 7, approval_missing", Caveat: "right"})
		p.Record("audit-missing", progress.Answer{Said: "missing:A", Right: true, Decided: "missing:A"})
		p.Record("course-other", progress.Answer{Said: "not_found", Decided: "found"})
		p.Last, p.Lang = "unknown-tool", "zh"
		p.RecordLearn("js", map[string]progress.Stage{"rule 1": {Agree: 18, Total: 18}, "rule 2": {Agree: 3, Total: 9}}, 1, false)
		p.RecordPractice("rule/3", true)
		p.RecordPractice("rule/3", true)
		p.RecordPractice("rule/3", true)
		p.RecordPractice("rule/7", false)
		require.NoError(t, progress.Store{Path: path}.Merge(progress.New(), p))
		for _, lang := range []string{"en", "zh"} {
			out, _, code = run(t, "", env, "progress", "--format", "json", "--lang", lang)
			require.Equal(t, 0, code)
			assert.NoError(t, s.Validate(instance(t, out)), lang)
		}
		var doc struct {
			Learn []struct {
				Lang   string
				Rules  int
				Stages map[string]struct{ Agree, Total int }
			}
			Practice struct {
				Mastered int
				Rules    []struct{ Rule, Box, Right, Wrong int }
			}
		}
		require.NoError(t, json.Unmarshal([]byte(out), &doc))
		require.Len(t, doc.Learn, 1)
		assert.Equal(t, "js", doc.Learn[0].Lang)
		assert.Equal(t, 1, doc.Learn[0].Rules)
		assert.Equal(t, 3, doc.Learn[0].Stages["rule 2"].Agree)
		require.Len(t, doc.Practice.Rules, 8)
		assert.Equal(t, 1, doc.Practice.Mastered, "rule 3 is in box 4 after three right answers")
		assert.Equal(t, 4, doc.Practice.Rules[2].Box)
		assert.Equal(t, 1, doc.Practice.Rules[6].Wrong)
	})
	t.Run("progress of the exercise track alone", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "progress.json")
		p := progress.New()
		p.RecordLearn("py", map[string]progress.Stage{"rule 1": {Agree: 0, Total: 18}}, 0, false)
		require.NoError(t, progress.Store{Path: path}.Merge(progress.New(), p))
		text, _, code := run(t, "", map[string]string{"PROGRESS": path}, "progress")
		require.Equal(t, 0, code)
		assert.NotContains(t, text, "Nothing yet", "a run of the exercise track is progress too")
		assert.Contains(t, text, "Python     rules 0/8 · 1 run ·")
	})
	t.Run("progress file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "progress.json")
		p := progress.New()
		p.MarkWalked("unknown-tool")
		p.Record("write-without-approval", progress.Answer{Said: "rule 7, approval_not_active", Half: true, Decided: "rule 7, approval_missing", Caveat: "right"})
		p.Record("unknown-tool", progress.Answer{Said: "rule 1, unknown_tool", Right: true, Decided: "rule 1, unknown_tool"})
		p.Last, p.Lang = "unknown-tool", "zh"
		require.NoError(t, progress.Store{Path: path}.Merge(progress.New(), p))
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.NoError(t, outputSchema(t, "progressFile").Validate(instance(t, string(data))))
	})
}

// The schema is not a rubber stamp: the shapes the issue named as wrong
// fail it.
func TestTheSchemaRefusesTheOldShapes(t *testing.T) {
	t.Parallel()
	doc := outputSchema(t, "traceDocument")
	out, _, _ := run(t, "", nil, "trace", "5", "--format", "json")
	var good map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &good))
	reencode := func(v any) any {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return instance(t, string(b))
	}
	require.NoError(t, doc.Validate(reencode(good)))

	bad := map[string]func(map[string]any){
		"localised detail labels": func(m map[string]any) {
			m["details"] = []any{map[string]any{"label": "含义", "text": "x"}}
		},
		"a scenario caveat that is not a does-not-prove line": func(m map[string]any) {
			m["doesNotProve"] = []any{map[string]any{"source": "scenario", "text": "x", "doesNotProve": false}}
		},
		"a step keyed rule/title instead of step/text": func(m map[string]any) {
			steps := m["trace"].([]any)
			steps[0] = map[string]any{"rule": 1, "id": "tool_in_contract", "title": "x", "outcome": "passed", "reads": []any{}}
		},
		"a text outside the text object": func(m map[string]any) { m["title"] = "Correlation conflict" },
	}
	for name, edit := range bad {
		t.Run(name, func(t *testing.T) {
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(out), &m))
			edit(m)
			assert.Error(t, doc.Validate(reencode(m)))
		})
	}
	verdict := outputSchema(t, "verdict")
	assert.Error(t, verdict.Validate(instance(t, `{"status":"rejected","code":"unknown_tool","correlationId":"r","missingArguments":["a"]}`)),
		"missingArguments only with invalid_arguments")
	assert.Error(t, verdict.Validate(instance(t, `{"status":"effect_unknown","code":"timed_out_without_readback","correlationId":"r"}`)),
		"effectStatus with timed_out_without_readback")
	var buf bytes.Buffer
	buf.WriteString(`{"diagnostics":["lost:A"],"pending":[]}`)
	assert.Error(t, outputSchema(t, "auditLine").Validate(instance(t, buf.String())))
	assert.NoError(t, outputSchema(t, "auditLine").Validate(instance(t, `{"diagnostics":["missing:","unknown:"],"pending":[""]}`)),
		`"" is an ID`)
	assert.NoError(t, verdict.Validate(instance(t, `{"status":"requires_approval","code":"approval_revoked","correlationId":""}`)))
	assert.Error(t, outputSchema(t, "assessLine").Validate(instance(t, `{"error":"line 1: environment: required"}`)),
		"an error line says its layer")
	assert.Error(t, outputSchema(t, "assessLine").Validate(instance(t, `{"error":"line 1: x","layer":"book"}`)))
	vector := outputSchema(t, "vectorLine")
	assert.NoError(t, vector.Validate(instance(t, `{"id":"v","layer":"input","input":{},"expect":{"error":"contract: required"}}`)))
	assert.Error(t, vector.Validate(instance(t, `{"id":"v","input":{},"expect":{"error":"contract: required"}}`)), "a vector says its layer")
	assert.Error(t, vector.Validate(instance(t, `{"id":"v","layer":"input","input":{},"expect":{"status":"allowed","code":"admission_allowed","correlationId":"r"}}`)),
		"an input-layer vector is one the check refuses")

	// The two layers of a traced line: the check is there, and a
	// trainer's note is a text of its own.
	line, _, _ := run(t, `{"contract":{"tools":[{"name":"w","requiredArguments":[]}]},"request":{"correlationId":"r","tool":{"name":"w"}},"environment":{"status":"ready"},"approval":{"status":"active"}}`,
		nil, "assess", "--trace")
	traced := outputSchema(t, "tracedLine")
	require.NoError(t, traced.Validate(instance(t, line)))
	assert.Contains(t, line, `"trainerNote":"a careful harness would require every write tool to name its approvalScope`)
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(line), &m))
	delete(m, "check")
	assert.Error(t, traced.Validate(reencode(m)), "a traced line without its input check")
	require.NoError(t, json.Unmarshal([]byte(out), &good))
	delete(good, "check")
	assert.Error(t, doc.Validate(reencode(good)), "an admission walk without its input check")

	list := outputSchema(t, "listDocument")
	out, _, _ = run(t, "", nil, "list", "--format", "json", "--track", "audit")
	require.NoError(t, list.Validate(instance(t, out)))
	for name, edit := range map[string]func(string) string{
		"an admission verdict on the audit track": func(s string) string {
			return strings.Replace(s, `"diagnostics": []`, `"status": "allowed", "code": "admission_allowed", "correlationId": "r"`, 1)
		},
		"a title outside text":        func(s string) string { return strings.Replace(s, `"number": 1,`, `"number": 1, "title": "x",`, 1) },
		"a bare object, not an array": func(s string) string { return s[strings.Index(s, "{") : strings.Index(s, "\n  },")+4] },
	} {
		t.Run(name, func(t *testing.T) {
			bad := edit(out)
			require.NotEqual(t, out, bad)
			assert.Error(t, list.Validate(instance(t, bad)))
		})
	}
}

// list --format json says of each scenario what trace --format json says
// (built without the trace and the path to allowed), and assess --trace
// walks an admission scenario's input as trace does: the same steps, the
// same "does NOT prove" and texts.
func TestListAndAssessTraceAgreeWithTrace(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "zh"} {
		out, _, code := run(t, "", nil, "trace", "--all", "--format", "json", "--lang", lang)
		require.Equal(t, 0, code)
		var docs []map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &docs))
		out, _, code = run(t, "", nil, "list", "--format", "json", "--lang", lang)
		require.Equal(t, 0, code)
		var items []map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &items))
		require.Len(t, items, len(docs))
		for i, doc := range docs {
			text := doc["text"].(map[string]any)
			want := map[string]any{"track": doc["track"], "number": doc["number"], "id": doc["id"], "lang": lang,
				"verdict": doc["verdict"], "decisive": doc["decisive"],
				"text": map[string]any{"title": text["title"], "headline": text["headline"]}}
			assert.Equal(t, want, items[i], doc["id"])
			if doc["track"] != "admission" {
				assert.NotContains(t, doc, "pathToAllowed", doc["id"])
				continue
			}
			assert.Contains(t, doc, "pathToAllowed", doc["id"])
			in, err := json.Marshal(doc["input"])
			require.NoError(t, err)
			out, _, _ = run(t, string(in), nil, "assess", "--trace", "--lang", lang)
			var line map[string]any
			require.NoError(t, json.Unmarshal([]byte(out), &line))
			assert.Equal(t, doc["trace"], line["trace"], doc["id"])
			var caveats []any
			for _, c := range doc["doesNotProve"].([]any) {
				if c.(map[string]any)["source"] == "rule" {
					caveats = append(caveats, c)
				}
			}
			assert.Equal(t, caveats, line["doesNotProve"], doc["id"])
			for key, v := range line["text"].(map[string]any) {
				assert.Equal(t, text[key], v, "%s: text.%s", doc["id"], key)
			}
			assert.Contains(t, line["text"], "meaning", doc["id"])
			_, allowed := text["allowedIsNot"]
			assert.Equal(t, allowed, line["status"] == "allowed", doc["id"])
		}
	}
}
