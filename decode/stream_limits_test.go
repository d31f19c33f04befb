package decode_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/decode"
)

// allocated is how many bytes f allocates: a budget that does not depend
// on the machine's speed or load.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// repeat is an endless (n < 0) or n-byte stream of one pattern, made as it
// is read, so that a test can feed gigabytes without holding them.
type repeat struct {
	pattern []byte
	n, read int64
	pos     int
}

func (r *repeat) Read(p []byte) (int, error) {
	if r.n >= 0 && r.read >= r.n {
		return 0, io.EOF
	}
	if r.n >= 0 && int64(len(p)) > r.n-r.read {
		p = p[:r.n-r.read]
	}
	for i := range p {
		p[i] = r.pattern[r.pos]
		r.pos = (r.pos + 1) % len(r.pattern)
	}
	r.read += int64(len(p))
	return len(p), nil
}

// TestStreamRefusesEndlessText: /dev/zero was read for 1.1 GB in 20 s
// without a word. Text that is not JSON within the limit is handed out
// after at most the limit and a buffer's worth, and the parser says where
// it stops being JSON.
func TestStreamRefusesEndlessText(t *testing.T) {
	zero := &repeat{pattern: []byte{0}, n: -1}
	s := decode.NewStreamMax(zero, 1<<20)
	v, err := s.Next()
	require.NoError(t, err)
	assert.LessOrEqual(t, zero.read, int64(3<<20), "bytes read before refusing: the limit, and the buffer that grew to hold it")
	_, err = decode.Input(v.Raw)
	var nj *decode.NotJSON
	require.ErrorAs(t, err, &nj)
	line, col := v.Position(nj.Offset)
	assert.Equal(t, [2]int{1, 1}, [2]int{line, col})
}

// TestStreamSkipsALongValue: a 32 MB value is refused where it starts and
// skipped in bounded memory (a 100 MB line used to be read whole); the
// next value is answered as usual.
func TestStreamSkipsALongValue(t *testing.T) {
	long := io.MultiReader(strings.NewReader(`{"a":"`), &repeat{pattern: []byte("xx\\\""), n: 32 << 20},
		strings.NewReader("\"}\n  {\"b\":1}\n"))
	var first, second decode.Value
	n := allocated(func() {
		s := decode.NewStreamMax(long, 1<<20)
		var err error
		first, err = s.Next()
		require.NoError(t, err)
		second, err = s.Next()
		require.NoError(t, err)
	})
	var tl *decode.TooLarge
	require.ErrorAs(t, first.Err, &tl)
	assert.EqualError(t, first.Err, "value is larger than 1048576 bytes")
	assert.Equal(t, [2]int{1, 1}, [2]int{first.Line, first.Column})
	assert.Empty(t, first.Raw)
	assert.Equal(t, `{"b":1}`, string(second.Raw))
	assert.Equal(t, [2]int{2, 3}, [2]int{second.Line, second.Column})
	// The stream's buffer grows to hold the limit, and the check that
	// the first megabyte could be JSON reads it once: about 8 MB
	// whatever the value's size. Reading the value whole took its size
	// several times over.
	assert.Less(t, n, uint64(16<<20), "bytes allocated to skip 32 MB")
}

