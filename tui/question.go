package tui

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/scenarios"
	"toolgate/walk"
)

// question is a prediction asked before the walk is revealed: which rule
// fires (and which of its codes), which class an outcome is, or which
// diagnostics an audit finds; and after an admission walk is revealed,
// which of three things its verdict does NOT prove. The quiz and the
// room's poll both ask it.
type question struct {
	phase  quizPhase
	picked int // the step picked, while its code is asked
	// options are the choices of an audit or a "does NOT prove"
	// question, in both languages (L switches them while the question is
	// open); correct is the right one (from 1).
	options []scenarios.Text
	correct int
}

// quizPhase is where a prediction stands.
type quizPhase int

const (
	quizIdle      quizPhase = iota // not asking
	quizAskStep                    // which rule fires / which class?
	quizAskCode                    // which code (of the rule picked)?
	quizAskAudit                   // which diagnostics?
	quizAskCaveat                  // which of these does it NOT prove?
)

// firstQuestion is the question a scenario opens with: the audit's is a
// choice of diagnostics, the others' which step decides.
func firstQuestion(c scene) question {
	switch c.track() {
	case scenarios.TrackAudit:
		options, correct := auditOptions(c.written())
		return question{phase: quizAskAudit, options: options, correct: correct}
	case scenarios.TrackAdmission, scenarios.TrackOutcome:
	}
	return question{phase: quizAskStep}
}

// auditOptions are the answers an audit question offers: what the audit
// finds, and what it would find had the learner misread the batch (open
// taken for closed, a duplicate overlooked, an unknown result taken for
// a requested one), each decided by assess through walk; sorted (by the
// English, so that a choice keeps its number in either language), so
// that the place of the right one says nothing.
func auditOptions(s scenarios.Scenario) (options []scenarios.Text, correct int) {
	ac, _ := s.Case.(scenarios.AuditCase)
	in := ac.Input
	first := func(ids []string) string {
		if len(ids) == 0 {
			return "A"
		}
		return ids[0]
	}
	variants := []assess.AuditInput{in,
		{Requested: in.Requested, Results: in.Results, Closed: !in.Closed},
		{Requested: in.Requested, Results: slices.Compact(slices.Sorted(slices.Values(in.Results))), Closed: in.Closed},
		{Requested: unionIDs(in.Requested, in.Results), Results: in.Results, Closed: in.Closed},
		{Requested: slices.Compact(slices.Sorted(slices.Values(in.Requested))), Results: in.Results, Closed: in.Closed},
		{Requested: in.Requested, Results: append(slices.Clone(in.Results), first(in.Results)), Closed: in.Closed},
		{Requested: in.Requested, Results: append([]string{first(in.Results) + "2"}, in.Results[min(1, len(in.Results)):]...), Closed: in.Closed},
		{Requested: in.Requested, Results: in.Results[min(1, len(in.Results)):], Closed: true},
		{Requested: slices.Compact(slices.Sorted(slices.Values(in.Requested))), Results: append(slices.Clone(in.Results), first(in.Results)), Closed: true},
	}
	right := ""
	for i, v := range variants {
		alt := s
		alt.Case = scenarios.AuditCase{Input: v, Expect: ac.Expect}
		label := scenarios.Text{En: walk.Of(alt, assess.English).Verdict.Short, Zh: walk.Of(alt, assess.Chinese).Verdict.Short}
		if i == 0 {
			right = label.En
		}
		if !slices.ContainsFunc(options, func(o scenarios.Text) bool { return o.En == label.En }) {
			options = append(options, label)
		}
	}
	options = options[:min(len(options), 4)]
	slices.SortFunc(options, func(a, b scenarios.Text) int { return strings.Compare(a.En, b.En) })
	return options, slices.IndexFunc(options, func(o scenarios.Text) bool { return o.En == right }) + 1
}

