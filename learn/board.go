package learn

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/go-json-experiment/json"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/gatecheck"
	"toolgate/scenarios"
	"toolgate/vectors"
	"toolgate/walk"
)

// NumStages is the number of stages: rules 1 to 8, then the input check.
const NumStages = assess.NumRules + 1

// InputStage is the number of the last stage, toolgate's input check.
const InputStage = NumStages

// State is where the learner stands after a run.
type State uint8

// The states of a board.
const (
	// StateBroken: the gate could not run, or stopped answering; Problem
	// says why.
	StateBroken State = iota + 1
	// StateRed: the gate ran and decided nothing yet — the seed's red
	// step.
	StateRed
	// StateFailing: some decision vector fails.
	StateFailing
	// StateGreen: every decision vector agrees with the book.
	StateGreen
)

// Stage is one line of the board: the vectors one rule decides, or the
// inputs the input check refuses.
type Stage struct {
	// Number is the rule (1 to 8), or InputStage.
	Number       int
	Agree, Total int
	// Locked: a stage after the current one; it opens when the ones
	// before it pass.
	Locked bool
}

// Failing is how many of the stage's vectors fail.
func (s Stage) Failing() int { return s.Total - s.Agree }

// Failure is the first failing vector of the current stage, with what the
// gate said and toolgate's own walk of its input.
type Failure struct {
	Stage  int
	Vector vectors.Vector
	// Nth is the failure's place among the stage's failures (from 1), Of
	// their number.
	Nth, Of int
	// Got is the gate's line, escaped and clipped.
	Got   string
	Diffs []string
	// GateRule is the rule the gate's code belongs to; 0 when its answer
	// names no code of the book (an error, no verdict, a made-up code).
	GateRule int
	// GateError is the gate's {"error": …} message, when it answered one.
	GateError string
	// Input is the vector's input as the decision sees it, with its
	// verdict and trace; for the input stage, Refusal is toolgate's
	// message instead.
	Input   assess.Input
	Verdict assess.Verdict
	Trace   assess.Trace
	Refusal string
	Reason  string
}

// Problem is why the gate did not run over every vector.
type Problem struct {
	// Missing lists programs that are not on PATH.
	Missing []string
	// Build: the build step failed.
	Build bool
	// Message is what happened, in toolgate's words.
	Message string
	// Where is the learner's file and line the toolchain names, e.g.
	// "assess.mjs:24"; Error the toolchain's message there.
	Where, Error string
	// Output is what the toolchain or the gate printed, escaped.
	Output string
	// NoModule: the decision's module is not there — the seed's red step
	// itself (ERR_MODULE_NOT_FOUND).
	NoModule bool
	// At is the vector the gate stopped at, when it answered some.
	At *vectors.Vector
}

// Board is a run as the learner sees it.
type Board struct {
	Lang  Lang
	Dir   string
	State State
	// Stages are rules 1 to 8, then the input check.
	Stages [NumStages]Stage
	// Current is the stage being worked on: the first rule with a failing
	// vector; InputStage once every rule passes and the input check does
	// not; 0 when all pass, or nothing ran.
	Current int
	First   *Failure
	Problem *Problem
	// Notes are gatecheck's notes on the run (the gate's exit status).
	Notes []string
	// Stderr is the start of what the gate printed on stderr in a run
	// that finished — the learner's own prints — escaped.
	Stderr string
	Took   time.Duration
}

// Decision counts the decision vectors that agree, of all of them.
func (b Board) Decision() (agree, total int) {
	for _, s := range b.Stages[:assess.NumRules] {
		agree += s.Agree
		total += s.Total
	}
	return agree, total
}

// Rules is how many rules, from rule 1 in order, pass every vector.
func (b Board) Rules() int {
	if b.State != StateFailing && b.State != StateGreen {
		return 0
	}
	n := 0
	for _, s := range b.Stages[:assess.NumRules] {
		if s.Failing() > 0 {
			break
		}
		n++
	}
	return n
}

