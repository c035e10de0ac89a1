//go:build !windows

package commit

// The file system failing under a commit, through the seam
// (writers/internal/fsfault): every call a run makes fails in turn, and
// the named ways a commit fails — a full disk, a file that cannot be
// replaced in the middle of a run, a rename that cannot cross a mount, a
// put-back that fails, a tool saving at the worst moment — each as any
// user, without the root the real ones need (fsfail_linux_test.go has
// those, to show the kernel does what these model). Not on Windows, where
// every file is written in place (fileio.WritesInPlace): the in-place
// writes and their undo are covered here by EXDEV and EBUSY.

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers/internal/fileio"
	"github.com/repo-manager/repo/writers/internal/fsfault"
	"github.com/repo-manager/repo/writers/plan"
)

// scenario is a workspace and a run to commit in it.
type scenario struct {
	root   string
	planIt func() *plan.Plan
}

// projectRun: a run that updates the user's .mcp.json, Gemini's and
// Codex's files, creates .cursor/mcp.json in a new folder, deletes the
// file repo created for Amazon Q (a tool that left) and its folder, and
// writes the ownership record twice (its intent, then the record).
func projectRun(t *testing.T) scenario {
	env := testEnv(t)
	write(t, filepath.Join(env.Root, ".mcp.json"), "{\"mcpServers\": {\"mine\": {\"command\": \"x\"}}}\n")
	write(t, filepath.Join(env.Root, ".codex", "config.toml"), "# mine\nmodel = \"o3\"\n")
	mustSync(t, env, []extensions.Server{server}, "amazonq", "gemini")
	planIt := func() *plan.Plan {
		p, _ := planLeaving(t, env, toolprofiles.ScopeProject, []extensions.Server{server, second}, []string{"claude", "cursor", "gemini", "codex"}, []string{"amazonq"})
		return p
	}
	p := planIt()
	kinds := map[string]bool{}
	for _, f := range p.Stale() {
		kinds["delete"] = kinds["delete"] || f.Delete
		kinds["create"] = kinds["create"] || !f.Existed
		kinds["replace"] = kinds["replace"] || f.Existed && !f.Delete
		kinds["intent"] = kinds["intent"] || f.Intent != nil
	}
	if len(kinds) != 4 || slices.Contains([]bool{kinds["delete"], kinds["create"], kinds["replace"], kinds["intent"]}, false) {
		t.Fatalf("the run does not delete, create, replace and write an intent: %v", kinds)
	}
	return scenario{root: env.Root, planIt: planIt}
}

// userRun: a run at user scope that writes ~/.claude.json (0600) under
// Claude Code's lock (a folder) and Copilot's file under its lock (a
// flock on a file Copilot created).
func userRun(t *testing.T) scenario {
	env := testEnv(t)
	claude := filepath.Join(env.Home, ".claude.json")
	write(t, claude, claudeJSON(2))
	if err := os.Chmod(claude, 0o600); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(env.Home, ".copilot", ".mcp-writer.lock"), "")
	planIt := func() *plan.Plan {
		p, err := planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeUser, "claude", "copilot")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	locks := 0
	for _, f := range planIt().Stale() {
		locks += len(f.ToolLocks())
	}
	if locks != 2 {
		t.Fatalf("%d tool locks in the run, want Claude Code's and Copilot's", locks)
	}
	return scenario{root: env.Root, planIt: planIt}
}

// noRenameat2 is a file system without renameat2 (macOS, the BSDs, an old
// kernel, a file system that lacks it): a replaced file is kept by a hard
// link, and a new one appears after a look.
func noRenameat2() *fsfault.FS {
	return fsfault.New().
		Fail(fsfault.Exchange, "", 0, fileio.ErrUnsupported).
		Fail(fsfault.RenameNoReplace, "", 0, fileio.ErrUnsupported)
}

