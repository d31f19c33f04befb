package importer

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/go-json-experiment/json"

	"toolgate/assess"
)

// TranscriptOptions steers an import.
type TranscriptOptions struct {
	// Format forces a format (a name of Formats, or an alias); "" detects
	// it.
	Format string
	// Closed says the transcript is over: a batch still waiting for its
	// answer is closed, so its unanswered calls are missing, not pending.
	Closed bool
	// MaxBatch bounds one batch line, in bytes (DefaultMaxBatch for 0).
	MaxBatch int
}

// TranscriptReport is what a person should know of an import besides
// its batches.
type TranscriptReport struct {
	// Format is the format read (a name of Formats).
	Format string
	// Batches and Elements count what was written and what was read.
	Batches, Elements int
	// Notes are things a person should know: what was skipped, how ids
	// were paired.
	Notes []string
	// Problems are errors in the input that did not stop the import, each
	// at its place: an empty or repeated id, a broken line. The batches
	// leave out what they name.
	Problems     []*Error
	MoreProblems int
	// Cut says where the input ended in the middle of a value; what came
	// before was read.
	Cut *Error
}

// ReadTranscript reads a transcript from r as a stream and hands each
// audit batch to emit as soon as it is complete: one element (a message,
// an item, a line) is held at a time, and the ids still waiting for an
// answer. name is the input's name in errors.
func ReadTranscript(name string, r io.Reader, o TranscriptOptions, emit func(Batch) error) (TranscriptReport, error) {
	ru := &run{name: name, o: o, emitFn: emit}
	d := &dispatcher{r: ru, set: anyFormat}
	if o.Format != "" {
		f, ok := FormatByName(o.Format)
		if !ok {
			return TranscriptReport{}, fmt.Errorf("--format %q: want one of %s", o.Format, strings.Join(Formats, ", "))
		}
		d.forced = f
		d.decide(f)
	}
	sc := newScanner(name, r, MaxTranscript)
	if br, ok := r.(*bytes.Reader); ok && br.Len() < scanBuffer {
		sc.buf = make([]byte, br.Len()+1) // a small input held already: a small buffer
	}
	src := &source{name: name, run: ru, sc: sc, out: d}
	err := src.walk()
	rep := TranscriptReport{Elements: d.elements, Cut: ru.cut}
	if err == nil && src.records == 0 {
		err = &Error{Name: name, Msg: "empty: no JSON value"}
		switch {
		case ru.cut != nil:
			err = ru.cut
		case len(ru.problems) > 0:
			err = ru.problems[0]
		}
		if src.text.n > 0 {
			err = &Error{Name: name, Line: 1, Column: 1, Msg: fmt.Sprintf("not JSON: %d %s of text and no JSON value (%s)",
				src.text.n, plural(src.text.n, "line", "lines"), strings.Join(src.text.first, "; "))}
		}
	}
	ru.document = src.lineElements == 0 && ru.cut == nil
	if err == nil {
		err = d.finish()
	}
	rep.Format, rep.Batches = d.format, ru.batches
	if err != nil {
		return rep, err
	}
	// What the source skipped.
	if src.text.n > 0 {
		ru.note("text", "%d %s not JSON skipped (%s)", src.text.n, plural(src.text.n, "line that is", "lines that are"), strings.Join(src.text.first, "; "))
	}
	if len(src.logErrors) > 0 {
		ru.note("log-errors", "the log reports: %s", strings.Join(src.logErrors, "; "))
	}
	if ru.cut != nil {
		ru.problem(ru.cut)
	}
	if ru.seen.forgot {
		ru.note("forgot", "more than %d ids: the oldest were forgotten, so an id repeated far apart may not be found", MaxRemembered)
	}
	rep.Notes, rep.Problems, rep.MoreProblems = ru.notes, ru.problems, ru.moreProblems
	return rep, nil
}

// reader reads one format's elements into batches.
type reader interface {
	element(e *element) error
	wrapperStart(w *wrapper) error
	wrapperEnd(w *wrapper) error
	end() error
}

// dispatcher tells the format from the elements and hands them to that
// format's reader. Until the format is known the elements are kept (none
// of them has a tool call: a tool call tells the format).
type dispatcher struct {
	r        *run
	forced   string
	set      fset
	format   string
	rd       reader
	pending  []pendingEvent
	kept     int
	dropped  int
	elements int
	known    int // elements that told something of the format
	first    string
}

