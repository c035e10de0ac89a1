package writers

import (
	"path/filepath"
	"slices"

	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// A hook run (Options.Hook) is what git's post-checkout, post-merge and
// post-rewrite hooks run, once per scope, so that a clone is current with
// what git just brought — a pull that adds a server, a switch to a branch
// with other extensions. Three things shape it:
//
//   - It never writes a file git tracks, nor one a commit would hold: git
//     may be in the middle of a rebase, where a changed or new file in the
//     work tree stops the next step. The committed files came with the
//     checkout; one that is out of date (a commit made without syncing)
//     is reported stale, for a sync and the next commit. What it writes
//     are the project scope's per-clone files (git ignores them) and the
//     clone's own record of them.
//   - The local and user scopes are written where this workspace already
//     has entries on this machine (the per-user record): the hook keeps
//     current what the user set up, and starts nothing new there.
//   - Servers the user has not trusted stop the scope as in any sync
//     (*UntrustedError); the command line lists them and exits 0, since a
//     hook that fails after a checkout undoes nothing and only alarms.
//
// Its report's warnings are only what a hook says: which servers are new
// or changed since the last sync.

func (r *run) hook() (*Report, error) {
	s, err := r.start()
	if err != nil {
		return nil, err
	}
	if r.opts.Scope != toolprofiles.ScopeProject {
		return s.hookScope()
	}
	unlock, err := r.locking().Workspace(s.w.Env)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var committed []*plan.FilePlan
	run := s.runner(plan.Options{Ignore: s.work.ignore})
	run.Gate = func(p *plan.Plan) error {
		// Only the per-clone files are applied; the rest is reported.
		committed = nil
		var keep []*plan.FilePlan
		for _, fp := range p.Files {
			switch {
			case fp.PerClone:
				keep = append(keep, fp)
			case fp.Changed():
				committed = append(committed, fp)
			}
		}
		p.Files = keep
		return nil
	}
	p, written, err := run.Do()
	if err != nil {
		return nil, fromRunner(err)
	}
	defer p.Close()
	rep := s.report(p, written)
	rep.Warnings, rep.Text.Grouped = []string{}, nil
	for _, fp := range committed {
		rep.Files = append(rep.Files, fileOf(fp, statusStale, false, false))
	}
	if len(written) > 0 {
		// What the checkout brought into effect: say what is new.
		rep.Since = sinceLastSync(s.w, s.sel, s.work.targets, rep)
	}
	return rep, nil
}

// hookScope syncs a local or user scope where the per-user record says
// this workspace has entries of the scope's selected tools, through the
// trust gate. Elsewhere it writes nothing and reports no file.
func (s *syncing) hookScope() (*Report, error) {
	recPath, err := plan.UserRecordPath(s.w.Env)
	if err != nil {
		return nil, err
	}
	rec, _, err := plan.ReadRecord(recPath, s.w.Env.Display(recPath))
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(s.work.targets, func(t *target.Target) bool { return rec.Find(filepath.ToSlash(t.Path), t.Key) != nil }) {
		rep := &Report{Version: 1, Mode: s.opts.modeName(), Root: s.w.Root, Scope: s.opts.Scope, ToolSource: s.sel.Source,
			Tools: []string{}, Files: []File{}, Warnings: []string{}, Policy: policyOf(s.pol)}
		return rep, nil
	}
	unlock, err := s.locking().Workspace(s.w.Env)
	if err != nil {
		return nil, err
	}
	defer unlock()
	run := s.runner(plan.Options{})
	run.Gate = s.gate
	p, written, err := run.Do()
	if err != nil {
		return s.failed(p, err)
	}
	defer p.Close()
	rep := s.report(p, written)
	rep.Warnings, rep.Text.Grouped = []string{}, nil
	return rep, nil
}
