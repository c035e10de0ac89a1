package commit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// syncAt plans and applies one scope with the root in the args, the
// way a resolved server holds it, and returns the plan.
func syncAt(t *testing.T, env target.Env, scope target.Scope, ids ...string) *plan.Plan {
	t.Helper()
	s := server
	s.Args = []string{filepath.Join(env.Root, "s.js")}
	targets, _, err := target.Build([]extensions.Server{s}, profiles(t, ids...), scope, env)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Build(env, targets, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(p); err != nil {
		t.Fatal(err)
	}
	return p
}

func changesOf(p *plan.Plan, display string) []plan.Change {
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
	alias := target.Env{Root: filepath.Join(dir, "link"), Env: base}
	syncAt(t, alias, toolprofiles.ScopeLocal, "claude")
	syncAt(t, alias, toolprofiles.ScopeUser, "claude")
	oldRecord, _ := plan.UserRecordPath(alias)

	real := target.Env{Root: filepath.Join(dir, "real"), Env: base, Aliases: []string{alias.Root}}
	p := syncAt(t, real, toolprofiles.ScopeLocal, "claude")
	got := changesOf(p, "~/.claude.json")
	want := []plan.Change{{Action: plan.ActionAdd, Entry: "s", Reason: plan.ReasonMissing}, {Action: plan.ActionRemove, Entry: "s", Reason: plan.ReasonAlias}}
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
	targets, _, err := target.Build(nil, profiles(t, "claude"), toolprofiles.ScopeUser, real)
	if err != nil {
		t.Fatal(err)
	}
	up, err := plan.Build(real, targets, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := changesOf(up, "~/.claude.json"), []plan.Change{{Action: plan.ActionRemove, Entry: "s", Reason: plan.ReasonGone}}; !slices.Equal(got, want) {
		t.Fatalf("user scope without the server: changes %+v, want %+v", got, want)
	}
	up.Close()

	// The old record is deleted once taken over: it is not left behind,
	// and never read again (taking it over twice would claim entries that
	// became the user's since; here, the local entry under the alias).
	if _, err := os.Stat(oldRecord); !os.IsNotExist(err) {
		t.Fatalf("the old record is still there: %v", err)
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
	alias := target.Env{Root: filepath.Join(dir, "link"), Env: base}
	oldRecord, _ := plan.UserRecordPath(alias)
	write(t, oldRecord, "{ not json")

	real := target.Env{Root: filepath.Join(dir, "real"), Env: base, Aliases: []string{alias.Root}}
	p := syncAt(t, real, toolprofiles.ScopeLocal, "claude")
	if got, want := changesOf(p, "~/.claude.json"), []plan.Change{{Action: plan.ActionAdd, Entry: "s", Reason: plan.ReasonMissing}}; !slices.Equal(got, want) {
		t.Fatalf("changes %+v, want %+v", got, want)
	}

}
