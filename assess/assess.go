package assess

import (
	"slices"
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
	e := evaluation{in: in}
	return e.decide()
}

// AssessAppend decides like Assess; rule 3's list of missing arguments
// is appended to missing[:0], so that a caller deciding many inputs
// allocates nothing: it hands back each verdict's MissingArguments when
// it is not nil (it shares missing's array, or a larger one).
func AssessAppend(in *Input, missing []string) Verdict {
	e := evaluation{in: in, missing: missing[:0]}
	return e.decide()
}

// Explain decides like Assess and also returns the trace of the walk.
func Explain(in *Input) (Verdict, Trace) {
	return walk(in, true, nil)
}

// evaluation carries what one walk has learned so far. explain says whether
// notes and read paths are wanted; without it nothing but the verdict
// allocates.
type evaluation struct {
	in      *Input
	explain bool
	tool    *Tool
	toolIdx int
	// missing is set by rule 3 when it fires.
	missing []string
	// ex is the last rule's explanation, there only when explaining: the
	// fast path then has a small evaluation to set up (the Note in it
	// cost a fifth of Assess).
	ex *explanation
}

// explanation is a rule's note and the input paths it read.
type explanation struct {
	note  Note
	reads []string
}

// result is one rule's answer: fired with a code, or passed.
type result struct {
	fired bool
	code  Code
}

// decide asks the rules in order, as walk does, without the trace: the
// verdict-only path, with nothing to set up for the steps.
func (e *evaluation) decide() Verdict {
	for r := RuleToolInContract; ; r++ {
		if res := e.rule(r); res.fired {
			return e.verdict(res.code)
		}
	}
}

// verdict is the verdict of the rule that fired with code.
func (e *evaluation) verdict(code Code) Verdict {
	v := Verdict{Status: code.Status(), Code: code, CorrelationID: e.in.Request.CorrelationID}
	switch code {
	case CodeInvalidArguments:
		v.MissingArguments = e.missing
	case CodeTimedOutWithoutReadback:
		v.EffectStatus = "unknown"
	}
	return v
}

