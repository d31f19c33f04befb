package tui

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/progress"
	"toolgate/scenarios"
	"toolgate/whatif"
)

// The screens a learner really meets at 80×24 and 60×20, in both
// languages: what must be on them, and what must not.

var (
	smallSizes = [][2]int{{80, 24}, {60, 20}}
	bothLangs  = []assess.Lang{assess.English, assess.Chinese}
	// stepLine is a rule (or an outcome's question) listed in the walk
	// pane under its own number.
	stepLine = regexp.MustCompile(`(?m)^ \S +([0-9]+) `)
)

// listedSteps are the numbers of the steps the walk pane lists one a
// line.
func listedSteps(screen string) []int {
	var out []int
	for _, g := range stepLine.FindAllStringSubmatch(walkColumn(screen), -1) {
		n, _ := strconv.Atoi(g[1])
		out = append(out, n)
	}
	return out
}

// TestRulesStayListedWhileAQuestionNumbersThem: "which rule fires? Press
// 1–8" is asked with the eight rules on screen, never folded into "1–8
// not asked yet", at 80×24 and 60×20, in both languages, in every
// scenario of the admission and outcome tracks; so is the code question
// about the rule picked, and the room's question to a student.
func TestRulesStayListedWhileAQuestionNumbersThem(t *testing.T) {
	all := func(n int) []int {
		var out []int
		for i := 1; i <= n; i++ {
			out = append(out, i)
		}
		return out
	}
	for _, size := range smallSizes {
		for _, lang := range bothLangs {
			for _, track := range []scenarios.Track{scenarios.TrackAdmission, scenarios.TrackOutcome} {
				for _, s := range scenarios.InTrack(scenarios.Builtin(), track) {
					name := fmt.Sprintf("%dx%d/%s/%s", size[0], size[1], lang, s.ID)
					m := resize(newTest(t, Options{Quiz: true, Track: track, Scenario: s.ID, Lang: lang}), size[0], size[1])
					require.Equal(t, quizAskStep, m.modes.quiz.q.phase, name)
					out := plain(m)
					assert.Equal(t, all(len(here(m).walk.Steps)), listedSteps(out), "%s: every step it numbers is listed\n%s", name, out)
					assert.Contains(t, squash(out), squash(fmt.Sprintf("1–%d", len(here(m).walk.Steps))), "%s: and the question with them", name)
				}
			}
			// The code question on scenarios 4 (rule 7) and 1 (rule 1).
			for _, tc := range []struct{ id, rule string }{{"write-without-approval", "7"}, {"unknown-tool", "1"}} {
				name := fmt.Sprintf("%dx%d/%s/%s code", size[0], size[1], lang, tc.id)
				m := press(resize(newTest(t, Options{Quiz: true, Scenario: tc.id, Lang: lang}), size[0], size[1]), tc.rule)
				require.Equal(t, quizAskCode, m.modes.quiz.q.phase, name)
				out := plain(m)
				assert.Equal(t, all(8), listedSteps(out), "%s\n%s", name, out)
				assert.Contains(t, squash(out), squash(codeOptions(int(tc.rule[0] - '0'))[0].String()), name)
			}
			// A student asked by the room.
			name := fmt.Sprintf("%dx%d/%s room", size[0], size[1], lang)
			m := resize(newTest(t, Options{Room: &fakeRoom{}, Lang: lang}), size[0], size[1])
			m = send(m, RoomMsg{Live: "demo", Round: 1, Open: true})
			out := plain(m)
			assert.Equal(t, all(8), listedSteps(out), "%s\n%s", name, out)
		}
	}
	// The question is never the only thing that fits: once it is
	// answered, the walk folds as before.
	m := press(resize(newTest(t, Options{Quiz: true, Scenario: "demo"}), 80, 24), "8")
	assert.False(t, slices.Equal(all(8), listedSteps(plain(m))), "the verdict folds the rules again")
}

// missAll answers every admission scenario of a quiz wrongly (rule 2,
// then a wrong "does NOT prove"), to the summary at the end.
func missAll(m Model) Model {
	for {
		if m.modes.quiz.q.phase == quizAskStep {
			m = press(m, "2")
		}
		if m.modes.quiz.q.phase == quizAskCaveat {
			m = press(m, fmt.Sprint(m.modes.quiz.q.correct%3+1))
		}
		m = press(m, "n")
		if m.modes.quiz.summary {
			return m
		}
	}
}

