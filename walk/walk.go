// Package walk turns a scenario of any track into what a renderer shows:
// the steps of the walk with their explanations in one language, the step
// that decides, the verdict and the input's fields. It asks the track's
// core (assess) for every answer and decides nothing itself, so the CLI and
// the TUI render the same walk.
package walk

import (
	"errors"
	"strconv"
	"strings"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/scenarios"
)

// Step is one step of a walk: a rule, a result scanned, a question asked.
type Step struct {
	// ID names what the step asks, as assess names it: a rule's id
	// ("environment_not_ready"), an audit step's ("batch_end"), an
	// outcome class ("protocol_error").
	ID          string
	Title       string
	Question    string
	Explanation string
	Outcome     assess.Outcome
	// Reads are the input paths the step looked at.
	Reads []string
	// Audit is the audit's own step, with the IDs it looked at and the
	// diagnostics it found; nil on the other tracks.
	Audit *assess.AuditStep
	// Aside is a trainer's note on this step, "" for none: where a
	// careful harness would go further than the book. Show it with
	// AsideLabel, never as the book's word.
	Aside string
}

// AsideLabel marks a trainer's note in a language.
func AsideLabel(l assess.Lang) string { return assess.TrainerNoteLabel(l) }

// Check is the first layer of a walk: toolgate's input check, which is
// not the book's. A scenario's input always passes it (a file whose
// input it refuses does not load).
type Check struct {
	Title       string
	Explanation string
	Passed      bool
}

// Detail is one line of a verdict: a label and its text, in one language,
// and Key, a stable English name for what the line says (DetailMeaning,
// DetailDoesNotProve, …) that does not change with the language. Strong
// marks the lines that say what the verdict does NOT prove: the rule's,
// and the scenario's own.
type Detail struct {
	Key         string
	Label, Text string
	Strong      bool
}

// The keys of a verdict's details.
const (
	DetailCorrelationID        = "correlationId"
	DetailMissingArguments     = "missingArguments"
	DetailEffectStatus         = "effectStatus"
	DetailMeaning              = "meaning"
	DetailDoesNotProve         = "doesNotProve"
	DetailScenarioDoesNotProve = "scenarioDoesNotProve"
	DetailAllowedIsNot         = "allowedIsNot"
	DetailPending              = "pending"
	DetailError                = "error"
	DetailNext                 = "next"
	DetailMistake              = "mistake"
	DetailAdvice               = "advice"
	DetailMCP                  = "mcp"
)

// Verdict is the end of a walk.
type Verdict struct {
	Tone   look.Tone
	Symbol string
	// Headline is the answer, e.g. "REQUIRES_APPROVAL / approval_missing".
	Headline string
	// Short is the answer in a few words for a list.
	Short   string
	Details []Detail
}

// Walk is a scenario walked to its verdict.
type Walk struct {
	// Heading introduces the steps, e.g. "Decision order — the first rule
	// that fires decides".
	Heading string
	// ReadsBy says which step reads the marked fields; it has one %d.
	ReadsBy string
	Steps   []Step
	// Decisive is the number (from 1) of the step that decides; the steps
	// after it are not reached.
	Decisive int
	Verdict  Verdict
	Fields   []look.Field
	// Check is the input check before the steps; nil on the outcome
	// track, whose classification is its own check.
	Check *Check
	// Result is the track's machine answer: an AdmissionAnswer, an
	// AuditAnswer or an OutcomeAnswer; nil when the walk has none (an
	// outcome input the classification refuses, a scenario with no
	// track).
	Result Answer
}

// Answer is a walk's machine answer on its track: one of AdmissionAnswer,
// AuditAnswer and OutcomeAnswer, and nothing else, so that a switch over
// an Answer names all three (the gochecksumtype linter holds it to that).
//
//sumtype:decl
type Answer interface{ isAnswer() }

// AdmissionAnswer is an admission's machine answer: the verdict.
type AdmissionAnswer struct {
	Verdict assess.Verdict
}

// AuditAnswer is an audit's machine answer: its diagnostics and pending
// IDs, or the input error that stopped it.
type AuditAnswer struct {
	Diagnostics []string
	Pending     []string
	Error       *assess.AuditError
}

// OutcomeAnswer is a classification's machine answer.
type OutcomeAnswer struct {
	Class assess.OutcomeClass `json:"class"`
}

