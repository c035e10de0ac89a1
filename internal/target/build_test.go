package target

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/translator"
)

// A profile with no file for the scope on this OS is skipped, and the
// profiles after it are still built; two tools sharing a file make one
// target that lists both.
func TestBuildSkipsProfilesWithoutAFileHere(t *testing.T) {
	profile := func(id, paths string) *toolprofiles.Profile {
		t.Helper()
		p, err := toolprofiles.Decode([]byte(`id = "`+id+`"
name = "`+id+`"
mcp = true
evidence = "unverified"
sources = ["test"]
[scopes.user]
`+paths+`
format = "json"
key = ["mcpServers"]
`), id+".toml")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	profiles := []*toolprofiles.Profile{
		profile("winonly", "paths = [\"~/win.json\"]\nunsupported_os = [\"linux\"]"),
		profile("a", `paths = ["~/shared.json"]`),
		profile("b", `paths = ["~/shared.json"]`),
	}
	home := t.TempDir()
	env := Env{Root: t.TempDir(), Env: toolprofiles.Env{Home: home, GOOS: "linux", Getenv: func(string) string { return "" }}}
	servers := []extensions.Server{{Name: "s", Extension: "e", Spec: extensions.Spec{Transport: "stdio", Command: "node"}}}
	targets, _, err := Build(servers, profiles, toolprofiles.ScopeUser, env)
	if err != nil {
		t.Fatal(err)
	}
	if len(targets) != 1 || targets[0].Path != home+"/shared.json" || len(targets[0].Tools) != 2 || len(targets[0].Entries) != 1 {
		t.Fatalf("got %d targets: %+v", len(targets), targets)
	}
}

// A workspace's profile never shapes a file outside the workspace, even
// when a host program hands one to Build for the local or user scope.
func TestBuildRefusesWorkspaceProfileOutsideProject(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".repository", "toolprofiles")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "claude.toml"), []byte(`id = "claude"
name = "Claude (team)"
mcp = true
evidence = "unverified"
sources = ["test"]
[scopes.project]
paths = [".mcp.json"]
format = "json"
key = ["mcpServers"]
`), 0o644)
	set, err := toolprofiles.Load(root, toolprofiles.Env{})
	if err != nil {
		t.Fatal(err)
	}
	env := Env{Root: root, Env: toolprofiles.Env{Home: t.TempDir(), GOOS: "linux", Getenv: func(string) string { return "" }}}
	servers := []extensions.Server{{Name: "s", Extension: "e", Spec: extensions.Spec{Transport: "stdio", Command: "node"}}}
	if _, _, err := Build(servers, []*toolprofiles.Profile{set.Get("claude")}, toolprofiles.ScopeLocal, env); err == nil || !strings.Contains(err.Error(), "applies to the project scope only") {
		t.Fatalf("err = %v", err)
	}
	if _, _, err := Build(servers, []*toolprofiles.Profile{set.ForScope(toolprofiles.ScopeLocal).Get("claude")}, toolprofiles.ScopeLocal, env); err != nil {
		t.Fatalf("the built-in profile: %v", err)
	}
}

// linkedHome is a home with ~/shared.json and ~/link.json, a link to it,
// the environment of a build there, one server, and a maker of user-scope
// profiles of the given path and [entry] text. It skips the test where
// there are no symbolic links.
func linkedHome(t *testing.T) (Env, []extensions.Server, func(id, path, entry string) *toolprofiles.Profile) {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "shared.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("shared.json", filepath.Join(home, "link.json")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	profile := func(id, path, entry string) *toolprofiles.Profile {
		t.Helper()
		p, err := toolprofiles.Decode([]byte(`id = "`+id+`"
name = "`+id+`"
mcp = true
evidence = "unverified"
sources = ["test"]
[scopes.user]
paths = ["`+path+`"]
format = "json"
key = ["mcpServers"]
[entry]
`+entry), id+".toml")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	env := Env{Root: t.TempDir(), Env: toolprofiles.Env{Home: home, GOOS: "linux", Getenv: func(string) string { return "" }}}
	servers := []extensions.Server{{Name: "s", Extension: "e", Spec: extensions.Spec{Transport: "stdio", Command: "node"}}}
	return env, servers, profile
}

