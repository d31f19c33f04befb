package whatif_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/scenarios"
	"toolgate/whatif"
)

func admissionInputs(t *testing.T) map[string]assess.Input {
	t.Helper()
	out := map[string]assess.Input{}
	for _, s := range scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAdmission) {
		out[s.ID] = s.Case.(scenarios.AdmissionCase).Input
	}
	require.NotEmpty(t, out)
	return out
}

func knobIDs(cs whatif.Changes) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Knob.ID+"="+c.Knob.Options[c.Option][0])
	}
	return out
}

// smallestByBruteForce tries every assignment of the knobs that keep
// (unchanged, or one of its options) — subsets by bit mask, each the whole
// product of its knobs' options, not sets in order of size — and returns
// the fewest changed knobs that reach allowed, or -1. evidence says a set
// must change at least one evidence knob; most bounds the set's size.
func smallestByBruteForce(in assess.Input, keep func(whatif.Knob) bool, evidence bool, most int) int {
	knobs := whatif.Knobs()
	best := -1
	for mask := 1; mask < 1<<len(knobs); mask++ {
		var idx []int
		touches := false
		for k := range knobs {
			if mask&(1<<k) != 0 {
				idx = append(idx, k)
				touches = touches || knobs[k].Evidence
			}
		}
		if len(idx) > most || best >= 0 && len(idx) >= best || evidence && !touches {
			continue
		}
		ok := true
		for _, k := range idx {
			ok = ok && keep(knobs[k])
		}
		if !ok {
			continue
		}
		var rec func(i int, cs whatif.Changes) bool
		rec = func(i int, cs whatif.Changes) bool {
			if i == len(idx) {
				out := cs.Apply(in)
				return assess.Assess(&out).Status == assess.StatusAllowed
			}
			k := knobs[idx[i]]
			for o := range k.Options {
				if o == k.Current(in) {
					continue
				}
				if rec(i+1, append(cs, whatif.Change{Knob: k, Option: o})) {
					return true
				}
			}
			return false
		}
		if rec(0, nil) {
			best = len(idx)
		}
	}
	return best
}

func requestKnob(k whatif.Knob) bool { return !k.Evidence }

func anyKnob(whatif.Knob) bool { return true }

func TestPathToAllowedScenarios(t *testing.T) {
	inputs := admissionInputs(t)
	tests := []struct {
		id        string
		allowed   bool
		reachable bool
		toAllowed []string // the first smallest set, in menu order
	}{
		{"unknown-tool", false, false, nil},
		{"invalid-arguments", false, true, []string{"argument=as written"}},
		{"read-only-candidate", true, true, nil},
		{"write-without-approval", false, true, []string{"approval=active"}},
		// Only evidence stands in the way: no change of the request is a
		// fix, and deleting the record is offered as none.
		{"correlation-conflict", false, false, nil},
		{"timed-out-no-readback", false, false, nil},
		{"succeeded-not-verified", false, false, nil},
		{"demo", true, true, nil},
		{"expired-approval", false, true, []string{"approval=active"}},
		{"blank-argument", false, true, []string{"argument=as written"}},
		{"two-tools-one-name", false, true, []string{"version=the contract's"}},
		{"write-without-approval-scope", true, true, nil},
		{"timed-out-no-effect-status", true, true, nil},
		{"name-required-twice", false, true, []string{"argument=as written"}},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			in, ok := inputs[tt.id]
			require.True(t, ok)
			before := whatif.Clone(in)
			p := whatif.PathToAllowed(in)
			assert.Equal(t, before, in, "the input is not changed")
			assert.Equal(t, assess.Assess(&in), p.Verdict)
			assert.Equal(t, tt.allowed, p.Allowed)
			assert.Equal(t, tt.reachable, p.Reachable)
			assert.Equal(t, tt.toAllowed, knobIDs(p.ToAllowed))
		})
	}
	// The timeout: rewriting the record would get there, and is said to
	// be no fix, with why.
	p := whatif.PathToAllowed(inputs["timed-out-no-readback"])
	assert.Equal(t, []string{"record=none"}, knobIDs(p.NotAFix))
	assert.Contains(t, p.NotAFix[0].NotAFix(assess.English), "hides it")
	assert.NotEmpty(t, p.NotAFix[0].NotAFix(assess.Chinese))
	// A write without approval: the approval is the fix; relabelling
	// the tool read-only is not one.
	p = whatif.PathToAllowed(inputs["write-without-approval"])
	assert.Equal(t, []string{"class=read_only"}, knobIDs(p.NotAFix))
	for _, a := range append([]whatif.Changes{p.ToAllowed}, p.Alternatives...) {
		for _, c := range a {
			assert.False(t, c.Knob.Evidence, "%s: a path never rewrites evidence or the contract", c.Knob.ID)
			assert.Empty(t, c.NotAFix(assess.English))
		}
	}
}