func unionIDs(a, b []string) []string {
	out := slices.Clone(a)
	for _, x := range b {
		if x != "" && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// caveatQuestion asks, once an admission verdict is shown, which of three
// things it does NOT prove: its rule's caveat, beside two things this very
// verdict does establish about the snapshots (what its rules found, and
// that the input passed the check), so that exactly one answer is right.
// The choice and the right one's place come from the scenario's id (the
// same each time, so a room sees the same order).
func caveatQuestion(c scene) question {
	a, ok := c.walk.Result.(walk.AdmissionAnswer)
	if !ok {
		return question{}
	}
	v := a.Verdict
	rule := v.Code.Rule()
	h := fnv.New32a()
	h.Write([]byte(c.written().ID))
	seed := int(h.Sum32() % 1000)
	both := func(f func(l assess.Lang) string) scenarios.Text {
		return scenarios.Text{En: f(assess.English), Zh: f(assess.Chinese)}
	}
	// True of this verdict: the rule that fired, the rules that passed
	// before it, and the input check.
	trueOnes := []scenarios.Text{both(func(l assess.Lang) string { return rule.Establishes(true, l) })}
	for r := assess.RuleToolInContract; r < rule; r++ {
		trueOnes = append(trueOnes, both(func(l assess.Lang) string { return r.Establishes(false, l) }))
	}
	trueOnes = append(trueOnes, both(assess.CheckedInput))
	first := seed % len(trueOnes)
	second := (seed/7 + 1 + seed%len(trueOnes)) % len(trueOnes)
	if second == first {
		second = (seed%len(trueOnes) + 1) % len(trueOnes)
	}
	others := []scenarios.Text{trueOnes[first], trueOnes[second]}
	pos := seed % (len(others) + 1)
	options := slices.Insert(others, pos, both(v.Code.Caveat))
	return question{phase: quizAskCaveat, options: options, correct: pos + 1}
}

// asking reports whether the question waits for an answer.
func (q question) asking() bool { return q.phase != quizIdle }

// predicting reports whether the question comes before the walk is
// revealed (what answers it is then hidden).
func (q question) predicting() bool { return q.asking() && q.phase != quizAskCaveat }

// numbersSteps reports whether the question is answered with the number
// of a rule (or of an outcome's question), or is about the rule picked:
// the rules must then be on screen.
func (q question) numbersSteps() bool { return q.phase == quizAskStep || q.phase == quizAskCode }

// choices is how many answers the open question offers: the digits 1
// to it answer; a higher digit is still the question's, and does nothing.
func (q question) choices(c scene) int {
	switch q.phase {
	case quizAskStep:
		return len(c.walk.Steps)
	case quizAskCode:
		return len(codeOptions(q.picked))
	case quizAskAudit, quizAskCaveat:
		return len(q.options)
	case quizIdle: // nothing is asked
	}
	return 0
}

// answerHelp names the digits that answer the open question ("1–3
// answer"), in the footer and the help; the binding keeps every digit.
func answerHelp(b *key.Binding, q question, c scene) {
	if n := q.choices(c); n > 0 {
		b.SetHelp(span(1, n), tr("kAnswer", c.lang))
	}
}

// quizResult is one answer marked. What was said and what decided are
// kept in both languages, and shown in the one on screen: an answer given
// in English reads in Chinese after L.
type quizResult struct {
	number        int
	title         scenarios.Text
	said, decided scenarios.Text
	right         bool
	// half is the right rule with the wrong code: the rule is the
	// harder half, and it is given its due.
	half bool
	// noCode is a rule the room took before its code was picked (the
	// reveal came first): said names the rule only.
	noCode bool
	// caveat is the "does NOT prove" answer: 0 not asked, 1 right, -1
	// wrong; caveatRight is the right text.
	caveat      int
	caveatRight scenarios.Text
}

// codeOptions are the codes the rule picked can give: the plausible
// answers to "which code?".
func codeOptions(rule int) []assess.Code {
	var out []assess.Code
	for _, c := range assess.Codes() {
		if int(c.Rule()) == rule {
			out = append(out, c)
		}
	}
	return out
}

// answer takes a digit; done reports a complete answer (step and code).
func (q question) answer(c scene, digit int) (next question, done bool, step int, code assess.Code) {
	switch q.phase {
	case quizAskStep:
		if digit < 1 || digit > len(c.walk.Steps) {
			return q, false, 0, 0
		}
		switch c.track() {
		case scenarios.TrackAdmission:
			if codes := codeOptions(digit); len(codes) == 1 {
				return question{}, true, digit, codes[0]
			}
			return question{phase: quizAskCode, picked: digit}, false, 0, 0
		case scenarios.TrackAudit, scenarios.TrackOutcome:
		}
		return question{}, true, digit, 0
	case quizAskAudit, quizAskCaveat:
		if digit < 1 || digit > len(q.options) {
			return q, false, 0, 0
		}
		return question{}, true, digit, 0
	case quizAskCode:
		codes := codeOptions(q.picked)
		if digit < 1 || digit > len(codes) {
			return q, false, 0, 0
		}
		return question{}, true, q.picked, codes[digit-1]
	case quizIdle: // no question takes a digit
	}
	return q, false, 0, 0
}

// mark compares a prediction with what the walk says decided: the rule
// and code, or the class; what was said and what decided are written in
// both languages.
func (c scene) mark(step int, code assess.Code) quizResult {
	s := c.written()
	r := quizResult{number: s.Number, title: s.Title}
	walks := [2]walk.Walk{walk.Of(c.scenario(), assess.English), walk.Of(c.scenario(), assess.Chinese)}
	ruleAnswer := func(l assess.Lang, step int, code string) string {
		return fmt.Sprintf("%s %d%s%s", tr("rule", l), step, tr("comma", l), code)
	}
	switch res := c.walk.Result.(type) {
	case walk.AdmissionAnswer:
		v := res.Verdict
		r.right = step == c.walk.Decisive && code == v.Code
		r.half = step == c.walk.Decisive && code != v.Code
		r.said = scenarios.Text{En: ruleAnswer(assess.English, step, code.String()), Zh: ruleAnswer(assess.Chinese, step, code.String())}
		r.decided = scenarios.Text{En: ruleAnswer(assess.English, c.walk.Decisive, v.CodeName()), Zh: ruleAnswer(assess.Chinese, c.walk.Decisive, v.CodeName())}
		r.caveatRight = scenarios.Text{En: v.Code.Caveat(assess.English), Zh: v.Code.Caveat(assess.Chinese)}
	case walk.AuditAnswer:
		options, correct := auditOptions(s)
		r.right = step == correct
		if step >= 1 && step <= len(options) {
			r.said = options[step-1]
		}
		r.decided = options[correct-1]
	case walk.OutcomeAnswer:
		r.right = step == c.walk.Decisive
		r.said = scenarios.Text{En: className(walks[assess.English], step, assess.English), Zh: className(walks[assess.Chinese], step, assess.Chinese)}
		r.decided = scenarios.Text{En: res.Class.String(), Zh: res.Class.String()}
	}
	return r
}

// markRule marks a rule said without its code: in a room the rule is
// the answer counted, and a reveal may come before the code. The right
// rule is half right, said so.
func (c scene) markRule(step int) quizResult {
	r := c.mark(step, 0)
	r.right, r.noCode = false, true
	r.said = scenarios.Text{En: fmt.Sprintf("%s %d", tr("rule", assess.English), step), Zh: fmt.Sprintf("%s %d", tr("rule", assess.Chinese), step)}
	return r
}

// savedAnswer is an answer from an earlier session, saved as text in
// the language it was given in: a rule's answer ("rule 7,
// approval_missing" or "规则 7，approval_missing") is written again in
// each language; any other answer (a class, diagnostics) is kept as it
// was saved.
func savedAnswer(said string) scenarios.Text {
	if m := savedRule.FindStringSubmatch(said); m != nil {
		return scenarios.Text{
			En: fmt.Sprintf("%s %s%s%s", tr("rule", assess.English), m[1], tr("comma", assess.English), m[2]),
			Zh: fmt.Sprintf("%s %s%s%s", tr("rule", assess.Chinese), m[1], tr("comma", assess.Chinese), m[2]),
		}
	}
	return scenarios.Text{En: said, Zh: said}
}

// savedRule is a rule's answer as the trainer saves it, in either
// language.
var savedRule = regexp.MustCompile(`^(?:rule|规则) (\d+)(?:, |，)(\S+)$`)

// className names the class that step n of an outcome walk asks about.
// The class is found by the step's title (walk titles each question with
// its class's title), not by the step's number, so that nothing here
// assumes the order in which assess asks; a title no class has is said
// as it is.
func className(w walk.Walk, n int, l assess.Lang) string {
	if n < 1 || n > len(w.Steps) {
		return fmt.Sprint(n)
	}
	title := w.Steps[n-1].Title
	for class := assess.ClassProtocolError; class <= assess.ClassFound; class++ {
		if class.Title(l) == title {
			return class.String()
		}
	}
	return title
}

// lines are the open question, for the walk pane.
func (q question) lines(c scene) []string {
	label := c.styles.Verdict.Label
	switch q.phase {
	case quizAskStep:
		text := tr("quizRule", c.lang)
		switch c.track() {
		case scenarios.TrackOutcome:
			text = tr("quizClass", c.lang)
		case scenarios.TrackAdmission, scenarios.TrackAudit:
		}
		return []string{label.Render(fmt.Sprintf(text, len(c.walk.Steps)))}
	case quizAskCode:
		lines := []string{label.Render(fmt.Sprintf(tr("quizCode", c.lang), q.picked))}
		for i, code := range codeOptions(q.picked) {
			lines = append(lines, fmt.Sprintf("  %d  %s — %s", i+1, code, code.Meaning(c.lang)))
		}
		return lines
	case quizAskAudit, quizAskCaveat:
		text := tr("quizAudit", c.lang)
		if q.phase == quizAskCaveat {
			text = tr("quizCaveat", c.lang)
		}
		lines := []string{label.Render(fmt.Sprintf(text, len(q.options)))}
		for i, o := range q.options {
			lines = append(lines, fmt.Sprintf("  %d  %s", i+1, o.In(c.lang)))
		}
		return lines
	case quizIdle: // nothing asked
	}
	return nil
}

// resultLines are a marked answer: right, half right (the rule, not the
// code), or wrong; then the "does NOT prove" answer once given.
func (c common) resultLines(r quizResult) []string {
	var out []string
	switch {
	case r.right:
		out = append(out, c.styles.tone(look.ToneGood).Render(look.Yes+" "+fmt.Sprintf(tr("quizRight", c.lang), r.decided.In(c.lang))))
	case r.half && r.noCode:
		out = append(out, c.styles.tone(look.ToneHold).Render("◐ "+fmt.Sprintf(tr("quizHalfNoCode", c.lang), r.said.In(c.lang), r.decided.In(c.lang))))
	case r.half:
		out = append(out, c.styles.tone(look.ToneHold).Render("◐ "+fmt.Sprintf(tr("quizHalf", c.lang), r.said.In(c.lang), r.decided.In(c.lang))))
	default:
		out = append(out, c.styles.tone(look.ToneBad).Render(look.No+" "+fmt.Sprintf(tr("quizWrong", c.lang), r.said.In(c.lang), r.decided.In(c.lang))))
	}
	switch r.caveat {
	case 1:
		out = append(out, c.styles.tone(look.ToneGood).Render(look.Yes+" "+tr("quizCaveatRight", c.lang)))
	case -1:
		out = append(out, c.styles.tone(look.ToneBad).Render(look.No+" "+fmt.Sprintf(tr("quizCaveatWrong", c.lang), r.caveatRight.In(c.lang))))
	}
	return out
}
