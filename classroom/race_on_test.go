//go:build race

package classroom

// raceOn: the race detector keeps shadow memory for the heap's peak, so
// resident memory does not come back down under it.
const raceOn = true
