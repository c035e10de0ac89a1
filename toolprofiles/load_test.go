package toolprofiles

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeOverrides(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, ".repository", "toolprofiles")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const cursorOverride = `id = "cursor"
name = "Cursor (fork)"
mcp = true
evidence = "unverified"
sources = ["our wiki"]
detect = [".cursor"]

[scopes.project]
paths = [".cursor/mcp.local.json"]
format = "json"
key = ["mcpServers"]

[entry]
command = "string"
`

func TestLoadWithoutOverrides(t *testing.T) {
	s, err := Load(t.TempDir(), Env{})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if !slices.Equal(s.IDs(), wantIDs) {
		t.Fatalf("ids = %q", s.IDs())
	}
}

func TestLoadOverrides(t *testing.T) {
	root := writeOverrides(t, map[string]string{
		"cursor.toml": cursorOverride,
		"mytool.toml": validProfile,
		"README.md":   "not a profile",
	})
	s, err := Load(root, Env{})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	want := append(slices.Clone(wantIDs), "mytool")
	slices.Sort(want)
	if !slices.Equal(s.IDs(), want) {
		t.Fatalf("ids = %q\nwant  %q", s.IDs(), want)
	}

	c := s.Get("cursor")
	if c.Origin() != ".repository/toolprofiles/cursor.toml" {
		t.Errorf("cursor origin %q", c.Origin())
	}
	if got := c.Scopes.Project.Paths; !slices.Equal(got, []string{".cursor/mcp.local.json"}) {
		t.Errorf("cursor project paths %q", got)
	}
	// The override replaces the profile whole: nothing of the built-in user scope survives.
	if c.Scopes.User != nil || c.Entry.EnvRef != "" || c.Entry.Remote != nil {
		t.Errorf("override merged with the built-in profile: %+v", c)
	}

	m := s.Get("mytool")
	if m == nil || m.Origin() != ".repository/toolprofiles/mytool.toml" || !m.FromWorkspace() {
		t.Fatalf("mytool = %+v", m)
	}

	// The local and user scopes see none of the workspace's profiles: the
	// built-in cursor, its user scope and entry dialect included.
	for _, scope := range []string{ScopeLocal, ScopeUser} {
		ms := s.ForScope(scope)
		if c := ms.Get("cursor"); c == nil || c.FromWorkspace() || c.Scopes.User == nil || c.Entry.EnvRef == "" {
			t.Errorf("%s scope: cursor = %+v, want the built-in profile", scope, c)
		}
		if ms.Get("mytool") != nil {
			t.Errorf("%s scope has the workspace's mytool", scope)
		}
	}
	if s.ForScope(ScopeProject) != s {
		t.Error("the project scope's set is not the whole set")
	}

	// Builtin() is not affected by a workspace's overrides.
	b := builtinSet(t)
	if got := b.Get("cursor").Scopes.Project.Paths; !slices.Equal(got, []string{".cursor/mcp.json"}) {
		t.Errorf("builtin cursor paths changed: %q", got)
	}
	if b.Get("mytool") != nil {
		t.Error("builtin set has mytool")
	}
}

func TestLoadBrokenOverride(t *testing.T) {
	root := writeOverrides(t, map[string]string{
		"cursor.toml": strings.Replace(cursorOverride, "[scopes.project]", "[scopes.projct]", 1),
	})
	_, err := Load(root, Env{})
	if err == nil {
		t.Fatal("Load succeeded, want an error")
	}
	for _, w := range []string{".repository/toolprofiles/cursor.toml", "line 8", `unknown key "scopes.projct"`} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err, w)
		}
	}
}

func TestLoadInvalidOverride(t *testing.T) {
	root := writeOverrides(t, map[string]string{
		"zz.toml": strings.Replace(validProfile, `format = "json"`, `format = "ini"`, 1),
	})
	_, err := Load(root, Env{})
	if err == nil || !strings.Contains(err.Error(), ".repository/toolprofiles/zz.toml") || !strings.Contains(err.Error(), `format "ini"`) {
		t.Fatalf("error %v, want one naming .repository/toolprofiles/zz.toml and the format", err)
	}
}

func TestLoadDuplicateOverride(t *testing.T) {
	root := writeOverrides(t, map[string]string{
		"a.toml": validProfile,
		"b.toml": validProfile,
	})
	_, err := Load(root, Env{})
	if err == nil {
		t.Fatal("Load succeeded, want an error")
	}
	for _, w := range []string{".repository/toolprofiles/a.toml", ".repository/toolprofiles/b.toml", `"mytool"`} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err, w)
		}
	}
}
