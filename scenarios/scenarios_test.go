package scenarios_test

import (
	"encoding/json"
	"os"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/scenarios"
)

// bookFixture is the book's test fixture (docs/decision.md §3): its contract and its
// default request, environment and approval, as JSON the tests edit.
const bookContract = `{"version":"chapter-11-v1","tools":[
 {"name":"document_read_metadata","version":"v1","effectClass":"read_only","requiredArguments":["documentId"]},
 {"name":"document_update_metadata","version":"v1","effectClass":"reversible_write","requiredArguments":["documentId","field","value"],"approvalScope":"metadata_write"}]}`

const bookRequest = `{"correlationId":"request-1","tool":{"name":"document_read_metadata","version":"v1"},"arguments":{"documentId":"chapter-11"}}`

// bookInput is the book's createInput: the default snapshots, with the
// members given in place of theirs.
func bookInput(t *testing.T, members map[string]string) assess.Input {
	t.Helper()
	m := map[string]string{"contract": bookContract, "request": bookRequest,
		"environment": `{"status":"ready"}`, "approval": `{"status":"active","scope":"metadata_write"}`}
	for k, v := range members {
		m[k] = v
	}
	text := "{"
	for _, k := range []string{"contract", "request", "environment", "approval", "invocationRecord"} {
		if v, ok := m[k]; ok {
			if len(text) > 1 {
				text += ","
			}
			text += `"` + k + `":` + v
		}
	}
	in, err := decode.Input([]byte(text + "}"))
	require.NoError(t, err)
	return in
}

// TestScenariosAreTheBooksTests: scenarios 1–7 are the book's seven
// tests, input for input, each with the verdict the test asserts; 8 is
// the seed's worked example; the rest teach the edges the table does not
// say.
func TestScenariosAreTheBooksTests(t *testing.T) {
	all := scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAdmission)
	want := []struct {
		id      string
		members map[string]string
		verdict string
	}{
		{"unknown-tool", map[string]string{"request": `{"correlationId":"request-1","tool":{"name":"document_delete","version":"v1"},"arguments":{"documentId":"chapter-11"}}`},
			`{"status":"rejected","code":"unknown_tool","correlationId":"request-1"}`},
		{"invalid-arguments", map[string]string{"request": `{"correlationId":"request-2","tool":{"name":"document_read_metadata","version":"v1"},"arguments":{}}`},
			`{"status":"rejected","code":"invalid_arguments","correlationId":"request-2","missingArguments":["documentId"]}`},
		{"read-only-candidate", nil, `{"status":"allowed","code":"admission_allowed","correlationId":"request-1"}`},
		{"write-without-approval", map[string]string{"approval": "null",
			"request": `{"correlationId":"request-3","tool":{"name":"document_update_metadata","version":"v1"},"arguments":{"documentId":"chapter-11","field":"status","value":"complete"}}`},
			`{"status":"requires_approval","code":"approval_missing","correlationId":"request-3"}`},
		{"correlation-conflict", map[string]string{"invocationRecord": `{"correlationId":"request-other","status":"succeeded","verificationStatus":"accepted"}`},
			`{"status":"blocked","code":"correlation_conflict","correlationId":"request-1"}`},
		{"timed-out-no-readback", map[string]string{"invocationRecord": `{"correlationId":"request-1","status":"timed_out","effectStatus":"unknown"}`},
			`{"status":"effect_unknown","code":"timed_out_without_readback","correlationId":"request-1","effectStatus":"unknown"}`},
		{"succeeded-not-verified", map[string]string{"invocationRecord": `{"correlationId":"request-1","status":"succeeded","verificationStatus":"not_run"}`},
			`{"status":"needs_evidence","code":"tool_result_not_verified","correlationId":"request-1"}`},
		{"demo", map[string]string{
			"contract":         `{"version":"chapter-11-v1","tools":[{"name":"document_read_metadata","version":"v1","effectClass":"read_only","requiredArguments":["documentId"]}]}`,
			"invocationRecord": `{"correlationId":"request-1","status":"succeeded","verificationStatus":"accepted"}`},
			`{"status":"allowed","code":"admission_allowed","correlationId":"request-1"}`},
	}
	edges := []struct{ id, verdict string }{
		{"expired-approval", `{"status":"requires_approval","code":"approval_expired","correlationId":"request-3"}`},
		{"blank-argument", `{"status":"rejected","code":"invalid_arguments","correlationId":"request-1","missingArguments":["documentId"]}`},
		{"two-tools-one-name", `{"status":"rejected","code":"tool_version_mismatch","correlationId":"request-3"}`},
		{"write-without-approval-scope", `{"status":"allowed","code":"admission_allowed","correlationId":"request-4"}`},
		{"timed-out-no-effect-status", `{"status":"allowed","code":"admission_allowed","correlationId":"request-3"}`},
		{"name-required-twice", `{"status":"rejected","code":"invalid_arguments","correlationId":"request-3","missingArguments":["documentId","documentId"]}`},
	}
	require.Len(t, all, len(want)+len(edges))
	check := func(t *testing.T, s scenarios.Scenario, verdict string) {
		assert.Equal(t, "admission", s.Track().String())
		in := s.Case.(scenarios.AdmissionCase).Input
		got, err := json.Marshal(assess.Assess(&in))
		require.NoError(t, err)
		assert.JSONEq(t, verdict, string(got))
		for _, l := range []assess.Lang{assess.English, assess.Chinese} {
			for name, text := range map[string]scenarios.Text{"title": s.Title, "story": s.Story,
				"injected": s.Injected, "doesNotProve": s.DoesNotProve} {
				assert.NotEmpty(t, text.In(l), "%s in %v", name, l)
			}
		}
		assert.NotEqual(t, s.Title.En, s.Title.Zh, "the Chinese title is a translation")
	}
	for i, w := range want {
		s := all[i]
		t.Run(w.id, func(t *testing.T) {
			assert.Equal(t, w.id, s.ID)
			assert.Equal(t, bookInput(t, w.members), s.Case.(scenarios.AdmissionCase).Input, "input for input the book's test")
			check(t, s, w.verdict)
		})
	}
	for i, w := range edges {
		s := all[len(want)+i]
		t.Run(w.id, func(t *testing.T) {
			assert.Equal(t, w.id, s.ID)
			check(t, s, w.verdict)
		})
	}
}

