package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/practice"
	"toolgate/progress"
)

// toSummary answers scenario 1 and skips the rest of the track to the
// quiz's summary, as a learner who finished it.
func toSummary(t *testing.T, m Model) Model {
	t.Helper()
	m = press(m, "1", "1", "1")
	for range 20 {
		if m.modes.quiz.summary {
			return m
		}
		m = press(m, "n")
	}
	require.True(t, m.modes.quiz.summary, "the end of the track shows the summary")
	return m
}

// asked is the practice case on screen.
func asked(m Model) practice.Case { return m.modes.practice.cur }

// answerKeys are the digits that say rule (and, when the rule has more
// than one, the code at index code of its codes).
func answerKeys(rule, code int) []string {
	keys := []string{fmt.Sprint(rule)}
	if len(codeOptions(rule)) > 1 {
		keys = append(keys, fmt.Sprint(code+1))
	}
	return keys
}

// TestPractice finishes the quiz, practises three cases — right, half
// right, wrong — and sees the walk after each, the mastery on the header,
// in both languages.
func TestPractice(t *testing.T) {
	m := toSummary(t, newTest(t, Options{Quiz: true, Seed: 25}))
	assert.Contains(t, plain(m), "p practises fresh cases")
	assert.NotContains(t, strings.Split(plain(m), "\n")[0], "mastered", "no practice yet: no mastery on the header")
	m = press(m, "p")
	require.Equal(t, "practice", m.Mode())

	// Draw until a case whose rule has more than one code, so that half
	// right can be said.
	for range 50 {
		if len(codeOptions(int(asked(m).Verdict.Code.Rule()))) > 1 {
			break
		}
		m = press(m, "n")
	}
	kinds := []struct {
		name string
		keys func(c practice.Case) []string
		mark string
	}{
		{"half", func(c practice.Case) []string {
			rule := int(c.Verdict.Code.Rule())
			right := slices.Index(codeOptions(rule), c.Verdict.Code)
			return answerKeys(rule, (right+1)%len(codeOptions(rule)))
		}, "◐ Half right"},
		{"right", func(c practice.Case) []string {
			rule := int(c.Verdict.Code.Rule())
			return answerKeys(rule, slices.Index(codeOptions(rule), c.Verdict.Code))
		}, "✓ Right"},
		{"wrong", func(c practice.Case) []string {
			return answerKeys(int(c.Verdict.Code.Rule())%8+1, 0)
		}, "✗ You said"},
	}
	for i, k := range kinds {
		c := asked(m)
		require.NotEqual(t, assess.Code(0), c.Verdict.Code, k.name)
		out := plain(m)
		// The question is open: the story says what changed, and nothing
		// on screen says what decides.
		assert.Contains(t, squash(out), squash(c.Change.Path), "%s: the story says what changed", k.name)
		assert.NotContains(t, out, c.Verdict.CodeName(), "%s: the answer waits", k.name)
		assert.NotContains(t, out, "FIRED", "%s: no rule fired yet", k.name)
		rule := c.Verdict.Code.Rule()
		before := m.prog.Practice[practice.RuleKey(rule)]
		m = press(m, k.keys(c)...)
		out = plain(m)
		assert.Contains(t, out, k.mark, k.name)
		assert.Contains(t, out, c.Verdict.CodeName(), "%s: the walk shows the verdict", k.name)
		assert.Contains(t, out, "FIRED", "%s: and the rule that fired", k.name)
		assert.Equal(t, here(m).lastStep(), here(m).at.Step, "%s: the walk is whole", k.name)
		after := m.prog.Practice[practice.RuleKey(rule)]
		if k.name == "wrong" {
			assert.Equal(t, before.Wrong+1, after.Wrong, "a wrong rule moves its box back")
			assert.Equal(t, 1, after.Box)
		} else {
			assert.Equal(t, before.Right+1, after.Right, "%s: the right rule moves its box up", k.name)
		}
		// Then what it does NOT prove, as in the quiz.
		require.Equal(t, quizAskCaveat, m.modes.practice.q.phase, k.name)
		m = press(m, fmt.Sprint(m.modes.practice.q.correct))
		assert.Contains(t, plain(m), "✓ Right: that is what it does not prove.", k.name)
		header := strings.Split(plain(m), "\n")[0]
		assert.Contains(t, header, "rules ", k.name)
		assert.Contains(t, header, "/8 mastered", k.name)
		assert.Contains(t, header, fmt.Sprintf("practice %s", scoreText(m.modes.practice.points, i+1)), k.name)
		if i < len(kinds)-1 {
			m = press(m, "n")
			assert.NotEqual(t, c.Scenario.ID, asked(m).Scenario.ID, "n draws the next case")
		}
	}
	assert.Contains(t, strings.Split(plain(m), "\n")[0], practice.HeaderText(m.prog, assess.English), "the mastery by rule")

	zh := press(m, "L")
	assert.Contains(t, strings.Split(plain(zh), "\n")[0], practice.HeaderText(zh.prog, assess.Chinese), "the mastery in Chinese")
	assert.Contains(t, plain(zh), "判断", "the walk in Chinese")

	m = press(m, "esc")
	assert.Equal(t, "quiz", m.Mode(), "esc leaves practice")
	assert.True(t, m.modes.quiz.summary, "back to the summary")
	m = press(m, "esc")
	assert.Contains(t, strings.Split(plain(m), "\n")[0], "mastered", "the walk's header shows the mastery too")
}