// A failure of any one call of a run — each in turn, with EIO — leaves
// every file as it was or every file written, and the run says which:
// nil and every file new, or an error and every file as it was but those
// it names as written (none, with one failure, but a file another program
// would have changed), the folders it created gone, nothing staged left
// but where the failed call was the removal of one. It holds with
// renameat2 and without it (the hard-link fallback), at project scope
// (updates, a new file in a new folder, a deletion, the record's intent)
// and at user scope (under Claude Code's and Copilot's locks).
func TestFailureAtEveryCallIsAllOrNothing(t *testing.T) {
	for _, sc := range []struct {
		name  string
		run   func(*testing.T) scenario
		base  func() *fsfault.FS
		calls int // fewer calls than this: the run is not the one meant
	}{
		{"project", projectRun, fsfault.New, 80},
		{"project without renameat2", projectRun, noRenameat2, 80},
		{"user", userRun, fsfault.New, 30},
		{"user without renameat2", userRun, noRenameat2, 30},
	} {
		// Hundreds of runs: their fsyncs are skipped (each fails in turn
		// all the same).
		base := func() *fsfault.FS { return sc.base().Add(fsfault.Rule{Op: fsfault.Sync, Skip: true}) }
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel() // each in its own folder; most of their time is the disk's
			s := sc.run(t)
			before := snapshotWithModes(t, s.root)
			p := s.planIt()
			rec := base()
			if _, err := apply(p, Interrupt{}, rec); err != nil {
				t.Fatal(err)
			}
			want := snapshotWithModes(t, s.root)
			calls := rec.Calls()
			if len(calls) < sc.calls {
				t.Fatalf("the run made %d calls, want at least %d", len(calls), sc.calls)
			}
			seen := map[string]int{}
			for i, c := range calls {
				key := string(c.Op) + " " + c.File
				seen[key]++
				if testing.Short() && i%4 != 0 {
					continue
				}
				restoreTree(t, s.root, before)
				fsys := base().Fail(c.Op, c.File, seen[key], syscall.EIO)
				applied, err := apply(s.planIt(), Interrupt{}, fsys)
				checkAllOrNothing(t, c, seen[key], s.root, before, want, applied, err)
			}
		})
	}
}

// checkAllOrNothing checks the files under root after a run that failed
// the nth call like c: as they were (before) or all new (want), as the
// run says.
func checkAllOrNothing(t *testing.T, c fsfault.Call, nth int, root string, before, want map[string]treeEntry, applied Applied, err error) {
	t.Helper()
	at := string(c.Op) + " " + c.File + " #" + strconv.Itoa(nth)
	got := snapshotWithModes(t, root)
	_, staged := fileio.StagedOf(c.Paths[0])
	switch {
	case c.Op == fsfault.Remove && staged:
		// What the failed removal was to remove stays: a staged copy, or
		// a replaced file (a later run removes them), and so does the
		// folder it is in.
		for _, p := range stagedIn(got) {
			delete(got, p)
		}
		for p := range got {
			if _, ok := want[p]; !ok && strings.HasSuffix(p, string(filepath.Separator)) && !slices.ContainsFunc(slices.Collect(maps.Keys(got)), func(q string) bool { return q != p && strings.HasPrefix(q, p) }) {
				delete(got, p)
			}
		}
	case c.Op == fsfault.Remove || c.Op == fsfault.Lstat:
		// A tool's lock folder, or the emptied folder of a file repo
		// deleted, which it removes only once it has seen it is a folder.
		dir := c.Paths[0] + string(filepath.Separator)
		if _, ok := want[dir]; !ok {
			delete(got, dir)
		}
	}
	if leftovers := stagedIn(got); len(leftovers) > 0 {
		t.Errorf("%s failed: staged files left: %q", at, leftovers)
	}
	if err == nil {
		if d := diffEntries(want, got); d != "" {
			t.Errorf("%s failed, the run says it wrote every file, but:\n%s", at, d)
		}
		return
	}
	written := map[string]bool{}
	for _, f := range applied.Written {
		written[f.Path] = true
		if !strings.Contains(err.Error(), f.Display) {
			t.Errorf("%s failed: %s is reported written but the error does not name it: %v", at, f.Display, err)
		}
	}
	if len(written) == 0 && !strings.Contains(err.Error(), "nothing was written") {
		t.Errorf("%s failed: nothing reported written, and the error does not say so: %v", at, err)
	}
	expect := before
	if len(written) > 0 {
		expect = map[string]treeEntry{}
		for p, e := range before {
			expect[p] = e
		}
		for p := range written {
			delete(expect, p)
			if e, ok := want[p]; ok {
				expect[p] = e
			}
		}
	}
	if d := diffEntries(expect, got); d != "" {
		t.Errorf("%s failed (%v); the files are not as the run says:\n%s", at, err, d)
	}
}