// TestQuizSummaryScrolls: the summary of a quiz full of misses scrolls
// with ↓ to its last miss, keeps its score on top, and closes on esc or
// enter, never on a key pressed to read on.
func TestQuizSummaryScrolls(t *testing.T) {
	for _, size := range smallSizes {
		for _, lang := range bothLangs {
			name := fmt.Sprintf("%dx%d/%s", size[0], size[1], lang)
			m := missAll(resize(newTest(t, Options{Quiz: true, Lang: lang}), size[0], size[1]))
			require.True(t, m.modes.quiz.summary, name)
			last := fmt.Sprintf("14 %s", scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAdmission)[13].Title.In(lang))
			out := plain(m)
			assert.NotContains(t, squash(out), squash(last), "%s: the last miss is below", name)
			assert.Contains(t, out, map[assess.Lang]string{assess.English: "more lines below (↓)", assess.Chinese: "下方还有"}[lang], name)
			m = press(m, "x", "n", "1")
			require.True(t, m.modes.quiz.summary, "%s: a key that is not the summary's leaves it open", name)
			for range 200 {
				m = press(m, "down")
			}
			out = plain(m)
			assert.Contains(t, squash(out), squash(last), "%s: ↓ reaches the last miss\n%s", name, out)
			if size[1] >= 24 {
				assert.Contains(t, squash(out), squash(tr("quizSummary", lang)), "%s: the score stays on top", name)
			}
			m = press(m, "up")
			assert.Contains(t, plain(m), map[assess.Lang]string{assess.English: "1 more lines below", assess.Chinese: "下方还有 1 行"}[lang], "%s: ↑ at once after the end", name)
			m = press(m, "esc")
			assert.False(t, m.modes.quiz.summary, "%s: esc closes it", name)
		}
	}
}

// footer is the frame's last line.
func footer(m Model) string {
	lines := strings.Split(plain(m), "\n")
	return lines[len(lines)-1]
}

// TestFilterBelowThreeColumns: / filters the list where there is no list
// column too (the list shows in the walk's place while it is typed), and
// every letter typed after it goes to the filter: none switches the
// track, opens the inputs, quits, or opens the help. The help lists /.
func TestFilterBelowThreeColumns(t *testing.T) {
	for _, size := range smallSizes {
		for _, opts := range []Options{{}, {Quiz: true}, {Room: &fakeRoom{}}} {
			name := fmt.Sprintf("%dx%d/%s", size[0], size[1], newTest(t, opts).Mode())
			m := resize(newTest(t, opts), size[0], size[1])
			m = press(m, "/", "t", "i", "m", "e")
			assert.Equal(t, "time", listOf(m).filter.input.Value(), name)
			assert.Equal(t, scenarios.TrackAdmission, m.Track(), "%s: t is a letter of the filter", name)
			assert.False(t, listOf(m).showInputs || listOf(m).full, "%s: i is a letter of the filter", name)
			out := plain(m)
			assert.Contains(t, out, "/ time", "%s: what is typed is seen", name)
			if opts.Quiz {
				// The quiz keeps unanswered titles back, from the filter too.
				assert.Contains(t, out, "no scenario matches", name)
			} else {
				assert.Contains(t, out, "13 ", "%s: with what it matches", name)
				assert.NotContains(t, out, " 4 ", "%s: and not what it does not", name)
			}

			m = press(resize(newTest(t, opts), size[0], size[1]), "/", "q", "g", "w", "L", "?", "a", "e", "n")
			assert.Equal(t, "qgwL?aen", listOf(m).filter.input.Value(), "%s: no letter runs a command", name)
			assert.Equal(t, assess.English, m.Lang(), name)
			assert.False(t, m.cover.showHelp, name)
			assert.NotEqual(t, "what-if", m.Mode(), name)

			m = press(resize(newTest(t, opts), size[0], size[1]), "?")
			assert.Contains(t, squash(plain(m)), squash("/ filter the list"), "%s: the help lists /", name)
		}
	}
}

