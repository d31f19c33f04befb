package tui

import (
	"regexp"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"toolgate/nav"
)

// The mouse: the wheel scrolls the pane being read, a click on a scenario
// in the list opens it, and a click on a rule reveals the walk up to it.
// A click is mapped through the panes as the mode last laid them out and
// read off the lines they show, so it lands on what the learner sees.
// --no-mouse leaves the terminal's own selection alone.

var (
	listItem = regexp.MustCompile(`^[>» ] ([0-9]+) `)
	ruleHead = regexp.MustCompile(`^ [✓➤·-] +([0-9]+) `)
)

// wheel scrolls three lines: the inputs in full while they are open, else
// the main pane.
func (o overlays) wheel(p *place, msg tea.MouseWheelMsg) {
	delta := 3
	if msg.Button == tea.MouseWheelUp {
		delta = -3
	}
	if o.full {
		p.inputsScroll += delta
		return
	}
	p.scroll += delta
}

// click opens the scenario or reveals the rule under the pointer, in a
// mode that browses; step says whether a click may reveal steps now (not
// while a question waits). It reports whether a scenario was opened.
func (b browsing) click(ps panes, c scene, p *place, bd body, msg tea.MouseClickMsg, step bool) (opened bool) {
	height := c.height - 2
	row := msg.Y - 1 // under the header
	if msg.Button != tea.MouseLeft || b.busy() || !p.has() || ps.plan.kind != planColumns ||
		row < 0 || row >= height || c.layout() == layoutTooSmall {
		return false
	}
	cols := ps.plan.cols
	walkX := 0
	if cols.list > 0 {
		walkX = cols.list + sepWidth
		if msg.X < cols.list {
			if g := listItem.FindStringSubmatch(lineAt(bd.left(cols.list, height), row)); g != nil {
				n, _ := strconv.Atoi(g[1])
				for i, s := range p.inTrack() {
					if s.Number == n {
						p.navigate(nav.Action{Kind: nav.Select, Track: p.at.Track, N: i})
					}
				}
				return true
			}
			return false
		}
	}
	if !step || msg.X < walkX || msg.X >= walkX+cols.walk {
		return false
	}
	if g := ruleHead.FindStringSubmatch(lineAt(ps.main.View(), row)); g != nil {
		n, _ := strconv.Atoi(g[1])
		if n > p.walk.Decisive {
			n = p.lastStep() // a rule after the one that fired: the verdict
		}
		p.setStep(n)
	}
	return false
}

// lineAt is a pane's line at a row, as the learner reads it.
func lineAt(pane string, row int) string {
	lines := strings.Split(pane, "\n")
	if row >= len(lines) {
		return ""
	}
	return ansi.Strip(lines[row])
}