// checkPath checks what a Path claims against assess and a brute force.
func checkPath(t *testing.T, name string, in assess.Input) {
	t.Helper()
	p := whatif.PathToAllowed(in)
	v, trace := assess.Explain(&in)
	smallest := smallestByBruteForce(in, requestKnob, false, len(whatif.Knobs()))
	switch {
	case p.Allowed:
		assert.Equal(t, assess.StatusAllowed, v.Status, name)
		assert.Empty(t, p.ToAllowed, name)
		assert.Empty(t, p.NotAFix, name)
	case !p.Reachable:
		assert.Equal(t, -1, smallest, "%s: brute force finds no way to allowed either", name)
		assert.Empty(t, p.ToAllowed, name)
	default:
		assert.Equal(t, smallest, len(p.ToAllowed), "%s: the path is as short as brute force finds", name)
		for _, cs := range append([]whatif.Changes{p.ToAllowed}, p.Alternatives...) {
			out := cs.Apply(in)
			assert.Equal(t, assess.StatusAllowed, assess.Assess(&out).Status, "%s: %v reaches allowed", name, knobIDs(cs))
			assert.Len(t, cs, len(p.ToAllowed), "%s: alternatives are as short", name)
		}
	}
	if !p.Allowed && v.Code != assess.CodeUnknownTool {
		evidence := smallestByBruteForce(in, anyKnob, true, whatif.MaxChanges)
		assert.Equal(t, evidence, len(p.NotAFix)+map[bool]int{true: -1}[p.NotAFix == nil], "%s: the evidence change is as short as brute force finds", name)
		if p.NotAFix != nil {
			out := p.NotAFix.Apply(in)
			assert.Equal(t, assess.StatusAllowed, assess.Assess(&out).Status, name)
		}
	}
	var passed []assess.Rule
	for _, st := range trace {
		if st.Outcome == assess.Passed {
			passed = append(passed, st.Rule)
		}
	}
	require.Len(t, p.Fire, len(passed), name)
	for i, f := range p.Fire {
		assert.Equal(t, passed[i], f.Rule, name)
		if f.Changes == nil {
			continue
		}
		out := f.Changes.Apply(in)
		got := assess.Assess(&out)
		assert.Equal(t, f.Rule, got.Code.Rule(), "%s: %v makes rule %d fire", name, knobIDs(f.Changes), f.Rule)
		assert.Equal(t, got, f.Verdict, name)
	}
}

func TestPathToAllowedAgainstBruteForce(t *testing.T) {
	for id, in := range admissionInputs(t) {
		checkPath(t, id, in)
	}
	// Inputs a learner reaches in what-if: each scenario with a few knobs
	// turned at random (seeded, so the run is the same every time).
	r := rand.New(rand.NewPCG(15, 6))
	knobs := whatif.Knobs()
	ids := []string{"invalid-arguments", "write-without-approval", "timed-out-no-readback", "demo", "correlation-conflict"}
	inputs := admissionInputs(t)
	for i := range 40 {
		in := inputs[ids[i%len(ids)]]
		var cs whatif.Changes
		for _, k := range knobs {
			if r.IntN(3) == 0 {
				cs = append(cs, whatif.Change{Knob: k, Option: r.IntN(len(k.Options))})
			}
		}
		checkPath(t, ids[i%len(ids)]+" "+joinIDs(knobIDs(cs)), cs.Apply(in))
	}
}

func joinIDs(ids []string) string {
	s := ""
	for _, id := range ids {
		s += id + " "
	}
	return s
}

