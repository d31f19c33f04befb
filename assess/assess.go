package assess

import (
	"strconv"
	"strings"
)

// Step is one rule's evaluation in a walk of the decision order.
type Step struct {
	Rule    Rule    `json:"rule"`
	Outcome Outcome `json:"outcome"`
	// Note is the language-neutral explanation built from the input's
	// values; render it with Explanation.
	Note Note `json:"-"`
	// Reads are the input paths the rule looked at, such as
	// "request.tool.version" or "invocationRecord" (for an absent record).
	Reads []string `json:"reads"`
}

// Trace is the walk of the decision order: one step per rule, in order.
// Every step before the fired one passed; every step after it was not reached.
type Trace []Step

// Fired is the step whose rule decided the verdict.
func (t Trace) Fired() Step {
	for _, s := range t {
		if s.Outcome == Fired {
			return s
		}
	}
	return Step{}
}

// Assess decides whether the invocation may go ahead. It is the fast path:
// it builds no trace.
func Assess(in *Input) Verdict {
	v, _ := walk(in, false)
	return v
}

// Explain decides like Assess and also returns the trace of the walk.
func Explain(in *Input) (Verdict, Trace) {
	return walk(in, true)
}

// evaluation carries what one walk has learned so far. explain says whether
// notes and read paths are wanted; without it nothing but the verdict
// allocates.
type evaluation struct {
	in      *Input
	explain bool
	tool    *Tool
	toolIdx int
}

// result is one rule's answer: fired with a code, or passed.
type result struct {
	fired bool
	code  Code
	note  Note
	reads []string
	// missing is set with CodeInvalidArguments.
	missing []string
}

func walk(in *Input, explain bool) (Verdict, Trace) {
	e := evaluation{in: in, explain: explain}
	rules := [NumRules]func() result{
		e.toolInContract, e.correlation, e.arguments, e.environment,
		e.timeout, e.verification, e.approval, e.allow,
	}
	var trace Trace
	if explain {
		trace = make(Trace, 0, NumRules)
	}
	for i, rule := range rules {
		r := rule()
		if explain {
			step := Step{Rule: Rule(i + 1), Outcome: Passed, Note: r.note, Reads: r.reads}
			if r.fired {
				step.Outcome = Fired
			}
			trace = append(trace, step)
		}
		if !r.fired {
			continue
		}
		if explain {
			for j := i + 1; j < NumRules; j++ {
				trace = append(trace, Step{Rule: Rule(j + 1), Outcome: NotReached,
					Note: Note{Key: NoteNotReached, Args: [4]string{strconv.Itoa(i + 1)}}})
			}
		}
		v := Verdict{Status: r.code.Status(), Code: r.code, CorrelationID: in.Request.CorrelationID}
		switch r.code {
		case CodeInvalidArguments:
			v.MissingArguments = r.missing
		case CodeTimedOutWithoutReadback:
			v.EffectStatus = "unknown"
		}
		return v, trace
	}
	panic("unreachable: rule 8 always fires")
}

// note and paths copy their arguments only when explaining, so that the
// fast path allocates nothing for them.
func (e *evaluation) note(key NoteKey, args ...string) Note {
	if !e.explain {
		return Note{}
	}
	n := Note{Key: key}
	copy(n.Args[:], args)
	return n
}

// toolEntry stands for the looked-up tool's index in a path given to paths.
const toolEntry = "contract.tools[#]."

func (e *evaluation) paths(p ...string) []string {
	if !e.explain {
		return nil
	}
	out := make([]string, len(p))
	for i, s := range p {
		if strings.HasPrefix(s, toolEntry) {
			s = "contract.tools[" + strconv.Itoa(e.toolIdx) + "]." + s[len(toolEntry):]
		}
		out[i] = s
	}
	return out
}

