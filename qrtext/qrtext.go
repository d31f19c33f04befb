// Package qrtext draws a QR code in text: two rows of modules a line,
// with half blocks (▀ ▄ █), for a terminal to show a link a phone can
// scan. The matrix is github.com/skip2/go-qrcode's; the drawing is ours,
// and Read reads it back.
package qrtext

import (
	"errors"
	"strings"

	qrcode "github.com/skip2/go-qrcode"
)

// MaxURLBytes bounds what is encoded: a link, not a document.
const MaxURLBytes = 256

// Matrix is the QR code of text, with its quiet zone (true: a dark
// module), at the medium level of error correction.
func Matrix(text string) ([][]bool, error) {
	if len(text) > MaxURLBytes {
		return nil, errors.New("qr: text longer than 256 bytes")
	}
	q, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return nil, err
	}
	return q.Bitmap(), nil
}

// Draw is a matrix drawn light on dark, as a phone reads a terminal of
// light text on a dark background: a light module is a lit half cell,
// a dark one a blank half. An odd last row is drawn with the quiet zone
// below it.
func Draw(m [][]bool) string {
	var b strings.Builder
	for y := 0; y < len(m); y += 2 {
		if y > 0 {
			b.WriteByte('\n')
		}
		for x := range m[y] {
			top := !m[y][x]
			bottom := true
			if y+1 < len(m) {
				bottom = !m[y+1][x]
			}
			switch {
			case top && bottom:
				b.WriteString("█")
			case top:
				b.WriteString("▀")
			case bottom:
				b.WriteString("▄")
			default:
				b.WriteByte(' ')
			}
		}
	}
	return b.String()
}

// Text is Draw(Matrix(text)).
func Text(text string) (string, error) {
	m, err := Matrix(text)
	if err != nil {
		return "", err
	}
	return Draw(m), nil
}

// Read reads a drawing back into its matrix (true: dark), rows rows
// high: the inverse of Draw, for tests and for anyone who wants to check
// what a screen shows. A character that is not a half block or a space
// is an error.
func Read(drawn string, rows int) ([][]bool, error) {
	lines := strings.Split(drawn, "\n")
	m := make([][]bool, 0, rows)
	for _, line := range lines {
		var top, bottom []bool
		for _, r := range line {
			var t, u bool // lit halves
			switch r {
			case '█':
				t, u = true, true
			case '▀':
				t = true
			case '▄':
				u = true
			case ' ':
			default:
				return nil, errors.New("qr: not a half block: " + string(r))
			}
			top, bottom = append(top, !t), append(bottom, !u)
		}
		m = append(m, top)
		if len(m) < rows {
			m = append(m, bottom)
		}
	}
	if len(m) != rows {
		return nil, errors.New("qr: the drawing has another height")
	}
	return m, nil
}