const good = `id: x
title: {en: X}
input:
  contract: {tools: [{name: t, version: v1, effectClass: read_only, requiredArguments: []}]}
  request: {correlationId: r, tool: {name: t, version: v1}}
  environment: {status: ready}
expect: {status: allowed, code: admission_allowed}
`

func TestLoadErrorsNameTheFile(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"wrong expected verdict", `id: x
title: {en: X}
input:
  contract: {tools: [{name: t, version: v1, effectClass: read_only, requiredArguments: []}]}
  request: {correlationId: r, tool: {name: t, version: v1}}
  environment: {status: degraded}
expect:
  status: allowed
  code: admission_allowed
`, `s/bad.yaml:9:9: expected allowed/admission_allowed, assess says blocked/environment_not_ready (rule 4 fired: environment.status is "degraded", not "ready")`},
		{"input field of the wrong type", `id: x
title: {en: X}
input:
  contract: {tools: [{name: t, version: v1, requiredArguments: []}]}
  request: {correlationId: r, tool: {name: t, version: 2}}
expect: {status: allowed, code: admission_allowed}
`, `s/bad.yaml:5:56: input.request.tool.version: want string, got number`},
		{"unknown scenario field", "id: x\ntitel: {en: X}\n", `s/bad.yaml:2:1: titel: unknown field (did you mean title?)`},
		{"unknown code", "id: x\ntitle: {en: X}\ninput: {}\nexpect: {status: allowed, code: admited}\n",
			`s/bad.yaml:4:33: expect.code: unknown code "admited"`},
		{"no expectation", "id: x\ntitle: {en: X}\ninput: {}\n", `s/bad.yaml: expect: required`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := scenarios.Parse("s/bad.yaml", []byte(tt.text))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestLoadFSKeepsOrderAndRejectsDuplicateIDs(t *testing.T) {
	fsys := fstest.MapFS{
		"02-b.yaml": {Data: []byte(good)},
		"01-a.yaml": {Data: []byte(good[:len("id: ")] + "a" + good[len("id: x"):])},
		"03-c.yaml": {Data: []byte(good)},
	}
	all, err := scenarios.LoadFS(fsys, "dir")
	require.Error(t, err)
	assert.Equal(t, `dir/03-c.yaml: id "x" is already used by dir/02-b.yaml`, err.Error())
	require.Len(t, all, 2)
	assert.Equal(t, "a", all[0].ID)
	assert.Equal(t, 2, all[1].Number)
}

func TestTextFallsBackToTheOtherLanguage(t *testing.T) {
	assert.Equal(t, "[en] only", scenarios.Text{En: "only"}.In(assess.Chinese), "a fallback is marked")
	assert.Equal(t, "[中文] 仅", scenarios.Text{Zh: "仅"}.In(assess.English))
	assert.Equal(t, "", scenarios.Text{}.In(assess.English))
	assert.Equal(t, "中", scenarios.Text{En: "en", Zh: "中"}.In(assess.Chinese))
}

func TestFind(t *testing.T) {
	all := scenarios.Builtin()
	s, ok := scenarios.Find(all, scenarios.TrackAdmission, "4")
	require.True(t, ok)
	assert.Equal(t, "write-without-approval", s.ID)
	s, ok = scenarios.Find(all, scenarios.TrackAudit, "2")
	require.True(t, ok)
	assert.Equal(t, "audit-duplicate-missing-unknown", s.ID)
	s, ok = scenarios.Find(all, scenarios.TrackAudit, "demo")
	require.True(t, ok, "an id finds a scenario in any track")
	assert.Equal(t, 8, s.Number)
	_, ok = scenarios.Find(all, scenarios.TrackAdmission, "15")
	assert.False(t, ok)
}

func TestOtherTracks(t *testing.T) {
	all := scenarios.Builtin()
	audit := scenarios.InTrack(all, scenarios.TrackAudit)
	outcome := scenarios.InTrack(all, scenarios.TrackOutcome)
	require.Len(t, audit, 8)
	require.Len(t, outcome, 8)
	for i, s := range audit {
		assert.Equal(t, i+1, s.Number, s.ID)
		assert.NoError(t, s.Check(), s.ID)
		assert.NotEmpty(t, s.DoesNotProve.In(assess.Chinese), s.ID)
	}
	seen := map[assess.OutcomeClass]bool{}
	for _, s := range outcome {
		assert.NoError(t, s.Check(), s.ID)
		seen[s.Case.(scenarios.OutcomeCase).Expect.Class] = true
	}
	assert.Len(t, seen, 6, "every outcome class has a scenario")
	unknown, ok := scenarios.Find(all, scenarios.TrackOutcome, "outcome-unknown-tool")
	require.True(t, ok)
	assert.Equal(t, assess.ClassProtocolError, unknown.Case.(scenarios.OutcomeCase).Expect.Class, "MCP's own -32602 \"Unknown tool\" is a protocol error")
}

func TestTrackErrors(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"audit expectation wrong", "id: a\ntrack: audit\ntitle: {en: A}\ninput: {requested: [A], results: []}\nexpect: {diagnostics: []}\n",
			"expected diagnostics [], the audit says diagnostics [missing:A]"},
		{"another track's field", "id: a\ntrack: audit\ntitle: {en: A}\ninput: {requested: [], results: []}\nexpect: {diagnostics: [], code: unknown_tool}\n",
			"s.yaml:5:33: expect.code: not a field of the audit track"},
		{"outcome input error", "id: o\ntrack: outcome\ntitle: {en: O}\ninput: {result: {isError: false}}\nexpect: {class: found}\n",
			"s.yaml:4:17: input.result.found: required when isError is false"},
		{"unknown track", "id: o\ntrack: outcomes\ntitle: {en: O}\ninput: {}\nexpect: {class: found}\n",
			`s.yaml:2:8: track "outcomes": want admission, audit, outcome`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := scenarios.Parse("s.yaml", []byte(tt.text))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestTemplatesAreValid(t *testing.T) {
	for _, track := range scenarios.Tracks {
		data, err := scenarios.Template(track)
		require.NoError(t, err)
		s, err := scenarios.Parse(track.String()+".yaml", data)
		require.NoError(t, err, "the %s template must validate", track)
		assert.Equal(t, track, s.Track())
	}
	_, err := scenarios.Template(0)
	assert.Error(t, err)
}

func TestMarshalRoundTrips(t *testing.T) {
	for _, s := range scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAdmission) {
		data, err := scenarios.Marshal(s, "")
		require.NoError(t, err, s.ID)
		back, err := scenarios.Parse(s.ID+".yaml", data)
		require.NoError(t, err, "%s:\n%s", s.ID, data)
		assert.Equal(t, s.Case.(scenarios.AdmissionCase).Input, back.Case.(scenarios.AdmissionCase).Input, s.ID)
		assert.Equal(t, s.Title, back.Title, s.ID)
		assert.Equal(t, s.Case.(scenarios.AdmissionCase).Expect.Code, back.Case.(scenarios.AdmissionCase).Expect.Code, s.ID)
	}
	_, err := scenarios.Marshal(scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAudit)[0], "")
	assert.Error(t, err)
}

