package cli_test

import (
	"os"
	"os/exec"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/cli"
	"toolgate/importer"
)

// complete asks the command line for completions as a shell's script
// does (cobra's hidden __complete) and returns the values, their
// descriptions and the directive.
func complete(t *testing.T, env map[string]string, args ...string) (values []string, descs map[string]string, directive string) {
	t.Helper()
	out, _, code := run(t, "", env, append([]string{"__complete"}, args...)...)
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	descs = map[string]string{}
	for _, line := range lines[:len(lines)-1] {
		v, d, _ := strings.Cut(line, "\t")
		values = append(values, v)
		descs[v] = d
	}
	return values, descs, lines[len(lines)-1]
}

const noFiles = ":4" // cobra.ShellCompDirectiveNoFileComp

func TestCompletionOffersValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--track", ""}, []string{"admission", "audit", "outcome"}},
		{[]string{"list", "--track", ""}, []string{"admission", "audit", "outcome"}},
		{[]string{"notes", "--track", ""}, []string{"admission", "audit", "outcome"}},
		{[]string{"vectors", "--track", ""}, []string{"admission", "audit", "outcome"}},
		{[]string{"--theme", ""}, []string{"dark", "light", "high-contrast"}},
		{[]string{"trace", "--lang", ""}, []string{"en", "zh"}},
		{[]string{"--lang", ""}, []string{"en", "zh"}},
		{[]string{"trace", "--format", ""}, []string{"text", "md", "json"}},
		{[]string{"list", "--format", ""}, []string{"text", "json"}},
		{[]string{"progress", "--format", ""}, []string{"text", "json"}},
		{[]string{"import", "transcript", "--format", ""}, importer.Formats},
		// No files where a command takes none.
		{[]string{"progress", ""}, nil},
		{[]string{"list", ""}, nil},
		{[]string{"serve", ""}, nil},
		{[]string{"trace", "--all", ""}, nil},
		{[]string{"trace", "4", ""}, nil},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			got, _, directive := complete(t, nil, tc.args...)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, noFiles, directive, "no file names")
		})
	}
	_, descs, _ := complete(t, nil, "--lang", "zh", "--track", "")
	assert.Equal(t, "关联审计", descs["audit"], "described in the language asked for")

	// A command that reads files still completes them.
	_, _, directive := complete(t, nil, "assess", "")
	assert.Equal(t, ":0", directive)
}

// trace, notes --scenario and --scenario complete scenarios: the numbers
// of the track, then the ids, with titles; today's `__complete trace ""`
// offered file names.
func TestCompletionOffersScenarios(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"trace", ""}, {"notes", "--scenario", ""}, {"--scenario", ""}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			got, descs, directive := complete(t, nil, args...)
			assert.Equal(t, noFiles, directive)
			require.Len(t, got, 14+30, "the admission track's numbers, then every id")
			assert.Equal(t, []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14"}, got[:14])
			assert.Equal(t, "Approval expired", descs["9"])
			assert.Equal(t, "Write without approval", descs["4"])
			assert.Equal(t, "Admission 4: Write without approval", descs["write-without-approval"])
			assert.Contains(t, got, "audit-missing", "an id finds a scenario in any track")
		})
	}
	got, descs, _ := complete(t, nil, "trace", "--track", "audit", "")
	require.Len(t, got, 16, "numbers and ids of --track only")
	assert.Equal(t, "Duplicate, missing, unknown", descs["2"])
	assert.NotContains(t, got, "write-without-approval")

	got, _, _ = complete(t, nil, "trace", "write")
	assert.Equal(t, []string{"write-without-approval", "write-without-approval-scope"}, got, "what was typed filters")
	got, _, _ = complete(t, nil, "trace", "timed-out-no-e")
	assert.Equal(t, []string{"timed-out-no-effect-status"}, got)
	got, _, _ = complete(t, nil, "notes", "--track", "outcome", "--scenario", "outcome-inv")
	assert.Equal(t, []string{"outcome-invalid-arguments", "outcome-invalid-arguments-legacy"}, got)

	// The lecturer's scenarios, from --scenarios or TOOLGATE_SCENARIOS.
	got, descs, _ = complete(t, nil, "--scenarios", "../examples", "--only", "trace", "")
	assert.Contains(t, got, "course-timeout-read-back")
	assert.NotContains(t, got, "unknown-tool", "--only: not the built-in ones")
	assert.NotEmpty(t, descs["1"])
	got, _, _ = complete(t, map[string]string{"TOOLGATE_SCENARIOS": "../examples"}, "trace", "course-t")
	assert.Equal(t, []string{"course-timeout-read-back"}, got)

	// An unknown --track completes nothing rather than guess.
	got, _, directive := complete(t, nil, "trace", "--track", "nope", "")
	assert.Empty(t, got)
	assert.Equal(t, noFiles, directive)
}

