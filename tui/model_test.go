package tui

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/stopwatch"
	"charm.land/bubbles/v2/timer"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/progress"
	"toolgate/scenarios"
	"toolgate/walk"
	"toolgate/whatif"
)

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
		{"up wraps to the last", []string{"up"}, 14, 0, "list"},
		{"enter opens without revealing", []string{"j", "enter"}, 2, 0, "walk"},
		{"right reveals rule 1", []string{"right"}, 1, 1, "walk"},
		{"l, space and pgdown step too", []string{"4", "l", "space", "pgdown"}, 4, 3, "walk"},
		{"stepping stops at the verdict", []string{"1", "l", "l", "l", "l", "l"}, 1, 2, "walk"},
		{"back steps back", []string{"4", "l", "l", "l", "left", "h"}, 4, 1, "walk"},
		{"pgup steps back, never below 0", []string{"4", "l", "pgup", "pgup"}, 4, 0, "walk"},
		{"enter in the walk runs to the verdict", []string{"4", "enter"}, 4, 8, "walk"},
		{"e runs to the verdict", []string{"2", "e"}, 2, 4, "walk"},
		{"e from the list runs the selected scenario", []string{"j", "e"}, 2, 4, "walk"},
		{"r restarts", []string{"4", "e", "r"}, 4, 0, "walk"},
		{"n goes to the next scenario at step 0", []string{"4", "e", "n"}, 5, 0, "walk"},
		{"p goes back and wraps", []string{"1", "p"}, 14, 0, "walk"},
		{"a digit opens that scenario", []string{"7"}, 7, 0, "walk"},
		{"a digit past the list is ignored", []string{"t", "3", "9"}, 3, 0, "walk"},
		{"esc returns to the list", []string{"5", "esc"}, 5, 0, "list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := press(newTest(t, Options{}), tt.keys...)
			num, step, focus := state(m)
			assert.Equal(t, []any{tt.num, tt.step, tt.focus}, []any{num, step, focus})
		})
	}
}

func TestVerdictComesFromAssess(t *testing.T) {
	first := newTest(t, Options{})
	for _, s := range here(first).inTrack() {
		m := press(newTest(t, Options{Scenario: s.ID}), "e")
		want := assess.Assess(new(s.Case.(scenarios.AdmissionCase).Input))
		assert.Equal(t, walk.AdmissionAnswer{Verdict: want}, here(m).walk.Result, s.ID)
		assert.True(t, here(m).reached(), s.ID)
		_, step, _ := state(m)
		assert.Equal(t, int(want.Code.Rule())+1, step, s.ID)
	}
}

func TestTracks(t *testing.T) {
	m := newTest(t, Options{})
	assert.Equal(t, scenarios.TrackAdmission, m.Track())
	m = press(m, "t")
	assert.Equal(t, scenarios.TrackAudit, m.Track())
	num, step, focus := state(m)
	assert.Equal(t, []any{1, 0, "list"}, []any{num, step, focus})
	assert.Contains(t, plain(m), "Out of order is fine")
	m = press(m, "2", "e")
	out := plain(m)
	assert.Contains(t, out, "duplicate:A  missing:B  unknown:C")
	assert.Contains(t, out, "does NOT prove")
	m = press(m, "t")
	assert.Equal(t, scenarios.TrackOutcome, m.Track())
	m = press(m, "5", "e")
	assert.Contains(t, plain(m), "another user id")
	m = press(m, "t")
	assert.Equal(t, scenarios.TrackAdmission, m.Track(), "t cycles back")

	m = newTest(t, Options{Track: scenarios.TrackAudit, Scenario: "8", Step: 99})
	assert.Equal(t, scenarios.TrackAudit, m.Track())
	num, step, _ = state(m)
	assert.Equal(t, 8, num)
	assert.Equal(t, 4, step, "an open batch with one result: three steps and the verdict")
	assert.Contains(t, plain(m), `pending: A, C`)

	m = newTest(t, Options{Scenario: "outcome-protocol-error"})
	assert.Equal(t, scenarios.TrackOutcome, m.Track(), "an id opens its own track")
}

func TestStartAt(t *testing.T) {
	m := newTest(t, Options{Scenario: "4", Step: 3})
	num, step, focus := state(m)
	assert.Equal(t, []any{4, 3, "walk"}, []any{num, step, focus})

	m = newTest(t, Options{Scenario: "invalid-arguments", Step: 99})
	num, step, _ = state(m)
	assert.Equal(t, []any{2, 4}, []any{num, step}, "a step past the verdict stops at the verdict")

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
	assert.True(t, m.cover.showHelp)
	assert.Contains(t, plain(m), "Keys — walk")
	m = press(m, "e")
	_, step, _ := state(m)
	assert.Zero(t, step, "keys under the help do not step the walk")
	m = press(m, "esc")
	assert.False(t, m.cover.showHelp, "esc closes the help")

	m = press(resize(m, 60, 30), "tab")
	assert.True(t, listOf(m).showInputs)
	assert.Contains(t, plain(m), "Invocation record")

	for _, k := range []string{"q", "ctrl+c"} {
		_, cmd := m.Update(keyMsg(k))
		require.NotNil(t, cmd, k)
		assert.Equal(t, tea.QuitMsg{}, cmd(), k)
	}
}