// A file that cannot be replaced in the middle of a run (immutable:
// EPERM on the swap of the third file) stops the run; the files already
// replaced are put back, the folder created is removed, and the error
// says so — what TestImmutableFileMidRunPutsBack shows with chattr as
// root.
func TestReplaceFailsMidRunPutsBack(t *testing.T) {
	for _, base := range []func() *fsfault.FS{fsfault.New, noRenameat2} {
		s := projectRun(t)
		before := snapshotWithModes(t, s.root)
		gemini := filepath.Join(s.root, ".gemini", "settings.json")
		fsys := base().
			Fail(fsfault.Exchange, gemini, 1, syscall.EPERM).
			Fail(fsfault.Rename, gemini, 1, syscall.EPERM)
		applied, err := apply(s.planIt(), Interrupt{}, fsys)
		if err == nil || !strings.Contains(err.Error(), ".gemini/settings.json: cannot write: operation not permitted; nothing was written (the ") {
			t.Fatalf("err = %v", err)
		}
		if applied.PutBack < 3 || len(applied.Written) != 0 {
			t.Errorf("%d files put back, %d reported written; want at least the intent, .mcp.json and .cursor/mcp.json put back", applied.PutBack, len(applied.Written))
		}
		if d := diffEntries(before, snapshotWithModes(t, s.root)); d != "" {
			t.Errorf("the files are not as they were:\n%s", d)
		}
	}
}

// A full disk while the new versions are written — the write of a staged
// copy, or its fsync (where a file system allocates late) — writes
// nothing, leaves no staged copy and no new folder, and says so: what
// TestNoSpaceWritesNothing shows on a full tmpfs as root.
func TestNoSpaceWhileStagingWritesNothing(t *testing.T) {
	for _, op := range []fsfault.Op{fsfault.WriteAt, fsfault.Sync} {
		s := projectRun(t)
		before := snapshotWithModes(t, s.root)
		fsys := fsfault.New().Fail(op, filepath.Join(s.root, ".codex", "config.toml"), 1, syscall.ENOSPC)
		applied, err := apply(s.planIt(), Interrupt{}, fsys)
		if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), ".codex/config.toml: cannot write: no space left on device; nothing was written") {
			t.Fatalf("%s: err = %v", op, err)
		}
		if applied.PutBack != 0 || len(applied.Written) != 0 {
			t.Errorf("%s: %d put back, %d written: nothing was replaced", op, applied.PutBack, len(applied.Written))
		}
		if d := diffEntries(before, snapshotWithModes(t, s.root)); d != "" {
			t.Errorf("%s: files changed:\n%s", op, d)
		}
	}
}

// Where a rename cannot replace a file (EXDEV: another file system than
// its folder's; EBUSY: a single-file bind mount), the file is written in
// place — the same inode, under the same check — with a warning; a file
// to delete is left holding nothing. And a file written in place is put
// back in place when a later commit fails. TestBindMountedFileWrittenInPlace
// shows a real bind mount as root.
func TestRenameImpossibleWritesInPlace(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.EXDEV, syscall.EBUSY} {
		for _, base := range []func() *fsfault.FS{fsfault.New, noRenameat2} {
			s := projectRun(t)
			mcp := filepath.Join(s.root, ".mcp.json")
			amazonq := filepath.Join(s.root, ".amazonq", "mcp.json")
			inode, _ := os.Stat(mcp)
			p := s.planIt()
			fsys := base().
				Fail(fsfault.Exchange, mcp, 1, errno).Fail(fsfault.Rename, mcp, 1, errno).
				Fail(fsfault.Rename, amazonq, 1, errno)
			applied, err := apply(p, Interrupt{}, fsys)
			if err != nil {
				t.Fatalf("%v: %v", errno, err)
			}
			warnings := strings.Join(applied.Warnings, "\n")
			if !strings.Contains(warnings, ".mcp.json: written in place, not replaced atomically: it cannot be renamed over ("+errno.Error()) ||
				!strings.Contains(warnings, ".amazonq/mcp.json: left in place holding nothing, not deleted") {
				t.Errorf("%v: warnings %q", errno, applied.Warnings)
			}
			for _, f := range p.Stale() {
				if f.Scope != plan.ScopeRecord && read(t, f.Path) != string(f.After) {
					t.Errorf("%v: %s does not hold its new version", errno, f.Display)
				}
			}
			if now, _ := os.Stat(mcp); !os.SameFile(inode, now) {
				t.Errorf("%v: .mcp.json was replaced, not written in place", errno)
			}
			assertNoStaged(t, s.root)
		}
	}
	// Undone in place: .mcp.json is written in place, then the run fails.
	s := projectRun(t)
	before := snapshotWithModes(t, s.root)
	mcp := filepath.Join(s.root, ".mcp.json")
	fsys := fsfault.New().
		Fail(fsfault.Exchange, mcp, 1, syscall.EBUSY).
		Fail(fsfault.Exchange, filepath.Join(s.root, ".gemini", "settings.json"), 1, syscall.EPERM)
	if _, err := apply(s.planIt(), Interrupt{}, fsys); err == nil || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("err = %v", err)
	}
	if d := diffEntries(before, snapshotWithModes(t, s.root)); d != "" {
		t.Errorf("the files are not as they were:\n%s", d)
	}
}

