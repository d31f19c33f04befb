// Package coverage says what a scenario set exercises of toolgate's
// decisions and what it never does: which rules decide, which codes,
// statuses, audit findings and outcome classes appear, and which branches
// of the rules (every way a rule can pass or fire) are taken. It is for a
// lecturer checking a course, as `opa test --coverage` is for a policy.
// Every answer comes from the core (assess); nothing here decides.
package coverage

import (
	"fmt"

	"toolgate/assess"
	"toolgate/scenarios"
)

// Item is one thing a set can exercise, and the scenarios that do.
type Item struct {
	Name      string
	Scenarios []string
}

// Covered reports whether some scenario exercises the item.
func (i Item) Covered() bool { return len(i.Scenarios) > 0 }

// Section is a list of items of one kind.
type Section struct {
	Title string
	Items []Item
}

// Covered counts the items exercised.
func (s Section) Covered() int {
	n := 0
	for _, it := range s.Items {
		if it.Covered() {
			n++
		}
	}
	return n
}

// Report is the coverage of one scenario set.
type Report struct {
	// Counts is how many scenarios of each track the set has.
	Counts   map[scenarios.Track]int
	Sections []Section
}

// Never lists every item no scenario exercises, section by section.
func (r Report) Never() []string {
	var out []string
	for _, s := range r.Sections {
		for _, it := range s.Items {
			if !it.Covered() {
				out = append(out, it.Name)
			}
		}
	}
	return out
}

// text is one text in both languages; t takes both, so a text missing
// a language does not compile.
type text [2]string

func t(en, zh string) text { return text{en, zh} }

func (x text) in(l assess.Lang) string { return x[l] }

// texts are every text of the report, a field each, so that a mistyped
// name does not compile.
var texts = struct {
	Rules, Codes, Statuses, Branches, Audit, Classes text
	Clean, Pending, InputError                       text
	Passed, Fired, FailClosed                        text
}{
	Rules:      t("Admission: the rule that decides", "准入：作出判断的规则"),
	Codes:      t("Admission: codes", "准入：代码"),
	Statuses:   t("Admission: statuses", "准入：状态"),
	Branches:   t("Admission: branches — every way a rule passes or fires", "准入：分支——每条规则通过或触发的每种方式"),
	Audit:      t("Audit: what it finds", "审计：发现"),
	Classes:    t("Outcome classes", "结果类别"),
	Clean:      t("no diagnostics", "无诊断"),
	Pending:    t("pending (an open batch)", "等待中（未结束的批次）"),
	InputError: t("input error", "输入错误"),
	Passed:     t("passed", "通过"),
	Fired:      t("fired", "触发"),
	FailClosed: t("an effectClass other than the book's write classes (absent, \"\", unheard of) counts as a write (fail closed)", "本书写入类别以外的 effectClass（缺失、\"\"、没听说过的）按写入处理（默认从严）"),
}

// branch is one way a rule can end: the core's explanation (its rule,
// and whether it fires, are the core's: assess.Branches); failClosed is
// the branch of any note marked fail-closed, on rule 7.
type branch struct {
	key        assess.NoteKey
	failClosed bool
}

// branches are every way a rule can pass or fire, in rule order, with the
// fail-closed branch at the end of rule 7.
func branches() []branch {
	var out []branch
	for _, k := range assess.Branches() {
		if k.Rule() == assess.RuleAllow && (len(out) == 0 || !out[len(out)-1].failClosed) {
			out = append(out, branch{key: assess.NoteNone, failClosed: true})
		}
		out = append(out, branch{key: k})
	}
	return out
}