// StageOf is the stage a vector belongs to: the rule that decides its
// input, or InputStage for an input the input check refuses.
func StageOf(v vectors.Vector) int {
	exp := vectors.Expected(scenarios.TrackAdmission, v.Input)
	if exp.Refused || exp.Verdict == nil {
		return InputStage
	}
	return int(exp.Verdict.Code.Rule())
}

// noVerdict starts the error every starter's harness writes while the
// decision returns nothing.
const noVerdict = "no verdict"

// NewBoard makes the board of a run.
func NewBoard(o Outcome) Board {
	b := Board{Lang: o.Lang, Dir: o.Dir, Took: o.Took}
	stages := make([]int, len(o.Vectors))
	for i, v := range o.Vectors {
		stages[i] = StageOf(v)
		b.Stages[stages[i]-1].Total++
	}
	for i := range b.Stages {
		b.Stages[i].Number = i + 1
	}
	if o.Report == nil {
		b.State, b.Problem = StateBroken, problem(o)
		for i := range b.Stages {
			b.Stages[i].Locked = true
		}
		return b
	}
	b.Notes = o.Report.Notes
	b.Stderr = gatecheck.Sanitize([]byte(o.Report.Stderr))
	empty, decisions := 0, 0
	for i, a := range o.Report.Answers {
		st := stages[i]
		if a.Agree() {
			b.Stages[st-1].Agree++
		}
		if st != InputStage {
			decisions++
			if gateErr(a.Line) != "" && strings.HasPrefix(gateErr(a.Line), noVerdict) {
				empty++
			}
		}
	}
	b.Current = 0
	for _, s := range b.Stages {
		if s.Failing() > 0 {
			b.Current = s.Number
			break
		}
	}
	switch {
	case decisions > 0 && empty == decisions:
		b.State = StateRed
	case b.Current == 0 || b.Current == InputStage:
		b.State = StateGreen
	default:
		b.State = StateFailing
	}
	for i := range b.Stages {
		b.Stages[i].Locked = b.Current != 0 && b.Stages[i].Number > b.Current
	}
	if b.Current != 0 {
		b.First = firstFailure(o, stages, b.Current, b.Stages[b.Current-1].Failing())
	}
	return b
}

func firstFailure(o Outcome, stages []int, stage, of int) *Failure {
	for i, a := range o.Report.Answers {
		if stages[i] != stage || a.Agree() {
			continue
		}
		f := &Failure{Stage: stage, Vector: a.Vector, Nth: 1, Of: of, Diffs: a.Diffs,
			Got: gatecheck.Sanitize(clip(a.Line, 2000)), GateError: gatecheck.Sanitize([]byte(clipString(gateErr(a.Line), 400)))}
		f.GateRule = gateRule(a.Line)
		exp := vectors.Expected(scenarios.TrackAdmission, a.Vector.Input)
		if exp.Refused {
			f.Refusal, f.Reason = exp.Error, exp.Reason
			return f
		}
		in, err := decode.Input(a.Vector.Input)
		if err != nil {
			f.Refusal = err.Error()
			return f
		}
		f.Input = in
		f.Verdict, f.Trace = assess.Explain(&in)
		return f
	}
	return nil
}

// Walk is toolgate's own walk of the failure's input, in a language.
func (f *Failure) Walk(l assess.Lang) walk.Walk {
	return walk.Of(scenarios.Scenario{Case: scenarios.AdmissionCase{Input: f.Input}}, l)
}

// Expected is the answer expected, as a line.
func (f *Failure) Expected() string { return string(f.Vector.Expect) }

// gateErr is the "error" member of a gate's answer, "" without one.
func gateErr(line []byte) string {
	var a struct {
		Error any `json:"error"`
	}
	if json.Unmarshal(line, &a) != nil || a.Error == nil {
		return ""
	}
	if s, ok := a.Error.(string); ok {
		return s
	}
	return fmt.Sprint(a.Error)
}

// gateRule is the rule the code of a gate's answer belongs to, 0 when it
// names none of the book's codes.
func gateRule(line []byte) int {
	var a struct {
		Code string `json:"code"`
	}
	if json.Unmarshal(line, &a) != nil {
		return 0
	}
	c, _, err := assess.ParseCode(a.Code)
	if err != nil {
		return 0
	}
	return int(c.Rule())
}