type pendingEvent struct {
	e *element
	w *wrapper
	// start: a body starts (w), or ends (!start, w); an element (e).
	start bool
}

const (
	maxPendingBytes = 8 << 20
	maxPending      = 1 << 14
)

func (d *dispatcher) decide(f string) {
	d.format = f
	switch f {
	case FormatAnthropic:
		d.rd = newAnthropicReader(d.r, f)
	case FormatBedrock:
		d.rd = newAnthropicReader(d.r, f)
	case FormatClaudeCode:
		d.rd = newClaudeCodeReader(d.r)
	case FormatOpenAI, FormatCodex:
		d.rd = newResponsesReader(d.r, f == FormatCodex)
	case FormatOpenAIChat:
		d.rd = newChatReader(d.r, false)
	case FormatLangChain:
		d.rd = newChatReader(d.r, true)
	case FormatMCP:
		d.rd = newMCPReader(d.r)
	case FormatGemini:
		d.rd = newGeminiReader(d.r)
	case FormatVercel:
		d.rd = newVercelReader(d.r)
	}
}

func (d *dispatcher) element(e *element) error {
	d.elements++
	if d.rd != nil && d.forced == "" {
		if foreignMarker(e.raw, d.format) {
			// A tool call of another format would be dropped unseen.
			if v := classify(e.raw, e); v.set != 0 && v.set != anyFormat && !v.set.has(d.format) {
				return e.errorf(d.r.name, 0, "", "this is %s, but the transcript reads as %s (from %s): one transcript has one format",
					v.what, short(d.format), d.first)
			}
		}
		return d.rd.element(e)
	}
	v := classify(e.raw, e)
	if v.refuse != "" {
		return e.errorf(d.r.name, 0, "", "%s: this is %s, which toolgate does not read; it reads %s", v.what, v.refuse, readable())
	}
	if d.forced != "" {
		if v.set != 0 && v.set != anyFormat && !v.set.has(d.forced) {
			msg := fmt.Sprintf("with --format %s: this is %s, not %s", d.forced, v.what, short(d.forced))
			if f, ok := v.set.single(); ok {
				msg += fmt.Sprintf("; --format %s reads it (or leave --format out)", f)
			}
			return e.errorf(d.r.name, 0, "", "%s", msg)
		}
		return d.rd.element(e)
	}
	if v.set == 0 {
		v.set = anyFormat // tells nothing; the reader will say what it makes of it
	} else {
		d.known++
	}
	next := d.set & v.set
	if next == 0 {
		return e.errorf(d.r.name, 0, "", "this is %s, but what came before (%s) reads as %s: one transcript has one format",
			v.what, d.first, orList(d.set))
	}
	if d.first == "" && v.set != anyFormat {
		d.first = e.place() + ", " + v.what
	}
	d.set = next
	d.keep(pendingEvent{e: &element{raw: bytes.Clone(e.raw), line: e.line, col: e.col, key: e.key, index: e.index, tag: e.tag, wrap: e.wrap}})
	if f, ok := d.set.single(); ok && d.known > 0 {
		return d.replay(f)
	}
	return nil
}

func (d *dispatcher) keep(ev pendingEvent) {
	d.pending = append(d.pending, ev)
	if ev.e != nil {
		d.kept += len(ev.e.raw)
	}
	if d.kept <= maxPendingBytes && len(d.pending) <= maxPending {
		return
	}
	// Drop the older half of the elements at once (the bodies' starts
	// and ends stay): none of them has a tool call, or the format would
	// be known.
	elems := 0
	for _, p := range d.pending {
		if p.e != nil {
			elems++
		}
	}
	drop := elems / 2
	kept := d.pending[:0]
	d.kept = 0
	for _, p := range d.pending {
		if p.e != nil && drop > 0 {
			drop--
			d.dropped++
			continue
		}
		if p.e != nil {
			d.kept += len(p.e.raw)
		}
		kept = append(kept, p)
	}
	clear(d.pending[len(kept):])
	d.pending = kept
}

// replay hands what was kept to the reader of format f.
func (d *dispatcher) replay(f string) error {
	d.decide(f)
	if d.dropped > 0 {
		d.r.note("dropped", "%d elements before the first that told the format were not kept (there is no tool call in them)", d.dropped)
	}
	for _, ev := range d.pending {
		var err error
		switch {
		case ev.e != nil:
			err = d.rd.element(ev.e)
		case ev.start:
			err = d.rd.wrapperStart(ev.w)
		default:
			err = d.rd.wrapperEnd(ev.w)
		}
		if err != nil {
			return err
		}
	}
	d.pending = nil
	return nil
}

