package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostileScenario is examples/expired-approval-irreversible.yaml with an
// id, a title and a story of an attacker's choosing.
func hostileScenario(t *testing.T, dir, file, id, title, story string) {
	t.Helper()
	data, err := os.ReadFile("../examples/expired-approval-irreversible.yaml")
	require.NoError(t, err)
	text := strings.Replace(string(data), "id: course-expired-approval-irreversible", "id: "+id, 1)
	text = strings.Replace(text, "  en: Irreversible write, approval expired", "  en: "+title, 1)
	text = strings.Replace(text, "  en: >-\n    Yesterday", "  en: >-\n    "+story+" Yesterday", 1)
	require.NoError(t, os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644))
}

// noRaw fails if out holds a control character (but newline and tab) or
// a bidi or invisible control.
func noRaw(t *testing.T, what, out string) {
	t.Helper()
	for _, r := range out {
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0, r == 0x202e, r == 0x200b:
			t.Errorf("%s: %U reaches the terminal:\n%q", what, r, out)
			return
		}
	}
}

// Issue 24, item 8: ids, titles, file and field names from a file reach
// the operator's terminal escaped, whatever the command.
func TestHostileTextIsEscaped(t *testing.T) {
	t.Parallel()
	const osc52, clear, title = "\x1b]52;c;cHduZWQ=\x07", "\x1b[2J", "\x1b]0;pwned\x07"
	dir := t.TempDir()
	hostileScenario(t, dir, "evil.yaml", "evil-one", `"Evil `+osc52+clear+` a\u202egpj.exe z\u200bw"`, "Story "+title+".")
	hostileScenario(t, dir, "bad-id.yaml", `"x\u001b[2J"`, "fine", "fine.")
	hostileScenario(t, dir, "esc\x1b[31m.yaml", "with-a-bad-name", "fine", "fine.")
	env := map[string]string{"TOOLGATE_SCENARIOS": dir}
	for _, args := range [][]string{
		{"validate", dir}, {"validate", "--coverage", dir}, {"list"}, {"list", "--format", "json"},
		{"trace", "evil-one", "--format", "md"}, {"trace", "evil-one"},
	} {
		out, errOut, _ := run(t, "", env, args...)
		noRaw(t, strings.Join(args, " ")+" (stdout)", out)
		noRaw(t, strings.Join(args, " ")+" (stderr)", errOut)
		if args[0] == "validate" && len(args) == 2 {
			assert.Contains(t, out, `id "x\x1b[2J": character 2 is not allowed`)
		}
		if args[0] == "list" && len(args) == 1 {
			assert.Contains(t, out, `\x1b]52;c;cHduZWQ=\x07`, "shown for what it is")
		}
	}
	// What a lecture serves (the students' screens) is escaped too.
	got, _, code := serve(map[string]string{"TOOLGATE_SCENARIOS": dir, "TOOLGATE_CLASS_CODE": "tulip"})
	require.Equal(t, 0, code)
	served := 0
	for _, sc := range got.Scenarios {
		if sc.ID == "evil-one" {
			served++
			noRaw(t, "served title", sc.Title.En)
			noRaw(t, "served story", sc.Story.En)
			assert.Contains(t, sc.Title.En, `a\u202egpj.exe z\u200bw`)
		}
	}
	assert.Equal(t, 1, served)
}

// Issue 24, item 8: a tool list's names reach stderr escaped (stdout is
// the contract, JSON, where they are data).
func TestImportEscapesToolNames(t *testing.T) {
	t.Parallel()
	list := `{"tools":[{"name":"evil\u001b]52;c;cHduZWQ=\u0007\u001b[2J","inputSchema":{"type":"object"}},` +
		`{"name":"rtl\u202eexe","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]}`
	_, errOut, _ := run(t, list, nil, "import", "mcp", "-")
	noRaw(t, "stderr", errOut)
	assert.Contains(t, errOut, `evil\x1b]52`)
}

// Issue 24, item 9: an id that is a path is refused, with its position.
func TestIDThatIsAPathIsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	hostileScenario(t, dir, "pwn.yaml", "../esc/pwned", "fine", "fine.")
	out, _, code := run(t, "", nil, "validate", dir)
	assert.Equal(t, 1, code)
	assert.Regexp(t, `pwn\.yaml:2:5: id "\.\./esc/pwned": character 1 is not allowed: want lowercase letters, digits and -`, out)
}
