package scenarios_test

import (
	"os"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/scenarios"
)

// The matrix of SPEC §2, plus the demo.
func TestBuiltinScenariosAreTheMatrix(t *testing.T) {
	all := scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAdmission)
	want := []struct {
		id      string
		code    assess.Code
		missing []string
	}{
		{"unknown-tool", assess.CodeUnknownTool, nil},
		{"invalid-arguments", assess.CodeInvalidArguments, []string{"documentId"}},
		{"read-only-candidate", assess.CodeAdmissionAllowed, nil},
		{"write-without-approval", assess.CodeApprovalMissing, nil},
		{"correlation-conflict", assess.CodeCorrelationConflict, nil},
		{"timed-out-no-readback", assess.CodeTimedOutWithoutReadback, nil},
		{"succeeded-not-verified", assess.CodeToolResultNotVerified, nil},
		{"demo", assess.CodeAdmissionAllowed, nil},
	}
	require.Len(t, all, len(want))
	for i, w := range want {
		s := all[i]
		t.Run(w.id, func(t *testing.T) {
			assert.Equal(t, i+1, s.Number)
			assert.Equal(t, w.id, s.ID)
			assert.Equal(t, "admission", s.Track)
			v := assess.Assess(&s.Input)
			assert.Equal(t, w.code, v.Code)
			assert.Equal(t, w.code.Status(), v.Status)
			assert.Equal(t, w.missing, v.MissingArguments)
			assert.Equal(t, w.code, s.Expect.Code)
			for _, l := range []assess.Lang{assess.English, assess.Chinese} {
				for name, text := range map[string]scenarios.Text{"title": s.Title, "story": s.Story,
					"injected": s.Injected, "doesNotProve": s.DoesNotProve} {
					assert.NotEmpty(t, text.In(l), "%s in %v", name, l)
				}
			}
			assert.NotEqual(t, s.Title.En, s.Title.Zh, "the Chinese title is a translation")
		})
	}
}

func TestSharedContract(t *testing.T) {
	for _, s := range scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAdmission)[:7] {
		c := s.Input.Contract
		require.Equal(t, "chapter-11-v1", c.Version, s.File)
		require.Len(t, c.Tools, 2, s.File)
		assert.Equal(t, assess.Tool{Name: "document_read_metadata", Version: "v1", EffectClass: "read_only",
			RequiredArguments: []string{"documentId"}}, c.Tools[0], s.File)
		scope := "metadata_write"
		assert.Equal(t, assess.Tool{Name: "document_update_metadata", Version: "v1", EffectClass: "reversible_write",
			RequiredArguments: []string{"documentId", "title"}, ApprovalScope: &scope}, c.Tools[1], s.File)
	}
}

const good = `id: x
title: {en: X}
input:
  contract: {tools: [{name: t, version: v1, effectClass: read_only}]}
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
  contract: {tools: [{name: t, version: v1, effectClass: read_only}]}
  request: {correlationId: r, tool: {name: t, version: v1}}
  environment: {status: degraded}
expect:
  status: allowed
  code: admission_allowed
`, `s/bad.yaml:9:9: expected allowed/admission_allowed, assess says blocked/environment_not_ready (rule 4 fired: environment.status is "degraded", not "ready")`},
		{"input field of the wrong type", `id: x
title: {en: X}
input:
  contract: {tools: [{name: t, version: v1}]}
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
	_, ok = scenarios.Find(all, scenarios.TrackAdmission, "9")
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
		seen[s.Expect.Class] = true
	}
	assert.Len(t, seen, 6, "every outcome class has a scenario")
	unknown, ok := scenarios.Find(all, scenarios.TrackOutcome, "outcome-unknown-tool")
	require.True(t, ok)
	assert.Equal(t, assess.ClassProtocolError, unknown.Expect.Class, "MCP's own -32602 \"Unknown tool\" is a protocol error")
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
		s, err := scenarios.Parse(track+".yaml", data)
		require.NoError(t, err, "the %s template must validate", track)
		assert.Equal(t, track, s.Track)
	}
	_, err := scenarios.Template("nope")
	assert.Error(t, err)
}

func TestMarshalRoundTrips(t *testing.T) {
	for _, s := range scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAdmission) {
		data, err := scenarios.Marshal(s, "")
		require.NoError(t, err, s.ID)
		back, err := scenarios.Parse(s.ID+".yaml", data)
		require.NoError(t, err, "%s:\n%s", s.ID, data)
		assert.Equal(t, s.Input, back.Input, s.ID)
		assert.Equal(t, s.Title, back.Title, s.ID)
		assert.Equal(t, s.Expect.Code, back.Expect.Code, s.ID)
	}
	_, err := scenarios.Marshal(scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAudit)[0], "")
	assert.Error(t, err)
}

// TestMarshalKeepsNumbersAndStrings: a number too large for a float64
// stays a number, and a string that looks like a number stays a string,
// through a what-if save and back.
func TestMarshalKeepsNumbersAndStrings(t *testing.T) {
	s := scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAdmission)[2]
	s.Input.Request.Arguments = map[string]any{"documentId": "1e10", "title": assess.Number("1e400"),
		"n": 12.5, "big": "123456789012345678901234567890", "s": ""}
	s.Input.Approval = &assess.Approval{Status: "active"}
	s.Input.InvocationRecord = &assess.InvocationRecord{CorrelationID: s.Input.Request.CorrelationID, Status: "timed_out", EffectStatus: new("")}
	data, err := scenarios.Marshal(s, "")
	require.NoError(t, err)
	back, err := scenarios.Parse("back.yaml", data)
	require.NoError(t, err, string(data))
	assert.Equal(t, s.Input, back.Input, string(data))
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