func TestBackgroundColourPicksTheTheme(t *testing.T) {
	all := scenarios.Builtin()
	m := New(Options{Scenarios: all})
	require.NotNil(t, m.Init(), "auto theme asks the terminal")
	next, _ := m.Update(tea.BackgroundColorMsg{Color: lightColour{}})
	assert.False(t, next.(Model).c.dark)

	fixed := New(Options{Scenarios: all, Theme: ThemeDark})
	assert.Nil(t, fixed.Init(), "a fixed theme asks nothing")
	next, _ = fixed.Update(tea.BackgroundColorMsg{Color: lightColour{}})
	assert.True(t, next.(Model).c.dark, "a fixed theme ignores the terminal")
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

// TestWideTerminalsShowWholeValues: at 200 columns no value that the
// current rule reads is cut, at any step of any admission scenario; at
// 80 a marked value wraps rather than being cut.
func TestWideTerminalsShowWholeValues(t *testing.T) {
	for _, width := range []int{200, 80} {
		m := resize(newTest(t, Options{}), width, 60)
		for i, s := range here(m).inTrack() {
			m = press(m, fmt.Sprint(i+1))
			for range here(m).lastStep() {
				m = press(m, "l")
				flat := flatColumns(plain(m))
				for _, f := range here(m).walk.Fields {
					if f.Value != "" && look.Reads(f, here(m).reads()) {
						assert.Contains(t, flat, squash(f.Value), "%d cols: %s step %d: %s", width, s.ID, here(m).at.Step, f.Path)
					}
				}
			}
		}
	}
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
	assert.Equal(t, "quiz", m.Mode())
	assert.Equal(t, quizAskStep, m.modes.quiz.q.phase, "--quiz asks before any rule is shown")
	out := plain(m)
	assert.Contains(t, out, "Predict first: which rule fires? Press 1–8.")
	assert.NotContains(t, out, "Unknown tool", "the title names the answer: it waits")
	assert.NotContains(t, out, "Injected", "so does the injected line")
	assert.NotContains(t, out, "Write without approval", "and the list's titles")

	m = press(m, "l")
	_, step, _ := state(m)
	assert.Equal(t, 0, step, "no peeking: stepping waits for the answer")
	assert.Contains(t, plain(m), "Answer first")

	// Scenario 1: rule 1 has two codes, so a second question.
	m = press(m, "1")
	assert.Equal(t, quizAskCode, m.modes.quiz.q.phase)
	assert.Contains(t, plain(m), "1  unknown_tool")
	m = press(m, "1")
	assert.True(t, here(m).reached(), "the walk is revealed")
	assert.Contains(t, plain(m), "✓ Right: rule 1, unknown_tool.")
	assert.Contains(t, plain(m), "quiz 1/1")
	assert.Contains(t, plain(m), "Unknown tool", "answered: the title shows")

	// Then the seed's central column: which of three it does NOT prove,
	// its lines held back until answered.
	require.Equal(t, quizAskCaveat, m.modes.quiz.q.phase)
	caveat := assess.CodeUnknownTool.Caveat(assess.English)
	assert.Len(t, m.modes.quiz.q.options, 3)
	assert.Equal(t, caveat, m.modes.quiz.q.options[m.modes.quiz.q.correct-1].En)
	assert.NotContains(t, walkColumn(plain(m)), "does NOT prove: "+caveat[:10], "held back")
	m = press(m, fmt.Sprint(m.modes.quiz.q.correct))
	assert.Contains(t, plain(m), "✓ Right: that is what it does not prove.")
	assert.Contains(t, squash(plain(m)), squash("does NOT prove: "+caveat), "shown once answered")

	// Scenario 4: say rule 4 (one code), but rule 7 decides.
	m = press(m, "n", "n", "n")
	num, _, _ := state(m)
	require.Equal(t, 4, num)
	assert.True(t, m.modes.quiz.q.asking(), "each new scenario asks")
	m = press(m, "4")
	assert.Equal(t, quizAskCaveat, m.modes.quiz.q.phase, "rule 4 has one code: no second question")
	r := m.modes.quiz.results["write-without-approval"]
	assert.False(t, r.right)
	assert.Equal(t, "rule 4, environment_not_ready", r.said.En)
	assert.Equal(t, "rule 7, approval_missing", r.decided.En)
	assert.Contains(t, plain(m), "✗ You said rule 4, environment_not_ready; rule")
	wrong := 1
	if m.modes.quiz.q.correct == 1 {
		wrong = 2
	}
	m = press(m, fmt.Sprint(wrong))
	assert.Contains(t, squash(plain(m)), squash("✗ Not that one. What it does NOT prove is: "+assess.CodeApprovalMissing.Caveat(assess.English)))

	// A digit answers in the quiz: it never jumps to a scenario.
	m = press(m, "n", "2")
	num, _, _ = state(m)
	assert.Equal(t, 5, num)
	assert.Equal(t, "rule 2, correlation_conflict", m.modes.quiz.results["correlation-conflict"].said.En, "2 answered scenario 5's question")

	// The right rule with the wrong code is half right, and says so.
	h := newTest(t, Options{Quiz: true, Scenario: "write-without-approval"})
	h = press(h, "7", "3")
	hr := h.modes.quiz.results["write-without-approval"]
	assert.True(t, hr.half)
	assert.Contains(t, plain(h), "◐ Half right")
	assert.Contains(t, plain(h), "quiz 0.5/1")

	// Scenarios skipped with n are not counted; the end shows the summary.
	for num != 14 {
		m = press(m, "n")
		num, _, _ = state(m)
	}
	m = press(m, "n")
	require.True(t, m.modes.quiz.summary)
	out = plain(m)
	assert.Contains(t, out, "Score: 2/3")
	assert.Contains(t, out, "4 Write without approval")
	assert.Contains(t, out, "What the verdict does NOT prove: 1 right of 2 asked.")
	m = press(m, "x")
	assert.True(t, m.modes.quiz.summary, "a key that is not the summary's leaves it open")
	m = press(m, "esc")
	assert.False(t, m.modes.quiz.summary, "esc closes the summary")

	// The progress records every answer.
	assert.Equal(t, 3, m.prog.Asked)
	assert.False(t, m.prog.Quiz["write-without-approval"].Right)
	assert.Contains(t, m.prog.Walked, "unknown-tool")

	m = press(m, "g")
	assert.Equal(t, "walk", m.Mode(), "g ends the quiz")
}

// TestQuizPeekKeysAreTheWalks: while a question waits, every key that
// steps the walk (the walk's own bindings) only says to answer first.
func TestQuizPeekKeysAreTheWalks(t *testing.T) {
	w := newWalkKeys(assess.English)
	for _, k := range append(w.Next.Keys(), w.Run.Keys()...) {
		m := press(newTest(t, Options{Quiz: true, Scenario: "4"}), k)
		_, step, _ := state(m)
		assert.Zero(t, step, k)
		assert.Contains(t, plain(m), "Answer first", k)
	}
}

func TestQuizOutcomeAndAudit(t *testing.T) {
	m := newTest(t, Options{Track: scenarios.TrackOutcome, Quiz: true})
	assert.Contains(t, plain(m), "which class is this? Press 1–6")
	assert.Contains(t, plain(m), "The questions are listed above", "the outcome quiz says where its questions are")
	m = press(m, "6")
	assert.Contains(t, plain(m), "✓ Right: found.")
	m = press(m, "n", "1")
	assert.Contains(t, plain(m), "✗ You said protocol_error; not_found decided.")

	// The audit is quizzed too: a choice of diagnostics, decided by assess.
	for _, s := range scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAudit) {
		a := newTest(t, Options{Track: scenarios.TrackAudit, Quiz: true, Scenario: s.ID})
		require.Equal(t, quizAskAudit, a.modes.quiz.q.phase, s.ID)
		q := a.modes.quiz.q
		assert.GreaterOrEqual(t, len(q.options), 3, "%s: %v", s.ID, q.options)
		want := walk.Of(s, assess.English).Verdict.Short
		assert.Equal(t, want, q.options[q.correct-1].En, s.ID)
		a = press(a, fmt.Sprint(q.correct))
		assert.Contains(t, plain(a), "✓ Right: "+want, s.ID)
		assert.True(t, here(a).reached(), s.ID)
	}
}

