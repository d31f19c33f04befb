// Package decode turns JSON text into assess inputs with the strictness of
// docs/decision.md §1: unknown fields and wrong types are errors that name the field
// path; `arguments` values may be any JSON; an explicit null means absent.
//
// It uses github.com/go-json-experiment/json (the encoding/json/v2
// prototype) because it matches names case-sensitively, rejects duplicate
// names and reports every error with a JSON Pointer, which is what a precise
// path needs.
package decode

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"toolgate/assess"
	"toolgate/internal/limits"
)

// Error is an input that is valid JSON but not a valid toolgate input.
type Error struct {
	// Path names the field, e.g. "invocationRecord.verificationStatus";
	// "" is the input as a whole.
	Path string
	// Msg says what is wrong, e.g. "want string, got number".
	Msg string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return "input: " + e.Msg
	}
	return e.Path + ": " + e.Msg
}

// NotJSON is a value that is not JSON text at all. Offset is the byte in
// the value where parsing stopped; Value.Position turns it into a line and
// column of the stream.
type NotJSON struct {
	Offset int64
	Msg    string
}

func (e *NotJSON) Error() string { return fmt.Sprintf("not JSON at byte %d: %s", e.Offset, e.Msg) }

// Errors is every problem found in one input.
type Errors []*Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

var strict = json.JoinOptions(
	json.RejectUnknownMembers(true),
	jsontext.AllowDuplicateNames(false),
	jsontext.AllowInvalidUTF8(false),
	json.WithUnmarshalers(stringsOnly),
)

// stringsOnly reads every string member of an input as a string, never
// null: the book compares null and an absent member differently (null
// !== undefined), so an input says absent by leaving the member out.
// Values inside request.arguments are any JSON and are not strings here.
var stringsOnly = json.JoinUnmarshalers(
	json.UnmarshalFromFunc(func(dec *jsontext.Decoder, o *assess.Opt) error {
		switch dec.PeekKind() {
		case '"':
			tok, err := dec.ReadToken()
			if err != nil {
				return err
			}
			*o = assess.Some(tok.String())
			return nil
		case 'n':
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			return assess.ErrNullString
		default:
			v, err := dec.ReadValue()
			if err != nil {
				return err
			}
			return &json.SemanticError{JSONKind: v.Kind(), GoType: reflect.TypeFor[string]()}
		}
	}),
	// The *string is only there to say which type this reads.
	json.UnmarshalFromFunc(func(dec *jsontext.Decoder, _ *string) error {
		if dec.PeekKind() == 'n' {
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			return assess.ErrNullString
		}
		return errors.ErrUnsupported
	}),
)

// strictBig is strict with numbers too large for a float64 kept (see
// anyNumber). It is the second try only: the unmarshaler costs every
// input two allocations, and only a rare one needs it.
var strictBig = json.JoinOptions(strict, json.WithUnmarshalers(json.JoinUnmarshalers(stringsOnly, json.UnmarshalFromFunc(anyNumber))))

// anyNumber reads a number inside arguments (the only place toolgate
// takes any JSON value). A number too large for a float64 (1e400) is
// still valid JSON and still a number, so it is kept as its text, an
// assess.Number, rather than refused; every other value is decoded the
// usual way (string, float64, bool, nil, []any, map[string]any).
func anyNumber(dec *jsontext.Decoder, v *any) error {
	if dec.PeekKind() != '0' {
		return errors.ErrUnsupported
	}
	val, err := dec.ReadValue()
	if err != nil {
		return err
	}
	*v, err = Number(string(val))
	return err
}

