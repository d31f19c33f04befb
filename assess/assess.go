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
	e := evaluation{in: in}
	return e.decide()
}

// AssessAppend decides like Assess; rule 3's list of missing arguments
// is appended to missing[:0], so that a caller deciding many inputs
// allocates nothing: it hands back each verdict's MissingArguments when
// it is not nil (it shares missing's array, or a larger one).
//
//nolint:revive // the stutter is meant: assess.Append would not say that it decides, and cli calls it by this name.
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
		v.EffectStatus = EffectUnknown
	case CodeApprovalStatus:
		v.ApprovalStatus = e.in.Approval.Status
	case CodeUnknownTool, CodeToolVersionMismatch, CodeCorrelationConflict, CodeEnvironmentNotReady,
		CodeToolResultNotVerified, CodeApprovalMissing, CodeApprovalScopeMismatch, CodeAdmissionAllowed:
		// The status and the code say it all.
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
	case RuleAllow:
		return e.allow()
	}
	// decide stops at rule 8, which always fires, and walk asks rules 1–8.
	panic("assess: no rule " + r.String())
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

// Rule 1: the contract must list the tool at the requested version. Like
// the book, it looks up the FIRST tool whose name is the requested one,
// and later rules use that entry: a later tool of the same name is never
// read, whatever its version.
func (e *evaluation) toolInContract() result {
	want := &e.in.Request.Tool
	tools := e.in.Contract.Tools
	i := 0
	for i < len(tools) && tools[i].Name != want.Name {
		i++
	}
	if i == len(tools) {
		if e.explain {
			e.ex.note = Note{Key: NoteToolUnknown, List: toolNames(tools)}
			e.ex.note.Args[0] = want.Name
			e.ex.reads = e.namesRead(len(tools))
		}
		return result{fired: true, code: CodeUnknownTool}
	}
	e.tool, e.toolIdx = &tools[i], i
	t := &tools[i]
	key := NoteToolFound
	r := result{}
	if t.Version != want.Version {
		key, r = NoteToolVersionMismatch, result{fired: true, code: CodeToolVersionMismatch}
	}
	if e.explain {
		e.ex.note = Note{Key: key}
		e.ex.note.Args = [4]string{want.Name, optArg(want.Version), optArg(t.Version), strconv.Itoa(i)}
		e.ex.reads = append(e.namesRead(i+1), "request.tool.version", "contract.tools["+strconv.Itoa(i)+"].version")
		for j := i + 1; j < len(tools); j++ {
			if tools[j].Name == want.Name {
				e.ex.note.List = append(e.ex.note.List, "contract.tools["+strconv.Itoa(j)+"] "+tools[j].Version.Quote())
			}
		}
		if len(e.ex.note.List) > 0 {
			e.ex.note.Aside = AsideShadowedTool
		}
	}
	return r
}

// namesRead are the paths rule 1 reads to look a name up among the first
// n tools.
func (e *evaluation) namesRead(n int) []string {
	reads := make([]string, 0, n+3)
	reads = append(reads, "request.tool.name")
	if len(e.in.Contract.Tools) == 0 {
		reads = append(reads, "contract.tools")
	}
	for j := range n {
		reads = append(reads, "contract.tools["+strconv.Itoa(j)+"].name")
	}
	return reads
}

func toolNames(tools []Tool) []string {
	names := make([]string, 0, len(tools))
	for i := range tools {
		names = append(names, strconv.Quote(tools[i].Name)+" "+tools[i].Version.Quote())
	}
	return names
}

// Rule 2: a record of an earlier attempt must be about this very request.
// A record without a correlationId is about another request: absent
// differs from every string.
func (e *evaluation) correlation() result {
	rec := e.in.InvocationRecord
	if rec == nil {
		e.explainAs(NoteNoRecord, []string{"invocationRecord"})
		return result{}
	}
	reads := []string{"request.correlationId", "invocationRecord.correlationId"}
	id := e.in.Request.CorrelationID
	switch got, ok := rec.CorrelationID.Get(); {
	case !ok:
		e.explainAs(NoteCorrelationAbsent, reads, "", id)
	case got != id:
		e.explainAs(NoteCorrelationConflict, reads, got, id)
	default:
		e.explainAs(NoteCorrelationMatches, reads, got)
		return result{}
	}
	return result{fired: true, code: CodeCorrelationConflict}
}