// TestOutcomeAnswersAreTheWalks: an outcome answer is right when it picks
// the walk's deciding step, and every step is named by the class it asks
// about, in both languages, whatever order the questions come in; the
// presenter's poll names them so too.
func TestOutcomeAnswersAreTheWalks(t *testing.T) {
	for _, s := range scenarios.InTrack(scenarios.Builtin(), scenarios.TrackOutcome) {
		for _, l := range []assess.Lang{assess.English, assess.Chinese} {
			m := newTest(t, Options{Scenario: s.ID, Lang: l})
			w := here(m).walk
			class := w.Result.(walk.OutcomeAnswer).Class
			for n := 1; n <= len(w.Steps); n++ {
				r := seen(m).mark(n, 0)
				assert.Equal(t, n == w.Decisive, r.right, "%s %v step %d", s.ID, l, n)
				assert.Equal(t, class.String(), r.decided.In(l))
				var named assess.OutcomeClass
				require.NoError(t, named.UnmarshalText([]byte(r.said.In(l))), "%s step %d is named by a class: %q", s.ID, n, r.said.In(l))
				assert.Equal(t, w.Steps[n-1].Title, named.Title(l), "%s step %d", s.ID, n)
			}
		}
	}
	rs := RoomMsg{Round: 1, Counts: map[int]int{1: 2, 6: 5}, Answered: 7, Students: 9}
	w := here(newTest(t, Options{Track: scenarios.TrackOutcome, Scenario: "1"})).walk
	assert.Equal(t, "protocol_error: 2 · found: 5 · answered 7 of 9", histogram(rs, scenarios.TrackOutcome, w, assess.English))
}

func TestProgressIsSavedAndResumed(t *testing.T) {
	var saved []progress.Progress
	save := func(p progress.Progress) error { saved = append(saved, p); return nil }
	m := newTest(t, Options{Save: save})
	m = runCmd(t, m, "4")
	m = runCmd(t, m, "e")
	require.NotEmpty(t, saved)
	last := saved[len(saved)-1]
	assert.Equal(t, "write-without-approval", last.Last)
	assert.Contains(t, last.Walked, "write-without-approval")

	runCmd(t, m, "L")
	assert.Equal(t, "zh", saved[len(saved)-1].Lang)

	resumed := newTest(t, Options{Progress: saved[len(saved)-1]})
	num, _, _ := state(resumed)
	assert.Equal(t, 4, num, "self-study resumes on the last scenario")

	// Every way of reaching a verdict records it: the presenter's enter
	// too (it once had a stepping path of its own that skipped this).
	saved = nil
	p := newTest(t, Options{Save: save, Present: true, Scenario: "2"})
	for range 4 {
		p = runCmd(t, p, "enter")
	}
	require.NotEmpty(t, saved)
	assert.Contains(t, saved[len(saved)-1].Walked, "invalid-arguments")

	failing := newTest(t, Options{Save: func(progress.Progress) error { return errors.New("disk full") }})
	failing = runCmd(t, failing, "2")
	assert.Contains(t, plain(failing), "! progress not saved: disk full")
}

func TestWhatIf(t *testing.T) {
	dir := t.TempDir()
	m := newTest(t, Options{Scenario: "3", SaveScenario: func(s scenarios.Scenario) (string, error) { return scenarios.SaveCopy(dir, s) }})
	m = press(m, "w")
	require.Equal(t, "what-if", m.Mode())
	assert.True(t, here(m).reached(), "what-if shows the whole walk")
	assert.Contains(t, plain(m), "What if…")
	assert.NotContains(t, plain(m), "WHAT-IF", "nothing is edited yet")

	// Knob 1 is the environment: 2 sets degraded.
	m = press(m, "2")
	assert.Equal(t, assess.CodeEnvironmentNotReady, here(m).walk.Result.(walk.AdmissionAnswer).Verdict.Code)
	assert.Equal(t, "last change: allowed/admission_allowed → blocked/environment_not_ready (rule 4 now fires)", m.modes.whatIf.message)
	assert.Contains(t, plain(m), "WHAT-IF: input edited · changes: 1")

	// Down to the effect class; a write needs approval.
	m = press(m, "1") // environment back to ready
	assert.NotContains(t, plain(m), "WHAT-IF: input edited", "back as written: not edited, whatever the count")
	for range 8 {
		m = press(m, "down")
	}
	m = press(m, "2")
	// The scenario's approval names metadata_write; the read tool names no
	// approvalScope: absent equals only absent.
	assert.Equal(t, assess.CodeApprovalScopeMismatch, here(m).walk.Result.(walk.AdmissionAnswer).Verdict.Code)
	assert.Equal(t, "last change: allowed/admission_allowed → requires_approval/approval_scope_mismatch (rule 7 now fires)", m.modes.whatIf.message)
	assert.Contains(t, plain(m), "changes so far: 3")

	m = press(m, "u")
	assert.Equal(t, assess.CodeAdmissionAllowed, here(m).walk.Result.(walk.AdmissionAnswer).Verdict.Code, "u undoes the last change")
	assert.Contains(t, plain(m), "changes so far: 2", "the count follows undo")
	m = press(m, "2", "R")
	assert.Equal(t, admissionInput(here(m).written()), *here(m).edited, "R resets to the scenario as written")
	assert.Empty(t, m.modes.whatIf.history)
	assert.Contains(t, plain(m), "changes so far: 0", "the count follows reset")

	m = press(m, "up", "3", "n") // the knob above the class is the version: it has no 3; n does not leave the experiment
	require.Equal(t, "what-if", m.Mode())
	m = press(m, "2") // a version the contract lacks
	assert.Equal(t, assess.CodeToolVersionMismatch, here(m).walk.Result.(walk.AdmissionAnswer).Verdict.Code)
	m = runCmd(t, m, "s")
	assert.Contains(t, m.notice, "saved as "+filepath.Join(dir, "read-only-candidate-whatif-1.yaml"))
	data, err := os.ReadFile(filepath.Join(dir, "read-only-candidate-whatif-1.yaml"))
	require.NoError(t, err)
	saved, err := scenarios.Parse("saved.yaml", data)
	require.NoError(t, err, "a saved experiment is a valid scenario")
	assert.Equal(t, assess.CodeToolVersionMismatch, saved.Case.(scenarios.AdmissionCase).Expect.Code)
	m = runCmd(t, m, "s")
	assert.Contains(t, m.notice, "whatif-2.yaml", "never over an earlier one")

	m = press(m, "w")
	assert.Equal(t, "walk", m.Mode())
	assert.Equal(t, assess.CodeAdmissionAllowed, here(m).walk.Result.(walk.AdmissionAnswer).Verdict.Code, "leaving restores the scenario")

	m = press(m, "t", "w")
	assert.Equal(t, "walk", m.Mode(), "what-if is for admission scenarios")
	assert.Contains(t, plain(m), "what-if works on admission scenarios")

	// Without a way to keep it (a served session), s is off and says
	// nothing.
	served := press(newTest(t, Options{Scenario: "3"}), "w", "2")
	_, cmd := served.Update(keyMsg("s"))
	assert.Nil(t, cmd)
	assert.NotContains(t, plain(served), "save as scenario")
}

