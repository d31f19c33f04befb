package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"toolgate/assess"
	"toolgate/decode"
)

// runBoth answers data with the fast lane and without it (every value
// read by Stream.Next and decoded by decode.Input, as before the fast
// lane) and fails t when the output or the error differs.
func runBoth(t testing.TB, data []byte, maxValue int, audit bool) string {
	t.Helper()
	fastA, slowA := answerer{slow: admissionAnswer(false, assess.English)}, answerer{slow: admissionAnswer(false, assess.English)}
	fastA.newFast = admissionFast
	if audit {
		fastA, slowA = answerer{slow: auditAnswerIn(assess.English), newFast: auditFast}, answerer{slow: auditAnswerIn(assess.English)}
	}
	return runBothWith(t, data, maxValue, fastA, slowA)
}

// runBothWith is runBoth for two answerers of the same command.
func runBothWith(t testing.TB, data []byte, maxValue int, fastA, slowA answerer) string {
	t.Helper()
	var fastOut, slowOut bytes.Buffer
	fastErr := answerStream(bytes.NewReader(data), "in", &fastOut, fastA, maxValue)
	slowErr := answerStream(bytes.NewReader(data), "in", &slowOut, slowA, maxValue)
	if fastOut.String() != slowOut.String() {
		t.Fatalf("the fast lane wrote\n%s\nthe usual way\n%s\nfor %q", fastOut.String(), slowOut.String(), data)
	}
	if errText(fastErr) != errText(slowErr) || exitCode(fastErr) != exitCode(slowErr) {
		t.Fatalf("the fast lane ends with %v, the usual way with %v, for %q", fastErr, slowErr, data)
	}
	return fastOut.String()
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func exitCode(err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 0
}

// streamCorpus is streams the fast lane must answer exactly as before:
// the hostile streams, the sample inputs, values over several lines and
// several on a line, CRLF, spaces, invalid inputs and text that is not
// JSON between valid ones.
func streamCorpus(t testing.TB) [][]byte {
	files, err := filepath.Glob("../testdata/streams/*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../testdata/inputs.jsonl")
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	sample := out[len(out)-1]
	lines := strings.Split(strings.TrimSpace(string(sample)), "\n")
	good, other := lines[0], lines[2]
	for _, s := range []string{
		good + "\r\n" + other + "\r\n",
		"  " + good + "   \t\n\n\n" + other,
		good + " " + other + "\n" + good,
		strings.Replace(good, ",", ",\n  ", 3) + "\n" + other,
		good + "\n" + `{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"}},"extra":1}` + "\n" + other,
		good + "\n" + `{"contract":{"tools":[]},"request":{"correlationId":"r","tool":{"name":"t"}}` + "\n" + other,
		good + "\n" + `{"a": tru}` + "\n" + other,
		good + "\n42\n\"str\"\n[1]\nnull\n" + other,
		"\ufeff" + good + "\n" + other,
		good + "\n\ufeff" + other,
		good + "\n" + strings.Repeat("[", 1200) + strings.Repeat("]", 1200) + "\n" + other,
		good + "\n" + other[:len(other)-1],
		good + "}\n" + other,
		good + "\n" + good,
	} {
		out = append(out, []byte(s))
	}
	return out
}

func TestFastLaneWritesWhatTheUsualWayWrites(t *testing.T) {
	t.Parallel()
	for _, data := range streamCorpus(t) {
		for _, max := range []int{decode.DefaultMaxValue, 500, 300, 64} {
			runBoth(t, data, max, false)
		}
	}
}

// FuzzAssessStream holds the fast lane to the usual way on any stream:
// the same lines, the same error, the same exit status.
//
//	go test ./cli -run '^$' -fuzz FuzzAssessStream -fuzztime 30s
func FuzzAssessStream(f *testing.F) {
	for _, data := range streamCorpus(f) {
		f.Add(data, uint16(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, max uint16) {
		limit := decode.DefaultMaxValue
		if max != 0 {
			limit = int(max)
		}
		runBoth(t, data, limit, false)
	})
}

// auditCorpus is audit streams: batches right and wrong, input errors
// (which the fast lane leaves to the usual way), text that is not JSON.
func auditCorpus() [][]byte {
	return [][]byte{
		[]byte(`{"requested":["A","B"],"results":["B","A"]}
{"requested":["A","B"],"results":["A","A","C"]}
{"requested":["A","A"],"results":["A"]}
{"requested":["A","B","C"],"results":["B"],"closed":false}
{"requested":["X"]}
{"requested":["A"],"results":[""]}
{"requested":["A"],"results":[null]}
{"requested":["\u0041"],"results":["中","A"]}
`),
		[]byte(`{"requested":[}` + "\n"),
		[]byte("{\"requested\":[\"A\"],\n\"results\":[]}  {\"requested\":[],\"results\":[\"B\"]}\n"),
	}
}

func TestFastLaneAuditsWhatTheUsualWayAudits(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../testdata/streams/08-audit-long-id.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range append(auditCorpus(), data) {
		for _, max := range []int{decode.DefaultMaxValue, 40} {
			runBoth(t, d, max, true)
			// --lang zh takes the fast lane too (its answers have no
			// words); what it leaves to the usual way is said in Chinese.
			zh := auditAnswerIn(assess.Chinese)
			runBothWith(t, d, max, answerer{slow: zh, newFast: auditFast}, answerer{slow: zh})
		}
	}
}

// FuzzAuditStream is FuzzAssessStream for toolgate audit.
//
//	go test ./cli -run '^$' -fuzz FuzzAuditStream -fuzztime 30s
func FuzzAuditStream(f *testing.F) {
	for _, data := range auditCorpus() {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		runBoth(t, data, decode.DefaultMaxValue, true)
	})
}

// runBlocks answers data, written to a file, on several goroutines in
// blocks of size bytes, and fails t when the output or the error differs
// from one goroutine's.
func runBlocks(t testing.TB, data []byte, maxValue, size int, audit bool) {
	t.Helper()
	a := answerer{slow: admissionAnswer(false, assess.English), newFast: admissionFast}
	if audit {
		a = answerer{slow: auditAnswerIn(assess.English), newFast: auditFast}
	}
	runBlocksWith(t, data, maxValue, size, a)
}

func runBlocksWith(t testing.TB, data []byte, maxValue, size int, a answerer) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "in.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	answer := func(par blocks) (string, error) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var out bytes.Buffer
		err = answerStreamIn(f, "in", &out, a, maxValue, par)
		return out.String(), err
	}
	want, wantErr := answer(blocks{workers: 1})
	got, err := answer(blocks{workers: 3, min: 0, size: size})
	if got != want {
		t.Fatalf("in blocks of %d:\n%s\none at a time:\n%s\nfor %q", size, got, want, data)
	}
	if errText(err) != errText(wantErr) || exitCode(err) != exitCode(wantErr) {
		t.Fatalf("in blocks of %d it ends with %v, one at a time with %v, for %q", size, err, wantErr, data)
	}
}

