package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/scenarios"
	"toolgate/walk"
)

// TestCaveatQuestionHasOneRightAnswer: "which of these does this verdict
// NOT prove?" offers the verdict's caveat and two things the verdict does
// establish, never another rule's caveat (which it does not prove either:
// marking it wrong would mark a true answer wrong).
func TestCaveatQuestionHasOneRightAnswer(t *testing.T) {
	var caveats []string
	for _, l := range []assess.Lang{assess.English, assess.Chinese} {
		for r := assess.RuleToolInContract; r <= assess.RuleAllow; r++ {
			caveats = append(caveats, r.Caveat(l))
		}
	}
	for _, lang := range []assess.Lang{assess.English, assess.Chinese} {
		for _, s := range scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAdmission) {
			m := newTest(t, Options{Quiz: true, Scenario: s.ID, Lang: lang})
			v := assess.Assess(new(s.Case.(scenarios.AdmissionCase).Input))
			m = press(m, fmt.Sprint(int(v.Code.Rule())))
			if m.modes.quiz.q.phase == quizAskCode {
				m = press(m, "1")
			}
			require.Equal(t, quizAskCaveat, m.modes.quiz.q.phase, s.ID)
			q := m.modes.quiz.q
			require.Len(t, q.options, 3, s.ID)
			for i, opt := range q.options {
				o := opt.In(lang)
				if i+1 == q.correct {
					assert.Equal(t, v.Code.Caveat(lang), o, s.ID)
					continue
				}
				assert.NotContains(t, caveats, o, "%s: a distractor is never something the verdict does not prove", s.ID)
				// It is what a rule that was asked established.
				established := o == assess.CheckedInput(lang) || o == v.Code.Rule().Establishes(true, lang)
				for r := assess.RuleToolInContract; r < v.Code.Rule(); r++ {
					established = established || o == r.Establishes(false, lang)
				}
				assert.True(t, established, "%s: %q is established by this verdict", s.ID, o)
			}
			assert.NotEqual(t, q.options[0], q.options[1], s.ID)
			assert.NotEqual(t, q.options[1], q.options[2], s.ID)
			assert.NotEqual(t, q.options[0], q.options[2], s.ID)
		}
	}
}

// TestPathNeverOffersDeletingEvidence: the path to allowed changes the
// request and its situation; erasing the record of a call that timed out
// is said to be no fix, with why.
func TestPathNeverOffersDeletingEvidence(t *testing.T) {
	for _, tc := range []struct{ id, notFix string }{
		{"timed-out-no-readback", "Invocation record → none"},
		{"write-without-approval", "Tool's effect class → read_only"},
	} {
		m := resize(newTest(t, Options{Scenario: tc.id}), 120, 60)
		m = press(m, "a")
		out := plain(m)
		before, after, found := strings.Cut(out, "is no fix")
		require.True(t, found, "%s:\n%s", tc.id, out)
		assert.NotContains(t, before, tc.notFix, "%s: offered as a path", tc.id)
		assert.Contains(t, after, tc.notFix, tc.id)
	}
	out := plain(press(resize(newTest(t, Options{Scenario: "timed-out-no-readback"}), 120, 60), "a"))
	assert.Contains(t, squash(out), squash("No change the knobs can make to the request or its situation"))
	assert.Contains(t, squash(out), squash("leaving it out hides it and undoes nothing"))
}

// TestQuestionsShowTheSceneNotTheLesson: while a prediction is asked, the
// walk tells the scenario's scene, never the story's conclusion.
func TestQuestionsShowTheSceneNotTheLesson(t *testing.T) {
	for _, tc := range []struct {
		track  scenarios.Track
		id     string
		lesson string
	}{
		{scenarios.TrackAdmission, "read-only-candidate", "a read needs no approval"},
		{scenarios.TrackAdmission, "timed-out-no-readback", "The honest answer is"},
		{scenarios.TrackAudit, "audit-duplicate-missing-unknown", "B never came"},
		{scenarios.TrackOutcome, "outcome-not-found", "legitimate answer"},
	} {
		m := resize(newTest(t, Options{Quiz: true, Track: tc.track, Scenario: tc.id}), 120, 40)
		require.True(t, m.modes.quiz.q.asking(), tc.id)
		s, _ := scenarios.Find(scenarios.Builtin(), tc.track, tc.id)
		out := squash(plain(m))
		assert.NotContains(t, out, squash(tc.lesson), tc.id)
		assert.Contains(t, out, squash(s.Scene.In(assess.English))[:30], tc.id)
		assert.Contains(t, squash(s.Story.In(assess.English)), squash(tc.lesson), "%s: the lesson is in the story", tc.id)
	}
}

