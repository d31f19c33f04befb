package importer_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/importer"
)

// loadSize is the transcript the load test reads: 100 MB.
const loadSize = 100_000_000

// loadText is a tool result's body: about 1 KB of a file's lines.
var loadText = strings.Repeat(`line of a file the tool read, with \"quotes\" and a tab\t; `, 18)

// writeLoad writes a transcript of about size bytes in format to w:
// every call answered but the last one. It is what
// testdata/harness/biglog writes, for the binary.
func writeLoad(w io.Writer, format string, size int64) (calls int, err error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	var n int64
	line := func(s string) {
		if err == nil {
			var k int
			k, err = bw.WriteString(s)
			n += int64(k)
		}
	}
	switch format {
	case importer.FormatMCP:
		line(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"load","version":"1"}}}` + "\n")
		line(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"big","version":"1"}}}` + "\n")
		calls = 1
		for i := 1; err == nil; i++ {
			id := strconv.Itoa(i)
			calls++
			line(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"read_text_file","arguments":{"path":"/srv/files/` + id + `.txt"}}}` + "\n")
			if n >= size {
				break // the last call waits
			}
			line(`{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"` + loadText + `"}],"isError":false}}` + "\n")
		}
	case importer.FormatClaudeCode:
		for i := 1; err == nil; i++ {
			id, s := fmt.Sprintf("toolu_%024d", i), strconv.Itoa(i)
			calls++
			line(`{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/srv","sessionId":"5b0c","version":"1.0.98","type":"assistant","message":{"id":"msg_` + s + `","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"` + id + `","name":"Read","input":{"file_path":"/srv/` + s + `.txt"}}],"stop_reason":"tool_use"},"uuid":"a` + s + `","timestamp":"2025-09-02T10:00:00.000Z"}` + "\n")
			if n >= size {
				break // the last call waits
			}
			{
				line(`{"parentUuid":"a` + s + `","isSidechain":false,"userType":"external","cwd":"/srv","sessionId":"5b0c","version":"1.0.98","type":"user","message":{"role":"user","content":[{"tool_use_id":"` + id + `","type":"tool_result","content":"` + loadText + `"}]},"uuid":"u` + s + `","timestamp":"2025-09-02T10:00:01.000Z"}` + "\n")
			}
		}
	case importer.FormatAnthropic:
		// One request body: a single JSON document of 100 MB.
		line("{\n  \"model\": \"claude-sonnet-4-5\",\n  \"max_tokens\": 1024,\n  \"messages\": [\n    {\"role\": \"user\", \"content\": \"Read them all.\"}")
		for i := 1; err == nil; i++ {
			id := fmt.Sprintf("toolu_%024d", i)
			calls++
			line(",\n    {\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"" + id + "\", \"name\": \"read\", \"input\": {\"path\": \"/srv/" + strconv.Itoa(i) + ".txt\"}}]}")
			if n >= size {
				break // the last call waits
			}
			{
				line(",\n    {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"" + id + "\", \"content\": \"" + loadText + "\"}]}")
			}
		}
		line("\n  ]\n}\n")
	}
	if err == nil {
		err = bw.Flush()
	}
	return calls, err
}

// peakRSS is the process's largest resident set since resetPeak (Linux);
// elsewhere the memory the Go runtime holds from the system.
func peakRSS() (int64, string) {
	if data, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				return kb << 10, "peak RSS"
			}
		}
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.Sys), "memory obtained from the system"
}

func resetPeak() {
	runtime.GC()
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// TestLoad reads a 100 MB transcript in three shapes — an MCP log, a
// Claude Code session log (one line each), an Anthropic request body (one
// JSON document) — streamed through a pipe as a harness would, and checks
// that it is read in under 200 MB of memory. It says how fast, but does
// not judge the speed: that is the machine's. TOOLGATE_LOAD=1 runs it
// (make import-load).
func TestLoad(t *testing.T) {
	if os.Getenv("TOOLGATE_LOAD") == "" {
		t.Skip("TOOLGATE_LOAD=1 runs the 100 MB import (make import-load)")
	}
	for _, format := range []string{importer.FormatMCP, importer.FormatClaudeCode, importer.FormatAnthropic} {
		t.Run(format, func(t *testing.T) {
			pr, pw := io.Pipe()
			done := make(chan error, 1)
			callsCh := make(chan int, 1)
			go func() {
				calls, err := writeLoad(pw, format, loadSize)
				callsCh <- calls
				done <- err
				pw.CloseWithError(err)
			}()
			resetPeak()
			counted := &countReader{r: pr}
			start := time.Now()
			batches, requested, results := 0, 0, 0
			var pending []string
			rep, err := importer.ReadTranscript("load", counted, importer.TranscriptOptions{}, func(b importer.Batch) error {
				batches++
				requested += len(b.Requested)
				results += len(b.Results)
				if !b.Closed {
					pending = append(pending, b.Requested...)
				}
				return nil
			})
			elapsed := time.Since(start)
			peak, what := peakRSS()
			require.NoError(t, err)
			require.NoError(t, <-done)
			calls := <-callsCh
			assert.Equal(t, format, rep.Format)
			assert.Empty(t, rep.Problems)
			assert.Equal(t, calls, requested, "every call is a request of a batch")
			assert.Equal(t, calls-1, results, "every call but the last is answered")
			mb := float64(counted.n) / 1e6
			t.Logf("%s: %.0f MB in %.2f s (%.0f MB/s on this machine), %d batches, %s %d MB",
				format, mb, elapsed.Seconds(), mb/elapsed.Seconds(), batches, what, peak>>20)
			assert.Less(t, peak, int64(200<<20), "%s: %d MB", what, peak>>20)
		})
	}
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += int64(k)
	return k, err
}
