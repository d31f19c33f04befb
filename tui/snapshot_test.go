package tui

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/progress"
	"toolgate/scenarios"
)

// The goldens are a pyramid, as crush's diffview tests are: each pane
// pinned on its own at several widths and in each theme, and a few whole
// frames of the journeys a learner and a lecturer take. A header change
// then rewrites a handful of files, not a hundred. Regenerate with
// `go test ./tui -update` and read the diff before committing.

var themes = []struct {
	name  string
	theme Theme
}{{"dark", ThemeDark}, {"light", ThemeLight}, {"high-contrast", ThemeHighContrast}}

// at is a trainer opened on a scenario at a step, sized, ready to render
// one pane.
func at(t *testing.T, opts Options, id string, step, width, height int) Model {
	t.Helper()
	opts.Scenario, opts.Step = id, step
	return resize(newTest(t, opts), width, height)
}

// TestPanes pins each pane alone.
func TestPanes(t *testing.T) {
	t.Run("Verdict", func(t *testing.T) {
		// The walk pane at the verdict, one scenario of each track, as a
		// projector (narrow, short) and a laptop show it.
		for _, id := range []string{"write-without-approval", "audit-duplicate-missing-unknown", "outcome-permission-denied"} {
			for _, width := range []int{40, 60, 80} {
				for _, lang := range []assess.Lang{assess.English, assess.Chinese} {
					t.Run(fmt.Sprintf("%s/%d/%s", id, width, lang), func(t *testing.T) {
						m := at(t, Options{Lang: lang}, id, 99, width, 30)
						golden.RequireEqual(t, ansi.Strip(walkPaneText(m, width, walkExtras{}, 22)))
					})
				}
			}
		}
		for _, th := range themes {
			t.Run("colour/"+th.name, func(t *testing.T) {
				m := at(t, Options{Theme: th.theme}, "timed-out-no-readback", 99, 60, 30)
				golden.RequireEqual(t, walkPaneText(m, 60, walkExtras{}, 24))
			})
		}
	})
	t.Run("Folding", func(t *testing.T) {
		// The same verdict as the height shrinks: rules fold before the
		// verdict does, and beyond that the pane scrolls with a hint.
		for _, height := range []int{30, 20, 14, 10} {
			t.Run(fmt.Sprint(height), func(t *testing.T) {
				m := at(t, Options{}, "outcome-execution-error", 99, 50, 40)
				golden.RequireEqual(t, ansi.Strip(walkPaneText(m, 50, walkExtras{hint: "a hint"}, height)))
			})
		}
	})
	t.Run("Step", func(t *testing.T) {
		for _, width := range []int{40, 60} {
			t.Run(fmt.Sprint(width), func(t *testing.T) {
				m := at(t, Options{}, "write-without-approval", 7, width, 40)
				golden.RequireEqual(t, ansi.Strip(walkPaneText(m, width, walkExtras{hint: seen(m).stepHint(false)}, 30)))
			})
		}
	})
	t.Run("TrainersNote", func(t *testing.T) {
		// Scenario 13 at rule 5: the book's rule passes, and the
		// trainer's note, marked as the trainer's, says what a careful
		// harness would do.
		for _, lang := range []assess.Lang{assess.English, assess.Chinese} {
			t.Run(lang.String(), func(t *testing.T) {
				m := at(t, Options{Lang: lang}, "timed-out-no-effect-status", 5, 60, 40)
				golden.RequireEqual(t, ansi.Strip(walkPaneText(m, 60, walkExtras{hint: seen(m).stepHint(false)}, 30)))
			})
		}
	})
	t.Run("Inputs", func(t *testing.T) {
		for _, width := range []int{36, 44, 72} {
			t.Run(fmt.Sprint(width), func(t *testing.T) {
				m := at(t, Options{}, "unknown-tool", 1, 120, 40)
				golden.RequireEqual(t, ansi.Strip(inputsText(m, width, 22)))
			})
		}
		t.Run("full", func(t *testing.T) {
			m := at(t, Options{}, "demo", 1, 60, 40)
			golden.RequireEqual(t, ansi.Strip(fullInputsText(m, 60, 38)))
		})
	})
	t.Run("List", func(t *testing.T) {
		for _, width := range []int{24, 36} {
			t.Run(fmt.Sprint(width), func(t *testing.T) {
				m := at(t, Options{Progress: walkedSome()}, "write-without-approval", 99, 200, 40)
				golden.RequireEqual(t, ansi.Strip(seen(m).renderList(newFilter(), m.prog.Walked, width, 24, nil, "", false)))
			})
		}
	})
	t.Run("Knobs", func(t *testing.T) {
		m := press(at(t, Options{}, "read-only-candidate", 0, 120, 40), "w", "down", "3")
		golden.RequireEqual(t, ansi.Strip(m.modes.whatIf.renderKnobs(m.modes.whatIf.scene(), 36, 14)))
	})
	t.Run("Help", func(t *testing.T) {
		for _, th := range themes {
			t.Run(th.name, func(t *testing.T) {
				m := press(at(t, Options{Theme: th.theme}, "1", 0, 80, 24), "?")
				golden.RequireEqual(t, m.renderHelp(22))
			})
		}
	})
}

