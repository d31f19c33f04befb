package learn

import (
	"fmt"
	"io"
	"strings"

	"charm.land/lipgloss/v2"

	"toolgate/assess"
	"toolgate/look"
)

// Mark is a stage's one-cell mark: ✓ all pass, ✗ the current stage (○
// for the optional input check), · locked or not run.
func (s Stage) Mark(current int) string {
	switch {
	case s.Locked || s.Total == 0:
		return "·"
	case s.Number == current && current == InputStage:
		return "○" // optional: the decision is green
	case s.Number == current:
		return look.No
	case s.Failing() == 0:
		return look.Yes
	}
	return look.No
}

// Name is the stage's label: "rule 3", or "input".
func (s Stage) Name(l assess.Lang) string {
	if s.Number == InputStage {
		return texts.InputStage.in(l)
	}
	return fmt.Sprintf(texts.Rule.in(l), s.Number)
}

// Title is the stage's title: the rule's, or the input check's.
func (s Stage) Title(l assess.Lang) string {
	if s.Number == InputStage {
		return texts.InputTitle.in(l)
	}
	return assess.Rule(s.Number).Title(l)
}

// StageLines are the board's stage lines, one a stage, without styles.
func StageLines(b Board, l assess.Lang) []string {
	nameW, titleW := 0, 0
	for _, s := range b.Stages {
		nameW = max(nameW, lipgloss.Width(s.Name(l)))
		titleW = max(titleW, lipgloss.Width(s.Title(l)))
	}
	out := make([]string, len(b.Stages))
	for i, s := range b.Stages {
		count := fmt.Sprintf("%d/%d", s.Agree, s.Total)
		if b.State == StateBroken {
			count = fmt.Sprintf("–/%d", s.Total) // not run
		}
		line := fmt.Sprintf("%s %s  %s  %7s", s.Mark(b.Current), pad(s.Name(l), nameW), pad(s.Title(l), titleW), count)
		switch {
		case s.Number == b.Current && b.State == StateFailing, s.Number == b.Current && b.Current == InputStage:
			line += "  " + texts.Now.in(l)
		case s.Locked:
			line += "  " + texts.Locked.in(l)
		}
		out[i] = line
	}
	return out
}

func pad(s string, w int) string { return s + strings.Repeat(" ", max(0, w-lipgloss.Width(s))) }

// Block is a part of the board below the stages: a heading and its
// lines, each a label and a text (label "" for a line of prose).
type Block struct {
	Tone    look.Tone
	Heading string
	Lines   []Line
}

// Line is one line of a block.
type Line struct {
	Label, Text string
	// Step marks a line of toolgate's walk, with its outcome.
	Step assess.Outcome
}

// Blocks are what the board says below its stages: the state, then the
// first failure with toolgate's walk, or why the gate did not run.
func Blocks(b Board, l assess.Lang) []Block {
	var out []Block
	switch b.State {
	case StateBroken:
		out = append(out, problemBlock(b, l))
		return out
	case StateRed:
		out = append(out, Block{Tone: look.ToneBad, Heading: texts.RedTitle.in(l),
			Lines: []Line{{Text: fmt.Sprintf(texts.RedText.in(l), b.Lang.DecisionFile())}}})
	case StateGreen:
		agree, total := b.Decision()
		in := b.Stages[InputStage-1]
		g := Block{Tone: look.ToneGood, Heading: fmt.Sprintf(texts.GreenTitle.in(l), agree, total),
			Lines: []Line{{Text: texts.AllowedIsNot.in(l)}}}
		if in.Failing() > 0 {
			g.Lines = append(g.Lines, Line{Text: fmt.Sprintf(texts.GreenInput.in(l), in.Agree, in.Total)})
		} else {
			g.Lines = append(g.Lines, Line{Text: texts.GreenAll.in(l)})
		}
		out = append(out, g)
	}
	if f := b.First; f != nil && b.State != StateRed {
		out = append(out, failureBlock(f, l))
	} else if f != nil {
		// The red step still shows one vector: the book's first test.
		out = append(out, failureBlock(f, l))
	}
	for _, n := range b.Notes {
		out = append(out, Block{Lines: []Line{{Text: fmt.Sprintf(texts.Note.in(l), n)}}})
	}
	if printed := strings.TrimRight(b.Stderr, "\n"); printed != "" {
		blk := Block{Lines: []Line{{Text: texts.Printed.in(l)}}}
		for _, line := range strings.Split(printed, "\n") {
			blk.Lines = append(blk.Lines, Line{Label: "|", Text: line})
		}
		out = append(out, blk)
	}
	return out
}

