// Package writers writes the MCP servers of a workspace's extensions into
// the config files of the AI tools that read them, as managed entries that
// leave every other byte of the files alone. It is the door for a program
// that hosts repo, and the command line goes through it too: one call,
//
//	rep, err := writers.Run(ctx, writers.Options{Root: root, Mode: writers.Check})
//
// runs the policy of `repo sync` (modes Sync and Check, each with
// Options.DryRun) or `repo forget` (Forget) on a workspace and returns the
// report that `repo sync --output json` prints (docs/schema/sync.v1.json;
// forget.v1.json for Forget):
// the config and the tools it selects or detects, the tools that left the
// list, the .gitignore block, the trust gate, the locks, the plan, the
// retries when a tool rewrites a file, and the write, all or nothing.
//
// Run prints nothing: warnings are in the report, waits for another run's
// lock go to Options.Waiting. A host stops a run with ctx. A server that
// would reach a local- or user-scope file without the user's trust stops
// the run (*UntrustedError, nothing written); there is no switch that
// skips that: Trust records the user's yes to the definitions the error
// showed, as `repo trust` does. A host that builds its own tool profiles
// or extension set passes them (Options.Profiles, Options.Extensions;
// packages toolprofiles and extensions).
package writers

import (
	"context"
	"time"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/commit"
	"github.com/repo-manager/repo/internal/runner"
	"github.com/repo-manager/repo/internal/usage"
	"github.com/repo-manager/repo/toolprofiles"
)

// Mode is what a run does.
type Mode string

const (
	// Sync brings every selected tool's config up to date (the default).
	Sync Mode = "sync"
	// Check writes nothing and reports whether a sync would change a file
	// (Report.Stale).
	Check Mode = "check"
	// Forget removes the entries repo wrote for Options.Tools (none: for
	// every tool), in Options.Scope (none: in every scope).
	Forget Mode = "forget"
)

// Options say what a run does. The zero value syncs the project scope of
// the workspace at or above the working directory.
type Options struct {
	// Root is the workspace root (it holds .repository/); empty: the
	// nearest one at or above the working directory. Messages name it in
	// the commands they suggest only when it is given.
	Root string
	Mode Mode
	// DryRun writes nothing, and each file that would change carries its
	// diff (Sync or Check; Forget). ShowSecrets shows the user's
	// credentials in diffs, which are otherwise redacted.
	DryRun, ShowSecrets bool
	// Scope is project (the default), local or user; for Forget, empty is
	// every scope.
	Scope string
	// Tools are the tool ids to write; none: the workspace's [mcp] tools,
	// else the tools detected. For Forget, the tools whose entries go.
	Tools []string
	// Adopt takes over the user's own entries that have a managed
	// server's name; AdoptNames only those of these names (and lets a
	// local-scope server take the place of one of the user's elsewhere).
	Adopt      bool
	AdoptNames []string
	// Ours and Theirs settle the fields of these entries that the user
	// edited by hand and the extension changed since: the user's value,
	// or the extension's.
	Ours, Theirs []string
	// Portable and Gitignore are the team policy for this run (nil: the
	// workspace's [mcp] portable and gitignore, else on in git).
	Portable, Gitignore *bool
	// Committed (Check or DryRun, project scope) judges what a commit
	// holds only: this clone's per-clone files are left out, and an entry
	// written at another root is accepted.
	Committed bool
	// Hook is what git's hooks run after a checkout, merge or rewrite
	// (Sync): at project scope only this clone's per-clone files are
	// written, and a committed file out of date is reported stale; at
	// local and user scope a workspace with no entries there yet is left
	// alone (a report without files).
	Hook bool
	// Gone (Forget) says Root is a workspace that is gone: the local- and
	// user-scope entries its record holds go, then the record and what
	// repo keeps of it (its trust store).
	Gone bool

	// Profiles and Extensions replace the tool profiles and the servers
	// that Run would load (toolprofiles.Load, extensions.Load).
	Profiles   *toolprofiles.Set
	Extensions *extensions.Workspace
	// Getenv and Getwd are the environment (HOME, XDG_STATE_HOME, PATH,
	// …) and the working directory; nil: the process's. A run reads its
	// files on several goroutines, and may call Getenv from more than one
	// at once.
	Getenv func(string) string
	Getwd  func() (string, error)
	// LockTimeout bounds each wait for a lock another repo run holds
	// (default 30 s); Waiting, when set, is told what the run waits for.
	LockTimeout time.Duration
	Waiting     func(message string)
	// Abort, closed after ctx is done, ends a write without waiting for
	// the tools' locks or fsyncs (the renames that leave every file whole
	// still happen). Committing, when set, is called with true as the run
	// starts to replace files and with false when it is done (wrote:
	// files hold what it wrote): a host that ends its process on a signal
	// ends it only outside that span, and cancels ctx within it.
	Abort      <-chan struct{}
	Committing func(start, wrote bool)
}

var (
	// ErrOptions: the options ask for what cannot be — an unknown tool
	// id, a scope a tool has no file in, a root that is no workspace.
	ErrOptions = usage.ErrUsage
	// ErrLocked: another run held a lock for longer than LockTimeout.
	ErrLocked = commit.ErrLocked
	// ErrChanged and ErrUnsteady: a tool kept rewriting a file while the
	// run planned and wrote it, through every attempt; nothing is written.
	ErrChanged  = commit.ErrChanged
	ErrUnsteady = commit.ErrUnsteady
	// ErrInterrupted: ctx was done before every file was written; nothing
	// is (a run that had replaced every tool config finishes instead).
	ErrInterrupted = runner.ErrInterrupted
)

// Run runs repo on a workspace as opts say and reports what it did (or,
// for Check and DryRun, would do). Every file is checked before an error
// is returned, so one run reports every broken file at once. With an
// *UntrustedError the report is returned too: what the sync would have
// written, with nothing written.
func Run(ctx context.Context, opts Options) (*Report, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	r := newRun(ctx, opts)
	switch {
	case opts.Mode == Forget && opts.Gone:
		return r.forgetGone()
	case opts.Mode == Forget:
		return r.forget()
	case opts.Hook:
		return r.hook()
	}
	return r.sync()
}
