package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// A valid per-user record whose root is another path is not an alias's:
// planning under the alias takes nothing over from it. (The record is
// written as the plan for the other root has it, which is what a sync
// there writes.)
func TestAliasRecordOfAnotherRootIgnored(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	base := toolprofiles.Env{Home: home, GOOS: "linux", Getenv: func(string) string { return "" }}
	alias := target.Env{Root: filepath.Join(dir, "link"), Env: base}
	oldRecord, _ := UserRecordPath(alias)
	set, err := toolprofiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	claude := []*toolprofiles.Profile{set.Get("claude")}
	other := target.Env{Root: filepath.Join(dir, "other"), Env: base}
	s := extensions.Server{Name: "s", Extension: "ext", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "node", Args: []string{filepath.Join(other.Root, "s.js")}}}
	targets, _, err := target.Build([]extensions.Server{s}, claude, toolprofiles.ScopeLocal, other)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build(other, targets, Options{})
	if err != nil {
		t.Fatal(err)
	}
	otherRecord, _ := UserRecordPath(other)
	var data string
	for _, f := range p.Files {
		if f.Path == otherRecord {
			data = string(f.After)
		}
	}
	if data == "" {
		t.Fatal("no record planned for the other root")
	}
	data = strings.Replace(data, filepath.ToSlash(other.Root), filepath.ToSlash(filepath.Join(dir, "elsewhere")), 1)
	if err := os.MkdirAll(filepath.Dir(oldRecord), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(oldRecord, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	fresh := target.Env{Root: filepath.Join(dir, "fresh"), Env: base, Aliases: []string{alias.Root}}
	targets, _, err = target.Build(nil, claude, toolprofiles.ScopeLocal, fresh)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := planAliases(fresh, targets)
	if err != nil || len(got) != len(targets) {
		t.Fatalf("planAliases with a foreign record: %d targets, %v; want %d", len(got), err, len(targets))
	}
}
