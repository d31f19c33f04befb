package tui

import (
	"fmt"
	"slices"
	"strings"

	"toolgate/assess"
	"toolgate/scenarios"
	"toolgate/walk"
)

// Room is the lecture hall a session is part of when toolgate is served
// over SSH. The trainer calls it; the room answers by sending RoomMsg to
// every session's program.
type Room interface {
	// Presenter reports whether this session leads the room.
	Presenter() bool
	// Go makes a scenario live for everyone, at a step of its walk
	// (presenter only); the step is for the notes screen.
	Go(scenarioID string, step int)
	// Open opens the question on the live scenario (presenter only).
	Open()
	// Reveal shows everyone the walk and whether they were right
	// (presenter only).
	Reveal()
	// Answer sends this session's prediction for the open question: the
	// step (rule or class). The code of an admission answer is the
	// session's own: it marks the answer right or wrong on this screen,
	// and the room's histogram counts steps only.
	Answer(step int)
}

// RoomMsg is the room's state as one session sees it.
type RoomMsg struct {
	// Live is the id of the scenario the presenter shows, Step how far
	// the presenter has walked it.
	Live string
	Step int
	// Round counts the questions opened; Open says the current one takes
	// answers; Revealed that its answer is shown.
	Round    int
	Open     bool
	Revealed bool
	// Counts are the answers of this round by step (presenter only).
	Counts map[int]int
	// Answered, Students, Sessions, Peak are for the presenter's status;
	// Anonymous counts the answers given without an identity (a client
	// that offered no key votes once a session).
	Answered, Students, Sessions, Peak int
	Anonymous                          int
	// Phone counts the answers given by phone (the web page); the rest
	// came over SSH (presenter and notes).
	Phone int
	// Ending, when set, is the room's last word to this session.
	Ending Goodbye
	// Frozen says the room is out of reach: its state stays as it was,
	// and the session says so until it is back.
	Frozen Frozen
}

// Frozen is whether a room shared across servers is out of reach.
type Frozen uint8

const (
	// NotFrozen is a room within reach (a room of one server always).
	NotFrozen Frozen = iota
	// FrozenForNow is a room out of reach; it goes on when it is back,
	// with the answers given meanwhile.
	FrozenForNow
	// FrozenForGood is a room out of reach for good on this server;
	// connecting again (to another) rejoins.
	FrozenForGood
)

// text is what a session says while the room is frozen.
func (f Frozen) text(l assess.Lang) string {
	switch f {
	case FrozenForNow:
		return tr("roomFrozen", l)
	case FrozenForGood:
		return tr("roomFrozenForGood", l)
	case NotFrozen: // says nothing
	}
	return ""
}

// histogram is the answers by step without names:
// "rule 4: 12 · rule 7: 31 · answered 43 of 60"; an outcome's steps are
// named by the class each asks about in the live walk w.
func histogram(rs RoomMsg, track scenarios.Track, w walk.Walk, l assess.Lang) string {
	var steps []int
	for s := range rs.Counts {
		steps = append(steps, s)
	}
	slices.Sort(steps)
	var parts []string
	for _, s := range steps {
		name := fmt.Sprintf("%s %d", tr("rule", l), s)
		switch track {
		case scenarios.TrackAdmission:
			// A rule, named above.
		case scenarios.TrackOutcome:
			name = className(w, s, l)
		case scenarios.TrackAudit:
			name = fmt.Sprintf("%s %d", tr("option", l), s)
		}
		parts = append(parts, fmt.Sprintf("%s: %d", name, rs.Counts[s]))
	}
	return strings.Join(append(parts, answeredText(rs, l)), " · ")
}

// answeredText is how many answered, without what:
// "answered 43 of 60 · 2 without a key" (an SSH key).
func answeredText(rs RoomMsg, l assess.Lang) string {
	s := fmt.Sprintf(tr("roomAnswered", l), rs.Answered, rs.Students)
	if rs.Anonymous > 0 {
		s += " · " + fmt.Sprintf(tr("roomAnonymous", l), rs.Anonymous)
	}
	return s
}
