package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/cli"
	"toolgate/progress"
)

// run runs the command line in-process with a fake environment.
func run(t *testing.T, stdin string, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runOn(t, terminal{}, stdin, env, args...)
}

// terminal says which of the fake streams are terminals, and how wide.
type terminal struct {
	stdin, stdout, stderr bool
	width                 int
}

// runOn is run with some streams taken for terminals.
func runOn(t *testing.T, tty terminal, stdin string, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	e := cli.Env{
		Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Getenv:       func(k string) string { return env[k] },
		ProgressPath: env["PROGRESS"],
		StdinIsTTY:   tty.stdin, StdoutIsTTY: tty.stdout, StderrIsTTY: tty.stderr, Width: tty.width,
	}
	for k, v := range env {
		e.Environ = append(e.Environ, k+"="+v)
	}
	code = cli.Run(args, e)
	return out.String(), errb.String(), code
}

func TestList(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, "", nil, "list", "--track", "admission")
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 14, "the book's seven tests, the demo and six edges")
	assert.Regexp(t, `^ 4  write-without-approval\s+Write without approval\s+requires_approval/approval_missing$`, lines[3])
	assert.Regexp(t, `^ 9  expired-approval\s+Approval expired\s+requires_approval/approval_expired$`, lines[8], "the code names the approval's status")
	out, _, _ = run(t, "", nil, "list")
	assert.Contains(t, out, "Correlation audit (--track audit)")
	assert.Regexp(t, `(?m)^ 2  audit-duplicate-missing-unknown\s+Duplicate, missing, unknown\s+duplicate:A missing:B unknown:C$`, out)
	assert.Regexp(t, `(?m)^ 5  outcome-permission-denied\s+Permission denied\s+permission_denied$`, out)
	out, _, _ = run(t, "", map[string]string{"LANG": "zh_CN.UTF-8"}, "list")
	assert.Contains(t, out, "写入缺批准", "LANG picks Chinese")
	out, _, _ = run(t, "", map[string]string{"LANG": "zh_CN.UTF-8", "LC_ALL": "en_US.UTF-8"}, "list")
	assert.Contains(t, out, "Write without approval", "LC_ALL wins over LANG")
}

func TestTraceText(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, "", nil, "trace", "4")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "\n  Input check, not a rule: passed — toolgate checks this before the book's rules: every member the book's function reads is there",
		"the first layer, toolgate's, before the rules")
	assert.Contains(t, out, "\n  Decision order — each rule asks a question; the first yes fires and decides\n\n  1 ◦ no · passed ")
	assert.Contains(t, out, "7 ➤ YES · FIRED   Write not approved")
	assert.Contains(t, out, `document_update_metadata's effectClass is "reversible_write" (a write) and there is no approval snapshot`)
	assert.Contains(t, out, "8 - not reached   Admit")
	assert.NotContains(t, out, "Trainer's note", "scenario 4 has none")
	assert.Contains(t, out, "does NOT prove: that approval was granted, or that the write happened")
	assert.NotContains(t, out, "\x1b[", "no colour when stdout is not a terminal")

	out, _, _ = run(t, "", nil, "trace", "timed-out-no-readback", "--lang", "zh")
	assert.Contains(t, out, "5 ➤ 是·触发")
	assert.Contains(t, out, "不能推导：可以安全重试，或目标一定没有变化")

	// A trainer's note: on its own line under the step's explanation,
	// said to be the trainer's, not the book's.
	out, _, _ = run(t, "", nil, "trace", "timed-out-no-effect-status")
	assert.Contains(t, out, "  5 ◦ no · passed   Timed out, effect unknown\n"+
		"      record timed out, but effectStatus is absent, not \"unknown\": rule 5 asks for \"unknown\" exactly, so it does not fire\n"+
		"      Trainer's note, not the book's: a careful harness would stop here too")
	out, _, _ = run(t, "", nil, "trace", "13", "--lang", "zh")
	assert.Contains(t, out, "\n      训练器的补充，不是本书的规则：谨慎的 Harness 在这里也会停下")
	out, _, _ = run(t, "", nil, "trace", "2", "--track", "audit")
	assert.Contains(t, out, "\n  Input check, not a step: passed — ", "the audit's check is not a step")
}

