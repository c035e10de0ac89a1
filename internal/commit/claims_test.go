package commit

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// A record in the workspace speaks only for files inside it, by a plain
// relative path: a claim naming another file is ignored with a warning,
// and what a record says repo created never reaches above the root.
func TestWorkspaceRecordStaysInside(t *testing.T) {
	env := testEnv(t)
	mustSync(t, env, []extensions.Server{server}, "cursor")
	path := plan.ProjectRecordPath(env.Root)
	rec, _, err := plan.ReadRecord(path, "record")
	if err != nil {
		t.Fatal(err)
	}
	e := rec.Targets[0]
	if e.File != ".cursor/mcp.json" || e.Created == nil || e.Created.Folders != 1 {
		t.Fatalf("the record of the sync: %+v", e)
	}
	e.Created.Folders = 9
	for _, bad := range []string{"../outside.json", "/etc/x.json", "a/../b.json"} {
		rec.Put(bad, e.Key, e.Entries)
	}
	write(t, path, string(rec.Bytes()))
	targets := leaving(t, env, "cursor")
	p, err := plan.Build(env, targets, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"../outside.json", "/etc/x.json", "a/../b.json"} {
		if !slices.ContainsFunc(p.Warnings, func(w string) bool { return strings.Contains(w, "ignored its claim on "+bad) }) {
			t.Errorf("no warning for the claim on %s: %q", bad, p.Warnings)
		}
	}
	for _, f := range p.Files {
		if f.Display != ".cursor/mcp.json" {
			continue
		}
		if !f.Delete {
			t.Fatalf("%s is not deleted: %+v", f.Display, f.Changes)
		}
		if got, want := f.CreatedFolders(), []string{filepath.Join(env.Root, ".cursor")}; !slices.Equal(got, want) {
			t.Errorf("folders removed with it: %q, want %q", got, want)
		}
	}
}

// leaving is the targets that remove repo's entries for a tool.
func leaving(t *testing.T, env target.Env, id string) []*target.Target {
	t.Helper()
	lt, _, err := plan.LeavingTargets(env, toolprofiles.ScopeProject, profiles(t, id), nil, plan.ReasonForgotten, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(lt) == 0 {
		t.Fatal("no leaving target")
	}
	return lt
}
