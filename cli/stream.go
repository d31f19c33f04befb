package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/go-json-experiment/json"

	"toolgate/assess"
	"toolgate/decode"
)

// fastFunc answers one whole line of JSON Lines on the fast lane: it
// appends the output line to b, or says no (ok false) for anything out of
// the ordinary — an error, a value over several lines, two values on one
// line — which is then read the usual way.
type fastFunc func(b, line []byte) (out []byte, ok bool)

// answerer is how a command answers its inputs: the fast lane, if it has
// one (newFast makes one for each goroutine), and the usual way, which
// says every error.
type answerer struct {
	newFast func() fastFunc
	slow    answerFunc
	// lang is the language of the stream's own words (where a value is,
	// why one was skipped, how the stream ended); slow says its errors in
	// it too.
	lang assess.Lang
}

// outSize is how much output is held back before it is written, unless
// the input has to be waited for.
const outSize = 64 << 10

// Two cores read a regular file of at least parallelMin bytes, in blocks
// of whole lines of about blockSize bytes (README, "Performance": on a
// quiet machine 1.7x the throughput for 1.1x the CPU; a pipe or a
// terminal, where answers must come as inputs do, is read by one).
const (
	parallelMin = 1 << 20
	blockSize   = 256 << 10
)

// lane answers values one at a time, into out: on the fast lane when it
// takes a whole line, else the usual way.
type lane struct {
	fast           fastFunc
	slow           answerFunc
	lang           assess.Lang
	out            []byte
	invalid, total int
	// stop is why the stream stops: a *decode.SyntaxError, or the
	// input's read error.
	stop error
	// part is set for a lane over a block of a larger stream: a value
	// the block's end cuts is not answered, and cut says where it starts.
	part bool
	cut  *cutPoint
}

// cutPoint is where a value that a block's end cut starts: its offset in
// the block, its line and column.
type cutPoint struct {
	offset    int64
	line, col int
}

// next answers the next value of s. It returns false at the end of the
// input, when the stream stops, and at a value a block's end cuts.
func (l *lane) next(s *decode.Stream) bool {
	if l.fast != nil {
		text, _, _, ok, err := s.Line()
		if err == io.EOF {
			return false
		}
		if err != nil {
			l.stop = err
			return false
		}
		if ok {
			if b, done := l.fast(l.out, text); done {
				l.out = b
				s.Skip(len(text))
				l.total++
				return true
			}
		}
	}
	at := s.Offset()
	line, col := s.Position()
	v, err := s.Next()
	if err == io.EOF {
		return false
	}
	if err != nil {
		l.stop = err
		return false
	}
	if l.part && s.Cut() {
		l.cut = &cutPoint{at, line, col}
		return false
	}
	if v.Err != nil {
		l.total++
		l.invalid++
		l.marshal(errorLine{refused(v, l.lang), "input"})
		return true
	}
	out, err := l.slow(v.Raw)
	var nj *decode.NotJSON
	switch {
	case errors.As(err, &nj):
		line, col := v.Position(nj.Offset)
		l.stop = &decode.SyntaxError{Line: line, Column: col, Msg: nj.Msg}
		return false
	case err != nil:
		l.invalid++
		l.marshal(errorLine{decode.ClipQuotes(streamText[l.lang].line(v.Line) + err.Error()), layerOf(err)})
	default:
		l.marshal(out)
	}
	l.total++
	return true
}

// marshal writes v as one JSON line, a map's keys sorted (a traced
// line's texts), so that the same input always gets the same line.
func (l *lane) marshal(v any) {
	// Errors and traces are rare enough for reflection.
	b, _ := json.Marshal(v, json.Deterministic(true))
	l.out = append(append(l.out, b...), '\n')
}

// writer writes the answers and remembers the first error.
type writer struct {
	w   io.Writer
	err error
}

func (w *writer) write(b []byte) {
	if len(b) > 0 && w.err == nil {
		_, w.err = w.w.Write(b)
	}
}

