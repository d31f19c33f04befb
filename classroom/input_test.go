package classroom

import (
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func keysOf(evs []uv.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		if k, ok := ev.(uv.KeyPressEvent); ok {
			b.WriteString(k.String())
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func TestKeyDecoder(t *testing.T) {
	t.Parallel()
	var k keyDecoder
	k.add([]byte("jk\x1b[A"))
	assert.Equal(t, "j k up ", keysOf(k.events(false)))

	// A lone escape may start a sequence: it waits, then is the key.
	k.add([]byte("\x1b"))
	assert.Empty(t, k.events(false))
	assert.True(t, k.pending())
	assert.Equal(t, "esc ", keysOf(k.events(true)))
	assert.False(t, k.pending())
}

// Whatever a client sends, the decoder holds at most maxPending bytes
// plus one read: a paste that never ends and an escape sequence that
// never ends are both 2 MB here.
func TestKeyDecoderIsBounded(t *testing.T) {
	t.Parallel()
	for name, start := range map[string]string{"paste": "\x1b[200~", "osc": "\x1b]0;", "dcs": "\x1bP", "csi": "\x1b[1;"} {
		t.Run(name, func(t *testing.T) {
			var k keyDecoder
			k.add([]byte(start))
			k.events(false)
			chunk := []byte(strings.Repeat("x", inputChunk))
			keys := 0
			for range (2 << 20) / inputChunk {
				k.add(chunk)
				keys += len(k.events(false))
				require.LessOrEqual(t, len(k.buf), maxPending+inputChunk)
				require.LessOrEqual(t, cap(k.buf), 2*maxPending+2*inputChunk)
			}
			if name == "paste" {
				assert.Equal(t, 2<<20, keys, "a paste is typed key by key")
			}
		})
	}
}
