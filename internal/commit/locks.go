package commit

import (
	"slices"
	"strings"
	"time"

	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
)

// The locks of repo's own runs, which a run takes from before it reads a
// file until it has applied its plan: the workspace's (Lock at
// plan.LockPath) and those of the per-user files every workspace shares
// (LockFiles). Apply takes the tools' own locks around each commit.

var (
	// ErrLocked: another run held a lock for longer than the timeout.
	ErrLocked = fileio.ErrLocked
	// ErrUnsteady: another program kept changing a file while repo read
	// it; plan again.
	ErrUnsteady = fileio.ErrUnsteady
)

// Lock takes the lock at path, calling waiting once if it has to wait, and
// gives up with ErrLocked after timeout. unlock releases it; so does the
// end of the process.
func Lock(path string, timeout time.Duration, waiting func()) (unlock func(), err error) {
	return fileio.Lock(path, timeout, waiting)
}

// LockFiles serialises the runs that write the per-user files of targets
// (local and user scope), which every workspace on the machine shares and
// the workspace lock does not cover: it takes the lock of each file
// (plan.FileLockPath: by the file's real path, in the state folder), in
// the order of their paths, so that two runs never wait for each other in
// a circle. They are held from before the files are read until the plan
// is applied, and taken alongside, not instead of, the tools' own locks
// (which Apply takes around each commit). waiting is called with the
// file, as shown, when a lock is held by another run; a lock not had
// within timeout is ErrLocked.
func LockFiles(env target.Env, targets []*target.Target, timeout time.Duration, waiting func(file string)) (unlock func(), err error) {
	type file struct{ lock, display string }
	var files []file
	for _, t := range targets {
		if t.Scope == toolprofiles.ScopeProject {
			continue
		}
		real := t.Real
		if real == "" {
			real = target.RealPath(t.Path)
		}
		lock, err := plan.FileLockPath(env, real)
		if err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(files, func(f file) bool { return f.lock == lock }) {
			files = append(files, file{lock, termtext.Safe(t.Display)})
		}
	}
	slices.SortFunc(files, func(a, b file) int { return strings.Compare(a.lock, b.lock) })
	var unlocks []func()
	release := func() {
		for i := len(unlocks) - 1; i >= 0; i-- {
			unlocks[i]()
		}
	}
	for _, f := range files {
		u, err := fileio.LockOf(f.lock, f.display, timeout, func() {
			if waiting != nil {
				waiting(f.display)
			}
		})
		if err != nil {
			release()
			return nil, err
		}
		unlocks = append(unlocks, u)
	}
	return release, nil
}
