package cmd

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers"
	"github.com/repo-manager/repo/writers/plan"
)

// repo sync --hook: what git's post-checkout, post-merge and post-rewrite
// hooks run (.pre-commit-hooks.yaml, docs/hooks.md), so that a clone is
// current with what git just brought — a pull that adds a server, a switch
// to a branch with other extensions. Three things shape it:
//
//   - It never writes a file git tracks, nor one a commit would hold: git
//     may be in the middle of a rebase, where a changed or new file in the
//     work tree stops the next step. The committed files came with the
//     checkout; one that is out of date (a commit made without syncing)
//     is named, for repo sync and the next commit. What it writes are the
//     project scope's per-clone files (git ignores them) and the clone's
//     own record of them.
//   - The local and user scopes are written where this workspace already
//     has entries on this machine (the per-user record): the hook keeps
//     current what the user set up, and starts nothing new there.
//   - Servers the user has not trusted are listed and not written, as the
//     trust gate does for any sync; that is no failure (exit 0), since a
//     hook that fails after a checkout undoes nothing and only alarms.
//
// It prints what it wrote and what needs the user, and nothing when the
// clone is current.

// hookRun runs repo sync --hook.
func hookRun(opts *SyncOptions) error {
	f := opts.F
	w, err := f.load(opts.Root)
	if err != nil {
		return err
	}
	pol, err := loadPolicy(w, flagPointer(opts.PortableSet, opts.Portable), flagPointer(opts.GitignoreSet, opts.Gitignore))
	if err != nil {
		return err
	}
	unlock, err := lockWorkspace(f, w)
	if err != nil {
		return err
	}
	defer unlock()
	if err := hookProject(opts, w, pol); err != nil {
		return err
	}
	recPath, err := plan.UserRecordPath(w.Env)
	if err != nil {
		return err
	}
	rec, _, err := plan.ReadRecord(recPath, w.Env.Display(recPath))
	if err != nil {
		return err
	}
	for _, scope := range []string{toolprofiles.ScopeLocal, toolprofiles.ScopeUser} {
		if err := hookScope(opts, w, rec, scope); err != nil {
			return err
		}
	}
	return nil
}

// hookProject writes the project scope's per-clone files, and names the
// committed files that are out of date.
func hookProject(opts *SyncOptions, w *workspace, pol policy) error {
	f := opts.F
	so := *opts
	so.Scope = toolprofiles.ScopeProject
	sel, err := selectTools(w, so.Tools, so.Scope)
	if err != nil {
		return err
	}
	work, err := syncTargets(w, sel, &so)
	if err != nil {
		return err
	}
	var committed []*writers.FilePlan
	perClone := func(p *writers.Plan) error {
		// Only the per-clone files are applied; the rest is reported.
		committed = nil
		var keep []*writers.FilePlan
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
	p, written, err := planAndApply(f, w.Env, work.targets, writers.Options{Ignore: work.ignore}, true, perClone)
	if err != nil {
		return err
	}
	defer p.Close()
	printWritten(opts, written)
	res := syncResult{}
	if len(written) > 0 {
		// What the checkout brought into effect: say what is new.
		printSince(f, sinceLastSync(w, sel, work.targets, &res))
	}
	if opts.Quiet {
		return nil
	}
	for _, tf := range p.Tracked {
		if tf.Settings && !opts.Verbose {
			continue // a standing choice, said by sync and doctor: not after every checkout
		}
		what, fix := trackedNote(tf, w.Profiles, opts.Root)
		res.Tracked = append(res.Tracked, trackedResult{Path: tf.Display, Tools: tf.Tools, Settings: tf.Settings, Message: what, Fix: fix})
	}
	printTracked(f, res.Tracked)
	for _, fp := range committed {
		fr := newFileResult(fp, statusStale, noDiff)
		fmt.Fprintf(f.IO.ErrOut, "%s %s (%s): %s\n", f.paint(f.IO.ErrOut, yellow, "out of date:"), termtext.Safe(fr.Path), who(fr), reasons(fr.Changes))
	}
	if len(committed) > 0 {
		fmt.Fprintf(f.IO.ErrOut, "the hook writes no file a commit holds: run '%s' and commit the result\n", syncCommand(&so))
	}
	if opts.Verbose {
		fmt.Fprintln(f.IO.ErrOut, pol.describe(sel.Profiles))
	}
	for _, warning := range res.Warnings {
		fmt.Fprintf(f.IO.ErrOut, "%s %s\n", f.paint(f.IO.ErrOut, yellow, "warning:"), warning)
	}
	return nil
}

// hookScope syncs a local or user scope where the per-user record says
// this workspace has entries of the scope's selected tools, through the
// trust gate: untrusted servers are listed, and nothing of the scope is
// written.
func hookScope(opts *SyncOptions, w *workspace, rec *plan.Record, scope string) error {
	f := opts.F
	so := *opts
	so.Scope = scope
	sel, err := selectTools(w, so.Tools, scope)
	if err != nil {
		return err
	}
	work, err := syncTargets(w, sel, &so)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(work.targets, func(t *writers.Target) bool { return rec.Find(filepath.ToSlash(t.Path), t.Key) != nil }) {
		if opts.Verbose {
			fmt.Fprintf(f.IO.ErrOut, "%s scope: no entries of this workspace's on this machine; 'repo sync --scope %s' starts it\n", scope, scope)
		}
		return nil
	}
	gate := func(p *writers.Plan) error { return trustGate(w, p, nil, syncCommand(&so)) }
	p, written, err := planAndApply(f, w.Env, work.targets, writers.Options{}, true, gate)
	var untrusted *untrustedError
	if errors.As(err, &untrusted) {
		untrusted.plan.Close()
		if !opts.Quiet {
			fmt.Fprintf(f.IO.ErrOut, "%s %s scope: %s\n", f.paint(f.IO.ErrOut, yellow, "note:"), scope, untrusted.Error())
		}
		return nil
	}
	if err != nil {
		return err
	}
	p.Close()
	printWritten(opts, written)
	return nil
}

// printWritten says which files a run wrote (unless -q).
func printWritten(opts *SyncOptions, written []*writers.FilePlan) {
	if opts.Quiet {
		return
	}
	f := opts.F
	for _, fp := range written {
		fr := newFileResult(fp, statusWritten, noDiff)
		fmt.Fprintf(f.IO.ErrOut, "%s %s (%s): %s\n", f.paint(f.IO.ErrOut, green, wroteVerb(fr)), termtext.Safe(fr.Path), who(fr), summary(fr.Changes))
	}
}