// When putting a file back fails too, the run says which file holds
// repo's version and why — not that another program changed it, which
// main claimed of every file it could not put back — and reports it
// written. For each kind of commit: a replaced file (swapped back, or
// renamed back from its hard link), a new file (removed), a deleted file
// (renamed back).
func TestPutBackThatFailsIsReported(t *testing.T) {
	cases := []struct {
		name, file string
		base       func() *fsfault.FS
		undo       fsfault.Op
		nth        int
		why        string
	}{
		{"swapped", ".mcp.json", fsfault.New, fsfault.Exchange, 2, "swapping it back: input/output error"},
		{"renamed", ".mcp.json", noRenameat2, fsfault.Rename, 2, "renaming its old version back: input/output error"},
		{"created", ".cursor/mcp.json", fsfault.New, fsfault.Remove, 1, "removing it: input/output error"},
		{"deleted", ".amazonq/mcp.json", fsfault.New, fsfault.RenameNoReplace, 1, "renaming it back: input/output error"},
	}
	for _, c := range cases {
		s := projectRun(t)
		before := snapshotWithModes(t, s.root)
		p := s.planIt()
		path := filepath.Join(s.root, filepath.FromSlash(c.file))
		// The record, last: every config is replaced when it fails.
		record := plan.ProjectRecordPath(s.root)
		fsys := c.base().
			Fail(fsfault.Exchange, record, 2, syscall.EPERM).
			Fail(fsfault.Rename, record, 2, syscall.EPERM).
			Fail(c.undo, path, c.nth, syscall.EIO)
		applied, err := apply(p, Interrupt{}, fsys)
		want := ".repository/mcp-managed.json: cannot write: operation not permitted; repo put back what it could, but " + c.file + " could not be put back (" + c.why + "), so it holds repo's new version"
		if err == nil || err.Error() != want {
			t.Errorf("%s: err = %v\nwant %s", c.name, err, want)
		}
		if len(applied.Written) != 1 || applied.Written[0].Path != path {
			t.Errorf("%s: written %d files, want %s", c.name, len(applied.Written), c.file)
		}
		// Every other file is as it was.
		got := snapshotWithModes(t, s.root)
		for p, e := range before {
			if p != path && !strings.HasPrefix(path, p) && got[p] != e {
				t.Errorf("%s: %s was not put back", c.name, p)
			}
		}
		if c.name != "deleted" { // which stays at its staged name, for a later run to remove
			assertNoStaged(t, s.root)
		}
	}
}

// A file repo created that another program then changed is left with
// that program's version when the run fails, and named: it is not repo's
// to remove.
func TestCreatedFileChangedSinceIsKept(t *testing.T) {
	s := projectRun(t)
	cursor := filepath.Join(s.root, ".cursor", "mcp.json")
	tool := "{\"mcpServers\": {\"tool\": {\"command\": \"y\"}}}\n"
	gemini := filepath.Join(s.root, ".gemini", "settings.json")
	fsys := fsfault.New().
		Before(fsfault.Exchange, gemini, 1, func() { write(t, cursor, tool) }).
		Fail(fsfault.Exchange, gemini, 1, syscall.EPERM)
	applied, err := apply(s.planIt(), Interrupt{}, fsys)
	if err == nil || !strings.HasSuffix(err.Error(), "repo put back what it could, but another program changed .cursor/mcp.json since repo wrote it, so it holds repo's new version") {
		t.Fatalf("err = %v", err)
	}
	if len(applied.Written) != 1 || applied.Written[0].Path != cursor || read(t, cursor) != tool {
		t.Fatalf("written %d, cursor holds %q", len(applied.Written), read(t, cursor))
	}
}

