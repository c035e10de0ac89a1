package writers

import (
	"errors"
	"slices"

	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/runner"
	"github.com/repo-manager/repo/internal/selection"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/teampolicy"
	"github.com/repo-manager/repo/internal/trustgate"
	"github.com/repo-manager/repo/internal/workspace"
	"github.com/repo-manager/repo/toolprofiles"
)

// syncing is a sync, check or dry run of one scope, once loaded: the
// workspace, the tools selected, the team policy and what each file is to
// hold.
type syncing struct {
	*run
	w    *workspace.Workspace
	sel  *selection.Selection
	pol  teampolicy.Policy
	work syncWork
}

// start loads the workspace, selects the tools the run writes, works out
// the team policy (from the options, the workspace's config and whether
// it is in git) and what each file is to hold.
func (r *run) start() (*syncing, error) {
	w, err := r.load()
	if err != nil {
		return nil, err
	}
	sel, err := selection.Select(w, r.opts.Tools, r.opts.Scope)
	if err != nil {
		return nil, err
	}
	pol, err := teampolicy.Load(w, r.opts.Portable, r.opts.Gitignore)
	if err != nil {
		return nil, err
	}
	s := &syncing{run: r, w: w, sel: sel, pol: pol}
	if s.work, err = s.targets(); err != nil {
		return nil, err
	}
	return s, nil
}