func walkedSome() progress.Progress {
	p := progress.New()
	p.Walked = []string{"unknown-tool", "invalid-arguments"}
	return p
}

// TestJourneys are whole frames of the paths people take, driven through
// the real Bubble Tea program.
func TestJourneys(t *testing.T) {
	keep := func(scenarios.Scenario) (string, error) { return "", nil }
	clock := func() time.Time { return time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC) }
	journeys := []struct {
		name          string
		opts          Options
		width, height int
		keys          []string
	}{
		{"first-start", Options{}, 120, 40, []string{"x"}},
		{"rule-fires-80x24", Options{}, 80, 24, []string{"4", "l", "l", "l", "l", "l", "l", "l"}},
		{"verdict-80x24-zh", Options{Lang: assess.Chinese, Track: scenarios.TrackOutcome}, 80, 24, []string{"5", "e"}},
		{"audit-verdict-60x20", Options{Track: scenarios.TrackAudit}, 60, 20, []string{"2", "e"}},
		{"wide-200x60", Options{}, 200, 60, []string{"4", "l", "l", "l", "l", "l", "l", "l"}},
		{"quiz-right", Options{Quiz: true}, 120, 40, []string{"n", "n", "n", "7", "1"}},
		{"quiz-summary", Options{Quiz: true}, 80, 24, []string{"1", "1", "n", "4", "n", "n", "n", "n", "n", "n", "n", "n", "n", "n", "n", "n", "n"}},
		{"quiz-summary-scrolled", Options{Quiz: true}, 80, 24, append(slices.Repeat([]string{"2", "1", "n"}, 14), "down", "down", "down", "x")},
		// Practice after the quiz: a case answered (rule 7, its first
		// code, the first "does NOT prove"), its walk, the mastery.
		{"practice-80x24", Options{Quiz: true}, 80, 24, append(append([]string{"1", "1", "1"}, slices.Repeat([]string{"n"}, 14)...), "p", "7", "1", "1")},
		{"practice-80x24-zh", Options{Quiz: true, Lang: assess.Chinese}, 80, 24, append(append([]string{"1", "1", "1"}, slices.Repeat([]string{"n"}, 14)...), "p", "7", "1", "1")},
		{"what-if-80x24", Options{Scenario: "3", SaveScenario: keep}, 80, 24, []string{"w", "down", "2"}},
		{"what-if-60x20", Options{Scenario: "3", SaveScenario: keep}, 60, 20, []string{"w", "2"}},
		{"presenter-80x24", Options{Present: true, Clock: clock, Scenario: "6"}, 80, 24, []string{"enter", "enter", "enter", "enter", "enter", "enter"}},
		{"student-asked", Options{Room: &fakeRoom{}}, 80, 24, nil},
		{"intro-80x24", Options{}, 80, 24, nil},
		{"intro-60x20-zh", Options{Lang: assess.Chinese}, 60, 20, nil},
	}
	for _, j := range journeys {
		t.Run(j.name, func(t *testing.T) {
			keys := j.keys
			if j.opts.Room != nil {
				// The room's question arrives as a message.
				golden.RequireEqual(t, plain(drive(t, j.opts, j.width, j.height, RoomMsg{Live: "write-without-approval", Round: 1, Open: true})))
				return
			}
			if j.opts.Scenario == "" && !j.opts.Present && j.name != "first-start" && !strings.HasPrefix(j.name, "intro-") {
				// A learner's first start shows what the decision does
				// not do (pinned in intro-80x24); a key closes it.
				keys = append([]string{"x"}, keys...)
			}
			msgs := make([]tea.Msg, len(keys))
			for i, k := range keys {
				msgs[i] = keyMsg(k)
			}
			golden.RequireEqual(t, plain(drive(t, j.opts, j.width, j.height, msgs...)))
		})
	}
	// One frame with colour for each theme: the escape sequences pin the
	// status colours and styles.
	for _, th := range themes {
		t.Run("colour-"+th.name, func(t *testing.T) {
			m := drive(t, Options{Theme: th.theme, Present: true, Clock: clock, Scenario: "4", Step: 99}, 80, 24)
			golden.RequireEqual(t, m.Render())
		})
	}
}