func TestPathFiresEachPassedRule(t *testing.T) {
	p := whatif.PathToAllowed(admissionInputs(t)["demo"])
	want := map[assess.Rule]string{
		assess.RuleToolInContract: "version=one the contract lacks",
		assess.RuleEnvironment:    "environment=degraded",
		assess.RuleVerification:   "verification=not_run",
		assess.RuleApproval:       "class=reversible_write",
	}
	require.Len(t, p.Fire, 7, "the demo passes rules 1–7")
	for _, f := range p.Fire {
		require.NotNil(t, f.Changes, "rule %d can be made to fire", f.Rule)
		if w, ok := want[f.Rule]; ok {
			assert.Equal(t, []string{w}, knobIDs(f.Changes), "rule %d", f.Rule)
		}
	}
	// The demo's approval names metadata_write, not the tool's own name:
	// made a write, the read tool asks for its own scope.
	assert.Equal(t, assess.CodeApprovalScopeMismatch, p.Fire[6].Verdict.Code)
}

func TestEdits(t *testing.T) {
	in := admissionInputs(t)["write-without-approval"]
	p := whatif.PathToAllowed(in)
	assert.Equal(t, []whatif.Edit{
		{Path: "approval.status", To: `"active"`},
		{Path: "approval.scope", To: `"metadata_write"`},
	}, whatif.Edits(in, p.ToAllowed.Apply(in)))
	rec := admissionInputs(t)["correlation-conflict"]
	q := whatif.PathToAllowed(rec)
	edits := whatif.Edits(rec, q.NotAFix.Apply(rec))
	require.NotEmpty(t, edits)
	for _, e := range edits {
		assert.Contains(t, e.Path, "invocationRecord.", "removing the record removes its fields")
		assert.Empty(t, e.To)
	}
	assert.Empty(t, whatif.Edits(in, in))
	assert.Equal(t, "Approval → active", p.ToAllowed[0].Text(assess.English))
}

// TestEditText: an edit reads the same in the CLI and the TUI, in both
// languages, and an absent value is told from one present as null.
func TestEditText(t *testing.T) {
	in := admissionInputs(t)["write-without-approval"]
	p := whatif.PathToAllowed(in)
	edits := whatif.Edits(in, p.ToAllowed.Apply(in))
	require.NotEmpty(t, edits)
	assert.Equal(t, `approval.status: absent → "active"`, edits[0].Text(assess.English))
	assert.Equal(t, `approval.status：缺失 → "active"`, edits[0].Text(assess.Chinese))

	// An argument present as null is null, not absent; a value that
	// contains the word is not taken for the word.
	without := whatif.Clone(in)
	delete(without.Request.Arguments, "documentId")
	nulled := whatif.Clone(without)
	nulled.Request.Arguments["documentId"] = nil
	nulled.Request.Arguments["note"] = "absent"
	text := func(e []whatif.Edit, l assess.Lang) []string {
		var out []string
		for _, e := range e {
			out = append(out, e.Text(l))
		}
		return out
	}
	assert.Equal(t, []string{`request.arguments.documentId：缺失 → null`, `request.arguments.note：缺失 → "absent"`},
		text(whatif.Edits(without, nulled), assess.Chinese), "a value is never translated")
	assert.Equal(t, []string{`request.arguments.documentId: null → absent`, `request.arguments.note: "absent" → absent`},
		text(whatif.Edits(nulled, without), assess.English))

	two := whatif.Changes{p.ToAllowed[0], p.NotAFix[0]}
	assert.Equal(t, "Approval → active + Tool's effect class → read_only", two.Text(assess.English))
	assert.Empty(t, whatif.Changes(nil).Text(assess.English))
}

// TestEditsOfAnEmptyObject: a member added to arguments {} is the edit;
// the arguments are not said to become absent.
func TestEditsOfAnEmptyObject(t *testing.T) {
	in := admissionInputs(t)["invalid-arguments"]
	p := whatif.PathToAllowed(in)
	require.Equal(t, []string{"argument=as written"}, knobIDs(p.ToAllowed))
	assert.Equal(t, []whatif.Edit{{Path: "request.arguments.documentId", To: `"value-documentId"`}},
		whatif.Edits(in, p.ToAllowed.Apply(in)))
}
