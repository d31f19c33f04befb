package config

import (
	"crypto/rand"
	_ "embed"
	"math"
	"math/big"
	"strings"
	"sync"
	"unicode"
)

//go:embed words.txt
var wordsFile string

// StrongBits is the least guessing work, in bits, a code should take: a
// code that is weaker is said so at start.
const StrongBits = 40

// codeWords is how many words a generated code has: four of 2,848 words
// are 45.9 bits.
const codeWords = 4

var words = sync.OnceValue(func() []string {
	var out []string
	for _, line := range strings.Split(wordsFile, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
})

// NewCode is a code of four words, such as amber-otter-violet-maple,
// each drawn at random (crypto/rand): easy to read off a projector and to
// type, and out of reach of guessing (CodeBits of it is about 46).
func NewCode() string {
	list := words()
	parts := make([]string, codeWords)
	for i := range parts {
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(list))))
		if err != nil {
			panic(err) // crypto/rand does not fail on a supported system
		}
		parts[i] = list[n.Int64()]
	}
	return strings.Join(parts, "-")
}

// CodeBits estimates the guessing work of a code, in bits: a code of
// this package's words counts its words, any other its length times the
// bits of the kinds of characters it uses. It is an upper bound for a
// code a person chose (tulip: 23.5).
func CodeBits(code string) float64 {
	list := words()
	if parts := strings.Split(code, "-"); len(parts) > 1 {
		known := true
		for _, p := range parts {
			if !isWord(list, p) {
				known = false
				break
			}
		}
		if known {
			return float64(len(parts)) * math.Log2(float64(len(list)))
		}
	}
	var lower, upper, digit, other bool
	n := 0
	for _, r := range code {
		n++
		switch {
		case unicode.IsLower(r):
			lower = true
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsDigit(r):
			digit = true
		default:
			other = true
		}
	}
	pool := 0
	for _, k := range []struct {
		on   bool
		size int
	}{{lower, 26}, {upper, 26}, {digit, 10}, {other, 33}} {
		if k.on {
			pool += k.size
		}
	}
	if pool == 0 {
		return 0
	}
	return float64(n) * math.Log2(float64(pool))
}

func isWord(list []string, w string) bool {
	for _, v := range list {
		if v == w {
			return true
		}
	}
	return false
}
