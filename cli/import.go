package cli

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/spf13/cobra"

	"toolgate/assess"
	"toolgate/importer"
	"toolgate/termsafe"
)

func newImport(c *common) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Import real artefacts: an MCP tool list as a contract, a transcript as audit batches",
		Long: `Turn what a real agent harness produces into toolgate inputs:

  toolgate import mcp          an MCP server's tools/list answer → a contract
  toolgate import transcript   a model transcript or an MCP log → audit batches

What is read is bounded (a tool list 32 MiB, a transcript 1 GiB read as a stream, nesting
128 levels deep) and every problem names the line, column and field.`,
		Example: `  toolgate import mcp tools.json > contract.json
  toolgate import transcript --audit conversation.json`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newImportMCP(c), newImportTranscript(c))
	return cmd
}

// readImport reads FILE, or standard input for none or "-", bounded.
func readImport(c *common, args []string) ([]byte, string, error) {
	r, name, closeFn, err := openInput(c.env, args)
	if err != nil {
		return nil, "", err
	}
	defer closeFn()
	data, err := importer.ReadAll(r, name)
	if err != nil {
		return nil, "", &exitError{ExitInvalid, err}
	}
	return data, name, nil
}

func newImportMCP(c *common) *cobra.Command {
	var version, scenario, arguments, id string
	cmd := &cobra.Command{
		Use:   "mcp [FILE|-]",
		Short: "Make a contract of an MCP server's tools/list answer",
		Long: `Read an MCP tools/list answer — the JSON-RPC response, or its bare result; several pages
(one value each, e.g. JSON Lines) are joined; plain or in server-sent events, as Streamable
HTTP sends it — and write an admission contract on stdout, as indented JSON with
a fixed layout (docs/decision.md). Notes go to stderr.

A model API's tools parameter is read as what it is, and said so: Anthropic's input_schema,
OpenAI's parameters (Responses) or function.parameters (Chat Completions), Gemini's
functionDeclarations, Bedrock's toolSpec.inputSchema.json — their required fields kept, every
tool irreversible_write (they carry no annotations). A tool with none of these and no
inputSchema is refused: it would otherwise be read as taking no arguments.

The mapping:
  name                               → name
  (MCP tools have no version)        → no version (absent)
  inputSchema.required               → requiredArguments
  annotations.readOnlyHint: true     → effectClass read_only
  annotations.destructiveHint: false → effectClass reversible_write (when not read-only)
  anything else, no annotations too  → effectClass irreversible_write (MCP's default
                                       destructiveHint is true: fail closed)

Annotations are untrusted hints from the server: a server can call a destructive tool
read-only, and the contract is then wrong. Read the notes.

With --scenario TOOL, write instead a scenario file (YAML) around the contract for one
call of that tool — every required argument filled in (or --arguments), environment
ready, no approval — ready for 'toolgate validate' and the trainer.`,
		Example: `  toolgate import mcp tools-list.json > contract.json
  mcp-client tools/list | toolgate import mcp - --contract-version fs-2025-06
  curl -sN -H 'Accept: application/json, text/event-stream' ... | toolgate import mcp -
  toolgate import mcp tools-list.json --scenario write_file > my-course/write-file.yaml
  toolgate import mcp tools-list.json --scenario move_file --arguments '{"source":"a","destination":"b"}'`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, name, err := readImport(c, args)
			if err != nil {
				return err
			}
			imp, err := importer.MCP(name, data, version)
			if err != nil {
				return &exitError{ExitInvalid, err}
			}
			stderr := c.env.Stderr
			fmt.Fprintf(stderr, "toolgate: read %d %s from %s (%s)\n", len(imp.Contract.Tools), plural(len(imp.Contract.Tools), "tool", "tools"), displayName(name), imp.Form)
			if imp.FromServer > 0 {
				fmt.Fprintf(stderr, "toolgate: note: %s\n", importer.UntrustedNote)
			}
			for _, w := range imp.Why {
				fmt.Fprintf(stderr, "toolgate: %s\n", termsafe.Line(w))
			}
			for _, n := range imp.Notes {
				fmt.Fprintf(stderr, "toolgate: note: %s\n", termsafe.Line(n))
			}
			if scenario == "" {
				if arguments != "" || id != "" {
					return &exitError{ExitUsage, errors.New("--arguments and --id go with --scenario TOOL")}
				}
				_, err := cmd.OutOrStdout().Write(imp.Contract.JSON())
				return err
			}
			call := importer.Call{Tool: scenario, ID: id, Source: name}
			if arguments != "" {
				if err := json.Unmarshal([]byte(arguments), &call.Arguments); err != nil || call.Arguments == nil {
					return &exitError{ExitUsage, fmt.Errorf("--arguments: want a JSON object such as '{\"path\":\"notes.txt\"}'")}
				}
			}
			s, err := importer.Scenario(imp, call)
			if err != nil {
				return &exitError{ExitUsage, err}
			}
			out, err := importer.ScenarioYAML(s)
			if err != nil {
				return &exitError{ExitInvalid, err}
			}
			_, err = cmd.OutOrStdout().Write(out)
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&version, "contract-version", "", "the contract's version (MCP has none to copy)")
	f.StringVar(&scenario, "scenario", "", "write a scenario file for a call of this tool instead of the contract")
	f.StringVar(&arguments, "arguments", "", "with --scenario: the call's arguments, a JSON object (default: each required one filled in)")
	f.StringVar(&id, "id", "", "with --scenario: the scenario's id (default mcp-TOOL)")
	return cmd
}

