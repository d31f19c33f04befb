// Package practice makes fresh practice cases once the scenarios are
// known: each is a known admission scenario with one small change — a
// field set to another value, left out, or put in, or a second tool of
// the request's name — whose value is drawn by package gen, the random
// input generator the differential tests use (blanks of JavaScript trim's
// set, near-miss statuses, absent against "", approval_<status>), from a
// seeded *rand.Rand. A story in both languages says what changed and
// never what it decides. assess decides every case; a case is a
// scenarios.Scenario, so the trainer walks it like any other.
//
// Draws lean toward the rules and codes a learner gets wrong: each rule
// and each code has a Leitner box (progress.Box), and the lower its box,
// the more often it is drawn. Nothing here writes a file: the caller keeps
// the boxes (or not, in the SSH classroom).
package practice

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"toolgate/assess"
	"toolgate/progress"
	"toolgate/scenarios"
)

// Case is one practice case.
type Case struct {
	// Scenario is the case, ready to walk: its input, its expected
	// verdict (assess's), a title and story in both languages.
	Scenario scenarios.Scenario
	// Base is the scenario it changes; Change the change.
	Base   scenarios.Scenario
	Change Change
	// Verdict is assess's verdict on the case's input.
	Verdict assess.Verdict
}

// Input is the case's input: an admission input, as every case is.
func (c Case) Input() assess.Input {
	ac, _ := c.Scenario.Case.(scenarios.AdmissionCase)
	return ac.Input
}

// Target is what a draw aims at: a code of the book (CodeApprovalStatus
// stands for every approval_<status>).
type Target = assess.Code

// RuleKey and CodeKey name the Leitner boxes in progress.Practice.
func RuleKey(r assess.Rule) string { return fmt.Sprintf("rule/%d", r) }

// CodeKey names a code's box; every approval_<status> shares one.
func CodeKey(c assess.Code) string { return "code/" + c.String() }

// box is a key's Leitner box, 1 for one never answered.
func box(boxes map[string]progress.Box, key string) int {
	if b, ok := boxes[key]; ok && b.Box >= 1 {
		return min(b.Box, progress.MaxBox)
	}
	return 1
}

// weight is how strongly a code is drawn: the product of how far its box
// and its rule's box are from mastered, 1 (both mastered) to 25 (both new
// or just missed).
func weight(boxes map[string]progress.Box, c assess.Code) int {
	return (progress.MaxBox + 1 - box(boxes, CodeKey(c))) * (progress.MaxBox + 1 - box(boxes, RuleKey(c.Rule())))
}

// pickTarget draws a code, weighted by the boxes.
func pickTarget(r *rand.Rand, boxes map[string]progress.Box) assess.Code {
	total := 0
	for _, c := range assess.Codes() {
		total += weight(boxes, c)
	}
	n := r.IntN(total)
	for _, c := range assess.Codes() {
		if n -= weight(boxes, c); n < 0 {
			return c
		}
	}
	return assess.CodeAdmissionAllowed
}

// tries bounds the draws of a change that lands on the target code.
const tries = 1000

// fits says whether a case answers the target. For approval_<status> the
// status must be the change's, not its scenario's ("expired" in scenario
// 9): else the draw would mostly be scenario 9 with a change beside the
// point, and the statuses gen draws ("revoked", " active", …) rare.
func fits(c Case, target assess.Code) bool {
	if c.Verdict.Code != target {
		return false
	}
	if target != assess.CodeApprovalStatus {
		return true
	}
	bc, ok := c.Base.Case.(scenarios.AdmissionCase)
	return !ok || bc.Expect.Code != assess.CodeApprovalStatus || bc.Expect.ApprovalStatus != c.Verdict.ApprovalStatus
}

// Bases are the scenarios practice changes: the admission ones.
func Bases(all []scenarios.Scenario) []scenarios.Scenario {
	return scenarios.InTrack(all, scenarios.TrackAdmission)
}

