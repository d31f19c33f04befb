package scenarios_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/scenarios"
)

// The built-in scenarios and the examples say only what their inputs hold.
func TestInjectedLinesAgreeWithTheirInputs(t *testing.T) {
	for _, s := range scenarios.Builtin() {
		assert.Empty(t, s.InjectedProblems(), s.ID)
	}
	r := scenarios.LoadPaths("../examples")
	require.Empty(t, r.Problems)
	for _, s := range r.Scenarios {
		assert.Empty(t, s.InjectedProblems(), s.ID)
	}
}

const injectedBase = `id: x
title: {en: X}
injected:
  en: %s
  zh: %s
input:
  contract: {tools: [{name: t, version: v1, effectClass: reversible_write, requiredArguments: [documentId], approvalScope: t}]}
  request: {correlationId: r, tool: {name: t, version: v1}, arguments: {documentId: d}}
  environment: {status: ready}
  approval: {status: active, scope: t}
  invocationRecord: {correlationId: r, status: timed_out, effectStatus: read_back}
expect: {status: allowed, code: admission_allowed}
`

// An injected line that names a field with a value the input does not
// have, or a name that is nowhere in the input, is flagged where the
// line is; prose, negations and verdict words are not.
func TestInjectedProblems(t *testing.T) {
	tests := []struct {
		name, en, zh string
		want         []string
	}{
		{"agrees", `"record timed_out, effectStatus: read_back"`, `记录为 timed_out，effectStatus 为 "read_back"`, nil},
		{"the value edited, the line not", `"record timed_out with effectStatus: unknown"`, `记录为 timed_out，effectStatus 为 "unknown"`,
			[]string{`s.yaml:4:7: injected.en: says effectStatus unknown, but the input's effectStatus is "read_back"`,
				`s.yaml:5:7: injected.zh: says effectStatus unknown, but the input's effectStatus is "read_back"`}},
		{"a field the input lacks", `"a succeeded record, verificationStatus: not_run"`, `成功类记录`,
			[]string{`s.yaml:4:7: injected.en: says verificationStatus not_run, but the input has no verificationStatus`,
				`s.yaml:4:7: injected.en: mentions not_run, which is nowhere in the input`}[:1]},
		{"a value that is nowhere", `a succeeded record`, `记录为 succeeded，not_run`,
			[]string{`s.yaml:5:7: injected.zh: mentions not_run, which is nowhere in the input`}},
		{"an argument that is nowhere", `titleText is missing`, `缺少 documentId`,
			[]string{`s.yaml:4:7: injected.en: mentions titleText, which is nowhere in the input`}},
		{"what-if: the value after the arrow", `"edited in what-if: invocationRecord.effectStatus: \"unknown\" → \"read_back\""`, `x`, nil},
		{"prose and verdict words are not checked", `"an effectClass the trainer does not know; no approval; admission_allowed"`, `环境 ready`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := scenarios.Parse("s.yaml", []byte(strings.NewReplacer("%s", "").Replace(
				strings.Replace(strings.Replace(injectedBase, "%s", tt.en, 1), "%s", tt.zh, 1))))
			require.NoError(t, err)
			var got []string
			for _, p := range s.InjectedProblems() {
				got = append(got, p.Error())
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestInjectedProblemsQuoteLittle: a long value in the input is quoted
// clipped in the message, as every message of a file is.
func TestInjectedProblemsQuoteLittle(t *testing.T) {
	long := strings.Repeat("x", 5000)
	text := strings.Replace(strings.Replace(injectedBase, "%s", `"record timed_out with effectStatus: unknown"`, 1), "%s", "x", 1)
	text = strings.Replace(text, "effectStatus: read_back", "effectStatus: "+long, 1)
	s, err := scenarios.Parse("s.yaml", []byte(text))
	require.NoError(t, err)
	problems := s.InjectedProblems()
	require.NotEmpty(t, problems)
	for _, p := range problems {
		assert.Less(t, len(p.Error()), 400, p.Error())
	}
}