func walk(in *Input, explain bool, missing []string) (Verdict, Trace) {
	e := evaluation{in: in, explain: explain, missing: missing}
	var trace Trace
	if explain {
		trace = make(Trace, 0, NumRules)
		e.ex = &explanation{}
	}
	for i := range NumRules {
		r := e.rule(Rule(i + 1))
		if explain {
			step := Step{Rule: Rule(i + 1), Outcome: Passed, Note: e.ex.note, Reads: e.ex.reads}
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
		return e.verdict(r.code), trace
	}
	panic("unreachable: rule 8 always fires")
}

// rule asks one rule of the input.
func (e *evaluation) rule(r Rule) result {
	switch r {
	case RuleToolInContract:
		return e.toolInContract()
	case RuleCorrelation:
		return e.correlation()
	case RuleArguments:
		return e.arguments()
	case RuleEnvironment:
		return e.environment()
	case RuleTimeout:
		return e.timeout()
	case RuleVerification:
		return e.verification()
	case RuleApproval:
		return e.approval()
	}
	return e.allow()
}

// explainAs records the rule's explanation and the paths it read; it
// copies its arguments only when explaining, so that the fast path
// allocates nothing for them.
func (e *evaluation) explainAs(key NoteKey, reads []string, args ...string) {
	if !e.explain {
		return
	}
	e.ex.note = Note{Key: key}
	copy(e.ex.note.Args[:], args)
	e.ex.reads = e.paths(reads...)
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
// looks the tool up once; later rules use that entry. It reads exactly
// what it compares: the requested name against each tool's name up to the
// match, and the requested version against the versions of the tools with
// that name.
func (e *evaluation) toolInContract() result {
	want := &e.in.Request.Tool
	tools := e.in.Contract.Tools
	named := false
	var reads []string
	if e.explain {
		reads = []string{"request.tool.name"}
		if len(tools) == 0 {
			reads = append(reads, "contract.tools")
		}
	}
	for i := range tools {
		if e.explain {
			reads = append(reads, "contract.tools["+strconv.Itoa(i)+"].name")
		}
		if tools[i].Name != want.Name {
			continue
		}
		if e.explain {
			if !named {
				reads = slices.Insert(reads, 1, "request.tool.version")
			}
			reads = append(reads, "contract.tools["+strconv.Itoa(i)+"].version")
		}
		named = true
		if tools[i].Version == want.Version {
			e.tool, e.toolIdx = &tools[i], i
			e.explainAs(NoteToolFound, reads, want.Name, want.Version)
			return result{}
		}
	}
	if !named {
		e.explainAs(NoteToolUnknown, reads, want.Name)
		if e.explain {
			e.ex.note.List = toolNames(tools)
		}
		return result{fired: true, code: CodeUnknownTool}
	}
	e.explainAs(NoteToolVersionMismatch, reads, want.Name, want.Version)
	if e.explain {
		for i := range tools {
			if tools[i].Name == want.Name {
				e.ex.note.List = append(e.ex.note.List, strconv.Quote(tools[i].Version))
			}
		}
	}
	return result{fired: true, code: CodeToolVersionMismatch}
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
		e.explainAs(NoteNoRecord, []string{"invocationRecord"})
		return result{}
	}
	reads := []string{"request.correlationId", "invocationRecord.correlationId"}
	if rec.CorrelationID != e.in.Request.CorrelationID {
		e.explainAs(NoteCorrelationConflict, reads, rec.CorrelationID, e.in.Request.CorrelationID)
		return result{fired: true, code: CodeCorrelationConflict}
	}
	e.explainAs(NoteCorrelationMatches, reads, rec.CorrelationID)
	return result{}
}

// Rule 3: every required argument must be a non-empty string.
func (e *evaluation) arguments() result {
	required := e.tool.RequiredArguments
	e.explainAs(NoteNoRequiredArguments, []string{toolEntry + "requiredArguments"}, e.tool.Name)
	if len(required) == 0 {
		return result{}
	}
	var items []Item
	for i, name := range required {
		if e.explain && !contains(required[:i], name) {
			e.ex.reads = append(e.ex.reads, "request.arguments."+name)
		}
		problem := argumentProblem(&e.in.Request, name)
		if problem == "" || contains(required[:i], name) {
			continue
		}
		e.missing = append(e.missing, name)
		if e.explain {
			items = append(items, Item{Name: name, Why: problem})
		}
	}
	if len(e.missing) > 0 {
		if e.explain {
			e.ex.note = Note{Key: NoteArgumentsMissing, Items: items}
		}
		return result{fired: true, code: CodeInvalidArguments}
	}
	if e.explain {
		e.ex.note = Note{Key: NoteArgumentsPresent, List: append([]string(nil), required...)}
	}
	return result{}
}

// argumentProblem says why an argument is unusable, or "" when it is a
// non-empty string. The reason is a Why* constant.
func argumentProblem(r *Request, name string) string {
	if r.Arguments == nil {
		for i := range r.Given {
			if r.Given[i].Name == name {
				return r.Given[i].Why
			}
		}
		return WhyAbsent
	}
	v, ok := r.Arguments[name]
	if !ok {
		return WhyAbsent
	}
	return WhyValue(v)
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
		e.explainAs(NoteEnvironmentAbsent, []string{"environment"})
		return result{fired: true, code: CodeEnvironmentNotReady}
	}
	reads := []string{"environment.status"}
	if env.Status != "ready" {
		e.explainAs(NoteEnvironmentNotReady, reads, env.Status)
		return result{fired: true, code: CodeEnvironmentNotReady}
	}
	e.explainAs(NoteEnvironmentReady, reads)
	return result{}
}

