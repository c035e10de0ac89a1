package examples

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestCommittedConfigsCheckAtAnotherPath: the example workspace is set up
// the way a team that commits its tool configs sets it up, so a copy
// synced at one path passes `repo sync --check` at another path (a CI
// runner's checkout) right away.
func TestCommittedConfigsCheckAtAnotherPath(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the repo binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "repo")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/repo-manager/repo/cmd/repo").CombinedOutput(); err != nil {
		t.Skipf("cannot build repo: %v\n%s", err, out)
	}
	developer, ci := filepath.Join(dir, "home", "dev", "ws"), filepath.Join(dir, "runner", "work", "ws")
	if err := os.CopyFS(developer, os.DirFS("workspace")); err != nil {
		t.Fatal(err)
	}
	repo := func(root string, args ...string) (string, error) {
		c := exec.Command(bin, args...)
		c.Dir = root
		c.Env = append(os.Environ(), "HOME="+filepath.Join(dir, "home", "dev"), "XDG_STATE_HOME=")
		out, err := c.CombinedOutput()
		return string(out), err
	}
	if out, err := repo(developer, "sync"); err != nil {
		t.Fatalf("sync: %v\n%s", err, out)
	}
	if err := os.CopyFS(ci, os.DirFS(developer)); err != nil {
		t.Fatal(err)
	}
	if out, err := repo(ci, "sync", "--check"); err != nil {
		t.Fatalf("check at another path: %v\n%s", err, out)
	}
}