func (AdmissionAnswer) isAnswer() {}
func (AuditAnswer) isAnswer()     {}
func (OutcomeAnswer) isAnswer()   {}

// Of walks a scenario in a language.
func Of(s scenarios.Scenario, l assess.Lang) Walk {
	var w Walk
	switch c := s.Case.(type) {
	case scenarios.AdmissionCase:
		w = admission(c.Input, l)
	case scenarios.AuditCase:
		w = audit(c.Input, l)
	case scenarios.OutcomeCase:
		w = outcome(c.Input, l)
	case nil:
		// A scenario nobody filled in: no track to walk, said so
		// rather than walked as some track's.
		return Walk{Verdict: Verdict{Tone: look.ToneBad, Symbol: look.No, Headline: texts.InputError.in(l), Short: texts.InputError.in(l),
			Details: []Detail{{Key: DetailError, Label: texts.Error.in(l), Text: texts.NoTrack.in(l)}}}}
	}
	if dnp := s.DoesNotProve.In(l); dnp != "" {
		w.Verdict.Details = append(w.Verdict.Details, Detail{Key: DetailScenarioDoesNotProve, Label: texts.ScenarioNot.in(l), Text: dnp, Strong: true})
	}
	return w
}

// text is one text in both languages; t takes both, so a text missing
// a language does not compile.
type text [2]string

func t(en, zh string) text { return text{en, zh} }

func (x text) in(l assess.Lang) string { return x[l] }

// texts are every text of the walk, a field each, so that a mistyped
// name does not compile.
var texts = struct {
	Means, NotProve, ScenarioNot, IsNot, Missing, EffectStatus text
	Pending, Next, Mistake, MCP, Advice, Error                 text
	Clean, CleanEmpty, CleanShort, InputError, NotAudited      text
	Admission, Check, CheckAudit, CheckPassed, CheckAuditOK    text
	AuditHeading, Outcome, RuleReads, StepReads, QuestionRead  text
	NoTrack                                                    text
}{
	Means:        t("means", "含义"),
	NotProve:     t("does NOT prove", "不能推导"),
	ScenarioNot:  t("this scenario does not prove", "本场景不证明"),
	IsNot:        t("allowed is not", "allowed 不是"),
	Missing:      t("missing arguments", "缺失参数"),
	EffectStatus: t("effect status", "效果状态"),
	Pending:      t("pending", "等待中"),
	Next:         t("next step", "下一步"),
	Mistake:      t("guards against", "防止的错误"),
	MCP:          t("in MCP", "对应 MCP"),
	Advice:       t("the trainer's own advice (not the source's)", "训练器自己的建议（非原文）"),
	Error:        t("error", "错误"),
	Clean:        t("no diagnostics: every result matches one request", "没有诊断：每个结果都对应唯一的请求"),
	CleanEmpty:   t("no diagnostics: the batch is empty, nothing to pair", "没有诊断：批次是空的，没有可以配对的东西"),
	CleanShort:   t("no diagnostics", "无诊断"),
	InputError:   t("INPUT ERROR", "输入错误"),
	NotAudited:   t("that anything is wrong with the results: the batch was never audited", "结果有问题：这个批次根本没有被审计"),
	Admission:    t("Decision order — each rule asks a question; the first yes fires and decides", "判断顺序——每条规则提一个问题；第一个回答“是”的规则触发并作出判断"),
	// The check's title is short enough to read whole in the walk at
	// 80 columns; its explanation says whose check it is.
	Check:        t("Input check, not a rule", "输入检查，不是规则"),
	CheckAudit:   t("Input check, not a step", "输入检查，不是步骤"),
	CheckPassed:  t("passed — toolgate checks this before the book's rules: every member the book's function reads is there, of its type; none is unknown, twice, or null for a string", "通过：这是 toolgate 在本书规则之前做的检查；本书函数读取的每个成员都在，类型正确；没有未知成员、重复成员，也没有用 null 代替字符串"),
	CheckAuditOK: t("passed — toolgate checks this before the audit's steps: both lists are there, of strings; no member is unknown or twice", "通过：这是 toolgate 在审计步骤之前做的检查；两个列表都在，元素都是字符串；没有未知成员或重复成员"),
	AuditHeading: t("The audit — requests first, then one result at a time, then the batch end; a yes fires", "审计——先查请求，再逐个查结果，最后看批次结束；回答“是”即触发"),
	Outcome:      t("Classification — the first question answered yes fires and decides", "分类——第一个回答“是”的问题触发并作出判断"),
	RuleReads:    t("rule %d reads the marked fields", "规则 %d 读取标记的字段"),
	StepReads:    t("step %d reads the marked fields", "步骤 %d 读取标记的字段"),
	QuestionRead: t("question %d reads the marked fields", "问题 %d 读取标记的字段"),
	NoTrack:      t("the scenario has no track, so nothing to walk", "该场景没有板块，无可演示"),
}

