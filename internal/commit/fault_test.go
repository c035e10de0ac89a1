//go:build !windows

package commit

// The file system failing under a commit, through the seam
// (internal/fsfault): every call a run makes fails in turn, and
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
	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/fsfault"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/toolprofiles"
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

// writtenInPlace is a file system where no file can be renamed over or
// aside (a bind mount, every file on another file system than its
// folder): every existing file is written in place.
func writtenInPlace() *fsfault.FS {
	return fsfault.New().
		Fail(fsfault.Exchange, "", 0, syscall.EBUSY).
		Fail(fsfault.Rename, "", 0, syscall.EBUSY)
}

// fileSystems are the ways a run commits: renameat2, a rename after a
// hard link, a write in place. lastFails makes the run's last commit —
// the ownership record — fail in each, once every other file is
// committed.
var fileSystems = []struct {
	name      string
	fs        func() *fsfault.FS
	lastFails func(record string) fsfault.Rule
}{
	{"renameat2", fsfault.New, func(rec string) fsfault.Rule {
		return fsfault.Rule{Op: fsfault.Exchange, File: rec, Nth: 2, Err: syscall.EPERM}
	}},
	{"without renameat2", noRenameat2, func(rec string) fsfault.Rule {
		return fsfault.Rule{Op: fsfault.Rename, File: rec, Nth: 2, Err: syscall.EPERM}
	}},
	{"in place", writtenInPlace, func(rec string) fsfault.Rule {
		// Its staged intent and record, then the intent in place.
		return fsfault.Rule{Op: fsfault.WriteAt, File: rec, Nth: 4, Err: syscall.EPERM}
	}},
}

// A failure of any one call of a run — each in turn, with EIO — leaves
// every file as it was or every file written, and the run says which:
// nil and every file new, or an error and every file as it was but those
// it names as written, the folders it created gone, nothing staged left
// but where the failed call was the removal of one. It holds however the
// files are committed (renameat2, a hard link and a rename, in place), at
// project scope (updates, a new file in a new folder, a deletion, the
// record's intent) and at user scope (under Claude Code's and Copilot's
// locks).
func TestFailureAtEveryCallIsAllOrNothing(t *testing.T) {
	for _, sys := range fileSystems {
		for _, sc := range []struct {
			name string
			run  func(*testing.T) scenario
		}{{"project", projectRun}, {"user", userRun}} {
			t.Run(sc.name+", "+sys.name, func(t *testing.T) {
				t.Parallel() // each in its own folder; most of their time is the disk's
				sweep(t, sc.run(t), sys.fs, nil)
			})
		}
	}
}

// When the run's last commit fails and every file is being put back, a
// failure of any one call of the putting back — each in turn — leaves
// every file it could put back as it was, and names each other one, with
// why, as written.
func TestFailureWhilePuttingBackIsReported(t *testing.T) {
	for _, sys := range fileSystems {
		t.Run(sys.name, func(t *testing.T) {
			t.Parallel()
			s := projectRun(t)
			sweep(t, s, sys.fs, []fsfault.Rule{sys.lastFails(plan.ProjectRecordPath(s.root))})
		})
	}
}

// sweep fails, in turn, each call of the run s plans, in the file system
// base with the rules first: every call, or with rules that fail the run,
// every call after the first failure (its putting back). It checks each
// run with checkAllOrNothing. Hundreds of runs: their fsyncs are skipped
// (each fails in turn all the same).
func sweep(t *testing.T, s scenario, base func() *fsfault.FS, first []fsfault.Rule) {
	fsys := func() *fsfault.FS {
		f := base()
		for _, r := range first {
			f.Add(r)
		}
		return f.Add(fsfault.Rule{Op: fsfault.Sync, Skip: true})
	}
	before := snapshotWithModes(t, s.root)
	clean := base().Add(fsfault.Rule{Op: fsfault.Sync, Skip: true})
	if _, err := apply(s.planIt(), Interrupt{}, clean); err != nil {
		t.Fatal(err)
	}
	want := snapshotWithModes(t, s.root)
	restoreTree(t, s.root, before)
	rec := fsys()
	_, err := apply(s.planIt(), Interrupt{}, rec)
	calls, from := rec.Calls(), 0
	if first != nil {
		from = slices.IndexFunc(calls, func(c fsfault.Call) bool { return c.Err != nil && errors.Is(c.Err, first[0].Err) })
		if err == nil || from < 0 {
			t.Fatalf("the run did not fail as meant: %v", err)
		}
		from++
	}
	if len(calls)-from < 20 {
		t.Fatalf("%d calls to fail: the run is not the one meant", len(calls)-from)
	}
	seen := map[string]int{}
	for i, c := range calls {
		key := string(c.Op) + " " + c.File
		seen[key]++
		every := sweepEvery
		if testing.Short() {
			every = 4
		}
		if i < from || i%every != 0 {
			continue
		}
		restoreTree(t, s.root, before)
		applied, err := apply(s.planIt(), Interrupt{}, fsys().Fail(c.Op, c.File, seen[key], syscall.EIO))
		if first != nil && err == nil {
			t.Errorf("%s #%d failed: the run succeeded", key, seen[key])
		}
		checkAllOrNothing(t, c, seen[key], s.root, before, want, applied, err)
	}
}

