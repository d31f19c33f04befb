package cli

import (
	"fmt"
	"io"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/go-json-experiment/json/jsontext"

	"toolgate/assess"
	"toolgate/whatif"
)

// The path to allowed in trace output: what whatif.PathToAllowed found,
// as JSON and as text.

// editJSON is one field a change edits. From and To are null both when
// the field is absent and when it is present as null: FromAbsent and
// ToAbsent, set only when true, tell the two apart.
type editJSON struct {
	Path       string         `json:"path"`
	From       jsontext.Value `json:"from"`
	To         jsontext.Value `json:"to"`
	FromAbsent bool           `json:"fromAbsent,omitzero"`
	ToAbsent   bool           `json:"toAbsent,omitzero"`
}

type changeJSON struct {
	Knob   string         `json:"knob"`
	Option string         `json:"option"`
	Edits  []editJSON     `json:"edits"`
	Text   changeTextJSON `json:"text"`
}

// changeTextJSON is a change said in the chosen language, and for a
// change of evidence or of the contract why it is no fix.
type changeTextJSON struct {
	Change  string `json:"change"`
	NotAFix string `json:"notAFix,omitempty"`
}

type firingJSON struct {
	Rule    int             `json:"rule"`
	ID      string          `json:"id"`
	Changes []changeJSON    `json:"changes"`
	Verdict *assess.Verdict `json:"verdict"`
	Text    ruleTextJSON    `json:"text"`
}

// ruleTextJSON names a rule in the chosen language.
type ruleTextJSON struct {
	Title string `json:"title"`
}

type pathJSON struct {
	Allowed      bool           `json:"allowed"`
	Reachable    bool           `json:"reachable"`
	Changes      []changeJSON   `json:"changes"`
	Alternatives [][]changeJSON `json:"alternatives"`
	// NotAFix is the change that would get there by rewriting evidence
	// or the contract, each knob with why it is no fix; [] for none.
	NotAFix []changeJSON `json:"notAFix"`
	Fire    []firingJSON `json:"fire"`
}

// changesJSON describes a set of changes made to in: each knob with the
// fields it changes. A field's edits are listed under the knob that
// makes them, the first one when several do.
func changesJSON(in assess.Input, cs whatif.Changes, l assess.Lang) []changeJSON {
	out := make([]changeJSON, 0, len(cs))
	for i, edits := range changeEdits(in, cs) {
		c := changeJSON{Knob: cs[i].Knob.ID, Option: cs[i].Knob.Options[cs[i].Option][0], Text: changeTextJSON{cs[i].Text(l), cs[i].NotAFix(l)}, Edits: []editJSON{}}
		for _, e := range edits {
			c.Edits = append(c.Edits, editJSON{Path: e.Path, From: jsonOrNull(e.From), To: jsonOrNull(e.To),
				FromAbsent: e.From == "", ToAbsent: e.To == ""})
		}
		out = append(out, c)
	}
	return out
}

// changeEdits are, for each change of a set made to in in order, the
// fields it makes differ; a field is listed under the first change that
// edits it.
func changeEdits(in assess.Input, cs whatif.Changes) [][]whatif.Edit {
	out := make([][]whatif.Edit, len(cs))
	seen := map[string]bool{}
	for i := range cs {
		for _, e := range whatif.Edits(cs[:i].Apply(in), cs[:i+1].Apply(in)) {
			if !seen[e.Path] {
				seen[e.Path] = true
				out[i] = append(out[i], e)
			}
		}
	}
	return out
}

// jsonOrNull is an edit's value as JSON: null when absent (whatif's "").
func jsonOrNull(s string) jsontext.Value {
	if s == "" {
		return jsontext.Value("null")
	}
	return jsontext.Value(s)
}

