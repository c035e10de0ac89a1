package cmd

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Every run pays for package-level work before main, whichever command it
// is: a regexp compiled there was most of repo version's start-up
// (bench/startup.sh). Regexps in repo's packages are compiled on first use
// (internal/lazy's Regexp, or a cache), never in a package-level variable's
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
		if developmentOnly(f) {
			return nil // a development-only command
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
		t.Errorf("%s: a package-level regexp is compiled at every start; compile it on first use (lazy.Regexp)", at)
	}
}

// Nothing of repo's own runs before main that could wait for first use: a
// map literal, a string built from others, fmt.Errorf, a slice computed
// from a table, sync.OnceValue itself — each allocates, and each was paid
// by every run, a pre-commit hook's repo version too (bench/startup.sh).
// The runtime's own account (GODEBUG=inittrace=1) says what each package's
// initialisation allocated; repo's packages must allocate nothing there
// (internal/lazy holds what is computed on first use). Work that does not
// allocate (fileio reading the umask before any goroutine) is not caught.
func TestNothingAllocatedAtStartup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "repo")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/repo-manager/repo/cmd/repo").CombinedOutput(); err != nil {
		t.Fatalf("cannot build repo: %v\n%s", err, out)
	}
	c := exec.Command(bin, "version")
	c.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	c.Stderr = &stderr
	if err := c.Run(); err != nil {
		t.Fatalf("repo version: %v\n%s", err, stderr.Bytes())
	}
	const module = "github.com/repo-manager/repo/"
	seen := 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init PACKAGE @T ms, C ms clock, B bytes, A allocs
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[10] != "allocs" {
			continue
		}
		seen++
		if !strings.HasPrefix(f[1], module) {
			continue
		}
		size, _ := strconv.Atoi(f[7])
		allocs, _ := strconv.Atoi(f[9])
		if allocs != 0 || size != 0 {
			t.Errorf("package %s allocates %d times (%d bytes) when the program starts: compute its package-level values on first use (internal/lazy, a function)", f[1], allocs, size)
		}
	}
	if seen == 0 {
		t.Fatalf("GODEBUG=inittrace=1 printed no init lines:\n%s", stderr.Bytes())
	}
}
