package room

import (
	"testing"
	"time"
)

// No wait in these tests has a short wall-clock deadline: a wait ends on
// the event it waits for, and gives up only near the test's own deadline
// (go test -timeout), so that a busy machine makes a test slower, never
// red.

// patience is how long a wait may last before the test gives up.
func patience(t testing.TB) time.Time {
	if tt, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if d, ok := tt.Deadline(); ok {
			return d.Add(-time.Until(d) / 10)
		}
	}
	return time.Now().Add(5 * time.Minute)
}

// waitUntil polls cond until it holds, or fails the test (call it on the
// test's goroutine only).
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := patience(t)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
