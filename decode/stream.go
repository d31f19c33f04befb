package decode

import (
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"
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

// Stream reads a sequence of JSON values: one value, JSON Lines, or values
// separated by any whitespace. Each value is handed back raw so that a value
// that is valid JSON but an invalid input costs only itself.
type Stream struct {
	lines *lineCounter
	dec   *jsontext.Decoder
}

// NewStream reads values from r.
func NewStream(r io.Reader) *Stream {
	lc := &lineCounter{r: r, folded: 1, lastNL: -1}
	// Duplicate names and invalid UTF-8 are judged per input by Input,
	// so that they cost one line of output and not the whole stream.
	dec := jsontext.NewDecoder(lc, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	return &Stream{lines: lc, dec: dec}
}

// Next returns the next value and the line it starts on. The value is only
// valid until the next call. At the end it returns io.EOF; on text that is
// not JSON, a *SyntaxError.
func (s *Stream) Next() (value []byte, line int, err error) {
	v, err := s.dec.ReadValue()
	if err == io.EOF {
		return nil, 0, io.EOF
	}
	if err != nil {
		off := s.dec.InputOffset()
		msg := err.Error()
		var sx *jsontext.SyntacticError
		if errors.As(err, &sx) {
			off = sx.ByteOffset
			msg = cleanMsg(sx.Err.Error())
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			msg = "unexpected end of input: a value is not closed"
		}
		l, c := s.lines.position(off)
		return nil, 0, &SyntaxError{Line: l, Column: c, Msg: msg}
	}
	end := s.dec.InputOffset()
	start := end - int64(len(v))
	line, _ = s.lines.position(start)
	s.lines.fold(start)
	return v, line, nil
}

// lineCounter remembers where the newlines are in what has been read, so
// that a byte offset can be turned into a line and column. Newlines before
// the last value read are folded into a count, so memory stays bounded by
// the decoder's read-ahead however long the stream is.
type lineCounter struct {
	r      io.Reader
	off    int64   // bytes read so far
	nl     []int64 // offsets of newlines not yet folded
	folded int     // line number at the first unfolded offset
	lastNL int64   // offset of the last folded newline, -1 if none
}

func (c *lineCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i, b := range p[:n] {
		if b == '\n' {
			c.nl = append(c.nl, c.off+int64(i))
		}
	}
	c.off += int64(n)
	return n, err
}

// fold forgets newlines before off; no later position asked is before it.
func (c *lineCounter) fold(off int64) {
	k := 0
	for k < len(c.nl) && c.nl[k] < off {
		k++
	}
	if k > 0 {
		c.lastNL = c.nl[k-1]
		c.folded += k
		c.nl = append(c.nl[:0], c.nl[k:]...)
	}
}

func (c *lineCounter) position(off int64) (line, col int) {
	line, last := c.folded, c.lastNL
	for _, n := range c.nl {
		if n >= off {
			break
		}
		line++
		last = n
	}
	return line, int(off - last)
}
