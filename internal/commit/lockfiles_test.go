package commit

import (
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// Runs that lock the same per-user files, named in any order, take them
// in one order: they never wait for each other in a circle. A file reached
// by two targets is locked once, and project files are not locked here
// (the workspace lock covers them).
func TestLockFilesInOneOrder(t *testing.T) {
	home := t.TempDir()
	env := target.Env{Root: t.TempDir(), Env: toolprofiles.Env{Home: home, GOOS: "linux", Getenv: func(string) string { return "" }}}
	a := &target.Target{Path: filepath.Join(home, "a.json"), Display: "~/a.json", Scope: toolprofiles.ScopeUser}
	b := &target.Target{Path: filepath.Join(home, "b.json"), Display: "~/b.json", Scope: toolprofiles.ScopeLocal}
	again := &target.Target{Path: a.Path, Display: a.Display, Scope: toolprofiles.ScopeLocal, Key: []string{"projects"}}
	project := &target.Target{Path: filepath.Join(env.Root, ".mcp.json"), Display: ".mcp.json", Scope: toolprofiles.ScopeProject}
	orders := [][]*target.Target{{a, b, again, project}, {b, a}}
	var wg sync.WaitGroup
	errs := make(chan error, 2*200)
	for _, targets := range orders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				unlock, err := LockFiles(env, targets, 10*time.Second, nil)
				if err != nil {
					errs <- err
					return
				}
				unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// Held: another run waits, is told which file, and gives up in time.
	unlock, err := LockFiles(env, []*target.Target{a, project}, time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	var waited []string
	_, err = LockFiles(env, []*target.Target{b, again}, 100*time.Millisecond, func(file string) { waited = append(waited, file) })
	if !errors.Is(err, ErrLocked) || len(waited) != 1 || waited[0] != "~/a.json" {
		t.Fatalf("err = %v, waited for %v", err, waited)
	}
	// A project file alone takes no lock of this kind.
	u, err := LockFiles(env, []*target.Target{project}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	u()
}