func TestTraceFormats(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, "", nil, "trace", "2", "--format", "json")
	require.Equal(t, 0, code)
	var got struct {
		ID      string
		Verdict struct {
			Status, Code     string
			MissingArguments []string
		}
		Check *struct {
			Passed bool
			Text   struct{ Title, Explanation string }
		}
		Trace []struct {
			Step    int
			Outcome string
			Reads   []string
			Text    map[string]string
		}
		DoesNotProve []struct{ Source, Text string }
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got, json.MatchCaseInsensitiveNames(true)))
	assert.Equal(t, "invalid-arguments", got.ID)
	assert.Equal(t, "invalid_arguments", got.Verdict.Code)
	assert.Equal(t, []string{"documentId"}, got.Verdict.MissingArguments)
	require.Len(t, got.Trace, 8)
	assert.Equal(t, "fired", got.Trace[2].Outcome)
	assert.Contains(t, got.Trace[2].Reads, "request.arguments.documentId")
	assert.Equal(t, []struct{ Source, Text string }{{"rule", "that a schema validator ran"}, {"scenario", "that a schema engine ran"}},
		got.DoesNotProve, "the scenario's own caveat is a does-not-prove line too")
	require.NotNil(t, got.Check, "the input check, the first layer")
	assert.True(t, got.Check.Passed)
	assert.Equal(t, "Input check, not a rule", got.Check.Text.Title)
	for _, st := range got.Trace {
		assert.NotContains(t, st.Text, "trainerNote", "scenario 2 has no trainer's note")
	}

	out, _, _ = run(t, "", nil, "trace", "write-without-approval-scope", "--format", "json")
	require.NoError(t, json.Unmarshal([]byte(out), &got, json.MatchCaseInsensitiveNames(true)))
	require.Len(t, got.Trace, 8)
	assert.Equal(t, "a careful harness would require every write tool to name its approvalScope: here any active approval that names no scope approves this write",
		got.Trace[6].Text["trainerNote"], "rule 7's trainer's note, apart from the explanation")
	assert.NotContains(t, got.Trace[6].Text["explanation"], "careful harness")

	out, _, _ = run(t, "", nil, "trace", "--all", "--track", "admission", "--format", "md")
	assert.Equal(t, 14, strings.Count(out, "\n## Admission · Scenario ")+boolInt(strings.HasPrefix(out, "## Admission · Scenario ")))
	assert.Equal(t, 14, strings.Count(out, "\n### Input check, not a rule\n\npassed — "), "the check before the rules, in every walk")
	assert.Contains(t, out, "| 7 | Write not approved | **➤ YES · FIRED** |")
	assert.Contains(t, out, "**Injected:** a reversible write, no approval snapshot")
	assert.Contains(t, out, "|\n\n> **Trainer's note, not the book's (step 5):** a careful harness would stop here too",
		"a trainer's note under the steps table, with its step")
	out, _, _ = run(t, "", nil, "trace", "--all", "--format", "md")
	assert.Equal(t, 30, strings.Count(out, " · Scenario "), "every track")
	assert.Equal(t, 1, strings.Count(out, "## Admission · Scenario 1 · "), "no two scenario headings alike")

	out, _, code = run(t, "", nil, "trace", "2", "--track", "audit")
	require.Equal(t, 0, code)
	assert.Contains(t, out, `3 ➤ YES · FIRED   Result 2: "A"`)
	assert.Contains(t, out, "requested; seen before → duplicate:A")
	assert.Contains(t, out, "Verdict: ✗ duplicate:A  missing:B  unknown:C")
	out, _, _ = run(t, "", nil, "trace", "outcome-invalid-arguments-legacy")
	assert.Contains(t, out, "2 ➤ YES · FIRED   Invalid arguments")
	assert.Contains(t, out, "2025-11-25")
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"trace"}, "which scenario?"},
		{[]string{"trace", "15"}, `no scenario "15"`},
		{[]string{"trace", "1", "--all"}, "not both"},
		{[]string{"trace", "1", "--format", "pdf"}, `--format "pdf": want text, md or json`},
		{[]string{"list", "--lang", "fr"}, `--lang: unknown language "fr"`},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"--scenario", "99"}, `--scenario "99": no such scenario`},
		{[]string{"--step", "10"}, "--step 10: want 0 to 9"},
		{[]string{"list", "--track", "audits"}, `--track "audits": want admission, audit, outcome`},
		{[]string{"trace", "9", "--track", "outcome"}, `no scenario "9" in track outcome`},
		{[]string{}, "the trainer needs a terminal"},
		// A flag's mistake is said before the terminal is looked for.
		{[]string{"--theme", "blue"}, `--theme "blue": want dark, light, high-contrast`},
		{[]string{"--step", "3"}, "--step 3 takes steps in the scenario --scenario opens: give --scenario too"},
		{[]string{"help", "nosuchtopic"}, `help "nosuchtopic": no such command`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, errOut, code := run(t, "", nil, tt.args...)
			assert.Equal(t, 2, code)
			assert.Contains(t, errOut, tt.want)
		})
	}
}

