package fsfault

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"

	"github.com/repo-manager/repo/internal/fileio"
)

// A rule fails exactly the call it names — the Nth of its kind for its
// file, a staged copy of the file counting as the file — with the errno
// wrapped as the real call's error would be, and every other call is
// made for real.
func TestFailsTheNthCallForAFile(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	fsys := New().Fail(Remove, a, 2, syscall.EPERM)
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	staged, err := fileio.CreateTemp(fsys, a, 0o600) // .a.json.repo-<pid>-<n>: a's
	if err != nil {
		t.Fatal(err)
	}
	staged.Close()
	if err := fsys.Remove(b); err != nil {
		t.Fatalf("b's remove failed: %v", err)
	}
	if err := fsys.Remove(staged.Name()); err != nil {
		t.Fatalf("the first remove for a.json (its staged copy) failed: %v", err)
	}
	err = fsys.Remove(a)
	var perr *fs.PathError
	if !errors.Is(err, syscall.EPERM) || !errors.As(err, &perr) || perr.Path != a {
		t.Fatalf("the second remove for a.json: %v, want EPERM as a *fs.PathError on it", err)
	}
	if _, err := os.Stat(a); err != nil {
		t.Fatal("the failed remove removed the file")
	}
	if err := fsys.Remove(a); err != nil {
		t.Fatalf("the third remove failed too: %v", err)
	}
	calls := fsys.Calls()
	if len(calls) != 5 || calls[3].Op != Remove || calls[3].File != a || !errors.Is(calls[3].Err, syscall.EPERM) {
		t.Fatalf("calls = %+v", calls)
	}
}

// Nth 0 matches every call; Before runs before the call and After only
// after one that succeeded; two-path calls match on either path.
func TestHooksAndEveryCall(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "from"), filepath.Join(dir, "to")
	var log []string
	fsys := New().
		Before(Rename, to, 0, func() { log = append(log, "before") }).
		After(Rename, to, 0, func() { log = append(log, "after") }).
		Fail(Rename, to, 2, syscall.EXDEV)
	os.WriteFile(from, []byte("x"), 0o600)
	if err := fsys.Rename(from, to); err != nil {
		t.Fatal(err)
	}
	err := fsys.Rename(to, from)
	var lerr *os.LinkError
	if !errors.Is(err, syscall.EXDEV) || !errors.As(err, &lerr) || lerr.Old != to || lerr.New != from {
		t.Fatalf("second rename: %v, want EXDEV as an *os.LinkError", err)
	}
	if want := []string{"before", "after", "before"}; !slices.Equal(log, want) {
		t.Fatalf("hooks ran %q, want %q", log, want)
	}
	// An error that is not an errno is returned as it is.
	fsys.Fail(Lstat, "", 0, fileio.ErrUnsupported)
	if _, err := fsys.Lstat(to); err != fileio.ErrUnsupported {
		t.Fatalf("lstat: %v", err)
	}
}

// Commit counts the calls that put a file's new version in place or its
// old one aside, whatever the call: not the staging writes, not the
// hard link that keeps a replaced file, not a call that failed.
func TestCommitCountsFilesPutInPlace(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.json")
	os.WriteFile(a, []byte("old"), 0o600)
	commits := 0
	fsys := New().Add(Rule{Op: Commit, After: func() { commits++ }})
	staged, err := fileio.CreateTemp(fsys, a, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer staged.Close()
	if _, err := fsys.WriteAt(staged, []byte("new"), 0); err != nil {
		t.Fatal(err)
	}
	aside := staged.Name() + "0"
	if err := fsys.Link(a, aside); err != nil {
		t.Skip("no hard links:", err)
	}
	fsys.Fail(Rename, a, 1, syscall.EBUSY)
	if fsys.Rename(staged.Name(), a) == nil {
		t.Fatal("the failing rename succeeded")
	}
	if commits != 0 {
		t.Fatalf("%d commits counted before any file was put in place", commits)
	}
	if err := fsys.Rename(staged.Name(), a); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(a, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := fsys.WriteAt(f, []byte("in place"), 0); err != nil {
		t.Fatal(err)
	}
	if commits != 2 {
		t.Fatalf("%d commits counted, want 2 (the rename into place, the write in place)", commits)
	}
}

// Calls made at once (a run stages several files at a time) are each
// counted once, and a rule fires once.
func TestConcurrentCalls(t *testing.T) {
	dir := t.TempDir()
	fired := 0
	fsys := New().Add(Rule{Op: Stat, Nth: 50, Err: syscall.EIO, Before: func() { fired++ }})
	var wg sync.WaitGroup
	var mu sync.Mutex
	failed := 0
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := fsys.Stat(dir); err != nil {
				mu.Lock()
				failed++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if failed != 1 || fired != 1 || len(fsys.Calls()) != 100 {
		t.Fatalf("%d failed, the rule fired %d times, %d calls: want 1, 1, 100", failed, fired, len(fsys.Calls()))
	}
}
