package classroom

import (
	"context"
	"io"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/time/rate"
)

const (
	// inputRate and inputBurst bound the bytes a session's keys are read
	// at: far above typing, and a flood costs the server no more than
	// this. Beyond it the reading waits, and SSH flow control makes the
	// client wait too.
	inputRate  = 16 << 10
	inputBurst = 64 << 10
	// inputChunk is one read.
	inputChunk = 4 << 10
	// maxPending bounds an escape sequence still waiting for its end; a
	// longer one is dropped.
	maxPending = 4 << 10
	// escTimeout is how long a lone escape waits for the rest of a
	// sequence before it counts as the escape key.
	escTimeout = 50 * time.Millisecond
	// eventRate and eventBurst bound the events (keys, mouse) a session
	// hands its program a second: far above typing and key repeat, and
	// an event flood waits for them, as a byte flood does.
	eventRate  = 120
	eventBurst = 240
)

// askedModes are the terminal modes a session asks its client about (see
// runTrainer): one report of each is the client's answer.
var askedModes = []ansi.Mode{ansi.ModeSynchronizedOutput, ansi.ModeUnicodeCore}

// inputFilter lets through what a person does at the terminal — keys and
// the mouse — and the one answer to each question the session asked.
// Every other report is dropped: a size report (ESC[8;H;Wt, ESC[48;…t)
// would redraw the session at whatever size a student typed, past
// --max-pty; the size comes only from the SSH PTY and window-change
// requests, which are clamped.
type inputFilter struct {
	asked map[ansi.Mode]bool
}

func newInputFilter() *inputFilter {
	f := &inputFilter{asked: map[ansi.Mode]bool{}}
	for _, m := range askedModes {
		f.asked[m] = true
	}
	return f
}

func (f *inputFilter) pass(ev uv.Event) bool {
	switch e := ev.(type) {
	case uv.KeyPressEvent, uv.MouseClickEvent, uv.MouseReleaseEvent, uv.MouseWheelEvent, uv.MouseMotionEvent:
		return true
	case uv.ModeReportEvent:
		if f.asked[e.Mode] {
			delete(f.asked, e.Mode)
			return true
		}
	}
	return false
}

// keyDecoder turns a session's bytes into key events with a bounded
// buffer. Bubble Tea's own reader is not used for a served session: it
// keeps a bracketed paste, and an unfinished escape sequence, in a
// buffer that grows as long as the client sends; and when its program
// ends it can block for good handing over events nobody reads, holding
// the whole session in memory. Here a paste arrives key by key, and
// nothing waits on a program that has ended.
type keyDecoder struct {
	dec uv.EventDecoder
	buf []byte
}

// add appends input; events decodes what is complete. With expired, an
// unfinished sequence is decoded as it is (a lone escape is the escape
// key) or dropped.
func (k *keyDecoder) add(p []byte) { k.buf = append(k.buf, p...) }

func (k *keyDecoder) events(expired bool) []uv.Event {
	if len(k.buf) > maxPending {
		expired = true
	}
	var evs []uv.Event
	b := k.buf
	for len(b) > 0 {
		n, ev := k.dec.Decode(b)
		if n <= 0 {
			if !expired {
				break
			}
			n, ev = 1, nil
		}
		esc := b[0] == ansi.ESC
		switch e := ev.(type) {
		case uv.UnknownEvent:
			if !expired {
				k.keep(b)
				return evs
			}
			ev = nil
		case uv.PasteStartEvent, uv.PasteEndEvent:
			// A paste is typed key by key: nothing collects it.
			ev = nil
		case uv.MultiEvent:
			if esc && n <= 2 && !expired {
				k.keep(b)
				return evs
			}
			evs = append(evs, e...)
			ev = nil
		}
		if ev != nil {
			if esc && n <= 2 && !expired {
				// Maybe the start of a sequence: wait for the rest.
				break
			}
			evs = append(evs, ev)
		}
		b = b[n:]
	}
	k.keep(b)
	return evs
}

// keep moves what is left to the front of the buffer.
func (k *keyDecoder) keep(rest []byte) {
	n := copy(k.buf, rest)
	k.buf = k.buf[:n]
	if cap(k.buf) > 2*maxPending && n < maxPending {
		// A burst grew the buffer: give it back.
		k.buf = append([]byte(nil), k.buf...)
	}
}

// pending reports whether bytes wait for the rest of a sequence.
func (k *keyDecoder) pending() bool { return len(k.buf) > 0 }

// pumpKeys reads a session's input and sends its key events to the
// program until ctx ends (the connection closed). It returns as soon as
// ctx ends; its reading goroutine ends with the connection. Only what
// inputFilter passes reaches the program, at most eventRate a second.
func pumpKeys(ctx context.Context, r io.Reader, send func(tea.Msg), now func() time.Time) {
	limiter := rate.NewLimiter(inputRate, inputBurst)
	events := rate.NewLimiter(eventRate, eventBurst)
	filter := newInputFilter()
	chunks := make(chan []byte)
	go func() {
		defer close(chunks)
		for {
			buf := make([]byte, inputChunk)
			n, err := r.Read(buf)
			if n > 0 {
				if limiter.WaitN(ctx, n) != nil {
					return
				}
				select {
				case chunks <- buf[:n]:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	var k keyDecoder
	timer := time.NewTimer(escTimeout)
	timer.Stop()
	for {
		var evs []uv.Event
		select {
		case <-ctx.Done():
			return
		case chunk, ok := <-chunks:
			if !ok {
				return
			}
			timer.Stop()
			k.add(chunk)
			evs = k.events(false)
		case <-timer.C:
			evs = k.events(true)
		}
		for _, ev := range evs {
			if !filter.pass(ev) {
				continue
			}
			for !events.AllowN(now(), 1) {
				t := time.NewTimer(time.Second / eventRate)
				select {
				case <-t.C:
				case <-ctx.Done():
					t.Stop()
					return
				}
			}
			send(ev)
		}
		if k.pending() {
			timer.Reset(escTimeout)
		}
	}
}
