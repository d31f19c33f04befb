package vectors_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/scenarios"
	"toolgate/vectors"
)

func track(t *testing.T, name scenarios.Track) []vectors.Vector {
	t.Helper()
	vs, err := vectors.For(name, scenarios.Builtin())
	require.NoError(t, err)
	return vs
}

func byID(vs []vectors.Vector) map[string]vectors.Vector {
	m := map[string]vectors.Vector{}
	for _, v := range vs {
		m[v.ID] = v
	}
	return m
}

var update = flag.Bool("update", false, "rewrite testdata/<track>.jsonl (read the diff before committing it)")

// TestWriteIsPinned writes every track as JSON Lines and compares it,
// byte for byte, with testdata/<track>.jsonl: a change to any input or
// expectation a gate is checked against shows as a diff to read. The
// file was written with -update; TestScenarioVectorsSayWhatTheScenarioSays
// and TestSpecCases check its answers against answers stated by hand.
func TestWriteIsPinned(t *testing.T) {
	for _, name := range scenarios.Tracks {
		var buf bytes.Buffer
		require.NoError(t, vectors.Write(&buf, track(t, name)))
		path := filepath.Join("testdata", name.String()+".jsonl")
		if *update {
			require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
		}
		want, err := os.ReadFile(path)
		require.NoError(t, err)
		got := strings.Split(buf.String(), "\n")
		for i, line := range strings.Split(string(want), "\n") {
			if i >= len(got) {
				assert.Fail(t, "a line is gone", "%s:%d: %s", path, i+1, line)
				break
			}
			assert.Equal(t, line, got[i], "%s:%d", path, i+1)
		}
		assert.Len(t, got, strings.Count(string(want), "\n")+1, path)
	}
}

// TestWriteIsOneVectorALine reads each written line back as one JSON
// object with exactly the fields id, layer, input and expect.
func TestWriteIsOneVectorALine(t *testing.T) {
	for _, name := range scenarios.Tracks {
		var buf bytes.Buffer
		require.NoError(t, vectors.Write(&buf, track(t, name)))
		require.True(t, strings.HasSuffix(buf.String(), "\n"), name)
		for i, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
			var got map[string]jsontext.Value
			require.NoError(t, json.Unmarshal([]byte(line), &got, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)), "%s:%d", name, i+1)
			assert.ElementsMatch(t, []string{"id", "layer", "input", "expect"}, keys(got), "%s:%d", name, i+1)
			assert.Contains(t, []string{`"decision"`, `"input"`}, string(got["layer"]), "%s:%d", name, i+1)
		}
	}
}

