package decode_test

import (
	"bytes"
	"strings"
	"testing"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/scenarios"
)

// FuzzDecodeAssess feeds arbitrary bytes to the decoder and every input it
// accepts to assess: nothing panics, exactly one rule fires, every rule
// before it passed and every rule after it was not reached, and the fast
// path agrees with the traced one. Every input also goes to decode.Fast,
// which must refuse what Input refuses and read the rest as Input does.
//
//	go test ./decode -run '^$' -fuzz FuzzDecodeAssess -fuzztime 30s
func FuzzDecodeAssess(f *testing.F) {
	for _, s := range scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAdmission) {
		b, err := decode.Encode(s.Case.(scenarios.AdmissionCase).Input)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(valid))
	f.Add([]byte(`{"contract":{"tools":[{"name":"t","effectClass":"x","requiredArguments":["a","a",""]}]},"request":{"correlationId":"r","tool":{"name":"t"},"arguments":{"a":null}},"environment":{"status":"ready"},"approval":{"status":"active","scope":"t"},"invocationRecord":{"correlationId":"r","status":"timed_out","effectStatus":"read_back"}}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`[`))
	// Every field of docs/decision.md §1 as "", null and absent (§1: null
	// is absent where an object may be null, refused for a string; "" is a value).
	for _, tr := range triples {
		for _, v := range []any{"", nil, absent} {
			f.Add(withField(f, tr, v))
		}
	}
	f.Add([]byte(`{"contract":{"tools":[{"name":"t","requiredArguments":["a"]}]},"request":{"correlationId":"r","tool":{"name":"t"},"arguments":{"a":1e400}}}`))
	for _, s := range append(oddButValid, notInputs...) {
		f.Add([]byte(s))
	}
	var fast decode.Fast
	f.Fuzz(func(t *testing.T, data []byte) {
		agree(t, &fast, data)
		in, err := decode.Input(data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an input error must say what is wrong")
			}
			return
		}
		fast := assess.Assess(&in)
		v, trace := assess.Explain(&in)
		if fast.Code != v.Code || fast.Status != v.Status || fast.CorrelationID != v.CorrelationID {
			t.Fatalf("Assess says %v, Explain says %v", fast, v)
		}
		if len(trace) != assess.NumRules {
			t.Fatalf("trace has %d steps", len(trace))
		}
		fired := 0
		for i, s := range trace {
			switch {
			case s.Outcome == assess.Fired:
				if fired != 0 {
					t.Fatalf("rules %d and %d both fired", fired, i+1)
				}
				fired = i + 1
			case fired == 0 && s.Outcome != assess.Passed:
				t.Fatalf("rule %d before the fired one is %v", i+1, s.Outcome)
			case fired != 0 && s.Outcome != assess.NotReached:
				t.Fatalf("rule %d after the fired one is %v", i+1, s.Outcome)
			}
			if s.Explanation(assess.English) == "" || s.Explanation(assess.Chinese) == "" {
				t.Fatalf("rule %d has no explanation", i+1)
			}
		}
		if fired == 0 || assess.Rule(fired) != v.Code.Rule() {
			t.Fatalf("fired rule %d, code %v", fired, v.Code)
		}
		if v.CorrelationID != in.Request.CorrelationID {
			t.Fatal("correlationId must be the request's")
		}
		if (v.Code == assess.CodeInvalidArguments) != (len(v.MissingArguments) > 0) {
			t.Fatalf("missingArguments %v with %v", v.MissingArguments, v.Code)
		}
	})
}

// FuzzStream checks that the splitter never panics or loops, and that every
// value it hands out is the input's bytes at the line and column it names.
//
//	go test ./decode -run '^$' -fuzz FuzzStream -fuzztime 30s
func FuzzStream(f *testing.F) {
	for _, seed := range []string{"{}\n[1]\n", `{"a":"\"}"}  "x" 42 tru}`, "{\n\"a\":\n[\n]}\n\n", "\"unterminated", `\`, "{\"a\\\n",
		"\ufeff{}\n", `{"a":"` + strings.Repeat("x", 100) + `"} 1`, strings.Repeat("[", 1002) + "] [1]", "\x00\x00\x00"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// A small limit, so that refused values are fuzzed too.
		s := decode.NewStreamMax(bytes.NewReader(data), 64)
		text := bytes.TrimPrefix(data, []byte("\ufeff")) // positions count from after a byte order mark
		for range len(data) + 1 {
			v, err := s.Next()
			if err != nil {
				return
			}
			off := offsetOf(text, v.Line, v.Column)
			if v.Err != nil {
				if off < 0 || len(v.Raw) != 0 {
					t.Fatalf("refused value said to be at %d:%d (offset %d), with %d bytes", v.Line, v.Column, off, len(v.Raw))
				}
				continue
			}
			if off < 0 || off+len(v.Raw) > len(text) || !bytes.Equal(text[off:off+len(v.Raw)], v.Raw) {
				t.Fatalf("value %q said to be at %d:%d (offset %d)", v.Raw, v.Line, v.Column, off)
			}
		}
		t.Fatal("more values than bytes: the stream does not advance")
	})
}

func offsetOf(data []byte, line, col int) int {
	l, c := 1, 1
	for i, b := range data {
		if l == line && c == col {
			return i
		}
		if b == '\n' {
			l, c = l+1, 1
		} else {
			c++
		}
	}
	return -1
}
