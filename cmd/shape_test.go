package cmd

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// maxFunctionLines is the longest a function of the product may be, from
// its func line to its closing brace (issue 21): a longer one does more
// than one job, and is split into functions that each name theirs.
const maxFunctionLines = 80

// Every function of the product — the packages the repo binary is built
// from, on any operating system — fits in maxFunctionLines. Tests,
// generated files and the development-only commands (repodev) are not the
// product; nor are the conformance harness, the benchmarks and the
// generators, which the binary does not link.
func TestProductFunctionsAreShort(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if .Module}}{{if .Module.Main}}{{.Dir}}{{end}}{{end}}", "github.com/repo-manager/repo/cmd/repo").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dirs := strings.Fields(string(out))
	if len(dirs) < 10 {
		t.Fatalf("go list named only %d of repo's packages: %q", len(dirs), dirs)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			if ast.IsGenerated(f) || developmentOnly(f) {
				continue
			}
			for _, decl := range f.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok || fn.Body == nil {
					continue
				}
				checked++
				start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
				if n := end.Line - start.Line + 1; n > maxFunctionLines {
					t.Errorf("%s: %s is %d lines long, more than %d: split it into functions that each do one job", start, fn.Name.Name, n, maxFunctionLines)
				}
			}
		}
	}
	if checked < 500 {
		t.Fatalf("only %d functions checked in %d packages: the test no longer finds the product's files", checked, len(dirs))
	}
}

// developmentOnly reports whether f is built only with the repodev tag.
func developmentOnly(f *ast.File) bool {
	for _, g := range f.Comments {
		for _, c := range g.List {
			if c.Pos() < f.Package && strings.HasPrefix(c.Text, "//go:build ") && strings.Contains(c.Text, "repodev") && !strings.Contains(c.Text, "!repodev") {
				return true
			}
		}
	}
	return false
}
