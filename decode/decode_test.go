package decode_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/scenarios"
)

const valid = `{"contract":{"version":"c1","tools":[{"name":"t","version":"v1","effectClass":"read_only","requiredArguments":["a"]}]},
 "request":{"correlationId":"r1","tool":{"name":"t","version":"v1"},"arguments":{"a":"x"}},
 "environment":{"status":"ready"}}`

func TestInputDecodesTheSeedShape(t *testing.T) {
	in, err := decode.Input([]byte(valid))
	require.NoError(t, err)
	assert.Equal(t, assess.Some("c1"), in.Contract.Version)
	assert.Equal(t, []string{"a"}, in.Contract.Tools[0].RequiredArguments)
	assert.Equal(t, "x", in.Request.Arguments["a"])
	assert.Nil(t, in.Approval)
	assert.Equal(t, assess.CodeAdmissionAllowed, assess.Assess(&in).Code)
}

// minimal is the least input the check accepts: every member the book's
// function needs, and nothing else.
const minimal = `{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"}},"environment":{}}`

func TestArgumentsMayBeAnyJSON(t *testing.T) {
	in, err := decode.Input([]byte(`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"},
	  "arguments":{"n":1.5,"b":true,"z":null,"o":{"deep":[1,{"x":"y"}]},"s":"", "Any Key!":[]}},"environment":{}}`))
	require.NoError(t, err)
	assert.Equal(t, 1.5, in.Request.Arguments["n"])
	assert.Equal(t, true, in.Request.Arguments["b"])
	assert.Contains(t, in.Request.Arguments, "z")
	assert.Nil(t, in.Request.Arguments["z"])
	assert.Equal(t, map[string]any{"deep": []any{1.0, map[string]any{"x": "y"}}}, in.Request.Arguments["o"])
}

// TestAbsentAndEmptyStringDiffer: an optional member left out is absent;
// "" is a value; null is neither and is refused where a string is
// expected. Optional objects may be null, which means absent.
func TestAbsentAndEmptyStringDiffer(t *testing.T) {
	in, err := decode.Input([]byte(minimal))
	require.NoError(t, err)
	assert.False(t, in.Environment.Status.Present())
	assert.Nil(t, in.Approval)
	assert.Nil(t, in.InvocationRecord)
	assert.Nil(t, in.Request.Arguments)
	assert.False(t, in.Request.Tool.Version.Present())

	in, err = decode.Input([]byte(`{"contract":{"version":"","tools":[{"name":"","version":"","effectClass":"",
	  "requiredArguments":[""],"approvalScope":""}]},
	  "request":{"correlationId":"","tool":{"name":"","version":""},"arguments":null},
	  "environment":{"status":""},"approval":null,"invocationRecord":{"correlationId":"","status":"","verificationStatus":"","effectStatus":""}}`))
	require.NoError(t, err, `"" is a value everywhere`)
	empty := assess.Some("")
	assert.Equal(t, assess.Tool{Name: "", Version: empty, EffectClass: empty, RequiredArguments: []string{""}, ApprovalScope: empty}, in.Contract.Tools[0])
	assert.Equal(t, assess.InvocationRecord{CorrelationID: empty, Status: empty, VerificationStatus: empty, EffectStatus: empty}, *in.InvocationRecord)
	assert.Nil(t, in.Approval, "an optional object may be null")
	assert.Nil(t, in.Request.Arguments)
	// version "" matches "", the record's correlationId "" matches the
	// request's "", and the argument named "" is absent.
	v := assess.Assess(&in)
	assert.Equal(t, assess.CodeInvalidArguments, v.Code)
	assert.Equal(t, []string{""}, v.MissingArguments)
}