// TestSlashWithoutAFilterTypesNothing (issue 30, item 3): in a mode or
// state with no filter — the presenter, the what-if, the practice, the
// notes screen, an overlay, the help — / says so in the footer, and the
// letters typed after it for a filter run nothing (t would switch the
// track, i open the inputs, e run to the verdict) until esc closes it.
// Where there is a filter, / opens it at every size.
func TestSlashWithoutAFilterTypesNothing(t *testing.T) {
	withFilter := map[string]bool{"walk": true, "quiz": true, "room": true, "student": true}
	for _, size := range [][2]int{{60, 20}, {80, 24}, {120, 40}, {200, 60}} {
		cases := sessions(t)
		cases["walk, inputs in full"] = press(newTest(t, Options{Scenario: "4"}), "i")
		cases["walk, path to allowed"] = press(newTest(t, Options{Scenario: "4"}), "a")
		cases["walk, help"] = press(newTest(t, Options{Scenario: "4"}), "?")
		for _, lang := range []assess.Lang{assess.English, assess.Chinese} {
			for name, m := range cases {
				name := fmt.Sprintf("%s %dx%d %s", name, size[0], size[1], lang)
				m = resize(m, size[0], size[1])
				if lang != m.Lang() {
					m.toggleLang()
				}
				track, mode, at := m.Track(), m.Mode(), here(m).at
				typed := press(m, "/", "t", "i", "m", "e")
				if withFilter[name[:strings.IndexByte(name, ' ')]] {
					assert.Equal(t, "time", listOf(typed).filter.input.Value(), "%s: / opens the filter", name)
					continue
				}
				assert.Equal(t, track, typed.Track(), "%s: t switched the track", name)
				assert.Equal(t, mode, typed.Mode(), name)
				assert.Equal(t, at, here(typed).at, "%s: a letter moved the walk", name)
				assert.Equal(t, m.cover.showHelp, typed.cover.showHelp, name)
				assert.Equal(t, listOf(m).full, listOf(typed).full, "%s: i is a letter here", name)
				f := footer(typed)
				assert.Contains(t, f, tr("noFilter", lang), "%s: the footer says there is no filter", name)
				assert.Contains(t, f, "esc", name)
				assert.Contains(t, f, "ctrl+c", name)
				closed := press(typed, "esc")
				assert.NotContains(t, footer(closed), tr("noFilter", lang), "%s: esc closes it", name)
				assert.Equal(t, at, here(closed).at, name)
				assert.Equal(t, m.cover.showHelp, closed.cover.showHelp, "%s: esc closes only the notice", name)
			}
		}
	}
}

// TestSlashEndsWithItsMode: the room's question ends a student's
// what-if; a / typed there no longer swallows keys, so the digit that
// follows answers the question.
func TestSlashEndsWithItsMode(t *testing.T) {
	room := &fakeRoom{}
	m := send(newTest(t, Options{Room: room}), RoomMsg{Live: "write-without-approval", Round: 0})
	m = press(m, "2", "enter", "w", "/") // wandered to scenario 2, experimenting
	require.Equal(t, "what-if", m.Mode())
	require.Contains(t, footer(m), tr("noFilter", assess.English))
	m = send(m, RoomMsg{Live: "write-without-approval", Round: 1, Open: true})
	require.Equal(t, "room", m.Mode())
	assert.NotContains(t, footer(m), tr("noFilter", assess.English))
	_ = press(m, "4")
	assert.Equal(t, []int{4}, room.answers, "the digit answers the question")
}