func TestManPage(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, "", nil, "man")
	require.Equal(t, 0, code)
	assert.Regexp(t, `^\.TH TOOLGATE 1 "\d{4}-\d\d-\d\d" "toolgate devel \(go1\.\d+[^"]*\)" "User Commands"\n`, out)
	var sections []string
	for _, m := range regexp.MustCompile(`(?m)^\.SH (.+)$`).FindAllStringSubmatch(out, -1) {
		sections = append(sections, m[1])
	}
	assert.Equal(t, []string{"NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "ENVIRONMENT", "EXIT STATUS", "FILES", "SEE ALSO"}, sections)
	for _, cmd := range []string{"assess", "audit", "check", "import", "list", "man", "new", "notes", "progress", "serve", "trace", "validate", "vectors"} {
		assert.Contains(t, out, `\fB`+cmd+`\fP`, "command %s", cmd)
	}
	for _, name := range []string{"NO_COLOR", "CLICOLOR_FORCE", "ACCESSIBLE", "TEA_TRACE", "TEA_DEBUG", "TOOLGATE_SCENARIOS",
		"TOOLGATE_CLASS_CODE", "TOOLGATE_LOG", "GLAMOUR_STYLE"} {
		assert.Regexp(t, `(?m)^`+name+`: `, out, "variable %s", name)
	}
	assert.Contains(t, out, `\fB--log\fP`, "serve's flags")
	assert.Contains(t, out, "may this call go ahead? It shows the 8-rule order", "the description is one paragraph, not a line each")
	for i, line := range strings.Split(out, "\n") {
		// A text line starting with ' or . would be a roff request.
		if line != "" && (line[0] == '\'' || (line[0] == '.' && !regexp.MustCompile(`^\.(TH|SH|PP|TP|RS|RE|IP)\b`).MatchString(line))) {
			t.Errorf("line %d is read as a roff request: %q", i+1, line)
		}
	}
}

// man renders the page as man(1) would, with groff's warnings on: what a
// person reads with `toolgate man | man -l -`.
func TestManPageRenders(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("man"); err != nil {
		t.Skip("no man(1) here")
	}
	page, _, code := run(t, "", nil, "man")
	require.Equal(t, 0, code)
	cmd := exec.Command("man", "--warnings", "-l", "-")
	cmd.Stdin = strings.NewReader(page)
	cmd.Env = append(os.Environ(), "MANWIDTH=80", "MAN_KEEP_FORMATTING=", "LANG=C.UTF-8")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	assert.Empty(t, stderr.String(), "groff has nothing to warn about")
	text := regexp.MustCompile(`.\x08`).ReplaceAllString(string(out), "") // overstrike bold
	assert.Regexp(t, `^TOOLGATE\(1\) +User Commands +TOOLGATE\(1\)`, text)
	for _, want := range []string{"NAME\n       toolgate - A trainer for admitting", "ENVIRONMENT", "EXIT STATUS", "       list\n"} {
		assert.Contains(t, text, want)
	}
}

func TestVersionFromBuildInfo(t *testing.T) {
	t.Parallel()
	settings := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"go install of a release", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "toolgate", Version: "v1.2.0"}},
			"v1.2.0 (go1.26.8)"},
		{"a checkout, changed", &debug.BuildInfo{GoVersion: "go1.26.8",
			Main:     debug.Module{Path: "toolgate", Version: "v0.0.0-20261130154210-9434673d1e2f+dirty"},
			Settings: settings("vcs", "git", "vcs.revision", "9434673d1e2fa8c3b0f6f5d2b8a1c0e9f7d6c5b4", "vcs.time", "2026-11-30T15:42:10Z", "vcs.modified", "true")},
			"v0.0.0-20261130154210-9434673d1e2f+dirty (commit 9434673d1e2f of 2026-11-30T15:42:10Z, modified; go1.26.8)"},
		{"a clean checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "toolgate", Version: "(devel)"},
			Settings: settings("vcs.revision", "9434673d1e2fa8c3b0f6f5d2b8a1c0e9f7d6c5b4", "vcs.modified", "false")},
			"devel (commit 9434673d1e2f; go1.26.8)"},
		{"no VCS information (-buildvcs=false)", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "toolgate", Version: "(devel)"}},
			"devel (go1.26.8)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, cli.VersionOf(tc.info, true))
		})
	}
	assert.Regexp(t, `^devel \(go1\.\d+`, cli.VersionOf(nil, false), "no build information at all")
}

