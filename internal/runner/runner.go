// Package runner runs a plan the way every writing command of repo does:
// under the workspace's lock and those of the per-user files it plans,
// through a gate that may stop it before anything is written (the trust
// gate), interruptibly, and again from the start when a tool rewrote a
// file between the read and the write. It prints nothing: what a run
// waits for goes to a callback.
package runner

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/repo-manager/repo/internal/commit"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/termtext"
)

// Locking is how a run waits for the locks other repo runs hold.
type Locking struct {
	// Timeout bounds each wait; after it the run gives up with
	// commit.ErrLocked.
	Timeout time.Duration
	// Waiting, when set, is told what the run waits for, once per lock,
	// in words ("waiting for another repo sync on this workspace (lock
	// …)"), escaped for a terminal.
	Waiting func(message string)
}

// Workspace takes the lock of the workspace at env.Root, which serialises
// the writing runs on it.
func (l Locking) Workspace(env target.Env) (unlock func(), err error) {
	path, err := plan.LockPath(env)
	if err != nil {
		return nil, err
	}
	var waiting func()
	if l.Waiting != nil {
		waiting = func() {
			l.Waiting(fmt.Sprintf("waiting for another repo sync on this workspace (lock %s)", termtext.Safe(env.Display(path))))
		}
	}
	return commit.Lock(path, l.Timeout, waiting)
}

// Files takes the locks of the per-user files of targets
// (commit.LockFiles): eight workspaces syncing into one ~/.claude.json
// take turns instead of finding each other's writes and giving up.
func (l Locking) Files(env target.Env, targets []*target.Target) (unlock func(), err error) {
	var waiting func(string)
	if l.Waiting != nil {
		waiting = func(file string) {
			l.Waiting(fmt.Sprintf("waiting for another repo run writing %s", termtext.Safe(file)))
		}
	}
	return commit.LockFiles(env, targets, l.Timeout, waiting)
}

// Interrupt is how the caller stops a run (see commit.Interrupt).
type Interrupt struct {
	// Stop stops the run: before it plans again, and in Apply.
	Stop <-chan struct{}
	// Abort, closed after Stop, makes Apply end without waiting.
	Abort <-chan struct{}
	// Committing, when set, is called with true as Apply starts, and with
	// false when it returns (wrote: files hold what it wrote).
	Committing func(start, wrote bool)
}

// ErrInterrupted: the caller stopped the run before it had written every
// file; nothing is written.
var ErrInterrupted = commit.ErrInterrupted

// Interrupted is the error of a run the caller stopped: nothing is
// written, and PutBack files that were already replaced were put back.
type Interrupted struct{ PutBack int }

func (e *Interrupted) Error() string {
	if e.PutBack > 0 {
		return fmt.Sprintf("interrupted: nothing written (the %d file(s) already replaced were put back)", e.PutBack)
	}
	return "interrupted: nothing written"
}

// Is makes an Interrupted an ErrInterrupted.
func (e *Interrupted) Is(target error) bool { return target == ErrInterrupted }

// Failed is the error of a run that failed after writing files it could
// not put back (another program changed them since, or putting them back
// failed): Written names them, so that a report never says less than
// what happened.
type Failed struct {
	Written []*plan.FilePlan
	Err     error
}

func (e *Failed) Error() string { return e.Err.Error() }
func (e *Failed) Unwrap() error { return e.Err }

// MaxAttempts bounds re-planning when tools keep rewriting their files
// (with Wait between attempts: about 1.5 s in all). Other repo runs never
// cause it: they wait for the locks of the workspace and of the per-user
// files instead.
const MaxAttempts = 6

// Wait is the pause before attempt n+1 of a plan whose file another
// program wrote (attempt n failed): doubling from 50 ms, up to 1 s, each
// between half and the whole of it, so that two runs that met once do
// not meet again at the same moment, and a tool busy saving gets longer
// each time.
func Wait(n int) time.Duration {
	d := 50 * time.Millisecond << min(n-1, 5)
	d = min(d, time.Second)
	return d/2 + rand.N(d/2+1)
}