// label names a branch: the rule, whether it passed or fired, and the
// core's own explanation with "…" for the values.
func (b branch) label(l assess.Lang) string {
	if b.failClosed {
		return fmt.Sprintf("%d: %s", assess.RuleApproval, texts.FailClosed.in(l))
	}
	item := assess.Item{Name: "…", Why: assess.WhyAbsent, Times: 1}
	if !b.key.Fires() {
		item.Why = "" // a usable argument
	}
	n := assess.Note{Key: b.key, Args: [4]string{"…", "…", "…", "…"}, List: []string{"…"}, Items: []assess.Item{item}}
	outcome := texts.Passed.in(l)
	if b.key.Fires() {
		outcome = texts.Fired.in(l)
	}
	return fmt.Sprintf("%d %s: %s", b.key.Rule(), outcome, n.Text(l))
}

// Of computes the coverage of a scenario set, in a language.
func Of(list []scenarios.Scenario, l assess.Lang) Report {
	r := Report{Counts: map[scenarios.Track]int{}}
	rules := make([]Item, assess.NumRules)
	for i := range rules {
		ru := assess.Rule(i + 1)
		rules[i].Name = fmt.Sprintf("%d %s", ru, ru.Title(l))
	}
	codes := assess.Codes()
	codeItems := make([]Item, len(codes))
	for i, c := range codes {
		codeItems[i].Name = c.String()
	}
	var statusItems []Item
	statusIndex := map[assess.Status]int{}
	for _, c := range codes {
		if _, ok := statusIndex[c.Status()]; !ok {
			statusIndex[c.Status()] = len(statusItems)
			statusItems = append(statusItems, Item{Name: c.Status().String()})
		}
	}
	branches := branches()
	branchItems := make([]Item, len(branches))
	for i, b := range branches {
		branchItems[i].Name = b.label(l)
	}
	// The audit's kinds, as assess orders them, then input errors.
	var auditItems []Item
	for _, k := range assess.AuditKinds() {
		name := k.String()
		switch k {
		case assess.AuditClean:
			name = texts.Clean.in(l)
		case assess.AuditPending:
			name = texts.Pending.in(l)
		case assess.AuditUnknown, assess.AuditDuplicate, assess.AuditMissing:
			// A diagnostic's prefix, as the audit prints it.
		}
		auditItems = append(auditItems, Item{Name: name})
	}
	inputErrors := len(auditItems)
	auditItems = append(auditItems, Item{Name: texts.InputError.in(l)})
	var classItems []Item
	for c := assess.ClassProtocolError; c <= assess.ClassFound; c++ {
		classItems = append(classItems, Item{Name: c.String()})
	}
	add := func(it *Item, id string) {
		if len(it.Scenarios) == 0 || it.Scenarios[len(it.Scenarios)-1] != id {
			it.Scenarios = append(it.Scenarios, id)
		}
	}
	for _, s := range list {
		r.Counts[s.Track()]++
		switch c := s.Case.(type) {
		case scenarios.AuditCase:
			res, err := assess.Audit(c.Input)
			if err != nil {
				add(&auditItems[inputErrors], s.ID)
				continue
			}
			for _, k := range res.Kinds() {
				add(&auditItems[k], s.ID)
			}
		case scenarios.OutcomeCase:
			if class, _, err := assess.Classify(c.Input); err == nil {
				add(&classItems[class-assess.ClassProtocolError], s.ID)
			}
		case scenarios.AdmissionCase:
			in := c.Input
			v, trace := assess.Explain(&in)
			add(&rules[v.Code.Rule()-1], s.ID)
			for i, c := range codes {
				if c == v.Code {
					add(&codeItems[i], s.ID)
				}
			}
			add(&statusItems[statusIndex[v.Status]], s.ID)
			for _, st := range trace {
				if st.Outcome == assess.NotReached {
					continue
				}
				for i, b := range branches {
					if b.failClosed && st.Note.FailClosed || !b.failClosed && b.key == st.Note.Key {
						add(&branchItems[i], s.ID)
					}
				}
			}
		}
	}
	r.Sections = []Section{
		{texts.Rules.in(l), rules},
		{texts.Codes.in(l), codeItems},
		{texts.Statuses.in(l), statusItems},
		{texts.Branches.in(l), branchItems},
		{texts.Audit.in(l), auditItems},
		{texts.Classes.in(l), classItems},
	}
	return r
}
