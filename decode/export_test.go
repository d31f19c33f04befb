package decode

import "io"

// NewStream, for tests, reads values from r, each at most DefaultMaxValue bytes.
func NewStream(r io.Reader) *Stream { return NewStreamMax(r, DefaultMaxValue) }