// problem is why a run has no report, located in the learner's files.
func problem(o Outcome) *Problem {
	p := &Problem{}
	switch {
	case len(o.Missing) > 0:
		p.Missing = o.Missing
		return p
	case o.Build != nil:
		p.Build = true
		p.Message = o.Build.Command + ": " + o.Build.Status
		p.Output = o.Build.Output
	case o.Gate != nil:
		p.Message = o.Gate.Msg
		p.Output = gatecheck.Sanitize([]byte(o.Gate.Stderr))
		if o.Gate.Answered < len(o.Vectors) && o.Gate.Answered > 0 {
			v := o.Vectors[o.Gate.Answered]
			p.At = &v
		}
	}
	p.Where, p.Error = Locate(p.Output, o.Dir)
	p.NoModule = strings.Contains(p.Output, "ERR_MODULE_NOT_FOUND") || strings.Contains(p.Output, "ModuleNotFoundError")
	return p
}

var (
	// compilers: "./assess.go:20:1: syntax error: …", "Assess.java:31: error: ')' expected".
	reCompiler = regexp.MustCompile(`(?m)^(?:\./)?([^\s:]+\.(?:go|java|mjs|js|py)):(\d+)(?::(\d+))?: (?:error: )?(.+)$`)
	// Python: `File "/x/assess.py", line 25`.
	rePython = regexp.MustCompile(`File "([^"]+)", line (\d+)`)
	// Node: "file:///x/assess.mjs:24", a stack's "(/x/assess.mjs:24:5)",
	// Java's "(Assess.java:31)".
	reFileURL = regexp.MustCompile(`(?:file://)?(/[^\s:()]+\.(?:mjs|js|cjs|py|java)):(\d+)(?::(\d+))?|\(([\w.-]+\.(?:java|mjs|js|py)):(\d+)\)`)
	// An error's own line: "SyntaxError: Unexpected token '{'".
	reErrorLine = regexp.MustCompile(`(?m)^\s*((?:[\w.]*(?:Error|Exception)\b(?: \[\w+\])?|Exception in thread .*|error|panic): .*)$`)
)

// Locate finds, in what a toolchain printed, the place in the learner's
// files it names ("assess.mjs:24", relative to dir) and its message
// there.
func Locate(output, dir string) (where, message string) {
	rel := func(p string) string {
		if dir != "" {
			if abs, err := filepath.Abs(dir); err == nil {
				if r, err := filepath.Rel(abs, p); err == nil && !strings.HasPrefix(r, "..") {
					return r
				}
			}
		}
		return filepath.Base(p)
	}
	if m := reCompiler.FindStringSubmatch(output); m != nil {
		where = rel(m[1]) + ":" + m[2]
		if m[3] != "" {
			where += ":" + m[3]
		}
		return where, strings.TrimSpace(m[4])
	}
	if ms := rePython.FindAllStringSubmatch(output, -1); ms != nil {
		m := ms[len(ms)-1]
		where = rel(m[1]) + ":" + m[2]
	} else if m := reFileURL.FindStringSubmatch(output); m != nil {
		if m[1] != "" {
			where = rel(m[1]) + ":" + m[2]
			if m[3] != "" {
				where += ":" + m[3]
			}
		} else {
			where = m[4] + ":" + m[5]
		}
	}
	if ms := reErrorLine.FindAllStringSubmatch(output, -1); ms != nil {
		pick := ms[0]
		if rePython.MatchString(output) {
			pick = ms[len(ms)-1] // Python's message ends its traceback
		}
		message = strings.TrimSpace(pick[1])
	}
	return where, message
}

func clip(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	return append(append([]byte(nil), b[:n]...), "…"...)
}

func clipString(s string, n int) string { return string(clip([]byte(s), n)) }

// StageKey names a stage in the progress: "rule 1" … "rule 8", "input".
func StageKey(n int) string {
	if n == InputStage {
		return "input"
	}
	return fmt.Sprintf("rule %d", n)
}
