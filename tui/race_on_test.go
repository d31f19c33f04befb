//go:build race

package tui

// raceOn: the race detector makes rendering 5-10 times slower; a test
// that renders thousands of frames on one goroutine (whole_test.go)
// checks fewer sizes under it, having no race to find.
const raceOn = true
