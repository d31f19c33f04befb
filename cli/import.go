package cli

import (
	"errors"
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/spf13/cobra"

	"toolgate/importer"
	"toolgate/termsafe"
)

func newImport(c *common) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Import real artefacts: an MCP tool list as a contract, a transcript as audit batches",
		Long: `Turn what a real agent harness produces into toolgate inputs:

  toolgate import mcp          an MCP server's tools/list answer → a contract (SPEC §1)
  toolgate import transcript   an Anthropic, OpenAI or MCP transcript → audit batches

What is read is bounded (32 MiB, nesting 128 levels deep) and every problem names the
line, column and field.`,
		Example: `  toolgate import mcp tools.json > contract.json
  toolgate import transcript conversation.json | toolgate audit`,
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
(one value each, e.g. JSON Lines) are joined — and write a contract in the shape of SPEC §1
on stdout, as indented JSON with a fixed layout. Notes go to stderr.

The mapping:
  name                               → name
  (MCP tools have no version)        → version ""
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
			fmt.Fprintf(stderr, "toolgate: note: %s\n", importer.UntrustedNote)
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
	var closed bool
	cmd := &cobra.Command{
		Use:   "transcript [FILE|-]",
		Short: "Turn a model transcript into audit batches (JSON Lines for toolgate audit)",
		Long: `Read a transcript and write its tool batches as JSON Lines, one
{"requested":[...],"results":[...],"closed":...} a line, for 'toolgate audit'. The format is
detected and said on stderr, with where each batch came from:

  Anthropic Messages   a request body {"messages":[...]}, an array of messages, or one a
                       line: the tool_use ids of an assistant turn are requested, the
                       tool_use_ids of the tool_result blocks in the next user turn are the
                       results. Server tools (server_tool_use and its result, both in one
                       assistant turn) are a batch of their own.
  OpenAI Responses     a request body {"input":[...]}, a response {"output":[...]}, an array
                       of items, or one a line: a run of function_call items is requested
                       (call_id), the function_call_output items right after it are the
                       results. Outputs anywhere else answer nothing here.
  MCP JSON-RPC log     one message a line (or an array): every request id is requested,
                       every response id is a result; notifications are left out.

A batch whose answer has not come yet — the transcript ends after the calls — is open
("closed": false): its calls are pending, not missing. --closed says the transcript is
over. An MCP log is one batch, open unless --closed.

This is where the most reported harness failures show: "tool_use ids were found without
tool_result blocks" is missing:ID, "No tool call found for function call output with
call_id" is unknown:ID.`,
		Example: `  toolgate import transcript conversation.json | toolgate audit
  toolgate import transcript --format openai items.jsonl
  toolgate import transcript --closed mcp-session.jsonl | toolgate audit`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, name, err := readImport(c, args)
			if err != nil {
				return err
			}
			b, err := importer.Transcript(name, data, importer.TranscriptOptions{Format: format, Closed: closed})
			if err != nil {
				var ie *importer.Error
				if errors.As(err, &ie) {
					return &exitError{ExitInvalid, err}
				}
				return &exitError{ExitUsage, err}
			}
			stderr := c.env.Stderr
			fmt.Fprintf(stderr, "toolgate: read %s as %s: %d %s\n", displayName(name), importer.FormatNames[b.Format],
				len(b.Batches), plural(len(b.Batches), "batch", "batches"))
			for i, w := range b.Where {
				fmt.Fprintf(stderr, "toolgate: batch %d: %s\n", i+1, termsafe.Line(w))
			}
			for _, n := range b.Notes {
				fmt.Fprintf(stderr, "toolgate: note: %s\n", termsafe.Line(n))
			}
			_, err = cmd.OutOrStdout().Write(b.JSONLines())
			return err
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "the format: anthropic, openai or mcp (default: detect)")
	completeFormat(cmd, "anthropic", "openai", "mcp")
	cmd.Flags().BoolVar(&closed, "closed", false, "the transcript is over: a batch still waiting for its answer is closed")
	return cmd
}
