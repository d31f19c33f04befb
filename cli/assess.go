package cli

import (
	"bufio"
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

// verdictLine is one line of `toolgate assess` output: the verdict, and
// the trace when asked for.
type verdictLine struct {
	assess.Verdict
	Trace []stepJSON `json:"trace,omitempty"`
}

type errorLine struct {
	Error string `json:"error"`
}

// batchSize is how many inputs a worker takes at once: large enough that
// channel hand-offs cost little, small enough that output starts at once.
// batchBytes ends a batch early when its inputs are large, so that the
// batches in flight hold a few megabytes, not 256 large values each.
const (
	batchSize  = 256
	batchBytes = 1 << 20
)

// batch is a run of consecutive inputs and, once done, their output lines.
type batch struct {
	values []decode.Value
	// stop is set when reading or parsing stopped in this batch; out then
	// holds the lines of the inputs before the one that stopped it.
	stop    error
	out     []byte
	invalid int
	done    chan struct{}
}

// answerFunc answers one input: the value to write as its line, or an
// error — a *decode.NotJSON stops the stream, any other error becomes the
// input's {"error": ...} line.
type answerFunc func(raw []byte) (any, error)

// admissionAnswer decides admission inputs, with or without the trace.
func admissionAnswer(withTrace bool, lang assess.Lang) answerFunc {
	return func(raw []byte) (any, error) {
		in, err := decode.Input(raw)
		if err != nil {
			return nil, err
		}
		if !withTrace {
			vl := verdictLine{Verdict: assess.Assess(&in)}
			return &vl, nil
		}
		return explainedLine(&in, lang), nil
	}
}

// auditAnswer audits batches: {"diagnostics":[...],"pending":[...]}.
func auditAnswer(raw []byte) (any, error) {
	in, err := decode.Audit(raw)
	if err != nil {
		return nil, err
	}
	r, err := assess.Audit(in)
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// assessStream answers every admission input of r with one line on w.
func assessStream(r io.Reader, name string, w io.Writer, withTrace bool, lang assess.Lang, maxValue int) error {
	return answerStream(r, name, w, admissionAnswer(withTrace, lang), maxValue)
}

// answerStream answers every input of r with one line on w, in order.
// Reading, deciding and writing overlap: one goroutine splits the stream
// into values, workers parse and decide batches of them, and the caller
// writes the batches' output in the order they were read. A value longer
// than maxValue bytes, or nested deeper than decode.MaxDepth, gets an
// error line and is skipped without being kept.
func answerStream(r io.Reader, name string, w io.Writer, answer answerFunc, maxValue int) error {
	procs := runtime.GOMAXPROCS(0)
	work := make(chan *batch, procs)
	ordered := make(chan *batch, 2*procs)
	quit := make(chan struct{})
	go readBatches(r, work, ordered, quit, maxValue)
	var wg sync.WaitGroup
	for range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range work {
				b.decide(answer)
				close(b.done)
			}
		}()
	}
	defer wg.Wait()

	out := bufio.NewWriterSize(w, 64<<10)
	invalid, total := 0, 0
	var stop, werr error
	for b := range ordered {
		<-b.done
		if stop != nil {
			continue // drain what is already read
		}
		if _, err := out.Write(b.out); err != nil {
			stop, werr = err, err
		}
		invalid += b.invalid
		total += len(b.values)
		if b.stop != nil && stop == nil {
			stop = b.stop
		}
		if stop != nil {
			close(quit)
		}
	}
	if err := out.Flush(); err != nil && stop == nil {
		stop, werr = err, err
	}
	var sx *decode.SyntaxError
	switch {
	case werr != nil:
		return &exitError{ExitWrite, werr}
	case errors.As(stop, &sx):
		return &exitError{ExitUsage, fmt.Errorf("%s:%d:%d: not JSON: %s", name, sx.Line, sx.Column, decode.ClipQuotes(sx.Msg))}
	case stop != nil:
		return &exitError{ExitUsage, fmt.Errorf("%s: %w", name, stop)}
	case invalid > 0:
		return &exitError{ExitInvalid, fmt.Errorf("%s: %d of %d inputs were invalid (see their error lines)", name, invalid, total)}
	}
	return nil
}

// readBatches splits the stream into batches of values, handing each to
// the workers and, in order, to the writer, until the input ends or the
// writer quits.
func readBatches(r io.Reader, work, ordered chan<- *batch, quit <-chan struct{}, maxValue int) {
	defer close(work)
	defer close(ordered)
	stream := decode.NewStreamMax(r, maxValue)
	fresh := func() *batch {
		return &batch{values: make([]decode.Value, 0, batchSize), done: make(chan struct{})}
	}
	b := fresh()
	size := 0
	send := func() bool {
		size = 0
		select {
		case work <- b:
		case <-quit:
			return false
		}
		ordered <- b
		b = fresh()
		return true
	}
	for {
		v, err := stream.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			b.stop = err
			break
		}
		b.values = append(b.values, v)
		size += len(v.Raw)
		if (len(b.values) == batchSize || size >= batchBytes) && !send() {
			return
		}
	}
	send()
}

// decide answers the batch's inputs into b.out, up to the first that is
// not JSON.
func (b *batch) decide(answer answerFunc) {
	buf := bytes.NewBuffer(make([]byte, 0, 96*len(b.values)))
	defer func() { b.out = buf.Bytes() }()
	for i, value := range b.values {
		if value.Err != nil {
			b.invalid++
			_ = json.MarshalWrite(buf, errorLine{refused(value)})
			buf.WriteByte('\n')
			continue
		}
		out, err := answer(value.Raw)
		var nj *decode.NotJSON
		switch {
		case errors.As(err, &nj):
			line, col := value.Position(nj.Offset)
			b.values, b.stop = b.values[:i], &decode.SyntaxError{Line: line, Column: col, Msg: nj.Msg}
			return
		case err != nil:
			b.invalid++
			_ = json.MarshalWrite(buf, errorLine{decode.ClipQuotes(fmt.Sprintf("line %d: %v", value.Line, err))})
		default:
			_ = json.MarshalWrite(buf, out)
		}
		buf.WriteByte('\n')
	}
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
