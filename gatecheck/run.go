// Package gatecheck runs someone else's admission gate — any program, in
// any language — over toolgate's conformance vectors and compares its
// answers with the core's. The gate reads one JSON input a line on stdin
// and writes one JSON answer a line on stdout, in the shape `toolgate
// assess` (or `audit`) writes.
//
// The gate is untrusted: it may hang, flood, exit early or print garbage.
// Every wait is bounded by a timeout, every line by MaxLine bytes, what it
// prints on stderr by MaxStderr bytes, and the process is killed when the
// check is over.
package gatecheck

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"toolgate/scenarios"
	"toolgate/vectors"
)

// Limits on what a gate may print.
const (
	// MaxLine is the longest answer line read; a longer one stops the check.
	MaxLine = 1 << 20
	// MaxStderr is how much of the gate's stderr is kept to show.
	MaxStderr = 16 << 10
)

// DefaultTimeout is how long the check waits for each answer by default.
const DefaultTimeout = 10 * time.Second

// Options says which gate to run on which vectors.
type Options struct {
	Track   scenarios.Track
	Vectors []vectors.Vector
	// Command is the program and its arguments.
	Command []string
	// Timeout is the longest wait for one answer, and for the gate to end
	// once its input is over; 0 means DefaultTimeout.
	Timeout time.Duration
	// EndTimeout, when set, is the wait for the gate to end once every
	// input is answered, instead of Timeout.
	EndTimeout time.Duration
	// Env is the gate's environment; nil inherits toolgate's.
	Env []string
}

// Answer is the gate's answer to one vector, compared.
type Answer struct {
	Vector vectors.Vector
	// Line is what the gate wrote for it.
	Line []byte
	// Diffs says how the answer differs from the expectation; empty when
	// they agree.
	Diffs []string
}

// Agree reports whether the gate answered as expected.
func (a Answer) Agree() bool { return len(a.Diffs) == 0 }

// Report is a finished check: every vector answered and compared.
type Report struct {
	Track   scenarios.Track
	Answers []Answer
	// Stderr is the start of what the gate printed on stderr.
	Stderr string
	// Notes are things worth saying that did not stop the check, e.g. the
	// gate's exit status.
	Notes []string
}

// Disagreements counts the answers that differ from the expectation.
func (r Report) Disagreements() int {
	n := 0
	for _, a := range r.Answers {
		if !a.Agree() {
			n++
		}
	}
	return n
}

// GateError is a gate that could not be run or stopped answering: the
// check cannot say whether it agrees.
type GateError struct {
	Msg string
	// Answered is how many inputs the gate answered before.
	Answered int
	// Stderr is the start of what it printed on stderr.
	Stderr string
}

func (e *GateError) Error() string { return e.Msg }

// gate is a running gate process and the goroutines that feed it and read
// it.
type gate struct {
	cmd    *exec.Cmd
	cancel context.CancelFunc
	stdin  *os.File // our end of its stdin
	stdout *os.File // our end of its stdout
	stderr *headBuffer
	lines  chan lineOrErr
	done   chan struct{} // closed by stop: the goroutines give up
	io     sync.WaitGroup
	exited chan struct{} // closed once Wait returned
	err    error         // what Wait returned
	once   sync.Once
}