// sync brings the selected tools' configs up to date, in steps: load the
// workspace and select the tools, work out what each file is to hold,
// plan the changes and (unless checking) write them, then report.
func (r *run) sync() (*Report, error) {
	s, err := r.start()
	if err != nil {
		return nil, err
	}
	// No literal credential of an extension goes into a file git commits.
	var committed func(*target.Target) bool
	if r.opts.Scope == toolprofiles.ScopeProject {
		c := newCommits(s.w, s.work.targets)
		if s.work.leaks, err = checkLeaks(c, target.ProjectLeaks(s.work.targets, s.w.WS.Servers)); err != nil {
			return nil, err
		}
		committed = func(t *target.Target) bool {
			ok, _ := c.committed(t) // when git cannot say, the file counts as committed
			return ok
		}
	}
	if r.writing() {
		unlock, err := r.locking().Workspace(s.w.Env)
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	run := s.runner(s.planOptions(committed))
	if r.writing() && selection.UserScope(r.opts.Scope) {
		run.Gate = s.gate
	}
	p, written, err := run.Do()
	if err != nil {
		return s.failed(p, err)
	}
	defer p.Close()
	rep := s.report(p, written)
	if !r.writing() && selection.UserScope(r.opts.Scope) {
		// Check and DryRun need no trust and run nothing; they say which
		// servers a sync would stop at.
		u, err := trustgate.Needs(s.w, p, nil)
		if err != nil {
			rep.Warnings = appendUnique(rep.Warnings, err.Error())
			rep.Text.Grouped = appendUnique(rep.Text.Grouped, err.Error())
		}
		rep.Untrusted = untrustedOf(u)
	}
	if r.writing() && r.opts.Scope == toolprofiles.ScopeProject {
		rep.Since = sinceLastSync(s.w, s.sel, s.work.targets, rep)
	}
	return rep, nil
}

// failed is the end of a run that wrote nothing (or, with a
// *PartialError, only files it could not put back). One the trust gate
// stopped is reported: what would have been written, and which servers
// stopped it.
func (s *syncing) failed(p *plan.Plan, err error) (*Report, error) {
	var untrusted *UntrustedError
	if !errors.As(err, &untrusted) {
		if p != nil { // the gate's own failure
			p.Close()
		}
		return nil, fromRunner(err)
	}
	defer p.Close()
	rep := s.report(p, nil)
	for i := range rep.Files {
		if rep.Files[i].Status == statusWritten {
			rep.Files[i].Status = statusStale
		}
	}
	rep.Untrusted = untrusted.Servers
	return rep, err
}

// planOptions are what the plan of this run may do.
func (s *syncing) planOptions(committed func(*target.Target) bool) plan.Options {
	o := s.opts
	return plan.Options{Adopt: o.Adopt, AdoptNames: o.AdoptNames, Ours: o.Ours, Theirs: o.Theirs, AcceptRelocated: o.Committed,
		ReadOnly: o.Mode == Check && !o.DryRun, CommittedOnly: o.Committed, Ignore: s.work.ignore, Committed: committed}
}

// runner is the run of the plan of s's targets.
func (s *syncing) runner(opts plan.Options) runner.Run {
	opts.Records = s.records
	return runner.Run{Env: s.w.Env, Targets: s.work.targets, Options: opts, Write: s.writing(),
		Locking: s.locking(), Interrupt: s.interrupt()}
}

// gate stops a run before it writes a server the user has not trusted
// outside the workspace (trustgate.Needs).
func (s *syncing) gate(p *plan.Plan) error {
	u, err := trustgate.Needs(s.w, p, nil)
	if err != nil {
		return err
	}
	if len(u) > 0 {
		return &UntrustedError{Servers: untrustedOf(u)}
	}
	return nil
}

// fromRunner is a runner's error as Run returns it: files written that
// could not be put back are named in a *PartialError.
func fromRunner(err error) error {
	var failed *runner.Failed
	if !errors.As(err, &failed) {
		return err
	}
	pe := &PartialError{Err: failed.Err}
	for _, fp := range failed.Written {
		pe.Written = append(pe.Written, fileOf(fp, statusWritten, false, false))
	}
	return pe
}

// report is the outcome of a run: the selection, the warnings, and each
// file's status and changes (with DryRun, its diff).
func (s *syncing) report(p *plan.Plan, written []*plan.FilePlan) *Report {
	o := s.opts
	warnings, grouped := s.warnings(p)
	rep := &Report{Version: 1, Mode: o.modeName(), Root: s.w.Root, Scope: o.Scope, ToolSource: s.sel.Source, Committed: o.Committed,
		Policy: policyOf(s.pol), Tools: []string{}, Files: []File{}, Warnings: slices.Clone(warnings), Kept: s.work.kept}
	if rep.Warnings == nil {
		rep.Warnings = []string{}
	}
	rep.Text = Text{Selection: s.sel.Describe(), Policy: s.pol.Describe(s.sel.Profiles), Grouped: grouped}
	if len(s.sel.Profiles) == 0 {
		rep.Text.NoTools = s.sel.None()
	}
	rep.planned(p)
	for _, p := range s.sel.Profiles {
		rep.Tools = append(rep.Tools, p.ID)
	}
	stale := p.Stale()
	if s.writing() {
		stale = written
	}
	for _, fp := range p.Files {
		status := statusUnchanged
		if fp.Changed() || slices.ContainsFunc(written, func(x *plan.FilePlan) bool { return x.Path == fp.Path }) {
			status = statusStale
			if s.writing() {
				status = statusWritten
			}
		}
		rep.Files = append(rep.Files, fileOf(fp, status, o.DryRun && status != statusUnchanged, o.ShowSecrets))
	}
	untrack := s.tracked(rep, p.Tracked)
	rep.Stale = (len(stale) > 0 || untrack > 0) && !s.writing()
	return rep
}

// tracked reports the per-clone files git tracks; each one to untrack is
// a stale file too (not what the workspace declares, on this clone or in
// the commit: stale for Check and Committed alike). It returns how many
// are to untrack.
func (s *syncing) tracked(rep *Report, tracked []plan.TrackedFile) int {
	untrack := 0
	for _, tf := range tracked {
		what, fix := teampolicy.TrackedNote(tf, s.w.Profiles, s.opts.Root)
		rep.Tracked = append(rep.Tracked, Tracked{Path: tf.Display, Tools: tf.Tools, Settings: tf.Settings, Message: what, Fix: fix})
		if tf.Settings {
			continue
		}
		untrack++
		rep.Files = append(rep.Files, File{Path: tf.Display, Scope: toolprofiles.ScopeProject, Tools: slices.Clone(tf.Tools), Status: statusStale,
			Changes: []Change{{Action: string(plan.ActionUntrack), Reason: string(plan.ReasonTracked)}}})
	}
	return untrack
}

// modeName is the mode as the report says it.
func (o Options) modeName() string {
	switch {
	case o.Mode == Forget && o.DryRun:
		return "dry-run"
	case o.Mode == Forget:
		return "forget"
	case o.Mode == Check && o.DryRun:
		return "check+dry-run"
	case o.Mode == Check:
		return "check"
	case o.DryRun:
		return "dry-run"
	}
	return "sync"
}
