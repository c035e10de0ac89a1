package commit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// gitignoreEnv is a workspace whose machine-specific files are
// git-ignored, with VS Code portable.
func gitignoreEnv(t *testing.T) target.Env {
	env := testEnv(t)
	env.Portable, env.Gitignore = true, true
	return env
}

// rootServer is a server that holds the root, as a resolved one does.
func rootServer(env target.Env, name string) extensions.Server {
	s := server
	s.Name = name
	s.Args = []string{filepath.Join(env.Root, "s.js")}
	return s
}

func planWith(t *testing.T, env target.Env, servers []extensions.Server, opts plan.Options, ids ...string) (*plan.Plan, error) {
	t.Helper()
	targets, _, err := target.Build(servers, profiles(t, ids...), toolprofiles.ScopeProject, env)
	if err != nil {
		t.Fatal(err)
	}
	return plan.Build(env, targets, opts)
}

func applyWith(t *testing.T, env target.Env, servers []extensions.Server, ids ...string) *plan.Plan {
	t.Helper()
	p, err := planWith(t, env, servers, plan.Options{}, ids...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// recordFiles lists the files a record holds entries for.
func recordFiles(t *testing.T, path string) []string {
	t.Helper()
	rec, _, err := plan.ReadRecord(path, path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range rec.Targets {
		out = append(out, e.File)
	}
	return out
}

// With the machine-specific files git-ignored, the committed record holds
// the portable files only, and the clone's own record the others.
func TestMachineFilesRecordedPerClone(t *testing.T) {
	env := gitignoreEnv(t)
	applyWith(t, env, []extensions.Server{rootServer(env, "s")}, "claude", "vscode")
	if got := recordFiles(t, plan.ProjectRecordPath(env.Root)); !slices.Equal(got, []string{".vscode/mcp.json"}) {
		t.Errorf("committed record: %q, want the portable file only", got)
	}
	if got := recordFiles(t, plan.MachineRecordPath(env.Root)); !slices.Equal(got, []string{".mcp.json"}) {
		t.Errorf("the clone's record: %q, want the machine-specific file", got)
	}
}

// Turning [mcp] gitignore on moves the machine-specific files' entries
// from the committed record to the clone's, and off moves them back; the
// entries stay repo's throughout, and nothing else changes.
func TestMachineRecordTakeOver(t *testing.T) {
	env := testEnv(t)
	env.Portable = true
	servers := []extensions.Server{rootServer(env, "s")}
	applyWith(t, env, servers, "claude", "vscode")
	mcp := read(t, filepath.Join(env.Root, ".mcp.json"))

	env.Gitignore = true
	p := applyWith(t, env, servers, "claude", "vscode")
	for _, f := range p.Stale() {
		if f.Scope != "record" {
			t.Errorf("turning gitignore on changed %s: %v", f.Display, f.Changes)
		}
	}
	if got := recordFiles(t, plan.ProjectRecordPath(env.Root)); !slices.Equal(got, []string{".vscode/mcp.json"}) {
		t.Errorf("committed record: %q", got)
	}
	if got := recordFiles(t, plan.MachineRecordPath(env.Root)); !slices.Equal(got, []string{".mcp.json"}) {
		t.Errorf("the clone's record: %q", got)
	}
	settled(t, env, servers, "claude", "vscode")

	// The entry is still repo's: a removed server leaves the file, and
	// the file, which repo created, goes with it (the record that took the
	// entry over knows that too).
	p = applyWith(t, env, nil, "claude", "vscode")
	if got := changesOf(p, ".mcp.json"); !slices.Equal(got, []plan.Change{{Action: plan.ActionRemove, Entry: "s", Reason: plan.ReasonGone}, {Action: plan.ActionDelete, Entry: "", Reason: plan.ReasonCreatedEmpty}}) {
		t.Errorf(".mcp.json after the server went: %v", got)
	}
	applyWith(t, env, servers, "claude", "vscode")

	env.Gitignore = false
	applyWith(t, env, servers, "claude", "vscode")
	if got := recordFiles(t, plan.ProjectRecordPath(env.Root)); !slices.Equal(got, []string{".mcp.json", ".vscode/mcp.json"}) {
		t.Errorf("gitignore off: committed record %q", got)
	}
	if got := recordFiles(t, plan.MachineRecordPath(env.Root)); len(got) != 0 {
		t.Errorf("gitignore off: the clone's record still holds %q", got)
	}
	if got := read(t, filepath.Join(env.Root, ".mcp.json")); got != mcp {
		t.Errorf(".mcp.json changed:\n%s\nwas\n%s", got, mcp)
	}
	settled(t, env, servers, "claude", "vscode")
}

func settled(t *testing.T, env target.Env, servers []extensions.Server, ids ...string) {
	t.Helper()
	p, err := planWith(t, env, servers, plan.Options{}, ids...)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range p.Stale() {
		t.Errorf("not converged: %s would change: %v", f.Display, f.Changes)
	}
}

// A check judges what a commit holds: it leaves out the machine-specific
// files, which a fresh clone or a CI checkout does not have and a pull can
// make stale, and the clone's record of them.
func TestCheckLeavesMachineFilesOut(t *testing.T) {
	env := gitignoreEnv(t)
	servers := []extensions.Server{rootServer(env, "s")}
	check := func() *plan.Plan {
		t.Helper()
		p, err := planWith(t, env, servers, plan.Options{CommittedOnly: true, ReadOnly: true}, "claude", "vscode")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		return p
	}
	stale := func(p *plan.Plan) []string {
		var out []string
		for _, f := range p.Stale() {
			out = append(out, f.Display)
		}
		return out
	}
	p := check()
	if got := stale(p); !slices.Equal(got, []string{".vscode/mcp.json", ".repository/mcp-managed.json"}) {
		t.Errorf("fresh workspace: stale %q, want the portable file and the committed record", got)
	}
	if len(p.Unchecked) != 1 || p.Unchecked[0].Display != ".mcp.json" || !slices.Equal(p.Unchecked[0].Tools, []string{"claude"}) {
		t.Errorf("unchecked: %+v", p.Unchecked)
	}

	applyWith(t, env, servers, "claude", "vscode")
	if got := stale(check()); len(got) != 0 {
		t.Errorf("synced: stale %q", got)
	}
	// The server goes: the committed files are out of date; this clone's
	// own .mcp.json (and its record) too, but a check does not stop a
	// commit for them.
	servers = nil
	if got := stale(check()); !slices.Equal(got, []string{".vscode/mcp.json", ".repository/mcp-managed.json"}) {
		t.Errorf("server gone: stale %q", got)
	}

	// Without gitignore the option does nothing.
	env.Gitignore = false
	servers = []extensions.Server{rootServer(env, "s")}
	if err := os.Remove(filepath.Join(env.Root, ".mcp.json")); err != nil {
		t.Fatal(err)
	}
	if p := check(); len(p.Unchecked) != 0 || changesOf(p, ".mcp.json") == nil {
		t.Errorf("without gitignore a missing .mcp.json is out of date: unchecked %d, changes %v", len(p.Unchecked), changesOf(p, ".mcp.json"))
	}
}

// Why the committed record does not hold the ignored files: two clones
// share it, but each has its own .mcp.json.
func TestMachineEntriesAreEachClones(t *testing.T) {
	dir := t.TempDir()
	base := toolprofiles.Env{Home: filepath.Join(dir, "home"), GOOS: "linux", Getenv: func(string) string { return "" }}
	alice := target.Env{Root: filepath.Join(dir, "alice"), Env: base, Portable: true, Gitignore: true}
	bob := target.Env{Root: filepath.Join(dir, "bob"), Env: base, Portable: true, Gitignore: true}
	applyWith(t, alice, []extensions.Server{rootServer(alice, "s"), rootServer(alice, "gone")}, "claude", "vscode")
	committed := func(from, to target.Env) {
		t.Helper()
		for _, f := range []string{".vscode/mcp.json", ".repository/mcp-managed.json"} {
			write(t, filepath.Join(to.Root, f), read(t, filepath.Join(from.Root, f)))
		}
	}
	committed(alice, bob)
	applyWith(t, bob, []extensions.Server{rootServer(bob, "s"), rootServer(bob, "gone")}, "claude", "vscode")

	// Alice removes an extension and commits: Bob's sync after the pull
	// still removes its entry from his own .mcp.json.
	applyWith(t, alice, []extensions.Server{rootServer(alice, "s")}, "claude", "vscode")
	committed(alice, bob)
	p := applyWith(t, bob, []extensions.Server{rootServer(bob, "s")}, "claude", "vscode")
	if got := changesOf(p, ".mcp.json"); !slices.Equal(got, []plan.Change{{Action: plan.ActionRemove, Entry: "gone", Reason: plan.ReasonGone}}) {
		t.Errorf("Bob's .mcp.json after the pull: %v", got)
	}
	if got := changesOf(p, ".repository/mcp-managed.json"); got != nil {
		t.Errorf("Bob's sync changes the committed record: %v", got)
	}

	// Carol has her own server of that name in her .mcp.json: the
	// committed record does not make it repo's.
	carol := target.Env{Root: filepath.Join(dir, "carol"), Env: base, Portable: true, Gitignore: true}
	committed(alice, carol)
	write(t, filepath.Join(carol.Root, ".mcp.json"), `{"mcpServers": {"s": {"command": "carols-own"}}}`)
	_, err := planWith(t, carol, []extensions.Server{rootServer(carol, "s")}, plan.Options{}, "claude", "vscode")
	var conflict *plan.ConflictError
	if !errors.As(err, &conflict) || conflict.Entry != "s" {
		t.Errorf("Carol's own entry: %v, want a conflict", err)
	}
}

// The clone's record is in the workspace, so a clone moved to another
// folder still knows its entries: the next sync rewrites them for the new
// path, where a record kept per user under the old path would have left
// them the user's (a conflict).
func TestMovedCloneKeepsItsEntries(t *testing.T) {
	dir := t.TempDir()
	base := toolprofiles.Env{Home: filepath.Join(dir, "home"), GOOS: "linux", Getenv: func(string) string { return "" }}
	before := target.Env{Root: filepath.Join(dir, "before"), Env: base, Portable: true, Gitignore: true}
	applyWith(t, before, []extensions.Server{rootServer(before, "s")}, "claude", "vscode")
	after := before
	after.Root = filepath.Join(dir, "after")
	if err := os.Rename(before.Root, after.Root); err != nil {
		t.Fatal(err)
	}
	p := applyWith(t, after, []extensions.Server{rootServer(after, "s")}, "claude", "vscode")
	if got := changesOf(p, ".mcp.json"); !slices.Equal(got, []plan.Change{{Action: plan.ActionUpdate, Entry: "s", Reason: plan.ReasonRelocated}}) {
		t.Errorf(".mcp.json in the moved clone: %v", got)
	}
	for _, f := range p.Stale() {
		if f.Display != ".mcp.json" {
			t.Errorf("the move changed %s: %v", f.Display, f.Changes)
		}
	}
}

// Entries written at another root are accepted (Options.AcceptRelocated,
// what --check --committed asks for) only in a file the team commits,
// which a checkout elsewhere cannot hold with its own paths: never in a
// per-clone file, which each clone writes with its own.
func TestAcceptRelocatedOnlyCommitted(t *testing.T) {
	dir := t.TempDir()
	base := toolprofiles.Env{Home: filepath.Join(dir, "home"), GOOS: "linux", Getenv: func(string) string { return "" }}
	for _, gitignore := range []bool{false, true} {
		alice := target.Env{Root: filepath.Join(dir, fmt.Sprint("alice-", gitignore)), Env: base, Gitignore: gitignore}
		applyWith(t, alice, []extensions.Server{rootServer(alice, "s")}, "claude")
		bob := alice
		bob.Root = filepath.Join(dir, fmt.Sprint("bob-", gitignore))
		if err := os.CopyFS(bob.Root, os.DirFS(alice.Root)); err != nil {
			t.Fatal(err)
		}
		p, err := planWith(t, bob, []extensions.Server{rootServer(bob, "s")}, plan.Options{AcceptRelocated: true, ReadOnly: true}, "claude")
		if err != nil {
			t.Fatal(err)
		}
		got := changesOf(p, ".mcp.json")
		p.Close()
		switch {
		case !gitignore && got != nil:
			t.Errorf("committed .mcp.json written at another root: %v, want it accepted", got)
		case gitignore && !slices.Equal(got, []plan.Change{{Action: plan.ActionUpdate, Entry: "s", Reason: plan.ReasonRelocated}}):
			t.Errorf("per-clone .mcp.json written at another root: %v, want it stale", got)
		}
	}
}
