package whatif

import (
	"strings"

	"toolgate/assess"
	"toolgate/look"
)

// Change is one knob set to one option.
type Change struct {
	Knob   Knob
	Option int
}

// Text is the change for people, e.g. "Approval → active".
func (c Change) Text(l assess.Lang) string {
	return c.Knob.Name(l) + " → " + c.Knob.Option(c.Option, l)
}

// Changes is a set of knob changes, applied in menu order.
type Changes []Change

// Text is the changes for people, joined with " + ", e.g.
// "Approval → active + Environment → ready".
func (cs Changes) Text(l assess.Lang) string {
	texts := make([]string, len(cs))
	for i, c := range cs {
		texts[i] = c.Text(l)
	}
	return strings.Join(texts, " + ")
}

// Apply returns a copy of the input with every change made, in order.
func (cs Changes) Apply(in assess.Input) assess.Input {
	out := Clone(in)
	for _, c := range cs {
		c.Knob.apply(&out, c.Option)
	}
	return out
}

// Edit is one field a set of changes changes: its path (as look names
// fields, e.g. "approval.status") and its value before and after, as JSON
// text; an absent value is "" (a value present as null is "null").
type Edit struct {
	Path     string
	From, To string
}

// Text is the edit for people, e.g. `approval.status: absent → "active"`:
// an absent value is called absent, a null one null.
func (e Edit) Text(l assess.Lang) string {
	return e.Path + [2]string{": ", "："}[l] + editValue(e.From, l) + " → " + editValue(e.To, l)
}

func editValue(v string, l assess.Lang) string {
	if v == "" {
		return [2]string{"absent", "缺失"}[l]
	}
	return v
}

// Edits lists the fields that differ between before and after, in the
// order look lists an input's fields: what a set of changes does to an
// input, field by field.
func Edits(before, after assess.Input) []Edit {
	values := func(in assess.Input) ([]string, map[string]string) {
		var order []string
		m := map[string]string{}
		for _, f := range look.Fields(in, nil) {
			order = append(order, f.Path)
			if !f.Absent {
				m[f.Path] = f.Value
			}
		}
		return order, m
	}
	beforeOrder, was := values(before)
	afterOrder, is := values(after)
	var out []Edit
	seen := map[string]bool{}
	// A container shown as a field of its own while empty ({}) is not
	// gone when a member appears in it: the member is the edit.
	hasChild := func(m map[string]string, p string) bool {
		for q := range m {
			if strings.HasPrefix(q, p+".") {
				return true
			}
		}
		return false
	}
	for _, p := range append(afterOrder, beforeOrder...) {
		if seen[p] {
			continue
		}
		seen[p] = true
		if was[p] == is[p] || is[p] == "" && hasChild(is, p) || was[p] == "" && hasChild(was, p) {
			continue
		}
		out = append(out, Edit{Path: p, From: was[p], To: is[p]})
	}
	return out
}

// Firing is, for a rule that passed, the smallest set of changes that
// makes that rule the one that decides, and the verdict it then gives.
// Changes is nil when no combination of the knobs makes the rule fire.
type Firing struct {
	Rule    assess.Rule
	Changes Changes
	Verdict assess.Verdict
}

// Path answers "what is missing to get allowed?" for one admission input,
// over the what-if knobs, with assess deciding every candidate. A path
// changes only the request and its situation (the approval, the
// environment, an argument, the version asked for): a change that
// rewrites what already happened, or the contract, is never offered as a
// fix. Such a change is kept apart, as NotAFix, with why each of its
// knobs is not one.
type Path struct {
	// Verdict is the input's own verdict.
	Verdict assess.Verdict
	// Allowed says the input is allowed already; ToAllowed is then empty.
	Allowed bool
	// Reachable says some change of the request or its situation makes
	// it allowed.
	Reachable bool
	// ToAllowed is the first smallest set of such changes (in menu order)
	// that makes the verdict allowed; Alternatives are the other sets of
	// that size, at most MaxAlternatives of them.
	ToAllowed    Changes
	Alternatives []Changes
	// NotAFix is, when the input is not allowed, the smallest set of
	// changes (of at most MaxChanges knobs) that makes it allowed by
	// rewriting evidence or the contract too; nil when there is none.
	// It is what a harness must not do.
	NotAFix Changes
	// Fire has one entry per rule that passed, in rule order.
	Fire []Firing
}