// The real binary, built from this checkout, says which commit it is and
// whether the tree had changes, as git says.
func TestVersionOfACheckout(t *testing.T) {
	t.Parallel()
	bin := toolgateBinary(t)
	if !binary.vcs {
		t.Skip("not a git clone: Go stamps no commit into a build from a git worktree or an archive")
	}
	out, err := exec.Command(bin, "--version").Output()
	require.NoError(t, err)
	head, err := exec.Command("git", "-C", "..", "rev-parse", "HEAD").Output()
	require.NoError(t, err)
	status, err := exec.Command("git", "-C", "..", "status", "--porcelain").Output()
	require.NoError(t, err)
	if string(status) != binary.status {
		t.Skipf("the tree changed while the binary was built (before %q, after %q)", binary.status, status)
	}
	m := regexp.MustCompile(`^toolgate (v\S+) \(commit ([0-9a-f]{12}) of (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)(, modified)?; go1\.\d+\S*\)\n$`).FindStringSubmatch(string(out))
	require.NotNil(t, m, "%q", out)
	assert.Equal(t, string(head[:12]), m[2])
	assert.Equal(t, len(status) > 0, m[4] != "", "modified exactly when git status says so: %q", status)
}

// Colour: on a terminal; with CLICOLOR_FORCE even into a pipe; never with
// NO_COLOR, whatever else is set.
func TestColourConventions(t *testing.T) {
	t.Parallel()
	colour := regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|9[0-7])[;m]`) // a foreground colour
	for _, tc := range []struct {
		name   string
		tty    bool
		env    map[string]string
		colour bool
		escape bool
	}{
		{"piped", false, map[string]string{"TERM": "xterm-256color"}, false, false},
		{"a terminal", true, map[string]string{"TERM": "xterm-256color"}, true, true},
		{"CLICOLOR_FORCE=1 into a pipe", false, map[string]string{"CLICOLOR_FORCE": "1"}, true, true},
		{"CLICOLOR_FORCE=0", false, map[string]string{"CLICOLOR_FORCE": "0", "TERM": "xterm-256color"}, false, false},
		{"NO_COLOR wins over CLICOLOR_FORCE", false, map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, false, false},
		{"NO_COLOR=yes on a terminal: bold stays", true, map[string]string{"NO_COLOR": "yes", "TERM": "xterm-256color"}, false, true},
		{"NO_COLOR and CLICOLOR_FORCE on a terminal", true, map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1", "TERM": "xterm-256color"}, false, true},
		{"TERM=dumb", true, map[string]string{"TERM": "dumb"}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, code := runOn(t, terminal{stdout: tc.tty}, "", tc.env, "trace", "4")
			require.Equal(t, 0, code)
			assert.Contains(t, out, "Write not approved")
			assert.Equal(t, tc.colour, colour.MatchString(out), "colour")
			assert.Equal(t, tc.escape, strings.Contains(out, "\x1b["), "any escape sequence")
		})
	}
}

// The help is fang's, styled; CLICOLOR_FORCE colours it into a pipe,
// NO_COLOR takes the colour out again. fang sees the real file, so this
// runs the binary.
func TestHelpColour(t *testing.T) {
	t.Parallel()
	bin := toolgateBinary(t)
	help := func(env ...string) string {
		cmd := exec.Command(bin, "trace", "--help")
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TERM=xterm-256color"}, env...)
		out, err := cmd.Output()
		require.NoError(t, err)
		return string(out)
	}
	colour := regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|9[0-7])[;m]`)
	plain := help()
	assert.NotContains(t, plain, "\x1b", "piped: plain")
	assert.Contains(t, plain, "EXAMPLES")
	assert.Regexp(t, `--format\s+Output format: text, md or json \(text\)`, plain)
	assert.Regexp(t, colour, help("CLICOLOR_FORCE=1"))
	assert.NotRegexp(t, colour, help("CLICOLOR_FORCE=1", "NO_COLOR=1"))
}

