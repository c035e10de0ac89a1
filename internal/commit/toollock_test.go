package commit

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/toolprofiles"
)

// A tool that re-reads and saves its file under its lock (Claude Code:
// mkdir ~/.claude.json.lock) and a sync planned before that save: repo
// waits for the lock instead of replacing the file in the middle of the
// tool's save (which the tool's save would then undo, dropping repo's
// entries), sees the save, and plans again — so both end in the file.
func TestClaudeLockIsTaken(t *testing.T) {
	env := testEnv(t)
	path := filepath.Join(env.Home, ".claude.json")
	write(t, path, claudeJSON(2))
	p, err := planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	if err != nil {
		t.Fatal(err)
	}
	lock := path + ".lock"
	if err := os.Mkdir(lock, 0o700); err != nil { // the tool takes its lock, re-reads …
		t.Fatal(err)
	}
	saved := make(chan struct{})
	go func() { // … and saves its copy, with a project of its own, 200 ms later
		defer close(saved)
		time.Sleep(200 * time.Millisecond)
		os.WriteFile(path+".tmp", []byte(claudeJSON(3)), 0o600)
		os.Rename(path+".tmp", path)
		os.Remove(lock)
	}()
	start := time.Now()
	_, err = Apply(p)
	<-saved
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("err = %v, want ErrChanged: repo replaced the file under the tool's lock", err)
	}
	if waited := time.Since(start); waited < 150*time.Millisecond {
		t.Fatalf("Apply returned after %v, before the tool released its lock", waited)
	}
	syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	if n, _ := projectsIn(t, path); n != 4 || !strings.Contains(read(t, path), `"command": "node"`) {
		t.Fatalf("after the retry: %d projects, want the tool's 3 and the workspace with repo's entry", n)
	}
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Error("the lock folder is left behind")
	}
}

// A lock folder a crashed tool left (old) does not make every sync wait:
// the file is written without it, with a warning, and the folder is left
// to its tool.
func TestStaleClaudeLockIsPassed(t *testing.T) {
	env := testEnv(t)
	path := filepath.Join(env.Home, ".claude.json")
	write(t, path, claudeJSON(1))
	lock := path + ".lock"
	if err := os.Mkdir(lock, 0o700); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Minute)
	os.Chtimes(lock, old, old)
	p, err := planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	applied, err := Apply(p)
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > time.Second || len(applied.Warnings) != 1 || !strings.Contains(applied.Warnings[0], "written without its tool's lock") {
		t.Fatalf("took %v, warnings %q", time.Since(start), applied.Warnings)
	}
	if _, err := os.Stat(lock); err != nil {
		t.Error("the tool's stale lock was removed")
	}
}

// Copilot CLI's writer lock is an exclusive flock on a file it creates and
// binds by inode: repo waits while another process holds it, and never
// creates the file when it is missing.
func TestCopilotLockIsTakenNeverCreated(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("flock")
	}
	env := testEnv(t)
	dir := filepath.Join(env.Home, ".copilot")
	lock := filepath.Join(dir, ".mcp-writer.lock")
	syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeUser, "copilot")
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Fatal("repo created Copilot's lock file")
	}
	write(t, lock, "")
	f, err := os.OpenFile(lock, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := fileio.TryLock(f); !ok || err != nil {
		t.Fatalf("tryLock: %v %v", ok, err)
	}
	go func() {
		time.Sleep(200 * time.Millisecond)
		fileio.UnlockFile(f)
		f.Close()
	}()
	p, err := planScope(t, env, []extensions.Server{server, {Name: "t", Extension: "ext", Spec: server.Spec}}, toolprofiles.ScopeUser, "copilot")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := Apply(p); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited < 150*time.Millisecond {
		t.Fatalf("repo wrote after %v, while Copilot held its lock", waited)
	}
}
