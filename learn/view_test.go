package learn

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/gatecheck"
	"toolgate/scenarios"
	"toolgate/vectors"
)

// A fake gate answers the vectors in-process, the way a learner's gate
// would at three points of the track: nothing written yet, rule 3
// without trimming, finished. No process runs, so the view's tests
// depend on nothing but the core.
type fakeGate func(v vectors.Vector) []byte

func starterGate(vectors.Vector) []byte {
	return []byte(`{"error":"no verdict: assessToolInvocation returned undefined"}`)
}

// untrimmedGate is the book's decision with rule 3 not trimming: a blank
// argument passes as a value.
func untrimmedGate(v vectors.Vector) []byte {
	in, err := decode.Input(v.Input)
	if err != nil {
		return []byte(`{"error":"refused"}`)
	}
	for name, a := range in.Request.Arguments {
		if s, ok := a.(string); ok && s != "" && assess.IsBlank(s) {
			in.Request.Arguments[name] = "x"
		}
	}
	out, _ := json.Marshal(assess.Assess(&in))
	return out
}

func finishedGate(v vectors.Vector) []byte {
	if v.Layer == vectors.LayerInput {
		return []byte(`{"error":"refused"}`)
	}
	return v.Expect
}

// outcome is what Check returns for a fake gate, taking took.
func outcome(g fakeGate, took time.Duration) Outcome {
	vs := Vectors()
	r := gatecheck.Report{Track: scenarios.TrackAdmission}
	for _, v := range vs {
		line := g(v)
		diffs, problem := gatecheck.Compare(scenarios.TrackAdmission, v.Layer, v.Expect, line)
		if problem != "" {
			panic(problem)
		}
		r.Answers = append(r.Answers, gatecheck.Answer{Vector: v, Line: line, Diffs: diffs})
	}
	return Outcome{Lang: JavaScript, Dir: "~/gate", Report: &r, Took: took, Vectors: vs}
}

// script is a Check that gives the outcomes in turn, the last one again
// after.
func script(outcomes ...Outcome) func(context.Context) Outcome {
	var mu sync.Mutex
	n := 0
	return func(context.Context) Outcome {
		mu.Lock()
		defer mu.Unlock()
		o := outcomes[min(n, len(outcomes)-1)]
		n++
		return o
	}
}

func newView(l assess.Lang, check func(context.Context) Outcome) Model {
	m := New(Options{Dir: "~/gate", Lang: JavaScript, Human: l, Check: check, Dark: true})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	return next.(Model)
}

// step delivers a save and the run it starts, as the program would.
func step(t *testing.T, m Model) Model {
	t.Helper()
	next, cmd := m.Update(changedMsg{})
	require.NotNil(t, cmd)
	next, _ = next.Update(cmd())
	return next.(Model)
}

func press(m Model, keys ...string) Model {
	for _, k := range keys {
		next, _ := m.Update(tea.KeyPressMsg{Code: rune(k[0]), Text: k})
		m = next.(Model)
	}
	return m
}

// TestWatchView pins what a learner sees at 80×24, in both languages:
// red before any code, rule 3 failing mid-way with toolgate's walk, the
// three hints, and green.
func TestWatchView(t *testing.T) {
	for _, l := range []assess.Lang{assess.English, assess.Chinese} {
		t.Run(l.String(), func(t *testing.T) {
			m := newView(l, script(outcome(starterGate, 210*time.Millisecond), outcome(untrimmedGate, 230*time.Millisecond),
				outcome(finishedGate, 220*time.Millisecond)))
			m = step(t, m)
			t.Run("red", func(t *testing.T) { golden.RequireEqual(t, ansi.Strip(m.Render())) })
			m = step(t, m)
			t.Run("mid", func(t *testing.T) { golden.RequireEqual(t, ansi.Strip(m.Render())) })
			hinted := press(m, "h", "h", "h")
			t.Run("hints", func(t *testing.T) { golden.RequireEqual(t, ansi.Strip(hinted.Render())) })
			m = step(t, m)
			t.Run("green", func(t *testing.T) { golden.RequireEqual(t, ansi.Strip(m.Render())) })
		})
	}
}

