package tui

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
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
	"toolgate/scenarios"
	"toolgate/walk"
)

// drive runs the real program under teatest at a fixed size and colour
// profile, sends the keys, quits, and returns the final model.
func drive(t *testing.T, opts Options, width, height int, keys ...string) Model {
	t.Helper()
	opts.Scenarios = scenarios.MustBuiltin()
	if opts.Theme == ThemeAuto {
		opts.Theme = ThemeDark // tests inject the theme, never detect it
	}
	tm := teatest.NewTestModel(t, New(opts),
		teatest.WithInitialTermSize(width, height),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return len(b) > 0 },
		teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
	for _, k := range keys {
		tm.Send(keyMsg(k))
	}
	require.NoError(t, tm.Quit())
	return tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
}

func repeat(k string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = k
	}
	return out
}

// TestSnapshots pins what a person sees. Regenerate with
// `go test ./tui -update` and read the diff before committing.
func TestSnapshots(t *testing.T) {
	all := scenarios.MustBuiltin()
	for _, s := range all {
		digit := fmt.Sprint(s.Number)
		w := walk.Of(s, assess.English)
		// The step to pin as "fires": the first that fired, else the last.
		fires := w.Decisive
		for i, st := range w.Steps {
			if st.Outcome == assess.Fired {
				fires = i + 1
				break
			}
		}
		opts := Options{Track: s.Track}
		name := s.ID
		if s.Track != scenarios.TrackAdmission {
			name = s.Track + "/" + s.ID
		}
		t.Run(name, func(t *testing.T) {
			t.Run("1-first-step", func(t *testing.T) {
				golden.RequireEqual(t, plain(drive(t, opts, 120, 40, digit, "l")))
			})
			t.Run("2-fires", func(t *testing.T) {
				golden.RequireEqual(t, plain(drive(t, opts, 120, 40, append([]string{digit}, repeat("l", fires)...)...)))
			})
			t.Run("3-verdict", func(t *testing.T) {
				golden.RequireEqual(t, plain(drive(t, opts, 120, 40, digit, "e")))
			})
		})
	}
	t.Run("zh", func(t *testing.T) {
		for _, n := range []string{"2", "4", "6"} {
			t.Run("verdict-"+n, func(t *testing.T) {
				golden.RequireEqual(t, plain(drive(t, Options{Lang: assess.Chinese}, 120, 40, n, "e")))
			})
		}
		t.Run("first-step-5", func(t *testing.T) {
			golden.RequireEqual(t, plain(drive(t, Options{Lang: assess.Chinese}, 120, 40, "5", "l")))
		})
		t.Run("narrow-80x24-verdict-4", func(t *testing.T) {
			golden.RequireEqual(t, plain(drive(t, Options{Lang: assess.Chinese}, 80, 24, "4", "e")))
		})
		t.Run("audit-verdict-2", func(t *testing.T) {
			golden.RequireEqual(t, plain(drive(t, Options{Lang: assess.Chinese, Track: "audit"}, 120, 40, "2", "e")))
		})
		t.Run("outcome-verdict-4", func(t *testing.T) {
			golden.RequireEqual(t, plain(drive(t, Options{Lang: assess.Chinese, Track: "outcome"}, 120, 40, "4", "e")))
		})
	})
	t.Run("start-on-list", func(t *testing.T) {
		golden.RequireEqual(t, plain(drive(t, Options{}, 120, 40)))
	})
	t.Run("help-overlay", func(t *testing.T) {
		golden.RequireEqual(t, plain(drive(t, Options{}, 120, 40, "?")))
	})
	t.Run("narrow-80x24", func(t *testing.T) {
		t.Run("verdict-4", func(t *testing.T) {
			golden.RequireEqual(t, plain(drive(t, Options{}, 80, 24, "4", "e")))
		})
		t.Run("rule-fires-6", func(t *testing.T) {
			golden.RequireEqual(t, plain(drive(t, Options{}, 80, 24, append([]string{"6"}, repeat("l", 5)...)...)))
		})
	})
	t.Run("one-column-60x20", func(t *testing.T) {
		t.Run("walk", func(t *testing.T) {
			golden.RequireEqual(t, plain(drive(t, Options{}, 60, 20, "2", "e")))
		})
		t.Run("inputs", func(t *testing.T) {
			golden.RequireEqual(t, plain(drive(t, Options{}, 60, 20, "2", "e", "tab")))
		})
	})
	t.Run("too-small-30x8", func(t *testing.T) {
		golden.RequireEqual(t, plain(drive(t, Options{}, 30, 8)))
	})
	t.Run("start-at-scenario-4-step-3", func(t *testing.T) {
		golden.RequireEqual(t, plain(drive(t, Options{Scenario: "4", Step: 3}, 120, 40)))
	})
	t.Run("quiz", func(t *testing.T) {
		// In the quiz digits answer; n and p move between scenarios.
		toFour := []string{"n", "n", "n"}
		t.Run("question", func(t *testing.T) {
			golden.RequireEqual(t, plain(drive(t, Options{Quiz: true}, 120, 40, toFour...)))
		})
		t.Run("code-question", func(t *testing.T) {
			golden.RequireEqual(t, plain(drive(t, Options{Quiz: true}, 120, 40, append(toFour, "7")...)))
		})
		t.Run("right", func(t *testing.T) {
			golden.RequireEqual(t, plain(drive(t, Options{Quiz: true}, 120, 40, append(toFour, "7", "1")...)))
		})
		t.Run("wrong", func(t *testing.T) {
			golden.RequireEqual(t, plain(drive(t, Options{Quiz: true}, 120, 40, append(toFour, "4")...)))
		})
		t.Run("summary", func(t *testing.T) {
			golden.RequireEqual(t, plain(drive(t, Options{Quiz: true}, 120, 40, "1", "1", "n", "4", "n", "n", "n", "n", "n", "n", "n")))
		})
	})
	// The what-if frames show the save key, as on a learner's own machine.
	keep := func(scenarios.Scenario) (string, error) { return "", nil }
	t.Run("what-if-change", func(t *testing.T) {
		golden.RequireEqual(t, plain(drive(t, Options{Scenario: "3", SaveScenario: keep}, 120, 40, "w", "2")))
	})
	t.Run("what-if-change-80x24", func(t *testing.T) {
		golden.RequireEqual(t, plain(drive(t, Options{Scenario: "3", SaveScenario: keep}, 80, 24, "w", "down", "3")))
	})
	clock := func() time.Time { return time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC) }
	for _, theme := range []Theme{ThemeDark, ThemeLight, ThemeHighContrast} {
		name := map[Theme]string{ThemeDark: "dark", ThemeLight: "light", ThemeHighContrast: "high-contrast"}[theme]
		t.Run("present-"+name, func(t *testing.T) {
			opts := Options{Present: true, Theme: theme, Clock: clock, Scenario: "6"}
			t.Run("rule-fires", func(t *testing.T) {
				golden.RequireEqual(t, drive(t, opts, 120, 40, "pgdown", "pgdown", "pgdown", "pgdown", "pgdown").Render())
			})
			t.Run("verdict", func(t *testing.T) {
				golden.RequireEqual(t, drive(t, opts, 120, 40, "enter", "enter", "enter", "enter", "enter", "space").Render())
			})
		})
	}
	t.Run("present-blank", func(t *testing.T) {
		golden.RequireEqual(t, plain(drive(t, Options{Present: true, Theme: ThemeDark, Clock: clock, Scenario: "6"}, 120, 40, "pgdown", "b")))
	})
	// With colour: the escape sequences pin the status colours and styles.
	t.Run("colour", func(t *testing.T) {
		for _, n := range []string{"1", "4", "6", "7", "3"} {
			t.Run("verdict-"+n, func(t *testing.T) {
				golden.RequireEqual(t, drive(t, Options{}, 120, 40, n, "e").Render())
			})
		}
		t.Run("light-verdict-5", func(t *testing.T) {
			golden.RequireEqual(t, drive(t, Options{Theme: ThemeLight}, 120, 40, "5", "e").Render())
		})
	})
}

