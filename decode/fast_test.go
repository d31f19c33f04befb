package decode_test

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/scenarios"
)

// agree decodes data with Fast and with Input and fails t when Fast takes
// an input that Input refuses, or reads it differently. It says whether
// each took it.
func agree(t testing.TB, f *decode.Fast, data []byte) (fastOK, strictOK bool) {
	t.Helper()
	strict, err := decode.Input(data)
	fast, ok := f.Input(data)
	if !ok {
		return false, err == nil
	}
	if err != nil {
		t.Fatalf("Fast took what Input refuses (%v): %q", err, data)
	}
	if diff := differ(&strict, fast); diff != "" {
		t.Fatalf("Fast reads %s differently from Input: %q", diff, data)
	}
	if a, b := assess.Assess(&strict), assess.Assess(fast); !reflect.DeepEqual(a, b) {
		t.Fatalf("verdicts differ: Input %+v, Fast %+v: %q", a, b, data)
	}
	return true, true
}

// differ names the first field where two inputs differ; arguments are
// compared as rule 3 sees them.
func differ(a, b *assess.Input) string {
	switch {
	case a.Contract.Version != b.Contract.Version:
		return "contract.version"
	case len(a.Contract.Tools) != len(b.Contract.Tools):
		return "contract.tools"
	}
	for i := range a.Contract.Tools {
		x, y := a.Contract.Tools[i], b.Contract.Tools[i]
		if x.Name != y.Name || x.Version != y.Version || x.EffectClass != y.EffectClass ||
			!slices.Equal(x.RequiredArguments, y.RequiredArguments) || x.ApprovalScope != y.ApprovalScope {
			return fmt.Sprintf("contract.tools[%d]", i)
		}
	}
	if a.Request.CorrelationID != b.Request.CorrelationID || a.Request.Tool != b.Request.Tool {
		return "request"
	}
	type arg struct{ why, value string }
	args := func(r assess.Request) map[string]arg {
		m := map[string]arg{}
		for name, v := range r.Arguments {
			why := assess.WhyValue(v)
			value := ""
			if why == assess.WhyBlank {
				value = v.(string)
			}
			m[name] = arg{why, value}
		}
		for _, g := range r.Given {
			m[g.Name] = arg{g.Why, g.Value}
		}
		return m
	}
	if r := b.Request; r.Arguments != nil || len(r.Given) > len(args(r)) {
		return "request.arguments (kept twice)"
	}
	if !maps.Equal(args(a.Request), args(b.Request)) {
		return "request.arguments"
	}
	switch {
	case a.Environment != b.Environment:
		return "environment"
	case (a.Approval == nil) != (b.Approval == nil) || a.Approval != nil && *a.Approval != *b.Approval:
		return "approval"
	case (a.InvocationRecord == nil) != (b.InvocationRecord == nil) || a.InvocationRecord != nil && *a.InvocationRecord != *b.InvocationRecord:
		return "invocationRecord"
	}
	return ""
}

// fastCorpus is valid inputs of every shape: the scenarios (compact and
// indented), testdata/inputs.jsonl, every field as "", null and absent,
// and odd but valid text.
func fastCorpus(t testing.TB) [][]byte {
	var out [][]byte
	for _, s := range scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAdmission) {
		b, err := decode.Encode(s.Case.(scenarios.AdmissionCase).Input)
		require.NoError(t, err)
		out = append(out, b)
		var compact bytes.Buffer
		for _, line := range strings.Split(string(b), "\n") {
			compact.WriteString(strings.TrimSpace(line))
		}
		out = append(out, compact.Bytes())
	}
	lines, err := os.ReadFile("../testdata/inputs.jsonl")
	require.NoError(t, err)
	out = append(out, bytes.Split(bytes.TrimSpace(lines), []byte("\n"))...)
	for _, tr := range triples {
		for _, v := range []any{"", nil, absent} {
			out = append(out, withField(t, tr, v))
		}
	}
	for _, s := range oddButValid {
		out = append(out, []byte(s))
	}
	return out
}

