package commit

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/fsfault"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/toolprofiles"
)

// A host stops a run (Interrupt.Stop: repo's signal handler, a UI's
// cancel) at every point of its commit. Before the last tool config is
// replaced, the run puts every file back, removes what it staged and the
// folders it created, and says ErrInterrupted; from there on, it finishes,
// records included. Either way the files are all old or all new, never a
// mix — main had no way to stop a run but killing it, and a SIGTERM after
// the first rename left a mix.
func TestStopAtEveryCommitIsAllOrNothing(t *testing.T) {
	ids := []string{"claude", "codex", "cursor", "gemini", "vscode"}
	mine := "{\"mcpServers\": {\"mine\": {\"command\": \"x\"}}}\n"
	setup := func(t *testing.T) (root string, p *plan.Plan, finishFrom int) {
		env := testEnv(t)
		write(t, filepath.Join(env.Root, ".mcp.json"), mine)
		write(t, filepath.Join(env.Root, ".codex", "config.toml"), "# mine\nmodel = \"o3\"\n")
		p = planFor(t, env, ids)
		for _, f := range p.Stale() {
			if f.Scope != plan.ScopeRecord || f.Intent != nil {
				finishFrom++
			}
		}
		return env.Root, p, finishFrom
	}
	_, _, finishFrom := setup(t)
	if finishFrom < 4 {
		t.Fatalf("only %d files before the records: the test needs a few configs", finishFrom)
	}
	for stopAt := 0; stopAt <= finishFrom; stopAt++ {
		root, p, _ := setup(t)
		before := snapshotTree(t, root)
		stop := make(chan struct{})
		fsys := fsfault.New()
		if stopAt == 0 {
			close(stop)
		} else {
			fsys.After(fsfault.Commit, "", stopAt, func() { close(stop) })
		}
		applied, err := apply(p, Interrupt{Stop: stop}, fsys)
		assertNoStaged(t, root)
		after := snapshotTree(t, root)
		if stopAt < finishFrom {
			if !errors.Is(err, ErrInterrupted) || !strings.Contains(err.Error(), "nothing was written") {
				t.Fatalf("stopped after %d commits: err = %v, want ErrInterrupted, nothing written", stopAt, err)
			}
			if len(applied.Written) != 0 {
				t.Errorf("stopped after %d commits: %d files reported written", stopAt, len(applied.Written))
			}
			if diff := diffTrees(before, after); diff != "" {
				t.Errorf("stopped after %d commits, the files are not as they were:\n%s", stopAt, diff)
			}
			continue
		}
		if err != nil {
			t.Fatalf("stopped after the last tool config: err = %v, want the run finished", err)
		}
		if len(applied.Written) != len(p.Stale()) {
			t.Errorf("stopped after the last tool config: %d files written, want %d", len(applied.Written), len(p.Stale()))
		}
		for _, f := range p.Stale() {
			if got := after[f.Path]; got != string(f.After) {
				t.Errorf("stopped after the last tool config: %s does not hold its new version", f.Display)
			}
		}
		if !strings.Contains(after[filepath.Join(root, ".mcp.json")], `"mine"`) {
			t.Error("the user's own server is gone")
		}
	}
}

// A stop while the run waits for a tool's lock (Claude Code's, held by
// a save that goes on) stops the wait: the run puts back what it had
// written and ends, the tool's lock left to the tool. And a second
// signal (Interrupt.Abort) while the run puts a file back waits for no
// lock: the file is put back without it, and the run says so.
func TestStopCutsToolLockWaits(t *testing.T) {
	env := testEnv(t)
	path := filepath.Join(env.Home, ".claude.json")
	write(t, path, claudeJSON(2))
	p, err := planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	if err != nil {
		t.Fatal(err)
	}
	lock := path + ".lock"
	if err := os.Mkdir(lock, 0o700); err != nil { // the tool is saving
		t.Fatal(err)
	}
	stop := make(chan struct{})
	time.AfterFunc(50*time.Millisecond, func() { close(stop) })
	_, err = ApplyInterruptible(p, Interrupt{Stop: stop})
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	if got := read(t, path); got != claudeJSON(2) {
		t.Fatal("~/.claude.json was written")
	}
	if _, err := os.Stat(lock); err != nil {
		t.Fatal("the tool's lock was removed")
	}
	os.Remove(lock)

	// Abort: ~/.claude.json is replaced, then the tool takes its lock
	// and a signal stops the run before the next config, and a second
	// one comes while the run waits to put ~/.claude.json back.
	write(t, filepath.Join(env.Home, ".gemini", "settings.json"), "{}\n")
	p, err = planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeUser, "claude", "gemini")
	if err != nil {
		t.Fatal(err)
	}
	// Apply's order: records' intents, then the configs.
	var configs []string
	for _, f := range p.Stale() {
		if f.Scope != plan.ScopeRecord {
			configs = append(configs, f.Path)
		}
	}
	if i := slices.Index(configs, path); i < 0 || i == len(configs)-1 {
		t.Fatalf("~/.claude.json is not committed before another config: %q", configs)
	}
	stop, abort := make(chan struct{}), make(chan struct{})
	// Once repo has replaced ~/.claude.json and let go of the tool's lock.
	fsys := fsfault.New().After(fsfault.Remove, lock, 1, func() {
		os.Mkdir(lock, 0o700)
		close(stop)
		close(abort)
	})
	applied, err := apply(p, Interrupt{Stop: stop, Abort: abort}, fsys)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	if got := read(t, path); got != claudeJSON(2) {
		t.Fatal("~/.claude.json was not put back")
	}
	if !strings.Contains(strings.Join(applied.Warnings, "\n"), "put back without its tool's lock: aborted") {
		t.Errorf("warnings %q do not say the file was put back without the tool's lock", applied.Warnings)
	}
	if _, err := os.Stat(lock); err != nil {
		t.Fatal("the tool's lock was removed")
	}
	assertNoStaged(t, env.Home)
}

// A stop while the new versions are staged stages nothing more, removes
// what was staged, and writes nothing; so does a stop before the run.
func TestStopWhileStagingWritesNothing(t *testing.T) {
	env := testEnv(t)
	write(t, filepath.Join(env.Root, ".mcp.json"), "{}\n")
	p := planFor(t, env, []string{"claude", "cursor", "gemini", "vscode", "codex"})
	before := snapshotTree(t, env.Root)
	stop := make(chan struct{})
	close(stop)
	_, err := ApplyInterruptible(p, Interrupt{Stop: stop})
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	if diff := diffTrees(before, snapshotTree(t, env.Root)); diff != "" {
		t.Errorf("files changed:\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(env.Root, ".cursor")); !fileio.IsMissing(err) {
		t.Error(".cursor/ is left behind")
	}
}

// snapshotTree is every file under root (its path, then its bytes), and
// every folder (with a trailing separator).
func snapshotTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
		case d.IsDir():
			out[path+string(filepath.Separator)] = ""
		default:
			b, _ := os.ReadFile(path)
			out[path] = string(b)
		}
		return nil
	})
	return out
}

// diffTrees names the paths that differ between two snapshots.
func diffTrees(a, b map[string]string) string {
	var out []string
	for p, v := range a {
		if w, ok := b[p]; !ok {
			out = append(out, "gone: "+p)
		} else if w != v {
			out = append(out, "changed: "+p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			out = append(out, "new: "+p)
		}
	}
	return strings.Join(out, "\n")
}