// Rule 3: every required argument must be a string that is not blank
// after trimming whitespace. missingArguments lists every name that is
// not, in requiredArguments order: a name listed twice is missing twice,
// as in the book. One pass, one lookup a name: linear in the list.
func (e *evaluation) arguments() result {
	required := e.tool.RequiredArguments
	r := &e.in.Request
	for _, name := range required {
		if why, _ := argumentProblem(r, name); why != "" {
			e.missing = append(e.missing, name)
		}
	}
	if e.explain {
		e.explainArguments(required)
	}
	if len(e.missing) > 0 {
		return result{fired: true, code: CodeInvalidArguments}
	}
	return result{}
}

// explainArguments notes rule 3's findings: each required name once, with
// how often it is listed and why its value is unusable.
func (e *evaluation) explainArguments(required []string) {
	e.ex.reads = e.paths(toolEntry + "requiredArguments")
	if len(required) == 0 {
		e.ex.note = Note{Key: NoteNoRequiredArguments, Args: [4]string{e.tool.Name}}
		return
	}
	r := &e.in.Request
	if r.Arguments == nil && r.Given == nil {
		e.ex.reads = append(e.ex.reads, "request.arguments")
	}
	at := make(map[string]int, len(required))
	var all, bad []Item
	for _, name := range required {
		if k, ok := at[name]; ok {
			all[k].Times++
			continue
		}
		at[name] = len(all)
		why, value := argumentProblem(r, name)
		all = append(all, Item{Name: name, Why: why, Value: value, Times: 1})
		e.ex.reads = append(e.ex.reads, "request.arguments."+name)
	}
	for _, it := range all {
		if it.Why != "" {
			bad = append(bad, it)
		}
	}
	if len(bad) > 0 {
		e.ex.note = Note{Key: NoteArgumentsMissing, Items: bad}
		return
	}
	e.ex.note = Note{Key: NoteArgumentsPresent, Items: all}
}

// argumentProblem says why an argument is unusable, or "" when it is a
// string that is not blank; value is the string when it is blank.
func argumentProblem(r *Request, name string) (why, value string) {
	if r.Arguments == nil {
		for i := range r.Given {
			if r.Given[i].Name == name {
				return r.Given[i].Why, r.Given[i].Value
			}
		}
		return WhyAbsent, ""
	}
	v, ok := r.Arguments[name]
	if !ok {
		return WhyAbsent, ""
	}
	why = WhyValue(v)
	if why == WhyBlank {
		value = v.(string)
	}
	return why, value
}

// Rule 4: the environment snapshot must say "ready"; a snapshot without
// a status is not ready.
func (e *evaluation) environment() result {
	reads := []string{"environment.status"}
	switch st, ok := e.in.Environment.Status.Get(); {
	case !ok:
		e.explainAs(NoteEnvironmentNoStatus, reads)
	case st != StatusReady:
		e.explainAs(NoteEnvironmentNotReady, reads, st)
	default:
		e.explainAs(NoteEnvironmentReady, reads)
		return result{}
	}
	return result{fired: true, code: CodeEnvironmentNotReady}
}

// Rule 5: a timed-out attempt whose record says its effect is "unknown"
// blocks a retry. The book asks for "unknown" exactly: a record that says
// nothing of its effect does not fire it.
func (e *evaluation) timeout() result {
	rec := e.in.InvocationRecord
	if rec == nil {
		e.explainAs(NoteNoRecordNoTimeout, []string{"invocationRecord"})
		return result{}
	}
	if !rec.Status.Is(StatusTimedOut) {
		e.explainAs(NoteRecordNotTimedOut, []string{"invocationRecord.status"}, e.opt(rec.Status))
		return result{}
	}
	reads := []string{"invocationRecord.status", "invocationRecord.effectStatus"}
	switch eff, ok := rec.EffectStatus.Get(); {
	case !ok:
		e.explainAs(NoteTimedOutNoEffect, reads)
		e.aside(AsideSilentTimeout)
	case eff == EffectUnknown:
		e.explainAs(NoteTimedOutUnknown, reads)
		return result{fired: true, code: CodeTimedOutWithoutReadback}
	default:
		e.explainAs(NoteTimedOutReadBack, reads, eff)
	}
	return result{}
}

