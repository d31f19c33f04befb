package tui

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/nav"
	"toolgate/progress"
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
func firstQuestion(c *common) question {
	if c.track() == scenarios.TrackAudit {
		options, correct := auditOptions(c.written())
		return question{phase: quizAskAudit, options: options, correct: correct}
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
	in := s.Audit
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
		alt.Audit = v
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
func caveatQuestion(c *common) question {
	v, ok := c.walk.Result.(assess.Verdict)
	if !ok {
		return question{}
	}
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
func (q question) answer(c *common, digit int) (next question, done bool, step int, code assess.Code) {
	switch q.phase {
	case quizAskStep:
		if digit < 1 || digit > len(c.walk.Steps) {
			return q, false, 0, 0
		}
		if c.track() != scenarios.TrackAdmission {
			return question{}, true, digit, 0
		}
		if codes := codeOptions(digit); len(codes) == 1 {
			return question{}, true, digit, codes[0]
		}
		return question{phase: quizAskCode, picked: digit}, false, 0, 0
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
	}
	return q, false, 0, 0
}

// mark compares a prediction with what the walk says decided: the rule
// and code, or the class; what was said and what decided are written in
// both languages.
func (c *common) mark(step int, code assess.Code) quizResult {
	s := c.written()
	r := quizResult{number: s.Number, title: s.Title}
	walks := [2]walk.Walk{walk.Of(c.scenario(), assess.English), walk.Of(c.scenario(), assess.Chinese)}
	ruleAnswer := func(l assess.Lang, step int, code string) string {
		return fmt.Sprintf("%s %d%s%s", tr("rule", l), step, tr("comma", l), code)
	}
	switch res := c.walk.Result.(type) {
	case assess.Verdict:
		r.right = step == c.walk.Decisive && code == res.Code
		r.half = step == c.walk.Decisive && code != res.Code
		r.said = scenarios.Text{En: ruleAnswer(assess.English, step, code.String()), Zh: ruleAnswer(assess.Chinese, step, code.String())}
		r.decided = scenarios.Text{En: ruleAnswer(assess.English, c.walk.Decisive, res.CodeName()), Zh: ruleAnswer(assess.Chinese, c.walk.Decisive, res.CodeName())}
		r.caveatRight = scenarios.Text{En: res.Code.Caveat(assess.English), Zh: res.Code.Caveat(assess.Chinese)}
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
func (q question) lines(c *common) []string {
	label := c.styles.Verdict.Label
	switch q.phase {
	case quizAskStep:
		text := tr("quizRule", c.lang)
		if c.track() == scenarios.TrackOutcome {
			text = tr("quizClass", c.lang)
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
	}
	return nil
}

// resultLines are a marked answer: right, half right (the rule, not the
// code), or wrong; then the "does NOT prove" answer once given.
func (c *common) resultLines(r quizResult) []string {
	var out []string
	switch {
	case r.right:
		out = append(out, c.styles.tone(look.ToneGood).Render("✓ "+fmt.Sprintf(tr("quizRight", c.lang), r.decided.In(c.lang))))
	case r.half:
		out = append(out, c.styles.tone(look.ToneHold).Render("◐ "+fmt.Sprintf(tr("quizHalf", c.lang), r.said.In(c.lang), r.decided.In(c.lang))))
	default:
		out = append(out, c.styles.tone(look.ToneBad).Render("✗ "+fmt.Sprintf(tr("quizWrong", c.lang), r.said.In(c.lang), r.decided.In(c.lang))))
	}
	switch r.caveat {
	case 1:
		out = append(out, c.styles.tone(look.ToneGood).Render("✓ "+tr("quizCaveatRight", c.lang)))
	case -1:
		out = append(out, c.styles.tone(look.ToneBad).Render("✗ "+fmt.Sprintf(tr("quizCaveatWrong", c.lang), r.caveatRight.In(c.lang))))
	}
	return out
}

// quizModel is the quiz mode: each scenario asks first, then reveals the
// walk and marks the answer; the end of the track shows a summary.
type quizModel struct {
	q       question
	results map[string]quizResult
	order   []string // scenario ids in the order answered
	summary bool
}

// quizzable reports whether the quiz asks about the open scenario: every
// track asks (the audit offers a choice of diagnostics).
func quizzable(c *common) bool { return c.has() }

// resume takes the answers given in earlier sessions (the saved
// progress), so a restarted quiz keeps its score and does not ask again,
// and (move) opens the first scenario of the track not answered yet,
// from the one open: a quiz started with --quiz resumes; one turned on
// with g stays where the learner is.
func (m quizModel) resume(c *common, move bool) quizModel {
	if m.results == nil {
		m.results = map[string]quizResult{}
	}
	for _, in := range c.byTrack {
		for _, s := range in {
			a, ok := c.prog.Quiz[s.ID]
			if _, have := m.results[s.ID]; !ok || have {
				continue
			}
			m.results[s.ID] = quizResult{number: s.Number, title: s.Title, said: savedAnswer(a.Said), decided: savedAnswer(a.Decided),
				right: a.Right, half: a.Half, caveat: map[string]int{"right": 1, "wrong": -1}[a.Caveat], caveatRight: caveatOf(s)}
			m.order = append(m.order, s.ID)
		}
	}
	if n := len(c.inTrack()); n > 0 && move {
		for i := range n {
			j := (c.at.Scenario + i) % n
			if _, done := m.results[c.inTrack()[j].ID]; !done {
				if j != c.at.Scenario {
					c.navigate(nav.Action{Kind: nav.Select, Track: c.at.Track, N: j})
				}
				break
			}
		}
	}
	return m
}

// start asks about the open scenario if it has not been answered in this
// session and nothing is revealed yet.
func (m quizModel) start(c *common) quizModel {
	m.q = question{}
	if !quizzable(c) || c.at.Step != 0 {
		return m
	}
	if _, done := m.results[c.written().ID]; done {
		return m
	}
	m.q = firstQuestion(c)
	c.navigate(nav.Action{Kind: nav.Open})
	return m
}

func (m quizModel) keys(c *common, b *browseModel, now bool) quizKeyMap {
	k := quizKeyMap{walkKeys: newWalkKeys(c.lang), listKeys: newListKeys(c.lang), Answer: answerBinding(c.lang), globalKeys: newGlobalKeys(c.lang)}
	k.Quiz.SetHelp("g", tr("kQuizOff", c.lang))
	// Digits answer in the quiz; they never open a scenario here.
	off(&k.Jump, &k.WhatIf)
	c.layoutKeys(&k.walkKeys, &k.listKeys)
	if !now {
		return k
	}
	c.stepKeysFor(&k.walkKeys, &k.listKeys)
	off(&k.Jump)
	// Stepping before answering is peeking: it only says so. Its keys are
	// the walk's stepping keys as the focus has them (from the list,
	// enter opens and only e runs).
	k.Peek = key.NewBinding(key.WithKeys(append(slices.Clone(k.Next.Keys()), k.Run.Keys()...)...))
	onIf(m.q.asking(), &k.Answer, &k.Peek)
	onIf(canPath(c) && !m.q.asking(), &k.Path)
	if m.q.asking() {
		off(&k.Next, &k.Run, &k.Back, &k.Restart)
	}
	b.stateKeys(c, &k.walkKeys, &k.listKeys, &k.globalKeys)
	if b.busy() {
		off(&k.Answer, &k.Peek)
	}
	return k
}

func (m quizModel) update(c *common, b *browseModel, msg tea.KeyPressMsg) (quizModel, tea.Cmd) {
	if m.summary {
		return m.summaryKey(c, msg), nil
	}
	k := m.keys(c, b, true)
	switch {
	case b.busy():
	case key.Matches(msg, k.Answer):
		phase := m.q.phase
		next, done, step, code := m.q.answer(c, int(msg.Code-'0'))
		if done && phase == quizAskCaveat {
			m.markCaveat(c, m.q, step)
			m.q = question{}
			return m, nil
		}
		m.q = next
		if done {
			m.finish(c, step, code)
		}
		return m, nil
	case key.Matches(msg, k.Peek):
		c.notice = tr("answerFirst", c.lang)
		return m, nil
	case key.Matches(msg, k.NextScenario) && c.at.Scenario == len(c.inTrack())-1 && len(m.results) > 0:
		// The end of the track: the summary of the session.
		m.summary, c.scroll = true, 0
		return m, nil
	}
	before := c.at
	var cmd tea.Cmd
	b.filter.hide = m.titleHidden
	*b, cmd = b.handle(c, msg, k.walkKeys, k.listKeys, !m.q.asking())
	if c.at.Track != before.Track || c.at.Scenario != before.Scenario {
		m = m.start(c) // a scenario opened: the quiz asks about it
	}
	return m, cmd
}

// titleHidden reports whether the list keeps a scenario's title back:
// until it is answered, it names the answer.
func (m quizModel) titleHidden(id string) bool {
	_, answered := m.results[id]
	return !answered
}

// finish marks the answer against what the core decided, records it and
// reveals the walk.
func (m *quizModel) finish(c *common, step int, code assess.Code) {
	s := c.written()
	r := c.mark(step, code)
	if m.results == nil {
		m.results = map[string]quizResult{}
	}
	m.results[s.ID] = r
	m.order = append(m.order, s.ID)
	c.prog.Record(s.ID, progress.Answer{Said: r.said.In(c.lang), Right: r.right, Half: r.half, Decided: r.decided.In(c.lang)})
	c.dirty = true
	c.setStep(c.lastStep())
	// The seed's central column: what the verdict does NOT prove, asked
	// before its lines are shown.
	m.q = caveatQuestion(c)
}

// markCaveat marks the "does NOT prove" answer.
func (m *quizModel) markCaveat(c *common, q question, picked int) {
	id := c.written().ID
	r := m.results[id]
	r.caveat, r.caveatRight = -1, q.options[q.correct-1]
	if picked == q.correct {
		r.caveat = 1
	}
	m.results[id] = r
	if a, ok := c.prog.Quiz[id]; ok {
		a.Caveat = map[int]string{1: "right", -1: "wrong"}[r.caveat]
		c.prog.Quiz[id] = a
		c.dirty = true
	}
}

// caveatOf is what an admission scenario's verdict does NOT prove, the
// right answer to its caveat question; nothing for another track.
func caveatOf(s scenarios.Scenario) scenarios.Text {
	if s.Track != scenarios.TrackAdmission {
		return scenarios.Text{}
	}
	code := assess.Assess(&s.Input).Code
	return scenarios.Text{En: code.Caveat(assess.English), Zh: code.Caveat(assess.Chinese)}
}

// score is the session's points out of the questions asked: one a
// scenario, since an answered scenario is not asked again; the right rule
// with the wrong code is half a point. Caveats counts the "does NOT
// prove" answers, right of asked.
func (m quizModel) score() (points float64, asked int) {
	for _, r := range m.results {
		switch {
		case r.right:
			points++
		case r.half:
			points += 0.5
		}
	}
	return points, len(m.results)
}

func (m quizModel) caveats() (right, asked int) {
	for _, r := range m.results {
		if r.caveat != 0 {
			asked++
		}
		if r.caveat == 1 {
			right++
		}
	}
	return right, asked
}

// scoreText is "1.5/3" in the header and the summary.
func scoreText(points float64, asked int) string {
	return strconv.FormatFloat(points, 'f', -1, 64) + "/" + strconv.Itoa(asked)
}

func (m quizModel) view(c *common, b *browseModel, height int) string {
	if m.summary {
		return joinColumns(height, "", column{m.renderSummary(c, height), c.width})
	}
	if b.path != nil {
		return b.path.render(c, c.width, height)
	}
	return c.renderBody(m.body(c, b), height)
}

// body is the quiz's panes: the walk with the question or the marked
// answer, the list without the titles not yet answered.
func (m quizModel) body(c *common, b *browseModel) body {
	x := walkExtras{hint: c.stepHint(false)}
	if r, ok := m.results[c.written().ID]; ok && c.has() {
		x.question = c.resultLines(r)
	}
	if m.q.asking() {
		x.question = append(x.question, m.q.lines(c)...)
		x.hint = tr("quizHint", c.lang)
		switch {
		case m.q.phase == quizAskCaveat:
			x.hint = tr("quizHintCaveat", c.lang)
			x.hideCaveats = true
		case c.track() == scenarios.TrackOutcome:
			x.hint = tr("quizHintOutcome", c.lang)
		case c.track() == scenarios.TrackAudit:
			x.hint = tr("quizHintAudit", c.lang)
			if columnsFor(c.width).inputs == 0 {
				// One column: the inputs are a key away.
				x.hint = tr("quizHintAuditTab", c.lang)
			}
		}
	}
	// What would answer the question is hidden until it is answered.
	x.hideTitle = m.q.predicting()
	x.keepRules = m.q.numbersSteps()
	out := b.body(c, x)
	results := m.results
	if results == nil {
		results = map[string]quizResult{}
	}
	filter := b.filter
	out.left = func(w, h int) string { return c.renderList(filter, w, h, results, "") }
	return out
}