// TestStepsReadAsAnswers: a step that passed is marked as the answer
// "no" to its question, never with a tick beside a title that names the
// condition that fires it.
func TestStepsReadAsAnswers(t *testing.T) {
	for _, lang := range []assess.Lang{assess.English, assess.Chinese} {
		m := press(resize(newTest(t, Options{Scenario: "write-without-approval", Lang: lang}), 120, 60), "e")
		out := plain(m)
		env := assess.RuleEnvironment.Title(lang)
		line := ""
		for l := range strings.SplitSeq(out, "\n") {
			if strings.Contains(l, env) {
				line = l
			}
		}
		require.NotEmpty(t, line, "the environment rule is shown")
		assert.NotContains(t, line, "✓", "a tick beside %q reads as agreement", env)
		assert.Contains(t, line, map[assess.Lang]string{assess.English: "no · passed", assess.Chinese: "否·通过"}[lang])
		assert.Contains(t, out, map[assess.Lang]string{assess.English: "YES · FIRED", assess.Chinese: "是·触发"}[lang])
	}
}

// TestStillFiresWithAnotherCode: a what-if change that keeps the rule
// and changes the code says the rule still fires.
func TestStillFiresWithAnotherCode(t *testing.T) {
	m := press(newTest(t, Options{Scenario: "write-without-approval"}), "w", "down", "3")
	assert.Equal(t, "last change: requires_approval/approval_missing → requires_approval/approval_expired (rule 7 still fires, with another code)", m.modes.whatIf.message)
}

// TestLiveScenarioIsHeldUntilTheReveal: from the moment a scenario goes
// live until its answer is revealed, a student's list masks its title,
// the walk follows the presenter, and stepping waits.
func TestLiveScenarioIsHeldUntilTheReveal(t *testing.T) {
	m := resize(newTest(t, Options{Room: &fakeRoom{}}), 120, 40)
	m = send(m, RoomMsg{Live: "correlation-conflict", Step: 1})
	out := plain(m)
	assert.NotContains(t, out, "5 Correlation conflict", "the title would answer the question")
	assert.NotContains(t, out, "Scenario 5 · Correlation conflict")
	assert.Contains(t, out, "5 · · ·")
	num, step, _ := state(m)
	assert.Equal(t, []int{5, 1}, []int{num, step}, "the walk is where the presenter has it")
	m = press(m, "right", "e")
	_, step, _ = state(m)
	assert.Equal(t, 1, step, "no stepping ahead of the room")
	m = send(m, RoomMsg{Live: "correlation-conflict", Step: 1, Round: 1, Open: true})
	assert.NotContains(t, plain(m), "5 Correlation conflict")
	m = send(m, RoomMsg{Live: "correlation-conflict", Step: 8, Round: 1, Revealed: true})
	assert.Contains(t, plain(m), "5 Correlation conflict", "revealed: the title shows")
	m = press(m, "r")
	_, step, _ = state(m)
	assert.Equal(t, 0, step, "free again after the reveal")
}