// TestWhatIfOnSmallScreens: at 80×24 and 60×20 the selected knob is on
// screen, and after each change the change and its verdict are too.
func TestWhatIfOnSmallScreens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {60, 20}} {
		for _, lang := range []assess.Lang{assess.English, assess.Chinese} {
			for _, id := range []string{"read-only-candidate", "write-without-approval", "timed-out-no-readback"} {
				m := resize(newTest(t, Options{Scenario: id, Lang: lang}), size[0], size[1])
				m = press(m, "w")
				for i, knob := range whatif.Knobs() {
					if i > 0 {
						m = press(m, "down")
					}
					name := fmt.Sprintf("%dx%d %s %s knob %d", size[0], size[1], lang, id, i+1)
					assert.Contains(t, plain(m), "> "+knob.Name(lang), name)
					m = press(m, "right")
					out := flatColumns(plain(m))
					assert.Contains(t, out, squash(m.modes.whatIf.message), name)
					assert.Contains(t, out, squash(here(m).walk.Verdict.Headline), name)
					for _, d := range here(m).walk.Verdict.Details {
						if d.Strong {
							assert.Contains(t, out, squash(d.Label+tr("colon", lang)+d.Text), name)
						}
					}
				}
			}
		}
	}
}

// TestKeysDoNothingWhileTooSmall: while the screen asks to be enlarged,
// keys pressed blind change nothing; q still quits.
func TestKeysDoNothingWhileTooSmall(t *testing.T) {
	m := resize(newTest(t, Options{Scenario: "3"}), 30, 8)
	before, lang := here(m).at, m.c.lang
	m = press(m, "l", "e", "w", "g", "t", "L", "n", "?", "2")
	assert.Equal(t, before, here(m).at)
	assert.Equal(t, lang, m.c.lang)
	assert.Equal(t, "walk", m.Mode())
	assert.False(t, m.cover.showHelp)
	assert.Contains(t, plain(m), "Please enlarge")
	_, cmd := m.Update(keyMsg("q"))
	require.NotNil(t, cmd)
	assert.Equal(t, tea.QuitMsg{}, cmd())
}

// TestNoticesAreShownWhole: what was said before the full screen started
// is shown in the UI, whole, until a key.
func TestNoticesAreShownWhole(t *testing.T) {
	long := "progress file /home/learner/.local/state/toolgate/progress.json was unreadable; it was kept as /home/learner/.local/state/toolgate/progress.json.corrupt-20261130T091500 and a new one started"
	m := resize(newTest(t, Options{Notice: long, Warnings: []string{"lecture/09-broken.yaml:3:5: input.request: missing"}}), 80, 24)
	out := squash(plain(m))
	assert.Contains(t, out, squash(long))
	assert.Contains(t, out, squash("lecture/09-broken.yaml:3:5: input.request: missing"))
	m = press(m, "l")
	_, step, _ := state(m)
	assert.Zero(t, step, "the key that closes the notices does nothing else")
	assert.NotContains(t, plain(m), "Before you start")
}

// TestListFollowsTheSelectionAndFilters: a lecturer's directory of 50
// scenarios: the selection stays on screen, and / filters the list.
func TestListFollowsTheSelectionAndFilters(t *testing.T) {
	base := scenarios.Builtin()[2]
	var many []scenarios.Scenario
	for i := range 50 {
		s := base
		s.ID = fmt.Sprintf("case-%02d", i+1)
		s.Number = i + 1
		s.Title = scenarios.Text{En: fmt.Sprintf("Case %02d", i+1), Zh: fmt.Sprintf("案例 %02d", i+1)}
		many = append(many, s)
	}
	m := resize(New(Options{Scenarios: many, Theme: ThemeDark}), 120, 30)
	m.cover.intro = false
	for range 37 {
		m = press(m, "down")
	}
	num, _, _ := state(m)
	require.Equal(t, 38, num)
	assert.Contains(t, plain(m), "> 38 Case 38", "the selection is on screen")
	m = press(m, "p", "esc")
	for range 15 {
		m = press(m, "up")
	}
	assert.Contains(t, plain(m), "> 22 Case 22", "the selection is on screen")
	assert.Contains(t, plain(m), "▲")
	assert.Contains(t, plain(m), "▼")

	m = press(m, "/", "4", "2")
	num, _, _ = state(m)
	assert.Equal(t, 42, num, "the filter selects the first match")
	out := plain(m)
	assert.Contains(t, out, "42 Case 42")
	assert.NotContains(t, out, "Case 41")
	m = press(m, "enter", "enter")
	_, _, focus := state(m)
	assert.Equal(t, "walk", focus, "enter keeps the filter, the next opens")
	m = press(m, "esc", "/", "esc")
	assert.Contains(t, plain(m), "Case 41", "esc clears the filter")
}

// TestHintsTellTheTruth: each hint says what its key does where it is
// shown.
func TestHintsTellTheTruth(t *testing.T) {
	m := newTest(t, Options{})
	assert.Contains(t, plain(m), "Press enter to open this scenario", "on the list, enter opens")
	m = press(m, "enter")
	assert.Contains(t, squash(plain(m)), squash("e or enter runs to the verdict"))

	demo := newTest(t, Options{Scenario: "demo", Step: 8})
	out := plain(demo)
	assert.Contains(t, out, "Rule 8 is the last rule, and it decides")
	assert.NotContains(t, out, "the rules after it are not asked", "rule 8 has no rules after it")

	p := newTest(t, Options{Present: true, Scenario: "1"})
	assert.Contains(t, plain(p), "Press → (or the clicker) for the first step")
	assert.NotContains(t, plain(p), "enter runs to the verdict")

	outcome := newTest(t, Options{Track: scenarios.TrackOutcome, Scenario: "1"})
	assert.NotContains(t, strings.ToLower(m.renderFooter(m.active().Status())+outcome.renderFooter(outcome.active().Status())), "next rule", "the outcome track has no rules")
}