// Rule 1: the contract must have the tool, at the requested version. It
// looks the tool up once; later rules use that entry.
func (e *evaluation) toolInContract() result {
	want := &e.in.Request.Tool
	tools := e.in.Contract.Tools
	named := false
	for i := range tools {
		if tools[i].Name != want.Name {
			continue
		}
		named = true
		if tools[i].Version == want.Version {
			e.tool, e.toolIdx = &tools[i], i
			return result{
				note:  e.note(NoteToolFound, want.Name, want.Version),
				reads: e.paths("request.tool.name", "request.tool.version", toolEntry+"name", toolEntry+"version"),
			}
		}
	}
	reads := e.paths("request.tool.name", "request.tool.version", "contract.tools")
	if !named {
		r := result{fired: true, code: CodeUnknownTool, reads: reads}
		if e.explain {
			r.note = e.note(NoteToolUnknown, want.Name)
			r.note.List = toolNames(tools)
		}
		return r
	}
	r := result{fired: true, code: CodeToolVersionMismatch, reads: reads}
	if e.explain {
		var have []string
		for i := range tools {
			if tools[i].Name == want.Name {
				have = append(have, strconv.Quote(tools[i].Version))
			}
		}
		r.note = e.note(NoteToolVersionMismatch, want.Name, want.Version)
		r.note.List = have
	}
	return r
}

func toolNames(tools []Tool) []string {
	names := make([]string, 0, len(tools))
	for i := range tools {
		names = append(names, tools[i].Name+" "+strconv.Quote(tools[i].Version))
	}
	return names
}

// Rule 2: a record of an earlier attempt must be about this very request.
func (e *evaluation) correlation() result {
	rec := e.in.InvocationRecord
	if rec == nil {
		return result{note: e.note(NoteNoRecord), reads: e.paths("invocationRecord")}
	}
	reads := e.paths("request.correlationId", "invocationRecord.correlationId")
	if rec.CorrelationID != e.in.Request.CorrelationID {
		return result{fired: true, code: CodeCorrelationConflict, reads: reads,
			note: e.note(NoteCorrelationConflict, rec.CorrelationID, e.in.Request.CorrelationID)}
	}
	return result{note: e.note(NoteCorrelationMatches, rec.CorrelationID), reads: reads}
}

// Rule 3: every required argument must be a non-empty string.
func (e *evaluation) arguments() result {
	required := e.tool.RequiredArguments
	if len(required) == 0 {
		return result{note: e.note(NoteNoRequiredArguments, e.tool.Name), reads: e.paths(toolEntry + "requiredArguments")}
	}
	var missing []string
	var items []Item
	var reads []string
	if e.explain {
		reads = append(reads, toolEntry+"requiredArguments")
	}
	for i, name := range required {
		if e.explain {
			reads = append(reads, "request.arguments."+name)
		}
		problem := argumentProblem(e.in.Request.Arguments, name)
		if problem == "" || contains(required[:i], name) {
			continue
		}
		missing = append(missing, name)
		if e.explain {
			items = append(items, Item{Name: name, Why: problem})
		}
	}
	if missing != nil {
		r := result{fired: true, code: CodeInvalidArguments, missing: missing, reads: reads, note: e.note(NoteArgumentsMissing)}
		r.note.Items = items
		return r
	}
	r := result{reads: reads, note: e.note(NoteArgumentsPresent)}
	if e.explain {
		r.note.List = append([]string(nil), required...)
	}
	return r
}

