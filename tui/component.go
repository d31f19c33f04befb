package tui

import (
	tea "charm.land/bubbletea/v2"

	"toolgate/practice"
	"toolgate/progress"
)

// component is a mode of the trainer, as soft-serve's Component: the walk,
// the quiz, the what-if, the presenter, the room, the notes screen and
// the practice each keep their own state (their place among them) and
// are driven only through these methods. The root forwards messages to
// the active one, sizes them all, and shows the active one's keys and
// body.
type component interface {
	// Update takes a message. What the mode cannot do itself (switch to
	// another mode, record progress, say a notice) it posts to the root.
	Update(msg tea.Msg) (component, tea.Cmd)
	// View is the mode's body between the header and the footer (the
	// presenter's: the whole frame), drawn from its state alone.
	View() string
	// KeyMap is the mode's keys as they work now; HelpKeyMap every key
	// of the mode, for the ? help.
	KeyMap() modeKeys
	HelpKeyMap() modeKeys
	// SetSize sizes the mode for a terminal and fills its panes.
	SetSize(width, height int) component
	// Posted is what the last Update posted to the root: messages the
	// root handles at once, in order, before the next message. (A
	// command's message would arrive after keys already typed: "p" then
	// "7" must answer in the practice, not in the quiz's summary.)
	Posted() []tea.Msg
	// Status is what the header and the window's title say of the mode,
	// and where it is, to hand to the next mode.
	Status() status
}

// status is a mode as the root shows it and hands it on.
type status struct {
	place place
	// right is the header's right part; practice, that the header is
	// the practice's own.
	right    string
	practice bool
	// full says View is the whole frame (the presenter).
	full bool
	// frozen is the room's, for the footer.
	frozen Frozen
}

// outbox collects what a mode posts to the root during one Update.
type outbox []tea.Msg

func (o *outbox) post(msgs ...tea.Msg) { *o = append(*o, msgs...) }

// say posts a notice for the footer, shown until the next key.
func (o *outbox) say(text string) { o.post(noticeMsg{text}) }

// Messages between the modes and the root. They are posted (see
// component.Posted) and handled at once; none is a command's.
type (
	// noticeMsg is a line for the footer until the next key.
	noticeMsg struct{ text string }
	// openedMsg and walkedMsg tell the progress that a scenario was
	// opened, and walked to its verdict.
	openedMsg struct{ id string }
	walkedMsg struct{ id string }
	// answeredMsg records a quiz answer; caveatMsg its "does NOT prove"
	// answer ("right" or "wrong").
	answeredMsg struct {
		id     string
		answer progress.Answer
	}
	caveatMsg struct{ id, caveat string }
	// practisedMsg records a practice answer (through practice.Record
	// only).
	practisedMsg struct {
		c        practice.Case
		rule     int
		codeName string
	}
	// practiseMsg asks for the practice, from the quiz's summary or the
	// room; leaveMsg leaves the practice for where it came from.
	practiseMsg struct{}
	leaveMsg    struct{}
	// editMsg asks for the open scenario's file in the editor.
	editMsg struct{}
)

// Messages from the root to the modes, through Update.
type (
	// enterMsg makes a mode the active one, from where the last one was:
	// its place and, between the modes that share them, its list.
	enterMsg struct {
		place place
		list  *browsing
	}
	// progressMsg is the learner's progress after a change: the modes
	// read it (the list's answers, the quiz's earlier answers, the
	// practice's boxes), and only the root writes it.
	progressMsg struct{ p progress.Progress }
	// commonMsg is the look after a change of language or theme.
	commonMsg struct{ c common }
	// deckMsg is the scenarios reloaded.
	deckMsg struct{ d *deck }
	// backMsg gives a mode back its scenario after the what-if: as
	// written, walked whole.
	backMsg struct{ place place }
	// leadMsg tells the room where its presenter is while the presenter
	// is in the what-if.
	leadMsg struct{ place place }
	// projectorMsg switches a room's presenter to the projector's
	// layout (on) or back; placeMsg gives the room the projector's place,
	// which leads the room while the projector is shown.
	projectorMsg struct {
		on    bool
		place place
	}
	placeMsg struct{ place place }
)
