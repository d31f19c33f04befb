package importer

import (
	"fmt"
	"slices"
	"strings"

	"toolgate/assess"
	"toolgate/scenarios"
)

// Call is the tool call a scenario is made around.
type Call struct {
	// Tool is the tool's name in the imported contract.
	Tool string
	// Arguments are the call's arguments; nil fills each required
	// argument with a placeholder string.
	Arguments map[string]any
	// ID is the scenario's id; "" makes "mcp-" and the tool's name.
	ID string
	// Source names where the tool list came from, for the story.
	Source string
}

// Scenario wraps an imported contract around one call of one of its tools:
// the request asks for the tool at the contract's version (""), the
// environment is ready, and there is no approval and no record — so the
// walk shows what the server's annotations alone decide. The expected
// verdict is what assess says.
func Scenario(imp MCPImport, call Call) (scenarios.Scenario, error) {
	c := imp.Contract.Assess()
	idx := slices.IndexFunc(c.Tools, func(t assess.Tool) bool { return t.Name == call.Tool })
	if idx < 0 {
		names := make([]string, len(c.Tools))
		for i, t := range c.Tools {
			names[i] = t.Name
		}
		return scenarios.Scenario{}, fmt.Errorf("--scenario %q: no such tool in the list (it has: %s)", call.Tool, strings.Join(names, ", "))
	}
	tool := c.Tools[idx]
	args := call.Arguments
	if args == nil {
		args = map[string]any{}
		for _, a := range tool.RequiredArguments {
			args[a] = "example-" + a
		}
	}
	id := call.ID
	if id == "" {
		id = "mcp-" + strings.ReplaceAll(tool.Name, "_", "-")
	}
	why := ""
	if idx < len(imp.Why) {
		why = imp.Why[idx]
	}
	source := call.Source
	if source == "" || source == "-" {
		source = "standard input"
	}
	s := scenarios.Scenario{
		ID:    id,
		Title: scenarios.Text{En: "MCP tool " + tool.Name, Zh: "MCP 工具 " + tool.Name},
		Story: scenarios.Text{
			En: fmt.Sprintf("Imported from %s by toolgate import mcp. The server's annotations decided the effect class: %s. "+
				"The model calls it with every required argument; the environment is ready; nobody has approved anything yet.", source, why),
			Zh: fmt.Sprintf("由 toolgate import mcp 从 %s 导入。效果类别由服务器的注解决定：%s。模型带着全部必填参数调用它；环境 ready；还没有任何批准。", source, why),
		},
		Injected: scenarios.Text{
			En: "a tool list from a real MCP server; effect class " + tool.EffectClass.Or("") + " from its annotations",
			Zh: "来自真实 MCP 服务器的工具列表；效果类别 " + tool.EffectClass.Or("") + " 来自它的注解",
		},
		DoesNotProve: scenarios.Text{
			En: "that the server's annotations are true: they are hints, and a server can mislabel a destructive tool",
			Zh: "服务器的注解属实：注解只是提示，服务器可能把破坏性工具标错",
		},
		Case: scenarios.AdmissionCase{Input: assess.Input{
			Contract: c,
			Request: assess.Request{CorrelationID: "call-1", Tool: assess.ToolRef{Name: tool.Name, Version: tool.Version},
				Arguments: args},
			Environment: assess.Environment{Status: assess.Some("ready")},
		}},
	}
	return s, nil
}

// ScenarioYAML writes the scenario as a file that toolgate validate and
// the trainer read, with a first line saying where it came from.
func ScenarioYAML(s scenarios.Scenario) ([]byte, error) {
	return scenarios.Marshal(s, "Written by toolgate import mcp. Check it with: toolgate validate FILE; walk it with: toolgate --scenarios FILE --scenario "+s.ID)
}
