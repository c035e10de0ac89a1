package cmd

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/writers"
)

// lockTimeout is how long a run waits for a lock another repo run holds:
// REPO_LOCK_TIMEOUT, else 30 s.
func lockTimeout(f *Factory) (time.Duration, error) {
	v := f.Getenv("REPO_LOCK_TIMEOUT")
	if v == "" {
		return 30 * time.Second, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, usagef("REPO_LOCK_TIMEOUT=%q: give a duration such as 30s", v)
	}
	return d, nil
}

// lockUserFiles serialises the runs of every workspace on this machine
// that write the per-user files of targets (writers.LockFiles): eight
// workspaces syncing into one ~/.claude.json take turns instead of
// finding each other's writes and giving up.
func lockUserFiles(f *Factory, env writers.Env, targets []*writers.Target) (func(), error) {
	timeout, err := lockTimeout(f)
	if err != nil {
		return nil, err
	}
	return writers.LockFiles(env, targets, timeout, func(file string) {
		fmt.Fprintf(f.IO.ErrOut, "repo: waiting for another repo run writing %s\n", termtext.Safe(file))
	})
}

// retryWait is the pause before attempt n+1 of a plan whose file another
// program wrote (attempt n failed): doubling from 50 ms, up to 1 s, each
// between half and the whole of it, so that two runs that met once do
// not meet again at the same moment, and a tool busy saving gets longer
// each time.
func retryWait(n int) time.Duration {
	d := 50 * time.Millisecond << min(n-1, 5)
	d = min(d, time.Second)
	return d/2 + rand.N(d/2+1)
}
