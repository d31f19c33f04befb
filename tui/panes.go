package tui

// body is how a mode fills the space between the header and the footer
// with panes: a left pane (the list, or the what-if's knobs), the walk,
// and a right pane (the inputs, or the knobs).
type body struct {
	left, right func(width, height int) string
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

// bodyLayout is where the panes are: the columns' widths after the side
// panes gave way, and the walk pane built for its width. A mouse click is
// mapped through it to what was drawn.
func (c *common) bodyLayout(b body, height int) (columns, walkPane) {
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

// renderBody lays the panes out for the terminal's width and the body's
// height.
func (c *common) renderBody(b body, height int) string {
	sep := c.styles.Dim.Render(" │ ")
	if b.full {
		return joinColumns(height, "", column{c.renderFullInputs(c.width, height), c.width})
	}
	if cols := columnsFor(c.width); cols.list == 0 && b.listAlone && b.left != nil {
		if cols.inputs > 0 && b.right != nil {
			return joinColumns(height, sep, column{b.left(cols.walk, height), cols.walk}, column{b.right(cols.inputs, height), cols.inputs})
		}
		return joinColumns(height, "", column{b.left(c.width, height), c.width})
	}
	if columnsFor(c.width).inputs == 0 && b.alone && b.right != nil {
		return joinColumns(height, "", column{b.right(c.width, height), c.width})
	}
	cols, pane := c.bodyLayout(b, height)
	if cols.inputs == 0 && cols.list == 0 {
		return joinColumns(height, "", column{c.renderWalkPane(pane, height), c.width})
	}
	var out []column
	if cols.list > 0 {
		out = append(out, column{b.left(cols.list, height), cols.list})
	}
	out = append(out, column{c.renderWalkPane(pane, height), cols.walk})
	if cols.inputs > 0 && b.right != nil {
		out = append(out, column{b.right(cols.inputs, height), cols.inputs})
	}
	return joinColumns(height, sep, out...)
}
