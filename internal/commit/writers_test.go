package commit

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

func testEnv(t *testing.T) target.Env {
	t.Helper()
	root := t.TempDir()
	return target.Env{Root: root, Env: toolprofiles.Env{Home: filepath.Join(root, "home"), GOOS: "linux", Getenv: func(string) string { return "" }}}
}

func profiles(t *testing.T, ids ...string) []*toolprofiles.Profile {
	t.Helper()
	set, err := toolprofiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var out []*toolprofiles.Profile
	for _, id := range ids {
		out = append(out, set.Get(id))
	}
	return out
}

var server = extensions.Server{Name: "s", Extension: "ext", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "node", Args: []string{"s.js"}}}

// mustSync plans and applies once, returning the plan.
func mustSync(t *testing.T, env target.Env, servers []extensions.Server, ids ...string) *plan.Plan {
	t.Helper()
	targets, _, err := target.Build(servers, profiles(t, ids...), toolprofiles.ScopeProject, env)
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

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A toggle the tool's UI wrote inside a managed entry (Zed "enabled",
// OpenCode "enabled": false) survives a sync, and does not count as a
// hand edit.
func TestPreservedMembersSurvive(t *testing.T) {
	env := testEnv(t)
	mustSync(t, env, []extensions.Server{server}, "opencode", "zed")
	oc := filepath.Join(env.Root, "opencode.json")
	zed := filepath.Join(env.Root, ".zed", "settings.json")
	write(t, oc, strings.Replace(read(t, oc), `"enabled": true`, `"enabled": false`, 1))
	write(t, zed, strings.Replace(read(t, zed), `"command": "node",`, `"command": "node", "enabled": false,`, 1))

	p := mustSync(t, env, []extensions.Server{server}, "opencode", "zed")
	if stale := p.Stale(); len(stale) != 0 {
		t.Fatalf("a preserved toggle made %s stale: %+v", stale[0].Display, stale[0].Changes)
	}
	// A real change rewrites the entry but keeps the toggle.
	changed := server
	changed.Args = []string{"s.js", "--v"}
	mustSync(t, env, []extensions.Server{changed}, "opencode", "zed")
	if got := read(t, oc); !strings.Contains(got, `"enabled": false`) || !strings.Contains(got, `"--v"`) {
		t.Errorf("opencode.json lost the user's toggle or the change:\n%s", got)
	}
	if got := read(t, zed); !strings.Contains(got, `"enabled": false`) || !strings.Contains(got, `"--v"`) {
		t.Errorf("zed settings lost the user's toggle or the change:\n%s", got)
	}
}

func TestReformattedEntryIsNotStale(t *testing.T) {
	env := testEnv(t)
	mustSync(t, env, []extensions.Server{server}, "claude")
	path := filepath.Join(env.Root, ".mcp.json")
	// What a tool's own writer might do: compact, keys reordered.
	write(t, path, `{"mcpServers":{"s":{"args":["s.js"],"command":"node","type":"stdio"}}}`)
	targets, _, _ := target.Build([]extensions.Server{server}, profiles(t, "claude"), toolprofiles.ScopeProject, env)
	p, err := plan.Build(env, targets, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Stale()) != 0 {
		t.Fatalf("reformatted entry reported stale: %+v", p.Stale()[0].Changes)
	}
}

// A config managed by a dotfile manager is a symlink: the write goes to
// its target and the link stays a link.
func TestWritesThroughSymlink(t *testing.T) {
	env := testEnv(t)
	real := filepath.Join(env.Root, "dotfiles", "mcp.json")
	write(t, real, "{\n  \"mcpServers\": {}\n}\n")
	link := filepath.Join(env.Root, ".mcp.json")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	mustSync(t, env, []extensions.Server{server}, "claude")
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if !strings.Contains(read(t, real), `"s"`) {
		t.Fatal("the link's target was not written")
	}
}

func TestModeIsKept(t *testing.T) {
	env := testEnv(t)
	path := filepath.Join(env.Root, ".mcp.json")
	write(t, path, "{}\n")
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	mustSync(t, env, []extensions.Server{server}, "claude")
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode = %v, want 0600", fi.Mode().Perm())
	}
}

