package tui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/progress"
	"toolgate/scenarios"
)

func newTest(t *testing.T, opts Options) Model {
	t.Helper()
	all, err := scenarios.Builtin()
	require.NoError(t, err)
	opts.Scenarios = all
	if opts.Theme == ThemeAuto {
		opts.Theme = ThemeDark
	}
	m := New(opts)
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return next.(Model)
}

// press sends keys, one a message, the way a terminal does.
func press(m Model, keys ...string) Model {
	for _, k := range keys {
		next, _ := m.Update(keyMsg(k))
		m = next.(Model)
	}
	return m
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// plain is the frame as a person reads it, without colours.
func plain(m Model) string { return ansi.Strip(m.Render()) }

func state(m Model) (int, int, string) { return m.Selected() }

func TestUpdateStepping(t *testing.T) {
	tests := []struct {
		name  string
		keys  []string
		num   int
		step  int
		focus string
	}{
		{"starts on the list at scenario 1", nil, 1, 0, "list"},
		{"down selects the next scenario", []string{"down", "j"}, 3, 0, "list"},
		{"up wraps to the last", []string{"up"}, 8, 0, "list"},
		{"enter opens without revealing", []string{"j", "enter"}, 2, 0, "walk"},
		{"right reveals rule 1", []string{"right"}, 1, 1, "walk"},
		{"l, space and pgdown step too", []string{"4", "l", "space", "pgdown"}, 4, 3, "walk"},
		{"stepping stops at the verdict", []string{"1", "l", "l", "l", "l", "l"}, 1, 2, "walk"},
		{"back steps back", []string{"4", "l", "l", "l", "left", "h"}, 4, 1, "walk"},
		{"pgup steps back, never below 0", []string{"4", "l", "pgup", "pgup"}, 4, 0, "walk"},
		{"enter in the walk runs to the verdict", []string{"4", "enter"}, 4, 8, "walk"},
		{"e runs to the verdict", []string{"2", "e"}, 2, 4, "walk"},
		{"r restarts", []string{"4", "e", "r"}, 4, 0, "walk"},
		{"n goes to the next scenario at step 0", []string{"4", "e", "n"}, 5, 0, "walk"},
		{"p goes back and wraps", []string{"1", "p"}, 8, 0, "walk"},
		{"a digit opens that scenario", []string{"7"}, 7, 0, "walk"},
		{"a digit past the list is ignored", []string{"3", "9"}, 3, 0, "walk"},
		{"esc returns to the list", []string{"5", "esc"}, 5, 0, "list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := press(newTest(t, Options{}), tt.keys...)
			num, step, focus := state(m)
			assert.Equal(t, tt.num, num)
			assert.Equal(t, tt.step, step)
			assert.Equal(t, tt.focus, focus)
		})
	}
}

func TestVerdictComesFromAssess(t *testing.T) {
	m := newTest(t, Options{})
	for i, s := range m.all {
		m = press(m, string(rune('1'+i)), "e")
		want := assess.Assess(&s.Input)
		assert.Equal(t, want, m.walk.Result, s.ID)
		assert.True(t, m.reached(), s.ID)
		assert.Equal(t, int(want.Code.Rule())+1, m.step, s.ID)
	}
}

func TestTracks(t *testing.T) {
	m := newTest(t, Options{})
	assert.Equal(t, "admission", m.Track())
	m = press(m, "t")
	assert.Equal(t, "audit", m.Track())
	num, step, focus := state(m)
	assert.Equal(t, []any{1, 0, "list"}, []any{num, step, focus})
	assert.Contains(t, plain(m), "Out of order is fine")
	m = press(m, "2", "e")
	out := plain(m)
	assert.Contains(t, out, "duplicate:A  missing:B  unknown:C")
	assert.Contains(t, out, "does NOT prove")
	m = press(m, "t")
	assert.Equal(t, "outcome", m.Track())
	m = press(m, "5", "e")
	assert.Contains(t, plain(m), "another user id")
	m = press(m, "t")
	assert.Equal(t, "admission", m.Track(), "t cycles back")

	m = newTest(t, Options{Track: "audit", Scenario: "8", Step: 99})
	assert.Equal(t, "audit", m.Track())
	num, step, _ = state(m)
	assert.Equal(t, 8, num)
	assert.Equal(t, 4, step, "an open batch with one result: three steps and the verdict")
	assert.Contains(t, plain(m), `pending: A, C`)

	m = newTest(t, Options{Scenario: "outcome-protocol-error"})
	assert.Equal(t, "outcome", m.Track(), "an id opens its own track")
}

