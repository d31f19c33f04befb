package classroom

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/classroom/config"
)

// curlSession is the end-to-end example of docs/web.md: its blocks,
// by the name in the comment before each.
func curlSession(t *testing.T) map[string]string {
	t.Helper()
	doc, err := os.ReadFile("../docs/web.md")
	require.NoError(t, err)
	blocks := map[string]string{}
	re := regexp.MustCompile("(?s)<!-- curl session: ([a-z]+) -->\n```sh\n(.*?)```")
	for _, m := range re.FindAllStringSubmatch(string(doc), -1) {
		blocks[m[1]] = m[2]
	}
	require.Len(t, blocks, 3, "docs/web.md: the curl session's three blocks")
	return blocks
}

// shell is one bash process that runs blocks one after another, keeping
// their variables ($TOKEN) between them, as a person's terminal does.
type shell struct {
	in  io.WriteCloser
	out *bufio.Reader
	n   int
}

func newShell(t *testing.T, env ...string) *shell {
	t.Helper()
	cmd := exec.Command("bash", "--noprofile", "--norc")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), env...)
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = cmd.Stdout
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = in.Close()
		_ = cmd.Wait()
	})
	return &shell{in: in, out: bufio.NewReader(out)}
}

// run runs a block and returns what it printed, line by line.
func (s *shell) run(t *testing.T, block string) []string {
	t.Helper()
	s.n++
	end := fmt.Sprintf("__block %d done__", s.n)
	_, err := fmt.Fprintf(s.in, "%s\necho '%s'\n", block, end)
	require.NoError(t, err)
	var lines []string
	for {
		line, err := s.out.ReadString('\n')
		require.NoError(t, err, "the block stopped: %q", lines)
		line = strings.TrimRight(line, "\n")
		if line == end {
			return lines
		}
		lines = append(lines, line)
	}
}

// TestWebCurlSessionAsWritten (issue 30, item 1): the curl session of
// docs/web.md, as written there, against a lecture on loopback: a client
// that follows the documented routes (choice alone, the token in the
// X-CSRF-Token header) joins, sees the question's choices, answers rule 5
// of scenario 6, moves the presenter's count and receives the reveal.
func TestWebCurlSessionAsWritten(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "sed", "head"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on this machine: the documented curl session needs it", tool)
		}
	}
	blocks := curlSession(t)
	_, addr, base, _ := startWeb(t, config.Config{ClassCode: "tulip", PresenterCode: "orchid"}, Lecture{})
	lecturer := connect(t, addr, "orchid")
	lecturer.waitFor(t, "You lead the room")
	sh := newShell(t, "WEB="+base, "CODE=tulip")

	out := sh.run(t, blocks["join"])
	require.Len(t, out, 2, "the join's status, then the first event: %q", out)
	assert.Equal(t, "303", out[0], "the join")
	first := event(t, out[1])
	assert.False(t, first.Open)

	require.NoError(t, lecturer.send("6"))
	require.NoError(t, lecturer.send("o"))
	lecturer.waitFor(t, "answered 0 of 1")
	out = sh.run(t, blocks["answer"])
	require.Len(t, out, 2, "the event, then the answer's status: %q", out)
	asked := event(t, out[0])
	require.True(t, asked.Open, "the question is open: %s", out[0])
	var steps []int
	for _, c := range asked.Question.Choices {
		steps = append(steps, c.Step)
	}
	assert.Equal(t, []int{1, 2, 3, 4, 5, 6, 7, 8}, steps, "what the docs say the choices are")
	require.Equal(t, "204", out[1], "the answer, as documented, counts")
	lecturer.waitFor(t, "answered 1 of 1")

	require.NoError(t, lecturer.send("v"))
	lecturer.waitFor(t, "rule 5: 1")
	// The reveal reaches the phone's stream; a curl that starts before
	// the room's news has gone round may see the question once more.
	deadline := time.Now().Add(10 * time.Second)
	for {
		out = sh.run(t, blocks["reveal"])
		require.Len(t, out, 1, "%q", out)
		if got := event(t, out[0]); got.Revealed || time.Now().After(deadline) {
			require.True(t, got.Revealed, "the reveal: %s", out[0])
			require.NotNil(t, got.Reveal)
			assert.Equal(t, "right", got.Reveal.Mark, "rule 5 is what decides scenario 6")
			assert.Len(t, got.Reveal.NotProve, 2, "both lines of what it does NOT prove")
			break
		}
	}
}

// event decodes one event of the stream.
func event(t *testing.T, line string) webState {
	t.Helper()
	var s webState
	require.NoError(t, json.Unmarshal([]byte(line), &s), "an event: %q", line)
	return s
}