// TestWatchJourney drives the real program at 80×24: the first run is
// red, a save runs the gate again and shows rule 3 failing, h asks for
// hints, another save is green.
func TestWatchJourney(t *testing.T) {
	for _, l := range []assess.Lang{assess.English, assess.Chinese} {
		t.Run(l.String(), func(t *testing.T) {
			m := New(Options{Dir: "~/gate", Lang: JavaScript, Human: l, Dark: true,
				Check: script(outcome(starterGate, time.Second), outcome(untrimmedGate, time.Second), outcome(finishedGate, time.Second))})
			tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24),
				teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
			wait := func(s string) {
				teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
					teatest.WithDuration(time.Minute), teatest.WithCheckInterval(5*time.Millisecond))
			}
			red, mid, hint, green := "seed's red step", "scenario/blank-argument", "hint 3/3", "Green"
			if l == assess.Chinese {
				red, hint, green = "原文的红色步骤", "提示 3/3", "绿——"
			}
			wait(red)
			tm.Send(changedMsg{})
			wait(mid)
			for range 3 {
				tm.Send(tea.KeyPressMsg{Code: 'h', Text: "h"})
			}
			wait(hint)
			tm.Send(changedMsg{})
			wait(green)
			tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
			final := tm.FinalModel(t, teatest.WithFinalTimeout(time.Minute)).(Model)
			assert.Equal(t, StateGreen, final.Board().State)
			assert.Equal(t, 3, final.Runs())
			assert.Equal(t, 0, final.HintLevel(), "a new failure (here none) starts the hints over")
		})
	}
}

// TestASaveDuringARunRunsAgain: a save that comes while the gate runs
// stops that run and starts another once it ends; its stale result is
// never shown.
func TestASaveDuringARunRunsAgain(t *testing.T) {
	m := newView(assess.English, script(outcome(untrimmedGate, time.Second), outcome(finishedGate, time.Second)))
	next, first := m.Update(changedMsg{})
	m = next.(Model)
	next, cmd := m.Update(changedMsg{})
	m = next.(Model)
	assert.Nil(t, cmd, "no second run beside the first")
	stale := first().(resultMsg)
	stale.o.Canceled = true
	next, again := m.Update(stale)
	m = next.(Model)
	require.NotNil(t, again, "the save is run once the stopped run ends")
	assert.Zero(t, m.Runs(), "the stopped run is not shown")
	next, _ = m.Update(again())
	m = next.(Model)
	assert.Equal(t, 1, m.Runs())
	assert.Equal(t, StateGreen, m.Board().State, "the second outcome: what the save ran")
}

// TestHintsEscalateAndStartOver: h shows one more level up to three;
// a run with another first failure starts them over, the same failure
// keeps them; L switches the language of everything.
func TestHintsEscalateAndStartOver(t *testing.T) {
	m := newView(assess.English, script(outcome(starterGate, 0), outcome(starterGate, 0), outcome(untrimmedGate, 0)))
	m = step(t, m)
	m = press(m, "h", "h", "h", "h")
	assert.Equal(t, MaxHint, m.HintLevel())
	assert.Contains(t, ansi.Strip(m.Render()), "hint 1/3")
	m = step(t, m)
	assert.Equal(t, MaxHint, m.HintLevel(), "the same failure keeps its hints")
	m = step(t, m)
	assert.Zero(t, m.HintLevel(), "another failure starts over")
	m = press(m, "L")
	assert.Contains(t, ansi.Strip(m.Render()), "规则 3 在 scenario/blank-argument 上失败")
}

// TestNoFrameOverflows: at every size from tiny to wide the frame fits
// the terminal.
func TestNoFrameOverflows(t *testing.T) {
	m := newView(assess.English, script(outcome(untrimmedGate, 0)))
	m = step(t, m)
	m = press(m, "h", "h", "h", "?", "i")
	for _, size := range [][2]int{{1, 1}, {10, 5}, {40, 12}, {80, 24}, {200, 60}} {
		next, _ := m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		frame := ansi.Strip(next.(Model).Render())
		lines := strings.Split(frame, "\n")
		assert.LessOrEqual(t, len(lines), size[1], "%v", size)
		for _, line := range lines {
			assert.LessOrEqual(t, ansi.StringWidth(line), size[0], "%v: %q", size, line)
		}
	}
}