// TestFooterTellsOnlyWorkingKeys: the footer lists the keys that work in
// the state it is shown in: an overlay's close and scroll, a typed
// filter's enter and esc; and esc clears a kept filter.
func TestFooterTellsOnlyWorkingKeys(t *testing.T) {
	for _, opts := range []Options{{Scenario: "2"}, {Quiz: true, Scenario: "2"}, {Room: &fakeRoom{}, Scenario: "2"}} {
		base := resize(newTest(t, opts), 80, 24)
		mode := base.Mode()
		full := press(base, "i")
		require.True(t, listOf(full).full, mode)
		f := footer(full)
		for _, lie := range []string{"p prev", "n next", "←", "→", "e/enter", "g ", "w "} {
			assert.NotContains(t, f, lie, "%s: the inputs in full: %q does nothing there", mode, lie)
		}
		assert.Contains(t, f, "i/esc close", mode)
		assert.Contains(t, f, "↑/↓ scroll", mode)

		typing := press(base, "/")
		assert.Equal(t, "enter keep the filter • esc clear the filter • ctrl+c quit", footer(typing), mode)

		kept := press(base, "/", "t", "enter")
		assert.Contains(t, footer(kept), "esc clear the filter", mode)
		cleared := press(kept, "esc")
		assert.Empty(t, listOf(cleared).filter.input.Value(), "%s: esc clears a kept filter", mode)
		assert.NotContains(t, footer(cleared), "clear the filter", mode)
	}
	// In three columns, esc from the walk goes back to the list first;
	// there, esc clears the filter.
	m := press(newTest(t, Options{Scenario: "2"}), "/", "t", "enter", "enter")
	_, _, focus := state(m)
	require.Equal(t, "walk", focus)
	m = press(m, "esc")
	assert.Equal(t, "t", listOf(m).filter.input.Value(), "esc from the walk goes to the list")
	m = press(m, "esc")
	assert.Empty(t, listOf(m).filter.input.Value(), "esc on the list clears the filter")

	// The what-if's overlays list their own keys only.
	w := press(resize(newTest(t, Options{Scenario: "4"}), 80, 24), "w", "2", "i")
	f := footer(w)
	assert.Contains(t, f, "i/esc close")
	assert.NotContains(t, f, "undo")
	assert.NotContains(t, f, "next knob")
}

// TestEveryListedKeyDoesSomething presses, in each state a learner meets,
// each key its footer lists: each changes the screen (or quits).
func TestEveryListedKeyDoesSomething(t *testing.T) {
	type st struct {
		name string
		m    Model
	}
	sized := func(opts Options, keys ...string) Model {
		return press(resize(newTest(t, opts), 80, 24), keys...)
	}
	states := []st{
		{"walk list", sized(Options{})},
		{"walk step", sized(Options{Scenario: "4", Step: 3})},
		{"walk verdict", sized(Options{Scenario: "4", Step: 99})},
		{"inputs whole", sized(Options{Scenario: "4"}, "i")},
		{"path", sized(Options{Scenario: "4", Step: 99}, "a")},
		{"filter typed", sized(Options{}, "/", "t")},
		{"filter kept", sized(Options{}, "/", "t", "enter")},
		{"quiz asking", sized(Options{Quiz: true, Scenario: "4"})},
		{"quiz code", sized(Options{Quiz: true, Scenario: "4"}, "7")},
		{"quiz caveat", sized(Options{Quiz: true, Scenario: "4"}, "7", "1")},
		{"quiz answered", sized(Options{Quiz: true, Scenario: "4"}, "7", "1", "1")},
		{"quiz summary", missAll(sized(Options{Quiz: true}))},
		{"what-if", sized(Options{Scenario: "4"}, "w")},
		{"what-if changed", sized(Options{Scenario: "4"}, "w", "2")},
		{"presenter", sized(Options{Present: true, Scenario: "4", Step: 2})},
		{"room student", sized(Options{Room: &fakeRoom{}})},
		{"help", sized(Options{Scenario: "4"}, "?")},
	}
	for _, s := range states {
		before := plain(s.m)
		rest, tail := s.m.footerKeys()
		for _, b := range append(rest, tail...) {
			k := b.Keys()[0]
			next, cmd := s.m.Update(keyMsg(k))
			changed := plain(next.(Model)) != before || cmd != nil
			assert.True(t, changed, "%s: %q (%s %s) is listed and does nothing", s.name, k, b.Help().Key, b.Help().Desc)
		}
	}
}