// answerStream answers every input of r with one line on w, in order.
// Answers are written when 64 KiB are held back, and whenever the input
// has no more bytes ready (a pipe or a terminal): a program that writes
// one input and waits gets its answer. A value longer than maxValue
// bytes, or nested deeper than decode.MaxDepth, gets an error line and is
// skipped without being kept.
func answerStream(r io.Reader, name string, w io.Writer, a answerer, maxValue int) error {
	return answerStreamIn(r, name, w, a, maxValue, blocks{workers: runtime.GOMAXPROCS(0), min: parallelMin, size: blockSize})
}

// blocks says when and how answerStream answers on several cores: with
// workers goroutines, for a regular file of at least min bytes, in blocks
// of size bytes.
type blocks struct {
	workers, min, size int
}

func answerStreamIn(r io.Reader, name string, w io.Writer, a answerer, maxValue int, par blocks) error {
	s := decode.NewStreamMax(r, maxValue)
	out := &writer{w: w}
	l := &lane{slow: a.slow, lang: a.lang, out: make([]byte, 0, outSize)}
	if a.newFast != nil {
		l.fast = a.newFast()
	}
	if par.workers > 1 && s.FileLeft() >= int64(par.min) {
		s = answerBlocks(s, a, l, out, maxValue, par)
	}
	if s != nil && l.stop == nil && out.err == nil {
		s.WhenWaiting(func() {
			out.write(l.out)
			l.out = l.out[:0]
		})
		for out.err == nil && l.next(s) {
			if len(l.out) >= outSize {
				out.write(l.out)
				l.out = l.out[:0]
			}
		}
	}
	out.write(l.out)
	var sx *decode.SyntaxError
	words := streamText[a.lang]
	switch {
	case out.err != nil:
		return &exitError{ExitWrite, out.err}
	case errors.As(l.stop, &sx):
		return &exitError{ExitUsage, errors.New(words.notJSON(name, sx.Line, sx.Column, decode.ClipQuotes(sx.Msg)))}
	case l.stop != nil:
		return &exitError{ExitUsage, fmt.Errorf("%s: %w", name, l.stop)}
	case l.invalid > 0:
		return &exitError{ExitInvalid, errors.New(words.invalid(name, l.invalid, l.total))}
	}
	return nil
}

// block is a run of whole lines answered by one worker.
type block struct {
	in        []byte
	line, col int
	last      bool
	lane      lane
	done      chan struct{}
}

// answerBlocks answers s on every core: one goroutine cuts it into
// blocks of whole lines, workers answer the blocks, and the caller's
// goroutine writes their answers in order and adds their counts to l. It
// returns the stream to go on with one value at a time — the rest of s
// from a line longer than a block, or a new stream from a value that a
// block cut (a value over several lines) — or nil when s is answered or
// stopped.
func answerBlocks(s *decode.Stream, a answerer, l *lane, out *writer, maxValue int, par blocks) *decode.Stream {
	procs := par.workers
	s.Reserve(par.size)
	work := make(chan *block, procs)
	ordered := make(chan *block, 2*procs)
	quit := make(chan struct{})
	free := make(chan *block, 3*procs)
	// tail is set when the reader stops before the end: s has a line
	// longer than a block next.
	tail := false
	var readErr error
	go func() {
		defer close(ordered)
		defer close(work)
		for {
			text, line, col, last, ok, err := s.Lines(par.size)
			if err == io.EOF {
				return
			}
			if err != nil {
				readErr = err
				return
			}
			if !ok {
				tail = true
				return
			}
			var b *block
			select {
			case b = <-free:
			default:
				b = &block{done: make(chan struct{}, 1)}
			}
			b.in, b.line, b.col, b.last = append(b.in[:0], text...), line, col, last
			select {
			case work <- b:
			case <-quit:
				ordered <- b // read from s: to be read again
				return
			}
			ordered <- b
		}
	}()
	var wg sync.WaitGroup
	for range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var fast fastFunc
			if a.newFast != nil {
				fast = a.newFast()
			}
			for b := range work {
				b.lane = lane{fast: fast, slow: a.slow, lang: a.lang, out: b.lane.out[:0], part: !b.last}
				sub := decode.NewStreamBytes(b.in, maxValue, b.line, b.col)
				for b.lane.next(sub) {
				}
				b.done <- struct{}{}
			}
		}()
	}
	defer wg.Wait()

	var cut *block
	for b := range ordered {
		<-b.done
		out.write(b.lane.out)
		l.invalid += b.lane.invalid
		l.total += b.lane.total
		if b.lane.stop != nil || b.lane.cut != nil || out.err != nil {
			l.stop = b.lane.stop
			if b.lane.cut != nil {
				cut = b
			}
			close(quit)
			break
		}
		select {
		case free <- b:
		default:
		}
	}
	if cut == nil && l.stop == nil && out.err == nil {
		// The reader is done: at the end, at a read error, or before a
		// line longer than a block, which s reads next.
		if readErr != nil {
			l.stop = readErr
			return nil
		}
		if tail {
			return s
		}
		return nil
	}
	// The blocks after the one that stopped are read again, or not at
	// all; the reader has stopped once ordered is closed.
	var rest []io.Reader
	for b := range ordered {
		if cut != nil {
			rest = append(rest, bytes.NewReader(b.in))
		}
	}
	if cut == nil {
		return nil
	}
	from := cut.lane.cut
	head := bytes.NewReader(cut.in[from.offset:])
	return decode.NewStreamAt(io.MultiReader(append(append([]io.Reader{head}, rest...), s.Rest())...), maxValue, from.line, from.col)
}