// TestAQuestionCallsTheStudentBack: a student who wandered off while a
// question is open is told so, and g leads back to it.
func TestAQuestionCallsTheStudentBack(t *testing.T) {
	m := resize(newTest(t, Options{Room: &fakeRoom{}}), 120, 40)
	m = send(m, RoomMsg{Live: "write-without-approval", Round: 1, Open: true})
	m = press(m, "n")
	num, _, _ := state(m)
	require.Equal(t, 5, num)
	assert.Contains(t, squash(plain(m)), squash("A question is waiting on the lecture's scenario: g goes back to answer it."))
	m = press(m, "g")
	num, _, _ = state(m)
	assert.Equal(t, 4, num)
	assert.True(t, m.modes.room.q.asking(), "the question is there again")
	assert.True(t, slices.Contains(strings.Fields(plain(m)), "1–8."), "and asks for a rule")
}

// TestThePresenterLeadsFromTheFirstFrame (issue 21, item 6): the
// scenario on the presenter's screen is live before any key, so the notes
// screen that logs in next has it, instead of waiting for a presenter
// who seems to have opened one.
func TestThePresenterLeadsFromTheFirstFrame(t *testing.T) {
	room := &fakeRoom{presenter: true}
	m := resize(newTest(t, Options{Room: room}), 80, 24)
	send(m, RoomMsg{Sessions: 1})
	assert.Equal(t, []string{"unknown-tool"}, room.live, "the scenario the presenter sees is live")
	// A presenter who takes a room over follows what is live instead.
	room2 := &fakeRoom{presenter: true}
	m2 := resize(newTest(t, Options{Room: room2}), 80, 24)
	m2 = send(m2, RoomMsg{Live: "write-without-approval", Step: 3})
	num, _, _ := state(m2)
	assert.Equal(t, 4, num)
	assert.NotContains(t, room2.live, "unknown-tool", "the room is not moved back to scenario 1")
}

// TestTheNotesFollowTheReveal (issue 21, item 6): the reveal shows the
// presenter the verdict, and the room hears of it, so the notes screen
// leaves "rule 0 of 8".
func TestTheNotesFollowTheReveal(t *testing.T) {
	room := &fakeRoom{presenter: true}
	m := resize(newTest(t, Options{Room: room}), 80, 24)
	m = send(m, RoomMsg{Live: "unknown-tool", Round: 1, Open: true})
	m = send(m, RoomMsg{Live: "unknown-tool", Round: 1, Revealed: true})
	_, step, _ := state(m)
	require.Positive(t, step, "the presenter sees the verdict")
	assert.Equal(t, step, room.step, "the room is told the step the presenter shows")

	n := resize(newTest(t, Options{Room: &fakeRoom{}, Notes: true}), 80, 24)
	n = send(n, RoomMsg{Live: "unknown-tool", Step: room.step, Round: 1, Revealed: true})
	assert.Contains(t, squash(plain(n)), squash("Unknown tool — verdict (rule 1 decided)"))
}

// TestThePresentersScreenKeepsTheCountsUntilTheReveal (issue 21, item 8):
// a projected presenter's screen says how many answered, not what.
func TestThePresentersScreenKeepsTheCountsUntilTheReveal(t *testing.T) {
	for _, lang := range []assess.Lang{assess.English, assess.Chinese} {
		room := &fakeRoom{presenter: true}
		m := resize(newTest(t, Options{Room: room, Lang: lang}), 120, 40)
		open := RoomMsg{Live: "unknown-tool", Round: 1, Open: true, Counts: map[int]int{1: 3, 4: 2}, Answered: 5, Students: 9}
		m = send(m, open)
		out := squash(plain(m))
		assert.NotContains(t, out, squash(fmt.Sprintf("%s 1: 3", tr("rule", lang))), lang)
		assert.Contains(t, out, squash(fmt.Sprintf(tr("roomAnswered", lang), 5, 9)), lang)
		revealed := open
		revealed.Open, revealed.Revealed = false, true
		m = send(m, revealed)
		assert.Contains(t, squash(plain(m)), squash(fmt.Sprintf("%s 1: 3", tr("rule", lang))), lang)
	}
}