func TestAssessStream(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"contract":{"tools":[]},"request":{"correlationId":"r1","tool":{"name":"x"}},"environment":{}}`,
		`{"contract":{"tools":[{"name":"t","version":"v1","effectClass":"read_only","requiredArguments":[]}]},"request":{"correlationId":"r2","tool":{"name":"t","version":"v1"}},"environment":{"status":"ready"},"invocationRecord":{"correlationId":"r2","status":"succeeded","verificationStatus":5}}`,
		`{"contract":{"tools":[{"name":"t","requiredArguments":["a","b","a"]}]},"request":{"correlationId":"r3","tool":{"name":"t"},"arguments":{"a":3,"b":" \t"}},"environment":{}}`,
		`{"contract":{"tools":[{"name":"t","effectClass":"read_only","requiredArguments":[]}]},"request":{"correlationId":"r4","tool":{"name":"t"}},"environment":{"status":"ready"},"invocationRecord":{"correlationId":"r4","status":"timed_out","effectStatus":"unknown"}}`,
		`{"contract":{"tools":[{"name":"t","effectClass":"read_only"}]},"request":{"correlationId":"r5","tool":{"name":"t"}}}`,
		`{"contract":{"tools":[{"name":"w","requiredArguments":[]}]},"request":{"correlationId":"r6","tool":{"name":"w"}},"environment":{"status":"ready"},"approval":{"status":"revoked"}}`,
	}, "\n")
	out, errOut, code := run(t, in, nil, "assess")
	assert.Equal(t, 1, code, "an invalid input makes the exit status 1")
	assert.Equal(t, `{"status":"rejected","code":"unknown_tool","correlationId":"r1"}
{"error":"line 2: invocationRecord.verificationStatus: want string, got number","layer":"input"}
{"status":"rejected","code":"invalid_arguments","correlationId":"r3","missingArguments":["a","b","a"]}
{"status":"effect_unknown","code":"timed_out_without_readback","correlationId":"r4","effectStatus":"unknown"}
{"error":"line 5: contract.tools[0].requiredArguments: required: an array of names ([] for none) — the book's function calls requiredArguments.filter; environment: required: the book's function reads environment.status ({} is a snapshot without a status)","layer":"input"}
{"status":"requires_approval","code":"approval_revoked","correlationId":"r6"}
`, out, "a name listed twice is missing twice; an input of the old shape is refused by the input check, each missing member named")
	assert.Contains(t, errOut, "2 of 6 inputs were invalid")
}

func TestAssessStopsOnTextThatIsNotJSON(t *testing.T) {
	t.Parallel()
	in := "{\"contract\":{\"tools\":[]},\"request\":{\"correlationId\":\"r1\",\"tool\":{\"name\":\"x\"}},\"environment\":{}}\n{\"a\": tru}\n{}\n"
	out, errOut, code := run(t, in, nil, "assess", "-")
	assert.Equal(t, 2, code)
	assert.Equal(t, `{"status":"rejected","code":"unknown_tool","correlationId":"r1"}`+"\n", out, "what came before is answered")
	assert.Contains(t, errOut, "-:2:10: not JSON: invalid character '}' in literal true")
}

func TestAssessWithTrace(t *testing.T) {
	t.Parallel()
	in := `{"contract":{"tools":[{"name":"t","effectClass":"read_only","requiredArguments":[]}]},"request":{"correlationId":"r","tool":{"name":"t"}},"environment":{}}`
	out, _, code := run(t, in, nil, "assess", "--trace")
	require.Equal(t, 0, code)
	var line struct {
		Code  string `json:"code"`
		Lang  string `json:"lang"`
		Check struct {
			Passed bool `json:"passed"`
			Text   struct {
				Title string `json:"title"`
			} `json:"text"`
		} `json:"check"`
		Trace []struct {
			Step    int    `json:"step"`
			ID      string `json:"id"`
			Outcome string `json:"outcome"`
			Text    struct {
				Explanation string `json:"explanation"`
			} `json:"text"`
		} `json:"trace"`
		DoesNotProve []struct {
			Source string `json:"source"`
			Text   string `json:"text"`
		} `json:"doesNotProve"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &line))
	assert.Equal(t, "environment_not_ready", line.Code)
	assert.Equal(t, "en", line.Lang)
	assert.True(t, line.Check.Passed, "the input check, before the rules")
	assert.Equal(t, "Input check, not a rule", line.Check.Text.Title)
	require.Len(t, line.Trace, 8)
	assert.Equal(t, 4, line.Trace[3].Step)
	assert.Equal(t, "environment_not_ready", line.Trace[3].ID, "the step named for what fires it")
	assert.Equal(t, "fired", line.Trace[3].Outcome)
	assert.Equal(t, `environment has no status: absent is not "ready"`, line.Trace[3].Text.Explanation)
	require.Len(t, line.DoesNotProve, 1)
	assert.Equal(t, "the real state of the environment or of permissions", line.DoesNotProve[0].Text)
}

