package writers

import (
	"fmt"
	"slices"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/selection"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/teampolicy"
	"github.com/repo-manager/repo/internal/workspace"
	"github.com/repo-manager/repo/toolprofiles"
)

// forget removes the entries repo wrote for the tools of Options.Tools
// (none: every tool), in every scope the ownership records know or
// Options.Scope, and forgets them in the records. The user's entries
// stay; a file or container repo created goes once nothing else is in it.
func (r *run) forget() (*Report, error) {
	w, err := r.load()
	if err != nil {
		return nil, err
	}
	// As sync has them: a machine-specific project file's entries are in
	// the clone's own record under a per-clone policy (LeavingTargets finds
	// them in either record; this keeps the plan to the one sync uses).
	if _, err := teampolicy.Load(w, nil, nil); err != nil {
		return nil, err
	}
	all := len(r.opts.Tools) == 0
	forgotten, err := r.forgotten(w, all)
	if err != nil {
		return nil, err
	}
	rep := r.forgetReport(w.Root, r.scopes(toolprofiles.Scopes))
	for _, p := range forgotten {
		rep.Tools = append(rep.Tools, p.ID)
	}
	var targets []*target.Target
	for _, scope := range rep.Scopes {
		lt, err := r.leaving(w, rep, scope, forgotten, all)
		if err != nil {
			return nil, err
		}
		targets = append(targets, lt...)
	}
	rep.Warnings = append(rep.Warnings, againWarnings(w, forgotten, all)...)
	if r.writing() && len(targets) > 0 {
		unlock, err := r.locking().Workspace(w.Env)
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	return rep, r.forgetPlan(w.Env, targets, rep)
}

// forgotten are the tools to forget, as the project scope has them; each
// scope looks its own up (forgottenIn).
func (r *run) forgotten(w *workspace.Workspace, all bool) ([]*toolprofiles.Profile, error) {
	var out []*toolprofiles.Profile
	if all {
		for _, p := range w.Profiles.All() {
			if p.MCP {
				out = append(out, p)
			}
		}
		return out, nil
	}
	for _, id := range r.opts.Tools {
		p, err := selection.Lookup(w.Profiles, id, "--tool")
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// leaving are the targets that remove the forgotten tools' entries in
// scope. The tools the workspace still asks for keep what they share
// with the forgotten ones (every tool forgotten: none), those this
// machine lacks included, as sync keeps them; rep says which.
func (r *run) leaving(w *workspace.Workspace, rep *Report, scope string, forgotten []*toolprofiles.Profile, all bool) ([]*target.Target, error) {
	var staying []*toolprofiles.Profile
	if !all {
		sel, err := selection.Select(w, nil, scope)
		if err != nil {
			return nil, err
		}
		for _, p := range sel.Wanted {
			if !slices.ContainsFunc(forgotten, func(f *toolprofiles.Profile) bool { return f.ID == p.ID }) {
				staying = append(staying, p)
			}
		}
	}
	lt, kept, err := plan.LeavingTargets(w.Env, target.Scope(scope), forgottenIn(w.Profiles.ForScope(scope), forgotten, all), staying, plan.ReasonForgotten, r.records)
	if err != nil {
		return nil, err
	}
	for _, k := range kept {
		rep.Kept = append(rep.Kept, Kept{Path: k.Display, Scope: string(k.Scope), Tools: k.Tools, By: k.By})
	}
	return lt, nil
}

// forgetReport is an empty report of a forget.
func (r *run) forgetReport(root string, scopes []string) *Report {
	return &Report{Version: 1, Mode: r.opts.modeName(), Root: root, Tools: []string{}, Scopes: scopes,
		Files: []File{}, Kept: []Kept{}, Warnings: []string{}, forget: true}
}

// scopes are the scopes a forget looks at: Options.Scope, else all.
func (r *run) scopes(all []string) []string {
	if r.opts.Scope != "" {
		return []string{r.opts.Scope}
	}
	return all
}

// forgetPlan plans the removals and, unless a dry run, applies them; rep
// gets each file that changes.
func (r *run) forgetPlan(env target.Env, targets []*target.Target, rep *Report) error {
	p, written, err := r.runnerFor(env, targets).Do()
	if err != nil {
		return fromRunner(err)
	}
	defer p.Close()
	for _, pw := range p.Warnings {
		rep.Warnings = appendUnique(rep.Warnings, pw)
	}
	for _, fp := range p.Files {
		if !fp.Changed() && !slices.ContainsFunc(written, func(x *plan.FilePlan) bool { return x.Path == fp.Path }) {
			continue
		}
		if r.opts.DryRun {
			rep.Files = append(rep.Files, fileOf(fp, statusStale, true, r.opts.ShowSecrets))
		} else {
			rep.Files = append(rep.Files, fileOf(fp, statusWritten, false, false))
		}
	}
	return nil
}

// forgottenIn are the forgotten tools as the profiles of one scope have
// them (a workspace's profile applies to the project scope only; the local
// and user scopes use the built-in or the user's own of its id, or none).
func forgottenIn(set *toolprofiles.Set, forgotten []*toolprofiles.Profile, all bool) []*toolprofiles.Profile {
	var out []*toolprofiles.Profile
	if all {
		for _, p := range set.All() {
			if p.MCP {
				out = append(out, p)
			}
		}
		return out
	}
	for _, f := range forgotten {
		if p := set.Get(f.ID); p != nil {
			out = append(out, p)
		}
	}
	return out
}

// againWarnings are the forgotten tools the next sync writes again: those
// listed in [mcp] tools, or, without a list, detected.
func againWarnings(w *workspace.Workspace, forgotten []*toolprofiles.Profile, all bool) []string {
	cfg, err := w.Config()
	if err != nil {
		return nil // the policy has read it already: not reached
	}
	var out []string
	for _, p := range forgotten {
		switch {
		case cfg.Set && slices.Contains(cfg.Tools, p.ID):
			out = append(out, fmt.Sprintf("%s is listed in [mcp] tools of %s: the next repo sync writes its entries again; take it out of the list to keep them out", p.ID, extensions.ConfigFile))
		case !cfg.Set && !all && len(selection.InWorkspace(p, w)) > 0:
			out = append(out, fmt.Sprintf("%s is detected in this workspace (see repo tools): the next repo sync writes its entries again; list the tools repo writes in [mcp] tools of %s to leave it out", p.ID, extensions.ConfigFile))
		}
	}
	if all && !cfg.Set {
		out = append(out, fmt.Sprintf("the next repo sync writes the tools detected in this workspace again; list the tools repo writes in [mcp] tools of %s (an empty list writes none)", extensions.ConfigFile))
	}
	return out
}