func failureBlock(f *Failure, l assess.Lang) Block {
	blk := Block{Tone: look.ToneBad}
	if f.Stage == InputStage {
		blk.Heading = fmt.Sprintf(texts.FailsInput.in(l), f.Vector.ID, f.Nth, f.Of)
		blk.Lines = append(blk.Lines, Line{Label: texts.Input.in(l), Text: string(f.Vector.Input)},
			Line{Label: texts.Got.in(l), Text: f.Got},
			Line{Label: texts.Expected.in(l), Text: texts.RefuseIt.in(l)})
		blk.Lines = append(blk.Lines, Line{Text: fmt.Sprintf(texts.Refused.in(l), f.Refusal)})
		return blk
	}
	blk.Heading = fmt.Sprintf(texts.Fails.in(l), f.Stage, f.Vector.ID, f.Nth, f.Of)
	blk.Lines = append(blk.Lines, Line{Label: texts.Input.in(l), Text: string(f.Vector.Input)},
		Line{Label: texts.Got.in(l), Text: f.Got},
		Line{Label: texts.Expected.in(l), Text: f.Expected()})
	blk.Lines = append(blk.Lines, Line{Text: texts.Walk.in(l)})
	w := f.Walk(l)
	for i, st := range w.Steps {
		if st.Outcome == assess.NotReached {
			break
		}
		blk.Lines = append(blk.Lines, Line{Step: st.Outcome,
			Label: fmt.Sprintf("%d %s %s", i+1, look.OutcomeSymbol(st.Outcome), st.Title), Text: st.Explanation})
	}
	blk.Lines = append(blk.Lines, Line{Text: fmt.Sprintf(texts.Decided.in(l), w.Verdict.Headline)})
	for _, d := range f.Diffs {
		blk.Lines = append(blk.Lines, Line{Label: texts.Differs.in(l), Text: d})
	}
	return blk
}

func problemBlock(b Board, l assess.Lang) Block {
	p := b.Problem
	if len(p.Missing) > 0 {
		say, and := texts.MissingTool, " and "
		if len(p.Missing) > 1 {
			say = texts.MissingTools
		}
		if l == assess.Chinese {
			and = "和"
		}
		return Block{Tone: look.ToneBad, Heading: fmt.Sprintf(say.in(l), strings.Join(p.Missing, and), b.Lang.Title())}
	}
	blk := Block{Tone: look.ToneBad, Heading: texts.BrokenTitle.in(l)}
	switch {
	case p.NoModule:
		blk.Heading = fmt.Sprintf(texts.NoModule.in(l), b.Lang.DecisionFile())
	case p.Build:
		blk.Heading = texts.BuildFailed.in(l)
	}
	if p.Where != "" || p.Error != "" {
		blk.Lines = append(blk.Lines, Line{Label: p.Where, Text: p.Error})
	}
	blk.Lines = append(blk.Lines, Line{Text: p.Message})
	if p.At != nil {
		blk.Lines = append(blk.Lines, Line{Text: fmt.Sprintf(texts.StoppedAt.in(l), p.At.ID)}, Line{Label: texts.Input.in(l), Text: string(p.At.Input)})
	}
	out := strings.TrimRight(p.Output, "\n")
	if out == "" {
		out = texts.Nothing.in(l)
	}
	blk.Lines = append(blk.Lines, Line{Text: texts.Output.in(l) + strings.TrimRight(l.Colon(), " ")})
	for _, line := range strings.Split(out, "\n") {
		blk.Lines = append(blk.Lines, Line{Label: "|", Text: line})
	}
	return blk
}

// Header is the board's first line: the language and the directory.
func Header(b Board, l assess.Lang) string {
	return texts.App.in(l) + " · " + b.Lang.Title() + " · " + b.Dir
}

// WriteText writes the board for a script or a log: the stages, then the
// state, the first failure and toolgate's walk, or why the gate did not
// run.
func WriteText(w io.Writer, b Board, l assess.Lang) {
	fmt.Fprintln(w, Header(b, l))
	for _, s := range StageLines(b, l) {
		fmt.Fprintln(w, "  "+strings.TrimRight(s, " "))
	}
	for _, blk := range Blocks(b, l) {
		fmt.Fprintln(w)
		if blk.Heading != "" {
			fmt.Fprintln(w, blk.Heading)
		}
		labelW := 0
		for _, ln := range blk.Lines {
			if ln.Step == 0 && ln.Label != "|" {
				labelW = max(labelW, lipgloss.Width(ln.Label))
			}
		}
		for _, ln := range blk.Lines {
			switch {
			case ln.Step != 0:
				fmt.Fprintf(w, "    %s — %s\n", ln.Label, ln.Text)
			case ln.Label == "|":
				fmt.Fprintf(w, "  | %s\n", ln.Text)
			case ln.Label == "":
				fmt.Fprintf(w, "  %s\n", ln.Text)
			default:
				fmt.Fprintf(w, "  %s  %s\n", pad(ln.Label, labelW), ln.Text)
			}
		}
	}
	if b.State == StateFailing || b.State == StateRed {
		agree, total := b.Decision()
		fmt.Fprintln(w)
		fmt.Fprintf(w, texts.Decision.in(l)+"\n", agree, total)
	}
}