func TestInputErrorsNameTheField(t *testing.T) {
	const req = `"request":{"correlationId":"r","tool":{"name":"t"}},"environment":{}`
	tests := []struct {
		name, json, want string
	}{
		{"wrong type in a record", `{"contract":{"tools":[]},` + req + `,
		  "invocationRecord":{"correlationId":"r","status":"succeeded","verificationStatus":5}}`,
			"invocationRecord.verificationStatus: want string, got number"},
		{"misspelt top-level member", `{"contract":{"tools":[]},` + req + `,"invocationRecrod":{}}`,
			"invocationRecrod: unknown field (did you mean invocationRecord?); an input has contract, request, environment, approval, invocationRecord"},
		{"unknown member inside a tool", `{"contract":{"tools":[{"name":"t","effect":"read_only","requiredArguments":[]}]},` + req + `}`,
			"contract.tools[0].effect: unknown field; known fields: name, version, effectClass, requiredArguments, approvalScope"},
		{"member names are case-sensitive", `{"contract":{"tools":[]},"request":{"correlationID":"r","tool":{"name":"t"}},"environment":{}}`,
			"request.correlationID: unknown field (did you mean correlationId?); known fields: correlationId, tool, arguments"},
		{"tools not an array", `{"contract":{"tools":{}},` + req + `}`, "contract.tools: want array, got object"},
		{"a tool that is null", `{"contract":{"tools":[null]},` + req + `}`, "contract.tools[0]: want object, got null"},
		{"required argument names are strings", `{"contract":{"tools":[{"name":"t","requiredArguments":["a",7]}]},` + req + `}`,
			"contract.tools[0].requiredArguments[1]: want string, got number"},
		{"a required argument name is not null", `{"contract":{"tools":[{"name":"t","requiredArguments":["a",null]}]},` + req + `}`,
			"contract.tools[0].requiredArguments[1]: null in a list of strings: remove it, or write the string"},
		{"arguments must be an object", `{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"},"arguments":["a"]},"environment":{}}`,
			"request.arguments: want object, got array"},
		{"environment must be an object", `{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"}},"environment":"ready"}`,
			"environment: want object, got string"},
		{"input must be an object", `[1,2]`, "input: want object, got array"},
		{"everything missing", `{}`, "contract: required: the book's function reads contract.tools; " +
			"request: required: the book's function reads request.correlationId and request.tool; " +
			"environment: required: the book's function reads environment.status ({} is a snapshot without a status)"},
		{"missing tools", `{"contract":{"version":"v"},` + req + `}`,
			"contract.tools: required: an array of tools ([] for none) — the book's function calls contract.tools.find"},
		{"missing requiredArguments", `{"contract":{"tools":[{"name":"t"}]},` + req + `}`,
			"contract.tools[0].requiredArguments: required: an array of names ([] for none) — the book's function calls requiredArguments.filter"},
		{"missing tool name", `{"contract":{"tools":[{"requiredArguments":[]}]},` + req + `}`,
			"contract.tools[0].name: required: a string — the book's function compares each tool's name"},
		{"missing correlation id", `{"contract":{"tools":[]},"request":{"tool":{"name":"t"}},"environment":{}}`,
			"request.correlationId: required: a string — every verdict carries the request's correlationId"},
		{"null correlation id", `{"contract":{"tools":[]},"request":{"correlationId":null,"tool":{"name":"t"}},"environment":{}}`,
			"request.correlationId: null where a string is expected: leave the member out to say absent"},
		{"null request tool", `{"contract":{"tools":[]},"request":{"correlationId":"r","tool":null},"environment":{}}`,
			"request.tool: required: the book's function reads request.tool.name"},
		{"null environment", `{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"}},"environment":null}`,
			"environment: required: the book's function reads environment.status ({} is a snapshot without a status)"},
		{"null optional string", `{"contract":{"tools":[]},` + req + `,"invocationRecord":{"effectStatus":null}}`,
			"invocationRecord.effectStatus: null where a string is expected: leave the member out to say absent"},
		{"approval without a status", `{"contract":{"tools":[]},` + req + `,"approval":{"scope":"s"}}`,
			"approval.status: required, a non-empty string: the book answers approval_<status>, which would be approval_undefined or approval_"},
		{"approval with an empty status", `{"contract":{"tools":[]},` + req + `,"approval":{"status":""}}`,
			"approval.status: required, a non-empty string: the book answers approval_<status>, which would be approval_undefined or approval_"},
		{"duplicate names", `{"contract":{"tools":[]},` + req + `,"approval":{"status":"active","status":"x"}}`,
			"approval.status: duplicate field"},
		{"duplicate names inside arguments", `{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"},"arguments":{"a":"x","a":""}},"environment":{}}`,
			"request.arguments.a: duplicate field"},
		{"invalid UTF-8", "{\"contract\":{\"tools\":[]},\"request\":{\"correlationId\":\"r\xff\",\"tool\":{\"name\":\"t\"}},\"environment\":{}}",
			"request.correlationId: invalid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decode.Input([]byte(tt.json))
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
			var f decode.Fast
			_, ok := f.Input([]byte(tt.json))
			assert.False(t, ok, "the fast lane must refuse it too")
		})
	}
}

