package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/scenarios"
	"toolgate/walk"
)

// renderList is the scenario column: number, title, and the verdict's code
// once the learner has walked that scenario to it.
func (m Model) renderList(width, height int) string {
	st := m.styles.List
	lines := []string{st.Title.Render(tr("scenarios", m.lang)), ""}
	for i, s := range m.all {
		item := fmt.Sprintf("%d %s", s.Number, s.Title.In(m.lang))
		if i == m.sel {
			mark := "> "
			if m.focus == focusWalk {
				mark = "» "
			}
			lines = append(lines, st.Selected.Render(truncate(mark+item, width)))
		} else {
			lines = append(lines, st.Item.Render(truncate("  "+item, width)))
		}
		// Once solved (walked to the verdict, now or in an earlier run),
		// a scenario shows its answer.
		switch {
		case i == m.sel && m.reached():
			lines = append(lines, st.Code.Render(truncate("    "+m.walk.Verdict.Short, width)))
		case i != m.sel && slices.Contains(m.prog.Walked, s.ID):
			lines = append(lines, st.Code.Render(truncate("    "+walk.Of(s, m.lang).Verdict.Short, width)))
		}
	}
	lines = append(lines, "")
	for _, h := range listHints(m.lang) {
		lines = append(lines, m.styles.Dim.Render(truncate(h, width)))
	}
	return strings.Join(lines, "\n")
}

// block is a piece of the walk column; when the column is too short, the
// blocks with the largest drop value go first.
type block struct {
	text string
	drop int
}

// renderWalk is the decision-order column: the scenario, the rules as far
// as they have been revealed, and the verdict once reached.
func (m Model) renderWalk(width, height int, compact bool) string {
	if len(m.all) == 0 {
		return ""
	}
	s := m.all[m.sel]
	st := m.styles.Walk
	title := fmt.Sprintf("%s %d · %s", tr("scenario", m.lang), s.Number, s.Title.In(m.lang))
	blocks := []block{{paint(st.Title, wrap(title, width)), 0}}
	if m.whatIf.on {
		blocks = append(blocks, block{m.styles.Verdict.Label.Render(truncate("⚠ "+tr("whatIfBanner", m.lang), width)), 0})
		if m.whatIf.message != "" {
			blocks = append(blocks, block{paint(m.styles.tone(m.walk.Verdict.Tone), wrap(m.whatIf.message, width)), 0})
		}
	}
	if compact {
		blocks = append(blocks, block{m.styles.Dim.Render(truncate(strings.Join(listHints(m.lang), " · "), width)), 6})
	}
	if inj := s.Injected.In(m.lang); inj != "" {
		blocks = append(blocks, block{paint(m.styles.Dim, wrap(tr("injected", m.lang)+tr("colon", m.lang)+inj, width)), 3})
	}
	if story := s.Story.In(m.lang); story != "" && m.step == 0 {
		blocks = append(blocks, block{"\n" + paint(st.Story, wrap(story, width)), 4})
	}
	blocks = append(blocks, block{"\n" + paint(st.Heading, wrap(m.walk.Heading, width)), 5})
	var verdict string
	if m.reached() {
		verdict = m.renderVerdict(width)
	}
	rules := m.ruleBlocks(width, false)
	if height < blockHeight(blocks)+blockHeight(rules)+lipgloss.Height(verdict) {
		rules = m.ruleBlocks(width, true)
	}
	blocks = append(blocks, rules...)
	if m.room != nil {
		if lines := m.roomLines(); len(lines) > 0 {
			blocks = append(blocks, linesBlock(lines, width))
		}
	}
	switch {
	case m.quiz.on && m.track == scenarios.TrackAudit && m.step == 0:
		blocks = append(blocks, block{"\n" + paint(st.Hint, wrap(tr("quizAudit", m.lang), width)), 2})
	case m.quiz.phase != quizIdle || m.quizzable():
		// A question is open: the learner's own quiz, or the room's poll.
		blocks = append(blocks, m.quizBlocks(width)...)
	}
	if m.step == 0 && m.quiz.phase == quizIdle {
		blocks = append(blocks, block{"\n" + paint(st.Hint, wrap(tr("startHint", m.lang), width)), 2})
	}
	if m.step > 0 && m.step == m.firedAt() {
		hint := map[string]string{scenarios.TrackAdmission: "firedHint", scenarios.TrackAudit: "lastHint",
			scenarios.TrackOutcome: "questionHint"}[m.track]
		text := tr(hint, m.lang)
		if strings.Contains(text, "%d") {
			text = fmt.Sprintf(text, m.step)
		}
		blocks = append(blocks, block{"\n" + paint(st.Hint, wrap(text, width)), 2})
	}
	if m.reached() {
		blocks = append(blocks, block{verdict, 0})
	}
	return fit(blocks, height)
}

func blockHeight(blocks []block) int {
	n := 0
	for _, b := range blocks {
		n += lipgloss.Height(b.text)
	}
	return n
}