func TestStartAt(t *testing.T) {
	m := newTest(t, Options{Scenario: "4", Step: 3})
	num, step, focus := state(m)
	assert.Equal(t, []any{4, 3, "walk"}, []any{num, step, focus})

	m = newTest(t, Options{Scenario: "invalid-arguments", Step: 99})
	num, step, _ = state(m)
	assert.Equal(t, 2, num)
	assert.Equal(t, 4, step, "a step past the verdict stops at the verdict")

	m = newTest(t, Options{Scenario: "nope", Step: 3})
	num, step, focus = state(m)
	assert.Equal(t, []any{1, 0, "list"}, []any{num, step, focus})
}

func TestLanguageHelpInputsAndQuit(t *testing.T) {
	m := newTest(t, Options{})
	m = press(m, "L")
	assert.Equal(t, assess.Chinese, m.Lang())
	assert.Contains(t, plain(m), "判断顺序")
	m = press(m, "L")
	assert.Equal(t, assess.English, m.Lang())

	m = press(m, "?")
	assert.True(t, m.showHelp)
	assert.Contains(t, plain(m), "more keys")
	m = press(m, "esc")
	assert.False(t, m.showHelp, "esc closes the help")

	next, _ := m.Update(tea.WindowSizeMsg{Width: 60, Height: 30})
	m = press(next.(Model), "tab")
	assert.True(t, m.showInputs)
	assert.Contains(t, plain(m), "Invocation record")

	for _, k := range []string{"q", "ctrl+c"} {
		_, cmd := m.Update(keyMsg(k))
		require.NotNil(t, cmd, k)
		assert.Equal(t, tea.QuitMsg{}, cmd(), k)
	}
}

func TestBackgroundColourPicksTheTheme(t *testing.T) {
	all := scenarios.MustBuiltin()
	m := New(Options{Scenarios: all})
	require.NotNil(t, m.Init(), "auto theme asks the terminal")
	next, _ := m.Update(tea.BackgroundColorMsg{Color: lightColour{}})
	assert.False(t, next.(Model).dark)

	fixed := New(Options{Scenarios: all, Theme: ThemeDark})
	assert.Nil(t, fixed.Init(), "a fixed theme asks nothing")
	next, _ = fixed.Update(tea.BackgroundColorMsg{Color: lightColour{}})
	assert.True(t, next.(Model).dark, "a fixed theme ignores the terminal")
}

type lightColour struct{}

func (lightColour) RGBA() (r, g, b, a uint32) { return 0xffff, 0xffff, 0xffff, 0xffff }

func TestInputsMarkWhatTheRuleReads(t *testing.T) {
	m := press(newTest(t, Options{}), "4", "l", "l", "l", "l", "l", "l", "l")
	out := plain(m)
	assert.Contains(t, out, "rule 7 reads the marked fields")
	assert.Regexp(t, `> +effectClass +"reversible_write"`, out)
	assert.Regexp(t, `> Approval +— none —`, out, "an absent approval is shown, and marked")
	assert.Regexp(t, `  Invocation record +— none —`, out)
}

func TestWrap(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  string
	}{
		{"the quick brown fox", 9, "the quick\nbrown fox"},
		{"每个必填参数都是非空字符串：documentId、title", 20, "每个必填参数都是非空\n字符串：documentId、\ntitle"},
		{"规则 5 触发，由它作出判断", 13, "规则 5 触发，\n由它作出判断"},
		{"supercalifragilistic", 8, "supercal\nifragili\nstic"},
		{"two\nparagraphs here", 9, "two\nparagraph\ns here"},
	}
	for _, tt := range tests {
		got := wrap(tt.in, tt.width)
		assert.Equal(t, tt.want, got, tt.in)
		for _, l := range strings.Split(got, "\n") {
			assert.LessOrEqual(t, ansi.StringWidth(l), tt.width, l)
		}
	}
}

