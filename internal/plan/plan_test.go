package plan

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// checkWritable trusts groupByFile's resolution of a file that exists
// instead of resolving it again. It must judge every kind of target as it
// does when it resolves the path itself.
func TestCheckWritableTrustsGroupByFile(t *testing.T) {
	env := testEnv(t)
	outside := t.TempDir()
	mkfile := func(p string, mode os.FileMode) string {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	link := func(dest, p string) string {
		if err := os.Symlink(dest, p); err != nil {
			t.Skip("no symlinks:", err)
		}
		return p
	}
	in := func(rel string) string { return filepath.Join(env.Root, rel) }
	paths := []string{
		mkfile(in("plain.json"), 0o644),
		mkfile(in("readonly.json"), 0o444),
		in("missing/new.json"),
		link(mkfile(in("real/inside.json"), 0o644), in("to-inside.json")),
		link(mkfile(filepath.Join(outside, "out.json"), 0o644), in("to-outside.json")),
		link(outside, in("outdir")),
		in("outdir/out.json"),
		link(in("nowhere/gone.json"), in("dangling.json")),
		link(filepath.Join(outside, "gone.json"), in("dangling-out.json")),
		mkfile(in("file"), 0o644) + "/under-a-file.json",
	}
	if err := os.Link(in("plain.json"), in("hardlink.json")); err == nil {
		paths = append(paths, in("hardlink.json"))
	}
	var targets []*target.Target
	for _, p := range paths {
		targets = append(targets, &target.Target{Path: p, Display: p, Scope: toolprofiles.ScopeProject})
	}
	files, err := groupByFile(targets)
	if err != nil {
		t.Fatal(err)
	}
	root := resolveRoot(env.Root)
	for _, g := range files {
		if g.real && existingRealPath(g.path) != g.path {
			t.Errorf("%s: resolved again to %s", g.path, existingRealPath(g.path))
		}
		unresolved := &fileGroup{path: g.path, targets: g.targets}
		got := fmt.Sprint(checkWritable(env, root, g, g.targets[0]))
		want := fmt.Sprint(checkWritable(env, root, unresolved, g.targets[0]))
		if got != want {
			t.Errorf("%s: %s\nresolving itself: %s", g.path, got, want)
		}
	}
}
