package importer

import (
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
)

type geminiCall struct {
	Name string         `json:"name"`
	ID   jsontext.Value `json:"id"`
}

type geminiPart struct {
	FunctionCall     *geminiCall `json:"functionCall"`
	FunctionResponse *geminiCall `json:"functionResponse"`
	// The Python SDK's model_dump writes snake_case.
	FunctionCallSnake     *geminiCall `json:"function_call"`
	FunctionResponseSnake *geminiCall `json:"function_response"`
}

type geminiContent struct {
	Role  string       `json:"role"`
	Parts []geminiPart `json:"parts"`
}

type geminiCandidate struct {
	Content *geminiContent `json:"content"`
}

// geminiElement is a content, a candidate, or a response (chunk).
type geminiElement struct {
	geminiContent `json:",inline"`
	Content       *geminiContent    `json:"content"`
	Candidates    []geminiCandidate `json:"candidates"`
}

// geminiReader pairs the functionCall parts of a model turn with the
// functionResponse parts of the turn after it. Gemini's ids are optional:
// a call with an id is answered by the response with that id; calls
// without one are paired with the responses without one by name and
// order in the turn (id NAME#k@lineL: the k-th call of NAME without an id
// in the model turn at line L).
type geminiReader struct {
	r       *run
	x       exchange
	phase   int
	callAt  int            // line of the model turn
	noID    map[string]int // calls without an id in the current model turn, by name
	noIDRes map[string]int // responses without an id in the turn after it, by name
	paired  int
	chunks  int
}

func newGeminiReader(r *run) *geminiReader { return &geminiReader{r: r} }

func (g *geminiReader) wrapperStart(_ *wrapper) error { return nil }
func (g *geminiReader) wrapperEnd(_ *wrapper) error   { return nil }

func (g *geminiReader) element(e *element) error {
	var m geminiElement
	if err := g.r.decodeAt(e, &m); err != nil {
		return err
	}
	switch {
	case len(m.Candidates) > 0:
		g.chunks++
		for i, c := range m.Candidates {
			if c.Content != nil {
				if err := g.content(e, c.Content, pointer("candidates", i, "content"), "model"); err != nil {
					return err
				}
			}
		}
		return nil
	case m.Content != nil: // a candidate of a response body
		return g.content(e, m.Content, "/content", "model")
	}
	return g.content(e, &m.geminiContent, "", "")
}

func (g *geminiReader) content(e *element, c *geminiContent, base, role string) error {
	if role == "" {
		role = c.Role
	}
	switch role {
	case "model":
		if g.phase == 2 {
			if err := g.finish(true); err != nil {
				return err
			}
		}
		if g.phase != 1 {
			g.phase = 1
			g.x.callsAt = e.place()
			g.callAt, _ = e.pos(0)
			g.noID = map[string]int{}
		}
	case "user", "function", "tool", "":
		if g.phase != 2 {
			if g.phase == 0 {
				g.x.callsAt = ""
			}
			g.phase = 2
			g.x.resultsAt = e.place()
			g.noIDRes = map[string]int{}
		}
	default:
		return g.r.at(e, base+"/role", "want \"user\" or \"model\", got %q", role)
	}
	for i, p := range c.Parts {
		call, callField := p.FunctionCall, "functionCall"
		if call == nil && p.FunctionCallSnake != nil {
			call, callField = p.FunctionCallSnake, "function_call"
		}
		resp, respField := p.FunctionResponse, "functionResponse"
		if resp == nil && p.FunctionResponseSnake != nil {
			resp, respField = p.FunctionResponseSnake, "function_response"
		}
		switch {
		case call != nil && role != "model":
			return g.r.at(e, base+pointer("parts", i, callField), "a functionCall in a %s turn: only the model calls functions", role)
		case call != nil:
			ptr := base + pointer("parts", i, callField, "id")
			id, ok, err := idText(call.ID)
			if err != nil {
				return g.r.at(e, ptr, "%v", err)
			}
			if !ok {
				g.noID[call.Name]++
				id, ok = fmt.Sprintf("%s#%d@line%d", call.Name, g.noID[call.Name], g.callAt), true
				g.paired++
			}
			g.r.call(&g.x, e, ptr, "functionCall", id, ok)
		case resp != nil && role == "model":
			return g.r.at(e, base+pointer("parts", i, respField), "a functionResponse in a model turn: responses come in the turn after it")
		case resp != nil:
			ptr := base + pointer("parts", i, respField, "id")
			id, ok, err := idText(resp.ID)
			if err != nil {
				return g.r.at(e, ptr, "%v", err)
			}
			if !ok {
				g.noIDRes[resp.Name]++
				id, ok = fmt.Sprintf("%s#%d@line%d", resp.Name, g.noIDRes[resp.Name], g.callAt), true
			}
			g.r.result(&g.x, e, ptr, "functionResponse", id, ok)
		}
	}
	return nil
}

func (g *geminiReader) finish(closed bool) error {
	how := ""
	switch {
	case g.x.callsAt == "":
		how = fmt.Sprintf("%s: %d functionResponse with no model turn of calls right before", g.x.resultsAt, len(g.x.results))
	case g.x.resultsAt == "" || g.phase == 1:
		how = fmt.Sprintf("%s: %d functionCall → no turn after it yet (open)", g.x.callsAt, len(g.x.calls))
		if closed {
			how = fmt.Sprintf("%s: %d functionCall → no turn after it", g.x.callsAt, len(g.x.calls))
		}
	default:
		how = fmt.Sprintf("%s: %d functionCall → %s: %d functionResponse", g.x.callsAt, len(g.x.calls), g.x.resultsAt, len(g.x.results))
	}
	g.phase = 0
	return g.r.finish(&g.x, closed, how)
}

func (g *geminiReader) end() error {
	if g.paired > 0 {
		g.r.note("paired", "%d function %s without an id: paired with the functionResponse parts without an id in the turn after, by name and order (shown as NAME#k@lineL: the k-th call of NAME without an id in the model turn at line L)",
			g.paired, plural(g.paired, "call", "calls"))
	}
	if g.chunks > 1 {
		g.r.note("chunks", "%d responses (or streamed chunks) read: their model turns are one turn", g.chunks)
	}
	switch g.phase {
	case 1:
		return g.finish(g.r.o.Closed)
	case 2:
		return g.finish(g.r.o.Closed || g.r.document)
	}
	return nil
}