// start starts the gate and the goroutines that write its inputs and read
// its lines. Its stdin and stdout are plain OS pipes so that nothing but
// our own reader decides when its output has been read.
func start(ctx context.Context, o Options) (*gate, error) {
	ctx, cancel := context.WithCancel(ctx)
	cmd := exec.CommandContext(ctx, o.Command[0], o.Command[1:]...)
	cmd.Env = o.Env
	// Once killed, a gate's children may still hold its stderr: stop
	// waiting for them after a moment.
	cmd.WaitDelay = time.Second
	g := &gate{cmd: cmd, cancel: cancel, stderr: &headBuffer{max: MaxStderr},
		lines: make(chan lineOrErr), done: make(chan struct{}), exited: make(chan struct{})}
	cmd.Stderr = g.stderr
	inR, inW, err := os.Pipe()
	if err != nil {
		cancel()
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		_ = inR.Close()
		_ = inW.Close()
		cancel()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	err = cmd.Start()
	// An *os.File buffers nothing: closing our copy of an end of a pipe
	// has nothing to report.
	_ = inR.Close() // the gate has its own copies now
	_ = outW.Close()
	if err != nil {
		_ = inW.Close()
		_ = outR.Close()
		cancel()
		return nil, fmt.Errorf("cannot run %s: %w", o.Command[0], err)
	}
	g.stdin, g.stdout = inW, outR
	go func() {
		g.err = cmd.Wait()
		close(g.exited)
	}()
	g.io.Add(2)
	go func() {
		defer g.io.Done()
		writeInputs(inW, o.Vectors)
	}()
	go func() {
		defer g.io.Done()
		readLines(outR, g.lines, g.done)
	}()
	return g, nil
}

// stop kills the gate if it still runs, and waits for it and for the
// goroutines; it is safe to call more than once.
func (g *gate) stop() {
	g.once.Do(func() {
		close(g.done)
		g.cancel()
		<-g.exited
		// A child of the gate may still hold the pipes open: closing our
		// ends ends our reads and writes. writeInputs closes stdin too
		// when it returns.
		_ = g.stdin.Close()
		_ = g.stdout.Close()
		g.io.Wait()
	})
}

// waitExit waits up to d for the gate to end by itself and says how it
// ended; a gate still running then is stopped.
func (g *gate) waitExit(d time.Duration) (status string, ended bool) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-g.exited:
		return exitText(g.err), true
	case <-t.C:
		g.stop()
		return "", false
	}
}

// Run runs the gate over the vectors. A *GateError means the gate could
// not be run, stopped answering, or printed something that is not an
// answer; the answers it gave before are then not judged.
func Run(ctx context.Context, o Options) (Report, error) {
	if len(o.Command) == 0 {
		return Report{}, &GateError{Msg: "no command to run"}
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	g, err := start(ctx, o)
	if err != nil {
		return Report{}, &GateError{Msg: err.Error()}
	}
	defer g.stop()
	r := Report{Track: o.Track}
	fail := func(format string, args ...any) (Report, error) {
		g.stop()
		return Report{}, &GateError{Msg: fmt.Sprintf(format, args...), Answered: len(r.Answers), Stderr: g.stderr.String()}
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	next := func() (lineOrErr, bool) {
		timer.Reset(timeout)
		select {
		case got := <-g.lines:
			return got, true
		case <-timer.C:
			return lineOrErr{}, false
		}
	}
	for i, v := range o.Vectors {
		got, ok := next()
		switch {
		case !ok:
			return fail("no answer to input %d (%s) within %s: the gate hangs, or waits for more input than one line", i+1, v.ID, timeout)
		case errors.Is(got.err, io.EOF):
			status, ended := g.waitExit(timeout)
			switch {
			case !ended:
				status = "its output closed but it kept running; stopped"
			case status == "":
				status = "exit status 0"
			}
			return fail("the gate stopped answering after %d of %d inputs (%s): input %d (%s) got no answer", i, len(o.Vectors), status, i+1, v.ID)
		case errors.Is(got.err, errLineTooLong):
			return fail("answer %d (to %s) is longer than %d bytes", i+1, v.ID, MaxLine)
		case got.err != nil:
			return fail("reading the gate's answers: %v", got.err)
		}
		diffs, problem := Compare(o.Track, v.Layer, v.Expect, got.line)
		if problem != "" {
			return fail("answer %d (to %s) is not an answer: %s: %s", i+1, v.ID, problem, Sanitize(clip(got.line, 200)))
		}
		r.Answers = append(r.Answers, Answer{Vector: v, Line: got.line, Diffs: diffs})
	}
	// Every input is answered: one more line means the answers were not
	// one a line, and the comparison above was of the wrong pairs.
	if o.EndTimeout > 0 {
		timeout = o.EndTimeout
	}
	got, ok := next()
	switch {
	case !ok:
		r.Notes = append(r.Notes, fmt.Sprintf("the gate kept its output open %s after its last answer; it was stopped", timeout))
		g.stop()
	case got.err == nil:
		return fail("the gate wrote more lines than it was given inputs (%d); line %d: %s", len(o.Vectors), len(o.Vectors)+1, Sanitize(clip(got.line, 200)))
	case errors.Is(got.err, errLineTooLong):
		return fail("the gate wrote more than it was given inputs (%d): a line of more than %d bytes", len(o.Vectors), MaxLine)
	case !errors.Is(got.err, io.EOF):
		return fail("reading the gate's answers: %v", got.err)
	default:
		status, ended := g.waitExit(timeout)
		switch {
		case !ended:
			r.Notes = append(r.Notes, fmt.Sprintf("the gate did not end within %s of its output closing; it was stopped", timeout))
		case status != "":
			r.Notes = append(r.Notes, "the gate ended with "+status)
		}
	}
	g.stop()
	r.Stderr = g.stderr.String()
	return r, nil
}

// exitText says how a process ended, "" for a clean exit.
func exitText(err error) string {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &ee):
		return ee.String() // its ProcessState's: "exit status 1"
	}
	return err.Error()
}

