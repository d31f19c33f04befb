package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/scenarios"
)

// frames are the screens seen while scrolling the walk pane down with J,
// from the top to the end.
func frames(m Model, n int) []string {
	out := []string{plain(m)}
	for range n {
		m = press(m, "J")
		out = append(out, plain(m))
	}
	return out
}

// TestCaveatQuestionIsNotAnsweredOnItsScreen (issue 21 sweep, item 3):
// while "which of these does this verdict NOT prove?" is open on an
// allowed verdict, no line of the verdict that limits it ("does NOT
// prove", "allowed is not", "this scenario does not prove") says its
// text, at 80×24 and 120×40, scrolled to the end.
func TestCaveatQuestionIsNotAnsweredOnItsScreen(t *testing.T) {
	for _, lang := range []assess.Lang{assess.English, assess.Chinese} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			m := resize(newTest(t, Options{Quiz: true, Scenario: "read-only-candidate", Lang: lang}), size[0], size[1])
			m = press(m, "8")
			require.Equal(t, quizAskCaveat, m.modes.quiz.q.phase)
			labels := []string{"does NOT prove", "allowed is not", "this scenario does not prove"}
			if lang == assess.Chinese {
				labels = []string{"不能推导", "allowed 不是", "本场景不证明"}
			}
			seen := map[string]bool{}
			for _, f := range frames(m, 30) {
				for row := range strings.SplitSeq(f, "\n") {
					for _, label := range labels {
						_, rest, ok := strings.Cut(row, label+tr("colon", lang))
						if !ok {
							continue
						}
						seen[label] = true
						assert.True(t, strings.HasPrefix(rest, "?") || strings.HasPrefix(rest, "？"),
							"%v %v: %q answers the question on its own screen", lang, size, row)
					}
				}
			}
			assert.True(t, seen[labels[0]], "%v %v: the verdict is scrolled to", lang, size)
			assert.NotContains(t, squash(strings.Join(frames(m, 30), "")), squash(assess.AllowedIsNot(lang))[:20], "%v %v", lang, size)
		}
	}
}

// TestFooterNamesTheDigitsThatAnswer (issue 21 sweep, item 4): at 80×24
// the footer names the range of the open question (1–8 for a rule, the
// codes of the rule picked, 1–3 for the caveat question, the outcome's
// classes, the audit's choices), and a digit beyond it still does
// nothing but stay in the question.
func TestFooterNamesTheDigitsThatAnswer(t *testing.T) {
	quiz := func(track scenarios.Track, id string) Model {
		return resize(newTest(t, Options{Quiz: true, Track: track, Scenario: id}), 80, 24)
	}
	m := quiz(scenarios.TrackAdmission, "read-only-candidate")
	assert.Contains(t, footer(m), "1–8 answer")
	m = press(m, "9")
	require.Equal(t, quizAskStep, m.modes.quiz.q.phase, "9 is no rule: still asked")
	m = press(m, "8")
	require.Equal(t, quizAskCaveat, m.modes.quiz.q.phase)
	assert.Contains(t, footer(m), "1–3 answer")
	num, _, _ := state(m)
	m = press(m, "9", "4")
	after, _, _ := state(m)
	assert.Equal(t, quizAskCaveat, m.modes.quiz.q.phase, "a digit beyond the choices answers nothing")
	assert.Equal(t, num, after, "and opens no scenario")
	assert.Equal(t, "quiz", m.Mode())

	m = press(quiz(scenarios.TrackAdmission, "write-without-approval"), "7")
	require.Equal(t, quizAskCode, m.modes.quiz.q.phase)
	assert.Contains(t, footer(m), "1–3 answer", "rule 7's codes: approval_missing, approval_<status>, approval_scope_mismatch")

	m = quiz(scenarios.TrackOutcome, "")
	assert.Contains(t, footer(m), "1–6 answer", "the six outcome classes' questions")
	m = quiz(scenarios.TrackAudit, "")
	assert.Contains(t, footer(m), fmt.Sprintf("1–%d answer", len(m.modes.quiz.q.options)))

	room := resize(newTest(t, Options{Room: &fakeRoom{}}), 80, 24)
	room = send(room, RoomMsg{Live: "write-without-approval", Round: 1, Open: true})
	assert.Contains(t, footer(room), "1–8 answer")

	p := press(toSummary(t, newTest(t, Options{Quiz: true, Seed: 25})), "p")
	p = resize(p, 80, 24)
	require.Equal(t, "practice", p.Mode())
	assert.Contains(t, footer(p), "1–8 answer")
}

