package assess

import (
	"fmt"
	"strconv"
	"strings"
)

// OutcomeInput is what came back from one tool call (docs/decision.md §6): either a
// JSON-RPC error instead of a result, or a result. The fields are this
// trainer's teaching model, shaped after MCP's tools/call, not MCP itself.
type OutcomeInput struct {
	Error  *RPCError   `json:"error,omitempty"`
	Result *ToolResult `json:"result,omitempty"`
}

// RPCError is a JSON-RPC error response.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message,omitempty"`
}

// ToolResult is a tool's result. IsError marks a result that reports a
// failure; ErrorKind says which (invalid_arguments, permission_denied,
// execution_error); Found says whether a successful lookup found its thing.
type ToolResult struct {
	IsError   bool   `json:"isError"`
	ErrorKind string `json:"errorKind,omitempty"`
	Found     *bool  `json:"found,omitempty"`
	// Content is the result's body, shown, never classified.
	Content any `json:"content,omitempty"`
}

// JSON-RPC error code for invalid parameters.
const rpcInvalidParams = -32602

// MCPRevision is the MCP specification revision the outcome track is
// checked against: the current one. Its tools/call error handling is the
// 2025-11-25 revision's: an unknown tool, a malformed request and a server
// error are protocol errors (JSON-RPC errors, the unknown tool as -32602
// "Unknown tool: …"); an input validation error is a tool execution error,
// a result with isError: true. Before 2025-11-25 servers often sent
// invalid arguments as a -32602 protocol error.
const MCPRevision = "2026-07-28"

// unknownToolPrefix starts the message of MCP's own unknown-tool error.
const unknownToolPrefix = "unknown tool"

// legacyInvalidArguments reports a JSON-RPC error that the trainer reads
// as invalid arguments sent the way servers did before MCP 2025-11-25: a
// -32602 whose message does not name an unknown tool. It is the
// trainer's reading, not the protocol's: the code says only "invalid
// params", and MCP's own unknown-tool error is a -32602 too.
func legacyInvalidArguments(e *RPCError) bool {
	return e != nil && e.Code == rpcInvalidParams && !unknownTool(e)
}

// unknownTool reports MCP's protocol error for a tool the server does not
// have: -32602 "Unknown tool: …".
func unknownTool(e *RPCError) bool {
	return e != nil && e.Code == rpcInvalidParams &&
		len(e.Message) >= len(unknownToolPrefix) && strings.EqualFold(e.Message[:len(unknownToolPrefix)], unknownToolPrefix)
}

// OutcomeClass is the kind of outcome a tool call had.
type OutcomeClass uint8

// The classes of docs/decision.md §6, in the order the classification asks about them.
const (
	ClassProtocolError OutcomeClass = iota + 1
	ClassInvalidArguments
	ClassPermissionDenied
	ClassExecutionError
	ClassNotFound
	ClassFound
)

var classNames = [...]string{
	ClassProtocolError:    "protocol_error",
	ClassInvalidArguments: "invalid_arguments",
	ClassPermissionDenied: "permission_denied",
	ClassExecutionError:   "execution_error",
	ClassNotFound:         "not_found",
	ClassFound:            "found",
}

func (c OutcomeClass) String() string {
	if c >= ClassProtocolError && c <= ClassFound {
		return classNames[c]
	}
	return fmt.Sprintf("OutcomeClass(%d)", uint8(c))
}

// MarshalText writes the class's name.
func (c OutcomeClass) MarshalText() ([]byte, error) {
	if c < ClassProtocolError || c > ClassFound {
		return nil, fmt.Errorf("invalid outcome class %d", uint8(c))
	}
	return []byte(classNames[c]), nil
}

// UnmarshalText reads a class's name.
func (c *OutcomeClass) UnmarshalText(b []byte) error {
	for i := ClassProtocolError; i <= ClassFound; i++ {
		if classNames[i] == string(b) {
			*c = i
			return nil
		}
	}
	return fmt.Errorf("unknown outcome class %q", b)
}

// OutcomeError is an outcome input that cannot be classified.
type OutcomeError struct{ Path, Msg string }

