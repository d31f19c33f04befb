package importer

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"toolgate/assess"
	"toolgate/decode"
)

// Contract is docs/decision.md §1's contract as an import writes it: every field
// present, in a fixed order, so that two imports of the same list are the
// same bytes.
type Contract struct {
	Version string         `json:"version"`
	Tools   []ContractTool `json:"tools"`
}

// ContractTool is one tool of an imported contract. An MCP tool has no
// version, so version is left out (absent), and a request without a
// version matches it; approvalScope is left out too: only an approval
// without a scope then matches (docs/decision.md).
type ContractTool struct {
	Name              string   `json:"name"`
	Version           string   `json:"version,omitempty"`
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
		version := assess.Absent
		if t.Version != "" {
			version = assess.Some(t.Version)
		}
		out.Tools[i] = assess.Tool{Name: t.Name, Version: version, EffectClass: assess.Some(t.EffectClass),
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
	// list with more pages than given, tools left out.
	Notes []string
	// FromServer counts the tools that are MCP tools, whose class the
	// server's annotations decided (the rest are a model API's).
	FromServer int
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
// result; several pages (one value each, e.g. JSON Lines) are joined; in
// server-sent events as Streamable HTTP sends it, or plain — and makes a
// contract of its tools. A model API's tools parameter (Anthropic's
// input_schema, OpenAI's parameters or function.parameters, Gemini's
// functionDeclarations, Bedrock's toolSpec) is read as what it is, said
// so, and its required fields kept; a tool with neither an inputSchema
// nor one of those is refused. name is the input's name in errors.
func MCP(name string, data []byte, contractVersion string) (MCPImport, error) {
	data, sse := unframeSSE(data)
	vals, err := values(name, data)
	if err != nil {
		return MCPImport{}, err
	}
	out := MCPImport{Contract: Contract{Version: contractVersion, Tools: []ContractTool{}}}
	forms := map[string]int{}
	shapes := map[string]int{}
	first := map[string]string{} // tool name → where it was first seen
	cursor := ""
	nonString := 0
	for page, v := range vals {
		prefix := ""
		raw, base := v.Raw, int64(0)
		if jsontext.Value(v.Raw).Kind() == '[' {
			forms["a bare list of tools"]++
			prefix = "tools"
		} else {
			m, err := members(v.Raw)
			if err != nil {
				return MCPImport{}, at(name, v, "", "%v; want a tools/list response {\"jsonrpc\":\"2.0\",\"id\":…,\"result\":{\"tools\":[…]}} or its result {\"tools\":[…]}", err)
			}
			switch _, hasTools := m["tools"]; {
			case hasTools && (m["messages"].Raw != nil || m["model"].Raw != nil || m["input"].Raw != nil || m["contents"].Raw != nil):
				forms["a model API request's tools parameter"]++
				prefix, raw, base = "tools", m["tools"].Raw, m["tools"].Offset
			case hasTools:
				forms["a bare tools/list result"]++
				prefix, raw, base = "tools", m["tools"].Raw, m["tools"].Offset
			case m["result"].Raw != nil:
				if err := checkJSONRPC(name, v, m); err != nil {
					return MCPImport{}, err
				}
				forms["a JSON-RPC response to tools/list"]++
				rm, err := members(m["result"].Raw)
				if err != nil {
					if m["result"].Raw.Kind() == 'n' {
						return MCPImport{}, fieldAt(name, v, "/result", "result.tools", "required: the list of tools (an array, may be empty)")
					}
					return MCPImport{}, fieldAt(name, v, "/result", "result", "%v", err)
				}
				if rm["tools"].Raw == nil {
					return MCPImport{}, fieldAt(name, v, "/result", "result.tools", "required: the list of tools (an array, may be empty)")
				}
				if c, ok, err := str(rm, "nextCursor"); err != nil {
					return MCPImport{}, fieldAt(name, v, "/result/nextCursor", "result.nextCursor", "%v", err)
				} else if ok {
					cursor = c
				} else {
					cursor = ""
				}
				prefix, raw, base = "result.tools", rm["tools"].Raw, m["result"].Offset+rm["tools"].Offset
			case m["error"].Raw != nil:
				return MCPImport{}, fieldAt(name, v, "/error", "error", "the server answered tools/list with an error: %s", compact(m["error"].Raw, 300))
			case m["method"].Raw != nil:
				return MCPImport{}, fieldAt(name, v, "/method", "method", "this is a request, not the answer: import the response to tools/list")
			default:
				return MCPImport{}, at(name, v, "", "neither a tools/list response (with \"result\") nor its result (with \"tools\")")
			}
			if prefix == "tools" && m["nextCursor"].Raw != nil {
				c, _, err := str(m, "nextCursor")
				if err != nil {
					return MCPImport{}, fieldAt(name, v, "/nextCursor", "nextCursor", "%v", err)
				}
				cursor = c
			}
		}
		if k := jsontext.Value(raw).Kind(); k != '[' {
			line, col := v.Position(base)
			return MCPImport{}, &Error{Name: name, Line: line, Column: col, Path: pagePath(len(vals), page, prefix), Msg: "want array, got " + decode.JSONKind(k)}
		}
		tools, offs, err := arrayElems(raw)
		if err != nil {
			line, col := v.Position(base)
			return MCPImport{}, &Error{Name: name, Line: line, Column: col, Path: prefix, Msg: err.Error()}
		}
		for i, t := range tools {
			toolPath := prefix + "[" + strconv.Itoa(i) + "]"
			off := base + offs[i]
			fail := func(sub, format string, args ...any) error {
				o := off
				if sub != "" {
					if so, ok := offsetOf(t, sub); ok {
						o += so
					}
				}
				line, col := v.Position(o)
				path := toolPath + strings.TrimPrefix(decode.Dotted(jsontext.Pointer("/x"+sub), true), "x")
				return &Error{Name: name, Line: line, Column: col, Path: pagePath(len(vals), page, path), Msg: fmt.Sprintf(format, args...)}
			}
			defs, ferr := readTool(name, v, t, off, pagePath(len(vals), page, toolPath))
			if ferr != nil {
				if ferr.err != nil {
					return MCPImport{}, ferr.err
				}
				return MCPImport{}, fail(ferr.sub, "%s", ferr.msg)
			}
			for _, d := range defs {
				shapes[d.shape]++
				if d.skip != "" {
					out.Notes = append(out.Notes, d.skip)
					continue
				}
				tool, notes, ferr := contractFromSchema(d.name, d.schema)
				if ferr != nil {
					return MCPImport{}, fail(d.schemaAt+ferr.sub, "%s", ferr.msg)
				}
				if where, dup := first[tool.Name]; dup {
					return MCPImport{}, fail(d.nameAt, "tool %q again (first at %s): which one would the contract mean?", tool.Name, where)
				}
				first[tool.Name] = pagePath(len(vals), page, toolPath)
				class, why := EffectClass(d.annotations)
				if d.shape != shapeMCP {
					why = "a model API's tool definition: no annotations, so no hint; fail closed"
				} else {
					out.FromServer++
				}
				tool.EffectClass = class
				out.Contract.Tools = append(out.Contract.Tools, tool)
				out.Why = append(out.Why, fmt.Sprintf("%s → %s (%s)", tool.Name, class, why))
				if len(notes) > 0 {
					nonString++
				}
				out.Notes = append(out.Notes, notes...)
			}
		}
	}
	if nonString > 0 {
		out.Notes = append([]string{fmt.Sprintf("%d %s of %d with required arguments whose schema type is not string: the book's rule %d reads "+
			"strings only, so a call that passes them as the schema says is %s/%s under the book's rule (each listed below)",
			nonString, plural(nonString, "tool", "tools"), len(out.Contract.Tools), assess.RuleArguments, assess.CodeInvalidArguments.Status(), assess.CodeInvalidArguments)}, out.Notes...)
	}
	if cursor != "" {
		out.Notes = append(out.Notes, fmt.Sprintf("the server has more tools (nextCursor %q): only the pages given were imported; "+
			"ask tools/list again with that cursor and import all pages together", cursor))
	}
	var fs []string
	for _, f := range []string{"a JSON-RPC response to tools/list", "a bare tools/list result", "a bare list of tools", "a model API request's tools parameter"} {
		switch n := forms[f]; {
		case n == 1:
			fs = append(fs, f)
		case n > 1:
			fs = append(fs, fmt.Sprintf("%d pages, each %s", n, f))
		}
	}
	out.Form = strings.Join(fs, " and ")
	if sse {
		out.Form += ", in server-sent events"
	}
	var other []string
	for _, sh := range shapeOrder {
		if n := shapes[sh]; n > 0 && sh != shapeMCP {
			other = append(other, fmt.Sprintf("%s: %d", sh, n))
		}
	}
	if len(other) > 0 {
		out.Form += "; not MCP tools but " + strings.Join(other, ", ")
		out.Notes = append([]string{"these are a model API's tool definitions, not MCP tools: read as what they are, with their required fields; " +
			"they carry no annotations, so every tool is irreversible_write (fail closed) until you say otherwise in the contract"}, out.Notes...)
	}
	return out, nil
}

func pagePath(pages, page int, path string) string {
	if pages > 1 {
		return fmt.Sprintf("page %d: %s", page+1, path)
	}
	return path
}

// Shapes of a tool definition.
const (
	shapeMCP       = "MCP tools"
	shapeAnthropic = "Anthropic tool definitions (input_schema)"
	shapeChat      = "OpenAI Chat Completions tools (function.parameters)"
	shapeFunction  = "function definitions (parameters: OpenAI Responses, or a function declaration)"
	shapeGemini    = "Gemini function declarations (functionDeclarations[].parameters)"
	shapeBedrock   = "Bedrock Converse tool specs (toolSpec.inputSchema.json)"
	shapeHosted    = "tools the platform defines (left out)"
)

var shapeOrder = []string{shapeMCP, shapeAnthropic, shapeChat, shapeFunction, shapeGemini, shapeBedrock, shapeHosted}

// toolDef is one tool definition read from a list, whatever its shape.
type toolDef struct {
	shape       string
	name        string
	schema      any    // the input schema; nil for none
	schemaAt    string // JSON Pointer of its schema within the list element
	nameAt      string // of its name
	annotations *mcp.ToolAnnotations
	skip        string // a note: the tool is left out, and why
}

// toolErr is a problem in a tool: sub is the JSON Pointer within it; err
// a whole error already placed.
type toolErr struct {
	sub, msg string
	err      error
}

// readTool reads one element of a tool list: an MCP tool, or a model
// API's tool definition (Gemini's holds several).
func readTool(name string, v decode.Value, t jsontext.Value, off int64, path string) ([]toolDef, *toolErr) {
	if t.Kind() != '{' {
		return nil, &toolErr{msg: "want object, got " + decode.JSONKind(t.Kind())}
	}
	ms := topMembers(t)
	has := func(k string) bool { _, ok := ms[k]; return ok }
	decodeInto := func(out any) *toolErr {
		if err := unmarshal(name, v, t, off, path, out); err != nil {
			return &toolErr{err: err}
		}
		return nil
	}
	nameOf := func(s string) (string, *toolErr) {
		if s == "" {
			return "", &toolErr{sub: "/name", msg: "required, a non-empty string"}
		}
		return s, nil
	}
	switch {
	case has("inputSchema") || (!has("input_schema") && !has("parameters") && !has("function") && !has("functionDeclarations") && !has("toolSpec") && !has("type")):
		var mt mcp.Tool
		if err := decodeInto(&mt); err != nil {
			return nil, err
		}
		n, err := nameOf(mt.Name)
		if err != nil {
			return nil, err
		}
		if mt.InputSchema == nil {
			return nil, &toolErr{msg: fmt.Sprintf("%s: no inputSchema: MCP requires one, and nothing else here says the tool's arguments "+
				"(a model API's tool has input_schema, parameters or function.parameters); refused rather than read as taking none", n)}
		}
		return []toolDef{{shape: shapeMCP, name: n, schema: mt.InputSchema, schemaAt: "/inputSchema", nameAt: "/name", annotations: mt.Annotations}}, nil
	case has("input_schema"):
		var at struct {
			Name        string `json:"name"`
			InputSchema any    `json:"input_schema"`
		}
		if err := decodeInto(&at); err != nil {
			return nil, err
		}
		n, err := nameOf(at.Name)
		if err != nil {
			return nil, err
		}
		if at.InputSchema == nil {
			return nil, &toolErr{sub: "/input_schema", msg: "want object, got null"}
		}
		return []toolDef{{shape: shapeAnthropic, name: n, schema: at.InputSchema, schemaAt: "/input_schema", nameAt: "/name"}}, nil
	case has("function"):
		var ct struct {
			Function struct {
				Name       string `json:"name"`
				Parameters any    `json:"parameters"`
			} `json:"function"`
		}
		if err := decodeInto(&ct); err != nil {
			return nil, err
		}
		if ct.Function.Name == "" {
			return nil, &toolErr{sub: "/function/name", msg: "required, a non-empty string"}
		}
		return []toolDef{{shape: shapeChat, name: ct.Function.Name, schema: ct.Function.Parameters, schemaAt: "/function/parameters", nameAt: "/function/name"}}, nil
	case has("functionDeclarations"):
		var gt struct {
			Decls []struct {
				Name           string `json:"name"`
				Parameters     any    `json:"parameters"`
				ParametersJSON any    `json:"parametersJsonSchema"`
			} `json:"functionDeclarations"`
		}
		if err := decodeInto(&gt); err != nil {
			return nil, err
		}
		var out []toolDef
		for j, d := range gt.Decls {
			at := "/functionDeclarations/" + strconv.Itoa(j)
			if d.Name == "" {
				return nil, &toolErr{sub: at + "/name", msg: "required, a non-empty string"}
			}
			schema := d.Parameters
			if schema == nil {
				schema = d.ParametersJSON
			}
			sAt := at + "/parameters"
			if d.Parameters == nil {
				sAt = at + "/parametersJsonSchema"
			}
			out = append(out, toolDef{shape: shapeGemini, name: d.Name, schema: schema, schemaAt: sAt, nameAt: at + "/name"})
		}
		return out, nil
	case has("toolSpec"):
		var bt struct {
			ToolSpec struct {
				Name        string `json:"name"`
				InputSchema struct {
					JSON any `json:"json"`
				} `json:"inputSchema"`
			} `json:"toolSpec"`
		}
		if err := decodeInto(&bt); err != nil {
			return nil, err
		}
		if bt.ToolSpec.Name == "" {
			return nil, &toolErr{sub: "/toolSpec/name", msg: "required, a non-empty string"}
		}
		return []toolDef{{shape: shapeBedrock, name: bt.ToolSpec.Name, schema: bt.ToolSpec.InputSchema.JSON, schemaAt: "/toolSpec/inputSchema/json", nameAt: "/toolSpec/name"}}, nil
	case has("parameters") || (has("name") && has("type") && strOfRaw(t, ms["type"]) == "function"):
		var ft struct {
			Name       string `json:"name"`
			Parameters any    `json:"parameters"`
		}
		if err := decodeInto(&ft); err != nil {
			return nil, err
		}
		n, err := nameOf(ft.Name)
		if err != nil {
			return nil, err
		}
		return []toolDef{{shape: shapeFunction, name: n, schema: ft.Parameters, schemaAt: "/parameters", nameAt: "/name"}}, nil
	}
	// A tool the platform defines: {"type":"web_search"}, Anthropic's
	// {"type":"bash_20250124","name":"bash"}, OpenAI's custom tools.
	typ := strOfRaw(t, ms["type"])
	label := typ
	if n := strOfRaw(t, ms["name"]); n != "" {
		label = n + " (" + typ + ")"
	}
	return []toolDef{{shape: shapeHosted, skip: fmt.Sprintf("%s: a tool the platform defines, with no input schema here: left out of the contract", label)}}, nil
}

// strOfRaw reads a string member found by topMembers.
func strOfRaw(raw []byte, m span) string {
	if m.kind != '"' {
		return ""
	}
	s, err := strconv.Unquote(string(raw[m.start:m.end]))
	if err != nil {
		return ""
	}
	return s
}

// arrayElems lists the elements of an array and where each starts.
func arrayElems(raw []byte) ([]jsontext.Value, []int64, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true))
	if _, err := dec.ReadToken(); err != nil {
		return nil, nil, err
	}
	var vals []jsontext.Value
	var offs []int64
	for dec.PeekKind() != ']' {
		val, err := dec.ReadValue()
		if err != nil {
			return nil, nil, err
		}
		vals = append(vals, bytes.Clone(val))
		offs = append(offs, dec.InputOffset()-int64(len(val)))
	}
	return vals, offs, nil
}

