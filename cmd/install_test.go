package cmd

import (
	"os/exec"
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
