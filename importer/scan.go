package importer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Limits of a transcript import. A transcript is read as a stream: what
// is held at a time is one element (a message, an item, a log line or an
// event) and the ids still waiting for their answer, never the whole input.
const (
	// MaxTranscript is the most bytes a transcript may have.
	MaxTranscript = 1 << 30
	// MaxElement is the most bytes of one element: one message of a
	// request body, one line of a log, one server-sent event.
	MaxElement = 32 << 20
	// scanBuffer is how much is read from the input at a time.
	scanBuffer = 256 << 10
)

// scanner reads an input once, keeping the line and column of what it
// has not read yet. Every byte goes through take, which counts lines.
type scanner struct {
	name string
	r    io.Reader
	buf  []byte
	i, n int // buf[i:n] is read from r and not yet taken
	eof  bool
	rerr error
	// off is the offset of buf[i] in the input; line is its line and
	// lineStart the offset where that line starts.
	off, lineStart int64
	line           int
	max            int64
	// capture, when set, receives every byte taken.
	capture *[]byte
}

func newScanner(name string, r io.Reader, max int64) *scanner {
	return &scanner{name: name, r: r, buf: make([]byte, scanBuffer), line: 1, max: max}
}

// subScanner reads data, which starts at line:col of the input.
func subScanner(name string, data []byte, line, col int) *scanner {
	return &scanner{name: name, buf: data, n: len(data), eof: true, line: line, lineStart: -int64(col - 1), max: int64(len(data))}
}

// errTooLarge is a read past MaxTranscript.
var errTooLarge = errors.New("too large")

func (s *scanner) fill() bool {
	if s.i < s.n {
		return true
	}
	if s.eof {
		return false
	}
	s.i, s.n = 0, 0
	for s.n == 0 {
		m, err := s.r.Read(s.buf)
		s.n = m
		if s.off+int64(m) > s.max {
			s.n = int(s.max - s.off)
			s.eof, s.rerr = true, errTooLarge
			return s.n > 0
		}
		if err != nil {
			s.eof = true
			if !errors.Is(err, io.EOF) {
				s.rerr = err
			}
			return s.n > 0
		}
	}
	return true
}

// lookahead is up to n bytes ahead, read but not taken.
func (s *scanner) lookahead(n int) []byte {
	for s.n-s.i < n && !s.eof {
		if s.i > 0 {
			copy(s.buf, s.buf[s.i:s.n])
			s.n -= s.i
			s.i = 0
		}
		if s.n == len(s.buf) {
			break
		}
		m, err := s.r.Read(s.buf[s.n:])
		if s.off+int64(s.n-s.i+m) > s.max {
			m = int(s.max-s.off) - (s.n - s.i)
			s.eof, s.rerr = true, errTooLarge
		}
		s.n += m
		if err != nil {
			s.eof = true
			if !errors.Is(err, io.EOF) {
				s.rerr = err
			}
		}
	}
	if s.n-s.i < n {
		n = s.n - s.i
	}
	return s.buf[s.i : s.i+n]
}

// take consumes k buffered bytes.
func (s *scanner) take(k int) {
	chunk := s.buf[s.i : s.i+k]
	if s.capture != nil {
		*s.capture = append(*s.capture, chunk...)
	}
	if nl := bytes.Count(chunk, newline); nl > 0 {
		s.line += nl
		s.lineStart = s.off + int64(bytes.LastIndexByte(chunk, '\n')) + 1
	}
	s.i += k
	s.off += int64(k)
}

var newline = []byte{'\n'}

// pos is the line and byte column of the next byte.
func (s *scanner) pos() (int, int) { return s.line, int(s.off-s.lineStart) + 1 }

// peek is the next byte; ok is false at the end.
func (s *scanner) peek() (byte, bool) {
	if !s.fill() {
		return 0, false
	}
	return s.buf[s.i], true
}

// skipSpace takes JSON whitespace (and a byte order mark at the start).
func (s *scanner) skipSpace() {
	for s.fill() {
		if s.off == 0 && bytes.HasPrefix(s.buf[s.i:s.n], bom) {
			s.take(len(bom))
			continue
		}
		k := 0
		chunk := s.buf[s.i:s.n]
		for k < len(chunk) && isSpace(chunk[k]) {
			k++
		}
		s.take(k)
		if k < len(chunk) {
			return
		}
	}
}

var bom = []byte{0xEF, 0xBB, 0xBF}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// readLine takes the rest of the line and its newline; the line is
// returned without them (and without a carriage return). A line longer
// than max bytes is taken and reported as too long, its text cut.
func (s *scanner) readLine(dst []byte, max int) (line []byte, long bool) {
	for s.fill() {
		chunk := s.buf[s.i:s.n]
		j := bytes.IndexByte(chunk, '\n')
		end := len(chunk)
		if j >= 0 {
			end = j
		}
		if len(dst)+end > max {
			long = true
			room := max - len(dst)
			if room > 0 {
				dst = append(dst, chunk[:room]...)
			}
		} else {
			dst = append(dst, chunk[:end]...)
		}
		if j >= 0 {
			s.take(j + 1)
			break
		}
		s.take(len(chunk))
	}
	return bytes.TrimSuffix(dst, []byte{'\r'}), long
}

// scanStatus says how reading a value ended.
type scanStatus uint8