// oddButValid are inputs Input accepts that a reader of the common shape
// could get wrong.
var oddButValid = []string{
	valid,
	// Escaped names and values, text outside ASCII, an escaped quote.
	`{"contr\u0061ct":{"tools":[{"name":"t\u00e9","requiredArguments":["a\"b","\u4e2d"]}]},"request":{"correlationId":"r\n1","tool":{"name":"t\u00e9"},"arguments":{"a\"b":"x","中":"值"}},"environment":{"st\u0061tus":"ready"}}`,
	"{\"contract\":{\"tools\":[{\"name\":\"工具\",\"effectClass\":\"read_only\"}]},\"request\":{\"correlationId\":\"请求\U0001F600\",\"tool\":{\"name\":\"工具\"}},\"environment\":{\"status\":\"ready\"}}",
	// Whitespace everywhere JSON allows it.
	" \t\r\n{ \"contract\" : { \"tools\" : [ { \"name\" : \"t\" , \"requiredArguments\" : [ \"a\" ] } ] } ,\n\"request\" :\r\n{ \"correlationId\" : \"r\" , \"tool\" : { \"name\" : \"t\" } , \"arguments\" : { \"a\" : [ 1 , { \"b\" : null } ] } } } \n",
	// Every kind of argument value.
	`{"contract":{"tools":[{"name":"t","requiredArguments":["s","e","n","b","f","z","a","o","big","neg"]}]},"request":{"correlationId":"r","tool":{"name":"t"},"arguments":{"s":"x","e":"","n":1.5e3,"b":true,"f":false,"z":null,"a":[],"o":{},"big":1e400,"neg":-0}}}`,
	// Empty objects and lists.
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"},"arguments":{}},"environment":{},"approval":{},"invocationRecord":{}}`,
	`{"request":{"tool":{"version":"v","name":"t"},"correlationId":"r"},"contract":{"tools":[{"requiredArguments":[],"name":"t","version":"v"}],"version":"c"}}`,
	// Deep but within the limit, inside arguments.
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"},"arguments":{"d":` + strings.Repeat("[", 990) + strings.Repeat("]", 990) + `}}}`,
	// DEL and the escapes JSON has.
	"{\"contract\":{\"tools\":[]},\"request\":{\"correlationId\":\"r\x7f\\/\\b\\f\\t\\r\\\\\",\"tool\":{\"name\":\"t\"}}}",
	// A surrogate pair, escaped.
	`{"contract":{"tools":[]},"request":{"correlationId":"\ud83d\ude00","tool":{"name":"t"}}}`,
}

// TestFastAgreesWithInput: on every valid shape Fast takes the input and
// reads it as Input does.
func TestFastAgreesWithInput(t *testing.T) {
	var f decode.Fast
	for _, data := range fastCorpus(t) {
		fastOK, strictOK := agree(t, &f, data)
		if strictOK {
			assert.True(t, fastOK, "Fast gave up on a valid input: %q", data)
		}
	}
}

// notInputs are texts Input refuses, each near a valid one.
var notInputs = []string{
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"}},}`,
	`{"contract":{"tools":[],},"request":{"correlationId":"r","tool":{"name":"t"}}}`,
	`{"contract":{"tools":[,]},"request":{"correlationId":"r","tool":{"name":"t"}}}`,
	`{"contract":{"tools":[]}"request":{"correlationId":"r","tool":{"name":"t"}}}`,
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"}}} {}`,
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"}},"contract":{"tools":[]}}`,
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"},"arguments":{"a":1,"a":2}}}`,
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"},"arguments":{"a":1,"\u0061":2}}}`,
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"},"arguments":{"a":{"x":1,"x":2}}}}`,
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"},"arguments":{"a":01}}}`,
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"},"arguments":{"a":1.}}}`,
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"},"arguments":{"a":nul}}}`,
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"},"arguments":{"a":[1,]}}}`,
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"},"arguments":{"a":"\x01"}}}`,
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"},"arguments":{"a":"\q"}}}`,
	`{"contract":{"tools":[]},"request":{"correlationId":"\ud800","tool":{"name":"t"}}}`,
	`{"contract":{"tools":[]},"request":{"correlationId":"\ud83dx","tool":{"name":"t"}}}`,
	"{\"contract\":{\"tools\":[]},\"request\":{\"correlationId\":\"r\xc3\",\"tool\":{\"name\":\"t\"}}}",
	"{\"contract\":{\"tools\":[]},\"request\":{\"correlationId\":\"r\xed\xa0\x80\",\"tool\":{\"name\":\"t\"}}}",
	"{\"contract\":{\"tools\":[]},\"request\":{\"correlationId\":\"r\",\"tool\":{\"name\":\"t\"}}}\x00",
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"}},"environment":{"status":"a","status":"b"}}`,
	`{"contract":{"tools":[{"name":"t","name":"u"}]},"request":{"correlationId":"r","tool":{"name":"t"}}}`,
	`{"contract":{"tools":[{"name":"t","requiredArguments":[""]}]},"request":{"correlationId":"r","tool":{"name":"t"}}}`,
	`{"contract":{"tools":[{"name":"t","requiredArguments":[null]}]},"request":{"correlationId":"r","tool":{"name":"t"}}}`,
	`{"contract":{"tools":[null]},"request":{"correlationId":"r","tool":{"name":"t"}}}`,
	`{"contract":{"tools":null},"request":{"correlationId":"r","tool":{"name":"t"}}}`,
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"}},"environment":{"status":"ready"`,
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t","Name":"t"}}}`,
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"}},"environment":{"status":true}}`,
	`{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"},"arguments":{"d":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}}}`,
}