// unframeSSE turns server-sent events (Streamable HTTP's framing of a
// JSON-RPC message) into the JSON they carry, keeping every byte's line
// and column: field names and other lines become spaces. ok says whether
// data was framed so.
func unframeSSE(data []byte) ([]byte, bool) {
	// A response saved with its HTTP head (curl -i): blank the head out.
	headEnd := 0
	if bytes.HasPrefix(data, []byte("HTTP/")) {
		for _, sep := range []string{"\r\n\r\n", "\n\n"} {
			if i := bytes.Index(data, []byte(sep)); i >= 0 && (headEnd == 0 || i+len(sep) < headEnd) {
				headEnd = i + len(sep)
			}
		}
	}
	first := bytes.TrimLeft(data[headEnd:], " \t\r\n")
	if len(first) == 0 || (headEnd == 0 && (first[0] == '{' || first[0] == '[')) {
		return data, false
	}
	framed := false
	for _, p := range []string{"event:", "data:", "id:", "retry:", ":"} {
		if bytes.HasPrefix(first, []byte(p)) {
			framed = true
		}
	}
	if !framed && headEnd == 0 {
		return data, false
	}
	out := bytes.Clone(data)
	if !framed { // an HTTP head before plain JSON
		for i := 0; i < headEnd; i++ {
			if out[i] != '\n' {
				out[i] = ' '
			}
		}
		return out, true
	}
	for start := 0; start < len(out); {
		end := bytes.IndexByte(out[start:], '\n')
		if end < 0 {
			end = len(out)
		} else {
			end += start
		}
		line := out[start:end]
		if bytes.HasPrefix(line, []byte("data:")) {
			n := len("data:")
			if len(line) > n && line[n] == ' ' {
				n++
			}
			for i := 0; i < n; i++ {
				line[i] = ' '
			}
		} else {
			for i := range line {
				line[i] = ' '
			}
		}
		start = end + 1
	}
	return out, true
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

// fieldError is a problem in a tool's schema: sub is the JSON Pointer of
// the field within the schema's tool definition.
type fieldError struct{ sub, msg string }

// contractFromSchema makes a contract tool of a name and an input schema
// (nil: no arguments); notes are warnings for the person importing.
func contractFromSchema(name string, schemaAny any) (ContractTool, []string, *fieldError) {
	tool := ContractTool{Name: name, Version: "", RequiredArguments: []string{}}
	var notes []string
	if schemaAny == nil {
		return tool, nil, nil
	}
	schema, ok := schemaAny.(map[string]any)
	if !ok {
		return ContractTool{}, nil, &fieldError{schemaSub, "want object, got " + kindOfGo(schemaAny)}
	}
	req, present := schema["required"]
	if !present || req == nil {
		return tool, notes, nil
	}
	list, ok := req.([]any)
	if !ok {
		return ContractTool{}, nil, &fieldError{schemaSub + "/required", "want array, got " + kindOfGo(req)}
	}
	props, _ := schema["properties"].(map[string]any)
	for j, r := range list {
		s, ok := r.(string)
		if !ok || s == "" {
			got := kindOfGo(r)
			if ok {
				got = `""`
			}
			return ContractTool{}, nil, &fieldError{fmt.Sprintf("%s/required/%d", schemaSub, j), "want a non-empty string, got " + got}
		}
		tool.RequiredArguments = append(tool.RequiredArguments, s)
		if typ := schemaType(props[s], schema, 0); typ != "" {
			notes = append(notes, fmt.Sprintf("%s: required argument %q has type %s in its schema; rule %d admits only a non-empty "+
				"string, so a call that passes it as %s is %s/%s (toolgate's teaching model, not a JSON Schema validator)",
				name, s, typ, assess.RuleArguments, article(typ), assess.CodeInvalidArguments.Status(), assess.CodeInvalidArguments))
		}
	}
	return tool, notes, nil
}

// schemaSub is where a definition's schema is, for errors: the callers
// place it.
const schemaSub = ""

// schemaType is what a property's JSON Schema admits when that is not a
// string: "integer", "array", "number or null", ...; "" when it admits a
// string or does not say. It follows a local $ref ("#/$defs/X") and
// reads anyOf, oneOf, enum and const.
func schemaType(prop any, root map[string]any, depth int) string {
	p, ok := prop.(map[string]any)
	if !ok || depth > 8 {
		return ""
	}
	if ref, ok := p["$ref"].(string); ok {
		if target := resolveRef(root, ref); target != nil {
			return schemaType(target, root, depth+1)
		}
		return ""
	}
	switch t := p["type"].(type) {
	case string:
		if t == "string" {
			return ""
		}
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
	for _, key := range []string{"anyOf", "oneOf"} {
		branches, ok := p[key].([]any)
		if !ok || len(branches) == 0 {
			continue
		}
		var names []string
		for _, b := range branches {
			t := schemaType(b, root, depth+1)
			if t == "" {
				return "" // this branch admits a string
			}
			if !slices.Contains(names, t) {
				names = append(names, t)
			}
		}
		return strings.Join(names, " or ")
	}
	if c, ok := p["const"]; ok {
		if _, isString := c.(string); !isString {
			return kindOfGo(c) + " (const)"
		}
		return ""
	}
	if e, ok := p["enum"].([]any); ok && len(e) > 0 {
		var names []string
		for _, v := range e {
			if _, isString := v.(string); isString {
				return ""
			}
			if k := kindOfGo(v); !slices.Contains(names, k) {
				names = append(names, k)
			}
		}
		return strings.Join(names, " or ") + " (enum)"
	}
	return ""
}

// resolveRef finds a local reference ("#/$defs/Edit") in the schema.
func resolveRef(root map[string]any, ref string) any {
	if !strings.HasPrefix(ref, "#/") {
		return nil
	}
	var cur any = root
	for _, tok := range strings.Split(ref[2:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[tok]
	}
	return cur
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