// writeInputs writes one input a line and closes the gate's stdin. A gate
// that stops reading makes the write fail; the reader notices it too. The
// close has nothing to add: the answers tell whether every line was read.
func writeInputs(w io.WriteCloser, vs []vectors.Vector) {
	defer func() { _ = w.Close() }()
	bw := bufio.NewWriter(w)
	for _, v := range vs {
		if _, err := bw.Write(v.Input); err != nil {
			return
		}
		if err := bw.WriteByte('\n'); err != nil {
			return
		}
	}
	_ = bw.Flush()
}

type lineOrErr struct {
	line []byte
	err  error
}

var errLineTooLong = errors.New("line too long")

// readLines sends each non-blank line of r, then the error that ended it
// (io.EOF at the end), unless done closes first.
func readLines(r io.Reader, out chan<- lineOrErr, done <-chan struct{}) {
	send := func(l lineOrErr) bool {
		select {
		case out <- l:
			return true
		case <-done:
			return false
		}
	}
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br)
		if err != nil {
			if len(bytes.TrimSpace(line)) > 0 && errors.Is(err, io.EOF) {
				// A last answer without a newline still counts.
				if !send(lineOrErr{line: line}) {
					return
				}
			}
			send(lineOrErr{err: err})
			return
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if !send(lineOrErr{line: line}) {
			return
		}
	}
}

// readLine reads up to a newline, refusing to hold more than MaxLine bytes.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLine {
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return bytes.TrimRight(line, "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		}
		return line, err
	}
}

// headBuffer keeps the first max bytes written to it and counts the rest;
// it never blocks the writer.
type headBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	max     int
	dropped int
}

func (h *headBuffer) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	room := h.max - h.buf.Len()
	if room > len(p) {
		room = len(p)
	}
	if room > 0 {
		h.buf.Write(p[:room])
	}
	h.dropped += len(p) - max(room, 0)
	return len(p), nil
}

func (h *headBuffer) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.buf.String()
	if h.dropped > 0 {
		s += fmt.Sprintf("\n… (%d more bytes not kept)", h.dropped)
	}
	return s
}

func clip(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	return append(append([]byte(nil), b[:n]...), "…"...)
}

// Sanitize makes text from a gate safe to print on a terminal: control
// characters (escape sequences among them) and invalid UTF-8 are shown
// escaped; newlines and tabs are kept.
func Sanitize(b []byte) string {
	var s strings.Builder
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		switch {
		case r == '\n' || r == '\t':
			s.WriteRune(r)
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&s, `\x%02x`, b[0])
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&s, `\u%04x`, r)
		default:
			s.Write(b[:size])
		}
		b = b[size:]
	}
	return s.String()
}
