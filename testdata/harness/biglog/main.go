// Command biglog writes a long transcript to standard output, for
// measuring toolgate import transcript on a large input:
//
//	go run ./testdata/harness/biglog -format mcp -mb 100 > /tmp/big.jsonl
//	/usr/bin/time -v toolgate import transcript --audit /tmp/big.jsonl > /dev/null
//
// Formats: mcp (a JSON-RPC log, one message a line), claude-code (a
// session log), anthropic (one request body with its messages, a single
// JSON document). Every call is answered but the last, which is pending.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

func main() {
	format := flag.String("format", "mcp", "mcp, claude-code or anthropic")
	mb := flag.Int("mb", 100, "size in MB (10^6 bytes)")
	flag.Parse()
	w := os.Stdout
	switch *format {
	case "mcp", "claude-code", "anthropic":
	default:
		fmt.Fprintf(os.Stderr, "biglog: -format %q: want mcp, claude-code or anthropic\n", *format)
		os.Exit(2)
	}
	if _, err := writeLoad(w, *format, int64(*mb)*1_000_000); err != nil {
		fmt.Fprintln(os.Stderr, "biglog:", err)
		os.Exit(2)
	}
}

// text is a tool result's body: about 1 KB of a file's lines.
var text = strings.Repeat(`line of a file the tool read, with \"quotes\" and a tab\t; `, 18)

// writeLoad is the generator of importer's TestLoad, kept the same.
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
	case "mcp":
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
			line(`{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"` + text + `"}],"isError":false}}` + "\n")
		}
	case "claude-code":
		for i := 1; err == nil; i++ {
			id, s := fmt.Sprintf("toolu_%024d", i), strconv.Itoa(i)
			calls++
			line(`{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/srv","sessionId":"5b0c","version":"1.0.98","type":"assistant","message":{"id":"msg_` + s + `","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"` + id + `","name":"Read","input":{"file_path":"/srv/` + s + `.txt"}}],"stop_reason":"tool_use"},"uuid":"a` + s + `","timestamp":"2025-09-02T10:00:00.000Z"}` + "\n")
			if n >= size {
				break // the last call waits
			}
			{
				line(`{"parentUuid":"a` + s + `","isSidechain":false,"userType":"external","cwd":"/srv","sessionId":"5b0c","version":"1.0.98","type":"user","message":{"role":"user","content":[{"tool_use_id":"` + id + `","type":"tool_result","content":"` + text + `"}]},"uuid":"u` + s + `","timestamp":"2025-09-02T10:00:01.000Z"}` + "\n")
			}
		}
	case "anthropic":
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
				line(",\n    {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"" + id + "\", \"content\": \"" + text + "\"}]}")
			}
		}
		line("\n  ]\n}\n")
	}
	if err == nil {
		err = bw.Flush()
	}
	return calls, err
}