// TestBlocksAnswerWhatOneAtATimeAnswers: answered in blocks on several
// goroutines, every stream of the corpus gets the same lines and the same
// end, with blocks so small that values over several lines are cut by
// them, lines are longer than a block, and a stream stops in a block.
func TestBlocksAnswerWhatOneAtATimeAnswers(t *testing.T) {
	t.Parallel()
	corpus := streamCorpus(t)
	sample := corpus[len(corpus)-1]
	long := bytes.Repeat(sample, 50)
	pretty := bytes.ReplaceAll(long, []byte(`,"`), []byte(",\n  \""))
	corpus = append(corpus, long, pretty, append(append(long[:len(long):len(long)], "{\"a\": tru}\n"...), long...))
	for _, data := range corpus {
		for _, size := range []int{1, 7, 64, 500, 4096, 1 << 20} {
			for _, max := range []int{decode.DefaultMaxValue, 300} {
				runBlocks(t, data, max, size, false)
			}
		}
	}
	for _, data := range auditCorpus() {
		for _, size := range []int{1, 50, 4096} {
			runBlocks(t, data, decode.DefaultMaxValue, size, true)
		}
	}
	// In Chinese every block's lane says the stream's words in Chinese.
	zh := answerer{slow: auditAnswerIn(assess.Chinese), newFast: auditFast, lang: assess.Chinese}
	for _, data := range auditCorpus() {
		for _, size := range []int{1, 50, 4096} {
			runBlocksWith(t, data, 40, size, zh)
		}
	}
	// With --trace there is no fast lane: blocks are read the usual way.
	trace := answerer{slow: admissionAnswer(true, assess.English)}
	for _, data := range corpus[len(corpus)-3:] {
		for _, size := range []int{64, 4096} {
			runBlocksWith(t, data, decode.DefaultMaxValue, size, trace)
		}
	}
}

