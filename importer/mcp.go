package importer

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"toolgate/assess"
	"toolgate/decode"
)

// Contract is SPEC §1's contract as an import writes it: every field
// present, in a fixed order, so that two imports of the same list are the
// same bytes.
type Contract struct {
	Version string         `json:"version"`
	Tools   []ContractTool `json:"tools"`
}

// ContractTool is one tool of an imported contract. approvalScope is left
// out: it is then the tool's name (SPEC §1).
type ContractTool struct {
	Name              string   `json:"name"`
	Version           string   `json:"version"`
	EffectClass       string   `json:"effectClass"`
	RequiredArguments []string `json:"requiredArguments"`
}

// JSON writes the contract indented, one field a line, with a final
// newline.
func (c Contract) JSON() []byte {
	b, err := json.Marshal(c, jsontext.WithIndent("  "), json.Deterministic(true))
	if err != nil {
		panic(fmt.Sprintf("importer: a contract does not marshal: %v", err))
	}
	return append(b, '\n')
}

// Assess is the contract as the core's input type.
func (c Contract) Assess() assess.Contract {
	out := assess.Contract{Version: assess.Some(c.Version), Tools: make([]assess.Tool, len(c.Tools))}
	for i, t := range c.Tools {
		out.Tools[i] = assess.Tool{Name: t.Name, Version: assess.Some(t.Version), EffectClass: assess.Some(t.EffectClass),
			RequiredArguments: append([]string{}, t.RequiredArguments...)}
	}
	return out
}

// MCPImport is what an MCP tools/list answer became: the contract, and
// what a person should know about how it was made.
type MCPImport struct {
	Contract Contract
	// Form says what was read: "a JSON-RPC response to tools/list" or "a
	// bare tools/list result", and how many pages.
	Form string
	// Why says, for each tool in order, why it got its effect class.
	Why []string
	// Notes are warnings: required arguments that are not strings, a
	// list with more pages than given, a tool without an input schema.
	Notes []string
}

// UntrustedNote is what every import says about annotations.
const UntrustedNote = "annotations are hints from the server, not guarantees: nothing stops a server from " +
	"calling a destructive tool read-only. The mapping fails closed (no hint, or not read-only and not " +
	"destructiveHint: false, is irreversible_write), and the contract is only as true as the server"

// EffectClass maps a tool's MCP annotations to an effect class, failing
// closed: readOnlyHint true is read_only; destructiveHint false (and not
// read-only) is reversible_write; anything else — absent annotations
// included, since MCP's default destructiveHint is true — is
// irreversible_write. why says which hint decided.
func EffectClass(a *mcp.ToolAnnotations) (class, why string) {
	switch {
	case a == nil:
		return assess.IrreversibleWrite, "no annotations; MCP's default destructiveHint is true"
	case a.ReadOnlyHint:
		return assess.ReadOnly, "readOnlyHint: true"
	case a.DestructiveHint != nil && !*a.DestructiveHint:
		return assess.ReversibleWrite, "destructiveHint: false"
	case a.DestructiveHint != nil:
		return assess.IrreversibleWrite, "destructiveHint: true"
	}
	return assess.IrreversibleWrite, "no destructiveHint; MCP's default is true"
}

// MCP reads an MCP tools/list answer — the JSON-RPC response, or its bare
// result; several pages (one value each, e.g. JSON Lines) are joined — and
// makes a contract of its tools. name is the input's name in errors.
func MCP(name string, data []byte, contractVersion string) (MCPImport, error) {
	vals, err := values(name, data)
	if err != nil {
		return MCPImport{}, err
	}
	out := MCPImport{Contract: Contract{Version: contractVersion, Tools: []ContractTool{}}}
	forms := map[string]int{}
	first := map[string]string{} // tool name → where it was first seen
	cursor := ""
	for page, v := range vals {
		m, err := members(v.Raw)
		if err != nil {
			return MCPImport{}, at(name, v, "", "%v; want a tools/list response {\"jsonrpc\":\"2.0\",\"id\":…,\"result\":{\"tools\":[…]}} or its result {\"tools\":[…]}", err)
		}
		prefix := ""
		raw, base := v.Raw, int64(0)
		switch _, hasTools := m["tools"]; {
		case hasTools:
			forms["a bare tools/list result"]++
		case m["result"].Raw != nil:
			if err := checkJSONRPC(name, v, m); err != nil {
				return MCPImport{}, err
			}
			forms["a JSON-RPC response to tools/list"]++
			prefix, raw, base = "result", m["result"].Raw, m["result"].Offset
		case m["error"].Raw != nil:
			return MCPImport{}, fieldAt(name, v, "/error", "error", "the server answered tools/list with an error: %s", compact(m["error"].Raw, 300))
		case m["method"].Raw != nil:
			return MCPImport{}, fieldAt(name, v, "/method", "method", "this is a request, not the answer: import the response to tools/list")
		default:
			return MCPImport{}, at(name, v, "", "neither a tools/list response (with \"result\") nor its result (with \"tools\")")
		}
		var r mcp.ListToolsResult
		if err := unmarshal(name, v, raw, base, prefix, &r); err != nil {
			return MCPImport{}, err
		}
		if r.Tools == nil {
			return MCPImport{}, at(name, v, join(prefix, "tools"), "required: the list of tools (an array, may be empty)")
		}
		for i, t := range r.Tools {
			ptr := "/tools/" + strconv.Itoa(i)
			if prefix != "" {
				ptr = "/" + prefix + ptr
			}
			fail := func(sub, format string, args ...any) error {
				path := decode.Dotted(jsontext.Pointer(ptr+sub), true)
				if len(vals) > 1 {
					path = fmt.Sprintf("page %d: %s", page+1, path)
				}
				return fieldAt(name, v, ptr+sub, path, format, args...)
			}
			if t == nil {
				return MCPImport{}, fail("", "want object, got null")
			}
			tool, notes, ferr := contractTool(t)
			if ferr != nil {
				return MCPImport{}, fail(ferr.sub, "%s", ferr.msg)
			}
			path := decode.Dotted(jsontext.Pointer(ptr), true)
			if where, dup := first[tool.Name]; dup {
				return MCPImport{}, fail("/name", "tool %q again (first at %s): which one would the contract mean?", tool.Name, where)
			}
			first[tool.Name] = path
			class, why := EffectClass(t.Annotations)
			tool.EffectClass = class
			out.Contract.Tools = append(out.Contract.Tools, tool)
			out.Why = append(out.Why, fmt.Sprintf("%s → %s (%s)", tool.Name, class, why))
			out.Notes = append(out.Notes, notes...)
		}
		cursor = r.NextCursor
	}
	if cursor != "" {
		out.Notes = append(out.Notes, fmt.Sprintf("the server has more tools (nextCursor %q): only the pages given were imported; "+
			"ask tools/list again with that cursor and import all pages together", cursor))
	}
	var fs []string
	for _, f := range []string{"a JSON-RPC response to tools/list", "a bare tools/list result"} {
		switch n := forms[f]; {
		case n == 1:
			fs = append(fs, f)
		case n > 1:
			fs = append(fs, fmt.Sprintf("%d pages, each %s", n, f))
		}
	}
	out.Form = strings.Join(fs, " and ")
	return out, nil
}