// AdmissionCheck is the input check an admission input the check
// accepted has passed, in a language.
func AdmissionCheck(l assess.Lang) Check {
	return Check{Title: texts.Check.in(l), Explanation: texts.CheckPassed.in(l), Passed: true}
}

func admission(in assess.Input, l assess.Lang) Walk {
	v, trace := assess.Explain(&in)
	check := AdmissionCheck(l)
	return Walk{Heading: texts.Admission.in(l), ReadsBy: texts.RuleReads.in(l), Result: AdmissionAnswer{Verdict: v},
		Check:    &check,
		Decisive: int(trace.Fired().Rule), Fields: look.Fields(in, trace), Steps: AdmissionSteps(trace, l),
		Verdict: Verdict{
			Tone:     look.StatusTone(v.Status),
			Symbol:   look.StatusSymbol(v.Status),
			Headline: strings.ToUpper(v.Status.String()) + " / " + v.CodeName(),
			Short:    v.Status.String() + "/" + v.CodeName(),
			Details:  AdmissionDetails(v, l),
		}}
}

// AdmissionSteps are an admission trace's steps, one a rule, in a
// language.
func AdmissionSteps(trace assess.Trace, l assess.Lang) []Step {
	steps := make([]Step, len(trace))
	for i, st := range trace {
		steps[i] = Step{ID: st.Rule.ID(), Title: st.Rule.Title(l), Question: st.Rule.Question(l),
			Explanation: st.Explanation(l), Outcome: st.Outcome, Reads: st.Reads, Aside: st.Note.Aside.Text(l)}
	}
	return steps
}

// AdmissionDetails are an admission verdict's lines, in a language: its
// raw values, what its code means, what it does NOT prove, and for an
// allowed call what allowed is not.
func AdmissionDetails(v assess.Verdict, l assess.Lang) []Detail {
	details := []Detail{{Key: DetailCorrelationID, Label: "correlationId", Text: strconv.Quote(v.CorrelationID)}}
	if len(v.MissingArguments) > 0 {
		details = append(details, Detail{Key: DetailMissingArguments, Label: texts.Missing.in(l), Text: strings.Join(v.MissingArguments, l.ListSep())})
	}
	if v.EffectStatus != "" {
		details = append(details, Detail{Key: DetailEffectStatus, Label: texts.EffectStatus.in(l), Text: v.EffectStatus})
	}
	details = append(details,
		Detail{Key: DetailMeaning, Label: texts.Means.in(l), Text: v.Code.Meaning(l)},
		Detail{Key: DetailDoesNotProve, Label: texts.NotProve.in(l), Text: v.Code.Caveat(l), Strong: true})
	if v.Status == assess.StatusAllowed {
		details = append(details, Detail{Key: DetailAllowedIsNot, Label: texts.IsNot.in(l), Text: assess.AllowedIsNot(l)})
	}
	return details
}

