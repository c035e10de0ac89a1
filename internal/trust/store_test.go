package trust

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func show(p string) string { return p }

func TestStoreRoundTrip(t *testing.T) {
	state, root := t.TempDir(), t.TempDir()
	path := Path(state, root)
	s, err := Open(path, root, show)
	if err != nil {
		t.Fatal(err)
	}
	d := Define(baseServer(), nil)
	if st, _ := s.Check("helper", d); st != New {
		t.Fatalf("empty store: %s, want new", st)
	}
	s.Trust("helper", d, d)
	s.Synced["helper"] = "sha256:x"
	if err := s.Save(show); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %04o, want 0600", fi.Mode().Perm())
	}
	s, err = Open(path, root, show)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Check("helper", d); st != Trusted {
		t.Fatalf("after saving: %s, want trusted", st)
	}
	changed := baseServer()
	changed.Command = "/bin/sh"
	st, old := s.Check("helper", Define(changed, nil))
	if st != Changed || old == nil || old.Command != d.Command {
		t.Fatalf("changed: %s %v, want changed with the old definition", st, old)
	}
	if s.Synced["helper"] != "sha256:x" {
		t.Errorf("synced not kept: %v", s.Synced)
	}
	// Unchanged: not written again.
	before, _ := os.ReadFile(path)
	if err := os.Chmod(filepath.Dir(path), 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(filepath.Dir(path), 0o700)
	if err := s.Save(show); err != nil {
		t.Fatalf("an unchanged store is written: %v", err)
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Error("unchanged store rewritten")
	}
}

func TestStoreOfAnotherWorkspace(t *testing.T) {
	state, root := t.TempDir(), t.TempDir()
	path := Path(state, root)
	s, _ := Open(path, root, show)
	s.Trust("helper", Define(baseServer(), nil), Define(baseServer(), nil))
	if err := s.Save(show); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path, "/elsewhere", show); err == nil || !strings.Contains(err.Error(), "belongs to the workspace") {
		t.Fatalf("a store of another workspace is read: %v", err)
	}
}

// TestStoreRefused plays the repository that wants its servers trusted: a
// store it could have put in place is neither read nor written.
func TestStoreRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("owners and modes are checked on Unix")
	}
	refused := func(t *testing.T, path, root, want string) {
		t.Helper()
		_, err := Open(path, root, show)
		var re *RefusedError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), want) {
			t.Fatalf("Open: %v, want a refusal saying %q", err, want)
		}
		s := &Store{path: path, root: root, Trusted: map[string]Entry{"x": {}}}
		if err := s.Save(show); !errors.As(err, &re) {
			t.Fatalf("Save: %v, want a refusal", err)
		}
	}
	committed := func(t *testing.T, path, root string) {
		t.Helper()
		s := &Store{path: path, root: root, Trusted: map[string]Entry{}}
		s.Trust("helper", Define(baseServer(), nil), Define(baseServer(), nil))
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, s.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("inside the workspace", func(t *testing.T) {
		root := t.TempDir()
		path := Path(filepath.Join(root, ".state", "repo"), root)
		committed(t, path, root)
		refused(t, path, root, "inside the workspace")
	})
	t.Run("through a link into the workspace", func(t *testing.T) {
		root, state := t.TempDir(), t.TempDir()
		if err := os.Mkdir(filepath.Join(root, ".state"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(root, ".state"), filepath.Join(state, "repo")); err != nil {
			t.Fatal(err)
		}
		path := Path(filepath.Join(state, "repo"), root)
		committed(t, path, root)
		refused(t, path, root, "inside the workspace")
	})
	t.Run("written by others", func(t *testing.T) {
		state, root := t.TempDir(), t.TempDir()
		path := Path(state, root)
		committed(t, path, root)
		if err := os.Chmod(path, 0o620); err != nil {
			t.Fatal(err)
		}
		refused(t, path, root, "others may write")
	})
	t.Run("in a folder others may write", func(t *testing.T) {
		state, root := t.TempDir(), t.TempDir()
		path := Path(state, root)
		committed(t, path, root)
		if err := os.Chmod(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		refused(t, path, root, "others may write")
	})
	t.Run("of another user", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("only root can give a file to another user")
		}
		state, root := t.TempDir(), t.TempDir()
		path := Path(state, root)
		committed(t, path, root)
		if err := os.Chown(path, 4242, 4242); err != nil {
			t.Fatal(err)
		}
		refused(t, path, root, "belongs to another user (uid 4242)")
	})
	t.Run("tracked by git", func(t *testing.T) {
		if _, err := exec.LookPath("git"); err != nil {
			t.Skip("git is not installed")
		}
		other, root := t.TempDir(), t.TempDir()
		path := Path(filepath.Join(other, "state", "repo"), root)
		committed(t, path, root)
		for _, args := range [][]string{{"init", "-q"}, {"add", "-f", "."}} {
			cmd := exec.Command("git", args...)
			cmd.Dir = other
			cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		_, err := Open(path, root, show)
		if err == nil || !strings.Contains(err.Error(), "git tracks it") {
			t.Fatalf("Open: %v, want a refusal of a file git tracks", err)
		}
	})
}