func TestQuiz(t *testing.T) {
	m := newTest(t, Options{Quiz: true})
	assert.Equal(t, quizAskStep, m.quiz.phase, "--quiz asks before any rule is shown")
	assert.Contains(t, plain(m), "Predict first: which rule fires? Press 1–8.")

	m = press(m, "l")
	_, step, _ := state(m)
	assert.Equal(t, 0, step, "no peeking: stepping waits for the answer")
	assert.Contains(t, plain(m), "Answer first")

	// Scenario 1: rule 1 has two codes, so a second question.
	m = press(m, "1")
	assert.Equal(t, quizAskCode, m.quiz.phase)
	assert.Contains(t, plain(m), "1  unknown_tool")
	m = press(m, "1")
	assert.Equal(t, quizIdle, m.quiz.phase)
	assert.True(t, m.reached(), "the walk is revealed")
	right, _ := m.quiz.score()
	assert.Equal(t, 1, right)
	assert.Contains(t, plain(m), "✓ Right: rule 1, unknown_tool.")
	assert.Contains(t, plain(m), "quiz 1/1")

	// Scenario 4: say rule 4 (one code), but rule 7 decides.
	m = press(m, "n")
	m = press(m, "n", "n")
	num, _, _ := state(m)
	require.Equal(t, 4, num)
	assert.Equal(t, quizAskStep, m.quiz.phase, "each new scenario asks")
	m = press(m, "4")
	assert.Equal(t, quizIdle, m.quiz.phase, "rule 4 has one code: no second question")
	r := m.quiz.results["write-without-approval"]
	assert.False(t, r.right)
	assert.Equal(t, "rule 4, environment_not_ready", r.said)
	assert.Equal(t, "rule 7, approval_missing", r.decided)
	assert.Contains(t, plain(m), "✗ You said rule 4, environment_not_ready; rule")
	right, asked := m.quiz.score()
	assert.Equal(t, []any{1, 2}, []any{right, asked})

	// Scenarios skipped with n are not counted; the end shows the summary.
	m = press(m, "n", "n", "n", "n")
	num, _, _ = state(m)
	require.Equal(t, 8, num)
	m = press(m, "n")
	require.True(t, m.quiz.summary)
	out := plain(m)
	assert.Contains(t, out, "Score: 1 right of 2 asked.")
	assert.Contains(t, out, "✗ 4 Write without approval")
	assert.NotContains(t, out, "✗ 1 Unknown tool")
	m = press(m, "x")
	assert.False(t, m.quiz.summary, "any key closes the summary")

	// The progress records every answer.
	assert.Equal(t, 2, m.prog.Asked)
	assert.False(t, m.prog.Quiz["write-without-approval"].Right)
	assert.Contains(t, m.prog.Walked, "unknown-tool")
}

func TestQuizOutcomeAndAudit(t *testing.T) {
	m := newTest(t, Options{Track: "outcome", Quiz: true})
	assert.Contains(t, plain(m), "which class is this? Press 1–6")
	m = press(m, "6")
	assert.Contains(t, plain(m), "✓ Right: found.")
	m = press(m, "n", "1")
	assert.Contains(t, plain(m), "✗ You said protocol_error; not_found decided.")

	m = newTest(t, Options{Track: "audit", Quiz: true})
	assert.Equal(t, quizIdle, m.quiz.phase)
	assert.Contains(t, plain(m), "the audit walks as usual")
}