const (
	scanOK       scanStatus = iota
	scanCut                 // the input ended inside the value
	scanBroken              // oneLine: the line ended inside the value
	scanTooDeep             // nested deeper than allowed
	scanTooLarge            // longer than allowed
	scanBad                 // not the start of a JSON value
)

// valueScan is the state of reading one JSON value's extent: strings,
// escapes and nesting, no more — the value is checked by a JSON decoder
// afterwards. It stops at the end of the value.
type valueScan struct {
	depth, maxDepth int
	inString, esc   bool
	literal         bool // a number, true, false or null
	started         bool
	oneLine         bool
	// deepAt is where the nesting went too deep, relative to the start.
	deepAt int64
}

// step reads chunk and says how many bytes belong to the value and
// whether the value ended there.
func (v *valueScan) step(chunk []byte, base int64) (k int, st scanStatus, done bool) {
	for k < len(chunk) {
		c := chunk[k]
		if !v.started {
			v.started = true
			switch c {
			case '"':
				v.inString = true
				k++
				continue
			case '{', '[':
			default:
				if c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n' {
					v.literal = true
				} else {
					return k, scanBad, true
				}
			}
		}
		if v.literal {
			for k < len(chunk) && !isDelimiter(chunk[k]) {
				k++
			}
			if k < len(chunk) {
				return k, scanOK, true
			}
			return k, scanOK, false
		}
		if v.inString {
			if v.esc {
				v.esc = false
				k++
				continue
			}
			j := indexStringSpecial(chunk[k:])
			if j < 0 {
				return len(chunk), scanOK, false
			}
			k += j
			switch chunk[k] {
			case '"':
				v.inString = false
				k++
				if v.depth == 0 {
					return k, scanOK, true
				}
			case '\\':
				v.esc = true
				k++
			case '\n':
				if v.oneLine {
					return k, scanBroken, true
				}
				k++
			}
			continue
		}
		switch c {
		case '"':
			v.inString = true
		case '{', '[':
			v.depth++
			if v.depth > v.maxDepth {
				v.deepAt = base + int64(k)
				return k, scanTooDeep, true
			}
		case '}', ']':
			v.depth--
			if v.depth <= 0 {
				return k + 1, scanOK, true
			}
		case '\n':
			if v.oneLine {
				return k, scanBroken, true
			}
		}
		k++
	}
	return k, scanOK, false
}

func isDelimiter(c byte) bool {
	return c == ',' || c == '}' || c == ']' || c == ':' || isSpace(c)
}

// indexStringSpecial finds the next byte that matters inside a string: a
// quote, a backslash, or a raw newline (which JSON does not allow there).
func indexStringSpecial(b []byte) int {
	for i, c := range b {
		if c == '"' || c == '\\' || c == '\n' {
			return i
		}
	}
	return -1
}

// readValue takes one JSON value's bytes and appends them to dst. max
// bounds the bytes, maxDepth the nesting; oneLine says the value must end
// on its line (JSON Lines).
func (s *scanner) readValue(dst []byte, max, maxDepth int, oneLine bool) ([]byte, scanStatus, int64) {
	v := valueScan{maxDepth: maxDepth, oneLine: oneLine}
	start := len(dst)
	for {
		if !s.fill() {
			if v.literal && v.started {
				return dst, scanOK, 0
			}
			return dst, scanCut, 0
		}
		chunk := s.buf[s.i:s.n]
		k, st, done := v.step(chunk, int64(len(dst)-start))
		if len(dst)-start+k > max {
			k = max - (len(dst) - start) + 1
			if k > len(chunk) {
				k = len(chunk)
			}
			dst = append(dst, chunk[:k]...)
			s.take(k)
			return dst, scanTooLarge, 0
		}
		if cap(dst)-len(dst) < k {
			// Double, but never past what one value may hold.
			limit := MaxElement + len(chunk)
			if limit < len(dst)+k {
				limit = len(dst) + k
			}
			grown := make([]byte, len(dst), min(2*cap(dst)+k, limit))
			copy(grown, dst)
			dst = grown
		}
		dst = append(dst, chunk[:k]...)
		s.take(k)
		if done {
			return dst, st, v.deepAt
		}
	}
}

// valueEnd finds where the JSON value starting at b[0] ends, within b.
func valueEnd(b []byte, maxDepth int) (int, scanStatus) {
	v := valueScan{maxDepth: maxDepth}
	k, st, done := v.step(b, 0)
	if !done {
		if v.literal {
			return k, scanOK
		}
		return k, scanCut
	}
	return k, st
}

// posIn is the line and column of byte off of raw, which starts at
// line:col.
func posIn(raw []byte, off int64, line, col int) (int, int) {
	if off < 0 {
		off = 0
	}
	if off > int64(len(raw)) {
		off = int64(len(raw))
	}
	head := raw[:off]
	nl := bytes.Count(head, newline)
	if nl == 0 {
		return line, col + int(off)
	}
	return line + nl, int(off) - bytes.LastIndexByte(head, '\n')
}

// describeStatus says what a scan status means.
func describeStatus(st scanStatus) string {
	switch st {
	case scanCut:
		return "the input ends inside this value"
	case scanBroken:
		return "the line ends inside this value"
	case scanTooDeep:
		return fmt.Sprintf("nested deeper than %d levels", MaxDepth)
	case scanTooLarge:
		return fmt.Sprintf("one value longer than %d MiB, the most toolgate reads at a time", MaxElement>>20)
	case scanBad:
		return "not the start of a JSON value"
	case scanOK:
		// Nothing to say.
	}
	return ""
}
