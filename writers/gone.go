package writers

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/runner"
	"github.com/repo-manager/repo/internal/shellquote"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/internal/trust"
	"github.com/repo-manager/repo/internal/usage"
	"github.com/repo-manager/repo/toolprofiles"
)

// scopeState is the scope of what repo keeps of a workspace in the state
// folder besides its record (its trust store, what repo last wrote), as a
// report says it deleted.
const scopeState = "state"

// forgetGone forgets a workspace that is gone (Options.Gone): it removes
// the local- and user-scope entries its per-user record holds, as a
// Forget of every tool would have there, deletes the record (a per-user
// record that owns nothing goes) and what else repo keeps of the
// workspace. A sync of another workspace names such a record where it
// holds entries of the files it writes.
func (r *run) forgetGone() (*Report, error) {
	root, err := filepath.Abs(r.opts.Root)
	if err != nil {
		return nil, usage.Errorf("--workspace %s: %v", termtext.Safe(r.opts.Root), err)
	}
	root = filepath.Clean(root)
	if _, err := os.Lstat(filepath.Join(root, ".repository")); err == nil {
		return nil, usage.Errorf("--workspace %s: it is a workspace, not one that is gone; to remove what repo wrote for it, run 'repo forget --all' there", termtext.Safe(root))
	}
	env := r.host.Env(root)
	g, err := goneState(env)
	if err != nil {
		return nil, err
	}
	if !g.recorded && !slices.Contains(g.present, true) {
		return nil, fmt.Errorf("repo keeps no record of a workspace at %s%s", termtext.Safe(root), goneList(env))
	}
	rep, targets, err := r.goneTargets(env, g.recorded)
	if err != nil {
		return nil, err
	}
	if r.writing() {
		unlock, err := runner.Locking{Timeout: r.opts.LockTimeout}.Workspace(env)
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	if err := r.forgetPlan(env, targets, rep); err != nil {
		return nil, err
	}
	r.deleteState(env, g, rep)
	return rep, nil
}

// gone is what repo keeps of a workspace that is gone.
type gone struct {
	recorded bool // its per-user record names it
	// state are its files in the state folder besides the record: the
	// trust store (what the user trusted would be taken for trust in the
	// next workspace created at its path) and what repo last wrote into
	// each entry (hand edits); present says which exist.
	state   []goneFile
	present []bool
}

type goneFile struct{ path, why, what string }

func goneState(env target.Env) (gone, error) {
	var g gone
	recPath, err := plan.UserRecordPath(env)
	if err != nil {
		return g, err
	}
	rec, raw, err := plan.ReadRecord(recPath, env.Display(recPath))
	if err != nil {
		return g, err
	}
	g.recorded = raw != nil && rec.Root == env.Root
	stateDir, err := plan.StateDir(env)
	if err != nil {
		return g, err
	}
	basesPath, err := plan.BasesPath(env)
	if err != nil {
		return g, err
	}
	g.state = []goneFile{
		{trust.Path(stateDir, env.Root), "trust store of a workspace that is gone", "trust store"},
		{basesPath, "what repo last wrote for a workspace that is gone", "memory of what repo wrote"},
	}
	for _, st := range g.state {
		_, err := os.Lstat(st.path)
		g.present = append(g.present, err == nil)
	}
	return g, nil
}

// goneTargets are the removals of every tool's entries the record holds,
// in the local and user scopes (or Options.Scope).
func (r *run) goneTargets(env target.Env, recorded bool) (*Report, []*target.Target, error) {
	profiles, err := toolprofiles.Load("", env.Env)
	if err != nil {
		return nil, nil, err
	}
	rep := r.forgetReport(env.Root, r.scopes([]string{toolprofiles.ScopeLocal, toolprofiles.ScopeUser}))
	var all []*toolprofiles.Profile
	for _, p := range profiles.All() {
		if p.MCP {
			all = append(all, p)
			rep.Tools = append(rep.Tools, p.ID)
		}
	}
	var targets []*target.Target
	if recorded {
		for _, scope := range rep.Scopes {
			lt, _, err := plan.LeavingTargets(env, target.Scope(scope), all, nil, plan.ReasonForgotten, r.records)
			if err != nil {
				return nil, nil, err
			}
			targets = append(targets, lt...)
		}
	}
	return rep, targets, nil
}

// deleteState deletes what repo keeps of the workspace besides its
// record (a forget of one scope keeps it; a dry run says it would go).
func (r *run) deleteState(env target.Env, g gone, rep *Report) {
	for i, st := range g.state {
		if !g.present[i] || r.opts.Scope != "" {
			continue // (a plan that leaves no entry deletes what repo last wrote itself)
		}
		shown := termtext.Safe(env.Display(st.path))
		switch err := r.removeState(st.path); {
		case r.opts.DryRun:
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("the %s of %s, %s, would be deleted", st.what, termtext.Safe(env.Root), shown))
		case err != nil:
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: the %s of %s is not deleted: %v", shown, st.what, termtext.Safe(env.Root), err))
		default:
			rep.Files = append(rep.Files, File{Path: env.Display(st.path), Scope: scopeState, Tools: []string{}, Status: statusWritten,
				Changes: []Change{{Action: string(plan.ActionDelete), Reason: st.why}}})
		}
	}
}

// removeState removes a state file, unless a dry run; one already gone
// is no error.
func (r *run) removeState(path string) error {
	if r.opts.DryRun {
		return nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// goneList is the workspaces that are gone whose records repo keeps, as
// the end of a message ("" when there is none).
func goneList(env target.Env) string {
	dir, err := plan.StateDir(env)
	if err != nil {
		return ""
	}
	list, _ := os.ReadDir(filepath.Join(dir, "workspaces"))
	var gone []string
	for _, de := range list {
		path := filepath.Join(dir, "workspaces", de.Name())
		rec, raw, err := plan.ReadRecord(path, path)
		if err != nil || raw == nil || rec.Root == "" {
			continue
		}
		if _, err := os.Lstat(filepath.Join(rec.Root, ".repository")); errors.Is(err, fs.ErrNotExist) {
			gone = append(gone, shellquote.Join([]string{rec.Root}))
		}
	}
	if len(gone) == 0 {
		return ""
	}
	slices.Sort(gone)
	return "; it keeps records of these workspaces that are gone: " + termtext.Safe(strings.Join(gone, ", "))
}

// runnerFor is the run of a plan of targets in env, writing unless a
// check or dry run.
func (r *run) runnerFor(env target.Env, targets []*target.Target) runner.Run {
	return runner.Run{Env: env, Targets: targets, Options: plan.Options{Records: r.records}, Write: r.writing(), Locking: r.locking(), Interrupt: r.interrupt()}
}
