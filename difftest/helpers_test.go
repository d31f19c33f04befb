package difftest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// tool is the path of a command on PATH; the test is skipped without it.
func tool(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not on PATH: %v", name, err)
	}
	return path
}

// writeLines writes lines, each ended by a newline, to a new file in the
// test's temporary directory.
func writeLines(t *testing.T, name string, lines [][]byte) string {
	t.Helper()
	var b bytes.Buffer
	for _, l := range lines {
		b.Write(l)
		b.WriteByte('\n')
	}
	file := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(file, b.Bytes(), 0o600))
	return file
}

// run runs a command and returns its standard output's lines; exit status
// 1 is accepted when ok1 (the Node implementation refused some lines).
func run(t *testing.T, cmd *exec.Cmd, ok1 bool) []string {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(ok1 && errors.As(err, &exit) && exit.ExitCode() == 1) {
		require.NoError(t, err, "%s: %s", cmd.Path, stderr.String())
	}
	if len(out) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// nodeAnswers answers each input with the Node implementation in mode
// (assess or audit): one process over one JSON Lines file.
func nodeAnswers(t *testing.T, mode string, inputs [][]byte) []string {
	t.Helper()
	node := tool(t, "node")
	file := writeLines(t, mode+".jsonl", inputs)
	script := filepath.Join("..", "scripts", "node", "toolgate.js")
	lines := run(t, exec.CommandContext(t.Context(), node, script, mode, file), true)
	require.Len(t, lines, len(inputs), "the Node implementation answers every line")
	return lines
}

// refused says whether a Node answer is the input check's refusal.
func refused(answer string) bool {
	return strings.HasPrefix(answer, `{"error":`)
}

// sameJSON says whether two JSON texts are equal as JSON values.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// disagreements gathers what two implementations answered differently:
// how many, by kind, and the first few in full.
type disagreements struct {
	n      int
	kinds  map[string]int
	shown  []string
	inputs int
}

func (d *disagreements) add(kind string, input []byte, a, b string) {
	if d.kinds == nil {
		d.kinds = map[string]int{}
	}
	d.n++
	d.kinds[kind]++
	if len(d.shown) < 10 {
		d.shown = append(d.shown, fmt.Sprintf("input: %s\n  %s\n  %s", visible(string(input)), visible(a), visible(b)))
	}
}

// report fails the test when there were disagreements, listing their
// kinds and the first ten.
func (d *disagreements) report(t *testing.T, what string) {
	t.Helper()
	if d.n == 0 {
		t.Logf("%s: no disagreement over %d inputs", what, d.inputs)
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d of %d inputs answered differently\nby kind:", what, d.n, d.inputs)
	for _, k := range sortedKeys(d.kinds) {
		fmt.Fprintf(&b, "\n  %6d  %s", d.kinds[k], k)
	}
	b.WriteString("\nthe first ones:")
	for i, s := range d.shown {
		fmt.Fprintf(&b, "\n%d. %s", i+1, s)
	}
	t.Error(b.String())
}

// visible is s with the characters a terminal does not show, or shows as
// something else, escaped: white space other than U+0020, format and
// private-use characters, bytes that are not UTF-8.
func visible(s string) string {
	var b strings.Builder
	for i, c := range s {
		switch {
		case c == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unicode.IsPrint(c):
			b.WriteRune(c)
		case c > 0xffff:
			fmt.Fprintf(&b, `\U%08X`, c)
		default:
			fmt.Fprintf(&b, `\u%04X`, c)
		}
	}
	return b.String()
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { // most first, then by name
		return cmp.Or(m[b]-m[a], strings.Compare(a, b))
	})
	return keys
}

// nodeRefusal finds the class of a Node refusal in its message.
var nodeRefusal = regexp.MustCompile(`^\{"error":"line \d+: .*?: (not JSON|not an object|member name twice|unknown member|want |null where a string|null element|required|absent from an approval|empty in an approval|request ID)`)

// codeOf is a verdict's code, or "refused" for an input error, with the
// refusal's class when the Node implementation gave it.
func codeOf(answer string) string {
	if refused(answer) {
		if m := nodeRefusal.FindStringSubmatch(answer); m != nil {
			return "refused (" + strings.TrimSpace(m[1]) + ")"
		}
		return "refused"
	}
	var v struct {
		Code string `json:"code"`
	}
	if json.Unmarshal([]byte(answer), &v) != nil || v.Code == "" {
		return "answered"
	}
	return v.Code
}
