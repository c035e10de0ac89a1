package gittrack

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestFromRepository: a file is from the repository while it holds what
// git holds for it (index or HEAD), and after a commit that stopped
// tracking it, while it holds the version that commit removed; a file
// this clone changed, or one git never held, is not.
func TestFromRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	top := t.TempDir()
	git(t, top, "init", "-q")
	path := filepath.Join(top, "ws", ".mcp.json")
	put := func(s string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check := func(step string, want bool) {
		t.Helper()
		got, err := FromRepository(top, path)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if got != want {
			t.Errorf("%s: FromRepository = %t, want %t", step, got, want)
		}
	}
	check("missing, no commit", false)
	put("one\n")
	check("new, no commit", false)
	git(t, top, "add", "ws/.mcp.json")
	check("staged", true)
	git(t, top, "commit", "-q", "-m", "1")
	check("committed", true)
	put("mine\n")
	check("changed in the work tree", false)
	put("one\n")
	git(t, top, "rm", "-q", "--cached", "ws/.mcp.json")
	check("untracked, HEAD has it", true)
	git(t, top, "commit", "-q", "-m", "untrack")
	check("untracked by a commit, as it removed it", true)
	os.WriteFile(filepath.Join(top, "other"), []byte("x"), 0o644)
	git(t, top, "add", "other")
	git(t, top, "commit", "-q", "-m", "later")
	check("untracked by an earlier commit", true)
	put("two\n")
	check("untracked, then changed", false)
	if ok, err := FromRepository(top, filepath.Join(top, "never")); ok || err != nil {
		t.Errorf("a file git never held: %t %v", ok, err)
	}
	put("one\n")
	if ok, err := FromRepository(top, filepath.Join(filepath.Dir(top), "x")); ok || err != nil {
		t.Errorf("a path outside the work tree: %t %v", ok, err)
	}
}