func TestAssessFileErrors(t *testing.T) {
	t.Parallel()
	_, errOut, code := run(t, "", nil, "assess", filepath.Join(t.TempDir(), "missing.json"))
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "no such file")
}

func TestHelpAndVersion(t *testing.T) {
	t.Parallel()
	for _, cmd := range [][]string{{"--help"}, {"list", "--help"}, {"trace", "--help"}, {"assess", "--help"}} {
		out, _, code := run(t, "", nil, cmd...)
		assert.Equal(t, 0, code, cmd)
		assert.Contains(t, out, "EXAMPLES", cmd)
	}
	// The help's paragraphs are wrapped at the width there is (80 in a
	// pipe), never cut, without trailing spaces; tables stay as written.
	out, _, _ := run(t, "", nil, "trace", "--help")
	assert.Contains(t, strings.Join(strings.Fields(out), " "), "the 8-rule decision order (each rule passed, fired or not reached,", "one paragraph, not the source's lines")
	for _, l := range strings.Split(out, "\n") {
		assert.LessOrEqual(t, ansi.StringWidth(l), 80, "wrapped to 80 in a pipe: %q", l)
		assert.Equal(t, strings.TrimRight(l, " "), l, "no trailing spaces: %q", l)
	}
	out, _, _ = run(t, "", nil, "import", "mcp", "--help")
	assert.Contains(t, out, "\n    name                               → name\n")
	assert.Contains(t, out, "\n    (MCP tools have no version)        → no version (absent)\n")
	out, _, _ = run(t, "", nil, "serve", "--help")
	assert.Contains(t, out, "--room-url tls://10.0.0.5:4222 --room-fingerprint SHA256:...", "an example is wrapped, never cut")
	assert.NotContains(t, out, "…\n", "nothing cut")
	_, errOut, code := run(t, "", nil, "help", "nosuchtopic")
	assert.Equal(t, 2, code, "an unknown help topic is a usage error")
	assert.Contains(t, errOut, `help "nosuchtopic": no such command`)
	out, _, code = run(t, "", nil, "help", "trace")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "toolgate trace [N|ID]")

	out, _, code = run(t, "", nil, "--version")
	assert.Equal(t, 0, code)
	assert.Regexp(t, `^toolgate devel \(go1\.\d+`, out, "a test binary has no module version and no commit")
}

