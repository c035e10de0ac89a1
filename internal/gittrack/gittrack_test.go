package gittrack

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	if out, err := gitCmd(dir, args...).CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// gitCmd is git run in dir with none of the machine's configuration, as
// an author the tests name.
func gitCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	return cmd
}

func write(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestTracked(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	top := t.TempDir()
	git(t, top, "init", "-q")
	for _, f := range []string{"ws/.repository/mcp-managed.machine.json", "ws/.venv/bin/python", "ws/a[1].json", "ws/*", "other.txt"} {
		write(t, filepath.Join(top, f))
	}
	write(t, filepath.Join(top, "ws/untracked.json"))
	write(t, filepath.Join(top, "ws/a1.json"))
	git(t, top, "add", "--", ":(literal)ws/.repository", ":(literal)ws/.venv", ":(literal)ws/a[1].json", ":(literal)ws/*", "other.txt")

	got, ok := Top(filepath.Join(top, "ws", ".repository"))
	if !ok || got != top {
		t.Fatalf("Top = %q, %v; want %q", got, ok, top)
	}
	abs := func(rel string) string { return filepath.Join(top, filepath.FromSlash(rel)) }
	want := map[string]bool{
		abs("ws/.repository/mcp-managed.machine.json"): true,
		abs("ws/.venv"):          true, // a folder: a file under it is tracked
		abs("ws/a[1].json"):      true,
		abs("ws/a1.json"):        false, // a[1] is literal, not a glob
		abs("ws/*"):              true,
		abs("ws/untracked.json"): false,
		abs("ws/missing.json"):   false,
		abs("ws/.venv/bin"):      true,
		abs("ws/.ven"):           false, // a prefix of a name is not its folder
		filepath.Join(filepath.Dir(top), "elsewhere"): false,
	}
	var paths []string
	for p := range want {
		paths = append(paths, p)
	}
	tracked, err := Tracked(top, paths)
	if err != nil {
		t.Fatal(err)
	}
	for p, w := range want {
		if tracked[p] != w {
			t.Errorf("Tracked(%s) = %v, want %v", p, tracked[p], w)
		}
	}
}

func TestTopOutsideGit(t *testing.T) {
	if top, ok := Top(t.TempDir()); ok && !strings.HasPrefix(os.TempDir(), top) {
		t.Fatalf("Top found %q above a new temp dir", top)
	}
}

func TestTrackedNamesGitsComplaint(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	// A .git that is not a repository: git refuses, and the error says so.
	write(t, filepath.Join(dir, ".git"))
	_, err := Tracked(dir, []string{filepath.Join(dir, "x")})
	if err == nil || !strings.Contains(err.Error(), dir) {
		t.Fatalf("err = %v, want one naming %s", err, dir)
	}
}
