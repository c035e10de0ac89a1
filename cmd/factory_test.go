package cmd

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	wcommit "github.com/repo-manager/repo/internal/commit"
	"github.com/repo-manager/repo/internal/plan"
)

// symlinkedWorkspace makes a workspace and a symlink to it, and returns
// the workspace's real path and the link.
func symlinkedWorkspace(t *testing.T) (real, link string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the root is not resolved on Windows")
	}
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(filepath.Join(ws, ".repository", "extensions"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	link = filepath.Join(dir, "link")
	if err := os.Symlink(ws, link); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(ws)
	if err != nil {
		t.Fatal(err)
	}
	return real, link
}

func factoryAt(wd string, env map[string]string) *Factory {
	return &Factory{
		Getenv: func(k string) string { return env[k] },
		Getwd:  func() (string, error) { return wd, nil },
		GOOS:   runtime.GOOS,
	}
}

// The root is the workspace's real path whichever path led to it: the
// working directory through a link (Go's os.Getwd keeps $PWD's links),
// a subfolder of it, or --root through the link; and the path it was
// reached by is kept, for the records of earlier versions.
func TestRootIsTheRealPath(t *testing.T) {
	real, link := symlinkedWorkspace(t)
	for _, tt := range []struct {
		name, wd, flag, reached string
	}{
		{"cwd is the real path", real, "", ""},
		{"cwd through the link", link, "", link},
		{"subfolder through the link", filepath.Join(link, "sub"), "", link},
		{"--root through the link", "/", link, link},
		{"--root through the link, trailing slash", "/", link + "/", link},
		{"--root real", "/", real, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root, reached, err := factoryAt(tt.wd, nil).roots(tt.flag)
			if err != nil || root != real || reached != tt.reached {
				t.Fatalf("roots(%q) from %s = %q, %q, %v; want %q, %q", tt.flag, tt.wd, root, reached, err, real, tt.reached)
			}
		})
	}
	f := factoryAt(link, nil)
	f.GOOS = "windows"
	if root, reached, err := f.roots(""); err != nil || root != link || reached != "" {
		t.Fatalf("on Windows roots = %q, %q, %v; want the path as reached, %q", root, reached, err, link)
	}
}

// Two paths to one workspace take one lock: a sync through the link waits
// for (here: gives up on) one through the real path.
func TestTwoPathsToOneWorkspaceTakeOneLock(t *testing.T) {
	real, link := symlinkedWorkspace(t)
	env := map[string]string{"HOME": t.TempDir()}
	lockFor := func(wd string) string {
		t.Helper()
		f := factoryAt(wd, env)
		root, err := f.Root("")
		if err != nil {
			t.Fatal(err)
		}
		path, err := plan.LockPath(f.Env(root))
		if err != nil {
			t.Fatal(err)
		}
		return path
	}
	viaReal, viaLink := lockFor(real), lockFor(filepath.Join(link, "sub"))
	if viaReal != viaLink {
		t.Fatalf("lock %s through the real path, %s through the link", viaReal, viaLink)
	}
	unlock, err := wcommit.Lock(viaReal, time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	waited := false
	if _, err := wcommit.Lock(viaLink, 100*time.Millisecond, func() { waited = true }); !errors.Is(err, wcommit.ErrLocked) || !waited {
		t.Fatalf("second lock through the link: %v, waited %v; want it to wait and give up", err, waited)
	}
}

// A relative HOME (or USERPROFILE) is no home folder: ~ would be the
// working directory.
func TestHomeIgnoresRelativeValues(t *testing.T) {
	for _, tt := range []struct {
		goos string
		env  map[string]string
		want string
	}{
		{"linux", map[string]string{"HOME": "/home/u"}, "/home/u"},
		{"linux", map[string]string{"HOME": "home/u"}, ""},
		{"linux", map[string]string{"HOME": "."}, ""},
		{"windows", map[string]string{"USERPROFILE": "/Users/u", "HOME": "/home/u"}, "/Users/u"},
		{"windows", map[string]string{"USERPROFILE": "u", "HOME": "/home/u"}, "/home/u"},
		{"windows", map[string]string{"USERPROFILE": "u", "HOME": "h"}, ""},
	} {
		f := factoryAt("/", tt.env)
		f.GOOS = tt.goos
		if got := f.Home(); got != tt.want {
			t.Errorf("%s %v: Home() = %q, want %q", tt.goos, tt.env, got, tt.want)
		}
	}
}
