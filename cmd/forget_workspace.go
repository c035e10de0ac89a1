package cmd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/shellquote"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/internal/trust"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers"
	"github.com/repo-manager/repo/writers/plan"
	"github.com/repo-manager/repo/writers/target"
)

// forgetWorkspaceRun is repo forget --workspace ROOT: for a workspace that
// is gone, it removes the local- and user-scope entries its per-user
// record holds, as repo forget --all would have there, deletes the record
// (addRecords deletes a per-user record that owns nothing) and the
// workspace's trust store. A sync of another workspace names such a record
// where it holds entries of the files it writes.
func forgetWorkspaceRun(opts *ForgetOptions) error {
	f := opts.F
	root, err := filepath.Abs(opts.Workspace)
	if err != nil {
		return usagef("--workspace %s: %v", termtext.Safe(opts.Workspace), err)
	}
	root = filepath.Clean(root)
	if _, err := os.Lstat(filepath.Join(root, ".repository")); err == nil {
		return usagef("--workspace %s: it is a workspace, not one that is gone; to remove what repo wrote for it, run 'repo forget --all' there", termtext.Safe(root))
	}
	env := f.Env(root)
	recPath, err := plan.UserRecordPath(env)
	if err != nil {
		return err
	}
	rec, raw, err := plan.ReadRecord(recPath, env.Display(recPath))
	if err != nil {
		return err
	}
	stateDir, err := plan.StateDir(env)
	if err != nil {
		return err
	}
	trustPath := trust.Path(stateDir, root)
	basesPath, err := plan.BasesPath(env)
	if err != nil {
		return err
	}
	// What repo keeps of the workspace besides its record: the trust store
	// (what the user trusted would be taken for trust in the next
	// workspace created at its path) and what repo last wrote into each
	// entry (handedit.go).
	state := []struct{ path, why, what string }{
		{trustPath, "trust store of a workspace that is gone", "trust store"},
		{basesPath, "what repo last wrote for a workspace that is gone", "memory of what repo wrote"},
	}
	present := make([]bool, len(state))
	for i, st := range state {
		_, err := os.Lstat(st.path)
		present[i] = err == nil
	}
	if (raw == nil || rec.Root != root) && !slices.Contains(present, true) {
		return fmt.Errorf("repo keeps no record of a workspace at %s%s", termtext.Safe(root), goneList(env))
	}
	profiles, err := toolprofiles.Load("", env.Env)
	if err != nil {
		return err
	}
	scopes := []string{toolprofiles.ScopeLocal, toolprofiles.ScopeUser}
	if opts.Scope != "" {
		scopes = []string{opts.Scope}
	}
	res := forgetResult{Version: 1, Mode: "forget", Root: root, Tools: []string{}, Scopes: scopes,
		Files: []fileResult{}, Kept: []forgetKept{}, Warnings: []string{}}
	if opts.DryRun {
		res.Mode = "dry-run"
	}
	var all []*toolprofiles.Profile
	for _, p := range profiles.All() {
		if p.MCP {
			all = append(all, p)
			res.Tools = append(res.Tools, p.ID)
		}
	}
	var targets []*writers.Target
	if raw != nil && rec.Root == root {
		for _, scope := range scopes {
			lt, _, err := plan.LeavingTargets(env, target.Scope(scope), all, nil, plan.ReasonForgotten)
			if err != nil {
				return err
			}
			targets = append(targets, lt...)
		}
	}
	if !opts.DryRun {
		path, err := writers.LockPath(env)
		if err != nil {
			return err
		}
		timeout, err := lockTimeout(f)
		if err != nil {
			return err
		}
		unlock, err := writers.Lock(path, timeout, nil)
		if err != nil {
			return err
		}
		defer unlock()
	}
	p, written, err := planAndApply(f, env, targets, writers.Options{}, !opts.DryRun, nil)
	if err != nil {
		return err
	}
	defer p.Close()
	res.Warnings = append(res.Warnings, p.Warnings...)
	for _, fp := range p.Files {
		if !fp.Changed() && !slices.ContainsFunc(written, func(x *writers.FilePlan) bool { return x.Path == fp.Path }) {
			continue
		}
		status := statusWritten
		if opts.DryRun {
			status = statusStale
		}
		res.Files = append(res.Files, newFileResult(fp, status, diffFor(opts.DryRun, opts.ShowSecrets)))
	}
	for i, st := range state {
		if !present[i] || opts.Scope != "" {
			continue // (a plan that leaves no entry deletes what repo last wrote itself)
		}
		if opts.DryRun {
			res.Warnings = append(res.Warnings, fmt.Sprintf("the %s of %s, %s, would be deleted", st.what, termtext.Safe(root), termtext.Safe(env.Display(st.path))))
		} else if err := os.Remove(st.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: the %s of %s is not deleted: %v", termtext.Safe(env.Display(st.path)), st.what, termtext.Safe(root), err))
		} else {
			res.Files = append(res.Files, fileResult{Path: env.Display(st.path), Scope: scopeTrust, Tools: []string{}, Status: statusWritten,
				Changes: []writers.Change{{Action: writers.ActionDelete, Reason: plan.Reason(st.why)}}})
		}
	}
	if opts.Output == "json" {
		return writeJSON(f, res)
	}
	printForget(f, opts, res)
	return nil
}

// scopeTrust is the scope of what repo keeps of a workspace in the state
// folder besides its record (its trust store, what repo last wrote), as a
// command reports it deleted.
const scopeTrust = "state"

// goneList is the workspaces that are gone whose records repo keeps, as
// the end of a message ("" when there is none).
func goneList(env writers.Env) string {
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