// checkAllOrNothing checks the files under root after a run that failed
// the nth call like c: all new (want) if the run says so, else as they
// were (before) but those it names as written, which are new.
func checkAllOrNothing(t *testing.T, c fsfault.Call, nth int, root string, before, want map[string]treeEntry, applied Applied, err error) {
	t.Helper()
	at := string(c.Op) + " " + c.File + " #" + strconv.Itoa(nth)
	got := snapshotWithModes(t, root)
	expect := maps.Clone(want)
	var loose []string // what may be left as it is
	if err != nil {
		expect = expectAfterFailure(t, at, before, want, applied, err)
		for _, f := range applied.Written {
			if strings.Contains(err.Error(), f.Display+" could not be put back (writing its old content back") {
				loose = append(loose, f.Path) // half put back, as the error says
			}
			if _, ok := want[f.Path]; !ok { // deleted, and not renamed back: its staged name stays
				loose = append(loose, stagedOf(got, f.Path)...)
			}
		}
	}
	switch _, staged := fileio.StagedOf(c.Paths[0]); {
	case c.Op == fsfault.Remove && staged:
		// What the failed removal was to remove stays, for a later run: a
		// staged copy, or a replaced file.
		loose = append(loose, stagedOf(got, c.File)...)
	case c.Op == fsfault.Remove || c.Op == fsfault.Lstat:
		// A tool's lock folder, a folder repo created, the emptied
		// folder of a file repo deleted (removed once seen to be one).
		loose = append(loose, c.Paths[0], c.Paths[0]+string(filepath.Separator))
	}
	// repo's own state (Plan.State: the bases of hand edits, the clone's
	// identity) is written once the commit is done, and a failure there is
	// a warning: it is no part of what a run writes all or nothing.
	for _, m := range []map[string]treeEntry{got, expect} {
		for p := range m {
			if isState(p) {
				loose = append(loose, p)
			}
		}
	}
	for _, p := range loose {
		delete(got, p)
		delete(expect, p)
		// And the folder it was in, if nothing else is there now.
		dir := filepath.Dir(strings.TrimSuffix(p, string(filepath.Separator))) + string(filepath.Separator)
		if _, ok := expect[dir]; !ok && !slices.ContainsFunc(slices.Collect(maps.Keys(got)), func(q string) bool { return q != dir && strings.HasPrefix(q, dir) }) {
			delete(got, dir)
		}
	}
	if leftovers := stagedIn(got); len(leftovers) > 0 {
		t.Errorf("%s failed (%v): staged files left: %q", at, err, leftovers)
	}
	if d := diffEntries(expect, got); d != "" {
		t.Errorf("%s failed (%v); the files are not as the run says:\n%s", at, err, d)
	}
}

// isState reports a path of repo's own state that Apply writes last
// (plan.Plan.State).
func isState(p string) bool {
	p = filepath.ToSlash(p)
	return strings.Contains(p, "/repo/bases/") || strings.Contains(p, "/.repository/.clone/")
}

// expectAfterFailure is what a run that failed with err leaves: the
// files as they were (before), but those it reports written, as they are
// when written (want, with the folders of a new one); and the error says
// which.
func expectAfterFailure(t *testing.T, at string, before, want map[string]treeEntry, applied Applied, err error) map[string]treeEntry {
	t.Helper()
	if len(applied.Written) == 0 && !strings.Contains(err.Error(), "nothing was written") {
		t.Errorf("%s failed: nothing reported written, and the error does not say so: %v", at, err)
	}
	expect := maps.Clone(before)
	for _, f := range applied.Written {
		if !strings.Contains(err.Error(), f.Display) {
			t.Errorf("%s failed: %s is reported written but the error does not name it: %v", at, f.Display, err)
		}
		delete(expect, f.Path)
		if strings.Contains(err.Error(), f.Display+" could not be put back") && strings.Contains(err.Error(), "so it holds every entry repo had or was about to write") {
			// A record left holding its intent.
			expect[f.Path] = treeEntry{data: string(f.Intent), mode: before[f.Path].mode}
		} else if e, ok := want[f.Path]; ok {
			expect[f.Path] = e
			for dir := filepath.Dir(f.Path); len(dir) > 1; dir = filepath.Dir(dir) {
				if e, ok := want[dir+string(filepath.Separator)]; ok {
					expect[dir+string(filepath.Separator)] = e
				}
			}
		}
	}
	return expect
}