func pathToAllowedJSON(in assess.Input, l assess.Lang) *pathJSON {
	p := whatif.PathToAllowed(in)
	out := &pathJSON{Allowed: p.Allowed, Reachable: p.Reachable, Changes: changesJSON(in, p.ToAllowed, l),
		Alternatives: [][]changeJSON{}, NotAFix: changesJSON(in, p.NotAFix, l), Fire: []firingJSON{}}
	for _, a := range p.Alternatives {
		out.Alternatives = append(out.Alternatives, changesJSON(in, a, l))
	}
	for _, f := range p.Fire {
		fj := firingJSON{Rule: int(f.Rule), ID: f.Rule.ID(), Text: ruleTextJSON{f.Rule.Title(l)}, Changes: changesJSON(in, f.Changes, l)}
		if f.Changes != nil {
			v := f.Verdict
			fj.Verdict = &v
		}
		out.Fire = append(out.Fire, fj)
	}
	return out
}

var pathWords = map[string][2]string{
	"heading":     {"Path to allowed (over the what-if knobs)", "通往 allowed 的路径（用假设旋钮）"},
	"already":     {"already allowed: nothing to change", "已经是 allowed：无需改变"},
	"unreachable": {"none: no change the knobs can make to the request or its situation makes this allowed", "没有：旋钮对请求或其处境所能做的任何改变都无法得到 allowed"},
	"notAFix":     {"Rewriting the evidence or the contract would get there too, and is no fix", "改写证据或契约也能得到 allowed，但这不是修复"},
	"or":          {"or", "或"},
	"fireHeading": {"Each rule that passed, and the smallest change that makes it fire", "每条通过的规则，以及让它触发的最小改变"},
	"noKnob":      {"no knob makes it fire", "没有旋钮能让它触发"},
}

func pathWord(key string, l assess.Lang) string { return pathWords[key][l] }

// writePathText writes the path to allowed under a trace.
func writePathText(w io.Writer, st textStyles, in assess.Input, l assess.Lang) {
	p := whatif.PathToAllowed(in)
	fmt.Fprintln(w)
	fmt.Fprintln(w, st.label.Render(pathWord("heading", l)+strings.TrimRight(word("colon", l), " ")))
	switch {
	case p.Allowed:
		fmt.Fprintln(w, "  "+pathWord("already", l))
	case !p.Reachable:
		fmt.Fprintln(w, "  "+pathWord("unreachable", l))
	default:
		for i, edits := range changeEdits(in, p.ToAllowed) {
			fmt.Fprintln(w, "  "+p.ToAllowed[i].Text(l))
			for _, e := range edits {
				fmt.Fprintln(w, st.dim.Render("      "+e.Text(l)))
			}
		}
		for _, a := range p.Alternatives {
			fmt.Fprintln(w, st.dim.Render("  "+pathWord("or", l)+word("colon", l)+a.Text(l)))
		}
	}
	if p.NotAFix != nil {
		fmt.Fprintln(w, st.label.Render(pathWord("notAFix", l)+strings.TrimRight(word("colon", l), " ")))
		fmt.Fprintln(w, "  "+p.NotAFix.Text(l))
		for _, c := range p.NotAFix {
			if why := c.NotAFix(l); why != "" {
				fmt.Fprintln(w, st.dim.Render("      "+c.Knob.Name(l)+word("colon", l)+why))
			}
		}
	}
	if len(p.Fire) == 0 {
		return
	}
	fmt.Fprintln(w, st.label.Render(pathWord("fireHeading", l)+strings.TrimRight(word("colon", l), " ")))
	width := 0
	for _, f := range p.Fire {
		width = max(width, len(fmt.Sprint(int(f.Rule)))+1+lipgloss.Width(f.Rule.Title(l)))
	}
	for _, f := range p.Fire {
		head := pad(fmt.Sprintf("%d %s", f.Rule, f.Rule.Title(l)), width)
		if len(f.Changes) == 0 {
			fmt.Fprintln(w, st.dim.Render("  "+head+"  "+pathWord("noKnob", l)))
			continue
		}
		fmt.Fprintf(w, "  %s  %s  %s\n", head, f.Changes.Text(l),
			st.dim.Render("→ "+f.Verdict.Status.String()+"/"+f.Verdict.CodeName()))
	}
}