// TestFilterDoesNotNameTheAnswer: in the quiz the list keeps the titles
// of unanswered scenarios back, and so does its filter: a word of a
// hidden title matches nothing, the number still does.
func TestFilterDoesNotNameTheAnswer(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		m := resize(newTest(t, Options{Quiz: true}), size[0], size[1])
		m = press(m, "/", "a", "p", "p", "r", "o", "v", "a", "l")
		out := plain(m)
		assert.Contains(t, out, "no scenario matches", "%dx%d: approval would name scenarios 4, 9, 12", size[0], size[1])
		num, _, _ := state(m)
		assert.Equal(t, 1, num, "the selection does not move to a hidden title")
		m = press(m, "esc", "/", "1", "2")
		num, _, _ = state(m)
		assert.Equal(t, 12, num, "a number still matches")
	}
	// The room's live scenario, held until the reveal.
	m := send(newTest(t, Options{Room: &fakeRoom{}}), RoomMsg{Live: "correlation-conflict", Step: 1})
	m = press(m, "/", "c", "o", "r", "r")
	assert.Contains(t, plain(m), "no scenario matches")
}

// inputsColumn is the inputs pane's part of an 80-column screen: the
// last of its columns.
func inputsColumn(screen string) string {
	cols := screenColumns(screen)
	return cols[len(cols)-1]
}

// TestInputsAt80x24: the inputs pane at 80×24 shows the field a
// scenario is about with its label whole (arguments.documentId, not
// arguments.docume…), in the walk and in the quiz, in both languages;
// it says what a section's count is; and the walk's rule names are whole.
func TestInputsAt80x24(t *testing.T) {
	for _, lang := range bothLangs {
		for _, opts := range []Options{{Lang: lang, Scenario: "2"}, {Lang: lang, Scenario: "2", Quiz: true}} {
			m := resize(newTest(t, opts), 80, 24)
			in := inputsColumn(plain(m))
			assert.Contains(t, in, "arguments.documentId", "%s quiz=%v: the field the question is about\n%s", lang, opts.Quiz, in)
			assert.NotContains(t, in, "arguments.docume…", lang)
		}
		// Folded sections say what they count.
		m := resize(newTest(t, Options{Lang: lang, Scenario: "2", Step: 3}), 80, 24)
		in := inputsColumn(plain(m))
		assert.NotContains(t, in, "(+", lang)
		assert.Contains(t, in, map[assess.Lang]string{assess.English: "Contract · 10 more fields", assess.Chinese: "契约 · 另有 10 个字段"}[lang], "%s\n%s", lang, in)
		assert.Contains(t, in, "> arguments.documentId", lang)
	}
	// Every rule's name is whole in the walk at 80×24, from the start
	// to the verdict, in both languages: a row that does not fit beside
	// its answer wraps, it is not cut.
	for _, lang := range bothLangs {
		for _, id := range []string{"timed-out-no-readback", "demo"} {
			for _, step := range []int{0, 5, 99} {
				m := resize(newTest(t, Options{Lang: lang, Scenario: id, Step: step}), 80, 24)
				for _, l := range strings.Split(walkColumn(plain(m)), "\n") {
					if stepLine.MatchString(l) {
						assert.NotContains(t, l, "…", "%s %s step %d: a rule's name is cut", lang, id, step)
					}
				}
			}
		}
	}
}

// TestPresenterAskKeepsRuleNames: the presenter's "ask the room" lists
// the rules as the room's choices, each name whole on its line, at 80×24
// and 60×20, in both languages.
func TestPresenterAskKeepsRuleNames(t *testing.T) {
	for _, size := range smallSizes {
		for _, lang := range bothLangs {
			m := press(resize(newTest(t, Options{Present: true, Scenario: "5", Lang: lang}), size[0], size[1]), "a")
			out := plain(m)
			for i, s := range here(m).walk.Steps {
				assert.Contains(t, out, fmt.Sprintf("%d %s", i+1, s.Title), "%dx%d %s", size[0], size[1], lang)
			}
		}
	}
}

// firstStart is a learner's first start: nothing walked, the
// introduction open.
func firstStart(t *testing.T, lang assess.Lang, width, height int) Model {
	t.Helper()
	m := resize(New(Options{Scenarios: scenarios.Builtin(), Theme: ThemeDark, Lang: lang}), width, height)
	require.True(t, m.cover.intro)
	return m
}