// stagedOf are the staged names of the file at path in a snapshot.
func stagedOf(snap map[string]treeEntry, path string) []string {
	var out []string
	for _, p := range stagedIn(snap) {
		if file, _ := fileio.StagedOf(p); file == path {
			out = append(out, p)
		}
	}
	return out
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
		assertNoStaged(t, s.root)
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
		assertNoStaged(t, s.root)
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

// restoreTree makes root hold exactly snap, rewriting only what differs.
func restoreTree(t *testing.T, root string, snap map[string]treeEntry) {
	t.Helper()
	cur := snapshotWithModes(t, root)
	var extra []string
	for p := range cur {
		if _, ok := snap[p]; !ok {
			extra = append(extra, p)
		}
	}
	slices.Sort(extra)
	slices.Reverse(extra) // what is in a folder before the folder
	for _, p := range extra {
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
	}
	paths := slices.Sorted(maps.Keys(snap)) // a folder before what is in it
	for _, p := range paths {
		e := snap[p]
		if c, ok := cur[p]; ok && c == e {
			continue
		}
		var err error
		if dir, ok := strings.CutSuffix(p, string(filepath.Separator)); ok {
			if err = os.Mkdir(dir, e.mode.Perm()); errors.Is(err, fs.ErrExist) {
				err = os.Chmod(dir, e.mode.Perm())
			}
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
	toolSaves := func() {
		tool.Truncate(0)
		tool.WriteAt([]byte(saved), 0)
	}
	// Once the file is replaced: before the folders' fsync.
	applied, err := apply(p, Interrupt{}, noRenameat2().Before(fsfault.Sync, env.Home, 1, toolSaves))
	if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "wrote into it while repo was replacing it") || len(applied.Written) != 0 {
		t.Fatalf("err = %v (%d written), want ErrChanged for a write into the replaced file", err, len(applied.Written))
	}
	if got := read(t, path); got != saved {
		t.Fatalf("the tool's save was not put back:\n%s", got)
	}
	// Between repo's check and its rename: found once the file is renamed.
	write(t, path, claudeJSON(2))
	p, err = planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	if err != nil {
		t.Fatal(err)
	}
	applied, err = apply(p, Interrupt{}, noRenameat2().Before(fsfault.Rename, path, 1, toolSaves))
	if !errors.Is(err, ErrChanged) || len(applied.Written) != 0 || read(t, path) != saved {
		t.Fatalf("err = %v (%d written), want ErrChanged and the tool's save put back", err, len(applied.Written))
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

// A tool that creates, removes or rewrites a file at the moment repo
// commits it keeps what it did, and the run stops with ErrChanged (to be
// planned again) or, when it was already stopping, leaves the tool's file:
// a file that appears where repo creates one, a file repo deletes that
// disappears first, a file that appears where repo deleted one while repo
// puts it back. With renameat2 and without it.
func TestToolRacingACommitKeepsItsFile(t *testing.T) {
	mine := "{\"mcpServers\": {\"mine\": {\"command\": \"x\"}}}\n"
	for _, sys := range fileSystems[:2] {
		for _, c := range []struct {
			name, file string
			at         fsfault.Op
			tool       func(path string)
			changed    bool   // the run stops with ErrChanged
			holds      string // what the file holds after ("" gone)
		}{
			{"appears where repo creates one", ".cursor/mcp.json", fsfault.RenameNoReplace, func(p string) { write(t, p, mine) }, true, mine},
			{"disappears before repo deletes it", ".amazonq/mcp.json", fsfault.Rename, func(p string) { os.Remove(p) }, true, ""},
			{"appears where repo deleted one", ".amazonq/mcp.json", fsfault.RenameNoReplace, func(p string) { write(t, p, mine) }, false, mine},
		} {
			s := projectRun(t)
			before := snapshotWithModes(t, s.root)
			path := filepath.Join(s.root, filepath.FromSlash(c.file))
			fsys := sys.fs().Before(c.at, path, 1, func() { c.tool(path) })
			if !c.changed { // the record fails last: the run puts the deletion back
				fsys.Add(sys.lastFails(plan.ProjectRecordPath(s.root)))
			}
			applied, err := apply(s.planIt(), Interrupt{}, fsys)
			name := sys.name + ": " + c.name
			if err == nil || errors.Is(err, ErrChanged) != c.changed || !strings.Contains(err.Error(), "nothing was written") || len(applied.Written) != 0 {
				t.Errorf("%s: err = %v, %d written", name, err, len(applied.Written))
			}
			got := snapshotWithModes(t, s.root)
			if e, ok := got[path]; (c.holds == "") == ok || e.data != c.holds {
				t.Errorf("%s: %s holds %q (exists %v), want %q", name, c.file, e.data, ok, c.holds)
			}
			delete(got, path)
			delete(before, path)
			delete(got, filepath.Dir(path)+string(filepath.Separator))
			delete(before, filepath.Dir(path)+string(filepath.Separator))
			if d := diffEntries(before, got); d != "" {
				t.Errorf("%s: the other files are not as they were:\n%s", name, d)
			}
			assertNoStaged(t, s.root)
		}
	}
}