// linesBlock wraps styled lines into one block that is never dropped,
// after an empty line.
func linesBlock(lines []string, width int) block {
	wrapped := make([]string, len(lines))
	for i, l := range lines {
		wrapped[i] = wrapStyled(l, width)
	}
	return block{"\n" + strings.Join(wrapped, "\n"), 0}
}

// fit drops the most droppable blocks until the rest fit the height.
func fit(blocks []block, height int) string {
	for blockHeight(blocks) > height {
		worst := -1
		for i, b := range blocks {
			if b.drop > 0 && (worst < 0 || b.drop > blocks[worst].drop) {
				worst = i
			}
		}
		if worst < 0 {
			break
		}
		blocks = append(blocks[:worst], blocks[worst+1:]...)
	}
	texts := make([]string, len(blocks))
	for i, b := range blocks {
		texts[i] = b.text
	}
	return strings.Join(texts, "\n")
}

// ruleBlocks renders the eight rules: passed, fired, not reached, or not
// yet asked; the current rule also shows its question and explanation.
// Collapsed, the rules passed before the current one share one line, for
// short terminals.
func (m Model) ruleBlocks(width int, collapsed bool) []block {
	st := m.styles.Walk
	wordWidth := 0
	for _, o := range []assess.Outcome{assess.Passed, assess.Fired, assess.NotReached} {
		wordWidth = max(wordWidth, lipgloss.Width(look.OutcomeWord(o, m.lang)))
	}
	numWidth := len(fmt.Sprint(len(m.walk.Steps)))
	cur := m.current()
	var out []block
	for i, step := range m.walk.Steps {
		n := i + 1
		var mark, word string
		var style lipgloss.Style
		switch {
		case n > cur && m.reached():
			mark, word, style = look.OutcomeSymbol(assess.NotReached), look.OutcomeWord(assess.NotReached, m.lang), st.NotReached
		case n > cur:
			mark, word, style = ".", "", st.Pending
		case step.Outcome == assess.Fired:
			mark, word, style = look.OutcomeSymbol(assess.Fired), look.OutcomeWord(assess.Fired, m.lang), m.styles.tone(m.walk.Verdict.Tone)
		case n == cur:
			mark, word, style = look.OutcomeSymbol(assess.Passed), look.OutcomeWord(assess.Passed, m.lang), st.Explain
		default:
			mark, word, style = look.OutcomeSymbol(assess.Passed), look.OutcomeWord(assess.Passed, m.lang), st.Passed
		}
		if collapsed && n < cur && step.Outcome == assess.Passed && m.walk.Steps[0].Outcome == assess.Passed && allPassed(m.walk.Steps[:cur-1]) {
			if n == 1 {
				summary := fmt.Sprintf(" %s 1–%d %s", look.OutcomeSymbol(assess.Passed), cur-1, look.OutcomeWord(assess.Passed, m.lang))
				if cur == 2 {
					summary = fmt.Sprintf(" %s 1 %s", look.OutcomeSymbol(assess.Passed), look.OutcomeWord(assess.Passed, m.lang))
				}
				out = append(out, block{st.Passed.Render(truncate(summary, width)), 0})
			}
			continue
		}
		head := fmt.Sprintf(" %s %*d %s", mark, numWidth, n, step.Title)
		head = padRight(truncate(head, width-wordWidth-1), width-wordWidth) + word
		out = append(out, block{style.Render(head), 0})
		if n == cur {
			indent := "     "
			q := paint(st.Question, indentLines(wrap(step.Question, width-len(indent)), indent))
			e := paint(st.Explain, indentLines(wrap(step.Explanation, width-len(indent)), indent))
			out = append(out, block{q, 1}, block{e, 0})
		}
	}
	return out
}

// allPassed reports whether every step passed; only then may a run of
// them be folded into one line (a fired scan step of an audit must show).
func allPassed(steps []walk.Step) bool {
	for _, s := range steps {
		if s.Outcome != assess.Passed {
			return false
		}
	}
	return true
}

// boldPrefix styles prefix at the start of already wrapped text.
func boldPrefix(st lipgloss.Style, prefix, wrapped string) string {
	if rest, ok := strings.CutPrefix(wrapped, prefix); ok {
		return st.Render(prefix) + rest
	}
	return wrapped
}

func indentLines(s, indent string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = indent + l
	}
	return strings.Join(lines, "\n")
}

// renderVerdict is the verdict panel: the answer with its symbol, its
// details, and what the verdict does NOT prove.
func (m Model) renderVerdict(width int) string {
	v := m.walk.Verdict
	tone := m.styles.tone(v.Tone)
	inner := width - 4
	label := m.styles.Verdict.Label
	lines := []string{
		label.Render(tr("verdict", m.lang)),
		paint(tone, wrap(v.Symbol+" "+v.Headline, inner)),
	}
	for _, d := range v.Details {
		prefix := d.Label + tr("colon", m.lang)
		text := wrap(prefix+d.Text, inner)
		if d.Strong {
			text = boldPrefix(label, prefix, text)
		}
		lines = append(lines, text)
	}
	box := m.styles.Verdict.Box.BorderForeground(m.styles.palette.Tone(v.Tone)).Width(width)
	return box.Render(strings.Join(lines, "\n"))
}