func keys(m map[string]jsontext.Value) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestScenarioVectorsSayWhatTheScenarioSays holds every built-in
// scenario's vector to the expect: block its file states by hand (for
// scenarios 1-7, the book's own tests), not to what the core computes.
func TestScenarioVectorsSayWhatTheScenarioSays(t *testing.T) {
	for _, name := range scenarios.Tracks {
		m := byID(track(t, name))
		for _, s := range scenarios.InTrack(scenarios.Builtin(), name) {
			v, ok := m["scenario/"+s.ID]
			if !assert.True(t, ok, s.ID) {
				continue
			}
			var got struct {
				Status           string   `json:"status"`
				Code             string   `json:"code"`
				MissingArguments []string `json:"missingArguments"`
				EffectStatus     string   `json:"effectStatus"`
				Diagnostics      []string `json:"diagnostics"`
				Pending          []string `json:"pending"`
				Error            string   `json:"error"`
				Class            string   `json:"class"`
			}
			require.NoError(t, json.Unmarshal(v.Expect, &got), s.ID)
			switch c := s.Case.(type) {
			case scenarios.AdmissionCase:
				e := c.Expect
				assert.Equal(t, e.Status.String(), got.Status, s.ID)
				assert.Equal(t, e.Code.Name(e.ApprovalStatus), got.Code, s.ID)
				assert.Equal(t, e.MissingArguments, got.MissingArguments, s.ID)
				assert.Equal(t, e.EffectStatus, got.EffectStatus, s.ID)
			case scenarios.AuditCase:
				e := c.Expect
				if e.Error != "" {
					assert.Contains(t, got.Error, e.Error, s.ID)
					continue
				}
				assert.Equal(t, nilIfEmpty(e.Diagnostics), nilIfEmpty(got.Diagnostics), s.ID)
				assert.Equal(t, nilIfEmpty(e.Pending), nilIfEmpty(got.Pending), s.ID)
			case scenarios.OutcomeCase:
				assert.Equal(t, c.Expect.Class.String(), got.Class, s.ID)
			}
		}
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func TestAdmissionCoversEveryRuleCodeStatus(t *testing.T) {
	rules, codes, statuses := map[assess.Rule]int{}, map[assess.Code]int{}, map[assess.Status]int{}
	errors := 0
	for _, v := range track(t, scenarios.TrackAdmission) {
		a := vectors.Expected(scenarios.TrackAdmission, v.Input)
		if a.Error != "" {
			errors++
			continue
		}
		require.NotNil(t, a.Verdict, v.ID)
		rules[a.Verdict.Code.Rule()]++
		codes[a.Verdict.Code]++
		statuses[a.Verdict.Status]++
	}
	for r := assess.RuleToolInContract; r <= assess.RuleAllow; r++ {
		assert.GreaterOrEqual(t, rules[r], 2, "rule %d decides at least two vectors", r)
	}
	for _, c := range assess.Codes() {
		assert.Positive(t, codes[c], "code %s appears", c)
		assert.Positive(t, statuses[c.Status()], "status %s appears", c.Status())
	}
	assert.GreaterOrEqual(t, errors, 40, "input errors are vectors too")
}

func TestEveryFieldHasItsFourCases(t *testing.T) {
	m := byID(track(t, scenarios.TrackAdmission))
	fields := []string{"contract", "contract.version", "contract.tools", "contract.tools[0].name",
		"contract.tools[0].version", "contract.tools[0].effectClass", "contract.tools[0].requiredArguments",
		"contract.tools[0].approvalScope", "request", "request.correlationId", "request.tool", "request.tool.name",
		"request.tool.version", "request.arguments", "environment", "environment.status", "approval",
		"approval.status", "approval.scope", "invocationRecord", "invocationRecord.correlationId",
		"invocationRecord.status", "invocationRecord.verificationStatus", "invocationRecord.effectStatus"}
	for _, f := range fields {
		for _, c := range []string{"absent", "null", "empty-string"} {
			assert.Contains(t, m, "field/"+f+"/"+c)
		}
		wrong := 0
		for id := range m {
			if strings.HasPrefix(id, "field/"+f+"/wrong-type-") {
				wrong++
				assert.Contains(t, string(m[id].Expect), `"error"`, "%s: a wrong type is an input error", id)
			}
		}
		assert.Equal(t, 1, wrong, "field %s has a wrong-type case", f)
	}
}

// TestSpecCases pins vectors whose answer docs/decision.md §2 states outright, so that
// a change in the core that breaks the contract shows here by name.
func TestSpecCases(t *testing.T) {
	m := byID(track(t, scenarios.TrackAdmission))
	tests := map[string]string{
		"rule/7/scope-empty-is-not-the-name":                   `{"status":"requires_approval","code":"approval_scope_mismatch","correlationId":"call-2"}`,
		"rule/7/scope-empty-is-a-value":                        `{"status":"allowed","code":"admission_allowed","correlationId":"call-2"}`,
		"rule/7/scope-absent-is-not-the-tool-name":             `{"status":"requires_approval","code":"approval_scope_mismatch","correlationId":"call-2"}`,
		"rule/7/scope-absent-matched-by-unscoped-approval":     `{"status":"allowed","code":"admission_allowed","correlationId":"call-2"}`,
		"rule/7/unknown-class-fails-closed":                    `{"status":"requires_approval","code":"approval_missing","correlationId":"call-1"}`,
		"rule/7/approval-expired":                              `{"status":"requires_approval","code":"approval_expired","correlationId":"call-2"}`,
		"rule/7/approval-revoked":                              `{"status":"requires_approval","code":"approval_revoked","correlationId":"call-2"}`,
		"rule/7/approval-status-spells-approval-missing":       `{"status":"requires_approval","code":"approval_missing","correlationId":"call-2"}`,
		"rule/3/two-missing-in-contract-order":                 `{"status":"rejected","code":"invalid_arguments","correlationId":"call-2","missingArguments":["noteId","title"]}`,
		"rule/3/listed-twice-missing-twice":                    `{"status":"rejected","code":"invalid_arguments","correlationId":"call-1","missingArguments":["noteId","noteId"]}`,
		"rule/3/argument-whitespace":                           `{"status":"rejected","code":"invalid_arguments","correlationId":"call-1","missingArguments":["noteId"]}`,
		"rule/3/argument-ideographic-space":                    `{"status":"rejected","code":"invalid_arguments","correlationId":"call-1","missingArguments":["noteId"]}`,
		"rule/3/argument-zero-width-space-is-not-blank":        `{"status":"allowed","code":"admission_allowed","correlationId":"call-1"}`,
		"rule/3/argument-next-line-is-not-blank":               `{"status":"allowed","code":"admission_allowed","correlationId":"call-1"}`,
		"rule/3/name-of-an-inherited-property":                 `{"status":"rejected","code":"invalid_arguments","correlationId":"call-1","missingArguments":["constructor","__proto__","toString"]}`,
		"rule/5/timed-out-effect-unknown":                      `{"status":"effect_unknown","code":"timed_out_without_readback","correlationId":"call-4","effectStatus":"unknown"}`,
		"rule/5/timed-out-effect-absent-does-not-fire":         `{"status":"allowed","code":"admission_allowed","correlationId":"call-4"}`,
		"rule/4/before-rule-7":                                 `{"status":"blocked","code":"environment_not_ready","correlationId":"call-2"}`,
		"rule/1/both-versions-absent":                          `{"status":"allowed","code":"admission_allowed","correlationId":"call-1"}`,
		"rule/1/request-version-absent-tool-v1":                `{"status":"rejected","code":"tool_version_mismatch","correlationId":"call-1"}`,
		"rule/1/request-version-empty-tool-version-absent":     `{"status":"rejected","code":"tool_version_mismatch","correlationId":"call-1"}`,
		"rule/1/only-the-first-entry-of-a-name-is-read":        `{"status":"rejected","code":"tool_version_mismatch","correlationId":"call-1"}`,
		"rule/1/the-first-entry-decides-what-later-rules-read": `{"status":"requires_approval","code":"approval_missing","correlationId":"call-1"}`,
		"rule/2/record-without-correlation-id":                 `{"status":"blocked","code":"correlation_conflict","correlationId":"call-3"}`,
		"field/approval/null":                                  `{"status":"requires_approval","code":"approval_missing","correlationId":"call-2"}`,
		"field/request.tool.name/empty-string":                 `{"status":"rejected","code":"unknown_tool","correlationId":"call-1"}`,
		"unknown/inside-arguments-is-fine":                     `{"status":"allowed","code":"admission_allowed","correlationId":"call-1"}`,
	}
	for id, want := range tests {
		v, ok := m[id]
		if assert.True(t, ok, id) {
			assert.JSONEq(t, want, string(v.Expect), id)
			assert.Equal(t, vectors.LayerDecision, v.Layer, id)
		}
	}
	for _, id := range []string{"unknown/top-level-typo", "unknown/top-level-capitalised", "json/duplicate-field",
		"json/duplicate-field-in-environment", "json/duplicate-argument", "json/environment-missing",
		"json/missing-required-arguments-list", "field/invocationRecord.effectStatus/null", "field/approval.status/empty-string"} {
		assert.Contains(t, string(m[id].Expect), `"error"`, id)
		assert.Equal(t, vectors.LayerInput, m[id].Layer, id)
	}
}

func TestAuditAndOutcomeCover(t *testing.T) {
	kinds := map[string]int{}
	for _, v := range track(t, scenarios.TrackAudit) {
		a := vectors.Expected(scenarios.TrackAudit, v.Input)
		if a.Error != "" {
			kinds["error"]++
			continue
		}
		for _, d := range a.Audit.Diagnostics {
			kind, _, _ := strings.Cut(d, ":")
			kinds[kind]++
		}
		if len(a.Audit.Pending) > 0 {
			kinds["pending"]++
		}
		if len(a.Audit.Diagnostics)+len(a.Audit.Pending) == 0 {
			kinds["clean"]++
		}
	}
	for _, k := range []string{"unknown", "duplicate", "missing", "pending", "clean", "error"} {
		assert.GreaterOrEqual(t, kinds[k], 2, "audit: %s", k)
	}
	classes := map[string]int{}
	for _, v := range track(t, scenarios.TrackOutcome) {
		a := vectors.Expected(scenarios.TrackOutcome, v.Input)
		if a.Error != "" {
			classes["error"]++
			continue
		}
		classes[a.Class.String()]++
	}
	for _, c := range []string{"found", "not_found", "invalid_arguments", "permission_denied", "execution_error", "protocol_error", "error"} {
		assert.GreaterOrEqual(t, classes[c], 2, "outcome: %s", c)
	}
}

func TestUnknownTrack(t *testing.T) {
	_, err := vectors.For(scenarios.Track(9), nil)
	assert.ErrorContains(t, err, "Track(9): want admission, audit, outcome")
	assert.Equal(t, "Track(9): want admission, audit, outcome", vectors.Expected(9, []byte("{}")).Error)
}