// FuzzBlocks holds the answers in blocks to the answers one at a time on
// any stream and block size.
//
//	go test ./cli -run '^$' -fuzz FuzzBlocks -fuzztime 30s
func FuzzBlocks(f *testing.F) {
	for _, data := range streamCorpus(f) {
		f.Add(data, uint16(64))
	}
	f.Fuzz(func(t *testing.T, data []byte, size uint16) {
		runBlocks(t, data, decode.DefaultMaxValue, int(size)+1, false)
	})
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestBlocksStopAtAWriteError: answered in blocks, a lost write still
// ends the command with exit status 3.
func TestBlocksStopAtAWriteError(t *testing.T) {
	t.Parallel()
	sample, err := os.ReadFile("../testdata/inputs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "in.jsonl")
	if err := os.WriteFile(path, bytes.Repeat(sample, 100), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a := answerer{slow: admissionAnswer(false, assess.English), newFast: admissionFast}
	err = answerStreamIn(f, "in", failingWriter{}, a, decode.DefaultMaxValue, blocks{workers: 2, size: 1000})
	if exitCode(err) != ExitWrite {
		t.Fatalf("got %v, want exit status %d", err, ExitWrite)
	}
}

// TestStreamWordsInEveryLanguage: every language says every one of the
// stream's words, and says them in its own script.
func TestStreamWordsInEveryLanguage(t *testing.T) {
	t.Parallel()
	for _, l := range []assess.Lang{assess.English, assess.Chinese} {
		w := streamText[l]
		said := []string{w.line(3), w.column(2, 1), w.tooLarge(150), w.tooDeep(1000),
			w.invalid("in", 1, 2), w.notJSON("in", 1, 15, "more than one value")}
		for _, s := range said {
			if s == "" {
				t.Errorf("%v: an empty word in %q", l, said)
			}
			if han := strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0; han != (l == assess.Chinese) {
				t.Errorf("%v: %q is not in the language", l, s)
			}
		}
	}
}

// The same input always gets the same traced line: its texts (a map) in
// key order, as trace --format json writes them. Go's maps iterate in a
// random order, so 50 lines of one allowed input are enough to catch it.
func TestTracedLinesAreTheSameEveryTime(t *testing.T) {
	t.Parallel()
	sample, err := os.ReadFile("../testdata/inputs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var allowed string
	for _, line := range strings.Split(strings.TrimSpace(string(sample)), "\n") {
		in, err := decode.Input([]byte(line))
		if err == nil && assess.Assess(&in).Status == assess.StatusAllowed {
			allowed = line
			break
		}
	}
	if allowed == "" {
		t.Fatal("no allowed input in testdata/inputs.jsonl")
	}
	var out bytes.Buffer
	a := answerer{slow: admissionAnswer(true, assess.Chinese)}
	if err := answerStream(strings.NewReader(strings.Repeat(allowed+"\n", 50)), "in", &out, a, decode.DefaultMaxValue); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for _, line := range lines {
		if !strings.Contains(line, `"text":{"allowedIsNot":`) || line != lines[0] {
			t.Fatalf("a traced line with its texts out of key order:\n%s", line)
		}
	}
}
