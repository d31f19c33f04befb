package tui

// body is how a mode fills the space between the header and the footer
// with panes: a left pane (the list, or the what-if's knobs), the walk,
// and a right pane (the inputs, or the knobs).
type body struct {
	// left and right are panes that do not scroll, drawn as they are;
	// inputs puts the inputs, which scroll, on the right instead.
	left, right func(width, height int) string
	inputs      bool
	extras      walkExtras
	// giveWay lets the side panes give their width to the walk at the
	// verdict, so that the verdict is whole on a small screen; the
	// what-if keeps its knobs instead.
	giveWay bool
	// alone shows one pane in the one-column layout: the right pane when
	// set (tab), else the walk.
	alone bool
	// full shows the whole input, every value whole, instead of the
	// panes.
	full bool
	// listAlone shows the list in the walk's place where there is no
	// list column: the filter is typed, and what it matches is seen.
	listAlone bool
}

func (b body) hasRight() bool { return b.right != nil || b.inputs }

// planKind is which panes a body shows.
type planKind int

const (
	planColumns planKind = iota // the walk, with the list and the right pane where they fit
	planCover                   // one pane over the whole body: the path to allowed
	planFull                    // the inputs in full
	planList                    // the list alone (its filter typed), the right pane beside it where there is room
	planRight                   // the right pane alone (tab in one column)
)

// plan is where the panes are, as the last fill laid them out.
type plan struct {
	kind planKind
	cols columns
}

// panes are a mode's panes as state: the plan and the two panes that
// scroll, the main one (the walk, or what covers it) and the inputs. fill
// lays them out and fills them in Update; draw only joins them, in View.
type panes struct {
	plan         plan
	main, inputs scroller
}

func newPanes() panes { return panes{main: newScroller(), inputs: newScroller()} }

// fill lays a body out for the terminal's width and the body's height
// and fills the panes that scroll, keeping the place's offsets as they
// took effect. An offset no pane shows is left as it is.
func (ps *panes) fill(c common, p *place, b body, height int) {
	s := scene{c, *p}
	width := c.width
	cols := columnsFor(width)
	switch {
	case b.full:
		ps.plan = plan{kind: planFull}
		lines, anchor := s.fullInputs(width)
		p.inputsScroll = ps.inputs.fill(lines, width, height, anchor, anchor+1, p.inputsScroll, c.scrollHint)
	case cols.list == 0 && b.listAlone && b.left != nil:
		ps.plan = plan{kind: planList, cols: cols}
		if cols.inputs > 0 && b.inputs {
			ps.fillInputs(s, p, cols.inputs, height)
		}
	case cols.inputs == 0 && b.alone && b.hasRight():
		ps.plan = plan{kind: planRight}
		if b.inputs {
			ps.fillInputs(s, p, width, height)
		}
	default:
		cols, pane := s.bodyLayout(b, height)
		ps.plan = plan{kind: planColumns, cols: cols}
		lines, anchor, end := pane.fit(height)
		p.scroll = ps.main.fill(lines, pane.width, height, anchor, end, p.scroll, c.scrollHint)
		if cols.inputs > 0 && b.inputs {
			ps.fillInputs(s, p, cols.inputs, height)
		}
	}
}

func (ps *panes) fillInputs(s scene, p *place, width, height int) {
	lines, anchor := s.inputsPane(width, height)
	p.inputsScroll = ps.inputs.fill(lines, width, height, anchor, anchor+1, p.inputsScroll, s.scrollHint)
}

// cover fills the main pane with lines over the whole body (the path to
// allowed), scrolled by the learner from the top.
func (ps *panes) cover(c common, p *place, lines []string, height int) {
	ps.plan = plan{kind: planCover}
	p.scroll = ps.main.fill(lines, c.width, height, 0, 0, p.scroll, c.scrollHint)
}

// draw joins the panes as the last fill laid them out; b is the body
// that fill was given, for the panes that do not scroll.
func (ps panes) draw(c common, b body, height int) string {
	sep := c.styles.Dim.Render(" │ ")
	width := c.width
	right := func(w, h int) string {
		if b.inputs {
			return ps.inputs.View()
		}
		return b.right(w, h)
	}
	cols := ps.plan.cols
	switch ps.plan.kind {
	case planCover:
		return joinColumns(height, "", column{ps.main.View(), width})
	case planFull:
		return joinColumns(height, "", column{ps.inputs.View(), width})
	case planList:
		if cols.inputs > 0 && b.hasRight() {
			return joinColumns(height, sep, column{b.left(cols.walk, height), cols.walk}, column{right(cols.inputs, height), cols.inputs})
		}
		return joinColumns(height, "", column{b.left(width, height), width})
	case planRight:
		return joinColumns(height, "", column{right(width, height), width})
	case planColumns: // below
	}
	if cols.inputs == 0 && cols.list == 0 {
		return joinColumns(height, "", column{ps.main.View(), width})
	}
	var out []column
	if cols.list > 0 {
		out = append(out, column{b.left(cols.list, height), cols.list})
	}
	out = append(out, column{ps.main.View(), cols.walk})
	if cols.inputs > 0 && b.hasRight() {
		out = append(out, column{right(cols.inputs, height), cols.inputs})
	}
	return joinColumns(height, sep, out...)
}

// bodyLayout is where the panes are: the columns' widths after the side
// panes gave way, and the walk pane built for its width.
func (c scene) bodyLayout(b body, height int) (columns, walkPane) {
	cols := columnsFor(c.width)
	if b.left == nil {
		cols.walk += cols.list
		if cols.list > 0 {
			cols.walk += sepWidth
		}
		cols.list = 0
	}
	if cols.inputs == 0 {
		return columns{walk: c.width}, c.buildWalkPane(c.width, b.extras)
	}
	pane := c.buildWalkPane(cols.walk, b.extras)
	if b.giveWay && c.reached() && !pane.fitsIn(height) {
		tries := []columns{{walk: c.width}}
		if cols.list > 0 {
			// The list gives way first, then the inputs.
			tries = []columns{{walk: cols.walk + cols.list + sepWidth, inputs: cols.inputs}, {walk: c.width}}
		}
		for _, try := range tries {
			if try.walk == cols.walk {
				continue
			}
			cols = try
			pane = c.buildWalkPane(cols.walk, b.extras)
			if pane.fitsIn(height) {
				break
			}
		}
	}
	return cols, pane
}
