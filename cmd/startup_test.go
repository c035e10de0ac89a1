package cmd

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// Every run pays for package-level work before main, whichever command it
// is: a regexp compiled there was most of repo version's start-up
// (bench/startup.sh). Regexps in repo's packages are compiled on first use
// (sync.OnceValue, or a cache), never in a package-level variable's
// initialiser. Tests and the development-only commands (repodev) may.
func TestNoRegexpCompiledAtStartup(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var found []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, g := range f.Comments {
			for _, c := range g.List {
				if c.Pos() < f.Package && strings.HasPrefix(c.Text, "//go:build ") && strings.Contains(c.Text, "repodev") && !strings.Contains(c.Text, "!repodev") {
					return nil // a development-only command
				}
			}
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					var visit func(n ast.Node) bool
					visit = func(n ast.Node) bool {
						switch n := n.(type) {
						case *ast.CallExpr:
							if fl, ok := n.Fun.(*ast.FuncLit); ok {
								ast.Inspect(fl.Body, visit) // called right away, at start-up
								for _, a := range n.Args {
									ast.Inspect(a, visit)
								}
								return false
							}
						case *ast.FuncLit:
							return false // runs when called, not at start-up
						case *ast.SelectorExpr:
							if x, ok := n.X.(*ast.Ident); ok && x.Name == "regexp" && strings.HasSuffix(n.Sel.Name, "Compile") {
								rel, _ := filepath.Rel(root, path)
								found = append(found, rel+":"+strings.TrimPrefix(fset.Position(n.Pos()).String(), path+":"))
							}
						}
						return true
					}
					ast.Inspect(v, visit)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range found {
		t.Errorf("%s: a package-level regexp is compiled at every start; compile it on first use (sync.OnceValue)", at)
	}
}
