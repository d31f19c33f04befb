package importer

import (
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// vercelPart is a part of an AI SDK message: a ModelMessage's content
// part (tool-call, tool-result, ...) or a UIMessage's part (tool-NAME,
// dynamic-tool, tool-invocation).
type vercelPart struct {
	Type             string         `json:"type"`
	ToolCallID       jsontext.Value `json:"toolCallId"`
	ProviderExecuted bool           `json:"providerExecuted"`
	State            string         `json:"state"`
	ToolInvocation   *struct {
		ToolCallID jsontext.Value `json:"toolCallId"`
		State      string         `json:"state"`
	} `json:"toolInvocation"`
}

type vercelMessage struct {
	Role    string              `json:"role"`
	Content content[vercelPart] `json:"content"`
	Parts   []vercelPart        `json:"parts"`
}

// vercelReader pairs an assistant message's tool-call parts with the
// tool-result parts of the tool messages right after it (one turn,
// however many tool messages). A tool the provider ran (providerExecuted)
// is answered in the assistant's own content, paired by id. UI messages
// (useChat's, with parts) hold a call and its result in one part: a
// call is answered when its state is output-available, output-error or
// output-denied (result, in AI SDK 4).
type vercelReader struct {
	r         *run
	x         exchange
	phase     int
	srv       *ledger
	approvals int
	// UI messages: the last assistant message's batch, emitted when the
	// next message shows it is not the last.
	ui        exchange
	uiPending bool
	uiCount   int
}

func newVercelReader(r *run) *vercelReader {
	return &vercelReader{r: r, srv: newLedger(r, "provider-executed tool calls", "results")}
}

func (v *vercelReader) wrapperStart(_ *wrapper) error { return nil }
func (v *vercelReader) wrapperEnd(_ *wrapper) error   { return nil }

func (v *vercelReader) element(e *element) error {
	var m vercelMessage
	if err := v.r.decodeAt(e, &m); err != nil {
		return err
	}
	if m.Parts != nil {
		return v.uiMessage(e, &m)
	}
	switch m.Role {
	case "assistant":
		if v.phase != 0 {
			if err := v.close(true); err != nil {
				return err
			}
		}
		for i, p := range m.Content.blocks {
			ptr := pointer("content", i, "toolCallId")
			switch p.Type {
			case "tool-call":
				id, ok, err := idText(p.ToolCallID)
				if err != nil {
					return v.r.at(e, ptr, "%v", err)
				}
				if p.ProviderExecuted {
					if err := v.server(e, ptr, id, ok, true); err != nil {
						return err
					}
					continue
				}
				if v.phase == 0 {
					v.phase = 1
					v.x.callsAt = e.place()
				}
				v.r.call(&v.x, e, ptr, "tool-call", id, ok)
			case "tool-result":
				id, ok, err := idText(p.ToolCallID)
				if err != nil {
					return v.r.at(e, ptr, "%v", err)
				}
				if err := v.server(e, ptr, id, ok, false); err != nil {
					return err
				}
			case "tool-approval-request":
				v.approvals++
			}
		}
		return v.srv.settle()
	case "tool":
		if v.phase != 2 {
			if v.phase == 0 {
				v.x.callsAt = ""
			}
			v.phase = 2
			v.x.resultsAt = e.place()
		}
		v.x.resultMsg++
		for i, p := range m.Content.blocks {
			ptr := pointer("content", i, "toolCallId")
			switch p.Type {
			case "tool-result":
				id, ok, err := idText(p.ToolCallID)
				if err != nil {
					return v.r.at(e, ptr, "%v", err)
				}
				v.r.result(&v.x, e, ptr, "tool-result", id, ok)
			case "tool-approval-response":
				v.approvals++
			}
		}
	case "user", "system":
		if v.phase != 0 {
			if err := v.close(true); err != nil {
				return err
			}
		}
		if m.Role == "user" {
			return v.srv.close(true)
		}
	default:
		return v.r.at(e, "/role", "want \"system\", \"user\", \"assistant\" or \"tool\", got %q", m.Role)
	}
	return nil
}

func (v *vercelReader) server(e *element, ptr, id string, ok, call bool) error {
	if !ok || id == "" {
		v.r.problem(v.r.at(e, ptr, "%s", map[bool]string{true: "empty toolCallId; left out", false: "no toolCallId; left out"}[ok]))
		return nil
	}
	line, _ := e.pos(0)
	if call {
		first, ok, err := v.srv.request(id, line)
		if err != nil {
			return err
		}
		if !ok {
			v.r.problem(v.r.at(e, ptr, "tool-call %q again (first at line %d): left out the second time", id, first))
		}
		return nil
	}
	return v.srv.result(id, line, func() string { return e.place() })
}

func (v *vercelReader) close(closed bool) error {
	how := ""
	switch {
	case v.x.callsAt == "":
		how = fmt.Sprintf("%s: %d tool-result with no tool-call right before", v.x.resultsAt, len(v.x.results))
	case v.phase == 1:
		how = fmt.Sprintf("%s: %d tool-call → no tool message", v.x.callsAt, len(v.x.calls))
		if !closed {
			how += " yet (open)"
		}
	default:
		how = fmt.Sprintf("%s: %d tool-call → %s: %d tool-result", v.x.callsAt, len(v.x.calls), v.x.resultsAt, len(v.x.results))
	}
	v.phase = 0
	return v.r.finish(&v.x, closed, how)
}

// uiMessage reads a UIMessage: its tool parts are calls, answered when
// their state says the output is there.
func (v *vercelReader) uiMessage(e *element, m *vercelMessage) error {
	v.uiCount++
	if v.uiPending {
		how := fmt.Sprintf("%s: %s, %d with its output (a later message follows: the rest is missing)", v.ui.callsAt, toolParts(len(v.ui.calls)), len(v.ui.results))
		if err := v.r.finish(&v.ui, true, how); err != nil {
			return err
		}
		v.uiPending = false
	}
	if m.Role != "assistant" {
		return nil
	}
	for i, p := range m.Parts {
		id, state, ptr := p.ToolCallID, p.State, pointer("parts", i, "toolCallId")
		switch {
		case p.Type == "tool-invocation" && p.ToolInvocation != nil:
			id, state, ptr = p.ToolInvocation.ToolCallID, p.ToolInvocation.State, pointer("parts", i, "toolInvocation", "toolCallId")
		case strings.HasPrefix(p.Type, "tool-") || p.Type == "dynamic-tool":
		default:
			continue
		}
		s, ok, err := idText(id)
		if err != nil {
			return v.r.at(e, ptr, "%v", err)
		}
		v.r.call(&v.ui, e, ptr, "tool part", s, ok)
		switch state {
		case "output-available", "output-error", "output-denied", "result":
			if ok && s != "" {
				v.ui.results = append(v.ui.results, s)
			}
		}
	}
	if len(v.ui.calls) > 0 {
		v.ui.callsAt = e.place()
		v.uiPending = true
	}
	return nil
}

func (v *vercelReader) end() error {
	if v.approvals > 0 {
		v.r.note("approvals", "%d tool approval parts read: an approval is not a call; the tool-call it is about is answered by its tool-result", v.approvals)
	}
	if v.uiPending {
		how := fmt.Sprintf("%s: %s, %d with its output (the last message)", v.ui.callsAt, toolParts(len(v.ui.calls)), len(v.ui.results))
		if err := v.r.finish(&v.ui, v.r.o.Closed, how); err != nil {
			return err
		}
	}
	switch v.phase {
	case 1:
		if err := v.close(v.r.o.Closed); err != nil {
			return err
		}
	case 2:
		if err := v.close(v.r.o.Closed || v.r.document); err != nil {
			return err
		}
	}
	return v.srv.close(v.r.o.Closed)
}

func toolParts(n int) string { return fmt.Sprintf("%d tool %s", n, plural(n, "part", "parts")) }