// Draw draws one case from the bases, aimed at a code drawn by the boxes
// (nil boxes: every code alike). The same r in the same state gives the
// same case. It panics when bases is empty.
func Draw(r *rand.Rand, bases []scenarios.Scenario, boxes map[string]progress.Box) Case {
	if len(bases) == 0 {
		panic("practice: no scenario to change")
	}
	target := pickTarget(r, boxes)
	var first *Case
	for range tries {
		base := pickOf(r, bases)
		bc, ok := base.Case.(scenarios.AdmissionCase)
		if !ok {
			continue // only an admission scenario is a base
		}
		in, ch, ok := mutate(r, bc.Input)
		if !ok {
			continue
		}
		c := build(base, in, ch)
		if fits(c, target) {
			return c
		}
		if first == nil || (first.Verdict.Code != target && c.Verdict.Code == target) {
			first = &c // the best so far: one of the target's code, else any
		}
	}
	return *first
}

// Next is the next practice case for a learner: drawn from the admission
// scenarios of all, leaning toward the rules and codes in the lowest
// Leitner boxes of p. It writes nothing; record the answer with Record.
func Next(p progress.Progress, all []scenarios.Scenario, r *rand.Rand) Case {
	return Draw(r, Bases(all), p.Practice)
}

// Record moves the Leitner boxes after an answer to a case: the rule's box
// up when the rule said is the rule that decides, else back to 1; the
// code's box up when the code is right too. right is a full answer, half
// the right rule with the wrong code (the quiz's half point).
func Record(p *progress.Progress, c Case, saidRule int, saidCode string) (right, half bool) {
	rule := c.Verdict.Code.Rule()
	ruleRight := saidRule == int(rule)
	right = ruleRight && saidCode == c.Verdict.CodeName()
	p.RecordPractice(RuleKey(rule), ruleRight)
	p.RecordPractice(CodeKey(c.Verdict.Code), right)
	return right, ruleRight && !right
}

// build makes the case of a base with a changed input.
func build(base scenarios.Scenario, in assess.Input, ch Change) Case {
	v := assess.Assess(&in)
	s := scenarios.Scenario{
		ID:       "practice~" + base.ID + "~" + ch.Path + "=" + slug(ch.Now),
		Number:   base.Number, // the scenario it changes; no File: it is not one to edit
		Title:    title(base),
		Story:    story(base, ch),
		Injected: injected(ch),
		Case: scenarios.AdmissionCase{Input: in, Expect: scenarios.AdmissionExpect{Status: v.Status, Code: v.Code, ApprovalStatus: v.ApprovalStatus,
			MissingArguments: slices.Clone(v.MissingArguments), EffectStatus: v.EffectStatus}},
	}
	return Case{Scenario: s, Base: base, Change: ch, Verdict: v}
}

// injected is the change in one line, "approval.status: "expired" →
// " active"", or "contract.tools[0]: + {…}" for a tool put in.
func injected(ch Change) scenarios.Text {
	if ch.Op == OpInsert {
		return scenarios.Text{En: ch.Path + ": + " + ch.Now, Zh: ch.Path + "：+ " + ch.Now}
	}
	return scenarios.Text{En: ch.Path + ": " + ch.Was + " → " + ch.Now, Zh: ch.Path + "：" + ch.Was + " → " + ch.Now}
}

// Sheet is count cases for a worksheet, drawn from bases by a PCG
// generator seeded with seed, every code alike (no learner's boxes): the
// same seed and bases give the same cases on any machine. It panics when
// bases is empty.
func Sheet(seed uint64, count int, bases []scenarios.Scenario) []Case {
	r := rand.New(rand.NewPCG(seed, 2026))
	cases := make([]Case, count)
	for i := range cases {
		cases[i] = Draw(r, bases, nil)
	}
	return cases
}

// slug is a value as a short piece of an id.
func slug(s string) string {
	s = strings.Trim(s, `"`)
	if len(s) > 24 {
		s = s[:24]
	}
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '~' {
			return '_'
		}
		return r
	}, s)
}