// TestOneMeaningPerKeyPerMode: the keys of another mode do nothing in
// this one (every mode is routed: TestEveryModeIsAComponent).
func TestOneMeaningPerKeyPerMode(t *testing.T) {
	// The presenter's c (clock) is not a key of the walk; the walk's t is
	// the presenter's track key too: one meaning per key per mode.
	p := newTest(t, Options{Present: true, Scenario: "1"})
	p = press(p, "c")
	assert.False(t, p.modes.present.clocks.show)
	p = press(p, "t")
	assert.Equal(t, scenarios.TrackAudit, p.Track())
	w := press(newTest(t, Options{}), "c", "b")
	assert.Equal(t, here(newTest(t, Options{})).at, here(w).at)
}

// TestPresenterProgressLine says where the walk is, and when the verdict
// is reached.
func TestPresenterProgressLine(t *testing.T) {
	p := resize(newTest(t, Options{Present: true, Scenario: "6"}), 80, 24)
	assert.Contains(t, plain(p), "Scenario 6/14 · rule 0/8")
	p = press(p, "enter", "enter")
	assert.Contains(t, plain(p), "rule 2/8")
	p = press(p, "enter", "enter", "enter", "enter")
	assert.Contains(t, plain(p), "verdict (rule 5 decided)")
	assert.Contains(t, plain(p), "◦ 1–4 no · passed", "the rules passed, compactly")
	p = press(p, "b")
	assert.Empty(t, strings.TrimSpace(plain(p)), "b blanks the screen")
	p = press(p, "left")
	assert.Contains(t, plain(p), "verdict", "a key wakes it without stepping")
}

// TestWalkOfEveryTrackMarksItsSteps renders every scenario's walk at every
// step in both languages: each step shows its outcome word.
func TestWalkOfEveryTrackMarksItsSteps(t *testing.T) {
	for _, lang := range []assess.Lang{assess.English, assess.Chinese} {
		m := newTest(t, Options{Lang: lang})
		for ti := range m.deck.byTrack {
			for _, s := range m.deck.byTrack[ti] {
				w := walk.Of(s, lang)
				x := newTest(t, Options{Lang: lang, Scenario: s.ID, Step: w.Decisive})
				fired := w.Steps[w.Decisive-1].Outcome == assess.Fired
				if fired {
					assert.Contains(t, plain(x), "➤", s.ID)
				}
			}
		}
	}
}

// TestPathToAllowed: a opens what is missing to get allowed, as
// whatif.PathToAllowed computes it; in what-if, enter applies it as one
// change that undo takes back.
func TestPathToAllowed(t *testing.T) {
	m := press(newTest(t, Options{Scenario: "4"}), "a")
	out := plain(m)
	assert.Contains(t, out, "Approval → active")
	assert.Contains(t, out, `approval.status: absent → "active"`)
	assert.Contains(t, ansi.Strip(m.renderFooter(m.active().Status())), "a/esc close")
	m = press(m, "l")
	_, step, _ := state(m)
	assert.Zero(t, step, "the panel takes the keys while open")
	m = press(m, "esc")
	assert.NotContains(t, plain(m), "Path to allowed")

	w := press(newTest(t, Options{Scenario: "4"}), "w", "a", "enter")
	assert.Equal(t, assess.CodeAdmissionAllowed, here(w).walk.Result.(walk.AdmissionAnswer).Verdict.Code)
	assert.Contains(t, w.modes.whatIf.message, "→ allowed/admission_allowed")
	w = press(w, "u")
	assert.Equal(t, assess.CodeApprovalMissing, here(w).walk.Result.(walk.AdmissionAnswer).Verdict.Code, "undo takes the whole path back")

	q := newTest(t, Options{Quiz: true, Scenario: "4"})
	q = press(q, "a")
	assert.NotContains(t, plain(q), "Path to allowed", "no path while the question is open: it would give the answer away")
	assert.Contains(t, plain(press(newTest(t, Options{Track: scenarios.TrackOutcome}), "a")), "Outcomes", "the path is for admission inputs")
}

// TestIntro: what the decision does not do is shown once, on a learner's
// first start (not when a lecture opens on a scenario), again with d from
// the help, and a key only closes it.
func TestIntro(t *testing.T) {
	all := scenarios.Builtin()
	first := resize(New(Options{Scenarios: all, Theme: ThemeDark}), 80, 24)
	out := plain(first)
	assert.Contains(t, squash(out), squash("What this decision does not do"))
	for range 10 {
		first = press(first, "down")
		out += plain(first)
	}
	for _, g := range assess.NonGoals(assess.English) {
		assert.Contains(t, squash(out), squash(g), "80x24 shows every non-goal, ↓ scrolling")
	}
	first = press(first, "e")
	_, step, _ := state(first)
	assert.Zero(t, step, "the key that closes it does nothing else")
	assert.NotContains(t, plain(first), "does not do")

	p := progress.New()
	p.Walked = []string{"unknown-tool"}
	again := resize(New(Options{Scenarios: all, Theme: ThemeDark, Progress: p}), 80, 24)
	assert.NotContains(t, plain(again), "does not do", "not on a later start")
	again = press(again, "?", "d")
	assert.Contains(t, plain(again), "What this decision does not do", "d in the help shows it again")

	lecture := resize(New(Options{Scenarios: all, Theme: ThemeDark, Scenario: "1"}), 80, 24)
	assert.NotContains(t, plain(lecture), "does not do", "a lecture opening on a scenario goes straight there")

	// Every allowed verdict says what allowed is not.
	demo := newTest(t, Options{Scenario: "demo", Step: 99})
	assert.Contains(t, squash(plain(demo)), squash("allowed is not: "+assess.AllowedIsNot(assess.English)))
}

// TestWhatIfTellsOnlyWhatIsTrue: an edited input no longer shows what was
// injected into the scenario as written, nor its caveat; it says what was
// edited, and a saved copy says it is an edited copy.
func TestWhatIfTellsOnlyWhatIsTrue(t *testing.T) {
	var saved scenarios.Scenario
	keep := func(s scenarios.Scenario) (string, error) { saved = s; return "kept", nil }
	m := newTest(t, Options{Scenario: "3", SaveScenario: keep})
	written := here(m).written()
	m = press(m, "w", "2") // environment degraded
	out := flatColumns(plain(m))
	assert.NotContains(t, out, squash(written.Injected.En), "the injected line was about the input as written")
	assert.NotContains(t, out, squash(written.DoesNotProve.En), "so was the scenario's caveat")
	assert.Contains(t, out, squash(`edited in what-if: environment.status: "ready" → "degraded"`))
	m = runCmd(t, m, "s")
	assert.Contains(t, saved.Story.En, "An edited copy of scenario \"read-only-candidate\"")
	assert.Contains(t, saved.Story.Zh, "副本")
	assert.Empty(t, saved.DoesNotProve.En)
	m = press(m, "1") // back as written
	assert.Contains(t, flatColumns(plain(m)), squash(written.DoesNotProve.En), "as written again: its caveat holds again")
}