// checkJSONRPC checks the envelope of a response: version "2.0", and a
// result without an error.
func checkJSONRPC(name string, v decode.Value, m map[string]member) error {
	ver, ok, err := str(m, "jsonrpc")
	line, col := v.Position(m["jsonrpc"].Offset)
	switch {
	case err != nil:
		return &Error{Name: name, Line: line, Column: col, Path: "jsonrpc", Msg: err.Error()}
	case ok && ver != "2.0":
		return &Error{Name: name, Line: line, Column: col, Path: "jsonrpc", Msg: fmt.Sprintf("want \"2.0\", got %q", ver)}
	}
	if m["error"].Raw != nil && m["error"].Raw.Kind() != 'n' {
		line, col := v.Position(m["error"].Offset)
		return &Error{Name: name, Line: line, Column: col, Path: "error", Msg: "a response has a result or an error, not both"}
	}
	return nil
}

// fieldError is a problem in a tool: sub is the JSON Pointer of the field
// within the tool.
type fieldError struct{ sub, msg string }

// contractTool reads one MCP tool: its name and the required arguments of
// its input schema; notes are warnings for the person importing.
func contractTool(t *mcp.Tool) (ContractTool, []string, *fieldError) {
	if t.Name == "" {
		return ContractTool{}, nil, &fieldError{"/name", "required, a non-empty string"}
	}
	tool := ContractTool{Name: t.Name, Version: "", RequiredArguments: []string{}}
	var notes []string
	schema, ok := t.InputSchema.(map[string]any)
	switch {
	case t.InputSchema == nil:
		notes = append(notes, fmt.Sprintf("%s: no inputSchema (MCP requires one): no required arguments", t.Name))
		return tool, notes, nil
	case !ok:
		return ContractTool{}, nil, &fieldError{"/inputSchema", "want object, got " + kindOfGo(t.InputSchema)}
	}
	req, present := schema["required"]
	if !present || req == nil {
		return tool, notes, nil
	}
	list, ok := req.([]any)
	if !ok {
		return ContractTool{}, nil, &fieldError{"/inputSchema/required", "want array, got " + kindOfGo(req)}
	}
	props, _ := schema["properties"].(map[string]any)
	for j, r := range list {
		s, ok := r.(string)
		if !ok || s == "" {
			got := kindOfGo(r)
			if ok {
				got = `""`
			}
			return ContractTool{}, nil, &fieldError{fmt.Sprintf("/inputSchema/required/%d", j), "want a non-empty string, got " + got}
		}
		tool.RequiredArguments = append(tool.RequiredArguments, s)
		if typ := schemaType(props[s]); typ != "" && typ != "string" {
			notes = append(notes, fmt.Sprintf("%s: required argument %q has type %s in inputSchema; rule %d admits only a non-empty "+
				"string, so a call that passes it as %s is %s/%s (toolgate's teaching model, not a JSON Schema validator)",
				t.Name, s, typ, assess.RuleArguments, article(typ), assess.CodeInvalidArguments.Status(), assess.CodeInvalidArguments))
		}
	}
	return tool, notes, nil
}

// schemaType is a property's JSON Schema type ("integer", "array", ...),
// "" when it does not say one or allows a string.
func schemaType(prop any) string {
	p, ok := prop.(map[string]any)
	if !ok {
		return ""
	}
	switch t := p["type"].(type) {
	case string:
		return t
	case []any:
		var names []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				if s == "string" {
					return ""
				}
				names = append(names, s)
			}
		}
		return strings.Join(names, " or ")
	}
	return ""
}

func kindOfGo(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// compact is a JSON value on one line, cut to n bytes.
func compact(raw jsontext.Value, n int) string {
	c := jsontext.Value(bytes.Clone(raw))
	_ = c.Compact()
	if len(c) > n {
		return string(c[:n]) + "…"
	}
	return string(c)
}

// article puts "a" or "an" before a JSON Schema type name.
func article(typ string) string {
	if typ != "" && strings.ContainsRune("aeiou", rune(typ[0])) {
		return "an " + typ
	}
	return "a " + typ
}