// TestListsAreBounded: no contract of more than MaxTools tools, no list
// of more than MaxRequiredArguments names.
func TestListsAreBounded(t *testing.T) {
	tools := strings.Repeat(`{"name":"t","requiredArguments":[]},`, decode.MaxTools)
	names := strings.Repeat(`"a",`, decode.MaxRequiredArguments)
	for _, tt := range []struct{ json, want string }{
		{`{"contract":{"tools":[` + tools + `{"name":"u","requiredArguments":[]}]},"request":{"correlationId":"r","tool":{"name":"t"}},"environment":{}}`,
			"contract.tools: 4097 tools: toolgate reads at most 4096"},
		{`{"contract":{"tools":[{"name":"t","requiredArguments":[` + names + `"b"]}]},"request":{"correlationId":"r","tool":{"name":"t"}},"environment":{}}`,
			"contract.tools[0].requiredArguments: 4097 names: toolgate reads at most 4096"},
	} {
		_, err := decode.Input([]byte(tt.json))
		require.Error(t, err)
		assert.Equal(t, tt.want, err.Error())
		var f decode.Fast
		_, ok := f.Input([]byte(tt.json))
		assert.False(t, ok)
	}
}

func TestEncodeRoundTrips(t *testing.T) {
	for _, s := range scenarios.Builtin() {
		var err error
		var b []byte
		switch c := s.Case.(type) {
		case scenarios.AdmissionCase:
			b, err = decode.Encode(c.Input)
			require.NoError(t, err, s.ID)
			back, err := decode.Input(b)
			require.NoError(t, err, s.ID)
			assert.Equal(t, c.Input, back, s.ID)
		case scenarios.AuditCase:
			b, err = decode.Encode(c.Input)
			require.NoError(t, err, s.ID)
			back, err := decode.Audit(b)
			require.NoError(t, err, s.ID)
			assert.Equal(t, c.Input.Closed, back.Closed, s.ID)
			assert.Equal(t, len(c.Input.Requested), len(back.Requested), s.ID)
		case scenarios.OutcomeCase:
			b, err = decode.Encode(c.Input)
			require.NoError(t, err, s.ID)
			back, err := decode.Outcome(b)
			require.NoError(t, err, s.ID)
			assert.Equal(t, c.Input, back, s.ID)
		}
	}
}

func TestStreamReadsValuesAndLines(t *testing.T) {
	s := decode.NewStream(strings.NewReader("{\"a\":1}\n\n{\"b\":\n 2}\n  [3]  {\"c\":\"}\\\"{\"}\n\"str\" 42 tru}\n"))
	var got []string
	var lines []int
	for {
		v, err := s.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		got = append(got, string(v.Raw))
		lines = append(lines, v.Line)
	}
	assert.Equal(t, []string{`{"a":1}`, "{\"b\":\n 2}", `[3]`, `{"c":"}\"{"}`, `"str"`, `42`, `tru}`}, got)
	assert.Equal(t, []int{1, 3, 5, 5, 6, 6, 6}, lines)
}

// notJSON runs a stream through Input until text that is not JSON, the
// way toolgate assess does, and returns where it stopped.
func notJSON(t *testing.T, text string) (line, col int) {
	t.Helper()
	s := decode.NewStream(strings.NewReader(text))
	for {
		v, err := s.Next()
		var sx *decode.SyntaxError
		if errors.As(err, &sx) {
			return sx.Line, sx.Column
		}
		require.NoError(t, err, "the stream ended without a syntax error")
		_, err = decode.Input(v.Raw)
		var nj *decode.NotJSON
		if errors.As(err, &nj) {
			return v.Position(nj.Offset)
		}
	}
}