func audit(in assess.AuditInput, l assess.Lang) Walk {
	r, steps, err := assess.ExplainAudit(in)
	w := Walk{Heading: texts.AuditHeading.in(l), ReadsBy: texts.StepReads.in(l), Fields: look.AuditFields(in), Decisive: len(steps),
		Check: &Check{Title: texts.CheckAudit.in(l), Explanation: texts.CheckAuditOK.in(l), Passed: true}}
	for i, st := range steps {
		w.Steps = append(w.Steps, Step{ID: st.Kind.ID(), Title: st.Title(l), Question: st.Question(l),
			Explanation: st.Explanation(l), Outcome: st.Outcome, Reads: st.Reads, Audit: &steps[i]})
	}
	if err != nil {
		// The audit stops at the step that found the error, which
		// decides: the walk ends there.
		a := AuditAnswer{Diagnostics: []string{}, Pending: []string{}}
		text := err.Error()
		if errors.As(err, &a.Error) {
			text = a.Error.Text(l)
		}
		w.Result = a
		w.Verdict = Verdict{Tone: look.ToneBad, Symbol: look.No, Headline: texts.InputError.in(l), Short: texts.InputError.in(l),
			Details: []Detail{{Key: DetailError, Label: texts.Error.in(l), Text: text},
				{Key: DetailDoesNotProve, Label: texts.NotProve.in(l), Text: texts.NotAudited.in(l), Strong: true}}}
		return w
	}
	w.Result = AuditAnswer{Diagnostics: r.Diagnostics, Pending: r.Pending}
	switch {
	case len(r.Diagnostics) > 0:
		w.Verdict = Verdict{Tone: look.ToneBad, Symbol: look.No, Headline: strings.Join(r.Diagnostics, "  "),
			Short: strings.Join(r.Diagnostics, " ")}
	case len(r.Pending) > 0:
		w.Verdict = Verdict{Tone: look.ToneHold, Symbol: look.Held, Headline: texts.Pending.in(l) + l.Colon() + strings.Join(r.Pending, l.ListSep()),
			Short: texts.Pending.in(l) + " " + strings.Join(r.Pending, " ")}
	case len(in.Requested) == 0:
		// Nothing requested and no diagnostics: nothing came back either.
		w.Verdict = Verdict{Tone: look.ToneGood, Symbol: look.Yes, Headline: texts.CleanEmpty.in(l), Short: texts.CleanShort.in(l)}
	default:
		w.Verdict = Verdict{Tone: look.ToneGood, Symbol: look.Yes, Headline: texts.Clean.in(l), Short: texts.CleanShort.in(l)}
	}
	if len(r.Diagnostics) > 0 && len(r.Pending) > 0 {
		w.Verdict.Details = append(w.Verdict.Details, Detail{Key: DetailPending, Label: texts.Pending.in(l), Text: strings.Join(r.Pending, l.ListSep())})
	}
	w.Verdict.Details = append(w.Verdict.Details, Detail{Key: DetailDoesNotProve, Label: texts.NotProve.in(l), Text: assess.AuditCaveat(l), Strong: true})
	return w
}

func outcome(in assess.OutcomeInput, l assess.Lang) Walk {
	w := Walk{Heading: texts.Outcome.in(l), ReadsBy: texts.QuestionRead.in(l), Fields: look.OutcomeFields(in)}
	class, steps, err := assess.Classify(in)
	if err != nil {
		// Scenarios are checked when loaded, so this is a caller's input.
		w.Verdict = Verdict{Tone: look.ToneBad, Symbol: look.No, Headline: texts.InputError.in(l), Short: texts.InputError.in(l),
			Details: []Detail{{Key: DetailError, Label: texts.Error.in(l), Text: err.Error()}}}
		return w
	}
	for i, st := range steps {
		w.Steps = append(w.Steps, Step{ID: st.Class.String(), Title: st.Title(l), Question: st.Question(l),
			Explanation: st.Explanation(l), Outcome: st.Outcome, Reads: st.Reads})
		if st.Outcome == assess.Fired {
			w.Decisive = i + 1
		}
	}
	w.Result = OutcomeAnswer{Class: class}
	tone := map[assess.OutcomeClass]look.Tone{
		assess.ClassFound: look.ToneGood, assess.ClassNotFound: look.ToneHold,
		assess.ClassInvalidArguments: look.ToneHold, assess.ClassPermissionDenied: look.ToneBad,
		assess.ClassExecutionError: look.ToneUnknown, assess.ClassProtocolError: look.ToneBad,
	}[class]
	w.Verdict = Verdict{Tone: tone, Symbol: tone.Symbol(), Headline: strings.ToUpper(class.String()), Short: class.String(),
		Details: []Detail{
			{Key: DetailNext, Label: texts.Next.in(l), Text: class.Next(l)},
			{Key: DetailMistake, Label: texts.Mistake.in(l), Text: class.Mistake(l)},
		}}
	if advice := class.Advice(l); advice != "" {
		w.Verdict.Details = append(w.Verdict.Details, Detail{Key: DetailAdvice, Label: texts.Advice.in(l), Text: advice})
	}
	w.Verdict.Details = append(w.Verdict.Details,
		Detail{Key: DetailMCP, Label: texts.MCP.in(l), Text: class.MCP(l)},
		Detail{Key: DetailDoesNotProve, Label: texts.NotProve.in(l), Text: assess.OutcomeCaveat(l), Strong: true})
	return w
}