// TestStreamSkipsADeepValue: nesting deeper than 10,000 used to stop the
// stream ("exceeded max depth"); now the value is refused at the bracket
// that goes past MaxDepth and the stream goes on. An endless "[" (yes '[')
// is read in bounded memory.
func TestStreamSkipsADeepValue(t *testing.T) {
	text := strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n[1]\n"
	s := decode.NewStream(strings.NewReader(text))
	v, err := s.Next()
	require.NoError(t, err)
	var deep *decode.TooDeep
	require.ErrorAs(t, v.Err, &deep)
	assert.Equal(t, [2]int{1, decode.MaxDepth + 1}, [2]int{deep.Line, deep.Column})
	assert.EqualError(t, v.Err, "nested more than 1000 levels deep")
	v, err = s.Next()
	require.NoError(t, err)
	assert.Equal(t, "[1]", string(v.Raw))
	assert.Equal(t, 2, v.Line)

	endless := &repeat{pattern: []byte("[\n"), n: 16 << 20}
	n := allocated(func() {
		s := decode.NewStream(endless)
		v, err = s.Next()
	})
	require.NoError(t, err)
	require.ErrorAs(t, v.Err, &deep)
	assert.Equal(t, decode.MaxDepth+1, deep.Line)
	assert.Less(t, n, uint64(8<<20), "bytes allocated for 16 MB of [")
}

// TestStreamSkipsALeadingByteOrderMark: a JSON Lines file saved with a
// byte order mark used to stop at its first byte (exit 2).
func TestStreamSkipsALeadingByteOrderMark(t *testing.T) {
	s := decode.NewStream(strings.NewReader("\ufeff{\"a\":1}\n{\"b\":2}"))
	v, err := s.Next()
	require.NoError(t, err)
	assert.Equal(t, `{"a":1}`, string(v.Raw))
	assert.Equal(t, [2]int{1, 1}, [2]int{v.Line, v.Column})
	v, err = s.Next()
	require.NoError(t, err)
	assert.Equal(t, `{"b":2}`, string(v.Raw))
	// Only at the start: elsewhere it is text that is not JSON.
	s = decode.NewStream(bytes.NewReader([]byte("{}\n\ufeff{}")))
	_, _ = s.Next()
	v, _ = s.Next()
	assert.Equal(t, "\ufeff{}", string(v.Raw))
}

// TestLongUnknownKey: a 2 MB unknown key cost 12 s and 750 MB (the "did
// you mean" edit distance ran on it) and was echoed whole.
func TestLongUnknownKey(t *testing.T) {
	data := []byte(`{"contract":{"tools":[]},"` + strings.Repeat("k", 2<<20) + `":1,"request":{"correlationId":"r","tool":{"name":"t"}}}`)
	var err error
	n := allocated(func() { _, err = decode.Input(data) })
	require.Error(t, err)
	assert.Equal(t, strings.Repeat("k", 80)+"…(2097152 bytes): unknown field; an input has contract, request, environment, approval, invocationRecord", err.Error())
	assert.Less(t, n, uint64(64<<20), "bytes allocated")
	assert.Equal(t, "invocationRecord", decode.Closest("invocationRecrod", []string{"invocationRecord", "approval"}), "short names still get a suggestion")
}

func TestClipQuotes(t *testing.T) {
	long := strings.Repeat("A", 500)
	assert.Equal(t, `duplicate request ID "`+strings.Repeat("A", 80)+`"…(500 bytes): which request?`,
		decode.ClipQuotes(`duplicate request ID "`+long+`": which request?`))
	assert.Equal(t, `short "x"`, decode.ClipQuotes(`short "x"`))
}

// TestALongLineOfAFileIsReadOnce: a 30 MB batch on one line of a file
// used to be read into a buffer doubled nine times (64 MB allocated, 32 MB
// copied); Line finds the line's length first and reads it into one
// buffer of that size.
func TestALongLineOfAFileIsReadOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "batch.jsonl")
	line := `{"requested":["` + strings.Repeat("x", 30<<20) + `"],"results":[]}`
	require.NoError(t, os.WriteFile(path, []byte(line+"\n{}\n"), 0o600))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var text []byte
	n := allocated(func() {
		s := decode.NewStreamMax(f, 64<<20)
		var ok bool
		text, _, _, ok, err = s.Line()
		require.NoError(t, err)
		require.True(t, ok)
	})
	assert.Equal(t, len(line), len(text))
	assert.Less(t, n, uint64(len(line))*5/4, "bytes allocated to read a %d-byte line", len(line))
}