// TestBinary builds the real binary and runs it the way a user would.
func TestBinary(t *testing.T) {
	t.Parallel()
	bin := toolgateBinary(t)

	cmd := exec.Command(bin, "assess")
	cmd.Stdin = strings.NewReader(`{"contract":{"tools":[]},"request":{"correlationId":"r1","tool":{"name":"x"}},"environment":{}}`)
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	got, err := cmd.Output()
	require.NoError(t, err)
	assert.Equal(t, `{"status":"rejected","code":"unknown_tool","correlationId":"r1"}`+"\n", string(got))

	cmd = exec.Command(bin, "assess")
	cmd.Stdin = strings.NewReader("{\n")
	err = cmd.Run()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, 2, ee.ExitCode())

	// > /dev/full: every command that writes says so and fails.
	if full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0); err == nil {
		defer full.Close()
		for _, args := range [][]string{{"trace", "--all", "--format", "md"}, {"notes"}, {"list"}, {"validate", "../examples"}, {"progress"},
			{"list", "--format", "json"}, {"progress", "--format", "json"}, {"man"}, {"--help"}} {
			cmd = exec.Command(bin, args...)
			cmd.Stdout = full
			cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir())
			var errb strings.Builder
			cmd.Stderr = &errb
			err = cmd.Run()
			require.ErrorAs(t, err, &ee, "%v", args)
			assert.Equal(t, cli.ExitWrite, ee.ExitCode(), "%v", args)
			assert.Contains(t, errb.String(), "toolgate: writing the output: write /dev/stdout: no space left on device", "%v", args)
		}
	}
}

