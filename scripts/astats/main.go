// Command astats measures the shape of Go packages, to see whether a
// change made the code easier to carry on: for the packages named, the
// largest function by lines and by cyclomatic complexity, the largest
// file, and the exported package-level names that no other package of
// the module uses. With -type it also counts a type's fields and methods
// and the files its methods are spread over.
//
//	go run ./scripts/astats ./tui
//	go run ./scripts/astats -type toolgate/tui.common -top 5 ./...
//	go run ./scripts/astats -v ./classroom     # list the unused exported names
//
// Test files are left out unless -tests is given: a name used only by a
// test of another package still counts as unused. Package main is left out
// of the exported-name count (nothing can import it). Uses are found with
// go/types, every package of the module type-checked from source and the
// rest read from the compiler's export data (`go list -export`), so a
// method or a field used through a value counts, not only pkg.Name.
//
// Cyclomatic complexity is gocyclo's: 1, plus one for each if, for, range,
// case and select case (not default), && and ||; a function literal's
// branches count toward the function it is written in.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// listed is what `go list -json` says of a package.
type listed struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
	TestGoFiles,
	XTestGoFiles []string
	Export   string
	Standard bool
	DepOnly  bool
	Module   *struct {
		Path string
		Main bool
	}
}

func main() {
	tests := flag.Bool("tests", false, "count _test.go files too (as code of their package)")
	verbose := flag.Bool("v", false, "list every exported name used nowhere outside its package")
	top := flag.Int("top", 1, "show the N largest functions and files")
	var typeNames multi
	flag.Var(&typeNames, "type", "count the fields and methods of `pkgpath.Type` (repeatable)")
	flag.Usage = func() {
		_, _ = fmt.Fprintln(flag.CommandLine.Output(), "usage: astats [-tests] [-v] [-top N] [-type pkg.T] packages...")
		flag.PrintDefaults()
	}
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	if err := run(os.Stdout, patterns, typeNames, *tests, *verbose, *top); err != nil {
		fmt.Fprintln(os.Stderr, "astats:", err)
		os.Exit(1)
	}
}

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

func goList(args ...string) ([]listed, error) {
	cmd := exec.Command("go", append([]string{"list", "-json"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("go list: %v", err)
		}
		pkgs = append(pkgs, p)
	}
}

// pkg is one package of the module, parsed and type-checked.
type pkg struct {
	listed
	files []*ast.File
	types *types.Package
	info  *types.Info
}

// printer writes the report, keeping the first error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

func run(w io.Writer, patterns, typeNames []string, tests, verbose bool, top int) error {
	out := &printer{w: w}
	chosen, err := goList(patterns...)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, p := range chosen {
		want[p.ImportPath] = true
	}
	// Every package of the module, with its dependencies' export data,
	// dependencies first.
	all, err := goList("-export", "-deps", "./...")
	if err != nil {
		return err
	}
	exports := map[string]string{}
	fset := token.NewFileSet()
	var mod []*pkg
	byPath := map[string]*pkg{}
	for _, l := range all {
		exports[l.ImportPath] = l.Export
		if l.Module == nil || !l.Module.Main || l.Standard {
			continue
		}
		p := &pkg{listed: l}
		names := slices.Clone(l.GoFiles)
		if tests {
			names = append(names, l.TestGoFiles...)
		}
		for _, n := range names {
			f, err := parser.ParseFile(fset, filepath.Join(l.Dir, n), nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			p.files = append(p.files, f)
		}
		mod = append(mod, p)
		byPath[l.ImportPath] = p
	}
	gc := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		if exports[path] == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(exports[path])
	}).(types.ImporterFrom)
	imp := moduleImporter{byPath: byPath, gc: gc}
	for _, p := range mod {
		p.info = &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
		conf := types.Config{Importer: imp, Error: func(error) {}}
		p.types, _ = conf.Check(p.ImportPath, fset, p.files, p.info)
	}
	// External tests use a package from outside: parse them as users only.
	var users []*pkg
	users = append(users, mod...)
	if tests {
		for _, l := range all {
			if l.Module == nil || !l.Module.Main || len(l.XTestGoFiles) == 0 {
				continue
			}
			x := &pkg{listed: listed{ImportPath: l.ImportPath + "_test", Dir: l.Dir}}
			for _, n := range l.XTestGoFiles {
				f, err := parser.ParseFile(fset, filepath.Join(l.Dir, n), nil, parser.SkipObjectResolution)
				if err != nil {
					return err
				}
				x.files = append(x.files, f)
			}
			x.info = &types.Info{Uses: map[*ast.Ident]types.Object{}}
			conf := types.Config{Importer: imp, Error: func(error) {}}
			x.types, _ = conf.Check(x.ImportPath, fset, x.files, x.info)
			users = append(users, x)
		}
	}

	var funcs []funcStat
	var files []fileStat
	for _, p := range mod {
		if !want[p.ImportPath] {
			continue
		}
		for _, f := range p.files {
			name := fset.File(f.Pos()).Name()
			rel := relPath(name)
			files = append(files, fileStat{rel, fset.Position(f.End()).Line})
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				start, end := fset.Position(fd.Pos()), fset.Position(fd.End())
				funcs = append(funcs, funcStat{name: funcName(fd), pos: fmt.Sprintf("%s:%d", rel, start.Line),
					lines: end.Line - start.Line + 1, cc: complexity(fd.Body)})
			}
		}
	}
	out.printf("packages: %s\n", strings.Join(sortedKeys(want), " "))
	out.printf("functions: %d, files: %d\n", len(funcs), len(files))
	sort.SliceStable(funcs, func(i, j int) bool { return funcs[i].lines > funcs[j].lines })
	for _, f := range funcs[:min(top, len(funcs))] {
		out.printf("largest function by lines: %s (%s) %d lines, complexity %d\n", f.name, f.pos, f.lines, f.cc)
	}
	sort.SliceStable(funcs, func(i, j int) bool { return funcs[i].cc > funcs[j].cc })
	for _, f := range funcs[:min(top, len(funcs))] {
		out.printf("largest function by complexity: %s (%s) complexity %d, %d lines\n", f.name, f.pos, f.cc, f.lines)
	}
	if len(funcs) > 0 {
		total := 0
		for _, f := range funcs {
			total += f.cc
		}
		out.printf("average complexity: %.1f\n", float64(total)/float64(len(funcs)))
	}
	sort.SliceStable(files, func(i, j int) bool { return files[i].lines > files[j].lines })
	for _, f := range files[:min(top, len(files))] {
		out.printf("largest file: %s %d lines\n", f.name, f.lines)
	}

	exported, unused := unusedExports(mod, users, want)
	out.printf("exported package-level names (package main left out): %d, used nowhere outside their package: %d\n", exported, len(unused))
	if verbose {
		for _, u := range unused {
			out.printf("  unused outside: %s\n", u)
		}
	}
	for _, tn := range typeNames {
		if err := typeStats(out, fset, byPath, tn); err != nil {
			return err
		}
	}
	return out.err
}