// drive runs the real program under teatest at a fixed size and colour
// profile, sends the messages, quits, and returns the final model.
func drive(t *testing.T, opts Options, width, height int, msgs ...tea.Msg) Model {
	t.Helper()
	opts.Scenarios = scenarios.Builtin()
	if opts.Theme == ThemeAuto {
		opts.Theme = ThemeDark
	}
	tm := teatest.NewTestModel(t, New(opts),
		teatest.WithInitialTermSize(width, height),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.ANSI256)))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return len(b) > 0 },
		teatest.WithDuration(time.Minute), teatest.WithCheckInterval(5*time.Millisecond))
	for _, msg := range msgs {
		tm.Send(msg)
	}
	require.NoError(t, tm.Quit())
	return tm.FinalModel(t, teatest.WithFinalTimeout(time.Minute)).(Model)
}

// TestRandomKeysAndSizes drives the model with thousands of seeded random
// keys and window sizes (2,000 in each mode: walk, quiz, what-if, presenter,
// room as student and presenter, practice, high contrast, Chinese): it never
// panics, and no frame is ever wider or taller than the terminal.
func TestRandomKeysAndSizes(t *testing.T) {
	keys := []string{"l", "h", "space", "right", "left", "up", "down", "j", "k", "enter", "e", "r", "n", "p",
		"1", "2", "3", "5", "7", "8", "9", "esc", "tab", "L", "?", "pgup", "pgdown", "x", "Z", "J", "K", "i",
		"/", "backspace", "g", "w", "u", "R", "s", "t", "T", "b", ".", "c", "a", "o", "v", "P"}
	modes := map[string]Options{
		"walk":          {},
		"quiz":          {Quiz: true},
		"what-if":       {Scenario: "3"},
		"presenter":     {Present: true, Clock: func() time.Time { return time.Unix(0, 0) }},
		"high-contrast": {Theme: ThemeHighContrast, Lang: assess.Chinese},
		"room":          {Room: &fakeRoom{presenter: true}},
		"student":       {Room: &fakeRoom{}},
		"practice":      {Quiz: true},
	}
	for name, opts := range modes {
		t.Run(name, func(t *testing.T) {
			opts.SaveScenario = func(scenarios.Scenario) (string, error) { return "kept", nil }
			rng := rand.New(rand.NewPCG(2026, 11))
			m := newTest(t, opts)
			switch name {
			case "what-if":
				m = press(m, "w")
			case "practice":
				m = press(toSummary(t, m), "p")
			}
			width, height := 120, 40
			for i := range 2000 {
				switch r := rng.IntN(16); {
				case r < 2:
					width, height = rng.IntN(200)+1, rng.IntN(70)+1
					if rng.IntN(10) == 0 {
						width, height = rng.IntN(3), rng.IntN(3)
					}
					m = resize(m, width, height)
				case r == 3:
					m = send(m, tea.MouseClickMsg{X: rng.IntN(max(width, 1)), Y: rng.IntN(max(height, 1)), Button: tea.MouseLeft})
				case r == 4:
					m = send(m, tea.MouseWheelMsg{Button: []tea.MouseButton{tea.MouseWheelUp, tea.MouseWheelDown}[rng.IntN(2)]})
				case r == 2 && opts.Room != nil:
					ids := []string{"unknown-tool", "write-without-approval", "outcome-found", "audit-missing"}
					m = send(m, RoomMsg{Live: ids[rng.IntN(len(ids))], Round: i, Open: rng.IntN(2) == 0, Revealed: rng.IntN(2) == 0,
						Counts: map[int]int{rng.IntN(8) + 1: rng.IntN(200)}, Answered: rng.IntN(200), Students: 199})
				default:
					m = press(m, keys[rng.IntN(len(keys))])
				}
				frame := m.Render()
				lines := strings.Split(frame, "\n")
				if frame != "" {
					require.LessOrEqual(t, len(lines), max(height, 0), "step %d at %dx%d in %s: too tall", i, width, height, m.Mode())
				}
				for n, l := range lines {
					require.LessOrEqual(t, ansi.StringWidth(l), max(width, 0), "step %d at %dx%d in %s: line %d too wide: %q", i, width, height, m.Mode(), n, l)
				}
			}
		})
	}
}