// TestOpeningAgainStartsFromTheScene (issue 21, item 8): o on a revealed
// scenario opens the next question from the scene, not with the verdict
// still on the screen.
func TestOpeningAgainStartsFromTheScene(t *testing.T) {
	room := &fakeRoom{presenter: true}
	m := resize(newTest(t, Options{Room: room}), 120, 40)
	m = send(m, RoomMsg{Live: "unknown-tool", Round: 1, Revealed: true})
	_, step, _ := state(m)
	require.Positive(t, step)
	m = press(m, "o")
	_, step, _ = state(m)
	assert.Equal(t, 0, step)
	assert.Equal(t, 1, room.opened)
	assert.Equal(t, 0, room.step, "the projector's step goes to the room")
	assert.NotContains(t, plain(m), "REJECTED")
}

// TestTheProjectorInTheRoom (issue 21, item 8): the leading session
// switches to the projector's layout, bound to the room: o and v ask and
// reveal, the count shows only once revealed, steps lead the room, and f
// goes back to the room's layout where the projector was.
func TestTheProjectorInTheRoom(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {60, 20}, {200, 60}} {
		room := &fakeRoom{presenter: true}
		m := resize(newTest(t, Options{Room: room, ClassCode: "tulip-orchid"}), size[0], size[1])
		m = send(m, RoomMsg{Sessions: 1})
		m = press(m, "f")
		require.Equal(t, "presenter", m.Mode(), size)
		out := squash(plain(m))
		assert.Contains(t, out, "tulip-orchid", "%v: latecomers read the class code", size)
		assert.NotContains(t, out, "Inputs", "%v: the projector's layout, not the trainer's panes", size)
		m = press(m, "o")
		assert.Equal(t, 1, room.opened, size)
		open := RoomMsg{Live: "unknown-tool", Round: 1, Open: true, Counts: map[int]int{1: 3}, Answered: 3, Students: 4}
		m = send(m, open)
		out = squash(plain(m))
		assert.NotContains(t, out, squash("rule 1: 3"), "%v: no counts before the reveal", size)
		assert.NotContains(t, out, squash("Unknown tool"), "%v: the title would answer", size)
		m = press(m, "v")
		assert.Equal(t, 1, room.revealed, size)
		revealed := open
		revealed.Open, revealed.Revealed = false, true
		m = send(m, revealed)
		out = squash(plain(m))
		assert.Contains(t, out, "REJECTED", size)
		assert.Contains(t, out, squash("rule 1: 3"), "%v: the counts once revealed", size)
		m = press(m, "n")
		num, _, _ := state(m)
		assert.Equal(t, 2, num, size)
		assert.Equal(t, "invalid-arguments", room.live[len(room.live)-1], "%v: the projector leads the room", size)
		m = press(m, "f")
		require.Equal(t, "room", m.Mode(), size)
		num, _, _ = state(m)
		assert.Equal(t, 2, num, "%v: the room's layout is where the projector was", size)
	}
}

// TestProjectorSaysScanOnlyWithACode: at 80×24 the projector folds the
// phones' QR code away and keeps the link; it must not then tell the
// room to "scan" a code it does not show. Where the code fits (200×60)
// it says scan, beside the code.
func TestProjectorSaysScanOnlyWithACode(t *testing.T) {
	const url = "http://10.0.0.5:8080/?t=0123456789abcdef"
	for _, l := range []assess.Lang{assess.English, assess.Chinese} {
		for _, size := range [][2]int{{80, 24}, {60, 20}, {200, 60}} {
			room := &fakeRoom{presenter: true}
			m := resize(newTest(t, Options{Room: room, ClassCode: "tulip-orchid", JoinURL: url, Lang: l}), size[0], size[1])
			m = send(m, RoomMsg{Sessions: 1})
			m = press(m, "f", "o")
			m = send(m, RoomMsg{Live: "unknown-tool", Round: 1, Open: true, Students: 3})
			out := plain(m)
			qr := strings.Contains(out, "█")
			if !strings.Contains(out, "http://10.0.0.5:8080/") {
				continue // folded away whole: says nothing
			}
			scan := strings.Contains(out, pollText("phones", l))
			assert.Equal(t, qr, scan, "%v %v: says scan exactly when the code is shown:\n%s", l, size, out)
			if size[0] == 200 {
				assert.True(t, qr, "%v: the code fits at 200×60", l)
			}
		}
	}
}