// TestQuizResumes: a restarted quiz keeps the score of earlier sessions,
// does not ask again what was answered, and opens the first scenario not
// answered yet.
func TestQuizResumes(t *testing.T) {
	var saved progress.Progress
	save := func(p progress.Progress) error { saved = p; return nil }
	m := newTest(t, Options{Quiz: true, Save: save})
	m = runCmd(t, m, "1")
	m = runCmd(t, m, "1") // scenario 1: rule 1, unknown_tool
	m = runCmd(t, m, "n")
	runCmd(t, m, "3") // scenario 2: rule 3, invalid_arguments
	require.Len(t, saved.Quiz, 2)

	again := newTest(t, Options{Quiz: true, Progress: saved})
	num, _, _ := state(again)
	assert.Equal(t, 3, num, "resumes on the first scenario not answered")
	assert.True(t, again.modes.quiz.q.asking())
	assert.Contains(t, plain(again), "quiz 2/2", "the earlier score is kept")
	again = press(again, "p")
	assert.False(t, again.modes.quiz.q.asking(), "an answered scenario is not asked again")
}

// TestPresenterClocks: the elapsed time (bubbles' stopwatch) and, with
// --timer, the time left (bubbles' timer) in the presenter's line; at zero
// it says time is up, and nothing stops.
func TestPresenterClocks(t *testing.T) {
	m := resize(newTest(t, Options{Present: true, Scenario: "1", Timer: 2 * time.Second}), 80, 24)
	assert.Contains(t, plain(m), "left 00:02 · elapsed 00:00")
	// Start the stopwatch the way the program does: run Init's commands.
	for _, msg := range drain(m.modes.present.clocks.watch.Init()) {
		m = send(m, msg)
	}
	m = send(m, stopwatch.TickMsg{ID: m.modes.present.clocks.watch.ID()})
	m = send(m, timer.TickMsg{ID: m.modes.present.clocks.countdown.ID()})
	assert.Contains(t, plain(m), "left 00:01 · elapsed 00:01")
	m = send(m, timer.TickMsg{ID: m.modes.present.clocks.countdown.ID()})
	assert.Contains(t, plain(m), "TIME IS UP")
	m = press(m, "c")
	assert.NotContains(t, plain(m), "elapsed", "c hides the clocks")
	m = press(m, "enter")
	_, step, _ := state(m)
	assert.Equal(t, 1, step, "time up stops nothing")
}

// drain runs a command and the commands it batches, and returns the
// messages that are not commands: a test's stand-in for the program's
// loop. Of a sequence it runs only the first command: the stopwatch's
// Start is "start, then tick in a second", and a test does not wait for
// real seconds.
func drain(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, drain(c)...)
		}
		return out
	}
	// A sequence's message is a slice of commands of an unexported type.
	if v := reflect.ValueOf(msg); v.IsValid() && v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
		if v.Len() == 0 {
			return nil
		}
		c, _ := v.Index(0).Interface().(tea.Cmd)
		return drain(c)
	}
	return []tea.Msg{msg}
}