// Two profiles whose paths lead to one file through a symbolic link share
// a target, which names the link; when they need different entries, the
// error says the two paths are one file.
func TestBuildOneFileUnderTwoNames(t *testing.T) {
	env, servers, profile := linkedHome(t)
	a := profile("a", "~/shared.json", "")
	b := profile("b", "~/link.json", "")
	targets, _, err := Build(servers, []*toolprofiles.Profile{a, b}, toolprofiles.ScopeUser, env)
	if err != nil {
		t.Fatal(err)
	}
	if len(targets) != 1 || len(targets[0].Tools) != 2 || len(targets[0].Links) != 1 || targets[0].Links[0] != "~/link.json" {
		t.Fatalf("got %d targets: %+v", len(targets), targets[0])
	}
	typed := profile("b", "~/link.json", "type_field = \"type\"\nstdio_type = \"stdio\"\n")
	_, _, err = Build(servers, []*toolprofiles.Profile{a, typed}, toolprofiles.ScopeUser, env)
	if err == nil || !strings.Contains(err.Error(), "~/shared.json and ~/link.json are one file") {
		t.Fatalf("err = %v", err)
	}
}

// Build translates the tools at once; what it returns must not depend on
// it: every built-in tool's targets, entries and warnings are those of a
// build on one core.
func TestBuildSameOnOneCoreAsOnMany(t *testing.T) {
	set, err := toolprofiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	root, home := t.TempDir(), t.TempDir()
	servers := []extensions.Server{
		{Name: "a", Extension: "e1", Spec: extensions.Spec{Transport: "stdio", Command: "node", Args: []string{root + "/a.js"}, Env: []extensions.KV{{Key: "TOKEN", Value: "${TOKEN}"}}}},
		{Name: "b", Extension: "e2", Spec: extensions.Spec{Transport: "http", URL: "https://example.com/mcp"}},
		{Name: "c d", Extension: "e2", Spec: extensions.Spec{Transport: "stdio", Command: "python3", Args: []string{"-m", "c"}}},
	}
	build := func(procs int) ([]*Target, []translator.Warning) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		env := Env{Root: root, Paths: NewPaths(), Portable: true, Env: toolprofiles.Env{Home: home, GOOS: "linux", Getenv: func(string) string { return "" }}}
		targets, warnings, err := Build(servers, set.ForScope(toolprofiles.ScopeProject).All(), toolprofiles.ScopeProject, env)
		if err != nil {
			t.Fatalf("on %d cores: %v", procs, err)
		}
		return targets, warnings
	}
	one, oneWarn := build(1)
	many, manyWarn := build(8)
	if len(one) < 10 || !reflect.DeepEqual(one, many) || !reflect.DeepEqual(oneWarn, manyWarn) {
		t.Fatalf("%d targets and %d warnings on one core, %d and %d on many, or they differ", len(one), len(oneWarn), len(many), len(manyWarn))
	}
}

// A tool that disagrees with the first tool of its file is named with the
// links the file had when that tool was placed, not those of tools placed
// after it: the error is the one of a build that placed and translated
// each tool before the next.
func TestBuildDisagreementNamesLinksSoFar(t *testing.T) {
	env, servers, profile := linkedHome(t)
	a := profile("a", "~/shared.json", "")
	typed := profile("b", "~/shared.json", "type_field = \"type\"\nstdio_type = \"stdio\"\n")
	c := profile("c", "~/link.json", "")
	for _, procs := range []int{1, 8} {
		func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			_, _, err := Build(servers, []*toolprofiles.Profile{a, typed, c}, toolprofiles.ScopeUser, env)
			if err == nil || !strings.Contains(err.Error(), "~/shared.json is read by both a and b") {
				t.Fatalf("on %d cores: err = %v", procs, err)
			}
		}()
	}
}