func (e *OutcomeError) Error() string { return e.Path + ": " + e.Msg }

// CheckOutcome reports an input that cannot be classified: neither or both
// of error and result, an unknown errorKind, an error kind on a success,
// a success without found.
func CheckOutcome(in OutcomeInput) error {
	switch {
	case in.Error == nil && in.Result == nil:
		return &OutcomeError{"input", "want error or result, got neither"}
	case in.Error != nil && in.Result != nil:
		return &OutcomeError{"input", "want error or result, got both"}
	case in.Result == nil:
		return nil
	}
	r := in.Result
	switch {
	case !r.IsError && r.ErrorKind != "":
		return &OutcomeError{"result.errorKind", "only an error result (isError: true) has an error kind"}
	case r.IsError && r.ErrorKind != "" && r.ErrorKind != "invalid_arguments" &&
		r.ErrorKind != "permission_denied" && r.ErrorKind != "execution_error":
		return &OutcomeError{"result.errorKind", fmt.Sprintf("unknown kind %q (want invalid_arguments, permission_denied or execution_error)", r.ErrorKind)}
	case !r.IsError && r.Found == nil:
		return &OutcomeError{"result.found", "required when isError is false: did the lookup find its thing?"}
	case r.IsError && r.Found != nil:
		return &OutcomeError{"result.found", "only a successful result (isError: false) says found"}
	}
	return nil
}

// OutcomeStep is one question of the classification.
type OutcomeStep struct {
	Class   OutcomeClass // the class a yes here decides
	Outcome Outcome
	Reads   []string
	// note is the explanation's key value; legacy marks invalid
	// arguments reported as a -32602 protocol error, unknownTool MCP's
	// own -32602 "Unknown tool: …".
	note        string
	legacy      bool
	unknownTool bool
}

// Classify says what kind of outcome a tool call had. The questions are
// asked in order and the first yes decides, as in the admission order.
// It returns an *OutcomeError for an input CheckOutcome rejects.
func Classify(in OutcomeInput) (OutcomeClass, []OutcomeStep, error) {
	if err := CheckOutcome(in); err != nil {
		return 0, nil, err
	}
	type question struct {
		class OutcomeClass
		yes   bool
		reads []string
		note  string
	}
	r := in.Result
	isErr := r != nil && r.IsError
	kind := ""
	if r != nil {
		kind = r.ErrorKind
	}
	legacyInvalid := legacyInvalidArguments(in.Error)
	questions := []question{
		{ClassProtocolError, in.Error != nil && !legacyInvalid, []string{"error"}, rpcNote(in.Error)},
		{ClassInvalidArguments, isErr && kind == "invalid_arguments" || legacyInvalid, invalidReads(in), rpcNote(in.Error)},
		{ClassPermissionDenied, isErr && kind == "permission_denied", []string{"result.isError", "result.errorKind"}, kind},
		{ClassExecutionError, isErr, []string{"result.isError", "result.errorKind"}, kind},
		{ClassNotFound, r != nil && r.Found != nil && !*r.Found, []string{"result.found"}, ""},
		{ClassFound, true, []string{"result.found"}, ""},
	}
	steps := make([]OutcomeStep, len(questions))
	var class OutcomeClass
	for i, q := range questions {
		steps[i] = OutcomeStep{Class: q.class, Outcome: Passed, Reads: q.reads, note: q.note,
			legacy:      (q.class == ClassInvalidArguments || q.class == ClassProtocolError) && legacyInvalid,
			unknownTool: q.class == ClassProtocolError && unknownTool(in.Error)}
		switch {
		case class != 0:
			steps[i].Outcome, steps[i].Reads = NotReached, nil
		case q.yes:
			steps[i].Outcome, class = Fired, q.class
		}
	}
	return class, steps, nil
}

func invalidReads(in OutcomeInput) []string {
	if in.Error != nil {
		return []string{"error"}
	}
	return []string{"result.isError", "result.errorKind"}
}

func rpcNote(e *RPCError) string {
	if e == nil {
		return ""
	}
	return strconv.Itoa(e.Code) + " " + strconv.Quote(e.Message)
}