// TestPracticeHoldsTheTitleBack (issue 21 sweep, item 7): practice, after
// the quiz's summary and in the room, does not name the scenario a case
// changes while it asks which rule fires: that title names the rule.
func TestPracticeHoldsTheTitleBack(t *testing.T) {
	for _, lang := range []assess.Lang{assess.English, assess.Chinese} {
		quiz := press(toSummary(t, newTest(t, Options{Quiz: true, Seed: 25, Lang: lang})), "p")
		room := press(newTest(t, Options{Room: &fakeRoom{}, Lang: lang}), "P")
		for name, m := range map[string]Model{"quiz": quiz, "room": room} {
			m = resize(m, 80, 24)
			require.Equal(t, "practice", m.Mode(), name)
			for range 6 {
				c := asked(m)
				title := squash(c.Base.Title.In(lang))
				require.True(t, m.modes.practice.q.predicting(), name)
				// The rules are listed by their titles, which some
				// scenarios share; the rest of the screen must not say it.
				out := squash(plain(m))
				for r := assess.RuleToolInContract; r <= assess.RuleAllow; r++ {
					out = strings.ReplaceAll(out, squash(r.Title(lang)), "")
				}
				assert.NotContains(t, out, title, "%s %v: %q answers the question", name, lang, title)
				m = press(m, answerKeys(int(c.Verdict.Code.Rule()), 0)...)
				require.False(t, m.modes.practice.q.predicting(), name)
				assert.Contains(t, squash(plain(resize(m, 200, 60))), title, "%s %v: named once predicted", name, lang)
				m = press(m, "n")
			}
		}
	}
}

// TestProjectorKeepsTheClassCodeWhole (issue 21 sweep, item 2): the
// room's projector at 80×24 says the whole class code while a question
// is open, before the count, which is only "answered N of M" there.
func TestProjectorKeepsTheClassCodeWhole(t *testing.T) {
	room := &fakeRoom{presenter: true}
	m := resize(newTest(t, Options{Room: room, ClassCode: "blanket-harbor-violet-tundra"}), 80, 24)
	m = send(m, RoomMsg{Sessions: 2})
	m = press(m, "f", "o")
	m = send(m, RoomMsg{Live: "unknown-tool", Round: 1, Open: true, Counts: map[int]int{1: 1}, Answered: 1, Students: 2, Anonymous: 1})
	line := footer(m)
	assert.Contains(t, line, "Class code: blanket-harbor-violet-tundra · answered 1 of 2", "the code whole, then the count")
	assert.NotContains(t, line, "anonymous")
}

// helpText is the help's pages as the learner reads them, paged through.
func helpText(m Model) string {
	m = press(m, "?")
	out := plain(m)
	for range 4 {
		m = press(m, "space")
		out += plain(m)
	}
	return out
}

// TestWhatIfIsListedWhereItWorks (issue 21 sweep, item 5): the help on
// the audit and outcome tracks does not list w (what-if works only on
// admission); w there says where it works. On admission it is listed.
func TestWhatIfIsListedWhereItWorks(t *testing.T) {
	for _, tc := range []struct {
		track  scenarios.Track
		listed bool
	}{{scenarios.TrackAdmission, true}, {scenarios.TrackAudit, false}, {scenarios.TrackOutcome, false}} {
		for name, opts := range map[string]Options{"walk": {Track: tc.track}, "room": {Track: tc.track, Room: &fakeRoom{}}} {
			m := resize(newTest(t, opts), 120, 40)
			s := seen(m)
			require.Equal(t, tc.track, s.track(), name)
			help := helpText(m)
			assert.Equal(t, tc.listed, strings.Contains(help, "what-if on/off"), "%s %s: w listed", name, tc.track)
			if !tc.listed {
				m = press(m, "w")
				assert.Contains(t, plain(m), "what-if works on admission scenarios", "%s %s", name, tc.track)
			}
		}
	}
}

