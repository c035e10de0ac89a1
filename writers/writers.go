// Package writers writes the MCP servers of a workspace's extensions into
// the config files of the AI tools that read them, as managed entries that
// leave every other byte of the files alone. It is the API for a program
// that hosts repo: load the workspace (package extensions) and the tool
// profiles (package toolprofiles), then
//
//	targets, warnings, err := writers.BuildTargets(servers, profiles, scope, env)
//	p, err := writers.Build(env, targets, writers.Options{ReadOnly: true})
//	for _, f := range p.Stale() { fmt.Print(writers.Diff(f)) } // check, diff
//	applied, err := writers.Apply(p)                               // sync
//
// ApplyInterruptible is Apply for a host that stops on a signal or a
// cancel: it passes channels (Interrupt), and the library installs no
// signal handler of its own.
//
// One code path serves sync, --check and --dry-run: Build computes every
// file's new bytes in memory and validates them; only Apply writes, and
// it writes every file or none. Lock serialises runs on one workspace.
//
// The work is done by the packages below, in pipeline order:
// writers/target (servers → targets, one per file and key),
// writers/plan (targets → new file contents and the ownership record,
// through the editors writers/jsonedit, tomledit and yamledit) and
// writers/commit (the atomic, all-or-nothing write). See
// docs/architecture.md.
package writers

import (
	"slices"
	"strings"
	"time"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/translator"
	"github.com/repo-manager/repo/writers/commit"
	"github.com/repo-manager/repo/writers/internal/fileio"
	"github.com/repo-manager/repo/writers/plan"
	"github.com/repo-manager/repo/writers/target"
)

type (
	// Env is the workspace root and where per-user paths come from.
	Env = target.Env
	// Scope is where a tool reads a file: toolprofiles.ScopeProject,
	// ScopeLocal or ScopeUser.
	Scope = target.Scope
	// Target is one file and key that servers are written into.
	Target = target.Target
	// Options change what a plan may do.
	Options = plan.Options
	// Plan is everything a sync would do.
	Plan = plan.Plan
	// FilePlan is one file's planned new content.
	FilePlan = plan.FilePlan
	// Change is one thing a plan does to a file.
	Change = plan.Change
	// Applied is what Apply did.
	Applied = commit.Applied
	// Interrupt is how a host stops ApplyInterruptible (its signal
	// handler closes the channels; writers installs none).
	Interrupt = commit.Interrupt
)

var (
	// ErrChanged: a file changed between planning and applying; plan again.
	ErrChanged = commit.ErrChanged
	// ErrUnsteady: another program kept changing a file while repo read
	// it; plan again.
	ErrUnsteady = fileio.ErrUnsteady
	// ErrLocked: another run held the workspace lock for too long.
	ErrLocked = fileio.ErrLocked
	// ErrInterrupted: the host stopped ApplyInterruptible before every
	// tool config was replaced; everything was put back.
	ErrInterrupted = commit.ErrInterrupted
)

// BuildTargets translates every server for every profile that has the
// scope (toolprofiles.ScopeProject, ScopeLocal or ScopeUser), and groups
// the entries by file and key.
func BuildTargets(servers []extensions.Server, profiles []*toolprofiles.Profile, scope Scope, env Env) ([]*Target, []translator.Warning, error) {
	return target.Build(servers, profiles, scope, env)
}

// Build plans every target. It reads files and ownership records but
// writes nothing. Every file is checked before an error is returned, so
// one run reports every broken file at once.
func Build(env Env, targets []*Target, opts Options) (*Plan, error) {
	return plan.Build(env, targets, opts)
}

// Diff is a git-style unified diff of one planned file; empty when the
// file does not change. In a tool's file, a value outside repo's entries
// that looks like a credential is shown as plan.Redacted, and a line that
// holds the whole file by what changed in it.
func Diff(f *FilePlan) string { return plan.Diff(f) }

// RawDiff is Diff with every value as it is.
func RawDiff(f *FilePlan) string { return plan.RawDiff(f) }

// Apply writes the files of p that change, all or none.
func Apply(p *Plan) (Applied, error) { return commit.Apply(p) }

// ApplyInterruptible is Apply that the host can stop (see Interrupt): a
// nil error means every file is written, ErrInterrupted that none is.
func ApplyInterruptible(p *Plan, in Interrupt) (Applied, error) {
	return commit.ApplyInterruptible(p, in)
}

// LockPath is the lock file of the workspace at env.Root, in the per-user
// state folder.
func LockPath(env Env) (string, error) { return plan.LockPath(env) }

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
func LockFiles(env Env, targets []*Target, timeout time.Duration, waiting func(file string)) (unlock func(), err error) {
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

// Lock takes the lock at path, calling waiting once if it has to wait, and
// gives up with ErrLocked after timeout. unlock releases it; so does the
// end of the process.
func Lock(path string, timeout time.Duration, waiting func()) (unlock func(), err error) {
	return fileio.Lock(path, timeout, waiting)
}

// What a Change does to an entry (ActionDelete: to the whole file).
const (
	ActionAdd    = plan.ActionAdd
	ActionUpdate = plan.ActionUpdate
	ActionRemove = plan.ActionRemove
	ActionAdopt  = plan.ActionAdopt
	ActionForget = plan.ActionForget
	ActionDelete = plan.ActionDelete
)