// Errors: one "toolgate: ..." line for scripts and logs; fang's styled
// block on a terminal, the message as written.
func TestErrorStyles(t *testing.T) {
	t.Parallel()
	_, errOut, code := run(t, "", nil, "list", "--frob")
	assert.Equal(t, cli.ExitUsage, code)
	assert.Equal(t, "toolgate: unknown flag: --frob\nRun 'toolgate --help' for usage.\n", errOut)
	_, errOut, _ = run(t, "", nil, "trace", "99")
	assert.Equal(t, "toolgate: trace: no scenario \"99\" in track admission (see 'toolgate list')\n", errOut, "no usage hint: the message says what to do")

	tty := terminal{stdout: true, stderr: true, width: 100}
	env := map[string]string{"TERM": "xterm-256color"}
	_, errOut, code = runOn(t, tty, "", env, "list", "--frob")
	assert.Equal(t, cli.ExitUsage, code)
	text := strings.Join(strings.Fields(stripANSI(errOut)), " ")
	assert.Equal(t, "ERROR unknown flag: --frob Try toolgate --help for usage.", text)
	assert.Contains(t, errOut, "\x1b[", "styled")
	_, errOut, _ = runOn(t, tty, "", env, "trace", "99")
	assert.Equal(t, `ERROR trace: no scenario "99" in track admission (see 'toolgate list')`, strings.Join(strings.Fields(stripANSI(errOut)), " "))
	_, errOut, _ = runOn(t, tty, "", map[string]string{"TERM": "xterm-256color", "NO_COLOR": "1"}, "trace", "99")
	assert.NotRegexp(t, `\x1b\[[0-9;]*(3[0-9]|4[0-9]|9[0-7])[;m]`, errOut, "NO_COLOR: no colour, not even the header's background")
}

var ansiRe = regexp.MustCompile(`\x1b\[[0-9;?]*[a-zA-Z]`)

func stripANSI(s string) string { return ansiRe.ReplaceAllString(s, "") }