// A file that cannot be read when repo checks it, or whose replaced
// version cannot be opened once swapped out, stops the run with that
// error — not ErrChanged, which would have the caller plan again for a
// change no program made — and every file is put back. A file its owner
// cannot be told of (its stat fails) is not staged as a new file: it
// would lose its mode and owner.
func TestUnreadableFileIsNotAChange(t *testing.T) {
	for _, c := range []struct {
		name string
		op   fsfault.Op
		nth  int
	}{
		{"the check before the swap", fsfault.Open, 2},
		{"the replaced file, swapped out", fsfault.Open, 3},
		{"its stat when staged", fsfault.Stat, 1},
	} {
		s := userRun(t)
		before := snapshotWithModes(t, s.root)
		claude := filepath.Join(s.root, "home", ".claude.json")
		applied, err := apply(s.planIt(), Interrupt{}, fsfault.New().Fail(c.op, claude, c.nth, syscall.EIO))
		if errors.Is(err, ErrChanged) || err == nil || !strings.Contains(err.Error(), "home/.claude.json: cannot write: input/output error; nothing was written") {
			t.Errorf("%s fails: err = %v", c.name, err)
		}
		if len(applied.Written) != 0 {
			t.Errorf("%s fails: %d files reported written", c.name, len(applied.Written))
		}
		if d := diffEntries(before, snapshotWithModes(t, s.root)); d != "" {
			t.Errorf("%s fails: the files are not as they were:\n%s", c.name, d)
		}
	}
}

// treeEntry is a file's bytes and mode, or a folder's mode.
type treeEntry struct {
	data string
	mode fs.FileMode
}

// snapshotWithModes is snapshotTree with each entry's mode.
func snapshotWithModes(t *testing.T, root string) map[string]treeEntry {
	t.Helper()
	out := map[string]treeEntry{}
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == root {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		if d.IsDir() {
			out[path+string(filepath.Separator)] = treeEntry{mode: fi.Mode()}
			return nil
		}
		b, _ := os.ReadFile(path)
		out[path] = treeEntry{data: string(b), mode: fi.Mode()}
		return nil
	})
	return out
}

// restoreTree makes root hold exactly snap.
func restoreTree(t *testing.T, root string, snap map[string]treeEntry) {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(root, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	paths := make([]string, 0, len(snap))
	for p := range snap {
		paths = append(paths, p)
	}
	slices.Sort(paths) // a folder before what is in it
	for _, p := range paths {
		e := snap[p]
		if dir, ok := strings.CutSuffix(p, string(filepath.Separator)); ok {
			err = os.Mkdir(dir, e.mode.Perm())
		} else if err = os.WriteFile(p, []byte(e.data), e.mode.Perm()); err == nil {
			err = os.Chmod(p, e.mode.Perm())
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// stagedIn are the staged names in a snapshot.
func stagedIn(snap map[string]treeEntry) []string {
	var out []string
	for p := range snap {
		if _, ok := fileio.StagedOf(strings.TrimSuffix(p, string(filepath.Separator))); ok {
			out = append(out, p)
		}
	}
	return out
}

// diffEntries names the paths whose entries differ, staged names aside.
func diffEntries(want, got map[string]treeEntry) string {
	var out []string
	for p, w := range want {
		if g, ok := got[p]; !ok {
			out = append(out, "gone: "+p)
		} else if g != w {
			out = append(out, "changed: "+p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok && !slices.Contains(stagedIn(map[string]treeEntry{p: {}}), p) {
			out = append(out, "new: "+p)
		}
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}

// Without renameat2 (a replaced file kept by a hard link), a tool that
// writes into the file repo replaced, through a descriptor it opened
// before, is caught as well, and its write put back; and a run nobody
// writes into is not taken for one (the rename over the file changes the
// replaced inode's change time: main took every such run for a tool's
// write, and no file could be replaced).
func TestWriteIntoReplacedFileWithoutRenameat2IsPutBack(t *testing.T) {
	env := testEnv(t)
	path := filepath.Join(env.Home, ".claude.json")
	write(t, path, claudeJSON(2))
	p, err := planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	if err != nil {
		t.Fatal(err)
	}
	tool, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tool.Close()
	saved := claudeJSON(3)
	fsys := noRenameat2().Before(fsfault.Sync, env.Home, 1, func() {
		tool.Truncate(0)
		tool.WriteAt([]byte(saved), 0)
	})
	applied, err := apply(p, Interrupt{}, fsys)
	if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "wrote into it while repo was replacing it") || len(applied.Written) != 0 {
		t.Fatalf("err = %v (%d written), want ErrChanged for a write into the replaced file", err, len(applied.Written))
	}
	if got := read(t, path); got != saved {
		t.Fatalf("the tool's save was not put back:\n%s", got)
	}
	p, err = planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := apply(p, Interrupt{}, noRenameat2()); err != nil {
		t.Fatal(err)
	}
	if n, _ := projectsIn(t, path); n != 4 {
		t.Fatalf("%d projects after the next sync, want the tool's 3 and the workspace", n)
	}
	assertNoStaged(t, env.Home)
}