// TestFirstStartSaysWhatItIsFor: the first screen starts with what the
// trainer is for and which book and chapter it teaches, then what the
// decision does not do; where it scrolls it says ↓/↑ scroll, never "any
// key to start" beside "more below"; reopened from the help it does not
// say it starts anything. At 80×24 and 60×20, in both languages.
func TestFirstStartSaysWhatItIsFor(t *testing.T) {
	book := map[assess.Lang][]string{
		assess.English: {"What toolgate is for", "chapter 11", "Tool use and tool protocols", "Harness Engineering Guide"},
		assess.Chinese: {"toolgate 是做什么的", "第 11 章", "工具调用与工具协议", "《Harness Engineering Guide》"},
	}
	for _, size := range smallSizes {
		for _, lang := range bothLangs {
			name := fmt.Sprintf("%dx%d/%s", size[0], size[1], lang)
			m := firstStart(t, lang, size[0], size[1])
			out := squash(plain(m))
			for _, want := range book[lang] {
				assert.Contains(t, out, squash(want), name)
			}
			boundaries := strings.Index(out, squash(tr("introTitle", lang)))
			require.Positive(t, boundaries, "%s: the boundaries follow", name)
			assert.Less(t, strings.Index(out, squash(book[lang][2])), boundaries, "%s: the book comes first", name)
			assert.NotContains(t, out, squash(map[assess.Lang]string{assess.English: "any key to start", assess.Chinese: "按任意键开始"}[lang]),
				"%s: ↓ scrolls here, so not any key starts", name)

			// ↓ scrolls to every boundary; a key that does not scroll
			// starts.
			seen := plain(m)
			for range 40 {
				m = press(m, "down")
				seen += plain(m)
			}
			require.True(t, m.cover.intro, "%s: ↓ scrolls, it does not start", name)
			for _, g := range assess.NonGoals(lang) {
				assert.Contains(t, flatColumns(seen), squash(g)[:12], name)
			}
			m = press(m, "x")
			assert.False(t, m.cover.intro, name)

			// Reopened from the help.
			m = press(m, "?", "d")
			require.True(t, m.cover.intro, name)
			out = squash(plain(m))
			assert.Contains(t, out, squash(book[lang][0]), name)
			assert.NotContains(t, out, squash(map[assess.Lang]string{assess.English: "start", assess.Chinese: "开始"}[lang]), "%s: nothing starts again", name)
			assert.Contains(t, out, squash(map[assess.Lang]string{assess.English: "closes this", assess.Chinese: "关闭"}[lang]), name)
		}
	}
	// Where it fits, any key starts, ↓ too.
	m := firstStart(t, assess.English, 160, 50)
	assert.Contains(t, plain(m), "any key to start")
	assert.False(t, press(m, "down").cover.intro, "nothing to scroll: ↓ starts as any key does")
}

// loneHan is a line that is one Chinese character alone, with its
// punctuation ("时", "录？").
var loneHan = regexp.MustCompile(`^\s*\p{Han}\p{P}*\s*$`)

// TestChineseWrapsWithoutOrphans: in Chinese, at 80×24 and 60×20, in the
// walk, the quiz and the presenter, at every step of every scenario, no
// line of any pane is one character alone, and the footer never cuts a
// key's help in the middle ("g 关闭测…").
func TestChineseWrapsWithoutOrphans(t *testing.T) {
	cut := regexp.MustCompile(`\p{Han}…`)
	for _, size := range smallSizes {
		for _, opts := range []Options{{}, {Quiz: true}, {Present: true}} {
			for _, track := range scenarios.Tracks {
				for _, s := range scenarios.InTrack(scenarios.Builtin(), track) {
					for _, step := range []int{0, 1, 3, 99} {
						o := opts
						o.Lang, o.Track, o.Scenario, o.Step = assess.Chinese, track, s.ID, step
						m := resize(newTest(t, o), size[0], size[1])
						if o.Quiz && step == 0 {
							m = press(m, "1") // the answer, and the next question
						}
						name := fmt.Sprintf("%dx%d %s %s step %d", size[0], size[1], m.Mode(), s.ID, step)
						screen := plain(m)
						for _, col := range screenColumns(screen) {
							for _, l := range strings.Split(col, "\n") {
								assert.False(t, loneHan.MatchString(l), "%s: %q alone on its line\n%s", name, strings.TrimSpace(l), screen)
							}
						}
						assert.False(t, cut.MatchString(footer(m)), "%s: %q", name, footer(m))
					}
				}
			}
		}
	}
}