// Number is a JSON number's text as the input check reads it inside
// arguments: a float64, or an assess.Number when it is too large for
// one (1e400 is still a number).
func Number(text string) (any, error) {
	f, err := strconv.ParseFloat(text, 64)
	if errors.Is(err, strconv.ErrRange) {
		return assess.Number(text), nil
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}

// wire mirrors the JSON input with pointers and Opts where presence
// must be checked.
type wire struct {
	Contract         *wireContract            `json:"contract"`
	Request          *wireRequest             `json:"request"`
	Environment      *assess.Environment      `json:"environment"`
	Approval         *wireApproval            `json:"approval"`
	InvocationRecord *assess.InvocationRecord `json:"invocationRecord"`
}

type wireContract struct {
	Version assess.Opt  `json:"version"`
	Tools   []*wireTool `json:"tools"`
}

type wireTool struct {
	Name              assess.Opt `json:"name"`
	Version           assess.Opt `json:"version"`
	EffectClass       assess.Opt `json:"effectClass"`
	RequiredArguments []string   `json:"requiredArguments"`
	ApprovalScope     assess.Opt `json:"approvalScope"`
}

type wireRequest struct {
	CorrelationID assess.Opt     `json:"correlationId"`
	Tool          *wireToolRef   `json:"tool"`
	Arguments     map[string]any `json:"arguments"`
}

type wireToolRef struct {
	Name    assess.Opt `json:"name"`
	Version assess.Opt `json:"version"`
}

type wireApproval struct {
	Status assess.Opt `json:"status"`
	Scope  assess.Opt `json:"scope"`
}

// The most tools a contract, and names a requiredArguments list, may
// hold (internal/limits, shared with the fast lane).
const (
	MaxTools             = limits.MaxTools
	MaxRequiredArguments = limits.MaxRequiredArguments
)

// Why the book's function needs each member the input check requires:
// what a learner reads when it is missing.
const (
	needContract     = "required: the book's function reads contract.tools"
	needTools        = "required: an array of tools ([] for none) — the book's function calls contract.tools.find"
	needToolName     = "required: a string — the book's function compares each tool's name"
	needRequired     = "required: an array of names ([] for none) — the book's function calls requiredArguments.filter"
	needRequest      = "required: the book's function reads request.correlationId and request.tool"
	needCorrelation  = "required: a string — every verdict carries the request's correlationId"
	needRequestTool  = "required: the book's function reads request.tool.name"
	needRequestName  = "required: a string — the book's function looks the tool up by it"
	needEnvironment  = "required: the book's function reads environment.status ({} is a snapshot without a status)"
	needApprovalStat = `required, a non-empty string: the book answers approval_<status>, which would be approval_undefined or approval_`
)

// Input decodes one JSON value into an assess input: toolgate's input
// check (every refusal names the member), before the book's decision. A
// non-nil error is a *NotJSON when data is not JSON text, else an *Error
// or Errors (several required members missing at once). Duplicate member
// names and invalid UTF-8 are input errors, not *NotJSON: the text is
// still readable.
func Input(data []byte) (assess.Input, error) {
	var w wire
	if err := unmarshal(data, &w); err != nil {
		return assess.Input{}, err
	}
	var errs Errors
	need := func(ok bool, path, msg string) {
		if !ok {
			errs = append(errs, &Error{Path: path, Msg: msg})
		}
	}
	var in assess.Input
	need(w.Contract != nil, "contract", needContract)
	if c := w.Contract; c != nil {
		need(c.Tools != nil, "contract.tools", needTools)
		need(len(c.Tools) <= MaxTools, "contract.tools", fmt.Sprintf("%d tools: toolgate reads at most %d", len(c.Tools), MaxTools))
		in.Contract = assess.Contract{Version: c.Version, Tools: make([]assess.Tool, 0, len(c.Tools))}
		for i, t := range c.Tools {
			p := "contract.tools[" + strconv.Itoa(i) + "]"
			if t == nil {
				need(false, p, "want object, got null")
				continue
			}
			name, ok := t.Name.Get()
			need(ok, p+".name", needToolName)
			need(t.RequiredArguments != nil, p+".requiredArguments", needRequired)
			need(len(t.RequiredArguments) <= MaxRequiredArguments, p+".requiredArguments",
				fmt.Sprintf("%d names: toolgate reads at most %d", len(t.RequiredArguments), MaxRequiredArguments))
			in.Contract.Tools = append(in.Contract.Tools, assess.Tool{Name: name, Version: t.Version, EffectClass: t.EffectClass,
				RequiredArguments: t.RequiredArguments, ApprovalScope: t.ApprovalScope})
		}
	}
	need(w.Request != nil, "request", needRequest)
	if r := w.Request; r != nil {
		id, ok := r.CorrelationID.Get()
		need(ok, "request.correlationId", needCorrelation)
		need(r.Tool != nil, "request.tool", needRequestTool)
		if r.Tool != nil {
			name, ok := r.Tool.Name.Get()
			need(ok, "request.tool.name", needRequestName)
			in.Request.Tool = assess.ToolRef{Name: name, Version: r.Tool.Version}
		}
		in.Request.CorrelationID = id
		in.Request.Arguments = r.Arguments
	}
	need(w.Environment != nil, "environment", needEnvironment)
	if w.Approval != nil {
		st, _ := w.Approval.Status.Get()
		need(st != "", "approval.status", needApprovalStat)
		in.Approval = &assess.Approval{Status: st, Scope: w.Approval.Scope}
	}
	if len(errs) == 1 {
		return assess.Input{}, errs[0]
	}
	if len(errs) > 1 {
		return assess.Input{}, errs
	}
	in.Environment, in.InvocationRecord = *w.Environment, w.InvocationRecord
	return in, nil
}

// unmarshal decodes strictly into v. Unmarshal reports the first problem
// it meets, which may be an unknown field before a syntax error further
// on; text that is not JSON must be reported as such.
func unmarshal(data []byte, v any) error {
	err := json.Unmarshal(data, v, strict)
	if err == nil {
		return nil
	}
	if se, ok := errors.AsType[*json.SemanticError](err); ok && se.JSONKind == '0' && se.GoType != nil && se.GoType.Kind() == reflect.Float64 {
		// A number that does not fit a float64 inside arguments: read
		// again, keeping it as its text.
		reflect.ValueOf(v).Elem().SetZero()
		if err = json.Unmarshal(data, v, strictBig); err == nil {
			return nil
		}
	}
	if nj := NotJSONIn(data); nj != nil {
		return nj
	}
	return describe(err)
}

type wireAudit struct {
	Requested []string `json:"requested"`
	Results   []string `json:"results"`
	Closed    optBool  `json:"closed"`
}

// optBool is an optional boolean member: absent, true or false; null is
// not a boolean.
type optBool struct{ set, v bool }

// UnmarshalJSONFrom reads true or false.
func (o *optBool) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch dec.PeekKind() {
	case 't', 'f':
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		*o = optBool{set: true, v: tok.Bool()}
		return nil
	default:
		v, err := dec.ReadValue()
		if err != nil {
			return err
		}
		if v.Kind() == 'n' {
			return ErrNullBool
		}
		return &json.SemanticError{JSONKind: v.Kind(), GoType: reflect.TypeFor[bool]()}
	}
}

