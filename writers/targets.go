package writers

import (
	"fmt"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/par"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/selection"
	"github.com/repo-manager/repo/internal/serverpaths"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/teampolicy"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/translator"
)

// syncWork is what a sync is to bring about, before anything is read:
// the targets, the ignore block, and the files it leaves alone.
type syncWork struct {
	targets  []*target.Target
	warnings []translator.Warning // from translating the servers
	leaks    []string             // literal credentials going only into per-clone files
	ignore   *plan.IgnoreBlock
	kept     []Kept
}

// targets works out what each file is to hold: the servers of the
// selected tools, and what repo wrote for tools that left the selection.
// That is removed when the workspace lists its tools ([mcp] tools), only
// said when they are detected — a marker that disappears is no reason to
// touch a file — and not looked at for a run that names its tools
// (Options.Tools). A tool the list names that this run leaves out (not on
// this machine: user and local scope go by the machine's evidence) has
// not left: its entries stay, and so do those of a file it shares with one
// that has.
func (s *syncing) targets() (syncWork, error) {
	w, sel, scope := s.w, s.sel, s.opts.Scope
	// The tools that leave are planned from the records alone: on the
	// second core, beside the selected tools' targets (a no-op check of
	// the example workspace spends a tenth of its time finding them).
	var work syncWork
	var err, leaveErr error
	var lt []*target.Target
	leave := func() {
		if sel.Source != selection.FromFlag {
			lt, _, leaveErr = plan.LeavingTargets(w.Env, target.Scope(scope), selection.LeftOut(w.Profiles.ForScope(scope), sel.Wanted), sel.Wanted, plan.ReasonDeselected, s.records)
		}
	}
	par.Both(func() { work, err = s.selectedTargets() }, leave)
	if err != nil {
		return work, err
	}
	if leaveErr != nil || sel.Source == selection.FromFlag {
		return work, leaveErr
	}
	if sel.Source == selection.FromConfig {
		work.targets = append(work.targets, lt...)
		return work, nil
	}
	where := "in the workspace"
	if selection.UserScope(scope) {
		where = "on this machine"
	}
	for _, t := range lt {
		work.kept = append(work.kept, Kept{Path: t.Display, Scope: string(t.Scope), Tools: t.Tools,
			Reason: fmt.Sprintf("not detected %s; repo removes entries only for tools that leave an [mcp] tools list ('repo forget --tool %s' removes them)", where, strings.Join(t.Tools, ","))})
	}
	return work, nil
}

// selectedTargets are the targets of the selected tools, with the
// .gitignore block they need, and those that remove what repo wrote where
// a selected tool read its servers before.
func (s *syncing) selectedTargets() (syncWork, error) {
	w, sel, scope := s.w, s.sel, s.opts.Scope
	var work syncWork
	var err error
	readers := selection.LinkedReaders(w, sel.Profiles, scope)
	if w.Env.Gitignore && scope == toolprofiles.ScopeProject {
		plan.AskGit(w.Env, readers) // answered in MarkTracked, below
	}
	work.targets, work.warnings, err = target.Build(w.WS.Servers, readers, target.Scope(scope), w.Env)
	if err != nil {
		return work, err
	}
	if w.Env.Gitignore && scope == toolprofiles.ScopeProject {
		if err := plan.MarkTracked(w.Env, work.targets); err != nil {
			return work, err
		}
	}
	if work.ignore, err = teampolicy.IgnoreBlock(w, w.WS.Servers, sel, work.targets, scope); err != nil {
		return work, err
	}
	// What repo wrote where a selected tool read its servers before (Devin's
	// config.json) goes: the tool reads them from its new file now; so does
	// the drop-in of an extension that has no server for the tool any more.
	former, err := plan.FormerTargets(w.Env, target.Scope(scope), sel.Profiles, work.targets, s.records)
	if err != nil {
		return work, err
	}
	work.targets = append(work.targets, former...)
	return work, nil
}

// warnings are what a run warns about, each once: the selection's notes,
// [mcp] gitignore with detected tools, folder variables repo ignored, what
// the tools cannot express, paths the servers name that are missing, and
// the plan's own. grouped are the same, but with what the tools cannot
// express said once per server and problem, naming the tools
// (translator.Group): one extension synced to many tools would otherwise
// repeat each problem once per tool.
func (s *syncing) warnings(p *plan.Plan) (warnings, grouped []string) {
	w, sel, scope := s.w, s.sel, s.opts.Scope
	warnings = slices.Clone(sel.Notes)
	if w.Env.Gitignore && sel.Source == selection.FromDetected && scope == toolprofiles.ScopeProject {
		warnings = append(warnings, "[mcp] gitignore: the tools are detected from files in the workspace, and a clone lacks the ignored ones, so it may write other tools and another block; list the tools in .repository/config.toml [mcp] tools")
	}
	for _, v := range s.host.IgnoredVars(w.Env, sel.Profiles, scope, nil) {
		warnings = append(warnings, v.Name+": "+v.Message())
	}
	grouped = slices.Clone(warnings)
	for _, tw := range s.work.warnings {
		warnings = appendUnique(warnings, tw.String())
	}
	for _, g := range translator.Group(s.work.warnings) {
		grouped = appendUnique(grouped, g)
	}
	rest := slices.Clone(s.work.leaks)
	if len(sel.Profiles) > 0 {
		for _, srv := range w.WS.Servers {
			if missing := serverpaths.Find(srv, w.Extension(srv.Extension), w.Root, w.Env.Display); len(missing) > 0 {
				rest = appendUnique(rest, serverpaths.Warning(srv, missing))
			}
		}
	}
	for _, pw := range p.Warnings {
		rest = appendUnique(rest, pw)
	}
	for _, r := range rest {
		warnings = appendUnique(warnings, r)
		grouped = appendUnique(grouped, r)
	}
	return warnings, grouped
}