// TestMarshalKeepsNumbersAndStrings: a number too large for a float64
// stays a number, and a string that looks like a number stays a string,
// through a what-if save and back.
func TestMarshalKeepsNumbersAndStrings(t *testing.T) {
	s := scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAdmission)[2]
	c := s.Case.(scenarios.AdmissionCase)
	c.Input.Request.Arguments = map[string]any{"documentId": "1e10", "title": assess.Number("1e400"), "pad": " \u3000",
		"n": 12.5, "big": "123456789012345678901234567890", "s": ""}
	c.Input.Approval = &assess.Approval{Status: "active"}
	c.Input.InvocationRecord = &assess.InvocationRecord{CorrelationID: assess.Some(c.Input.Request.CorrelationID), Status: assess.Some("timed_out"), EffectStatus: assess.Some("")}
	s.Case = c
	data, err := scenarios.Marshal(s, "")
	require.NoError(t, err)
	back, err := scenarios.Parse("back.yaml", data)
	require.NoError(t, err, string(data))
	assert.Equal(t, c.Input, back.Case.(scenarios.AdmissionCase).Input, string(data))
}

func TestSaveCopyNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	s := scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAdmission)[2]
	first, err := scenarios.SaveCopy(dir, s)
	require.NoError(t, err)
	second, err := scenarios.SaveCopy(dir, s)
	require.NoError(t, err)
	assert.NotEqual(t, first, second)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "two files and no temporary one")
}