// ErrNullBool is the answer to a null where a boolean is expected.
var ErrNullBool = errors.New("null where a boolean is expected: leave the member out to say absent")

// NullInList is the message for a null element of a list of strings:
// there is no member to leave out, only the element.
const NullInList = "null in a list of strings: remove it, or write the string"

// Audit decodes a correlation-audit input:
// {"requested":[...],"results":[...],"closed":true}. Both lists are
// required (they may be empty); an absent closed means true, a batch
// handed over whole; null is refused, as everywhere.
func Audit(data []byte) (assess.AuditInput, error) {
	var w wireAudit
	if err := unmarshal(data, &w); err != nil {
		return assess.AuditInput{}, err
	}
	var errs Errors
	if w.Requested == nil {
		errs = append(errs, &Error{Path: "requested", Msg: "required: an array of IDs ([] for none)"})
	}
	if w.Results == nil {
		errs = append(errs, &Error{Path: "results", Msg: "required: an array of IDs ([] for none)"})
	}
	switch len(errs) {
	case 0:
	case 1:
		return assess.AuditInput{}, errs[0]
	default:
		return assess.AuditInput{}, errs
	}
	// A duplicate request ID is for the audit to find: it is the lesson
	// of one of the scenarios. "" is an ID like any other.
	return assess.AuditInput{Requested: w.Requested, Results: w.Results, Closed: !w.Closed.set || w.Closed.v}, nil
}

