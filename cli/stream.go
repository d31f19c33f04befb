package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json"

	"toolgate/decode"
)

// fastFunc answers one whole line of JSON Lines on the fast lane: it
// appends the output line to b, or says no (ok false) for anything out of
// the ordinary — an error, a value over several lines, two values on one
// line — which is then read the usual way.
type fastFunc func(b, line []byte) (out []byte, ok bool)

// answerer is how a command answers its inputs: the fast lane, if it has
// one, and the usual way, which says every error.
type answerer struct {
	fast fastFunc
	slow answerFunc
}

// outSize is how much output is held back before it is written, unless
// the input has to be waited for.
const outSize = 64 << 10

// output holds answers back and writes them in large pieces.
type output struct {
	w   io.Writer
	buf []byte
	err error
}

func (o *output) flush() {
	if len(o.buf) > 0 && o.err == nil {
		_, o.err = o.w.Write(o.buf)
	}
	o.buf = o.buf[:0]
}

// marshal writes v as one JSON line.
func (o *output) marshal(v any) {
	// Errors and traces are rare enough for reflection.
	b, _ := json.Marshal(v)
	o.buf = append(append(o.buf, b...), '\n')
}

// answerStream answers every input of r with one line on w, in order.
// Answers are written when 64 KiB are held back, and whenever the input
// has no more bytes ready (a pipe or a terminal): a program that writes
// one input and waits gets its answer. A value longer than maxValue
// bytes, or nested deeper than decode.MaxDepth, gets an error line and is
// skipped without being kept.
func answerStream(r io.Reader, name string, w io.Writer, a answerer, maxValue int) error {
	s := decode.NewStreamMax(r, maxValue)
	o := &output{w: w, buf: make([]byte, 0, outSize)}
	s.WhenWaiting(o.flush)
	invalid, total := 0, 0
	var stop error
	for o.err == nil && stop == nil {
		if len(o.buf) >= outSize {
			o.flush()
		}
		if a.fast != nil {
			text, _, _, ok, err := s.Line()
			if err == io.EOF {
				break
			}
			if err != nil {
				stop = err
				break
			}
			if ok {
				if b, done := a.fast(o.buf, text); done {
					o.buf = b
					s.Skip(len(text))
					total++
					continue
				}
			}
		}
		v, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			stop = err
			break
		}
		if v.Err != nil {
			total++
			invalid++
			o.marshal(errorLine{refused(v)})
			continue
		}
		out, err := a.slow(v.Raw)
		var nj *decode.NotJSON
		switch {
		case errors.As(err, &nj):
			line, col := v.Position(nj.Offset)
			stop = &decode.SyntaxError{Line: line, Column: col, Msg: nj.Msg}
		case err != nil:
			total++
			invalid++
			o.marshal(errorLine{decode.ClipQuotes(fmt.Sprintf("line %d: %v", v.Line, err))})
		default:
			total++
			o.marshal(out)
		}
	}
	o.flush()
	var sx *decode.SyntaxError
	switch {
	case o.err != nil:
		return &exitError{ExitWrite, o.err}
	case errors.As(stop, &sx):
		return &exitError{ExitUsage, fmt.Errorf("%s:%d:%d: not JSON: %s", name, sx.Line, sx.Column, decode.ClipQuotes(sx.Msg))}
	case stop != nil:
		return &exitError{ExitUsage, fmt.Errorf("%s: %w", name, stop)}
	case invalid > 0:
		return &exitError{ExitInvalid, fmt.Errorf("%s: %d of %d inputs were invalid (see their error lines)", name, invalid, total)}
	}
	return nil
}

// refused is the error line of a value the stream skipped: where it is
// and why.
func refused(v decode.Value) string {
	var deep *decode.TooDeep
	if errors.As(v.Err, &deep) {
		return fmt.Sprintf("line %d, column %d: %v", deep.Line, deep.Column, v.Err)
	}
	return fmt.Sprintf("line %d, column %d: %v (--max-value raises the limit)", v.Line, v.Column, v.Err)
}