// Run is one run: the plan of targets, and unless it only looks (write
// false) its application. A tool may rewrite its file between our read
// and our rename (Claude Code rewrites ~/.claude.json constantly): Apply
// then restores what it replaced, and the whole plan is made again from
// what is on disk. A file that changes while it is read (a tool saving in
// place) is read again the same way.
type Run struct {
	Env     target.Env
	Targets []*target.Target
	Options plan.Options
	Write   bool
	// Plan, when set, makes the plan instead of plan.Build (repo mcp
	// import: the new extension's files and the sync that adopts them).
	Plan func() (*plan.Plan, error)
	// Gate, when set, is asked before a plan is applied; its error ends
	// the run with nothing written, and the plan open for the caller.
	Gate      func(*plan.Plan) error
	Locking   Locking
	Interrupt Interrupt
}

// Do plans and applies. It returns the plan, which the caller closes
// (also with the gate's error), the files written, and the plan's
// warnings with Apply's. A failure after files were written that could
// not be put back is a *Failed.
func (r Run) Do() (*plan.Plan, []*plan.FilePlan, error) {
	if r.Write {
		unlock, err := r.Locking.Files(r.Env, r.Targets)
		if err != nil {
			return nil, nil, err
		}
		defer unlock()
	}
	var written []*plan.FilePlan
	for attempt := 1; ; attempt++ {
		if closed(r.Interrupt.Stop) {
			return nil, nil, failed(written, &Interrupted{})
		}
		p, err := r.plan()
		if err == nil {
			if !r.Write {
				return p, nil, nil
			}
			if r.Gate != nil {
				if err := r.Gate(p); err != nil {
					return p, nil, err
				}
			}
			var applied commit.Applied
			applied, err = r.apply(p)
			written = append(written, applied.Written...)
			p.Warnings = append(p.Warnings, applied.Warnings...)
			if err == nil {
				return p, written, nil
			}
			p.Close()
		}
		if !errors.Is(err, commit.ErrChanged) && !errors.Is(err, commit.ErrUnsteady) {
			return nil, nil, failed(written, err)
		}
		if attempt == MaxAttempts {
			return nil, nil, failed(written, fmt.Errorf("%w; gave up after %d attempts: run repo again when the tool is idle", err, attempt))
		}
		select { // let the tool finish its save
		case <-time.After(Wait(attempt)):
		case <-r.Interrupt.Stop:
		}
		r.Env.Paths.Forget() // the next plan looks at the folders afresh
		r.Env.Git.Forget()   // and asks git afresh

	}
}

func (r Run) plan() (*plan.Plan, error) {
	if r.Plan != nil {
		return r.Plan()
	}
	return plan.Build(r.Env, r.Targets, r.Options)
}

// apply writes p, telling the caller when it starts and ends. If the
// caller stopped it and it wrote nothing, the error is the interruption
// (not wrapped: a changed file must not make the run plan again).
func (r Run) apply(p *plan.Plan) (commit.Applied, error) {
	in := r.Interrupt
	if in.Committing != nil {
		in.Committing(true, false)
	}
	applied, err := commit.ApplyInterruptible(p, commit.Interrupt{Stop: in.Stop, Abort: in.Abort})
	if in.Committing != nil {
		in.Committing(false, len(applied.Written) > 0)
	}
	if err != nil && closed(in.Stop) && len(applied.Written) == 0 {
		return applied, &Interrupted{PutBack: applied.PutBack}
	}
	return applied, err
}

func failed(written []*plan.FilePlan, err error) error {
	if len(written) == 0 {
		return err
	}
	return &Failed{Written: written, Err: err}
}

// closed reports whether c is closed (a nil c never is).
func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