func displayName(name string) string {
	if name == "-" {
		return "standard input"
	}
	return termsafe.Line(name)
}

func newImportTranscript(c *common) *cobra.Command {
	var format string
	var closed, audit bool
	cmd := &cobra.Command{
		Use:   "transcript [FILE|-]",
		Short: "Turn a model transcript into audit batches (JSON Lines for toolgate audit)",
		Long: `Read a transcript and write its tool batches as JSON Lines, one
{"requested":[...],"results":[...],"closed":...} a line, for 'toolgate audit' — or, with
--audit, the audit of each batch at once. The input is read as a stream (one message, item
or line at a time; up to 1 GiB, 32 MiB an element) and the format is detected and said on
stderr, with where each batch came from:

  anthropic     Anthropic Messages: a request body, a response, an array or one message a
                line, or a streamed response (server-sent events). Calls are tool_use ids
                of an assistant turn, results the tool_result blocks of the user turn after
                it (consecutive messages of one role are one turn, as the API merges them).
  openai-chat   OpenAI Chat Completions: a request body, a response, messages. Calls are an
                assistant message's tool_calls[].id, results the role tool messages after it.
  openai        OpenAI Responses items: a request, a response, items; calls of every tool
                the client runs (function, custom, computer, shell, apply_patch, MCP
                approvals) by call_id. A request with previous_response_id: put the response
                before it (cat response.json request.json | toolgate import transcript).
  mcp           an MCP JSON-RPC log: one message a line, a client's or a connection's log
                (Message from client: / read: / write:), server-sent events. Each side's
                request ids apart (client:ID, server:ID); a request cancelled with
                notifications/cancelled needs no answer.
  claude-code   a Claude Code session log (~/.claude/projects/.../SESSION.jsonl).
  gemini        Gemini contents: functionCall / functionResponse (paired by id, else by
                order and name).
  langchain     LangChain messages_to_dict.
  vercel        Vercel AI SDK messages (tool-call / tool-result parts) or UI messages.
  bedrock       Amazon Bedrock Converse messages (toolUse / toolResult).
  codex         a Codex CLI rollout (its response_item lines).

A batch whose answer has not come yet — the transcript ends after the calls — is open
("closed": false): its calls are pending, not missing. --closed says the transcript is
over. A log cut in the middle of a line is read up to the cut, which is reported; lines
that are not JSON (a banner) are skipped and counted. An empty or repeated id is reported
at its line and left out of the batch. Exit status 1 when anything was reported so.

In a pipeline, 'toolgate audit' cannot see that the import failed: use --audit, or
'set -o pipefail' in the shell.

This is where the most reported harness failures show: "tool_use ids were found without
tool_result blocks" is missing:ID, "No tool call found for function call output with
call_id" is unknown:ID.`,
		Example: `  toolgate import transcript --audit conversation.json
  toolgate import transcript conversation.json | toolgate audit     # with set -o pipefail
  toolgate import transcript --format openai-chat messages.jsonl
  toolgate import transcript --closed mcp-session.jsonl | toolgate audit
  cat response.json next-request.json | toolgate import transcript --audit`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, name, closeFn, err := openInput(c.env, args)
			if err != nil {
				return err
			}
			defer closeFn()
			out := bufio.NewWriterSize(cmd.OutOrStdout(), 64<<10)
			stderr := c.env.Stderr
			const maxWhere = 50
			var where []string
			shown, invalid := 0, 0
			var line []byte
			emit := func(b importer.Batch) error {
				if !audit {
					shown++
					if len(where) < maxWhere {
						where = append(where, fmt.Sprintf("batch %d: %s", shown, b.Where))
					}
					_, err := out.Write(importer.BatchLine(b.AuditInput))
					return err
				}
				shown++
				r, err := assess.Audit(b.AuditInput)
				if err != nil {
					invalid++
					line, _ = json.Marshal(map[string]string{"error": err.Error()})
					line = append(line, '\n')
				} else {
					line = appendAudit(line[:0], &r)
					if (len(r.Diagnostics) > 0 || len(r.Pending) > 0) && len(where) < maxWhere {
						said := strings.Join(r.Diagnostics, " ")
						if len(r.Pending) > 0 {
							said = strings.TrimSpace(said + " pending:" + strings.Join(r.Pending, " pending:"))
						}
						where = append(where, fmt.Sprintf("batch %d: %s: %s", shown, b.Where, said))
					}
				}
				_, err = out.Write(line)
				return err
			}
			rep, err := importer.ReadTranscript(name, in, importer.TranscriptOptions{Format: format, Closed: closed}, emit)
			if ferr := out.Flush(); ferr != nil && err == nil {
				return ferr
			}
			if err != nil {
				var ie *importer.Error
				if errors.As(err, &ie) {
					return &exitError{ExitInvalid, err}
				}
				if strings.HasPrefix(err.Error(), "--format") {
					return &exitError{ExitUsage, err}
				}
				return err
			}
			summary := fmt.Sprintf("%d %s", rep.Batches, plural(rep.Batches, "batch", "batches"))
			if rep.Batches == 0 {
				summary += fmt.Sprintf(" (no tool call in %d %s: nothing to audit)", rep.Elements, plural(rep.Elements, "element", "elements"))
			}
			fmt.Fprintf(stderr, "toolgate: read %s as %s: %s\n", displayName(name), importer.FormatNames[rep.Format], summary)
			for _, w := range where {
				fmt.Fprintf(stderr, "toolgate: %s\n", termsafe.Line(w))
			}
			if n := shown - len(where); n > 0 && !audit {
				fmt.Fprintf(stderr, "toolgate: … and %d more %s\n", n, plural(n, "batch", "batches"))
			}
			for _, n := range rep.Notes {
				fmt.Fprintf(stderr, "toolgate: note: %s\n", termsafe.Line(n))
			}
			for _, p := range rep.Problems {
				fmt.Fprintf(stderr, "toolgate: %s\n", termsafe.Line(p.Error()))
			}
			if rep.MoreProblems > 0 {
				fmt.Fprintf(stderr, "toolgate: … and %d more problems\n", rep.MoreProblems)
			}
			if len(rep.Problems) > 0 || invalid > 0 {
				n := len(rep.Problems) + rep.MoreProblems + invalid
				return &exitError{ExitInvalid, fmt.Errorf("%s: %d %s in the transcript (the batches leave out what %s)",
					displayName(name), n, plural(n, "problem", "problems"), plural(n, "it names", "they name"))}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "the format: "+strings.Join(importer.Formats, ", ")+" (default: detect)")
	completeFormat(cmd, formatCompletions()...)
	cmd.Flags().BoolVar(&closed, "closed", false, "the transcript is over: a batch still waiting for its answer is closed")
	cmd.Flags().BoolVar(&audit, "audit", false, "audit each batch and write what toolgate audit would (exit 1 when the import reports a problem)")
	return cmd
}

func formatCompletions() []cobra.Completion {
	var out []cobra.Completion
	for _, f := range importer.Formats {
		out = append(out, cobra.Completion(f))
	}
	return out
}
