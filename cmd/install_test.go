package cmd

import (
	"archive/zip"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// devTag is the build tag of the development-only commands (see the
// Makefile's DEVTAGS).
const devTag = "repodev"

// TestGoInstallBuildsOnlyRepo checks that the module's only main package
// without the development tag is cmd/repo: pre-commit's golang hooks run
// `go install ./...` in this repository, and every other main package would
// be built on the user's machine and put on the hook's PATH. A new file in
// conformance/ or a new generator without `//go:build repodev` fails here.
// With the tag, the development commands are all still there.
func TestGoInstallBuildsOnlyRepo(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed")
	}
	mains := func(tags ...string) []string {
		t.Helper()
		args := append([]string{"list"}, tags...)
		args = append(args, "-f", "{{if eq .Name \"main\"}}{{.ImportPath}}{{end}}", "./...")
		c := exec.Command("go", args...)
		c.Dir = ".."
		out, err := c.Output()
		if err != nil {
			stderr := ""
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr)
		}
		return strings.Fields(string(out))
	}
	const module = "github.com/repo-manager/repo/"
	if got, want := mains(), []string{module + "cmd/repo"}; !slices.Equal(got, want) {
		t.Errorf("main packages without -tags %s: %v, want only %v; give every development-only command `//go:build %s`", devTag, got, want, devTag)
	}
	dev := mains("-tags", devTag)
	for _, want := range []string{"bench/gen", "cmd/repo", "toolprofiles/internal/gendocs", "toolprofiles/internal/genprofiles"} {
		if !slices.Contains(dev, module+want) {
			t.Errorf("main packages with -tags %s: %v, missing %s", devTag, dev, want)
		}
	}
}

// TestGoInstallVersion installs repo as `go install
// github.com/repo-manager/repo/cmd/repo@v1.2.3` does, from a module proxy in
// a folder that serves this working tree as v1.2.3 (its dependencies come
// from the local module cache): built without ldflags, repo version and
// repo --version report the module version.
func TestGoInstallVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds repo (-short)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed")
	}
	const module, v = "github.com/repo-manager/repo", "v1.2.3"
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy", filepath.FromSlash(module), "@v")
	if err := os.MkdirAll(proxy, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join("..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	var zipped bytes.Buffer
	zw := zip.NewWriter(&zipped)
	for _, f := range moduleFiles(t) {
		// What the module zip of a tag holds, less the test data, which no
		// build reads (embedded files are kept).
		if strings.Contains("/"+f, "/testdata/") {
			continue
		}
		data, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(module + "@" + v + "/" + f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"list":      []byte(v + "\n"),
		v + ".info": []byte(`{"Version":"` + v + `","Time":"2026-11-01T00:00:00Z"}`),
		v + ".mod":  gomod,
		v + ".zip":  zipped.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(proxy, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tmp, "bin")
	install := exec.Command("go", "install", module+"/cmd/repo@"+v)
	install.Dir = tmp
	install.Env = append(os.Environ(), "GOBIN="+bin, "GOMODCACHE="+filepath.Join(tmp, "gomodcache"), "GOFLAGS=-modcacherw",
		"GOPROXY="+fileURL(filepath.Join(tmp, "proxy"))+","+fileURL(filepath.Join(strings.TrimSpace(string(modcache)), "cache", "download"))+",off",
		"GOSUMDB=off", "GONOSUMDB=", "GOPRIVATE=", "GOTOOLCHAIN=local")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install %s/cmd/repo@%s: %v\n%s", module, v, err, out)
	}
	want := regexp.MustCompile(`^repo v1\.2\.3 \(unknown, go[^)]+\)\n$`)
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, err := exec.Command(filepath.Join(bin, exeName("repo")), args...).Output()
		if err != nil || !want.Match(out) {
			t.Errorf("repo %s: %q, %v; want %s", strings.Join(args, " "), out, err, want)
		}
	}
	out, err := exec.Command(filepath.Join(bin, exeName("repo")), "version", "-q").Output()
	if err != nil || string(out) != v+"\n" {
		t.Errorf("repo version -q: %q, %v; want %s", out, err, v)
	}
}

// TestBuildVersionFromVCS builds repo with `go build` and no ldflags in a
// clone of this repository: repo version reports the version and commit Go
// stamped from git (vcs.revision). A clone, because Go stamps nothing in a
// git worktree (.git is a file there).
func TestBuildVersionFromVCS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds repo (-short)")
	}
	for _, tool := range []string{"go", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	clone := filepath.Join(t.TempDir(), "clone")
	if out, err := exec.Command("git", "clone", "-q", "..", clone).CombinedOutput(); err != nil {
		t.Skipf("not a git checkout: git clone: %v\n%s", err, out)
	}
	head := exec.Command("git", "rev-parse", "HEAD")
	head.Dir = clone
	rev, err := head.Output()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(clone, exeName("repo"))
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, "./cmd/repo")
	build.Dir = clone
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -buildvcs=true: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	// Go (1.24 on) stamps the tag, or a pseudo-version ending in the commit.
	want := regexp.MustCompile(`^repo v\S+ \(` + string(rev[:12]) + `, go[^)]+\)\n$`)
	if !want.Match(out) {
		t.Errorf("repo version: %q, want %s", out, want)
	}
}
