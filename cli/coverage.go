package cli

import (
	"fmt"
	"io"
	"strings"

	"charm.land/lipgloss/v2"

	"toolgate/assess"
	"toolgate/coverage"
	"toolgate/look"
	"toolgate/scenarios"
)

var coverageWords = map[string][2]string{
	"heading": {"Coverage of %d admission, %d audit and %d outcome scenarios (%s)", "覆盖情况：%d 个准入、%d 个审计、%d 个结果场景（%s）"},
	"never":   {"never", "从未"},
	"more":    {"+%d more", "另 %d 个"},
	"missing": {"Never exercised (%d)", "从未覆盖（%d）"},
	"all":     {"Every rule, code, status, branch, audit finding and outcome class is exercised.", "每条规则、代码、状态、分支、审计发现和结果类别都已覆盖。"},
	"of":      {"%d of %d", "%d / %d"},
}

func coverageWord(key string, l assess.Lang) string { return coverageWords[key][l] }

// writeCoverage writes what a scenario set exercises and what it never
// does; what names the set (built-in, or the paths).
func writeCoverage(w io.Writer, list []scenarios.Scenario, what string, l assess.Lang) {
	r := coverage.Of(list, l)
	fmt.Fprintf(w, coverageWord("heading", l)+"\n", r.Counts[scenarios.TrackAdmission], r.Counts[scenarios.TrackAudit],
		r.Counts[scenarios.TrackOutcome], what)
	for _, s := range r.Sections {
		fmt.Fprintf(w, "\n%s  %s\n", s.Title, fmt.Sprintf(coverageWord("of", l), s.Covered(), len(s.Items)))
		width := 0
		for _, it := range s.Items {
			width = max(width, lipgloss.Width(it.Name))
		}
		width = min(width, 72)
		for _, it := range s.Items {
			mark, who := look.Yes, shortList(it.Scenarios, l)
			if !it.Covered() {
				mark, who = look.No, coverageWord("never", l)
			}
			fmt.Fprintf(w, "  %s %s  %s\n", mark, pad(it.Name, width), who)
		}
	}
	fmt.Fprintln(w)
	if never := r.Never(); len(never) > 0 {
		fmt.Fprintf(w, coverageWord("missing", l)+"\n", len(never))
		return
	}
	fmt.Fprintln(w, coverageWord("all", l))
}

func shortList(ids []string, l assess.Lang) string {
	const show = 3
	if len(ids) <= show {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:show], ", ") + ", " + fmt.Sprintf(coverageWord("more", l), len(ids)-show)
}