// TestProjectorTallyBreaksBetweenItems: the room's answers on the
// projector at 80×24 and 60×20, once revealed, break only between their
// " · " items: "3 without a" then "key" alone on the next line, as at
// 80×24 before, is not read as one count.
func TestProjectorTallyBreaksBetweenItems(t *testing.T) {
	for _, l := range []assess.Lang{assess.English, assess.Chinese} {
		for _, size := range [][2]int{{80, 24}, {60, 20}} {
			room := &fakeRoom{presenter: true}
			m := resize(newTest(t, Options{Room: room, ClassCode: "tulip-orchid", Lang: l}), size[0], size[1])
			m = send(m, RoomMsg{Sessions: 1})
			m = press(m, "f", "o")
			rs := RoomMsg{Live: "unknown-tool", Round: 1, Revealed: true, Counts: map[int]int{1: 3, 4: 1}, Answered: 4, Students: 4, Anonymous: 3}
			m = press(m, "v")
			m = send(m, rs)
			lines := strings.Split(plain(m), "\n")
			for _, item := range strings.Split(histogram(rs, scenarios.TrackAdmission, walk.Of(scenarios.Builtin()[0], l), l), " · ") {
				whole := false
				for _, line := range lines {
					whole = whole || strings.Contains(line, item)
				}
				assert.True(t, whole, "%v %v: %q on one line:\n%s", l, size, item, plain(m))
			}
		}
	}
}

// TestInputValueBreaksAfterAComma: a marked JSON value too long for the
// inputs column (scenario 14's requiredArguments at 80×24) breaks after
// a comma, not inside a name: `"d` then `ocumentId"]` reads as two
// names, and the lesson is that one name is listed twice.
func TestInputValueBreaksAfterAComma(t *testing.T) {
	for _, l := range []assess.Lang{assess.English, assess.Chinese} {
		m := resize(newTest(t, Options{Scenario: "14", Step: 3, Lang: l}), 80, 24)
		out := plain(m)
		require.Contains(t, out, `"field"`, "the marked value is shown")
		assert.Contains(t, out, `"documentId"]`, "%v: the last name whole:\n%s", l, out)
		assert.Contains(t, out, `["documentId",`, "%v: the first name whole", l)
	}
}

// TestProjectorFooterNeverCutsTheCount: at 60×20 the projector's line
// said "Class code: tulip-river-stone · answered 1" — the end "of 1" cut
// off, a count that reads whole and is not. The count is whole or not
// there, and the class code whole, at every size.
func TestProjectorFooterNeverCutsTheCount(t *testing.T) {
	for _, code := range []string{"tulip-river-stone", "blanket-harbor-violet-tundra"} {
		for _, l := range []assess.Lang{assess.English, assess.Chinese} {
			for _, size := range [][2]int{{80, 24}, {60, 20}} {
				room := &fakeRoom{presenter: true}
				m := resize(newTest(t, Options{Room: room, ClassCode: code, Lang: l}), size[0], size[1])
				m = send(m, RoomMsg{Sessions: 1})
				m = press(m, "f", "o")
				m = send(m, RoomMsg{Live: "unknown-tool", Round: 1, Open: true, Counts: map[int]int{1: 1}, Answered: 1, Students: 1})
				line := footer(m)
				assert.Contains(t, line, code, "%v %v: the class code whole", l, size)
				count := fmt.Sprintf(tr("roomAnswered", l), 1, 1)
				if size[0] >= 60 {
					assert.Contains(t, line, count, "%v %v %s: the count whole", l, size, code)
				}
			}
		}
	}
}