// Outcome decodes a tool-outcome input: {"error":{...}} or {"result":{...}}.
func Outcome(data []byte) (assess.OutcomeInput, error) {
	var in assess.OutcomeInput
	if err := unmarshal(data, &in); err != nil {
		return assess.OutcomeInput{}, err
	}
	if err := assess.CheckOutcome(in); err != nil {
		var oe *assess.OutcomeError
		if errors.As(err, &oe) {
			path := oe.Path
			if path == "input" {
				path = ""
			}
			return assess.OutcomeInput{}, &Error{Path: path, Msg: oe.Msg}
		}
		return assess.OutcomeInput{}, err
	}
	return in, nil
}

// Encode writes an input (of any track) as indented JSON that the
// matching decoder reads back unchanged.
func Encode(in any) ([]byte, error) {
	return json.Marshal(in, jsontext.WithIndent("  "), json.Deterministic(true))
}

// NotJSONIn says where and why data is not one JSON text, or nil when it
// is one. Duplicate names and invalid UTF-8 are left to the decoding
// (which names the field) unless opts say otherwise.
func NotJSONIn(data []byte, opts ...jsontext.Options) *NotJSON {
	opts = append([]jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}, opts...)
	dec := jsontext.NewDecoder(bytes.NewReader(data), opts...)
	_, err := dec.ReadValue()
	if err == nil {
		if _, err = dec.ReadValue(); err == io.EOF {
			return nil
		}
		if err == nil {
			return &NotJSON{Offset: dec.InputOffset(), Msg: "more than one value"}
		}
	}
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return &NotJSON{Offset: int64(len(data)), Msg: "unexpected end of input: a value is not closed"}
	}
	var sx *jsontext.SyntacticError
	if errors.As(err, &sx) {
		return &NotJSON{Offset: sx.ByteOffset, Msg: cleanMsg(sx.Err.Error())}
	}
	return &NotJSON{Offset: dec.InputOffset(), Msg: cleanMsg(err.Error())}
}

// describe turns a json error into an *Error with a dotted path.
func describe(err error) error {
	path, msg, _ := Describe(err, false)
	return &Error{Path: path, Msg: msg}
}

// Describe says what an error of json.Unmarshal means, as toolgate says
// it: the place, dotted (arrayRoot as for Dotted), what is wrong, and the
// byte offset in the text where it was found (-1 when not known).
func Describe(err error, arrayRoot bool) (path, msg string, offset int64) {
	var se *json.SemanticError
	if errors.As(err, &se) {
		path := Dotted(se.JSONPointer, arrayRoot)
		switch {
		case errors.Is(se.Err, assess.ErrNullString) && strings.HasSuffix(path, "]"):
			return path, NullInList, se.ByteOffset
		case errors.Is(se.Err, assess.ErrNullString), errors.Is(se.Err, ErrNullBool):
			return path, se.Err.Error(), se.ByteOffset
		case errors.Is(se.Err, json.ErrUnknownName):
			msg := "unknown field"
			if hint := suggest(se.JSONPointer.LastToken(), se.GoType); hint != "" {
				msg += " (did you mean " + hint + "?)"
			}
			return path, msg + fieldList(se.GoType, se.JSONPointer.Parent() == ""), se.ByteOffset
		case se.JSONKind == '0' && KindOf(se.GoType) == "number":
			// A number where a number belongs that does not fit its Go
			// type: a fraction or a size the field cannot hold.
			return path, fmt.Sprintf("want %s, got %s", numberKind(se.GoType), Clip(string(se.JSONValue))), se.ByteOffset
		case se.JSONKind != 0 && se.GoType != nil:
			return path, "want " + KindOf(se.GoType) + ", got " + JSONKind(se.JSONKind), se.ByteOffset
		case se.Err != nil:
			return path, cleanMsg(se.Err.Error()), se.ByteOffset
		}
		return path, cleanMsg(err.Error()), se.ByteOffset
	}
	var sx *jsontext.SyntacticError
	if errors.As(err, &sx) {
		msg := cleanMsg(sx.Err.Error())
		switch {
		case errors.Is(sx.Err, jsontext.ErrDuplicateName):
			msg = "duplicate field"
		case strings.HasPrefix(msg, "invalid UTF-8"):
			msg = "invalid UTF-8"
		case strings.HasPrefix(msg, "invalid surrogate pair"):
			msg = LoneSurrogate
		}
		return Dotted(sx.JSONPointer, arrayRoot), msg, sx.ByteOffset
	}
	return "", cleanMsg(err.Error()), -1
}

