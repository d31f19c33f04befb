// Command trackbranches counts the places where the code branches on a
// scenario's track: what a new track must visit. A branch point is
//
//   - a switch with a case naming a track constant (TrackAdmission,
//     TrackAudit, TrackOutcome) or on a .Track value;
//   - a type switch over a track's value: a walk's result or a scenario's
//     case (a case naming assess.Verdict, an *Answer or a *Case type);
//   - a type assertion to one track's type (x.(walk.AdmissionAnswer),
//     x.(assess.Verdict) on a walk's result), outside a type switch;
//   - a comparison (== or !=) with a track constant, outside such a switch;
//   - a map literal keyed by track constants.
//
// It reads the syntax only (no types), so the same count runs on any
// commit. Test files and generated files are left out.
//
//	go run ./scripts/trackbranches          # the total and the files
//	go run ./scripts/trackbranches -v       # every branch point
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

var trackConst = map[string]bool{"TrackAdmission": true, "TrackAudit": true, "TrackOutcome": true}

// trackTypes name the per-track values a type switch may branch on.
var trackTypes = map[string]bool{
	"Verdict": true, "AuditAnswer": true, "OutcomeAnswer": true, "AdmissionAnswer": true,
	"AdmissionCase": true, "AuditCase": true, "OutcomeCase": true,
}

func main() {
	verbose := flag.Bool("v", false, "list every branch point")
	flag.Parse()
	root := "."
	if flag.NArg() > 0 {
		root = flag.Arg(0)
	}
	fset := token.NewFileSet()
	var points []string
	files := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		for _, pos := range branches(f) {
			p := fset.Position(pos)
			points = append(points, fmt.Sprintf("%s:%d", p.Filename, p.Line))
			files[p.Filename]++
		}
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "trackbranches:", err)
		os.Exit(1)
	}
	sort.Strings(points)
	if *verbose {
		for _, p := range points {
			fmt.Println(p)
		}
	}
	fmt.Printf("%d track branch points in %d files\n", len(points), len(files))
}

func isTrackConst(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return trackConst[e.Name]
	case *ast.SelectorExpr:
		return trackConst[e.Sel.Name]
	}
	return false
}

func mentionsTrackConst(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && isTrackConst(e) {
			found = true
		}
		return !found
	})
	return found
}

func isTrackValue(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		return e.Sel.Name == "Track"
	case *ast.CallExpr:
		if s, ok := e.Fun.(*ast.SelectorExpr); ok {
			return s.Sel.Name == "Track"
		}
	}
	return false
}

func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return typeName(e.X)
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}

func branches(f *ast.File) []token.Pos {
	var out []token.Pos
	inCase := map[ast.Node]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SwitchStmt:
			hit := n.Tag != nil && isTrackValue(n.Tag)
			for _, c := range n.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					if mentionsTrackConst(e) {
						hit = true
					}
					ast.Inspect(e, func(m ast.Node) bool { inCase[m] = true; return true })
				}
			}
			if hit {
				out = append(out, n.Pos())
			}
		case *ast.TypeSwitchStmt:
			for _, c := range n.Body.List {
				hit := false
				for _, e := range c.(*ast.CaseClause).List {
					if trackTypes[typeName(e)] {
						hit = true
					}
				}
				if hit {
					out = append(out, n.Pos())
					break
				}
			}
		case *ast.TypeAssertExpr:
			if n.Type != nil && trackTypes[typeName(n.Type)] {
				out = append(out, n.Pos())
			}
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && !inCase[n] && (isTrackConst(n.X) || isTrackConst(n.Y)) {
				out = append(out, n.Pos())
			}
		case *ast.CompositeLit:
			if _, ok := n.Type.(*ast.MapType); ok {
				for _, e := range n.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok && isTrackConst(kv.Key) {
						out = append(out, n.Pos())
						break
					}
				}
			}
		}
		return true
	})
	return out
}