// TestAnswersFollowTheLanguage: an answer given in English reads in
// Chinese after L (and back), as do the open question's choices, the
// summary, a student's answer in the room, and an answer saved by an
// earlier session; at 80×24 and 60×20.
func TestAnswersFollowTheLanguage(t *testing.T) {
	for _, size := range smallSizes {
		name := fmt.Sprintf("%dx%d", size[0], size[1])
		m := resize(newTest(t, Options{Quiz: true, Scenario: "write-without-approval"}), size[0], size[1])
		m = press(m, "4") // wrong: rule 7 decides; the caveat question opens
		require.Equal(t, quizAskCaveat, m.modes.quiz.q.phase, name)
		m = press(m, "L")
		out := flatColumns(plain(m))
		assert.Contains(t, out, squash("你选的是规则 4，environment_not_ready；实际由规则 7，approval_missing 决定。"), name)
		assert.NotContains(t, out, "Yousaid", name)
		assert.Contains(t, out, squash(assess.CodeApprovalMissing.Caveat(assess.Chinese)), "%s: the open question's choices too", name)
		assert.NotContains(t, out, squash(assess.CodeApprovalMissing.Caveat(assess.English)), name)
		m = press(m, fmt.Sprint(m.modes.quiz.q.correct%3+1)) // wrong
		out = flatColumns(plain(m))
		assert.Contains(t, out, squash("选错了。从它不能推导出的是："+assess.CodeApprovalMissing.Caveat(assess.Chinese)), name)
		m = press(m, "L")
		assert.Contains(t, flatColumns(plain(m)), squash("You said rule 4, environment_not_ready; rule 7, approval_missing decided."), "%s: and back", name)

		// The summary.
		for {
			num, _, _ := state(m)
			if num == 14 {
				break
			}
			m = press(m, "n")
		}
		m = press(m, "n", "L")
		require.True(t, m.modes.quiz.summary, name)
		out = flatColumns(plain(m))
		assert.Contains(t, out, squash("4 写入缺批准"), name)
		assert.Contains(t, out, squash("你选的是规则 4"), name)

		// The room.
		r := resize(newTest(t, Options{Room: &fakeRoom{}}), size[0], size[1])
		r = send(r, RoomMsg{Live: "write-without-approval", Round: 1, Open: true})
		r = press(r, "4")
		r = send(r, RoomMsg{Live: "write-without-approval", Round: 1, Revealed: true, Step: 9})
		r = press(r, "L")
		assert.Contains(t, flatColumns(plain(r)), squash("你选的是规则 4，environment_not_ready"), "%s: room", name)
	}
	// An answer saved in English by an earlier session.
	p := progress.New()
	p.Record("write-without-approval", progress.Answer{Said: "rule 4, environment_not_ready", Decided: "rule 7, approval_missing", Caveat: "wrong"})
	m := press(resize(newTest(t, Options{Scenario: "write-without-approval", Lang: assess.Chinese, Progress: p}), 80, 24), "g")
	require.False(t, m.modes.quiz.q.asking(), "answered before: not asked again")
	out := flatColumns(plain(m))
	assert.Contains(t, out, squash("你选的是规则 4，environment_not_ready；实际由规则 7，approval_missing 决定。"))
	assert.Contains(t, out, squash("从它不能推导出的是："+assess.CodeApprovalMissing.Caveat(assess.Chinese)), "the caveat of an earlier answer is said too")
}

// TestOneTermForDoesNotProve: the verdict's column is 不能推导, the
// seed's term in its decision order, wherever the trainer names it: on
// the verdict, in the quiz's question, its marks and its score. 不能证明
// is never used for it (本场景不证明 is the test matrix's own column).
func TestOneTermForDoesNotProve(t *testing.T) {
	for key, texts := range ui {
		assert.NotContains(t, texts[assess.Chinese], "不能证明", key)
	}
	m := resize(newTest(t, Options{Quiz: true, Scenario: "write-without-approval", Lang: assess.Chinese}), 80, 24)
	m = press(m, "7", "1")
	require.Equal(t, quizAskCaveat, m.modes.quiz.q.phase)
	out := flatColumns(plain(m))
	assert.Contains(t, out, squash("从这个判断不能推导出下面哪一项"))
	assert.Contains(t, out, squash("不能推导：？"), "the verdict's own line, held back")
	m = press(m, fmt.Sprint(m.modes.quiz.q.correct))
	assert.Contains(t, flatColumns(plain(m)), squash("答对了：这正是从它不能推导出的。"))
	assert.NotContains(t, flatColumns(plain(m)), "不能证明")
}

