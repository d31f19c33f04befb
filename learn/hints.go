package learn

import (
	"fmt"
	"slices"
	"strings"

	"toolgate/assess"
)

// MaxHint is the number of hint levels: the rule's question, the
// condition on the fields it reads, the edge that is failing.
const MaxHint = 3

// Hint is one level of hint for the current stage and its first failing
// vector, in a language: level 1 the rule's question, 2 the condition on
// the fields it reads, 3 the edge this vector is about. Hints say what
// the book's function does, never how to write it. "" when there is
// nothing to hint at (no failing vector).
func Hint(b Board, level int, l assess.Lang) string {
	stage := b.Current
	if b.State == StateRed {
		stage = 1
	}
	if stage == 0 || level < 1 {
		return ""
	}
	switch level {
	case 1:
		if stage == InputStage {
			return texts.InputQuestion.in(l)
		}
		return assess.Rule(stage).Question(l)
	case 2:
		if stage == InputStage {
			if b.First != nil && b.First.Reason != "" {
				return texts.InputCondition.in(l) + sentenceSep(l) + reasonText(b.First.Reason).in(l)
			}
			return texts.InputCondition.in(l)
		}
		return condition(assess.Rule(stage)).in(l)
	}
	if b.First == nil {
		return texts.EdgeNone.in(l)
	}
	return Edge(b.First, l)
}

// Edge says what is particular about a failing vector — the edge of the
// rule it tests — and how the gate's answer differs, from toolgate's own
// walk of it.
func Edge(f *Failure, l assess.Lang) string {
	if f.Stage == InputStage {
		return fmt.Sprintf(texts.EdgeInput.in(l), f.Refusal)
	}
	rule := f.Stage
	var parts []string
	switch g := f.GateRule; {
	case f.GateError != "":
		parts = append(parts, texts.EdgeErrored.in(l))
	case g != 0 && g < rule:
		st := f.Trace[g-1]
		parts = append(parts, fmt.Sprintf(texts.EdgeStoppedEarly.in(l), g, rule, g, st.Explanation(l)))
		if e := edgeOf(f, st, l); e != "" {
			parts = append(parts, e)
		}
		return strings.Join(parts, sentenceSep(l))
	case g > rule:
		parts = append(parts, fmt.Sprintf(texts.EdgeWentPast.in(l), g, rule))
	case g == rule:
		parts = append(parts, fmt.Sprintf(texts.EdgeSameRule.in(l), rule))
	default:
		parts = append(parts, texts.EdgeNoCode.in(l))
	}
	st := f.Trace[rule-1]
	parts = append(parts, fmt.Sprintf(texts.EdgeFires.in(l), rule, st.Explanation(l)))
	if e := edgeOf(f, st, l); e != "" {
		parts = append(parts, e)
	}
	return strings.Join(parts, sentenceSep(l))
}

// edgeOf is the lesson of one step of the walk of the failing input:
// the comparison that the table of the book does not spell out.
func edgeOf(f *Failure, st assess.Step, l assess.Lang) string {
	in := f.Input
	n := st.Note
	var out []string
	add := func(x text, args ...any) { out = append(out, fmt.Sprintf(x.in(l), args...)) }
	if n.Aside == assess.AsideShadowedTool || countNamed(in, in.Request.Tool.Name) > 1 {
		add(texts.EdgeFirstTool)
	}
	switch n.Key {
	case assess.NoteToolUnknown:
		switch {
		case len(in.Contract.Tools) == 0:
			add(texts.EdgeEmptyContract)
		case nearName(in):
			add(texts.EdgeExactName)
		}
	case assess.NoteToolVersionMismatch, assess.NoteToolFound:
		if t := firstNamed(in); t != nil && (!t.Version.Present() || !in.Request.Tool.Version.Present() || t.Version.Is("") || in.Request.Tool.Version.Is("")) {
			add(texts.EdgeAbsentVersion)
		} else if n.Key == assess.NoteToolVersionMismatch {
			add(texts.EdgeExactVersion)
		}
	case assess.NoteCorrelationAbsent:
		add(texts.EdgeRecordNoID)
	case assess.NoteCorrelationConflict:
		if id, _ := in.InvocationRecord.CorrelationID.Get(); strings.EqualFold(id, in.Request.CorrelationID) {
			add(texts.EdgeExactID)
		}
	case assess.NoteCorrelationMatches:
		if in.Request.CorrelationID == "" {
			add(texts.EdgeEmptyID)
		}
	case assess.NoteNoRequiredArguments:
		add(texts.EdgeNoRequired)
	case assess.NoteArgumentsMissing, assess.NoteArgumentsPresent:
		out = append(out, argumentEdges(f, n, l)...)
	case assess.NoteEnvironmentNoStatus:
		add(texts.EdgeEnvAbsent)
	case assess.NoteEnvironmentNotReady:
		add(texts.EdgeExactReady)
	case assess.NoteTimedOutNoEffect:
		add(texts.EdgeEffectAbsent)
	case assess.NoteTimedOutReadBack:
		add(texts.EdgeExactUnknown)
	case assess.NoteRecordNotTimedOut:
		if in.InvocationRecord != nil && in.InvocationRecord.EffectStatus.Is(assess.EffectUnknown) {
			add(texts.EdgeNotTimedOut)
		}
	case assess.NoteSucceededNoVerification:
		add(texts.EdgeVerificationAbsent)
	case assess.NoteSucceededUnverified:
		add(texts.EdgeExactAccepted)
	case assess.NoteRecordNotSucceeded:
		add(texts.EdgeNotSucceeded)
	case assess.NoteReadOnly:
		if in.Approval != nil {
			add(texts.EdgeReadOnlyApproval)
		}
	case assess.NoteApprovalMissing:
		add(texts.EdgeApprovalNull)
	case assess.NoteApprovalStatus:
		add(texts.EdgeApprovalStatus, in.Approval.Status, in.Approval.Status)
		if in.Approval.Scope != firstNamed(in).ApprovalScope {
			add(texts.EdgeStatusBeforeScope)
		}
	case assess.NoteApprovalScopeMismatch, assess.NoteApprovalUnscoped, assess.NoteApprovalActive:
		t := firstNamed(in)
		if !t.ApprovalScope.Present() || !in.Approval.Scope.Present() || t.ApprovalScope.Is("") || in.Approval.Scope.Is("") {
			add(texts.EdgeAbsentScope)
		}
	}
	if n.FailClosed {
		add(texts.EdgeFailClosed)
	}
	if n.Aside != assess.AsideNone && n.Aside != assess.AsideShadowedTool {
		out = append(out, assess.TrainerNoteLabel(l)+l.Colon()+n.Aside.Text(l))
	}
	return strings.Join(out, sentenceSep(l))
}