// Rule 5: a timed-out attempt whose effect was never read back blocks a retry.
func (e *evaluation) timeout() result {
	rec := e.in.InvocationRecord
	if rec == nil {
		e.explainAs(NoteNoRecordNoTimeout, []string{"invocationRecord"})
		return result{}
	}
	if rec.Status != "timed_out" {
		e.explainAs(NoteRecordNotTimedOut, []string{"invocationRecord.status"}, rec.Status)
		return result{}
	}
	reads := []string{"invocationRecord.status", "invocationRecord.effectStatus"}
	switch {
	case rec.EffectStatus == nil:
		e.explainAs(NoteTimedOutNoEffect, reads)
		return result{fired: true, code: CodeTimedOutWithoutReadback}
	case *rec.EffectStatus == "unknown":
		e.explainAs(NoteTimedOutUnknown, reads)
		return result{fired: true, code: CodeTimedOutWithoutReadback}
	case *rec.EffectStatus == "":
		// SPEC §1: "" is neither "unknown" nor absent.
		e.explainAs(NoteTimedOutEmptyEffect, reads)
		return result{}
	}
	e.explainAs(NoteTimedOutReadBack, reads, *rec.EffectStatus)
	return result{}
}

// Rule 6: a success is only evidence once its verification was accepted.
func (e *evaluation) verification() result {
	rec := e.in.InvocationRecord
	if rec == nil {
		e.explainAs(NoteNoRecordNoSuccess, []string{"invocationRecord"})
		return result{}
	}
	if rec.Status != "succeeded" {
		e.explainAs(NoteRecordNotSucceeded, []string{"invocationRecord.status"}, rec.Status)
		return result{}
	}
	reads := []string{"invocationRecord.status", "invocationRecord.verificationStatus"}
	switch {
	case rec.VerificationStatus == nil:
		e.explainAs(NoteSucceededNoVerification, reads)
	case *rec.VerificationStatus == "accepted":
		e.explainAs(NoteSucceededAccepted, reads)
		return result{}
	default:
		e.explainAs(NoteSucceededUnverified, reads, *rec.VerificationStatus)
	}
	return result{fired: true, code: CodeToolResultNotVerified}
}

// Rule 7: a write-class tool needs an active approval for its scope. It
// reads the scope it compares: the tool's approvalScope, or its name when
// it has none.
func (e *evaluation) approval() result {
	t := e.tool
	if !t.IsWrite() {
		e.explainAs(NoteReadOnly, []string{toolEntry + "effectClass"}, t.Name)
		return result{}
	}
	r := result{fired: true}
	a := e.in.Approval
	toolScope := toolEntry + "approvalScope"
	if t.ApprovalScope == nil {
		toolScope = toolEntry + "name"
	}
	switch {
	case a == nil:
		r.code = CodeApprovalMissing
		e.explainAs(NoteApprovalMissing, []string{toolEntry + "effectClass", "approval"}, t.Name, t.EffectClass)
	case a.Status != "active":
		r.code = CodeApprovalNotActive
		e.explainAs(NoteApprovalNotActive, []string{toolEntry + "effectClass", "approval.status"}, t.Name, t.EffectClass, a.Status)
	case a.Scope == nil:
		// SPEC §1: an approval that names no scope matches no tool,
		// not even one whose scope is "".
		r.code = CodeApprovalScopeMismatch
		e.explainAs(NoteApprovalNoScope,
			[]string{toolEntry + "effectClass", "approval.status", "approval.scope"},
			t.Name, t.EffectClass, "", t.Scope())
	case *a.Scope != t.Scope():
		r.code = CodeApprovalScopeMismatch
		e.explainAs(NoteApprovalScopeMismatch,
			[]string{toolEntry + "effectClass", "approval.status", "approval.scope", toolScope},
			t.Name, t.EffectClass, *a.Scope, t.Scope())
	default:
		r.fired = false
		e.explainAs(NoteApprovalActive,
			[]string{toolEntry + "effectClass", "approval.status", "approval.scope", toolScope},
			t.Name, t.EffectClass, *a.Scope)
	}
	if e.explain {
		e.ex.note.FailClosed = t.EffectClass != ReversibleWrite && t.EffectClass != IrreversibleWrite
	}
	return r
}

// Rule 8: nothing above fired, so the call is admitted.
func (e *evaluation) allow() result {
	e.explainAs(NoteAdmitted, nil)
	return result{fired: true, code: CodeAdmissionAllowed}
}