// opt is an optional member as a note argument, built only when
// explaining: the fast path allocates nothing for it.
func (e *evaluation) opt(o Opt) string {
	if !e.explain {
		return ""
	}
	return optArg(o)
}

// aside marks the last explanation with a trainer's note.
func (e *evaluation) aside(a Aside) {
	if e.explain {
		e.ex.note.Aside = a
	}
}

// Rule 6: a success is only evidence once its verification was accepted;
// a success without a verificationStatus was accepted by nobody.
func (e *evaluation) verification() result {
	rec := e.in.InvocationRecord
	if rec == nil {
		e.explainAs(NoteNoRecordNoSuccess, []string{"invocationRecord"})
		return result{}
	}
	if !rec.Status.Is(StatusSuccess) {
		e.explainAs(NoteRecordNotSucceeded, []string{"invocationRecord.status"}, e.opt(rec.Status))
		return result{}
	}
	reads := []string{"invocationRecord.status", "invocationRecord.verificationStatus"}
	switch v, ok := rec.VerificationStatus.Get(); {
	case !ok:
		e.explainAs(NoteSucceededNoVerification, reads)
	case v == Accepted:
		e.explainAs(NoteSucceededAccepted, reads)
		return result{}
	default:
		e.explainAs(NoteSucceededUnverified, reads, v)
	}
	return result{fired: true, code: CodeToolResultNotVerified}
}

// Rule 7: a write-class tool needs an approval: present, then "active",
// then naming the tool's approvalScope (absent equals only absent),
// checked in that order. An approval whose status is not "active" answers
// approval_<status>, the status itself in the code.
func (e *evaluation) approval() result {
	t := e.tool
	class := e.opt(t.EffectClass)
	if !t.IsWrite() {
		e.explainAs(NoteReadOnly, []string{toolEntry + "effectClass"}, t.Name)
		return result{}
	}
	r := result{fired: true}
	a := e.in.Approval
	scopes := []string{toolEntry + "effectClass", "approval.status", "approval.scope", toolEntry + "approvalScope"}
	switch {
	case a == nil:
		r.code = CodeApprovalMissing
		e.explainAs(NoteApprovalMissing, []string{toolEntry + "effectClass", "approval"}, t.Name, class)
	case a.Status != StatusActive:
		r.code = CodeApprovalStatus
		e.explainAs(NoteApprovalStatus, []string{toolEntry + "effectClass", "approval.status"}, t.Name, class, a.Status)
		if isCodeName("approval_" + a.Status) {
			e.aside(AsideStatusLikeCode)
		}
	case a.Scope != t.ApprovalScope:
		r.code = CodeApprovalScopeMismatch
		e.explainAs(NoteApprovalScopeMismatch, scopes, t.Name, class, e.opt(a.Scope), e.opt(t.ApprovalScope))
	case !a.Scope.Present():
		r.fired = false
		e.explainAs(NoteApprovalUnscoped, scopes, t.Name, class)
		e.aside(AsideUnscopedWrite)
	default:
		r.fired = false
		e.explainAs(NoteApprovalActive, scopes, t.Name, class, e.opt(a.Scope))
	}
	if e.explain {
		e.ex.note.FailClosed = !t.EffectClass.Is(ReversibleWrite) && !t.EffectClass.Is(IrreversibleWrite)
	}
	return r
}

// Rule 8: nothing above fired, so the call is admitted.
func (e *evaluation) allow() result {
	e.explainAs(NoteAdmitted, nil)
	return result{fired: true, code: CodeAdmissionAllowed}
}