// TestChineseStoriesSayItInChinese: a Chinese scene or story says
// "harness" in Chinese, and a field's value (ready, complete, expired…)
// only quoted, as a value: no "环境也是 ready", no "Harness 约定".
func TestChineseStoriesSayItInChinese(t *testing.T) {
	bare := regexp.MustCompile(`(^|[^"“\w])(ready|complete|expired|succeeded|not_run|timed_out|unknown)([^"”\w:]|$)`)
	for _, s := range scenarios.Builtin() {
		for _, text := range []string{s.Scene.Zh, s.Story.Zh} {
			assert.NotContains(t, text, "Harness", s.ID)
			assert.False(t, bare.MatchString(text), "%s: a value said bare in Chinese: %q", s.ID, bare.FindString(text))
		}
	}
	m := resize(newTest(t, Options{Scenario: "write-without-approval", Lang: assess.Chinese}), 80, 24)
	out := flatColumns(plain(m))
	assert.Contains(t, out, squash(`环境状态也是 "ready"。调用方没有传入批准快照`))
}

// TestChineseMarksWrapAsChinese: the quiz's marks, in Chinese at 80×24
// and 60×20, wrap as Chinese text does: no mark left alone on its line
// ("✗"), no line starting with a comma or a full stop.
func TestChineseMarksWrapAsChinese(t *testing.T) {
	badStart := regexp.MustCompile(`^\s*[，。；：、）」』”]`)
	aloneMark := regexp.MustCompile(`^\s*[✗✓◐]\s*$`)
	for _, size := range smallSizes {
		for _, s := range scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAdmission) {
			m := resize(newTest(t, Options{Quiz: true, Scenario: s.ID, Lang: assess.Chinese}), size[0], size[1])
			m = press(m, "4")
			if m.modes.quiz.q.phase == quizAskCaveat {
				m = press(m, fmt.Sprint(m.modes.quiz.q.correct%3+1))
			}
			screen := plain(m)
			for _, l := range strings.Split(walkColumn(screen), "\n") {
				assert.False(t, badStart.MatchString(l), "%dx%d %s: %q\n%s", size[0], size[1], s.ID, l, screen)
				assert.False(t, aloneMark.MatchString(l), "%dx%d %s: %q\n%s", size[0], size[1], s.ID, l, screen)
			}
		}
	}
}

// TestWhatIfOptionsStayWhole: the what-if's options are laid out whole,
// each on one line, in Chinese too, at 80×24 and 60×20.
func TestWhatIfOptionsStayWhole(t *testing.T) {
	for _, size := range smallSizes {
		for _, lang := range bothLangs {
			m := press(resize(newTest(t, Options{Scenario: "4", Lang: lang}), size[0], size[1]), "w", "down")
			out := plain(m)
			k := whatif.Knobs()[1]
			for j := range k.Options {
				assert.Contains(t, out, fmt.Sprintf("%d %s", j+1, k.Option(j, lang)), "%dx%d %s", size[0], size[1], lang)
			}
		}
	}
}

// TestAuditQuizSaysWhereTheBatchIs: at 60×20 (one column) the audit
// question says tab shows the batch, and tab does.
func TestAuditQuizSaysWhereTheBatchIs(t *testing.T) {
	m := resize(newTest(t, Options{Quiz: true, Track: scenarios.TrackAudit}), 60, 20)
	assert.Contains(t, squash(plain(m)), squash("The batch is in the inputs: tab shows them."))
	m = press(m, "tab")
	assert.Contains(t, plain(m), "Inputs")
	assert.True(t, m.modes.quiz.q.asking(), "the question waits")
}