// renderInputs is the inputs column: every part of the input, absent ones
// shown as absent, with the fields the current rule reads marked. When the
// column is too short, unmarked fields are counted instead of listed, so
// that every part still shows.
func (m Model) renderInputs(width, height int) string {
	lines := m.inputLines(width, false)
	if len(lines) > height {
		lines = m.inputLines(width, true)
	}
	return strings.Join(lines, "\n")
}

func (m Model) inputLines(width int, compact bool) []string {
	st := m.styles.Inputs
	var reads []string
	current := m.current()
	if current > 0 {
		reads = m.walk.Steps[current-1].Reads
	}
	lines := []string{st.Title.Render(tr("inputs", m.lang))}
	if current > 0 && len(reads) > 0 {
		lines = append(lines, m.styles.Dim.Render(truncate(fmt.Sprintf(m.walk.ReadsBy, current), width)))
	}
	labelWidth := min(21, width/2)
	row := func(marked bool, label, value string, absent bool) string {
		mark, ls, vs := "  ", st.Label, st.Value
		if absent {
			vs = st.Absent
			value = look.Absent(m.lang)
		}
		if marked {
			mark, ls, vs = "> ", st.Marked, st.MarkedValue
		}
		l := padRight(truncate(label, labelWidth-1), labelWidth)
		if value == "" {
			return ls.Render(mark + label)
		}
		return ls.Render(mark+l) + vs.Render(truncate(value, width-labelWidth-2))
	}
	fields := m.walk.Fields
	for _, section := range look.Sections(fields) {
		title := look.SectionTitle(section, m.lang)
		var in []look.Field
		for _, f := range fields {
			if f.Section == section {
				in = append(in, f)
			}
		}
		if len(in) == 1 && in[0].Path == section && in[0].Absent {
			marked := look.Reads(in[0], reads)
			lines = append(lines, row(marked, title, "", true))
			continue
		}
		if compact {
			hidden := 0
			var shown []string
			for _, f := range in {
				if look.Reads(f, reads) {
					shown = append(shown, row(true, f.Label, f.Value, f.Absent))
				} else {
					hidden++
				}
			}
			more := ""
			if hidden > 0 {
				more = fmt.Sprintf(" (+%d)", hidden)
			}
			lines = append(lines, st.Section.Render(truncate(title, width-lipgloss.Width(more)))+m.styles.Dim.Render(more))
			lines = append(lines, shown...)
			continue
		}
		lines = append(lines, st.Section.Render(truncate(title, width)))
		for _, group := range groupTools(in) {
			if len(group) > 1 && !anyRead(group, reads) {
				lines = append(lines, row(look.Reads(group[0], reads), toolKey(group[0]), toolSummary(group), false))
				continue
			}
			if k := toolKey(group[0]); k != "" {
				lines = append(lines, row(false, k, "", false))
				for _, f := range group {
					lines = append(lines, row(look.Reads(f, reads), "  "+strings.TrimPrefix(f.Label, k+"."), f.Value, f.Absent))
				}
				continue
			}
			for _, f := range group {
				lines = append(lines, row(look.Reads(f, reads), f.Label, f.Value, f.Absent))
			}
		}
	}
	return lines
}

// groupTools groups a contract's fields by tool, so that a tool no rule is
// reading can be shown on one line. Other fields are groups of one.
func groupTools(fields []look.Field) [][]look.Field {
	var out [][]look.Field
	for _, f := range fields {
		k := toolKey(f)
		if k != "" && len(out) > 0 && toolKey(out[len(out)-1][0]) == k {
			out[len(out)-1] = append(out[len(out)-1], f)
			continue
		}
		out = append(out, []look.Field{f})
	}
	return out
}

// toolKey is "tools[0]" for a field of a contract tool, else "".
func toolKey(f look.Field) string {
	if !strings.HasPrefix(f.Label, "tools[") {
		return ""
	}
	k, _, _ := strings.Cut(f.Label, ".")
	return k
}

func anyRead(fields []look.Field, reads []string) bool {
	for _, f := range fields {
		if look.Reads(f, reads) {
			return true
		}
	}
	return false
}

// toolSummary is a tool on one line: name, version and effect class.
func toolSummary(fields []look.Field) string {
	var parts []string
	for _, f := range fields {
		switch {
		case f.Absent:
		case strings.HasSuffix(f.Label, ".name"), strings.HasSuffix(f.Label, ".version"), strings.HasSuffix(f.Label, ".effectClass"):
			parts = append(parts, unquote(f.Value))
		}
	}
	return strings.Join(parts, " ")
}

func unquote(s string) string {
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}