// argumentEdges are rule 3's lessons: what counts as missing, and how
// missingArguments is listed.
func argumentEdges(f *Failure, n assess.Note, l assess.Lang) []string {
	var out []string
	add := func(x text, args ...any) { out = append(out, fmt.Sprintf(x.in(l), args...)) }
	seen := map[string]bool{}
	for _, it := range n.Items {
		switch why := it.Why; {
		case why == assess.WhyBlank && !seen[why]:
			add(texts.EdgeBlank)
		case why == assess.WhyAbsent && f.Input.Request.Arguments == nil && !seen[why]:
			add(texts.EdgeNoArguments)
		case slices.Contains([]string{"constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"}, it.Name) && !seen["proto"]:
			add(texts.EdgeInherited)
			seen["proto"] = true
		case why == assess.WhyEmpty && !seen[why]:
			add(texts.EdgeEmpty)
		case (why == assess.WhyNull || why == assess.WhyNumber || why == assess.WhyBool || why == assess.WhyArray || why == assess.WhyObject || why == assess.WhyNotString) && !seen["type"]:
			add(texts.EdgeNotString)
			seen["type"] = true
		case why == "":
			v, _ := f.Input.Request.Arguments[it.Name].(string)
			switch {
			case notTrimmed(v) && !seen["nottrim"]:
				add(texts.EdgeNotTrimSpace)
				seen["nottrim"] = true
			case v != "" && (assess.IsTrimSpace(firstRune(v)) || assess.IsTrimSpace(lastRune(v))) && !seen["padded"]:
				add(texts.EdgeNotBlank)
				seen["padded"] = true
			}
		}
		seen[it.Why] = true
		if it.Times > 1 && !seen["twice"] {
			add(texts.EdgeTwice)
			seen["twice"] = true
		}
	}
	if t := firstNamed(f.Input); t != nil && !slices.IsSorted(t.RequiredArguments) && len(f.Verdict.MissingArguments) > 1 {
		add(texts.EdgeOrder)
	}
	return out
}

func firstNamed(in assess.Input) *assess.Tool {
	for i := range in.Contract.Tools {
		if in.Contract.Tools[i].Name == in.Request.Tool.Name {
			return &in.Contract.Tools[i]
		}
	}
	return nil
}

func countNamed(in assess.Input, name string) int {
	n := 0
	for _, t := range in.Contract.Tools {
		if t.Name == name {
			n++
		}
	}
	return n
}

// nearName reports whether the request names a tool that differs from one
// of the contract's only in case or surrounding spaces.
func nearName(in assess.Input) bool {
	want := strings.ToLower(strings.TrimSpace(in.Request.Tool.Name))
	for _, t := range in.Contract.Tools {
		if strings.ToLower(strings.TrimSpace(t.Name)) == want {
			return true
		}
	}
	return false
}

// notTrimmed reports whether s holds a character some trims remove and
// JavaScript's does not (U+200B, U+0085, U+180E), and nothing but those
// and JavaScript's whitespace: a value that is not blank to the book.
func notTrimmed(s string) bool {
	found := false
	for _, r := range s {
		switch {
		case r == '\u200b' || r == '\u0085' || r == '\u180e':
			found = true
		case !assess.IsTrimSpace(r):
			return false
		}
	}
	return found
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

func lastRune(s string) rune {
	r := rune(0)
	for _, c := range s {
		r = c
	}
	return r
}

// sentenceSep joins sentences: a space in English, nothing in Chinese.
func sentenceSep(l assess.Lang) string {
	if l == assess.Chinese {
		return ""
	}
	return " "
}
