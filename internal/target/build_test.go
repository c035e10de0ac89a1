package target

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/toolprofiles"
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

// Two profiles whose paths lead to one file through a symbolic link share
// a target, which names the link; when they need different entries, the
// error says the two paths are one file.
func TestBuildOneFileUnderTwoNames(t *testing.T) {
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