// TestNotesScreenCutsNoHeading: the notes screen scrolls, so nothing on
// it needs cutting; at 60×20 its headings were cut with "…" ("The
// story, with its lesson (not on the projector before the…"), the
// scenario's line too. Every line of every scenario's notes, stepped to
// its verdict, ends whole, in both languages.
func TestNotesScreenCutsNoHeading(t *testing.T) {
	for _, l := range []assess.Lang{assess.English, assess.Chinese} {
		for _, s := range scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAdmission) {
			for _, step := range []int{0, 99} {
				n := resize(newTest(t, Options{Room: &fakeRoom{}, Notes: true, Lang: l, JoinURL: "http://10.0.0.5:8080/?t=x"}), 60, 20)
				n = send(n, RoomMsg{Live: s.ID, Step: step, Round: 1, Open: true, Students: 2})
				for _, line := range n.modes.notes.lines() {
					assert.NotContains(t, ansi.Strip(line), "…", "%v %s step %d: cut", l, s.ID, step)
				}
			}
		}
	}
}

// TestWhatIfSaysItIsTheLastChange: after several changes the banner
// read "changes: 2 · verdict: allowed/… → requires_approval/…" — a
// verdict the scenario never had on the left, beside a count of every
// change. The arrow is the last change's, and says so.
func TestWhatIfSaysItIsTheLastChange(t *testing.T) {
	m := resize(newTest(t, Options{Scenario: "4"}), 80, 24)
	m = press(m, "w", "j", "enter", "enter")
	out := squash(plain(m))
	assert.Contains(t, out, squash("last change: allowed/admission_allowed → requires_approval/approval_expired"), out)
	zh := resize(newTest(t, Options{Scenario: "4", Lang: assess.Chinese}), 80, 24)
	zh = press(zh, "w", "j", "enter")
	assert.Contains(t, squash(plain(zh)), squash("这次改动：requires_approval/approval_missing → allowed/admission_allowed"))
}

// TestProjectorHoldsAnAuditTitleWhileAsked: while the room is asked
// about an audit scenario, the projector does not show its title — "Duplicate,
// missing, unknown" is the very choice the students are asked for. It
// shows it before the question is opened, as on the other tracks.
func TestProjectorHoldsAnAuditTitleWhileAsked(t *testing.T) {
	s, ok := scenarios.Find(scenarios.Builtin(), scenarios.TrackAudit, "audit-duplicate-missing-unknown")
	require.True(t, ok)
	for _, l := range []assess.Lang{assess.English, assess.Chinese} {
		room := &fakeRoom{presenter: true}
		m := resize(newTest(t, Options{Room: room, ClassCode: "tulip-orchid", Lang: l, Track: scenarios.TrackAudit, Scenario: s.ID}), 120, 40)
		m = send(m, RoomMsg{Sessions: 1})
		m = press(m, "f")
		assert.Contains(t, plain(m), s.Title.In(l), "%v: the title before the question", l)
		m = press(m, "o")
		m = send(m, RoomMsg{Live: s.ID, Round: 1, Open: true, Students: 3})
		assert.NotContains(t, plain(m), s.Title.In(l), "%v: the title while the room is asked", l)
	}
}

// TestLeadsTallyBreaksBetweenItems: the leading session's own walk
// column (not the projector) at 80×24 breaks the room's counts and its
// status line between their items: "3 of 3 ·" then "3 without a key",
// never "3 without a" then "key", nor "answers this round" then "3".
func TestLeadsTallyBreaksBetweenItems(t *testing.T) {
	for _, l := range []assess.Lang{assess.English, assess.Chinese} {
		room := &fakeRoom{presenter: true}
		m := resize(newTest(t, Options{Room: room, ClassCode: "tulip-harbor-violet-seven", Lang: l, Scenario: "4"}), 80, 24)
		rs := RoomMsg{Live: "write-without-approval", Round: 1, Revealed: true, Counts: map[int]int{4: 1, 7: 2},
			Answered: 3, Students: 3, Anonymous: 3, Sessions: 4, Peak: 4}
		m = send(m, rs)
		out := plain(m)
		items := strings.Split(histogram(rs, scenarios.TrackAdmission, walk.Of(scenarios.Builtin()[3], l), l), " · ")
		items = append(items, strings.Split(fmt.Sprintf(tr("roomStatus", l), 4, 4, 3), " · ")...)
		for _, item := range items {
			assert.Contains(t, out, item, "%v: %q on one line:\n%s", l, item, out)
		}
	}
}