// TestPathIndentsWrappedChanges (issue 21 sweep, item 6): on the path
// to allowed, a change that wraps goes on indented; only the headings
// start at column 0, at the widths of 80×24 and 60×20, in both
// languages.
func TestPathIndentsWrappedChanges(t *testing.T) {
	for _, lang := range []assess.Lang{assess.English, assess.Chinese} {
		for _, size := range [][2]int{{80, 24}, {60, 20}} {
			for _, s := range scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAdmission) {
				m := resize(newTest(t, Options{Scenario: s.ID, Lang: lang}), size[0], size[1])
				c := seen(m)
				width := size[0] - 4
				headings := map[string]bool{}
				for _, k := range []string{"pathTitle", "pathKeys", "pathNow", "pathToAllowed", "pathNotAFix", "pathFire", "pathAlready", "pathUnreachable"} {
					for l := range strings.SplitSeq(wrap(tr(k, lang), width), "\n") {
						headings[l] = true
					}
					headings[truncate(tr(k, lang), width)] = true
				}
				p := openPath(&c.place)
				for _, l := range p.lines(c, width) {
					l = ansi.Strip(l)
					if l == "" || strings.HasPrefix(l, " ") || headings[l] || strings.HasPrefix(l, ansi.Strip(fmt.Sprintf(tr("pathNow", lang), "", ""))[:3]) {
						continue
					}
					t.Errorf("%v %v %s: %q hangs at column 0", lang, size, s.ID, l)
				}
			}
		}
	}
}

// TestHelpFitsSixtyColumns (issue 21 sweep, item 8): at 60×20 the help
// box is drawn whole (its right border on every row), and its footer
// ends with the quit key whole, in both languages, in the walk and the
// presenter.
func TestHelpFitsSixtyColumns(t *testing.T) {
	for _, lang := range []assess.Lang{assess.English, assess.Chinese} {
		for name, opts := range map[string]Options{"walk": {Lang: lang}, "present": {Present: true, Lang: lang}} {
			m := press(resize(newTest(t, opts), 60, 20), "?")
			rows := strings.Split(plain(m), "\n")
			boxed := 0
			for _, r := range rows {
				require.LessOrEqual(t, ansi.StringWidth(r), 60, "%s %v", name, lang)
				if strings.Contains(r, "│") {
					boxed++
					assert.True(t, strings.HasSuffix(strings.TrimRight(r, " "), "│"), "%s %v: the box is cut: %q", name, lang, r)
				}
			}
			assert.Positive(t, boxed, "%s %v: the help is shown", name, lang)
			quit := "q " + tr("kQuit", lang)
			assert.True(t, strings.HasSuffix(strings.TrimRight(footer(m), " "), quit), "%s %v: %q", name, lang, footer(m))
			assert.Contains(t, footer(m), "d ", "%s %v: d is said", name, lang)
		}
	}
}

// TestInputCheckReadsWhole (issue 21 sweep, item 9): the walk's input
// check row says its title whole at 80×24 and 60×20 in both languages,
// on the admission and audit tracks, and never names "the seed", which
// a student cannot place.
func TestInputCheckReadsWhole(t *testing.T) {
	for _, lang := range []assess.Lang{assess.English, assess.Chinese} {
		for _, size := range [][2]int{{80, 24}, {60, 20}} {
			for _, track := range []scenarios.Track{scenarios.TrackAdmission, scenarios.TrackAudit} {
				m := press(resize(newTest(t, Options{Track: track, Lang: lang}), size[0], size[1]), "enter")
				s := seen(m)
				title := s.walk.Check.Title
				out := plain(m)
				assert.Contains(t, out, title, "%v %v %s: the check's title whole", lang, size, track)
				assert.NotContains(t, out, "seed", "%v %v %s", lang, size, track)
				assert.NotContains(t, out, "原文", "%v %v %s", lang, size, track)
			}
		}
	}
}

// TestEmptyBatchSaysWhatItShows (issue 21 sweep, item 10): the empty
// batch's walk does not say "every request got a result" (true only
// because there is none): it says there is nothing to pair, in both
// languages, at 80×24.
func TestEmptyBatchSaysWhatItShows(t *testing.T) {
	for _, tc := range []struct {
		lang       assess.Lang
		vacuous    []string
		nothing    string
		requestsOK string
	}{
		{assess.English, []string{"every request got a result", "every result matches one request", "every requested ID is unique"}, "nothing to pair", "no ID was requested"},
		{assess.Chinese, []string{"每个请求都收到了结果", "每个结果都对应唯一的请求", "每个请求 ID 都是唯一的"}, "没有可以配对的东西", "没有请求任何 ID"},
	} {
		m := resize(newTest(t, Options{Track: scenarios.TrackAudit, Scenario: "audit-empty", Lang: tc.lang}), 80, 24)
		var out string
		for _, k := range []string{"enter", "right", "right", "right"} {
			m = press(m, k)
			out += squash(plain(m))
		}
		for _, v := range tc.vacuous {
			assert.NotContains(t, out, squash(v), tc.lang)
		}
		assert.Contains(t, out, squash(tc.nothing), tc.lang)
		// Step 1, off screen once the walk is past it, says it too.
		assert.Contains(t, seen(m).walk.Steps[0].Explanation, tc.requestsOK, tc.lang)
	}
}