func TestAuditStream(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"requested":["A","B"],"results":["B","A"]}`,
		`{"requested":["A","B"],"results":["A","A","C"]}`,
		`{"requested":["A","A"],"results":["A"]}`,
		`{"requested":["A","B","C"],"results":["B"],"closed":false}`,
		`{"requested":["X"]}`,
	}, "\n")
	out, errOut, code := run(t, in, nil, "audit")
	assert.Equal(t, 1, code)
	assert.Equal(t, `{"diagnostics":[],"pending":[]}
{"diagnostics":["duplicate:A","missing:B","unknown:C"],"pending":[]}
{"error":"line 3: requested[1]: duplicate request ID \"A\": which request would a result answer?","layer":"decision"}
{"diagnostics":[],"pending":["A","C"]}
{"error":"line 5: results: required: an array of IDs ([] for none)","layer":"input"}
`, out)
	assert.Contains(t, errOut, "2 of 5 inputs were invalid")

	_, errOut, code = run(t, `{"requested":[}`, nil, "audit")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "-:1:15: not JSON")
}

func TestNotes(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, "", nil, "notes", "--scenario", "4")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "## Admission · Scenario 4 · Write without approval")
	assert.Contains(t, out, "**Ask the room first:** Which rule fires, and with which code? (Answer: rule 7, `approval_missing` — Write not approved.)")
	assert.Contains(t, out, "7. **Write not approved — YES · FIRED**: document_update_metadata's effectClass is")
	assert.Contains(t, out, "\n**Input check, not a rule:** passed — ")

	assert.Contains(t, out, "- **does NOT prove:** that approval was granted, or that the write happened")
	out, _, _ = run(t, "", nil, "notes", "--scenario", "expired-approval")
	assert.Contains(t, out, "(Answer: rule 7, `approval_expired` — Write not approved.)", "the code as the verdict writes it")
	out, _, _ = run(t, "", nil, "notes", "--scenario", "two-tools-one-name")
	assert.Contains(t, out, "\n   - **Trainer's note, not the book's:** the book reads only the first tool of a name", "nested under its step")

	out, _, _ = run(t, "", nil, "notes", "--lang", "zh", "--track", "outcome", "--scenario", "5")
	assert.Contains(t, out, "**先问全场**：这是哪一类结果")

	out, _, _ = run(t, "", nil, "--scenarios", "../examples", "notes", "--only")
	assert.Equal(t, 3, strings.Count("\n"+out, "\n## Admission · Scenario "), "every scenario, separated")
	assert.Contains(t, out, "\n## What this decision does not do\n", "after the admission scenarios")
	assert.Contains(t, out, "**Lecturer notes:** Ask first whether the scope or the status is checked first")
}

// toolgate progress counts the score from the answers kept, one per
// scenario: re-answers replace, never add. It used to say "5 right of 8
// asked" while its list held 7 answers, 4 right.
func TestProgressCountsTheAnswersKept(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "progress.json")
	p := progress.New()
	right := progress.Answer{Said: "rule 1, unknown_tool", Right: true, Decided: "rule 1, unknown_tool"}
	wrong := progress.Answer{Said: "rule 4, environment_not_ready", Decided: "rule 1, unknown_tool"}
	p.Record("unknown-tool", wrong)
	p.Record("unknown-tool", right) // answered again: the second answer is kept
	p.Record("invalid-arguments", progress.Answer{Said: "rule 3, invalid_arguments", Right: true, Decided: "rule 3, invalid_arguments", Caveat: "right"})
	p.Record("write-without-approval", progress.Answer{Said: "规则 7, approval_expired", Half: true, Decided: "规则 7, approval_missing", Caveat: "wrong"})
	p.Record("audit-missing", progress.Answer{Said: "missing:A", Right: true, Decided: "missing:A"})
	p.Record("outcome-found", progress.Answer{Said: "not_found", Decided: "found"})
	p.MarkWalked("unknown-tool")
	p.MarkWalked("course-gone")
	require.NoError(t, progress.Store{Path: path}.Merge(progress.New(), p))
	require.Equal(t, 6, p.Asked, "six answers given")
	halves, answered := p.Score()
	assert.Equal(t, 7, halves, "3 right and a half")
	assert.Equal(t, 5, answered)
	env := map[string]string{"PROGRESS": path}

	out, _, code := run(t, "", env, "progress")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "Quiz score: 3½ of 5,")
	assert.Regexp(t, `(?m)^Admission\s+█░{19}  1 of 14 walked · quiz 2½ of 3 answered$`, out)
	assert.Regexp(t, `(?m)^Correlation audit\s+░{20}  0 of 8 walked · quiz 1 of 1 answered$`, out)
	assert.Regexp(t, `(?m)^   4  Write without approval\s+—\s+½ said rule 7, approval_expired; decided rule 7, approval_missing; what it does NOT prove: wrong$`, out)
	assert.Contains(t, out, "✓ said rule 3, invalid_arguments; what it does NOT prove: right")
	assert.Contains(t, out, "Scenarios not loaded now\n  course-gone  walked\n")
	assert.NotContains(t, out, "scenarios\n", "no \"1 scenarios\"")

	// The same counts for scripts.
	out, _, code = run(t, "", env, "progress", "--format", "json")
	require.Equal(t, 0, code)
	var report struct {
		File     string
		Points   float64
		Answered int
		Tracks   []struct {
			Track         string
			Walked, Total int
			Points        float64
			Answered      int
			Scenarios     []struct {
				Number int
				ID     string
				Walked bool
				Answer *progress.Answer
			}
		}
		Unloaded []struct {
			ID     string
			Walked bool
			Answer *progress.Answer
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &report, json.MatchCaseInsensitiveNames(true)))
	assert.Equal(t, path, report.File)
	assert.Equal(t, 3.5, report.Points)
	assert.Equal(t, 5, report.Answered)
	require.Len(t, report.Tracks, 3)
	adm := report.Tracks[0]
	assert.Equal(t, []any{"admission", 1, 14, 2.5, 3}, []any{adm.Track, adm.Walked, adm.Total, adm.Points, adm.Answered})
	assert.Equal(t, "write-without-approval", adm.Scenarios[3].ID)
	require.NotNil(t, adm.Scenarios[3].Answer)
	assert.Equal(t, progress.Answer{Said: "规则 7, approval_expired", Half: true, Decided: "规则 7, approval_missing", Caveat: "wrong"},
		*adm.Scenarios[3].Answer, "the answer as kept")
	assert.Nil(t, adm.Scenarios[2].Answer, "read-only-candidate: never answered")
	assert.Equal(t, []any{"audit", 0, 1.0, 1}, []any{report.Tracks[1].Track, report.Tracks[1].Walked, report.Tracks[1].Points, report.Tracks[1].Answered})
	require.Len(t, report.Unloaded, 1)
	assert.Equal(t, "course-gone", report.Unloaded[0].ID)
	assert.True(t, report.Unloaded[0].Walked)

	out, _, _ = run(t, "", env, "progress", "--lang", "zh")
	assert.Contains(t, out, "测验得分：3½/5，")
	assert.Regexp(t, `(?m)^准入判断\s+█░{19}  已走完 1/14 · 测验 2½ 分，已答 3 题$`, out)
	assert.Regexp(t, `(?m)^   4  写入缺批准\s+—\s+½ 回答 规则 7，approval_expired；实际 规则 7，approval_missing；不能推导的内容：答错$`, out)
	assert.NotRegexp(t, `(?m)^(Admission|Walked|Quiz|Progress)`, out, "all in Chinese")
}

func TestProgressCommand(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "progress.json")
	store := progress.Store{Path: path}
	p := progress.New()
	p.MarkWalked("demo")
	p.Record("write-without-approval", progress.Answer{Said: "rule 4, environment_not_ready", Decided: "rule 7, approval_missing"})
	p.Last, p.Lang = "demo", "en"
	require.NoError(t, store.Merge(progress.New(), p))
	env := map[string]string{"PROGRESS": path}

	out, _, code := run(t, "", env, "progress")
	require.Equal(t, 0, code)
	assert.Regexp(t, `(?m)^   8  Demo: the worked example\s+walked$`, out, "by number and title")
	assert.Contains(t, out, "✗ said rule 4, environment_not_ready; decided rule 7, approval_missing")
	assert.Contains(t, out, "Quiz score: 0 of 1")

	// Standard input that is not a terminal answers nothing: its first
	// line is not taken for a person's yes.
	_, errOut, code := run(t, "y\n", env, "progress", "--reset")
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, errOut, "progress --reset asks first, and standard input is not a terminal: give --yes")
	_, err := os.Stat(path)
	require.NoError(t, err, "not reset")

	// On a terminal, with ACCESSIBLE set: huh's line prompt, y or n typed.
	accessible := map[string]string{"PROGRESS": path, "ACCESSIBLE": "1"}
	tty := terminal{stdin: true, stdout: true, stderr: true}
	for _, in := range []string{"n\n", "\n", "", "no\n"} {
		out, _, code = runOn(t, tty, in, accessible, "progress", "--reset")
		require.Equal(t, 0, code, "%q", in)
		end := "\n" // the terminal echoes the line typed
		if in == "" {
			end = "\n\n" // at the end of the input huh ends the line itself
		}
		assert.Equal(t, "Reset the progress in "+path+"? [y/N] "+end+"Kept.\n", ansi.Strip(out), "%q: no is the default", in)
		_, err = os.Stat(path)
		require.NoError(t, err, "%q: kept", in)
	}
	out, _, code = runOn(t, tty, "maybe\nyes\n", accessible, "progress", "--reset")
	require.Equal(t, 0, code)
	assert.Equal(t, "Reset the progress in "+path+"? [y/N] invalid input. please try again\n"+
		"Reset the progress in "+path+"? [y/N] \nProgress reset.\n", ansi.Strip(out), "asked again until it is an answer")
	_, err = os.Stat(path)
	assert.True(t, os.IsNotExist(err))

	out, _, code = run(t, "", env, "progress", "--reset", "--yes")
	require.Equal(t, 0, code, "resetting nothing is fine")
	assert.Contains(t, out, "Progress reset.")
}

// TestPlainMode: --plain, or ACCESSIBLE set, runs the accessible line mode
// on stdin and stdout, terminal or not.
func TestPlainMode(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, "4\nv\nq\n", nil, "--plain")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "Scenario 4: Write without approval.")
	assert.Contains(t, out, "Verdict: REQUIRES_APPROVAL / approval_missing.")
	assert.NotContains(t, out, "\x1b")
	out, _, code = run(t, "1\nv\nq\n", map[string]string{"ACCESSIBLE": "1"}, "--lang", "zh")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "判断：REJECTED / unknown_tool。")
	assert.NotContains(t, out, "。.", "no ASCII full stop after Chinese")
}

// toolgate progress says "Nothing yet" only when nothing was walked or
// answered, whether the scenario is loaded now or not.
func TestProgressSaysNothingYetOnlyForNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		change  func(*progress.Progress)
		nothing bool
	}{
		{"fresh", func(*progress.Progress) {}, true},
		{"only the last scenario open", func(p *progress.Progress) { p.Last = "demo" }, true},
		{"a loaded scenario walked", func(p *progress.Progress) { p.MarkWalked("demo") }, false},
		{"a scenario not loaded now walked", func(p *progress.Progress) { p.MarkWalked("course-gone") }, false},
		{"a scenario not loaded now answered", func(p *progress.Progress) {
			p.Record("course-gone", progress.Answer{Said: "found", Decided: "not_found"})
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "progress.json")
			p := progress.New()
			tc.change(&p)
			require.NoError(t, progress.Store{Path: path}.Merge(progress.New(), p))
			out, _, code := run(t, "", map[string]string{"PROGRESS": path}, "progress")
			require.Equal(t, 0, code)
			assert.Equal(t, tc.nothing, strings.Contains(out, "Nothing yet"), out)
		})
	}
}