func TestProgressIsSavedAndResumed(t *testing.T) {
	var saved []progress.Progress
	save := func(p progress.Progress) error { saved = append(saved, p); return nil }
	m := newTest(t, Options{Save: save})
	m = press(m, "4")
	m = runCmd(t, m, "e")
	require.NotEmpty(t, saved)
	last := saved[len(saved)-1]
	assert.Equal(t, "write-without-approval", last.Last)
	assert.Contains(t, last.Walked, "write-without-approval")

	m = runCmd(t, m, "L")
	assert.Equal(t, "zh", saved[len(saved)-1].Lang)

	resumed := newTest(t, Options{Progress: saved[len(saved)-1]})
	num, _, _ := state(resumed)
	assert.Equal(t, 4, num, "self-study resumes on the last scenario")

	failing := newTest(t, Options{Save: func(progress.Progress) error { return errors.New("disk full") }})
	failing = runCmd(t, failing, "2")
	assert.Contains(t, plain(failing), "! progress not saved: disk full")
}

// runCmd presses a key and feeds the command's message back, as the
// program would.
func runCmd(t *testing.T, m Model, k string) Model {
	t.Helper()
	next, cmd := m.Update(keyMsg(k))
	m = next.(Model)
	if cmd != nil {
		next, _ = m.Update(cmd())
		m = next.(Model)
	}
	return m
}

func TestWhatIf(t *testing.T) {
	dir := t.TempDir()
	m := newTest(t, Options{Scenario: "3", SaveScenario: func(s scenarios.Scenario) (string, error) { return scenarios.SaveCopy(dir, s) }})
	m = press(m, "w")
	require.True(t, m.whatIf.on)
	assert.True(t, m.reached(), "what-if shows the whole walk")
	assert.Contains(t, plain(m), "What if…")

	// Knob 1 is the environment: 2 sets degraded.
	m = press(m, "2")
	assert.Equal(t, assess.CodeEnvironmentNotReady, m.walk.Result.(assess.Verdict).Code)
	assert.Equal(t, "verdict: allowed/admission_allowed → blocked/environment_not_ready (rule 4 now fires)", m.whatIf.message)

	// Down to the effect class; a write needs approval.
	m = press(m, "1") // environment back to ready
	for range 8 {
		m = press(m, "down")
	}
	m = press(m, "2")
	assert.Equal(t, assess.CodeApprovalMissing, m.walk.Result.(assess.Verdict).Code)
	assert.Equal(t, "verdict: allowed/admission_allowed → requires_approval/approval_missing (rule 7 now fires)", m.whatIf.message)
	assert.Contains(t, plain(m), "WHAT-IF: this input is edited")

	m = press(m, "u")
	assert.Equal(t, assess.CodeAdmissionAllowed, m.walk.Result.(assess.Verdict).Code, "u undoes the last change")
	m = press(m, "2", "R")
	assert.Equal(t, m.all[m.sel].Input, m.whatIf.input, "R resets to the scenario as written")
	assert.Empty(t, m.whatIf.history)

	m = press(m, "up", "3", "n") // the knob above the class is the version: it has no 3; n does not leave the experiment
	require.True(t, m.whatIf.on)
	m = press(m, "2") // a version the contract lacks
	assert.Equal(t, assess.CodeToolVersionMismatch, m.walk.Result.(assess.Verdict).Code)
	m = runCmd(t, m, "s")
	assert.Contains(t, m.notice, "saved as "+filepath.Join(dir, "read-only-candidate-whatif-1.yaml"))
	data, err := os.ReadFile(filepath.Join(dir, "read-only-candidate-whatif-1.yaml"))
	require.NoError(t, err)
	saved, err := scenarios.Parse("saved.yaml", data)
	require.NoError(t, err, "a saved experiment is a valid scenario")
	assert.Equal(t, assess.CodeToolVersionMismatch, saved.Expect.Code)
	m = runCmd(t, m, "s")
	assert.Contains(t, m.notice, "whatif-2.yaml", "never over an earlier one")

	m = press(m, "w")
	assert.False(t, m.whatIf.on)
	assert.Equal(t, assess.CodeAdmissionAllowed, m.walk.Result.(assess.Verdict).Code, "leaving restores the scenario")

	m = press(m, "t", "w")
	assert.False(t, m.whatIf.on, "what-if is for admission scenarios")
	assert.Contains(t, plain(m), "what-if works on admission scenarios")
}