// TestPracticeDrawsFromTheSeed: the same seed draws the same cases; the
// trainer reads no clock to draw.
func TestPracticeDrawsFromTheSeed(t *testing.T) {
	ids := func(seed uint64) []string {
		m := press(toSummary(t, newTest(t, Options{Quiz: true, Seed: seed})), "p")
		var out []string
		for range 4 {
			out = append(out, asked(m).Scenario.ID)
			m = press(m, "n")
		}
		return out
	}
	assert.Equal(t, ids(3), ids(3))
	assert.NotEqual(t, ids(3), ids(4))
}

// TestPracticeWritesNothingUnasked: with --no-save (no Save) practice is
// kept in memory; in the SSH classroom (a Room) nothing is written on the
// server even when a Save is given; alone with a Save, the boxes are
// saved.
func TestPracticeWritesNothingUnasked(t *testing.T) {
	var saved []progress.Progress
	save := func(p progress.Progress) error { saved = append(saved, p); return nil }
	answer := func(m Model, run func(Model, string) Model) Model {
		c := asked(m)
		rule := int(c.Verdict.Code.Rule())
		for _, k := range answerKeys(rule, slices.Index(codeOptions(rule), c.Verdict.Code)) {
			m = run(m, k)
		}
		return m
	}
	run := func(m Model, k string) Model { return runCmd(t, m, k) }

	t.Run("alone, saved", func(t *testing.T) {
		saved = nil
		m := toSummary(t, newTest(t, Options{Quiz: true, Save: save}))
		answer(run(m, "p"), run)
		require.NotEmpty(t, saved)
		assert.NotEmpty(t, saved[len(saved)-1].Practice, "the boxes are saved")
	})
	t.Run("no-save", func(t *testing.T) {
		m := toSummary(t, newTest(t, Options{Quiz: true}))
		m = answer(run(m, "p"), run)
		assert.NotEmpty(t, m.prog.Practice, "kept in memory")
		assert.Contains(t, strings.Split(plain(m), "\n")[0], "mastered")
	})
	t.Run("room", func(t *testing.T) {
		saved = nil
		room := &fakeRoom{}
		m := newTest(t, Options{Room: room, Save: save})
		m = send(m, RoomMsg{Live: "unknown-tool", Round: 1, Revealed: true})
		m = run(m, "P")
		require.Equal(t, "practice", m.Mode(), "a student practises between the room's questions")
		m = answer(m, run)
		assert.NotEmpty(t, m.prog.Practice, "kept in memory")
		assert.Empty(t, saved, "nothing is written on the server")
		assert.Contains(t, strings.Split(plain(m), "\n")[0], "mastered")
		assert.Empty(t, room.answers, "practice answers are not the room's")

		// The room's next question ends practice: it comes first.
		m = send(m, RoomMsg{Live: "write-without-approval", Round: 2, Open: true})
		assert.Equal(t, "room", m.Mode())
		assert.True(t, m.modes.room.q.asking(), "the room's question is asked")
		m = run(m, "P")
		assert.Equal(t, "room", m.Mode(), "no practice while the room's question is open")
	})
}
