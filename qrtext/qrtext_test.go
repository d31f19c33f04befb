package qrtext

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDrawReadsBack: what Draw shows, read back half block by half
// block, is the matrix encoded — every module, the quiet zone too.
func TestDrawReadsBack(t *testing.T) {
	for _, url := range []string{"http://192.168.1.20:8080/?t=abc", "https://lecture.example.edu:8443/?t=" + strings.Repeat("x", 43)} {
		m, err := Matrix(url)
		require.NoError(t, err)
		drawn := Draw(m)
		assert.Len(t, strings.Split(drawn, "\n"), (len(m)+1)/2)
		back, err := Read(drawn, len(m))
		require.NoError(t, err)
		assert.Equal(t, m, back, url)
	}
}

func TestMatrixRefusesADocument(t *testing.T) {
	_, err := Matrix(strings.Repeat("a", MaxURLBytes+1))
	assert.Error(t, err)
	_, err = Read("█x", 2)
	assert.Error(t, err)
}