// BenchmarkRender is one full frame at 120×40 with the verdict shown.
// Target: under 1 ms.
func BenchmarkRender(b *testing.B) {
	for _, tc := range []struct {
		name          string
		width, height int
		opts          Options
	}{
		{"120x40", 120, 40, Options{Scenario: "4", Step: 9}},
		{"80x24", 80, 24, Options{Track: scenarios.TrackOutcome, Scenario: "5", Step: 9}},
		{"presenter-80x24", 80, 24, Options{Present: true, Scenario: "4", Step: 9}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			tc.opts.Scenarios, tc.opts.Theme = scenarios.Builtin(), ThemeDark
			m := resize(New(tc.opts), tc.width, tc.height)
			b.ReportAllocs()
			for b.Loop() {
				_ = m.Render()
			}
		})
	}
}

// BenchmarkStartToFirstFrame loads the embedded scenarios, builds the
// model and runs the real Bubble Tea program until its first frame is
// written. Target: under 100 ms.
func BenchmarkStartToFirstFrame(b *testing.B) {
	for b.Loop() {
		all := scenarios.Builtin()
		out := &frameWriter{first: make(chan struct{})}
		p := tea.NewProgram(New(Options{Scenarios: all, Theme: ThemeDark}),
			tea.WithInput(&bytes.Buffer{}), tea.WithOutput(out), tea.WithWindowSize(120, 40),
			tea.WithoutSignals(), tea.WithColorProfile(colorprofile.TrueColor))
		go func() { _, _ = p.Run() }()
		<-out.first
		p.Kill()
		p.Wait()
	}
}

// frameWriter signals when the first frame's text arrives.
type frameWriter struct {
	first chan struct{}
	buf   bytes.Buffer
	done  bool
}

func (w *frameWriter) Write(b []byte) (int, error) {
	w.buf.Write(b)
	// The first frame: the trainer, or on a first start the screen of
	// what the decision does not do.
	if !w.done && (bytes.Contains(w.buf.Bytes(), []byte("Scenarios")) || bytes.Contains(w.buf.Bytes(), []byte("What this decision does not do"))) {
		w.done = true
		close(w.first)
	}
	return len(b), nil
}
