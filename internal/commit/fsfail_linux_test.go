package commit

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// These tests play the file systems users have: immutable files, a full
// disk, a single-file bind mount (how ~/.claude.json reaches a dev
// container), device files behind links. Each needs root (CI runs as
// root) or a tool, and says why when it skips. They show the kernel does
// what fault_test.go models through the seam, where the same failures
// run as any user.

func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root (CI runs as root)")
	}
}

// A file that cannot be replaced in the middle of a run (here: made
// immutable with chattr +i, after earlier files of the run were
// replaced) stops the run, and every file already replaced is put back
// and every folder created is removed: the error then truthfully says
// nothing was written. On main the earlier files stayed replaced, no
// "wrote" line said so, and "nothing was written" was claimed.
func TestImmutableFileMidRunPutsBack(t *testing.T) {
	needRoot(t)
	if _, err := exec.LookPath("chattr"); err != nil {
		t.Skip("needs chattr")
	}
	env := testEnv(t)
	ids := []string{"claude", "cursor", "gemini", "vscode"}
	mcp := filepath.Join(env.Root, ".mcp.json")
	mine := "{\"mcpServers\": {\"mine\": {\"command\": \"x\"}}}\n"
	write(t, mcp, mine)
	gemini := filepath.Join(env.Root, ".gemini", "settings.json")
	write(t, gemini, "{}\n")
	p := planFor(t, env, ids)
	// Made immutable after the plan (which refuses an immutable file, see
	// TestImmutableFileRefusedWhenPlanned), while the run writes.
	if out, err := exec.Command("chattr", "+i", gemini).CombinedOutput(); err != nil {
		t.Skipf("chattr +i: %v %s (the file system may not support it)", err, out)
	}
	defer exec.Command("chattr", "-i", gemini).Run()
	applied, err := Apply(p)
	if err == nil || !strings.Contains(err.Error(), ".gemini/settings.json: cannot write") || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("err = %v", err)
	}
	if len(applied.Written) != 0 {
		t.Fatalf("%d files reported written", len(applied.Written))
	}
	if got := read(t, mcp); got != mine {
		t.Errorf(".mcp.json was not put back:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(env.Root, ".cursor")); !fileio.IsMissing(err) {
		t.Error(".cursor/ is left behind (it would count as evidence of Cursor)")
	}
	assertNoStaged(t, env.Root)
}

// An immutable file is refused when the run is planned, by the system's
// own access check (root may write any file but an immutable one), with
// what to do; nothing is written.
func TestImmutableFileRefusedWhenPlanned(t *testing.T) {
	needRoot(t)
	if _, err := exec.LookPath("chattr"); err != nil {
		t.Skip("needs chattr")
	}
	env := testEnv(t)
	mcp := filepath.Join(env.Root, ".mcp.json")
	write(t, mcp, "{}\n")
	if out, err := exec.Command("chattr", "+i", mcp).CombinedOutput(); err != nil {
		t.Skipf("chattr +i: %v %s (the file system may not support it)", err, out)
	}
	defer exec.Command("chattr", "-i", mcp).Run()
	targets, _, err := target.Build([]extensions.Server{server}, profiles(t, "claude", "cursor"), toolprofiles.ScopeProject, env)
	if err != nil {
		t.Fatal(err)
	}
	_, err = plan.Build(env, targets, plan.Options{})
	if err == nil || !strings.Contains(err.Error(), ".mcp.json: cannot be written: it is immutable") {
		t.Fatalf("err = %v, want .mcp.json refused as immutable", err)
	}
	if _, err := os.Stat(filepath.Join(env.Root, ".cursor")); !fileio.IsMissing(err) {
		t.Error(".cursor/ was created")
	}
}

// A full disk while the new versions are written (a tiny tmpfs) writes
// nothing, leaves no staged file, and says so.
func TestNoSpaceWritesNothing(t *testing.T) {
	needRoot(t)
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	defer syscall.Unmount(dir, syscall.MNT_DETACH)
	env := target.Env{Root: dir, Env: toolprofiles.Env{Home: filepath.Join(dir, "home"), GOOS: "linux", Getenv: func(string) string { return "" }}}
	mcp := filepath.Join(dir, ".mcp.json")
	write(t, mcp, "{\"mcpServers\": {}}\n")
	filler, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := filler.Write(make([]byte, 4096)); err != nil {
			break
		}
	}
	filler.Close()
	p := planFor(t, env, []string{"claude", "cursor"})
	_, err = Apply(p)
	if !errors.Is(err, syscall.ENOSPC) && (err == nil || !strings.Contains(err.Error(), "no space")) {
		t.Fatalf("err = %v, want no space left", err)
	}
	if !strings.Contains(err.Error(), "nothing was written") {
		t.Errorf("err = %v, want it to say nothing was written", err)
	}
	if got := read(t, mcp); got != "{\"mcpServers\": {}}\n" {
		t.Errorf(".mcp.json changed: %s", got)
	}
	if _, err := os.Stat(filepath.Join(dir, ".cursor")); !fileio.IsMissing(err) {
		t.Error(".cursor/ is left behind")
	}
	assertNoStaged(t, dir)
}