// A file that changes between planning and writing (Claude Code rewrites
// ~/.claude.json constantly) is not clobbered.
func TestChangedSincePlannedIsNotClobbered(t *testing.T) {
	env := testEnv(t)
	path := filepath.Join(env.Root, ".mcp.json")
	write(t, path, "{}\n")
	targets, _, _ := target.Build([]extensions.Server{server}, profiles(t, "claude"), toolprofiles.ScopeProject, env)
	p, err := plan.Build(env, targets, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	write(t, path, "{\"theirs\": 1}\n")
	if _, err := Apply(p); err == nil || !strings.Contains(err.Error(), "changed while repo was planning") {
		t.Fatalf("err = %v", err)
	}
	if got := read(t, path); got != "{\"theirs\": 1}\n" {
		t.Fatalf("the other program's write was lost: %q", got)
	}
}

func TestNoFileCreatedWithoutEntries(t *testing.T) {
	env := testEnv(t)
	p := mustSync(t, env, nil, "cursor")
	if len(p.Stale()) != 0 {
		t.Fatalf("stale: %v", p.Stale()[0].Display)
	}
	if _, err := os.Stat(filepath.Join(env.Root, ".cursor")); !os.IsNotExist(err) {
		t.Fatal("created .cursor/ with nothing to write")
	}
}

func TestDiffOfNewFile(t *testing.T) {
	f := &plan.FilePlan{Display: ".cursor/mcp.json", After: []byte("{}\n"), Mode: 0o644}
	want := "diff --git a/.cursor/mcp.json b/.cursor/mcp.json\nnew file mode 100644\n--- /dev/null\n+++ b/.cursor/mcp.json\n@@ -0,0 +1 @@\n+{}\n"
	if got := plan.Diff(f); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if plan.Diff(&plan.FilePlan{Existed: true, Before: []byte("x"), After: []byte("x")}) != "" {
		t.Fatal("diff of an unchanged file is not empty")
	}
}

func TestRecordIsDeterministic(t *testing.T) {
	r := &plan.Record{Version: 1}
	r.Put("b.json", []string{"k"}, map[string]plan.Owned{"z": {Extension: "e", Digest: "d1"}, "a": {Extension: "e", Digest: "d2"}})
	r.Put("a.json", []string{"k"}, map[string]plan.Owned{"x": {Extension: "e", Digest: "d3"}})
	first := string(r.Bytes())
	for i := 0; i < 10; i++ {
		if string(r.Bytes()) != first {
			t.Fatal("record bytes vary")
		}
	}
	if !strings.HasSuffix(first, "\n") || strings.Index(first, "a.json") > strings.Index(first, "b.json") {
		t.Fatalf("record not sorted or without final newline:\n%s", first)
	}
	r.Put("a.json", []string{"k"}, nil)
	if strings.Contains(string(r.Bytes()), "a.json") {
		t.Fatal("an empty target stays in the record")
	}
}

func TestUserRecordPath(t *testing.T) {
	env := testEnv(t)
	p, err := plan.UserRecordPath(env)
	if err != nil || !strings.HasPrefix(p, filepath.Join(env.Home, ".local", "state", "repo", "workspaces")) {
		t.Fatalf("%s %v", p, err)
	}
	other := env
	other.Root = env.Root + "2"
	q, _ := plan.UserRecordPath(other)
	if p == q {
		t.Fatal("two workspaces share a per-user record")
	}
}

// A write that fails before any file is replaced (here: a folder
// replaced by a file after planning, which even root cannot write into)
// writes nothing at all: every new version is made ready before any file
// is replaced. It names the file, and a run after the fix converges.
func TestFailureBeforeWritesWritesNothing(t *testing.T) {
	env := testEnv(t)
	ids := []string{"claude", "cursor", "gemini", "vscode"}
	p := planFor(t, env, ids)
	blocked := filepath.Join(env.Root, ".gemini")
	write(t, blocked, "a file where a folder should be\n")
	applied, err := Apply(p)
	if err == nil || !strings.Contains(err.Error(), ".gemini/settings.json") || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("err = %v, want one naming .gemini/settings.json and saying nothing was written", err)
	}
	if len(applied.Written) != 0 {
		t.Fatalf("%d files written before a failure that staging could see", len(applied.Written))
	}
	for _, f := range p.Files {
		if _, err := os.Stat(f.Path); !fileio.IsMissing(err) {
			t.Errorf("%s exists after a run that failed before writing", f.Display)
		}
	}
	for _, dir := range []string{".cursor", ".vscode"} {
		if _, err := os.Stat(filepath.Join(env.Root, dir)); !fileio.IsMissing(err) {
			t.Errorf("%s/ was created by a run that wrote nothing: it would count as evidence of the tool", dir)
		}
	}
	assertNoStaged(t, env.Root)
	os.Remove(blocked)
	converges(t, env, ids)
}

