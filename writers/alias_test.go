package writers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/toolprofiles"
)

// syncAt plans and applies one scope with the root in the args, the
// way a resolved server holds it, and returns the plan.
func syncAt(t *testing.T, env Env, scope string, ids ...string) *Plan {
	t.Helper()
	s := server
	s.Args = []string{filepath.Join(env.Root, "s.js")}
	targets, _, err := BuildTargets([]extensions.Server{s}, profiles(t, ids...), scope, env)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build(env, targets, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(p); err != nil {
		t.Fatal(err)
	}
	return p
}

func changesOf(p *Plan, display string) []Change {
	for _, f := range p.Files {
		if f.Display == display {
			return f.Changes
		}
	}
	return nil
}

// An earlier repo, run through a symlink, recorded the workspace under
// that path. A run that comes by it again (Env.Aliases) takes that record
// over once: the local entry written under projects["<alias>"] is removed,
// the user-scope entry stays repo's, and the next run changes nothing.
func TestAliasRecordTakenOverOnce(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	base := toolprofiles.Env{Home: home, GOOS: "linux", Getenv: func(string) string { return "" }}
	alias := Env{Root: filepath.Join(dir, "link"), Env: base}
	syncAt(t, alias, toolprofiles.ScopeLocal, "claude")
	syncAt(t, alias, toolprofiles.ScopeUser, "claude")
	oldRecord, _ := UserRecordPath(alias)

	real := Env{Root: filepath.Join(dir, "real"), Env: base, Aliases: []string{alias.Root}}
	p := syncAt(t, real, toolprofiles.ScopeLocal, "claude")
	got := changesOf(p, "~/.claude.json")
	want := []Change{{ActionAdd, "s", ReasonMissing}, {ActionRemove, "s", ReasonAlias}}
	if !slices.Equal(got, want) {
		t.Fatalf("changes %+v, want %+v", got, want)
	}
	claude := read(t, filepath.Join(home, ".claude.json"))
	var doc struct {
		Projects map[string]struct{ MCPServers map[string]any }
	}
	if err := json.Unmarshal([]byte(claude), &doc); err != nil {
		t.Fatal(err)
	}
	if old, now := doc.Projects[filepath.ToSlash(alias.Root)].MCPServers, doc.Projects[filepath.ToSlash(real.Root)].MCPServers; len(old) != 0 || len(now) != 1 {
		t.Fatalf("servers under the alias %v, under the root %v; want none and one:\n%s", old, now, claude)
	}
	// The user-scope entry the old record owned is repo's: when its
	// server goes, it goes.
	targets, _, err := BuildTargets(nil, profiles(t, "claude"), toolprofiles.ScopeUser, real)
	if err != nil {
		t.Fatal(err)
	}
	up, err := Build(real, targets, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := changesOf(up, "~/.claude.json"), []Change{{ActionRemove, "s", ReasonGone}}; !slices.Equal(got, want) {
		t.Fatalf("user scope without the server: changes %+v, want %+v", got, want)
	}
	up.Close()

	// Once the workspace has its own record, the old one is not read
	// again: taking it over twice would claim entries that became the
	// user's since. Here it would claim the local entry under the alias.
	if _, err := os.Stat(oldRecord); err != nil {
		t.Fatalf("the old record is gone: %v", err)
	}
	// (The first run removed projects["<alias>"] as a whole: the old
	// record says repo created it. The user writes it again.)
	if strings.Contains(claude, `"`+filepath.ToSlash(alias.Root)+`"`) {
		t.Fatalf("the project object repo created under the alias is still there:\n%s", claude)
	}
	mine := strings.Replace(claude, `"projects": {`, `"projects": {
    "`+filepath.ToSlash(alias.Root)+`": {"mcpServers": {"s": {"command": "mine"}}},`, 1)
	if mine == claude {
		t.Fatalf("test setup: no projects object:\n%s", claude)
	}
	write(t, filepath.Join(home, ".claude.json"), mine)
	p = syncAt(t, real, toolprofiles.ScopeLocal, "claude")
	if stale := p.Stale(); len(stale) != 0 {
		t.Fatalf("second run changed %s: %+v", stale[0].Display, stale[0].Changes)
	}
	if got := changesOf(p, "~/.claude.json"); len(got) != 0 || len(p.Warnings) != 0 {
		t.Fatalf("second run: changes %+v, warnings %q; want none (the entry under the alias is the user's)", got, p.Warnings)
	}
	if !strings.Contains(read(t, filepath.Join(home, ".claude.json")), `"command": "mine"`) {
		t.Fatal("the user's entry under the alias was touched")
	}
}

// A workspace that already has its own record does not take an alias's
// over, and a damaged alias record is left alone rather than failing the
// run.
func TestAliasRecordIgnoredWhenOwnExistsOrDamaged(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	base := toolprofiles.Env{Home: home, GOOS: "linux", Getenv: func(string) string { return "" }}
	alias := Env{Root: filepath.Join(dir, "link"), Env: base}
	oldRecord, _ := UserRecordPath(alias)
	write(t, oldRecord, "{ not json")

	real := Env{Root: filepath.Join(dir, "real"), Env: base, Aliases: []string{alias.Root}}
	p := syncAt(t, real, toolprofiles.ScopeLocal, "claude")
	if got, want := changesOf(p, "~/.claude.json"), []Change{{ActionAdd, "s", ReasonMissing}}; !slices.Equal(got, want) {
		t.Fatalf("changes %+v, want %+v", got, want)
	}

	// A valid record whose root is another path is not this alias's.
	other := Env{Root: filepath.Join(dir, "other"), Env: base}
	syncAt(t, other, toolprofiles.ScopeLocal, "claude")
	otherRecord, _ := UserRecordPath(other)
	data := strings.Replace(read(t, otherRecord), filepath.ToSlash(other.Root), filepath.ToSlash(filepath.Join(dir, "elsewhere")), 1)
	write(t, oldRecord, data)
	fresh := Env{Root: filepath.Join(dir, "fresh"), Env: base, Aliases: []string{alias.Root}}
	targets, _, err := BuildTargets(nil, profiles(t, "claude"), toolprofiles.ScopeLocal, fresh)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := planAliases(fresh, targets)
	if err != nil || len(got) != len(targets) {
		t.Fatalf("planAliases with a foreign record: %d targets, %v; want %d", len(got), err, len(targets))
	}
}