// TestNoColourStillReadable checks that every state says itself in words
// and symbols, so a monochrome projector or NO_COLOR loses nothing.
func TestNoColourStillReadable(t *testing.T) {
	m := newTest(t, Options{})
	for i, s := range m.all {
		m = press(m, fmt.Sprint(i+1), "e")
		out := plain(m)
		v := assess.Assess(&s.Input)
		require.Contains(t, out, strings.ToUpper(v.Status.String()), s.ID)
		require.Contains(t, out, v.Code.String(), s.ID)
		require.Contains(t, out, "FIRED", s.ID)
		require.Contains(t, out, "does NOT prove", s.ID)
	}
}

// TestRandomKeysAndSizes drives the model with thousands of seeded random
// keys and window sizes, in every mode (plain, quiz, presenter, high
// contrast, Chinese): it never panics, and no frame is ever wider or
// taller than the terminal.
func TestRandomKeysAndSizes(t *testing.T) {
	keys := []string{"l", "h", "space", "right", "left", "up", "down", "j", "k", "enter", "e", "r", "n", "p",
		"1", "2", "3", "5", "7", "8", "9", "esc", "tab", "L", "?", "pgup", "pgdown", "x", "Z",
		"g", "w", "u", "R", "s", "t", "T", "b", ".", "o", "v"}
	modes := map[string]Options{
		"plain":         {},
		"quiz":          {Quiz: true},
		"presenter":     {Present: true, Clock: func() time.Time { return time.Unix(0, 0) }},
		"high-contrast": {Theme: ThemeHighContrast, Lang: assess.Chinese},
		"room":          {Room: &fakeRoom{presenter: true}},
	}
	for name, opts := range modes {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir() // where s saves what-if experiments
			opts.SaveScenario = func(s scenarios.Scenario) (string, error) { return scenarios.SaveCopy(dir, s) }
			rng := rand.New(rand.NewPCG(2026, 11))
			m := newTest(t, opts)
			width, height := 120, 40
			for i := range 3000 {
				if rng.IntN(8) == 0 {
					width, height = rng.IntN(200)+1, rng.IntN(70)+1
					if rng.IntN(10) == 0 {
						width, height = rng.IntN(3), rng.IntN(3)
					}
					next, _ := m.Update(tea.WindowSizeMsg{Width: width, Height: height})
					m = next.(Model)
				} else {
					m = press(m, keys[rng.IntN(len(keys))])
				}
				frame := m.Render()
				lines := strings.Split(frame, "\n")
				if frame != "" {
					require.LessOrEqual(t, len(lines), max(height, 0), "step %d at %dx%d: too tall", i, width, height)
				}
				for n, l := range lines {
					require.LessOrEqual(t, ansi.StringWidth(l), max(width, 0), "step %d at %dx%d: line %d too wide: %q", i, width, height, n, l)
				}
			}
		})
	}
}

// BenchmarkRender is one full frame at 120×40 with the verdict shown.
// Target: under 1 ms.
func BenchmarkRender(b *testing.B) {
	m := New(Options{Scenarios: scenarios.MustBuiltin(), Theme: ThemeDark, Scenario: "4", Step: 9})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = next.(Model)
	b.ReportAllocs()
	for b.Loop() {
		_ = m.Render()
	}
}

// BenchmarkStartToFirstFrame loads the embedded scenarios, builds the
// model and runs the real Bubble Tea program until its first frame is
// written. Target: under 100 ms.
func BenchmarkStartToFirstFrame(b *testing.B) {
	for b.Loop() {
		all, err := scenarios.Builtin()
		if err != nil {
			b.Fatal(err)
		}
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
	if !w.done && bytes.Contains(w.buf.Bytes(), []byte("Scenarios")) {
		w.done = true
		close(w.first)
	}
	return len(b), nil
}

var _ io.Writer = (*frameWriter)(nil)