// TestMouse: a click on a scenario opens it, a click on a rule reveals the
// walk up to it, the wheel scrolls; nothing is revealed while a question
// waits, and --no-mouse asks for no mouse.
func TestMouse(t *testing.T) {
	m := newTest(t, Options{})
	// click presses the mouse on the first cell of a text on screen.
	click := func(m Model, text string) Model {
		for y, l := range strings.Split(plain(m), "\n") {
			if x := strings.Index(l, text); x >= 0 {
				return send(m, tea.MouseClickMsg{X: ansi.StringWidth(l[:x]), Y: y, Button: tea.MouseLeft})
			}
		}
		t.Fatalf("%q not on screen", text)
		return m
	}
	m = click(m, "4 Write without")
	num, step, _ := state(m)
	assert.Equal(t, []int{4, 0}, []int{num, step}, "a click opens the scenario")
	m = click(m, "5 Timed out, effect unknown")
	_, step, _ = state(m)
	assert.Equal(t, 5, step, "a click on rule 5 reveals the walk up to it")
	m = click(m, "8 Admit")
	assert.True(t, here(m).reached(), "a rule after the one that fires: the verdict")

	q := newTest(t, Options{Quiz: true, Scenario: "4"})
	q = click(q, "5 Timed out, effect unknown")
	_, step, _ = state(q)
	assert.Zero(t, step, "no peeking with the mouse either")

	// The walk scrolls at the verdict where it cannot fold to fit: under
	// the what-if's knob bar. (Scenario 4's walk alone folds to fit 80×14,
	// where an offset changes nothing and is no longer kept.)
	s := resize(press(newTest(t, Options{Scenario: "4"}), "w", "2"), 80, 12)
	s = send(s, tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	assert.Equal(t, -3, here(s).scroll, "the wheel scrolls the walk")

	assert.Equal(t, tea.MouseModeCellMotion, m.View().MouseMode)
	assert.Equal(t, tea.MouseModeNone, newTest(t, Options{NoMouse: true}).View().MouseMode)
}

// TestWheelScrollsTheFullInputsInEveryMode: with the inputs shown in full
// the wheel scrolls them, in the quiz and the room as in the walk, and not
// the walk hidden under them.
func TestWheelScrollsTheFullInputsInEveryMode(t *testing.T) {
	for _, opts := range []Options{{Scenario: "4"}, {Quiz: true, Scenario: "4"}, {Room: &fakeRoom{}, Scenario: "4"}} {
		m := resize(press(newTest(t, opts), "i"), 80, 14)
		require.True(t, overlaysOf(m).full, m.Mode())
		before := plain(m)
		m = send(m, tea.MouseWheelMsg{Button: tea.MouseWheelDown})
		assert.Equal(t, 3, here(m).inputsScroll, "%s: the wheel scrolls the inputs", m.Mode())
		assert.Zero(t, here(m).scroll, "%s: not the walk under them", m.Mode())
		assert.NotEqual(t, before, plain(m), "%s: the inputs moved", m.Mode())
	}
}

// TestScrollStopsAtTheEnd: scrolling past the end of a pane counts for
// nothing, so that the first key back moves the view at once.
func TestScrollStopsAtTheEnd(t *testing.T) {
	tests := []struct {
		name       string
		opts       Options
		open       []string
		height     int
		down, up   string
		inputsPane bool
	}{
		{"the path to allowed", Options{Scenario: "4"}, []string{"a"}, 14, "J", "K", false},
		{"the what-if's walk", Options{Scenario: "4"}, []string{"w", "2"}, 12, "J", "K", false},
		{"the inputs in full", Options{Scenario: "4"}, []string{"i"}, 14, "down", "up", true},
		{"the inputs in full in the quiz", Options{Quiz: true, Scenario: "4"}, []string{"i"}, 14, "J", "K", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := resize(press(newTest(t, tt.opts), tt.open...), 80, tt.height)
			for range 40 {
				m = press(m, tt.down)
			}
			bottom := plain(m)
			assert.Equal(t, bottom, plain(press(m, tt.down)), "at the end, one more does nothing")
			m = press(m, tt.up)
			assert.NotEqual(t, bottom, plain(m), "one key back moves the view")
			scroll := here(m).scroll
			if tt.inputsPane {
				scroll = here(m).inputsScroll
			}
			assert.Less(t, scroll, 39, "the offset stopped at the end")
		})
	}
	// The wheel stops at the end too.
	m := resize(press(newTest(t, Options{Scenario: "4"}), "a"), 80, 14)
	for range 20 {
		m = send(m, tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	}
	bottom := plain(m)
	m = send(m, tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	assert.NotEqual(t, bottom, plain(m), "one turn back moves the view")
}

// TestReloadKeepsThePlace: when the lecturer's files change, the trainer
// takes the new set, stays on the same scenario at the same step, and
// shows what is wrong with the files whole.
func TestReloadKeepsThePlace(t *testing.T) {
	all := scenarios.Builtin()
	reloaded := slices.Clone(all)
	reloaded[3].Title = scenarios.Text{En: "Write, still without approval", Zh: "写入缺批准"}
	reload := func() ([]scenarios.Scenario, []string, error) {
		return reloaded, []string{"lecture/09.yaml:3:5: input.request: required"}, nil
	}
	m := newTest(t, Options{Scenario: "write-without-approval", Step: 5, Reload: reload})
	next, cmd := m.Update(reloadMsg{}) // the reload runs as a command
	require.NotNil(t, cmd)
	m = send(next.(Model), cmd())
	num, step, _ := state(m)
	assert.Equal(t, []int{4, 5}, []int{num, step}, "the same scenario, at the same step")
	out := squash(plain(m))
	assert.Contains(t, out, squash("lecture/09.yaml:3:5: input.request: required"), "problems are shown whole")
	m = press(m, "x")
	assert.Contains(t, plain(m), "Write, still without approval")
	assert.Contains(t, plain(m), fmt.Sprintf("reloaded: %d scenarios, 1 problems", len(reloaded)))

	// Nothing usable: what is shown stays.
	empty := func() ([]scenarios.Scenario, []string, error) {
		return nil, []string{"bad"}, errors.New("no scenario loaded")
	}
	e := newTest(t, Options{Scenario: "2", Reload: empty})
	next, cmd = e.Update(reloadMsg{})
	e = send(next.(Model), cmd())
	assert.Contains(t, plain(e), "no scenario loaded")
	e = press(e, "x")
	num, _, _ = state(e)
	assert.Equal(t, 2, num)
}

// TestEditKey: E opens the scenario's file in the editor (Options.Edit)
// only for a scenario from a file, and only in the walk.
func TestEditKey(t *testing.T) {
	reload := func() ([]scenarios.Scenario, []string, error) { return scenarios.Builtin(), nil, nil }
	edit := func(s scenarios.Scenario) *exec.Cmd {
		if s.ID != "write-without-approval" {
			return nil
		}
		return exec.Command("true", s.File)
	}
	m := newTest(t, Options{Scenario: "4", Reload: reload, Edit: edit})
	assert.Contains(t, ansi.Strip(m.renderHelp(38)), "edit this scenario's file")
	_, cmd := m.Update(keyMsg("E"))
	assert.NotNil(t, cmd, "E runs the editor")
	other := newTest(t, Options{Scenario: "3", Reload: reload, Edit: edit})
	_, cmd = other.Update(keyMsg("E"))
	assert.Nil(t, cmd, "a scenario without a file: nothing to edit")
}

// TestOverlaysCloseOnEsc: the path to allowed and the inputs in full close
// on esc (and their own key) in every mode, take the arrows for
// scrolling, and in what-if close without ending the experiment.
func TestOverlaysCloseOnEsc(t *testing.T) {
	for _, opts := range []Options{{Scenario: "4"}, {Quiz: true, Scenario: "4"}, {Room: &fakeRoom{}, Scenario: "4"}} {
		m := newTest(t, opts)
		before := here(m).at
		m = press(m, "i", "down", "down")
		assert.True(t, listOf(m).full, m.Mode())
		assert.Equal(t, before, here(m).at, "%s: ↓ scrolls the overlay, it does not change scenario", m.Mode())
		m = press(m, "esc")
		assert.NotContains(t, plain(m), "every value whole", "%s: esc closes it", m.Mode())
	}
	w := newTest(t, Options{Scenario: "4"})
	w = press(w, "w", "2", "a", "esc")
	assert.Equal(t, "what-if", w.Mode(), "esc closed the path, not the experiment")
	assert.Len(t, w.modes.whatIf.history, 1, "the change is kept")
	w = press(w, "i", "esc")
	assert.Equal(t, "what-if", w.Mode())
	assert.Len(t, w.modes.whatIf.history, 1)
	w = press(w, "esc")
	assert.Equal(t, "walk", w.Mode(), "with no overlay, esc ends the experiment")

	o := press(newTest(t, Options{Track: scenarios.TrackOutcome, Scenario: "1"}), "a")
	assert.Contains(t, plain(o), "the path to allowed is for admission scenarios", "a says why it does nothing")
}

// TestNotesScreen: the lecturer's second screen follows the presenter's
// scenario and step and says what to say: what is on the projector, what
// comes next, the question with its answer, the poll as it fills, the
// verdict and what it does not prove, the clocks. Keys lead nothing.
func TestNotesScreen(t *testing.T) {
	room := &fakeRoom{}
	m := resize(newTest(t, Options{Room: room, Notes: true, Timer: 45 * time.Minute}), 80, 24)
	assert.Equal(t, "notes", m.Mode())
	assert.Contains(t, plain(m), "waiting for the presenter")
	m = send(m, RoomMsg{Live: "write-without-approval", Step: 3})
	out := squash(plain(m))
	assert.Contains(t, out, squash("Scenario 4 · Write without approval — rule 3 of 8"))
	assert.Contains(t, out, squash("left 45:00"))
	assert.Contains(t, out, squash("3 Arguments unusable — passes"))
	assert.Contains(t, out, squash("Next 4 Environment not ready"))
	assert.Contains(t, out, squash("Answer: rule 7, approval_missing"))
	m = send(m, RoomMsg{Live: "write-without-approval", Step: 7, Round: 1, Open: true, Counts: map[int]int{7: 12, 4: 3}, Answered: 15, Students: 40})
	out = squash(plain(m))
	assert.Contains(t, out, squash("rule 4: 3 · rule 7: 12 · answered 15 of 40"), "the poll as it fills")
	assert.Contains(t, out, squash("Next Verdict: ✎ REQUIRES_APPROVAL / approval_missing"))
	m = press(m, "n", "l", "o", "7", "w", "g")
	assert.Equal(t, "write-without-approval", here(m).written().ID, "the notes screen leads nothing")
	assert.Equal(t, 0, room.opened)
	assert.Empty(t, room.answers)
	assert.Empty(t, room.live, "nor moves the room")
}

// TestClocksTimeUp: once the lecture's time is up, the projector's
// footer and the notes screen both say so before the elapsed time.
func TestClocksTimeUp(t *testing.T) {
	p := resize(newTest(t, Options{Present: true, Scenario: "4", Timer: time.Minute}), 80, 24)
	n := resize(newTest(t, Options{Room: &fakeRoom{}, Notes: true, Timer: time.Minute}), 80, 24)
	n = send(n, RoomMsg{Live: "write-without-approval", Step: 1})
	assert.Contains(t, plain(p), "left 01:00 · elapsed 00:00")
	assert.Contains(t, plain(n), "left 01:00 · elapsed 00:00")
	p.modes.present.clocks.countdown.Timeout, n.modes.notes.clocks.countdown.Timeout = 0, 0
	// The notes' lines are filled in Update: the next message (here a
	// size) fills them with the clock as it now is.
	n = resize(n, 80, 24)
	assert.Contains(t, plain(p), "TIME IS UP · elapsed 00:00")
	assert.Contains(t, plain(n), "TIME IS UP · elapsed 00:00")
}

// TestPresenterClicker: past the verdict the clicker's forward button
// opens the next scenario; "ask the room" hides the title and lists the
// choices.
func TestPresenterClicker(t *testing.T) {
	p := newTest(t, Options{Present: true, Scenario: "1"})
	p = press(p, "enter", "enter")
	require.True(t, here(p).reached())
	p = press(p, "pgdown")
	num, step, _ := state(p)
	assert.Equal(t, []int{2, 0}, []int{num, step}, "the next scenario, as the next slide")

	a := press(newTest(t, Options{Present: true, Scenario: "4"}), "a")
	out := plain(a)
	assert.NotContains(t, out, "Write without approval", "the title would answer")
	assert.Contains(t, out, "Ask the room: which rule fires?")
	assert.Contains(t, out, "7 Write not approved")
}

// TestStudentHintWhileTheQuestionIsOpen: a student who answered sees
// "wait for the reveal", never a hint to step on.
func TestStudentHintWhileTheQuestionIsOpen(t *testing.T) {
	m := newTest(t, Options{Room: &fakeRoom{}})
	m = send(m, RoomMsg{Live: "write-without-approval", Round: 1, Open: true})
	m = press(m, "4")
	out := squash(plain(m))
	assert.Contains(t, out, squash("Answer sent. Wait for the reveal."))
	assert.NotContains(t, out, squash("for the first step"))
}

// TestFrozenRoom: while a shared room is out of reach every session says
// so in its footer, in its language, whatever keys are pressed; when it
// is back, it says that once.
func TestFrozenRoom(t *testing.T) {
	for _, tc := range []struct {
		lang         assess.Lang
		frozen, back string
	}{
		{assess.English, "Room out of reach: frozen", "The room is back."},
		{assess.Chinese, "教室暂时连不上", "教室已恢复。"},
	} {
		for _, opts := range []Options{{Room: &fakeRoom{}, Lang: tc.lang}, {Room: &fakeRoom{}, Notes: true, Lang: tc.lang}} {
			m := resize(newTest(t, opts), 80, 24)
			m = send(m, RoomMsg{Live: "write-without-approval", Frozen: FrozenForNow})
			footer := func() string { lines := strings.Split(plain(m), "\n"); return lines[len(lines)-1] }
			assert.Contains(t, footer(), tc.frozen, m.Mode())
			m = press(m, "l", "n", "?", "?")
			assert.Contains(t, footer(), tc.frozen, "%s: a key does not clear it", m.Mode())
			m = send(m, RoomMsg{Live: "write-without-approval"})
			assert.Contains(t, footer(), tc.back, m.Mode())
			m = press(m, "l")
			assert.NotContains(t, footer(), tc.back, "%s: said once", m.Mode())
		}
	}
}

// TestQuizListHintsTellTheTruth: in the quiz a digit answers and never
// opens a scenario, and enter before the answer only peeks: the list
// column (200×60) must not offer "1–9 jump" or "enter open" — a learner
// who pressed 4 to jump would have answered rule 4.
func TestQuizListHintsTellTheTruth(t *testing.T) {
	for _, l := range []assess.Lang{assess.English, assess.Chinese} {
		m := resize(newTest(t, Options{Quiz: true, Lang: l}), 200, 60)
		out := plain(m)
		require.Contains(t, out, tr("hintChoose", l), "the list's hints are shown at this size")
		assert.NotContains(t, out, tr("hintJump", l))
		assert.NotContains(t, out, tr("hintOpen", l))
		assert.Contains(t, out, tr("hintTrack", l))
		// And what it no longer says is indeed false: 4 answers.
		m = press(m, "4")
		assert.Equal(t, "unknown-tool", m.modes.quiz.place.written().ID, "4 answered, it did not open scenario 4")
	}
}

// TestRoomListHintsTellTheTruth: in the room, while the live question
// is asked, a digit answers it: the list column (200×40) must not offer
// "1–9 jump" — a student who pressed 5 to look at scenario 5 sent
// "rule 5" to the room.
func TestRoomListHintsTellTheTruth(t *testing.T) {
	m := resize(newTest(t, Options{Room: &fakeRoom{}}), 200, 40)
	m = send(m, RoomMsg{Live: "unknown-tool", Sessions: 3})
	require.Contains(t, plain(m), tr("hintJump", assess.English), "no question: digits open a scenario")
	m = send(m, RoomMsg{Live: "unknown-tool", Sessions: 3, Round: 1, Open: true})
	assert.NotContains(t, plain(m), tr("hintJump", assess.English), "asked: digits answer")
	assert.Contains(t, plain(m), tr("hintChoose", assess.English))
}
