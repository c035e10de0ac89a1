package writers

import (
	"context"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/runner"
	"github.com/repo-manager/repo/internal/usage"
	"github.com/repo-manager/repo/internal/workspace"
	"github.com/repo-manager/repo/toolprofiles"
)

// defaultLockTimeout is how long a run waits for a lock another repo run
// holds, unless Options.LockTimeout says otherwise.
const defaultLockTimeout = 30 * time.Second

// run is one call of Run: the options, with the defaults filled in, and
// the process it runs in.
type run struct {
	ctx  context.Context
	opts Options
	host workspace.Host
	// records are the ownership records the run parsed, shared by the
	// steps that read them (the tools that leave, the former places, the
	// plan and its retries): each is parsed once unless its bytes change.
	records *plan.RecordCache
}

func newRun(ctx context.Context, opts Options) *run {
	if opts.Mode == "" {
		opts.Mode = Sync
	}
	if opts.Scope == "" && opts.Mode != Forget {
		opts.Scope = toolprofiles.ScopeProject
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Getwd == nil {
		opts.Getwd = os.Getwd
	}
	if opts.LockTimeout == 0 {
		opts.LockTimeout = defaultLockTimeout
	}
	if ctx == nil {
		ctx = context.Background()
	}
	return &run{ctx: ctx, opts: opts, host: workspace.Host{Getenv: opts.Getenv, Getwd: opts.Getwd, GOOS: runtime.GOOS}, records: plan.NewRecordCache()}
}

// check refuses options that contradict each other.
func (o Options) check() error {
	switch {
	case !slices.Contains([]Mode{"", Sync, Check, Forget}, o.Mode):
		return usage.Errorf("mode %q: use sync, check or forget", o.Mode)
	case o.Scope != "" && !slices.Contains(toolprofiles.Scopes, o.Scope):
		return usage.Errorf("scope %q: use project, local or user", o.Scope)
	case o.Committed && o.Mode != Check && !o.DryRun:
		return usage.Errorf("committed judges what a commit holds: use it with check or a dry run")
	case o.Committed && o.Scope != "" && o.Scope != toolprofiles.ScopeProject:
		return usage.Errorf("committed, scope %s: only project files are committed; local and user files never are", o.Scope)
	case o.Hook && (o.Mode == Check || o.Mode == Forget || o.DryRun):
		return usage.Errorf("hook writes what git's hooks write: it is a sync, not a check, dry run or forget")
	case o.Gone && o.Mode != Forget:
		return usage.Errorf("gone: only a forget is for a workspace that is gone")
	}
	return nil
}

// writing reports whether the run writes files.
func (r *run) writing() bool { return r.opts.Mode != Check && !r.opts.DryRun }

// load loads the workspace, with the host's own profiles or extensions.
func (r *run) load() (*workspace.Workspace, error) {
	return workspace.LoadWith(r.host, r.opts.Root, r.opts.Profiles, r.opts.Extensions)
}

func (r *run) locking() runner.Locking {
	return runner.Locking{Timeout: r.opts.LockTimeout, Waiting: r.opts.Waiting}
}

func (r *run) interrupt() runner.Interrupt {
	return runner.Interrupt{Stop: r.ctx.Done(), Abort: r.opts.Abort, Committing: r.opts.Committing}
}
