package progress

import (
	"fmt"
	"maps"
)

// Stage is how a learner's gate did on one stage of the exercise track
// (toolgate learn): the vectors of one deciding rule, or the input check.
type Stage struct {
	Agree int `json:"agree"`
	Total int `json:"total"`
}

// Learn is the exercise track's progress in one programming language: the
// last run of the learner's gate, stage by stage, and the best it did.
type Learn struct {
	// Stages is the last run: "rule 1" … "rule 8", then "input".
	Stages map[string]Stage `json:"stages"`
	// Rules is how many rules, from rule 1 in order, passed every vector
	// in the best run so far (8: every decision vector agrees).
	Rules int `json:"rules"`
	// Green says that a run agreed on every decision vector once.
	Green bool `json:"green,omitempty"`
	// Runs counts the runs of the gate.
	Runs int `json:"runs"`
}

// Box is a Leitner box of the practice (toolgate practice, the quiz's
// practice): one for each rule ("rule/3") and each code
// ("code/invalid_arguments"). A right answer moves it up a box, a wrong
// one back to box 1; the lower its box, the more often it is drawn.
type Box struct {
	// Box is from 1 (draw often) to MaxBox (mastered).
	Box   int `json:"box"`
	Right int `json:"right"`
	Wrong int `json:"wrong"`
}

// MaxBox is the highest Leitner box: a rule or code there is mastered.
const MaxBox = 5

// RecordLearn records a run of the learner's gate in a language ("js",
// "py", "go", "java"): stages is the run, rules how many rules from rule
// 1 passed, green whether every decision vector agreed.
func (p *Progress) RecordLearn(lang string, stages map[string]Stage, rules int, green bool) {
	if p.Learn == nil {
		p.Learn = map[string]Learn{}
	}
	l := p.Learn[lang]
	l.Stages = maps.Clone(stages)
	l.Rules = max(l.Rules, rules)
	l.Green = l.Green || green
	l.Runs++
	p.Learn[lang] = l
}

// RecordPractice moves the Leitner box of a key ("rule/3",
// "code/approval_missing") up after a right answer, back to 1 after a
// wrong one.
func (p *Progress) RecordPractice(key string, right bool) {
	if p.Practice == nil {
		p.Practice = map[string]Box{}
	}
	b := p.Practice[key]
	if b.Box == 0 {
		b.Box = 1
	}
	if right {
		b.Right++
		b.Box = min(b.Box+1, MaxBox)
	} else {
		b.Wrong++
		b.Box = 1
	}
	p.Practice[key] = b
}

// cloneExtras copies the exercise track's and the practice's maps of p
// into c.
func cloneExtras(c *Progress, p Progress) {
	c.Learn = nil
	if p.Learn != nil {
		c.Learn = make(map[string]Learn, len(p.Learn))
		for k, v := range p.Learn {
			v.Stages = maps.Clone(v.Stages)
			c.Learn[k] = v
		}
	}
	c.Practice = maps.Clone(p.Practice)
}

// mergeExtras puts the exercise track's and the practice's changes from
// since to now into out (a copy of what is on disk): a language's last
// run is now's if it changed, its best the better of the two and its runs
// counted on; a box is now's if it changed, its counts counted on.
func mergeExtras(out *Progress, disk, since, now Progress) {
	for lang, l := range now.Learn {
		old, had := since.Learn[lang]
		if had && old.Runs == l.Runs {
			continue
		}
		if out.Learn == nil {
			out.Learn = map[string]Learn{}
		}
		d := disk.Learn[lang]
		m := l
		m.Stages = maps.Clone(l.Stages)
		m.Rules = max(d.Rules, l.Rules)
		m.Green = d.Green || l.Green
		m.Runs = max(d.Runs+l.Runs-old.Runs, 0)
		out.Learn[lang] = m
	}
	for key, b := range now.Practice {
		old := since.Practice[key]
		if old == b {
			continue
		}
		if out.Practice == nil {
			out.Practice = map[string]Box{}
		}
		d := disk.Practice[key]
		out.Practice[key] = Box{Box: b.Box,
			Right: max(d.Right+b.Right-old.Right, 0), Wrong: max(d.Wrong+b.Wrong-old.Wrong, 0)}
	}
}

// checkExtras reports exercise and practice counts no run can write.
func (p Progress) checkExtras() error {
	for lang, l := range p.Learn {
		if l.Runs < 0 || l.Rules < 0 || l.Rules > 8 {
			return fmt.Errorf("learn %q: impossible counts: %d runs, %d rules", lang, l.Runs, l.Rules)
		}
		for name, s := range l.Stages {
			if s.Agree < 0 || s.Agree > s.Total {
				return fmt.Errorf("learn %q: stage %q: impossible count %d/%d", lang, name, s.Agree, s.Total)
			}
		}
	}
	for key, b := range p.Practice {
		if b.Box < 1 || b.Box > MaxBox || b.Right < 0 || b.Wrong < 0 {
			return fmt.Errorf("practice %q: impossible box %d (%d right, %d wrong)", key, b.Box, b.Right, b.Wrong)
		}
	}
	return nil
}
