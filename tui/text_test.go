package tui

import (
	"image/color"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"toolgate/look"
)

// TestEveryTextExists finds every text key the package uses — tr("key")
// and the key help's "kName" — and checks it has both languages: a
// missing key renders as an empty string, which no snapshot of the common
// paths might show. Mode names are looked up by the mode's name.
func TestEveryTextExists(t *testing.T) {
	re := regexp.MustCompile(`tr\("([A-Za-z]+)"|"(k[A-Z][A-Za-z]*)"\)`)
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]string{}
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), "_test.go") || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		data, err := os.ReadFile(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			used[m[1]+m[2]] = e.Name()
		}
	}
	delete(used, "mode")
	for md := modeWalk; md <= modeRoom; md++ {
		used["mode"+md.String()] = "model.go"
	}
	assert.Greater(t, len(used), 60, "the search finds the texts")
	for k, file := range used {
		text, ok := ui[k]
		if assert.True(t, ok, "%s uses %q, which is not in ui", file, k) {
			assert.NotEmpty(t, text[0], k)
			assert.NotEmpty(t, text[1], k)
		}
	}
}

// luminance is WCAG 2's relative luminance of a colour.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	ch := func(v uint32) float64 {
		x := float64(v) / 0xffff
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(r) + 0.7152*ch(g) + 0.0722*ch(b)
}

func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

type rgb struct{ r, g, b uint8 }

func (c rgb) RGBA() (r, g, b, a uint32) {
	return uint32(c.r) * 0x101, uint32(c.g) * 0x101, uint32(c.b) * 0x101, 0xffff
}

// TestTextContrast: every colour that carries text — the footer and help,
// secondary text, the status colours — keeps at least 4.5:1 against the
// backgrounds a dark or light terminal has (WCAG AA), and 7:1 in the
// high-contrast theme (AAA), the projector's.
func TestTextContrast(t *testing.T) {
	darkBGs := []color.Color{rgb{0, 0, 0}, rgb{0x1e, 0x1e, 0x1e}, rgb{0x28, 0x2c, 0x34}}
	lightBGs := []color.Color{rgb{0xff, 0xff, 0xff}, rgb{0xf5, 0xf5, 0xf5}}
	check := func(name string, p look.Palette, bgs []color.Color, min float64) {
		for _, bg := range bgs {
			for label, c := range map[string]color.Color{"dim": p.Dim, "accent": p.Accent, "green": p.Green,
				"red": p.Red, "amber": p.Amber, "magenta": p.Magenta} {
				assert.GreaterOrEqual(t, contrast(c, bg), min, "%s %s on %v", name, label, bg)
			}
		}
		s := helpStyles(p, false)
		for _, st := range []interface{ GetForeground() color.Color }{s.ShortKey, s.ShortDesc, s.FullKey, s.FullDesc} {
			for _, bg := range bgs {
				assert.GreaterOrEqual(t, contrast(st.GetForeground(), bg), min, "%s help on %v", name, bg)
			}
		}
	}
	check("dark", look.DarkPalette(), darkBGs, 4.5)
	check("light", look.LightPalette(), lightBGs, 4.5)
	check("high-contrast dark", look.HighContrastPalette(true), darkBGs[:2], 7)
	check("high-contrast light", look.HighContrastPalette(false), lightBGs, 7)
}
