package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"toolgate/assess"
	"toolgate/scenarios"
)

// Room is the lecture hall a session is part of when toolgate is served
// over SSH. The trainer calls it; the room answers by sending RoomMsg to
// every session's program.
type Room interface {
	// Presenter reports whether this session leads the room.
	Presenter() bool
	// Go makes a scenario live for everyone (presenter only).
	Go(scenarioID string)
	// Open opens the question on the live scenario (presenter only).
	Open()
	// Reveal shows everyone the walk and whether they were right
	// (presenter only).
	Reveal()
	// Answer sends this session's prediction for the open question: the
	// step (rule or class) and, for admission, the code.
	Answer(step int, code assess.Code)
}

// RoomMsg is the room's state as one session sees it.
type RoomMsg struct {
	// Live is the id of the scenario the presenter shows.
	Live string
	// Round counts the questions opened; Open says the current one takes
	// answers; Revealed that its answer is shown.
	Round    int
	Open     bool
	Revealed bool
	// Counts are the answers of this round by step (presenter only).
	Counts map[int]int
	// Answered, Students, Sessions, Peak are for the presenter's status.
	Answered, Students, Sessions, Peak int
	// Ending, when set, is the last thing said before the room closes.
	Ending string
}

// roomState is the room as this session last heard it.
type roomState struct {
	RoomMsg
	// answered is the round this session answered.
	answered int
	said     quizResult
}

func (m *Model) roomUpdate(msg RoomMsg) (tea.Model, tea.Cmd) {
	prev := m.roomState
	m.roomState.RoomMsg = msg
	if msg.Ending != "" {
		m.notice = msg.Ending
		return *m, tea.Sequence(tea.Tick(2*time.Second, func(time.Time) tea.Msg { return nil }), tea.Quit)
	}
	// Students follow the presenter to a new live scenario (and may wander
	// again afterwards).
	if msg.Live != "" && msg.Live != prev.Live {
		if s, ok := scenarios.Find(m.everything, "", msg.Live); ok {
			if s.Track != m.track {
				m.setTrack(s.Track)
			}
			m.selectScenario(s.Number - 1)
			m.focus = focusWalk
		}
	}
	if msg.Open && (!prev.Open || prev.Round != msg.Round) && !m.room.Presenter() {
		// A new question: predict before the walk is revealed.
		if s, ok := scenarios.Find(m.everything, "", msg.Live); ok {
			if s.Track != m.track {
				m.setTrack(s.Track)
			}
			m.selectScenario(s.Number - 1)
		}
		m.step = 0
		m.quiz.phase = quizAskStep
		m.focus = focusWalk
	}
	if msg.Revealed && !prev.Revealed && m.liveOpen() {
		m.quiz.phase = quizIdle
		m.step = m.lastStep()
	}
	m.updateKeys()
	return *m, nil
}

// liveOpen reports whether the open scenario is the room's live one.
func (m Model) liveOpen() bool {
	return len(m.all) > 0 && m.all[m.sel].ID == m.roomState.Live
}

// roomAnswer sends a student's answer to the room instead of revealing:
// the walk waits for the presenter.
func (m *Model) roomAnswer(step int, code assess.Code) {
	m.room.Answer(step, code)
	m.roomState.answered = m.roomState.Round
	m.roomState.said = m.mark(step, code)
	m.quiz.phase = quizIdle
}

// roomKey handles the presenter's room keys; it reports whether it did.
func (m *Model) roomKey(msg tea.KeyPressMsg) bool {
	if m.room == nil || !m.room.Presenter() {
		return false
	}
	switch msg.String() {
	case "o":
		m.room.Open()
	case "v":
		m.room.Reveal()
	default:
		return false
	}
	return true
}

// roomLines are what the room adds to the walk column: for the presenter
// the poll and the status line, for a student the round's state.
func (m Model) roomLines() []string {
	rs := m.roomState
	var lines []string
	if m.room.Presenter() {
		lines = append(lines, m.styles.Verdict.Label.Render(tr("roomPresenter", m.lang)))
		switch {
		case rs.Open:
			lines = append(lines, fmt.Sprintf(tr("roomPollOpen", m.lang), rs.Round))
		case rs.Revealed:
			lines = append(lines, fmt.Sprintf(tr("roomPollRevealed", m.lang), rs.Round))
		default:
			lines = append(lines, tr("roomPollClosed", m.lang))
		}
		if rs.Round > 0 {
			lines = append(lines, histogram(rs, m.track, m.lang))
		}
		lines = append(lines, m.styles.Dim.Render(fmt.Sprintf(tr("roomStatus", m.lang), rs.Sessions, rs.Peak, rs.Answered)))
		return lines
	}
	switch {
	case rs.Open && rs.answered == rs.Round && m.liveOpen():
		lines = append(lines, tr("roomWaiting", m.lang))
	case rs.Revealed && rs.answered == rs.Round && rs.Round > 0 && m.liveOpen():
		if rs.said.right {
			lines = append(lines, m.styles.tone(toneGood()).Render("✓ "+fmt.Sprintf(tr("quizRight", m.lang), rs.said.decided)))
		} else {
			lines = append(lines, m.styles.tone(toneBad()).Render("✗ "+fmt.Sprintf(tr("quizWrong", m.lang), rs.said.said, rs.said.decided)))
		}
	case rs.Live != "" && !m.liveOpen():
		lines = append(lines, m.styles.Dim.Render(tr("roomElsewhere", m.lang)))
	}
	return lines
}

// histogram is the answers by step without names:
// "rule 4: 12 · rule 7: 31 · answered 43 of 60".
func histogram(rs roomState, track string, l assess.Lang) string {
	var steps []int
	for s := range rs.Counts {
		steps = append(steps, s)
	}
	slices.Sort(steps)
	var parts []string
	for _, s := range steps {
		name := fmt.Sprintf("%s %d", tr("rule", l), s)
		if track == scenarios.TrackOutcome {
			name = assess.OutcomeClass(s).String()
		}
		parts = append(parts, fmt.Sprintf("%s: %d", name, rs.Counts[s]))
	}
	parts = append(parts, fmt.Sprintf(tr("roomAnswered", l), rs.Answered, rs.Students))
	return strings.Join(parts, " · ")
}
