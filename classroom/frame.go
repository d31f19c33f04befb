package classroom

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// frameInterval is the least time between two views a session computes:
// about one frame at 60 Hz.
const frameInterval = 16 * time.Millisecond

// coalesced draws a session at most once a frame. Bubble Tea computes
// the whole view after every message, and a view of the trainer costs far
// more than a key: a client that sends keys (or mouse motion) as fast as
// it may would keep a core busy redrawing frames nobody sees. Between two
// frames the last view is shown again, and a tick makes sure the newest
// state is drawn once the frame is over.
type coalesced struct {
	inner tea.Model
	every time.Duration
	// st is shared by the copies Bubble Tea makes of the model: one
	// program, one goroutine, so it needs no lock.
	st *frameState
	// saw is told of each view computed (tests).
	saw func()
}

type frameState struct {
	view           tea.View
	last           time.Time
	have, dirty    bool
	pending, force bool
}

// frameMsg asks for the view to be computed again.
type frameMsg struct{}

func newCoalesced(inner tea.Model, every time.Duration, saw func()) coalesced {
	if every <= 0 {
		every = frameInterval
	}
	return coalesced{inner: inner, every: every, st: &frameState{}, saw: saw}
}

func (c coalesced) Init() tea.Cmd { return c.inner.Init() }

func (c coalesced) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(frameMsg); ok {
		c.st.pending, c.st.force = false, true
		return c, nil
	}
	inner, cmd := c.inner.Update(msg)
	c.inner = inner
	c.st.dirty = true
	if since := time.Since(c.st.last); c.st.have && since < c.every && !c.st.pending {
		c.st.pending = true
		cmd = tea.Batch(cmd, tea.Tick(c.every-since, func(time.Time) tea.Msg { return frameMsg{} }))
	}
	return c, cmd
}

func (c coalesced) View() tea.View {
	st := c.st
	if !st.have || st.force || (st.dirty && time.Since(st.last) >= c.every) {
		st.view = c.inner.View()
		if c.saw != nil {
			c.saw()
		}
		st.last = time.Now()
		st.have, st.dirty, st.force = true, false, false
	}
	return st.view
}
