package fileio

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// ErrLocked is returned when another repo run holds the workspace lock for
// longer than the caller is willing to wait.
var ErrLocked = errors.New("locked")

// Lock serialises repo runs that write one workspace: it takes an
// exclusive lock on path, calling waiting once if it has to wait, and gives
// up after timeout. The lock is released by unlock, or by the OS when the
// process ends, so a crashed run never leaves it held.
func Lock(path string, timeout time.Duration, waiting func()) (unlock func(), err error) {
	return LockOf(path, "this workspace", timeout, waiting)
}

// LockOf is Lock for a lock that guards what (as shown to people, for the
// error of a lock held too long).
func LockOf(path, what string, timeout time.Duration, waiting func()) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("cannot create the lock folder: %w", UnwrapPath(err))
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot open the lock file %s: %w", path, UnwrapPath(err))
	}
	deadline := time.Now().Add(timeout)
	for told := false; ; {
		ok, err := TryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("cannot lock %s: %w", path, err)
		}
		if ok {
			return func() { UnlockFile(f); f.Close() }, nil
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("%w: another repo sync has been writing %s for more than %s (lock %s); try again when it is done, or raise REPO_LOCK_TIMEOUT", ErrLocked, what, timeout, path)
		}
		if !told && waiting != nil {
			waiting()
			told = true
		}
		time.Sleep(25 * time.Millisecond)
	}
}