// refused is the error line of a value the stream skipped: where it is
// and why.
func refused(v decode.Value, l assess.Lang) string {
	words := streamText[l]
	var deep *decode.TooDeep
	if errors.As(v.Err, &deep) {
		return words.column(deep.Line, deep.Column) + words.tooDeep(decode.MaxDepth)
	}
	var large *decode.TooLarge
	if errors.As(v.Err, &large) {
		return words.column(v.Line, v.Column) + words.tooLarge(large.Max)
	}
	return words.column(v.Line, v.Column) + v.Err.Error()
}

// streamWords are the stream's own words in one language.
type streamWords struct {
	// line and column say where a value is, ready for what is wrong
	// with it: "line 3: ", "line 2, column 1: ".
	line   func(line int) string
	column func(line, col int) string
	// tooLarge and tooDeep say why a value was skipped.
	tooLarge func(max int) string
	tooDeep  func(depth int) string
	// invalid and notJSON are how a stream ends: some inputs had error
	// lines, or the text stopped being JSON.
	invalid func(name string, invalid, total int) string
	notJSON func(name string, line, col int, msg string) string
}

// streamText is streamWords by language.
var streamText = [...]streamWords{
	assess.English: {
		line:   func(line int) string { return fmt.Sprintf("line %d: ", line) },
		column: func(line, col int) string { return fmt.Sprintf("line %d, column %d: ", line, col) },
		tooLarge: func(max int) string {
			return fmt.Sprintf("value is larger than %d bytes (--max-value raises the limit)", max)
		},
		tooDeep: func(depth int) string { return fmt.Sprintf("nested more than %d levels deep", depth) },
		invalid: func(name string, invalid, total int) string {
			return fmt.Sprintf("%s: %d of %d inputs were invalid (see their error lines)", name, invalid, total)
		},
		notJSON: func(name string, line, col int, msg string) string {
			return fmt.Sprintf("%s:%d:%d: not JSON: %s", name, line, col, msg)
		},
	},
	assess.Chinese: {
		line:     func(line int) string { return fmt.Sprintf("第 %d 行：", line) },
		column:   func(line, col int) string { return fmt.Sprintf("第 %d 行第 %d 列：", line, col) },
		tooLarge: func(max int) string { return fmt.Sprintf("值超过 %d 字节（用 --max-value 提高上限）", max) },
		tooDeep:  func(depth int) string { return fmt.Sprintf("嵌套超过 %d 层", depth) },
		invalid: func(name string, invalid, total int) string {
			return fmt.Sprintf("%s：%d 个输入中有 %d 个无效（见它们的错误行）", name, total, invalid)
		},
		notJSON: func(name string, line, col int, msg string) string {
			// The parser's detail is translated where it is one of the
			// few the stream writes itself.
			return fmt.Sprintf("%s:%d:%d：不是 JSON：%s", name, line, col, messageZh(msg))
		},
	},
}