func TestSyntaxErrorsHaveLineAndColumn(t *testing.T) {
	tests := []struct {
		name, text string
		line, col  int
	}{
		{"bad literal on line 3", "{}\n{}\n{\"a\": tru}\n{}", 3, 10},
		{"garbage at start", "# comment", 1, 1},
		{"unclosed object at the end", "{}\n{\"a\":1", 2, 7},
		{"trailing comma", "{\"a\":1,}", 1, 8},
		{"error on the second line of a value", "{\"a\":\n  [1,,2]}", 2, 6},
		{"stray closing bracket", "{}\n }", 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, col := notJSON(t, tt.text)
			assert.Equal(t, tt.line, line)
			assert.Equal(t, tt.col, col)
		})
	}
}

func TestStreamLineNumbersSurviveALongStream(t *testing.T) {
	var b strings.Builder
	for range 20000 {
		b.WriteString(`{"x":"` + strings.Repeat("y", 50) + "\"}\n")
	}
	b.WriteString("{oops}\n")
	s := decode.NewStream(strings.NewReader(b.String()))
	for n := 1; ; n++ {
		v, err := s.Next()
		require.NoError(t, err)
		require.Equal(t, n, v.Line)
		if n == 20001 {
			assert.Equal(t, "{oops}", string(v.Raw))
			break
		}
	}
}

func TestAuditInput(t *testing.T) {
	in, err := decode.Audit([]byte(`{"requested":["A","B"],"results":["B"]}`))
	require.NoError(t, err)
	assert.Equal(t, assess.AuditInput{Requested: []string{"A", "B"}, Results: []string{"B"}, Closed: true}, in, "absent closed is true")
	in, err = decode.Audit([]byte(`{"requested":[],"results":[],"closed":false}`))
	require.NoError(t, err)
	assert.False(t, in.Closed)
	in, err = decode.Audit([]byte(`{"requested":["A","A"],"results":[]}`))
	require.NoError(t, err, "a duplicate request is the audit's to report")
	assert.True(t, in.Closed)
	_, err = decode.Audit([]byte(`{"requested":[],"results":[],"closed":null}`))
	require.EqualError(t, err, "closed: null where a boolean is expected: leave the member out to say absent")
	in, err = decode.Audit([]byte(`{"requested":[""],"results":[""]}`))
	require.NoError(t, err, `"" is an ID`)
	assert.Equal(t, []string{""}, in.Results)

	for text, want := range map[string]string{
		`{"requested":["A"]}`:                          "results: required: an array of IDs ([] for none)",
		`{}`:                                           "requested: required: an array of IDs ([] for none); results: required: an array of IDs ([] for none)",
		`{"requested":["A"],"results":[1]}`:            "results[0]: want string, got number",
		`{"requested":["A"],"results":[null]}`:         "results[0]: null in a list of strings: remove it, or write the string",
		`{"requested":[],"results":[],"close":true}`:   "close: unknown field (did you mean closed?); an input has requested, results, closed",
		`{"requested":[],"results":[],"closed":"yes"}`: "closed: want boolean, got string",
	} {
		_, err := decode.Audit([]byte(text))
		require.Error(t, err, text)
		assert.Equal(t, want, err.Error(), text)
	}
}

func TestOutcomeInput(t *testing.T) {
	in, err := decode.Outcome([]byte(`{"result":{"isError":false,"found":false,"content":null}}`))
	require.NoError(t, err)
	require.NotNil(t, in.Result)
	assert.False(t, *in.Result.Found)
	for text, want := range map[string]string{
		`{}`: "input: want error or result, got neither",
		`{"result":{"isError":true,"errorKind":"boom"}}`: `result.errorKind: unknown kind "boom" (want invalid_arguments, permission_denied or execution_error)`,
		`{"error":{"code":"x"}}`:                         "error.code: want number, got string",
		`{"result":{"iserror":true}}`:                    "result.iserror: unknown field (did you mean isError?); known fields: isError, errorKind, found, content",
	} {
		_, err := decode.Outcome([]byte(text))
		require.Error(t, err, text)
		assert.Equal(t, want, err.Error(), text)
	}
}