// MaxAlternatives bounds how many other smallest sets a Path lists.
const MaxAlternatives = 3

// MaxChanges bounds the sets of changes that touch evidence or the
// contract (NotAFix, Fire): a lesson needs the small ones, and the search
// over every knob stays a few thousand calls of assess.
const MaxChanges = 3

// PathToAllowed computes the path to allowed for an admission input. It is
// pure: it turns the knobs on copies of in (in is not changed) and asks
// assess for the verdict of each copy. Sets of changes are tried in order
// of size, so the answer is exact over the knobs: no smaller set works.
// When no change of the request or its situation reaches allowed (a tool
// the contract lacks, a second required argument missing, a record that
// says the effect is unknown), Reachable is false.
func PathToAllowed(in assess.Input) Path {
	knobs := Knobs()
	v, trace := assess.Explain(&in)
	p := Path{Verdict: v, Allowed: v.Status == assess.StatusAllowed}
	p.Reachable = p.Allowed
	// For each knob, the options that change the input: every option but
	// the one the input is at.
	options := make([][]int, len(knobs))
	request := make([][]int, len(knobs))
	for i, k := range knobs {
		cur := k.Current(in)
		for o := range k.Options {
			if o != cur {
				options[i] = append(options[i], o)
			}
		}
		if !k.Evidence {
			request[i] = options[i]
		}
	}
	// No knob names another tool: a tool the contract lacks stays so.
	known := tool(&in) != nil
	if !p.Allowed && known {
		for size := 1; size <= len(knobs) && p.ToAllowed == nil; size++ {
			eachCombination(knobs, request, size, func(cs Changes) {
				if assess.Assess(ptr(cs.Apply(in))).Status != assess.StatusAllowed {
					return
				}
				switch {
				case p.ToAllowed == nil:
					p.ToAllowed, p.Reachable = clone(cs), true
				case len(p.Alternatives) < MaxAlternatives:
					p.Alternatives = append(p.Alternatives, clone(cs))
				}
			})
		}
	}
	fire := map[assess.Rule]int{} // rule → index in p.Fire
	for _, st := range trace {
		if st.Outcome == assess.Passed {
			fire[st.Rule] = len(p.Fire)
			p.Fire = append(p.Fire, Firing{Rule: st.Rule})
		}
	}
	unfired := len(p.Fire)
	wantFix := !p.Allowed && known
	for size := 1; size <= MaxChanges && (unfired > 0 || wantFix); size++ {
		eachCombination(knobs, options, size, func(cs Changes) {
			got := assess.Assess(ptr(cs.Apply(in)))
			if wantFix && got.Status == assess.StatusAllowed && cs.touchEvidence() {
				p.NotAFix, wantFix = clone(cs), false
			}
			if i, ok := fire[got.Code.Rule()]; ok && p.Fire[i].Changes == nil {
				p.Fire[i].Changes, p.Fire[i].Verdict = clone(cs), got
				unfired--
			}
		})
	}
	return p
}

// touchEvidence reports whether a set of changes turns a knob of evidence
// or of the contract.
func (cs Changes) touchEvidence() bool {
	for _, c := range cs {
		if c.Knob.Evidence {
			return true
		}
	}
	return false
}

// NotAFix says why a change is not a fix: the knob's reason, or "" for a
// change of the request or its situation.
func (c Change) NotAFix(l assess.Lang) string {
	if !c.Knob.Evidence {
		return ""
	}
	return c.Knob.NotAFix[l]
}

func ptr(in assess.Input) *assess.Input { return &in }

func clone(cs Changes) Changes { return append(Changes(nil), cs...) }

// eachCombination calls f with every set of size knobs (in menu order),
// each knob set to each of its options in turn; a knob without options
// is never in a set. cs is reused between calls.
func eachCombination(knobs []Knob, options [][]int, size int, f func(cs Changes)) {
	cs := make(Changes, 0, size)
	var rec func(from int)
	rec = func(from int) {
		if len(cs) == size {
			f(cs)
			return
		}
		for k := from; k <= len(knobs)-(size-len(cs)); k++ {
			for _, o := range options[k] {
				cs = append(cs, Change{Knob: knobs[k], Option: o})
				rec(k + 1)
				cs = cs[:len(cs)-1]
			}
		}
	}
	rec(0)
}
