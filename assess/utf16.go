package assess

import (
	"slices"
	"unicode/utf8"
)

// SortUTF16 sorts strings as Java's TreeSet<String> and JavaScript's
// default sort do: by UTF-16 code units. It differs from byte order (and
// code point order) only between a character above U+FFFF and one from
// U+E000 to U+FFFF: "😀" (a surrogate pair, D83D DE00) sorts before "Ａ"
// (U+FF21), whose UTF-8 bytes are smaller.
func SortUTF16(list []string) { slices.SortFunc(list, CompareUTF16) }

// CompareUTF16 compares a and b by UTF-16 code units: -1, 0 or +1. Both
// must be valid UTF-8 (the input check refuses any other text).
func CompareUTF16(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == len(a) || i == len(b) {
		return cmpInt(len(a), len(b))
	}
	// Back to the start of the rune the strings first differ in.
	for i > 0 && !utf8.RuneStart(a[i]) {
		i--
	}
	ra, _ := utf8.DecodeRuneInString(a[i:])
	rb, _ := utf8.DecodeRuneInString(b[i:])
	if (ra >= 0x10000) == (rb >= 0x10000) {
		return cmpInt(int(ra), int(rb)) // both one unit, or both a pair
	}
	return cmpInt(int(utf16Unit(ra)), int(utf16Unit(rb)))
}

// utf16Unit is the first UTF-16 code unit of r.
func utf16Unit(r rune) rune {
	if r >= 0x10000 {
		return 0xD800 + (r-0x10000)>>10
	}
	return r
}

func cmpInt(x, y int) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
