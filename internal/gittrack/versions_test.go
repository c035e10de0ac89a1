package gittrack

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestVersions(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	top := t.TempDir()
	git(t, top, "init", "-q")
	path := filepath.Join(top, "ws", "rec.json")
	put := func(s string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check := func(wantHead, wantIndex []byte) {
		t.Helper()
		head, index, err := Versions(top, path)
		if err != nil {
			t.Fatal(err)
		}
		if string(head) != string(wantHead) || (head == nil) != (wantHead == nil) {
			t.Errorf("HEAD version %q, want %q", head, wantHead)
		}
		if string(index) != string(wantIndex) || (index == nil) != (wantIndex == nil) {
			t.Errorf("index version %q, want %q", index, wantIndex)
		}
	}
	put("one\n")
	check(nil, nil) // no commit, not staged
	git(t, top, "add", "ws/rec.json")
	check(nil, []byte("one\n"))
	git(t, top, "commit", "-q", "-m", "1")
	put("two\nlines, no final newline")
	check([]byte("one\n"), []byte("one\n")) // the work tree's version is not git's
	git(t, top, "add", "ws/rec.json")
	check([]byte("one\n"), []byte("two\nlines, no final newline"))
	git(t, top, "rm", "-q", "--cached", "ws/rec.json")
	check([]byte("one\n"), nil)
	if h, i, err := Versions(top, filepath.Join(filepath.Dir(top), "x")); h != nil || i != nil || err != nil {
		t.Errorf("a path outside the work tree: %q %q %v", h, i, err)
	}
}