// A write that fails in the middle of the replacements (here: a tool
// rewrote the third file after planning) puts back every file it already
// replaced and removes the folders it created, so the run leaves the
// workspace as it found it; it names the file, keeps the tool's rewrite
// and the ownership record as they were, leaves no temporary file, and a
// run after it converges.
func TestFailureDuringWritesPutsBack(t *testing.T) {
	env := testEnv(t)
	ids := []string{"claude", "cursor", "gemini", "vscode"}
	mine := "{\n  \"mcpServers\": {\"mine\": {\"command\": \"x\"}}\n}\n"
	write(t, filepath.Join(env.Root, ".mcp.json"), mine)
	gemini := filepath.Join(env.Root, ".gemini", "settings.json")
	write(t, gemini, "{\"theme\": \"dark\"}\n")
	p := planFor(t, env, ids)
	write(t, gemini, "{\"theme\": \"light\"}\n") // the tool, after repo planned
	applied, err := Apply(p)
	if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), ".gemini/settings.json") || !strings.Contains(err.Error(), "put back") {
		t.Fatalf("err = %v, want ErrChanged naming .gemini/settings.json, saying what was put back", err)
	}
	if len(applied.Written) != 0 {
		t.Fatalf("%d files reported written after a failure that put everything back", len(applied.Written))
	}
	if got := read(t, filepath.Join(env.Root, ".mcp.json")); got != mine {
		t.Errorf(".mcp.json was replaced before the failure and not put back:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(env.Root, ".cursor")); !fileio.IsMissing(err) {
		t.Error(".cursor/ was created for a file the failed run did not keep")
	}
	if got := read(t, gemini); got != "{\"theme\": \"light\"}\n" {
		t.Errorf("the tool's rewrite was lost: %q", got)
	}
	if _, err := os.Stat(plan.ProjectRecordPath(env.Root)); !os.IsNotExist(err) {
		t.Error("the ownership record was written although a config write failed")
	}
	assertNoStaged(t, env.Root)
	converges(t, env, ids)
}

// assertNoStaged fails if a temporary file of a write is left under root.
func assertNoStaged(t *testing.T, root string) {
	t.Helper()
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".repo-") {
			t.Errorf("temporary file left behind: %s", path)
		}
		return nil
	})
}

// plan plans the project scope of the tools for server.
func planFor(t *testing.T, env target.Env, ids []string) *plan.Plan {
	t.Helper()
	targets, _, err := target.Build([]extensions.Server{server}, profiles(t, ids...), toolprofiles.ScopeProject, env)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Build(env, targets, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// converges syncs and checks that a second plan has nothing to do.
func converges(t *testing.T, env target.Env, ids []string) {
	t.Helper()
	mustSync(t, env, []extensions.Server{server}, ids...)
	if p := planFor(t, env, ids); len(p.Stale()) != 0 {
		t.Fatalf("a run after the failure did not converge: %d files stale", len(p.Stale()))
	}
}

// A second writing run waits for the lock, then gives up with a message
// that says so.
func TestLockTimesOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws.lock")
	unlock, err := fileio.Lock(path, time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	waited := false
	start := time.Now()
	_, err = fileio.Lock(path, 150*time.Millisecond, func() { waited = true })
	if !errors.Is(err, fileio.ErrLocked) || !strings.Contains(err.Error(), "another repo sync has been writing this workspace") || !waited {
		t.Fatalf("err = %v, waited = %v", err, waited)
	}
	if time.Since(start) < 150*time.Millisecond {
		t.Fatal("gave up before the timeout")
	}
	unlock()
	again, err := fileio.Lock(path, time.Second, nil)
	if err != nil {
		t.Fatalf("lock not released: %v", err)
	}
	again()
}
