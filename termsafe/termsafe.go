// Package termsafe makes text from outside safe to show on a terminal:
// scenario files, tool lists, file names, whatever a client sent. A
// control character (C0, DEL, C1 — ESC among them, which starts every
// escape sequence: a clipboard write, a cleared screen, a new window
// title), a bidirectional control (U+202E turns the rest of a line
// around) or an invisible one (U+200B) is shown as an escape, \x1b or
// \u202e, so that it is seen for what it is and does nothing.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Line escapes s for one line of output: newlines too (a tab stays).
func Line(s string) string { return escape(s, false) }

// Text escapes s for text that may have lines: newlines and tabs stay.
func Text(s string) string { return escape(s, true) }

// unsafe reports whether r must be escaped.
func unsafe(r rune, lines bool) bool {
	switch {
	case r == '\t':
		return false
	case r == '\n':
		return !lines
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	}
	switch r {
	case 0x061c, 0x200e, 0x200f, // bidi marks
		0x202a, 0x202b, 0x202c, 0x202d, 0x202e, // embeddings, overrides
		0x2066, 0x2067, 0x2068, 0x2069, // isolates
		0x200b, 0x2060, 0xfeff: // invisible: zero width space, word joiner, BOM
		return true
	}
	return false
}

func escape(s string, lines bool) string {
	clean := true
	for i, r := range s {
		if unsafe(r, lines) || (r == utf8.RuneError && !validAt(s, i)) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !validAt(s, i):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !unsafe(r, lines):
			b.WriteRune(r)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// validAt reports whether the rune at s[i] is a real U+FFFD, not a byte
// that is not UTF-8.
func validAt(s string, i int) bool {
	_, n := utf8.DecodeRuneInString(s[i:])
	return n == 3
}