func cleanMsg(s string) string {
	s = strings.TrimPrefix(s, "jsontext: ")
	return strings.TrimPrefix(s, "json: ")
}

// numberKind names the numbers a Go number type holds.
func numberKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		return "a number that fits a 64-bit float"
	default:
		return fmt.Sprintf("a whole number that fits in %d bits", t.Bits())
	}
}

// Dotted turns "/contract/tools/0/name" into "contract.tools[0].name";
// a name taken from the input is clipped (Clip). Every reader of JSON in
// toolgate names a place so. A leading number is a name where the
// document is an object (toolgate's inputs, whose names may be digits)
// and an index where it is an array (arrayRoot: "[0].content").
func Dotted(p jsontext.Pointer, arrayRoot bool) string {
	var b strings.Builder
	for tok := range p.Tokens() {
		tok = Clip(tok)
		if _, err := strconv.Atoi(tok); err == nil && (b.Len() > 0 || arrayRoot) {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

// JSONKind names the kind of a JSON value as messages say it: null,
// boolean, string, number, object or array.
func JSONKind(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 't', 'f':
		return "boolean"
	case '"':
		return "string"
	case '0':
		return "number"
	case '{':
		return "object"
	case '[':
		return "array"
	default:
		return "invalid value"
	}
}

// KindOf names the JSON kind a Go type is decoded from: string, number,
// boolean, array or object. Every decoder of toolgate's files says it so.
func KindOf(t reflect.Type) string {
	if t == nil {
		return "value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Float32, reflect.Float64, reflect.Int, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint32, reflect.Uint64:
		return "number"
	default:
		return t.Kind().String()
	}
}

// fieldNames lists the JSON names a struct type accepts.
func fieldNames(t reflect.Type) []string {
	if t == nil {
		return nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	names := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		tag, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if tag != "" && tag != "-" {
			names = append(names, tag)
		}
	}
	return names
}

func fieldList(t reflect.Type, top bool) string {
	names := fieldNames(t)
	if len(names) == 0 {
		return ""
	}
	if top {
		return "; an input has " + strings.Join(names, ", ")
	}
	return "; known fields: " + strings.Join(names, ", ")
}

// suggest finds the known field closest to a misspelt one.
func suggest(name string, t reflect.Type) string { return Closest(name, fieldNames(t)) }

// Closest is the known name at most two edits (ignoring case) from name,
// the closest one; "" when none is that close. Only names of about a known
// name's length are compared, so a 2 MB key costs no more than a short
// one: two edits cannot bridge a larger difference in length.
func Closest(name string, known []string) string {
	best, bestDist := "", 3
	for _, f := range known {
		if diff := len(name) - len(f); diff > 2*utf8.UTFMax || diff < -2*utf8.UTFMax {
			continue
		}
		if d := distance(strings.ToLower(name), strings.ToLower(f)); d < bestDist {
			best, bestDist = f, d
		}
	}
	return best
}

// distance is the Damerau–Levenshtein (optimal string alignment) distance,
// so that a swap of two letters ("Recrod") counts as one edit.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range rb {
		d[0][j+1] = j + 1
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// MaxQuote is the most characters of input a message quotes: a 2 MB key
// is named by its first characters and its length.
const MaxQuote = 80

// Clip shortens text taken from the input for a message: at most MaxQuote
// characters, then "…" and how long the whole was.
func Clip(s string) string {
	if head, clipped := clipHead(s); clipped {
		return head + fmt.Sprintf("…(%d bytes)", len(s))
	}
	return s
}

// clipHead is the first MaxQuote characters of s, and whether that is not
// all of it.
func clipHead(s string) (string, bool) {
	n := 0
	for i := range s {
		if n == MaxQuote {
			return s[:i], true
		}
		n++
	}
	return s, false
}

// ClipQuotes clips every double-quoted string in a message (as %q writes
// them) to MaxQuote characters: the last guard for messages that quote a
// value taken from the input, such as a 2 MB request ID.
func ClipQuotes(msg string) string {
	if len(msg) <= 2*MaxQuote {
		return msg
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(msg, '"')
		if i < 0 {
			b.WriteString(msg)
			return b.String()
		}
		b.WriteString(msg[:i])
		// Find the closing quote, over escapes.
		j := i + 1
		for j < len(msg) && msg[j] != '"' {
			if msg[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(msg) {
			b.WriteString(msg[i:]) // no closing quote: nothing later is quoted
			return b.String()
		}
		if head, clipped := clipHead(msg[i+1 : j]); clipped {
			fmt.Fprintf(&b, `"%s"…(%d bytes)`, head, j-i-1)
		} else {
			b.WriteString(msg[i : j+1])
		}
		msg = msg[j+1:]
	}
}

// LoneSurrogate is the message for a \uD800–\uDFFF escape without its
// pair: JavaScript reads it as a string, Go cannot hold it as text, and
// toolgate would answer with another string than the one it was given.
const LoneSurrogate = "a lone surrogate escape (\\uD800–\\uDFFF without its pair): not Unicode text"

// What an input check refusal is about, as Reason names it.
const (
	ReasonNotJSON         = "not_json"
	ReasonDuplicateMember = "duplicate_member"
	ReasonUnknownMember   = "unknown_member"
	ReasonWrongType       = "wrong_type"
	ReasonNullString      = "null_string"
	ReasonRequired        = "required"
	ReasonTooLarge        = "too_large"
	ReasonInvalidText     = "invalid_text"
)

// Reasons lists every Reason, in the order a report shows them.
func Reasons() []string {
	return []string{ReasonNotJSON, ReasonDuplicateMember, ReasonUnknownMember, ReasonWrongType,
		ReasonNullString, ReasonRequired, ReasonTooLarge, ReasonInvalidText}
}

// Reason names what an error of Input, Audit or Outcome is about, by its
// first problem: one of the Reason constants ("" for nil). It reads the
// messages this package writes, so it stays next to them.
func Reason(err error) string {
	if err == nil {
		return ""
	}
	if _, ok := errors.AsType[*NotJSON](err); ok {
		return ReasonNotJSON
	}
	var first *Error
	if es, ok := errors.AsType[Errors](err); ok && len(es) > 0 {
		first = es[0]
	} else if e, ok := errors.AsType[*Error](err); ok {
		first = e
	}
	if first == nil {
		return ReasonWrongType
	}
	switch m := first.Msg; {
	case m == "duplicate field":
		return ReasonDuplicateMember
	case strings.HasPrefix(m, "unknown field"):
		return ReasonUnknownMember
	case m == assess.ErrNullString.Error(), m == ErrNullBool.Error(), m == NullInList:
		return ReasonNullString
	case strings.HasPrefix(m, "required"):
		return ReasonRequired
	case strings.Contains(m, "toolgate reads at most"):
		return ReasonTooLarge
	case m == "invalid UTF-8", m == LoneSurrogate:
		return ReasonInvalidText
	}
	return ReasonWrongType
}