func (d *dispatcher) wrapperStart(w *wrapper) error {
	if d.rd != nil {
		return d.rd.wrapperStart(w)
	}
	if next := d.set & keyFormats(w.key); next != 0 {
		d.set = next
	}
	d.keep(pendingEvent{w: w, start: true})
	if f, ok := d.set.single(); ok && w.textInput {
		return d.replay(f)
	}
	return nil
}

func (d *dispatcher) wrapperEnd(w *wrapper) error {
	if d.rd != nil {
		return d.rd.wrapperEnd(w)
	}
	d.keep(pendingEvent{w: w})
	return nil
}

func (d *dispatcher) finish() error {
	if d.rd == nil {
		if d.known == 0 {
			what := "no tool calls found, and the format cannot be told"
			if d.elements == 0 {
				what = "no messages or items found, and the format cannot be told"
			}
			return &Error{Name: d.r.name, Msg: what + ": toolgate reads " + readable() + "; --format says which"}
		}
		f := d.set.list()[0]
		if len(d.set.list()) > 1 {
			d.r.note("undecided", "no tool call in %d %s: they read as %s alike (read as %s; --format says which)",
				d.elements, plural(d.elements, "element", "elements"), orList(d.set), short(f))
		}
		if err := d.replay(f); err != nil {
			return err
		}
	}
	return d.rd.end()
}

// short names a format briefly.
func short(f string) string {
	name := FormatNames[f]
	if i := strings.Index(name, " ("); i > 0 {
		return name[:i]
	}
	return name
}

func orList(s fset) string {
	var names []string
	for _, f := range s.list() {
		names = append(names, short(f))
	}
	switch len(names) {
	case 0:
		return "nothing"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// readable lists what toolgate reads, for a refusal.
func readable() string {
	return strings.Join(Formats, ", ") + " (toolgate import transcript --help says each)"
}

// BatchLine is one batch as `toolgate audit` reads it, with its newline.
func BatchLine(in assess.AuditInput) []byte {
	b, _ := json.Marshal(in, json.Deterministic(true))
	return append(b, '\n')
}

// foreign are the tool-call markers of other formats, by format: an
// element of the decided format holding one is looked at closely.
var foreign = map[string][]string{
	FormatAnthropic:  {`"tool_calls"`, `"tool_call_id"`, `"tool-call"`, `"tool-result"`, `"toolUse"`, `"function_call"`, `"functionCall"`, `"call_id"`},
	FormatOpenAIChat: {`"tool_use"`, `"tool_result"`, `"tool-call"`, `"tool-result"`, `"toolUse"`, `"function_call"`, `"functionCall"`, `"call_id"`},
	FormatOpenAI:     {`"tool_use"`, `"tool_result"`, `"tool_calls"`, `"tool_call_id"`, `"tool-call"`, `"tool-result"`, `"toolUse"`, `"functionCall"`},
	FormatGemini:     {`"tool_use"`, `"tool_result"`, `"tool_calls"`, `"tool-call"`, `"toolUse"`, `"call_id"`},
	FormatVercel:     {`"tool_use"`, `"tool_result"`, `"tool_calls"`, `"tool_call_id"`, `"toolUse"`, `"functionCall"`, `"call_id"`},
	FormatBedrock:    {`"tool_use"`, `"tool_result"`, `"tool_calls"`, `"tool_call_id"`, `"tool-call"`, `"functionCall"`, `"call_id"`},
	FormatLangChain:  {`"tool_use"`, `"tool_result"`, `"tool-call"`, `"toolUse"`, `"functionCall"`, `"call_id"`},
}

// foreignMarker says whether raw holds a marker of foreign[format]: one
// pass for the markers that start with "tool, one for "function and one
// for "call_id".
func foreignMarker(raw []byte, format string) bool {
	markers := foreign[format]
	if len(markers) == 0 {
		return false
	}
	for _, anchor := range [...]string{`"tool`, `"function`, `"call_id"`} {
		for rest := raw; ; {
			i := bytes.Index(rest, []byte(anchor))
			if i < 0 {
				break
			}
			for _, m := range markers {
				if bytes.HasPrefix(rest[i:], []byte(m)) {
					return true
				}
			}
			rest = rest[i+1:]
		}
	}
	return false
}
