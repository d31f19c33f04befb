package scenarios

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// notTracks are the string literals spelled as a track's name that are
// not one: file and literal, with what they are.
var notTracks = map[[2]string]string{
	{"cli/import.go", "audit"}: "the --audit flag of import transcript",
}

// TestTrackNamesAreReadByTheParserAlone (issue 30, item 6): outside
// track.go no code spells a track's name as a string (to compare it, to
// switch on it, to default a flag to it): it parses a name with
// ParseTrack and uses Track, whose String gives the name back. The
// module's Go files are read, test files and generated ones aside.
func TestTrackNamesAreReadByTheParserAlone(t *testing.T) {
	names := map[string]bool{}
	for _, tr := range Tracks {
		names[tr.String()] = true
	}
	fset := token.NewFileSet()
	var found []string
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, ".."+string(filepath.Separator)))
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && path != ".." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || rel == "scenarios/track.go" {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if field, ok := n.(*ast.Field); ok && field.Tag != nil {
				// A struct tag names a JSON member, not a track; the
				// field's type holds no literal.
				return false
			}
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err == nil && names[s] {
				if _, ok := notTracks[[2]string{rel, s}]; !ok {
					found = append(found, fset.Position(lit.Pos()).String()+": "+lit.Value)
				}
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	assert.Empty(t, found, "a track's name as a string: parse it with ParseTrack, use Track (or its String)")
}
