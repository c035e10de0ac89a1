//go:build !windows

package fileio_test

// The fileio functions a commit calls, failing at each of their calls
// through the seam (internal/fsfault).

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/fsfault"
	"github.com/repo-manager/repo/toolprofiles"
)

// Staging a new version of an existing file fails at each of its calls:
// a failure that leaves the new file unable to have what the old one has
// (its attributes cannot be read or given) stages nothing and says the
// file is to be written in place; any other failure is the error, and no
// staged copy is left.
func TestStageFileFailures(t *testing.T) {
	cases := []struct {
		op      fsfault.Op
		nth     int
		errno   syscall.Errno
		inPlace string // the InPlace reason, or "" for an error
		linux   bool   // the call is made on Linux only
	}{
		{fsfault.Stat, 1, syscall.EIO, "", false},
		{fsfault.Listxattr, 1, syscall.EIO, "its extended attributes cannot be read (input/output error)", true},
		{fsfault.Open, 1, syscall.EACCES, "", false},
		{fsfault.WriteAt, 1, syscall.ENOSPC, "", false},
		{fsfault.Flistxattr, 1, syscall.EIO, "its extended attributes cannot be given to a new file (input/output error)", true},
		{fsfault.Chmod, 1, syscall.EPERM, "", false},
		{fsfault.Sync, 1, syscall.EIO, "", false},
		{fsfault.Open, 0, syscall.EEXIST, "", false}, // every name taken
	}
	for _, c := range cases {
		if c.linux && runtime.GOOS != "linux" {
			continue
		}
		name := fmt.Sprintf("%s #%d %v", c.op, c.nth, c.errno)
		dir := t.TempDir()
		path := filepath.Join(dir, "settings.json")
		if err := os.WriteFile(path, []byte("old"), 0o640); err != nil {
			t.Fatal(err)
		}
		s, err := fileio.StageFile(fsfault.New().Fail(c.op, path, c.nth, c.errno), path, []byte("new"), 0o666)
		switch {
		case c.inPlace != "" && (err != nil || s.InPlace == nil || s.InPlace.Error() != c.inPlace || s.Name != ""):
			t.Errorf("%s: staged %+v, err %v; want nothing staged, written in place because %s", name, s, err, c.inPlace)
		case c.inPlace == "" && (err == nil || !errors.Is(err, c.errno) && !(c.errno == syscall.EEXIST && errors.Is(err, fs.ErrExist))):
			t.Errorf("%s: staged %+v, err %v; want the error", name, s, err)
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 {
			t.Errorf("%s: %d files in the folder, want settings.json alone", name, len(entries))
		}
	}
}

// A staged file that cannot be locked is staged all the same: the lock
// only keeps a later run's RemoveStale from it, which then goes by its
// process.
func TestStagedFileUnlocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	s, err := fileio.StageFile(fsfault.New().Fail(fsfault.Lock, path, 1, syscall.ENOLCK), path, []byte("new"), 0o666)
	if err != nil || s.InPlace != nil {
		t.Fatalf("staged %+v, err %v", s, err)
	}
	defer s.Remove()
	f, err := os.Open(s.Name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if ok, err := fileio.TryLock(f); !ok || err != nil {
		t.Fatalf("the staged file is locked (%v %v): the failed lock took it", ok, err)
	}
}

// RemoveStale removes what an ended run left, and leaves it where it
// cannot look: a folder it cannot list, a file it cannot stat or remove.
func TestRemoveStaleFailures(t *testing.T) {
	for _, c := range []struct {
		op   fsfault.Op
		kept bool
	}{
		{"", false},
		{fsfault.ReadDir, true},
		{fsfault.Lstat, true},
		// No lock to try: only its process and its age tell, and a file
		// of a minute ago whose name has no process id stays.
		{fsfault.Open, true},
		{fsfault.Lock, true},
		{fsfault.Remove, true},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "settings.json")
		// An earlier version's name, without a process id: no process.
		left := filepath.Join(dir, ".settings.json.repo-123")
		if err := os.WriteFile(left, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		fsys := fsfault.New()
		if c.op != "" {
			fsys.Fail(c.op, "", 1, syscall.EIO)
		}
		fileio.RemoveStale(fsys, []string{path})
		if _, err := os.Stat(left); (err == nil) != c.kept {
			t.Errorf("%q fails: left file kept %v, want %v", c.op, err == nil, c.kept)
		}
	}
}

// A tool's lock that cannot be taken for a reason other than the tool
// holding it — its folder cannot be made, its file not opened or locked —
// is no lock: the file is written without waiting.
func TestToolLockFailures(t *testing.T) {
	home := t.TempDir()
	claude := fileio.ToolLockFor(&toolprofiles.Lock{Kind: toolprofiles.LockMkdir, Path: ".claude.json.lock"}, filepath.Join(home, ".claude.json"))
	copilot := fileio.ToolLockFor(&toolprofiles.Lock{Kind: toolprofiles.LockFlock, Path: ".mcp-writer.lock"}, filepath.Join(home, "mcp-config.json"))
	if err := os.WriteFile(filepath.Join(home, ".mcp-writer.lock"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lock *fileio.ToolLock
		op   fsfault.Op
	}{
		{claude, fsfault.Mkdir},
		{copilot, fsfault.Open},
		{copilot, fsfault.Lock},
	} {
		release, err := c.lock.Take(fsfault.New().Fail(c.op, "", 1, syscall.EACCES), nil)
		if err != nil {
			t.Errorf("%s fails: %v, want no lock and no error", c.op, err)
		}
		release()
		if _, err := os.Stat(filepath.Join(home, ".claude.json.lock")); err == nil {
			t.Fatalf("%s fails: a lock folder was made", c.op)
		}
	}
}

// A folder that cannot be opened or fsynced says so (commit treats the
// fsync as best effort, see there).
func TestSyncDirFailures(t *testing.T) {
	dir := t.TempDir()
	for _, op := range []fsfault.Op{fsfault.Open, fsfault.Sync} {
		err := fileio.SyncDir(fsfault.New().Fail(op, dir, 1, syscall.EIO), dir)
		if !errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), dir) {
			t.Errorf("%s fails: %v", op, err)
		}
	}
	if err := fileio.SyncDir(fileio.OS{}, dir); err != nil {
		t.Fatal(err)
	}
}
