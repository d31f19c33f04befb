package decode

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"

	"toolgate/internal/limits"
)

// Limits on one value of a stream: an input of docs/decision.md §1 is a few hundred
// bytes and a few levels deep.
const (
	// DefaultMaxValue is the largest value a Stream hands out unless told
	// otherwise (toolgate assess --max-value).
	DefaultMaxValue = 1 << 20
	// MaxDepth is the deepest nesting of arrays and objects in a value
	// (internal/limits, shared with the fast lane).
	MaxDepth = limits.MaxDepth
)

// SyntaxError is text that is not JSON, with the position where reading
// stopped (1-based line and byte column).
type SyntaxError struct {
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// TooLarge is a value longer than the stream's limit. It is skipped
// without being kept (its brackets and strings are still followed, to
// find where it ends) and the values after it are read as usual.
type TooLarge struct {
	Max int
}

func (e *TooLarge) Error() string { return fmt.Sprintf("value is larger than %d bytes", e.Max) }

// TooDeep is a value nested deeper than MaxDepth, at the line and column
// of the bracket that goes too deep. It is skipped like a TooLarge.
type TooDeep struct {
	Line, Column int
}

func (e *TooDeep) Error() string { return fmt.Sprintf("nested more than %d levels deep", MaxDepth) }

// Value is one JSON text of a stream, not yet parsed, with where it starts.
type Value struct {
	Raw          []byte
	Line, Column int
	// Err is set, and Raw empty, for a value that was refused and
	// skipped: a *TooLarge or a *TooDeep.
	Err error
}

// Position is the line and column of a byte offset inside the value.
func (v Value) Position(off int64) (line, col int) {
	return Advance(v.Line, v.Column, v.Raw[:min(max(off, 0), int64(len(v.Raw)))])
}

// Advance is the position after text that starts at line, col (1-based;
// columns count bytes, as Go's compiler does).
func Advance(line, col int, text []byte) (int, int) {
	for _, b := range text {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// Stream splits a sequence of JSON texts — one value, JSON Lines, or values
// separated by any whitespace — into single values without parsing them.
// It finds where a value ends by counting brackets outside strings;
// whether the value is JSON is for Input to say (it then returns a
// *NotJSON error). A UTF-8 byte order mark at the start is skipped.
// Memory is bounded by the largest value handed out: a longer or deeper
// one is skipped.
//
// Line is a faster way for JSON Lines: it hands out the rest of a line
// without looking at it, for a decoder that checks the whole text itself
// (Fast); when that decoder says no, Next reads the same value the usual
// way. Lines hands out runs of whole lines, for other goroutines to read
// with streams of their own (NewStreamBytes), which say when a value
// goes on past their end (Cut).
type Stream struct {
	r         io.Reader
	buf       []byte // buf[pos:] is read but not yet handed out
	pos       int
	eof       bool
	err       error
	line, col int // position of buf[pos]
	started   bool
	max       int
	// file is the input when it is a regular file, and off where the
	// next read starts in it: Line then finds how long a long line is
	// before reading it, and gives it a buffer of that size at once
	// rather than one doubled again and again.
	file io.ReaderAt
	off  int64
	size int64
	// grow is the size the buffer grows to next, when more than double.
	grow int
	// wait is called before a read that may wait for input: a pipe or a
	// terminal, never a regular file (WhenWaiting).
	wait func()
	// base is how many bytes of the input came before buf[0].
	base int64
	// cut says the last value Next handed out ended with the input.
	cut bool
}

// NewStreamMax reads values from r, each at most max bytes.
func NewStreamMax(r io.Reader, max int) *Stream {
	s := &Stream{r: r, buf: make([]byte, 0, min(64<<10, max+1)), line: 1, col: 1, max: max}
	s.file, s.off, s.size = regularFile(r)
	return s
}

// FileLeft is how many bytes are left to read when the input is a
// regular file, -1 otherwise.
func (s *Stream) FileLeft() int64 {
	if s.file == nil {
		return -1
	}
	return max(s.size-s.off, 0) + int64(len(s.buf)-s.pos)
}

// Reserve makes the buffer hold at least n bytes, for Lines.
func (s *Stream) Reserve(n int) {
	if cap(s.buf) < n {
		s.buf = append(make([]byte, 0, n), s.buf...)
	}
}

// Position is the line and column of the next byte not handed out.
func (s *Stream) Position() (line, col int) { return s.line, s.col }

// NewStreamBytes reads values from data, a part of a stream that starts
// at line and column (a byte order mark is not looked for), each at most
// max bytes. The values it hands out are slices of data, which it does
// not change.
func NewStreamBytes(data []byte, max, line, col int) *Stream {
	return &Stream{buf: data, eof: true, line: line, col: col, started: true, max: max}
}

// NewStreamAt reads values from r, the rest of a stream from line and
// column on (a byte order mark is not looked for), each at most max
// bytes.
func NewStreamAt(r io.Reader, max, line, col int) *Stream {
	s := NewStreamMax(r, max)
	s.line, s.col, s.started = line, col, true
	return s
}

// Offset is how many bytes of the input come before the next value (or
// the whitespace before it).
func (s *Stream) Offset() int64 { return s.base + int64(s.pos) }

// Cut reports whether the last value Next handed out ended because the
// input did: for a stream over part of a larger one, the value may go on.
func (s *Stream) Cut() bool { return s.cut }

// Rest is the input not yet handed out: what is read and buffered, then
// what the reader has left.
func (s *Stream) Rest() io.Reader {
	rest := bytes.NewReader(s.buf[s.pos:])
	if s.eof {
		return rest
	}
	return io.MultiReader(rest, s.r)
}

// Lines hands out whole lines: from the next value (or the whitespace
// before it) up to and with the last newline within max bytes, with the
// line and column where they start. last says they are the end of the
// input, which may end without a newline. ok is false when not one line
// fits in max bytes or the buffer: Line and Next then read it. The text
// is a slice of the stream's buffer, valid until the next call.
func (s *Stream) Lines(max int) (text []byte, line, col int, last, ok bool, err error) {
	if !s.started {
		s.skipBOM()
	}
	for {
		line, col = s.line, s.col
		end := min(len(s.buf), s.pos+max)
		if i := bytes.LastIndexByte(s.buf[s.pos:end], '\n'); i >= 0 {
			text = s.buf[s.pos : s.pos+i+1]
			s.pos += len(text)
			s.line, s.col = s.line+bytes.Count(text, newline), 1
			return text, line, col, false, true, nil
		}
		if s.eof {
			if s.pos == len(s.buf) {
				return nil, 0, 0, false, false, s.end()
			}
			text = s.buf[s.pos:]
			s.pos = len(s.buf)
			s.line, s.col = Advance(s.line, s.col, text)
			return text, line, col, true, true, nil
		}
		if kept := len(s.buf) - s.pos; kept >= max {
			return nil, 0, 0, false, false, nil
		} else if kept == cap(s.buf) {
			s.grow = min(2*kept, max) // a line longer than the buffer
		}
		s.fill(s.pos)
	}
}

var newline = []byte{'\n'}

// WhenWaiting has f called before every read of the input that may wait
// for more of it to be written — not for a regular file, whose bytes are
// all there. A caller holding answers back calls f to write them: a
// program that writes one input and waits for its answer gets it.
func (s *Stream) WhenWaiting(f func()) { s.wait = f }

// regularFile is r, its offset and its size when r is a regular file.
func regularFile(r io.Reader) (io.ReaderAt, int64, int64) {
	f, ok := r.(interface {
		io.ReaderAt
		io.Seeker
		Stat() (fs.FileInfo, error)
	})
	if !ok {
		return nil, 0, 0
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, 0, 0
	}
	off, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, 0, 0
	}
	return f, off, fi.Size()
}

// fill reads more input, keeping buf[keep:] and moving it to the front.
// It returns how far the kept bytes moved.
func (s *Stream) fill(keep int) int {
	moved := keep
	n := copy(s.buf[:cap(s.buf)], s.buf[keep:])
	s.buf = s.buf[:n]
	if n == cap(s.buf) {
		// A value longer than the buffer: grow.
		grown := make([]byte, n, max(2*n, s.grow))
		copy(grown, s.buf)
		s.buf = grown
	}
	s.grow = 0
	s.pos -= moved
	s.base += int64(moved)
	if s.wait != nil && s.file == nil && !s.eof {
		s.wait()
	}
	for !s.eof && len(s.buf) < cap(s.buf) {
		m, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+m]
		s.off += int64(m)
		if err == io.EOF {
			s.eof = true
		} else if err != nil {
			s.eof, s.err = true, err
		}
		if m > 0 {
			break
		}
	}
	return moved
}

// lineLeft is how many bytes of the file there are before the next
// newline (or the end), past what is read: at most limit, and -1 when it
// cannot tell.
func (s *Stream) lineLeft(limit int) int {
	if s.file == nil {
		return -1
	}
	var chunk [32 << 10]byte
	n := 0
	for n <= limit {
		m, err := s.file.ReadAt(chunk[:], s.off+int64(n))
		if i := bytes.IndexByte(chunk[:m], '\n'); i >= 0 {
			return n + i
		}
		n += m
		if err != nil {
			break
		}
	}
	return min(n, limit)
}

// skipBOM drops a byte order mark at the very start of the stream.
func (s *Stream) skipBOM() {
	s.started = true
	for len(s.buf)-s.pos < len(bom) && !s.eof {
		s.fill(s.pos)
	}
	if bytes.HasPrefix(s.buf[s.pos:], bom) {
		s.pos += len(bom)
	}
}

var bom = []byte("\ufeff")

// skipSpace skips a byte order mark at the start and whitespace; it
// returns false at the end of the input.
func (s *Stream) skipSpace() bool {
	if !s.started {
		s.skipBOM()
	}
	for {
		for s.pos < len(s.buf) && isSpace(s.buf[s.pos]) {
			s.advance(s.buf[s.pos])
			s.pos++
		}
		if s.pos < len(s.buf) {
			return true
		}
		if s.eof {
			return false
		}
		s.fill(s.pos)
	}
}

// end is what Next and Line return at the end of the input.
func (s *Stream) end() error {
	if s.err != nil {
		return s.err
	}
	return io.EOF
}

// Line returns the text from the next value's start to the end of its
// line (not including the newline), with the line and column where it
// starts, for a decoder that takes a whole line or nothing (Fast). ok is
// false when the line is longer than the limit: Next then reads the
// value and refuses it. The text is a slice of the stream's buffer, valid
// until the next call; Skip consumes it. At the end it returns io.EOF; a
// read error is returned as it is.
func (s *Stream) Line() (text []byte, line, col int, ok bool, err error) {
	if !s.skipSpace() {
		return nil, 0, 0, false, s.end()
	}
	from := s.pos // bytes before from hold no newline
	for {
		if i := bytes.IndexByte(s.buf[from:], '\n'); i >= 0 {
			text = s.buf[s.pos : from+i]
			break
		}
		from = len(s.buf)
		if from-s.pos > s.max {
			return nil, s.line, s.col, false, nil
		}
		if s.eof {
			text = s.buf[s.pos:]
			break
		}
		if kept := len(s.buf) - s.pos; kept == cap(s.buf) {
			// A long line: find its length first, so that the buffer
			// grows once, to hold it.
			if left := s.lineLeft(s.max + 1 - kept); left >= 0 {
				s.grow = kept + left + 1
			}
		}
		from -= s.fill(s.pos)
	}
	return text, s.line, s.col, len(text) <= s.max, nil
}

// Skip consumes n bytes of the text Line returned.
func (s *Stream) Skip(n int) {
	s.pos += n
	s.col += n
}

// Next returns the next value; its Raw is a slice of the stream's buffer,
// valid until the next call. A value longer than the limit, or deeper
// than MaxDepth, comes with Err set and no Raw. At the end it returns
// io.EOF; a read error is returned as it is.
func (s *Stream) Next() (Value, error) {
	if !s.skipSpace() {
		return Value{}, s.end()
	}
	v := Value{Line: s.line, Column: s.col}
	s.cut = false
	start := s.pos
	i := s.pos
	// lineStart is where the current line starts in buf (it may be before
	// start, or before the buffer once skipped bytes are dropped); columns
	// are counted from it only when a value ends.
	lineStart := s.pos - (s.col - 1)
	depth, inString := 0, false
	first := s.buf[start]
	bracketed := first == '{' || first == '['
	// skipping is set once the value is refused: from then on its bytes
	// are followed but not kept.
	skipping := false
	for {
	scan:
		for i < len(s.buf) {
			if !skipping && i-start > s.max {
				if prefix := s.buf[start:i]; !validPrefix(prefix) {
					// Not JSON within the limit: the parser says where.
					return s.take(v, start, i, lineStart), nil
				}
				v.Err, skipping = &TooLarge{Max: s.max}, true
			}
			c := s.buf[i]
			if inString {
				// The hot loop: most bytes are inside strings.
				for i < len(s.buf) {
					c = s.buf[i]
					if c == '"' || c == '\\' || c == '\n' {
						break
					}
					i++
				}
				if i == len(s.buf) {
					break scan
				}
				switch c {
				case '\\':
					if i+1 == len(s.buf) {
						break scan // the escaped byte is not read yet
					}
					if s.buf[i+1] == '\n' {
						s.line, lineStart = s.line+1, i+2
					}
					i += 2
					continue
				case '\n':
					s.line, lineStart = s.line+1, i+1
					i++
					continue
				}
				inString = false
				i++
				if depth == 0 {
					return s.take(v, start, i, lineStart), nil
				}
				continue
			}
			switch c {
			case '\n':
				s.line, lineStart = s.line+1, i+1
			case '"':
				inString = true
			case '{', '[':
				depth++
				if depth > MaxDepth && !skipping {
					v.Err, skipping = &TooDeep{Line: s.line, Column: i - lineStart + 1}, true
				}
			case '}', ']':
				depth--
				if depth == 0 && bracketed {
					return s.take(v, start, i+1, lineStart), nil
				}
			}
			if !bracketed && depth <= 0 && i > start && isSpace(c) {
				// A scalar (or stray text) ends at whitespace, which is
				// given back.
				if c == '\n' {
					s.line--
				}
				return s.take(v, start, i, lineStart), nil
			}
			i++
		}
		if s.eof {
			// A value the input ends inside is still handed out, whole:
			// the parser says where it stops being JSON ("[}" is wrong at
			// the "}", not at the end).
			for ; i < len(s.buf); i++ {
				if s.buf[i] == '\n' {
					s.line, lineStart = s.line+1, i+1
				}
			}
			s.cut = true
			return s.take(v, start, i, lineStart), nil
		}
		keep := start
		if skipping {
			keep = i // nothing of a refused value is kept
		}
		moved := s.fill(keep)
		start, i, lineStart = start-moved, i-moved, lineStart-moved
	}
}

// take hands out buf[start:end] as the value's bytes, or only its place
// when it was refused.
func (s *Stream) take(v Value, start, end, lineStart int) Value {
	if v.Err == nil {
		v.Raw = s.buf[start:end:end]
	}
	s.pos = end
	s.col = end - lineStart + 1
	return v
}

func (s *Stream) advance(c byte) {
	if c == '\n' {
		s.line, s.col = s.line+1, 1
	} else {
		s.col++
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// validPrefix reports whether data could be the start of a JSON value:
// the parser stops only at its end (or reads one whole value).
func validPrefix(data []byte) bool {
	nj := NotJSONIn(data)
	return nj == nil || nj.Offset >= int64(len(data)) || nj.Msg == "more than one value"
}
