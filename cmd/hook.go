package cmd

import (
	"errors"
	"fmt"
	"slices"

	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers"
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

// hookRun runs repo sync --hook: a hook run of writers.Run for each
// scope, the project's first.
func hookRun(opts *SyncOptions) error {
	for _, scope := range toolprofiles.Scopes {
		so := *opts
		so.Scope = scope
		wo := so.door()
		ctx, err := opts.F.runContext(&wo, true)
		if err != nil {
			return err
		}
		rep, err := writers.Run(ctx, wo)
		var untrusted *writers.UntrustedError
		switch {
		case errors.As(err, &untrusted):
			if !opts.Quiet {
				fmt.Fprintf(opts.F.IO.ErrOut, "%s %s scope: %s\n", opts.F.paint(opts.F.IO.ErrOut, yellow, "note:"), scope, newUntrustedError(untrusted.Servers, syncCommand(&so)).Error())
			}
		case err != nil:
			return runFailed(opts.F, err)
		case scope == toolprofiles.ScopeProject:
			hookProject(&so, rep)
		default:
			hookScope(&so, rep)
		}
	}
	return nil
}

// hookProject says which per-clone files the hook wrote, what is new
// since the last sync, and the committed files that are out of date.
func hookProject(opts *SyncOptions, rep *writers.Report) {
	f := opts.F
	printWritten(opts, rep.Files)
	printSince(f, rep.Since)
	if opts.Quiet {
		return
	}
	var tracked []writers.Tracked
	for _, t := range rep.Tracked {
		if t.Settings && !opts.Verbose {
			continue // a standing choice, said by sync and doctor: not after every checkout
		}
		tracked = append(tracked, t)
	}
	printTracked(f, tracked)
	committed := 0
	for _, fr := range rep.Files {
		if fr.Status != statusStale || slices.ContainsFunc(fr.Changes, func(c writers.Change) bool { return c.Action == string(plan.ActionUntrack) }) {
			continue
		}
		committed++
		fmt.Fprintf(f.IO.ErrOut, "%s %s (%s): %s\n", f.paint(f.IO.ErrOut, yellow, "out of date:"), termtext.Safe(fr.Path), who(fr), reasons(fr.Changes))
	}
	if committed > 0 {
		fmt.Fprintf(f.IO.ErrOut, "the hook writes no file a commit holds: run '%s' and commit the result\n", syncCommand(opts))
	}
	if opts.Verbose {
		fmt.Fprintln(f.IO.ErrOut, rep.Text.Policy)
	}
	for _, warning := range rep.Warnings {
		fmt.Fprintf(f.IO.ErrOut, "%s %s\n", f.paint(f.IO.ErrOut, yellow, "warning:"), warning)
	}
}

// hookScope says what the hook wrote in a local or user scope, or (-v)
// that the workspace has no entries there: a report without files.
func hookScope(opts *SyncOptions, rep *writers.Report) {
	if len(rep.Files) == 0 {
		if opts.Verbose {
			fmt.Fprintf(opts.F.IO.ErrOut, "%s scope: no entries of this workspace's on this machine; 'repo sync --scope %s' starts it\n", opts.Scope, opts.Scope)
		}
		return
	}
	printWritten(opts, rep.Files)
}

// printWritten says which files a run wrote (unless -q).
func printWritten(opts *SyncOptions, files []fileResult) {
	if opts.Quiet {
		return
	}
	f := opts.F
	for _, fr := range files {
		if fr.Status == statusWritten {
			fmt.Fprintf(f.IO.ErrOut, "%s %s (%s): %s\n", f.paint(f.IO.ErrOut, green, wroteVerb(fr)), termtext.Safe(fr.Path), who(fr), summary(fr.Changes))
		}
	}
}