// notes and trace --format md are styled by glamour on a terminal and
// the Markdown itself anywhere else (the CommonMark tests read that).
func TestMarkdownOnATerminal(t *testing.T) {
	t.Parallel()
	tty := terminal{stdout: true, width: 80}
	env := map[string]string{"TERM": "xterm-256color"}
	raw, _, code := run(t, "", env, "notes", "--scenario", "4")
	require.Equal(t, 0, code)
	assert.Contains(t, raw, "**Ask the room first:** Which rule fires")
	assert.NotContains(t, raw, "\x1b")

	styled, _, code := runOn(t, tty, "", env, "notes", "--scenario", "4")
	require.Equal(t, 0, code)
	assert.Contains(t, styled, "\x1b[", "styled")
	plain := stripANSI(styled)
	assert.Contains(t, plain, "Ask the room first: Which rule fires", "bold is drawn, not marked")
	assert.NotContains(t, plain, "**")
	assert.Contains(t, plain, "• does NOT prove: that approval was granted")
	for _, line := range strings.Split(plain, "\n") {
		assert.LessOrEqual(t, len([]rune(line)), 80, "wrapped to the terminal: %q", line)
	}

	styled, _, _ = runOn(t, tty, "", env, "trace", "4", "--format", "md")
	plain = stripANSI(styled)
	assert.Regexp(t, `7 │ Write not approved\s+│ ➤ YES ·`, plain, "the table drawn")
	assert.NotContains(t, plain, "|---|")

	styled, _, _ = runOn(t, tty, "", map[string]string{"TERM": "xterm-256color", "NO_COLOR": "1"}, "notes", "--scenario", "4")
	assert.NotRegexp(t, `\x1b\[[0-9;]*(3[0-9]|9[0-7])[;m]`, styled, "NO_COLOR: styled without colour")
	assert.NotContains(t, stripANSI(styled), "**")

	styled, _, _ = runOn(t, tty, "", map[string]string{"TERM": "xterm-256color", "GLAMOUR_STYLE": "ascii"}, "notes", "--scenario", "4")
	assert.Contains(t, styled, "**Verdict:** ✎", "GLAMOUR_STYLE picks glamour's style: ascii marks bold")
}

// list --format json: every scenario listed, as the text list, with the
// same verdict as trace --format json.
func TestListJSON(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, "", nil, "list", "--format", "json")
	require.Equal(t, 0, code)
	var items []struct {
		Track    string
		Number   int
		ID       string
		Lang     string
		Verdict  map[string]any
		Decisive int
		Text     map[string]string
	}
	require.NoError(t, json.Unmarshal([]byte(out), &items, json.MatchCaseInsensitiveNames(true)))
	require.Len(t, items, 14+8+8)
	w := items[3]
	assert.Equal(t, []any{"admission", 4, "write-without-approval", "en", 7}, []any{w.Track, w.Number, w.ID, w.Lang, w.Decisive})
	assert.Equal(t, map[string]any{"status": "requires_approval", "code": "approval_missing", "correlationId": "request-3"}, w.Verdict,
		"the book's test: request-3")
	assert.Equal(t, map[string]string{"title": "Write without approval", "headline": "REQUIRES_APPROVAL / approval_missing"}, w.Text)
	assert.Equal(t, map[string]any{"status": "requires_approval", "code": "approval_expired", "correlationId": "request-3"}, items[8].Verdict,
		"the code names the approval's status")
	assert.Equal(t, []string{"duplicate:A", "missing:B", "unknown:C"}, toStrings(items[15].Verdict["diagnostics"]))
	assert.Equal(t, "permission_denied", items[26].Verdict["class"])

	trace, _, _ := run(t, "", nil, "trace", "4", "--format", "json")
	var doc struct{ Verdict map[string]any }
	require.NoError(t, json.Unmarshal([]byte(trace), &doc, json.MatchCaseInsensitiveNames(true)))
	assert.Equal(t, doc.Verdict, w.Verdict, "the verdict trace writes")

	out, _, _ = run(t, "", nil, "list", "--format", "json", "--track", "outcome", "--lang", "zh")
	require.NoError(t, json.Unmarshal([]byte(out), &items, json.MatchCaseInsensitiveNames(true)))
	require.Len(t, items, 8)
	assert.Equal(t, "zh", items[0].Lang)
	assert.Equal(t, "outcome-found", items[0].ID, "ids stay")
	assert.NotRegexp(t, `^[A-Za-z ]+$`, items[0].Text["title"], "the title in Chinese")

	_, errOut, code := run(t, "", nil, "list", "--format", "md")
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, errOut, `--format "md": want text or json`)
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}