// moduleImporter gives the module's own packages as type-checked from
// source (so that their objects are the ones the uses point at), and the
// rest from export data.
type moduleImporter struct {
	byPath map[string]*pkg
	gc     types.ImporterFrom
}

func (m moduleImporter) Import(path string) (*types.Package, error) {
	return m.ImportFrom(path, "", 0)
}

func (m moduleImporter) ImportFrom(path, dir string, mode types.ImportMode) (*types.Package, error) {
	if p, ok := m.byPath[path]; ok && p.types != nil {
		return p.types, nil
	}
	return m.gc.ImportFrom(path, dir, mode)
}

type funcStat struct {
	name, pos string
	lines, cc int
}

type fileStat struct {
	name  string
	lines int
}

func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// complexity is gocyclo's cyclomatic complexity of a body.
func complexity(body *ast.BlockStmt) int {
	n := 1
	ast.Inspect(body, func(node ast.Node) bool {
		switch x := node.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			n++
		case *ast.CaseClause:
			if x.List != nil {
				n++
			}
		case *ast.CommClause:
			if x.Comm != nil {
				n++
			}
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				n++
			}
		}
		return true
	})
	return n
}

// unusedExports counts the chosen packages' exported package-level names
// and lists those no other package of the module uses.
func unusedExports(mod, users []*pkg, want map[string]bool) (exported int, unused []string) {
	usedOutside := map[types.Object]bool{}
	for _, u := range users {
		for _, obj := range u.info.Uses {
			if obj.Pkg() != nil && obj.Pkg().Path() != u.ImportPath {
				usedOutside[obj] = true
			}
		}
	}
	for _, p := range mod {
		if !want[p.ImportPath] || p.Name == "main" || p.types == nil {
			continue
		}
		scope := p.types.Scope()
		for _, name := range scope.Names() {
			obj := scope.Lookup(name)
			if !obj.Exported() {
				continue
			}
			exported++
			if !usedOutside[obj] {
				unused = append(unused, p.ImportPath+"."+name)
			}
		}
	}
	return exported, unused
}

// typeStats counts a type's fields and methods, and the files its
// methods are in.
func typeStats(out *printer, fset *token.FileSet, byPath map[string]*pkg, qualified string) error {
	i := strings.LastIndex(qualified, ".")
	if i < 0 {
		return fmt.Errorf("-type %s: want pkgpath.Type", qualified)
	}
	p, ok := byPath[qualified[:i]]
	if !ok || p.types == nil {
		return fmt.Errorf("-type %s: package %s is not in the module", qualified, qualified[:i])
	}
	obj, ok := p.types.Scope().Lookup(qualified[i+1:]).(*types.TypeName)
	if !ok {
		out.printf("type %s: not found\n", qualified)
		return nil
	}
	named, _ := obj.Type().(*types.Named)
	fields := 0
	if st, ok := obj.Type().Underlying().(*types.Struct); ok {
		fields = st.NumFields()
	}
	files := map[string]bool{}
	methods := 0
	if named != nil {
		methods = named.NumMethods()
		for m := range named.Methods() {
			files[relPath(fset.Position(m.Pos()).Filename)] = true
		}
	}
	out.printf("type %s: %d fields, %d methods over %d files\n", qualified, fields, methods, len(files))
	return nil
}

func relPath(name string) string {
	if wd, err := os.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, name); err == nil {
			return r
		}
	}
	return name
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