// A file that is a single-file bind mount cannot be renamed over (EBUSY):
// it is written in place, under the same changed-since-read check, with a
// warning, and a second run is a no-op. On main the local scope could
// never be written in a dev container that bind-mounts ~/.claude.json.
func TestBindMountedFileWrittenInPlace(t *testing.T) {
	needRoot(t)
	env := testEnv(t)
	host := filepath.Join(t.TempDir(), "host-claude.json")
	write(t, host, claudeJSON(2))
	path := filepath.Join(env.Home, ".claude.json")
	write(t, path, "")
	if err := syscall.Mount(host, path, "", syscall.MS_BIND, ""); err != nil {
		t.Skipf("cannot bind-mount a file: %v", err)
	}
	defer syscall.Unmount(path, syscall.MNT_DETACH)
	p, err := planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	if err != nil {
		t.Fatal(err)
	}
	applied, err := Apply(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(applied.Warnings) != 1 || !strings.Contains(applied.Warnings[0], "written in place") {
		t.Errorf("warnings = %q, want one saying the file was written in place", applied.Warnings)
	}
	if n, account := projectsIn(t, host); n != 3 || !account {
		t.Fatalf("the host's file has %d projects (want 3), account %v", n, account)
	}
	if !strings.Contains(read(t, host), `"command": "node"`) {
		t.Fatal("repo's entry did not reach the host's file")
	}
	if again, _ := planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude"); len(again.Stale()) != 0 {
		t.Fatal("a second run is not a no-op")
	}
}

// Targets that are not regular files are refused when planning, by kind
// and with the file's name, before anything is written: a device behind
// a link (~/.claude.json -> /dev/null, a common way to keep a tool from
// saving; as root, main renamed a regular 0666 file over the device) and
// a FIFO (main hung forever holding the lock).
func TestSpecialFileTargetsRefused(t *testing.T) {
	env := testEnv(t)
	path := filepath.Join(env.Home, ".claude.json")
	if err := os.MkdirAll(env.Home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(os.DevNull, path); err != nil {
		t.Fatal(err)
	}
	_, err := planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	if err == nil || !strings.Contains(err.Error(), "is a character device, not a regular file") {
		t.Fatalf("device: err = %v", err)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("%s is no longer a device: %v", os.DevNull, err)
	}
	fifo := filepath.Join(env.Root, ".mcp.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeProject, "claude")
	if err == nil || !strings.Contains(err.Error(), ".mcp.json: is a named pipe (FIFO), not a regular file") {
		t.Fatalf("fifo: err = %v", err)
	}
}

// New files get the mode any program's new file gets under the umask:
// under umask 077 nothing repo creates is readable by others (main wrote
// 0644 regardless); project files are 0666 less the umask, per-user files
// and the per-user record 0600 less it.
func TestNewFilesFollowUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	env := testEnv(t)
	syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeProject, "claude")
	syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	rec, err := plan.UserRecordPath(env)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(env.Root, ".mcp.json"), plan.ProjectRecordPath(env.Root), filepath.Join(env.Home, ".claude.json"), rec} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v under umask 077, want 0600", p, fi.Mode().Perm())
		}
	}
	syscall.Umask(0o002)
	env = testEnv(t)
	syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeProject, "claude")
	if fi, _ := os.Stat(filepath.Join(env.Root, ".mcp.json")); fi.Mode().Perm() != 0o664 {
		t.Errorf(".mcp.json: mode %v under umask 002, want 0664", fi.Mode().Perm())
	}
}

// A rewrite keeps every mode bit of the file, setgid included (main kept
// only the permission bits), and its group.
func TestRewriteKeepsSetgidAndGroup(t *testing.T) {
	env := testEnv(t)
	path := filepath.Join(env.Root, ".mcp.json")
	write(t, path, "{\"mcpServers\": {}}\n")
	if err := os.Chmod(path, 0o664|os.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		if err := os.Chown(path, 0, 12345); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, 0o664|os.ModeSetgid); err != nil { // chown cleared it
			t.Fatal(err)
		}
	}
	before, _ := os.Stat(path)
	mustSync(t, env, []extensions.Server{server}, "claude")
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if after.Mode() != before.Mode() {
		t.Errorf("mode %v after the rewrite, want %v", after.Mode(), before.Mode())
	}
	if _, gid := fileio.Owner(after); os.Geteuid() == 0 && gid != 12345 {
		t.Errorf("group %d after the rewrite, want 12345", gid)
	}
}

// A user's own entry with a managed server's name is the user's even when
// it differs from repo's entry only by an absolute path prefix (what repo
// writes at another workspace root): not claimed without --adopt, and so
// never deleted when the extension goes. On main it was taken for repo's,
// updated, and removed with the extension.
func TestUsersLookalikeEntryIsNotClaimed(t *testing.T) {
	env := testEnv(t)
	s := extensions.Server{Name: "vs", Extension: "vault", Spec: extensions.Spec{Transport: extensions.Stdio,
		Command: filepath.Join(env.Root, ".repository/extensions/vault/.venv/bin/python"),
		Args:    []string{"serve", "--root", env.Root}}}
	path := filepath.Join(env.Root, ".mcp.json")
	mine := strings.ReplaceAll(`{"mcpServers": {"vs": {"command": "/home/me/other/.repository/extensions/vault/.venv/bin/python", "args": ["serve", "--root", "/home/me/other"]}}}`+"\n", "/", string(filepath.Separator))
	write(t, path, mine)
	_, err := planScope(t, env, []extensions.Server{s}, toolprofiles.ScopeProject, "claude")
	var conflict *plan.ConflictError
	if !errors.As(err, &conflict) {
		t.Fatalf("err = %v, want the conflict of a user's own entry", err)
	}
	if got := read(t, path); got != mine {
		t.Fatal("the user's entry was changed")
	}
	// With the extension gone the user's entry stays.
	syncScope(t, env, nil, toolprofiles.ScopeProject, "claude")
	if got := read(t, path); got != mine {
		t.Fatalf("the user's entry was removed with the extension:\n%s", got)
	}
}