// argumentProblem says why an argument is unusable, or "" when it is a
// non-empty string. The reason is a Why* constant.
func argumentProblem(args map[string]any, name string) string {
	v, ok := args[name]
	if !ok {
		return WhyAbsent
	}
	switch v := v.(type) {
	case string:
		if v == "" {
			return WhyEmpty
		}
		return ""
	case nil:
		return WhyNull
	case float64, int, int64:
		return WhyNumber
	case bool:
		return WhyBool
	case []any:
		return WhyArray
	case map[string]any:
		return WhyObject
	}
	return WhyNotString
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Rule 4: the environment snapshot must say ready; no snapshot is not ready.
func (e *evaluation) environment() result {
	env := e.in.Environment
	if env == nil {
		return result{fired: true, code: CodeEnvironmentNotReady, note: e.note(NoteEnvironmentAbsent), reads: e.paths("environment")}
	}
	reads := e.paths("environment.status")
	if env.Status != "ready" {
		return result{fired: true, code: CodeEnvironmentNotReady, note: e.note(NoteEnvironmentNotReady, env.Status), reads: reads}
	}
	return result{note: e.note(NoteEnvironmentReady), reads: reads}
}

// Rule 5: a timed-out attempt whose effect was never read back blocks a retry.
func (e *evaluation) timeout() result {
	rec := e.in.InvocationRecord
	if rec == nil {
		return result{note: e.note(NoteNoRecordNoTimeout), reads: e.paths("invocationRecord")}
	}
	if rec.Status != "timed_out" {
		return result{note: e.note(NoteRecordNotTimedOut, rec.Status), reads: e.paths("invocationRecord.status")}
	}
	reads := e.paths("invocationRecord.status", "invocationRecord.effectStatus")
	switch rec.EffectStatus {
	case "":
		return result{fired: true, code: CodeTimedOutWithoutReadback, reads: reads, note: e.note(NoteTimedOutNoEffect)}
	case "unknown":
		return result{fired: true, code: CodeTimedOutWithoutReadback, reads: reads, note: e.note(NoteTimedOutUnknown)}
	}
	return result{note: e.note(NoteTimedOutReadBack, rec.EffectStatus), reads: reads}
}

// Rule 6: a success is only evidence once its verification was accepted.
func (e *evaluation) verification() result {
	rec := e.in.InvocationRecord
	if rec == nil {
		return result{note: e.note(NoteNoRecordNoSuccess), reads: e.paths("invocationRecord")}
	}
	if rec.Status != "succeeded" {
		return result{note: e.note(NoteRecordNotSucceeded, rec.Status), reads: e.paths("invocationRecord.status")}
	}
	reads := e.paths("invocationRecord.status", "invocationRecord.verificationStatus")
	switch rec.VerificationStatus {
	case "accepted":
	case "":
		return result{fired: true, code: CodeToolResultNotVerified, reads: reads, note: e.note(NoteSucceededNoVerification)}
	default:
		return result{fired: true, code: CodeToolResultNotVerified, reads: reads,
			note: e.note(NoteSucceededUnverified, rec.VerificationStatus)}
	}
	return result{note: e.note(NoteSucceededAccepted), reads: reads}
}

// Rule 7: a write-class tool needs an active approval for its scope.
func (e *evaluation) approval() result {
	t := e.tool
	if !t.IsWrite() {
		return result{note: e.note(NoteReadOnly, t.Name), reads: e.paths(toolEntry + "effectClass")}
	}
	class := t.EffectClass
	failClosed := t.EffectClass != ReversibleWrite && t.EffectClass != IrreversibleWrite
	a := e.in.Approval
	if a == nil {
		return result{fired: true, code: CodeApprovalMissing, reads: e.paths(toolEntry+"effectClass", "approval"),
			note: e.classNote(NoteApprovalMissing, failClosed, t.Name, class)}
	}
	if a.Status != "active" {
		return result{fired: true, code: CodeApprovalNotActive, reads: e.paths(toolEntry+"effectClass", "approval.status"),
			note: e.classNote(NoteApprovalNotActive, failClosed, t.Name, class, a.Status)}
	}
	reads := e.paths(toolEntry+"effectClass", "approval.status", "approval.scope", toolEntry+"approvalScope")
	if a.Scope != t.Scope() {
		return result{fired: true, code: CodeApprovalScopeMismatch, reads: reads,
			note: e.classNote(NoteApprovalScopeMismatch, failClosed, t.Name, class, a.Scope, t.Scope())}
	}
	return result{note: e.classNote(NoteApprovalActive, failClosed, t.Name, class, a.Scope), reads: reads}
}

func (e *evaluation) classNote(key NoteKey, failClosed bool, args ...string) Note {
	n := e.note(key, args...)
	n.FailClosed = failClosed && e.explain
	return n
}

// Rule 8: nothing above fired, so the call is admitted.
func (e *evaluation) allow() result {
	return result{fired: true, code: CodeAdmissionAllowed, note: e.note(NoteAdmitted)}
}
