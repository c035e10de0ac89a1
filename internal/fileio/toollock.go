package fileio

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/repo-manager/repo/toolprofiles"
)

// A tool's lock on its config file (toolprofiles.Lock). Every tool reads
// its file, changes it in memory and saves it later; a sync that lands in
// between is undone by the tool's save. Claude Code and Copilot CLI close
// that window with a lock around their re-read and save, and repo takes
// the same lock around replacing the file, so each save sees the other's
// (docs/coexistence.md). It is held for the commit of one file only.

// ToolLock is a lock of a file's tool, resolved to a path.
type ToolLock struct {
	kind string // toolprofiles.LockMkdir or LockFlock
	path string
}

// ToolLockFor resolves a profile's lock for the config file at path.
func ToolLockFor(l *toolprofiles.Lock, path string) *ToolLock {
	if l == nil {
		return nil
	}
	return &ToolLock{kind: l.Kind, path: filepath.Join(filepath.Dir(path), l.Path)}
}

var (
	// toolLockWait is how long repo waits for a tool's lock. Claude Code
	// waits about 1.2 s for its own before saving without it; repo waits
	// longer than a tool's save takes, then writes without it too (a
	// crashed tool can leave its lock behind).
	toolLockWait = 1500 * time.Millisecond
	// staleMkdirLock is the age from which a lock folder is taken for one
	// a crashed tool left (Claude Code's lock library refreshes a held
	// lock's time well within it).
	staleMkdirLock = 10 * time.Second
)

// ErrLockWaitStopped: Take stopped waiting for a tool's lock because its
// stop channel closed.
var ErrLockWaitStopped = errors.New("stopped waiting for the tool's lock")

// Take acquires l. It returns the function that releases it, or, when the
// lock could not be had in time, an error saying so (the caller writes
// without it). A lock that does not apply — a flock file the tool has not
// created, a folder that does not exist yet — is no lock at all. When stop
// closes while it waits, it gives up at once with ErrLockWaitStopped.
// fsys is the file system the commit goes through.
func (l *ToolLock) Take(fsys FS, stop <-chan struct{}) (release func(), err error) {
	noop := func() {}
	deadline := time.Now().Add(toolLockWait)
	pause := func() bool {
		select {
		case <-stop:
			return false
		case <-time.After(5 * time.Millisecond):
			return true
		}
	}
	switch l.kind {
	case toolprofiles.LockMkdir:
		for {
			err := fsys.Mkdir(l.path, 0o700)
			switch {
			case err == nil:
				return func() { fsys.Remove(l.path) }, nil
			case !errors.Is(err, fs.ErrExist):
				return noop, nil // no folder to lock in: nobody saves there either
			}
			if fi, err := fsys.Stat(l.path); err == nil && time.Since(fi.ModTime()) > staleMkdirLock {
				return noop, fmt.Errorf("%s is %s old: left by a tool that stopped", l.path, time.Since(fi.ModTime()).Round(time.Second))
			}
			if time.Now().After(deadline) {
				return noop, fmt.Errorf("%s was held for more than %s", l.path, toolLockWait)
			}
			if !pause() {
				return noop, ErrLockWaitStopped
			}
		}
	case toolprofiles.LockFlock:
		if runtime.GOOS == "windows" {
			return noop, nil // not observed there: the tool's own locking is unknown
		}
		f, err := fsys.OpenFile(l.path, os.O_RDWR, 0) // never created: see toolprofiles.LockFlock
		if err != nil {
			return noop, nil
		}
		for {
			ok, err := fsys.TryLock(f)
			switch {
			case err != nil:
				f.Close()
				return noop, nil
			case ok:
				return func() { UnlockFile(f); f.Close() }, nil
			case time.Now().After(deadline):
				f.Close()
				return noop, fmt.Errorf("%s was held for more than %s", l.path, toolLockWait)
			}
			if !pause() {
				f.Close()
				return noop, ErrLockWaitStopped
			}
		}
	}
	return noop, nil
}