func TestFastRefusesWhatInputRefuses(t *testing.T) {
	var f decode.Fast
	for _, s := range notInputs {
		fastOK, strictOK := agree(t, &f, []byte(s))
		assert.False(t, strictOK, "Input takes %q", s)
		assert.False(t, fastOK, s)
	}
}

// TestFastOnMutations changes valid inputs one byte at a time — deleted,
// or replaced by or preceded with a byte that matters to JSON — and holds
// Fast to Input on every result.
func TestFastOnMutations(t *testing.T) {
	var f decode.Fast
	bases := []string{oddButValid[1], oddButValid[3], oddButValid[4], tripleBase}
	special := []byte(" \t\n\"\\{}[],:0-.eEtfnu/\x00\x1f\x7f\x80\xc3\xff")
	taken := 0
	for _, base := range bases {
		for i := range len(base) {
			try := func(b []byte) {
				if ok, _ := agree(t, &f, b); ok {
					taken++
				}
			}
			try([]byte(base[:i] + base[i+1:]))
			for _, c := range special {
				try([]byte(base[:i] + string(c) + base[i+1:]))
				try([]byte(base[:i] + string(c) + base[i:]))
			}
		}
	}
	assert.Positive(t, taken, "some mutations are still inputs, and Fast takes them")
}

// agreeAudit is agree for audit inputs.
func agreeAudit(t testing.TB, f *decode.Fast, data []byte) (fastOK, strictOK bool) {
	t.Helper()
	strict, err := decode.Audit(data)
	fast, ok := f.Audit(data)
	if !ok {
		return false, err == nil
	}
	if err != nil {
		t.Fatalf("Fast took what Audit refuses (%v): %q", err, data)
	}
	ids := func(spans []assess.Span) []string {
		out := make([]string, len(spans))
		for i, sp := range spans {
			out[i] = string(fast.Text[sp.Start:sp.End])
		}
		return out
	}
	if !slices.Equal(strict.Requested, ids(fast.Requested)) || !slices.Equal(strict.Results, ids(fast.Results)) || strict.Closed != fast.Closed {
		t.Fatalf("Fast reads %q %q %v, Audit %+v: %q", ids(fast.Requested), ids(fast.Results), fast.Closed, strict, data)
	}
	return true, true
}

var auditInputs = []string{
	`{"requested":["A","B"],"results":["B","A"]}`,
	`{"results":["A","A","C"],"closed":false,"requested":["A","B"]}`,
	`{"requested":[],"results":[],"closed":true}`,
	` { "requested" : [ "A" , "\u0042" ] , "results" : [ ] , "closed" : true } `,
	`{"requested":["A","A",""],"results":["",""]}`,
	`{"requested":["中","\ud83d\ude00"],"results":["中"]}`,
}

var notAuditInputs = []string{
	`{"requested":["A"]}`,
	`{"requested":["A"],"results":[1]}`,
	`{"requested":["A"],"results":[],"closed":"yes"}`,
	`{"requested":["A"],"results":[],"close":true}`,
	`{"requested":["A"],"results":[],"requested":[]}`,
	`{"requested":["A"],"results":[],"closed":true,"closed":false}`,
	`{"requested":["A",],"results":[]}`,
	`{"requested":null,"results":[]}`,
	`{"requested":["A"],"results":[]}x`,
	`{"requested":["A\x01"],"results":[]}`,
}

func TestFastAuditAgreesWithAudit(t *testing.T) {
	var f decode.Fast
	for _, s := range auditInputs {
		fastOK, strictOK := agreeAudit(t, &f, []byte(s))
		assert.True(t, strictOK, s)
		assert.True(t, fastOK, s)
	}
	for _, s := range notAuditInputs {
		fastOK, strictOK := agreeAudit(t, &f, []byte(s))
		assert.False(t, strictOK, s)
		assert.False(t, fastOK, s)
	}
	special := []byte(" \n\"\\[]{},:tfnu\x00\x80")
	for _, base := range auditInputs[:4] {
		for i := range len(base) {
			agreeAudit(t, &f, []byte(base[:i]+base[i+1:]))
			for _, c := range special {
				agreeAudit(t, &f, []byte(base[:i]+string(c)+base[i+1:]))
				agreeAudit(t, &f, []byte(base[:i]+string(c)+base[i:]))
			}
		}
	}
}

// FuzzFastAudit holds Fast.Audit to Audit on any bytes.
//
//	go test ./decode -run '^$' -fuzz FuzzFastAudit -fuzztime 30s
func FuzzFastAudit(f *testing.F) {
	for _, s := range append(auditInputs, notAuditInputs...) {
		f.Add([]byte(s))
	}
	var fast decode.Fast
	f.Fuzz(func(t *testing.T, data []byte) {
		agreeAudit(t, &fast, data)
	})
}
