package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/repo-manager/repo/extensions"
	toolsel "github.com/repo-manager/repo/internal/selection"
	"github.com/repo-manager/repo/internal/serverpaths"
	"github.com/repo-manager/repo/internal/shellquote"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/translator"
	"github.com/repo-manager/repo/writers"
	"github.com/repo-manager/repo/writers/plan"
	"github.com/repo-manager/repo/writers/target"
)

// SyncOptions are the flags of repo sync.
type SyncOptions struct {
	F      *Factory
	Check  bool
	DryRun bool
	Tools  []string
	Scope  string
	Root   string
	Output string
	Adopt  bool
	// AdoptNames (--adopt-name) lets repo take over the user's own entries
	// of these names only, and write a local-scope entry that takes the
	// place of a server of the user's of that name in another scope.
	AdoptNames []string
	Quiet      bool
	Verbose    bool
	// Portable and Gitignore are the team policy's settings for this run
	// (cmd/policy.go), when given (PortableSet, GitignoreSet): false too.
	Portable, PortableSet   bool
	Gitignore, GitignoreSet bool
	// Committed (--committed, with --check or --dry-run) judges what a
	// commit holds only: the per-clone files, which a CI checkout does not
	// have, are left out, and a committed file's entries written at another
	// root are accepted.
	Committed bool
	// Hook (--hook) is what the hooks after a checkout, merge or rewrite
	// run: the per-clone files of the project scope, and the local and
	// user scopes this workspace has entries in (hook.go).
	Hook bool
	// ShowSecrets prints diffs whole: the user's credentials unredacted.
	ShowSecrets bool

	// Ours and Theirs (--ours, --theirs NAME) settle the fields of entry
	// NAME that the user edited by hand and the extension changed since:
	// the user's value, or the extension's.
	Ours, Theirs []string
}

func newSyncCmd(f *Factory, runF func(*SyncOptions) error) *cobra.Command {
	opts := &SyncOptions{F: f}
	cmd := &cobra.Command{
		Use:   "sync",
		Short: "Write the extensions' MCP servers into each tool's config",
		Long: `Bring every selected tool's MCP config up to date with the servers the
workspace's extensions declare. Entries repo did not write are never changed.

Tools: --tool, else [mcp] tools in .repository/config.toml, else the tools
detected. For the project scope a tool is detected by its markers in the
workspace (.cursor/, GEMINI.md, …); for the user and local scopes by what
this machine has (the tool's own folder in your home folder, or its
executable on PATH), which also decides which [mcp] tools are written
there. A user file whose creation changes how its tool works (Continue's
~/.continue/config.yaml, which cn then uses instead of its remote default
configuration) is created only for a tool named with --tool. An empty
--tool (an unset variable) is an error. repo tools shows what was found.

A server reaches a local- or user-scope file (no tool asks before starting
what those hold) only once you trusted its definition on this machine
(repo trust); otherwise nothing is written and the exit code is 3. A
project-scope sync says which servers are new or changed since the last
one, and which tools start them without asking.

The team policy ([mcp] portable and gitignore in .repository/config.toml,
or --portable and --gitignore, each =false to say no): in a git work tree
the default is both, so a clone at any path syncs to a clean git status —
VS Code, Cursor and Roo get ${workspaceFolder} and their files are
committed; every other project file holds this clone's paths, is listed in
a block of .gitignore, and is this clone's own. A settings file git tracks
(.zed/settings.json, .gemini/settings.json) is left as it is, and a
per-clone file git still tracks is left as the repository has it, with the
command that stops tracking it. Outside git the default is neither. -v says
which policy is in force and why.

--check writes nothing and exits 1 unless what this machine's tools read
and what the commit holds is what the workspace declares: every selected
tool's file of the scope, this clone's own per-clone files included (after
a pull that adds a server it exits 1 until repo sync), the ownership
records, the .gitignore block, and no per-clone file that git tracks.
--check --committed judges only what a commit holds — the committed files,
the committed record and the .gitignore block, not the per-clone files a
CI checkout lacks — and accepts a committed entry written at another root.

A managed entry you edited by hand keeps your edits where the extension
did not change the field since repo wrote it (such an entry is in sync for
--check; -v lists the kept edits). A field you and the extension both
changed stops the run (exit 2) until --ours or --theirs names the entry.`,
		Example: `  $ repo sync
  $ repo sync --check              # exit 1 when a config is out of date (pre-commit)
  $ repo sync --check --committed  # only what the commit holds (CI)
  $ repo sync --dry-run            # print a unified diff, write nothing
  $ repo sync --hook               # after a checkout or merge (post-checkout, post-merge hooks)
  $ repo sync --tool claude,vscode --scope project`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := checkScope(opts.Scope); err != nil {
				return err
			}
			if err := checkOutput(opts.Output); err != nil {
				return err
			}
			if err := checkToolFlag(c, opts.Tools); err != nil {
				return err
			}
			opts.PortableSet, opts.GitignoreSet = c.Flags().Changed("portable"), c.Flags().Changed("gitignore")
			if opts.Committed && !opts.Check && !opts.DryRun {
				return usagef("--committed judges what a commit holds: use it with --check or --dry-run")
			}
			if opts.Committed && opts.Scope != toolprofiles.ScopeProject {
				return usagef("--committed --scope %s: only project files are committed; local and user files never are", opts.Scope)
			}
			if opts.Hook {
				for _, name := range []string{"check", "dry-run", "committed", "scope", "adopt", "adopt-name", "output"} {
					if c.Flags().Changed(name) {
						return usagef("--hook and --%s: --hook is what the hooks after a checkout or merge run (every scope in use, text output); run it alone", name)
					}
				}
			}
			if c.Flags().Changed("adopt-name") && (len(splitIDs(opts.AdoptNames)) == 0 || slices.ContainsFunc(opts.AdoptNames, func(n string) bool { return strings.TrimSpace(n) == "" })) {
				return usagef("--adopt-name %q: an empty name (an unset variable?); give the names of the entries to take over", strings.Join(opts.AdoptNames, ","))
			}
			if err := checkMergeFlags(c, opts); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return syncRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.Check, "check", false, "write nothing; exit 1 unless what this machine's tools read and what the commit holds is what the workspace declares, with one line per stale file")
	fl.BoolVar(&opts.Committed, "committed", false, "with --check or --dry-run: judge only what a commit holds (the committed files, the record, the .gitignore block), not this clone's own per-clone files: for CI")
	fl.BoolVar(&opts.Hook, "hook", false, "what the post-checkout, post-merge and post-rewrite hooks run: write this clone's own per-clone files, and the local and user scopes this workspace has entries in once their servers are trusted; never a file git tracks, never exit 3")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "write nothing; print a unified diff of what sync would change")
	addToolFlag(cmd, f, &opts.Tools, "tool id to write (repeatable or comma-separated; see repo tools)")
	addScopeFlag(cmd, &opts.Scope)
	addRootFlag(cmd, &opts.Root)
	addOutputFlag(cmd, &opts.Output)
	fl.BoolVar(&opts.Adopt, "adopt", false, "take over all your own entries that have the name of a managed server (see --adopt-name)")
	fl.Var(&toolsValue{&opts.AdoptNames}, "adopt-name", "take over your own entry of this name only, or let a local-scope server take the place of yours of this name in another scope (repeatable or comma-separated)")
	fl.Var(&toolsValue{&opts.Ours}, "ours", "for entry NAME edited by hand, keep your value of each field the extension changed too (repeatable or comma-separated)")
	fl.Var(&toolsValue{&opts.Theirs}, "theirs", "for entry NAME edited by hand, take the extension's value of each field you changed too; your other edits stay")
	fl.BoolVar(&opts.Portable, "portable", false, "write a tool's workspace variable instead of this clone's root where it has one (also [mcp] portable; the default in git; --portable=false: no)")
	addShowSecretsFlag(cmd, &opts.ShowSecrets)
	fl.BoolVar(&opts.Gitignore, "gitignore", false, "the files that hold this clone's paths are its own, listed in a block of .gitignore (also [mcp] gitignore; the default in git; --gitignore=false: no)")
	addVerbosityFlags(cmd, &opts.Quiet, &opts.Verbose,
		"print only errors and, with --check, the stale files",
		"also print each entry changed, the tool selection, and warnings on runs that change nothing (with --check: the warnings)")
	return cmd
}

// syncRun brings the selected tools' configs up to date, in steps: load
// the workspace and select the tools, work out what each file is to hold,
// plan the changes and (unless checking) write them, then report.
func syncRun(opts *SyncOptions) error {
	if opts.Hook {
		return hookRun(opts)
	}
	f := opts.F
	w, sel, pol, err := loadSync(opts)
	if err != nil {
		return err
	}
	work, err := syncTargets(w, sel, opts)
	if err != nil {
		return err
	}
	// No literal credential of an extension goes into a file git commits.
	var committed func(*writers.Target) bool
	if opts.Scope == toolprofiles.ScopeProject {
		c := newCommits(w, work.targets)
		if work.leaks, err = checkLeaks(c, target.ProjectLeaks(work.targets, w.WS.Servers)); err != nil {
			return err
		}
		committed = func(t *writers.Target) bool {
			ok, _ := c.committed(t) // when git cannot say, the file counts as committed
			return ok
		}
	}
	writing := !opts.Check && !opts.DryRun
	if writing {
		unlock, err := lockWorkspace(f, w)
		if err != nil {
			return err
		}
		defer unlock()
	}
	var gate func(*writers.Plan) error
	if writing && userScope(opts.Scope) {
		gate = func(p *writers.Plan) error { return trustGate(w, p, nil, syncCommand(opts)) }
	}
	plan, written, err := planAndApply(f, w.Env, work.targets, writers.Options{Adopt: opts.Adopt, AdoptNames: splitIDs(opts.AdoptNames), Ours: splitIDs(opts.Ours), Theirs: splitIDs(opts.Theirs), AcceptRelocated: opts.Committed,
		ReadOnly: opts.Check && !opts.DryRun, CommittedOnly: opts.Committed, Ignore: work.ignore, Committed: committed}, writing, gate)
	var untrusted *untrustedError
	if errors.As(err, &untrusted) {
		// Nothing written: the report says what would have been, and which
		// servers stopped it.
		defer untrusted.plan.Close()
		if opts.Output == "json" {
			res := syncReport(w, sel, opts, work, untrusted.plan, nil, pol)
			for i := range res.Files {
				if res.Files[i].Status == statusWritten {
					res.Files[i].Status = statusStale
				}
			}
			res.Untrusted = untrusted.servers
			if err := writeJSON(f, res); err != nil {
				return err
			}
		}
		return err
	}
	if err != nil {
		return err
	}
	defer plan.Close()
	res := syncReport(w, sel, opts, work, plan, written, pol)
	if !writing && userScope(opts.Scope) {
		// --check and --dry-run need no trust and run nothing; they say
		// which servers a sync would stop at.
		u, err := needsTrust(w, plan, nil)
		if err != nil {
			res.Warnings = appendUnique(res.Warnings, err.Error())
			res.grouped = appendUnique(res.grouped, err.Error())
		}
		res.Untrusted = u
	}
	if writing && opts.Scope == toolprofiles.ScopeProject {
		res.Since = sinceLastSync(w, sel, work.targets, &res)
	}
	if opts.Output == "json" {
		if err := writeJSON(f, res); err != nil {
			return err
		}
	} else {
		printText(f, opts, res, plan, sel)
		if !opts.Quiet {
			if len(res.Untrusted) > 0 {
				fmt.Fprintf(f.IO.ErrOut, "%s %s\n", f.paint(f.IO.ErrOut, yellow, "note:"), trustNote(res.Untrusted))
			}
			printSince(f, res.Since)
		}
	}
	if opts.Check && res.Stale {
		return errStale
	}
	return nil
}

// trustGate stops a run before it writes a server the user has not trusted
// outside the workspace (see needsTrust): an *untrustedError holding the
// plan, which the caller closes. trusted: as for needsTrust.
func trustGate(w *workspace, p *writers.Plan, trusted func(string) bool, command string) error {
	u, err := needsTrust(w, p, trusted)
	if err != nil {
		return err
	}
	if len(u) > 0 {
		return &untrustedError{servers: u, plan: p, command: command}
	}
	return nil
}

// syncCommand is the sync that opts describe, to run again.
func syncCommand(opts *SyncOptions) string {
	cmd := "repo sync"
	if len(opts.Tools) > 0 {
		cmd += " --tool " + strings.Join(splitIDs(opts.Tools), ",")
	}
	if opts.Scope != toolprofiles.ScopeProject {
		cmd += " --scope " + opts.Scope
	}
	if opts.Root != "" {
		cmd += " --root " + shellquote.Join([]string{opts.Root})
	}
	return cmd
}

// loadSync loads the workspace, selects the tools the run writes, and
// works out the team policy (policy.go) from the flags, the workspace's
// config and whether it is in git.
func loadSync(opts *SyncOptions) (*workspace, *selection, policy, error) {
	w, err := opts.F.load(opts.Root)
	if err != nil {
		return nil, nil, policy{}, err
	}
	sel, err := selectTools(w, opts.Tools, opts.Scope)
	if err != nil {
		return nil, nil, policy{}, err
	}
	pol, err := loadPolicy(w, flagPointer(opts.PortableSet, opts.Portable), flagPointer(opts.GitignoreSet, opts.Gitignore))
	if err != nil {
		return nil, nil, policy{}, err
	}
	return w, sel, pol, nil
}

// loadPolicy reads the workspace's config and sets the team policy on
// w.Env; the flags are nil when not given.
func loadPolicy(w *workspace, portable, gitignore *bool) (policy, error) {
	cfg, err := extensions.LoadConfig(w.Root)
	if err != nil {
		return policy{}, err
	}
	pol := resolvePolicy(w.Root, cfg, portable, gitignore)
	pol.apply(&w.Env)
	return pol, nil
}

// syncWork is what a sync is to bring about, before anything is read:
// the targets, the ignore block, and the files it leaves alone.
type syncWork struct {
	targets  []*writers.Target
	warnings []translator.Warning // from translating the servers
	leaks    []string             // literal credentials going only into per-clone files
	ignore   *plan.IgnoreBlock
	kept     []keptResult
}

// syncTargets works out what each file is to hold: the servers of the
// selected tools, and what repo wrote for tools that left the selection.
// That is removed when the workspace lists its tools ([mcp] tools), only
// said (-v) when they are detected — a marker that disappears is no
// reason to touch a file — and not looked at for a run that names its
// tools (--tool). A tool the list names that this run leaves out (not on
// this machine: user and local scope go by the machine's evidence) has
// not left: its entries stay, and so do those of a file it shares with one
// that has.
func syncTargets(w *workspace, sel *selection, opts *SyncOptions) (syncWork, error) {
	var work syncWork
	var err error
	work.targets, work.warnings, err = writers.BuildTargets(w.WS.Servers, toolsel.LinkedReaders(w, sel.Profiles, opts.Scope), writers.Scope(opts.Scope), w.Env)
	if err != nil {
		return work, err
	}
	if w.Env.Gitignore && opts.Scope == toolprofiles.ScopeProject {
		if err := plan.MarkTracked(w.Env, work.targets); err != nil {
			return work, err
		}
	}
	if work.ignore, err = ignoreBlock(w, w.WS.Servers, sel, work.targets, opts.Scope); err != nil {
		return work, err
	}
	// What repo wrote where a selected tool read its servers before (Devin's
	// config.json) goes: the tool reads them from its new file now; so does
	// the drop-in of an extension that has no server for the tool any more.
	former, err := plan.FormerTargets(w.Env, target.Scope(opts.Scope), sel.Profiles, work.targets)
	if err != nil {
		return work, err
	}
	work.targets = append(work.targets, former...)
	if sel.Source == "--tool" {
		return work, nil
	}
	lt, _, err := plan.LeavingTargets(w.Env, target.Scope(opts.Scope), toolsel.LeftOut(w.Profiles.ForScope(opts.Scope), sel.Wanted), sel.Wanted, plan.ReasonDeselected)
	if err != nil {
		return work, err
	}
	if sel.Source == "config" {
		work.targets = append(work.targets, lt...)
		return work, nil
	}
	where := "in the workspace"
	if userScope(opts.Scope) {
		where = "on this machine"
	}
	for _, t := range lt {
		work.kept = append(work.kept, keptResult{Path: t.Display, Scope: string(t.Scope), Tools: t.Tools,
			Reason: fmt.Sprintf("not detected %s; repo removes entries only for tools that leave an [mcp] tools list ('repo forget --tool %s' removes them)", where, strings.Join(t.Tools, ","))})
	}
	return work, nil
}

// syncReport is the outcome of a run, as --output json prints it and the
// text output is made from: the selection, the warnings, and each file's
// status and changes (with --dry-run, its diff).
func syncReport(w *workspace, sel *selection, opts *SyncOptions, work syncWork, p *writers.Plan, written []*writers.FilePlan, pol policy) syncResult {
	warnings, grouped := syncWarnings(w, sel, opts, work, p)
	res := syncResult{Version: 1, Root: w.Root, Scope: opts.Scope, ToolSource: sel.Source, Committed: opts.Committed, Policy: &pol,
		Tools: []string{}, Files: []fileResult{}, Warnings: append([]string{}, warnings...), Kept: work.kept, Shadows: p.Shadows,
		grouped: grouped}
	res.KeptEdits = p.KeptEdits
	for _, y := range p.Yours {
		res.Yours = append(res.Yours, yoursResult{Path: y.File, Scope: string(y.Scope), Tools: y.Tools, Entry: y.Entry, Extension: y.Extension, Workspace: y.Workspace})
	}
	for _, p := range sel.Profiles {
		res.Tools = append(res.Tools, p.ID)
	}
	res.Mode = mode(opts)
	writing := !opts.Check && !opts.DryRun
	stale := p.Stale()
	if writing {
		stale = written
	}
	for _, fp := range p.Files {
		status := statusUnchanged
		if fp.Changed() || slices.ContainsFunc(written, func(x *writers.FilePlan) bool { return x.Path == fp.Path }) {
			status = statusStale
			if writing {
				status = statusWritten
			}
		}
		res.Files = append(res.Files, newFileResult(fp, status, diffFor(opts.DryRun && status != statusUnchanged, opts.ShowSecrets)))
	}
	untrack := 0
	for _, tf := range p.Tracked {
		what, fix := trackedNote(tf, w.Profiles, opts.Root)
		res.Tracked = append(res.Tracked, trackedResult{Path: tf.Display, Tools: tf.Tools, Settings: tf.Settings, Message: what, Fix: fix})
		if tf.Settings {
			continue
		}
		// Not what the workspace declares, on this clone or in the
		// commit: stale for --check and --committed alike.
		untrack++
		res.Files = append(res.Files, fileResult{Path: tf.Display, Scope: toolprofiles.ScopeProject, Tools: slices.Clone(tf.Tools), Status: statusStale,
			Changes: []writers.Change{{Action: plan.ActionUntrack, Reason: plan.ReasonTracked}}})
	}
	res.Stale = (len(stale) > 0 || untrack > 0) && (opts.Check || opts.DryRun)
	return res
}

// syncWarnings are what a run warns about, each once: the selection's
// notes, [mcp] gitignore with detected tools, folder variables repo
// ignored, what the tools cannot express, paths the servers name that are
// missing, and the plan's own. grouped are the same, but with what the
// tools cannot express said once per server and problem, naming the tools
// (translator.Group): one extension synced to many tools would otherwise
// repeat each problem once per tool.
func syncWarnings(w *workspace, sel *selection, opts *SyncOptions, work syncWork, plan *writers.Plan) (warnings, grouped []string) {
	warnings = slices.Clone(sel.Notes)
	if w.Env.Gitignore && sel.Source == "detected" && opts.Scope == toolprofiles.ScopeProject {
		warnings = append(warnings, "[mcp] gitignore: the tools are detected from files in the workspace, and a clone lacks the ignored ones, so it may write other tools and another block; list the tools in .repository/config.toml [mcp] tools")
	}
	for _, v := range opts.F.host().IgnoredVars(w.Env, sel.Profiles, opts.Scope, nil) {
		warnings = append(warnings, v.Name+": "+v.Message())
	}
	grouped = slices.Clone(warnings)
	for _, tw := range work.warnings {
		warnings = appendUnique(warnings, tw.String())
	}
	for _, g := range translator.Group(work.warnings) {
		grouped = appendUnique(grouped, g)
	}
	rest := slices.Clone(work.leaks)
	if len(sel.Profiles) > 0 {
		for _, s := range w.WS.Servers {
			if missing := serverpaths.Find(s, w.Extension(s.Extension), w.Root, w.Env.Display); len(missing) > 0 {
				rest = appendUnique(rest, serverpaths.Warning(s, missing))
			}
		}
	}
	for _, pw := range plan.Warnings {
		rest = appendUnique(rest, pw)
	}
	for _, r := range rest {
		warnings = appendUnique(warnings, r)
		grouped = appendUnique(grouped, r)
	}
	return warnings, grouped
}

// planAndApply plans the targets and, when writing, applies the plan. A
// tool may rewrite its file between our read and our rename (Claude Code
// rewrites ~/.claude.json constantly): Apply then restores what it
// replaced, and the whole plan is made again from what is on disk. A file
// that changes while it is read (a tool saving in place) is read again the
// same way. The caller closes the plan. written are the files written, and
// the plan's warnings include Apply's.
//
// gate, when not nil, is asked before a plan is applied; its error ends
// the run with nothing written (an *untrustedError keeps the plan open).
func planAndApply(f *Factory, env writers.Env, targets []*writers.Target, wopts writers.Options, writing bool, gate func(*writers.Plan) error) (*writers.Plan, []*writers.FilePlan, error) {
	var written []*writers.FilePlan
	if writing {
		unlock, err := lockUserFiles(f, env, targets)
		if err != nil {
			return nil, nil, err
		}
		defer unlock()
	}
	for attempt := 1; ; attempt++ {
		plan, err := writers.Build(env, targets, wopts)
		if err == nil {
			if !writing {
				return plan, nil, nil
			}
			if gate != nil {
				if err := gate(plan); err != nil {
					var untrusted *untrustedError
					if !errors.As(err, &untrusted) {
						plan.Close()
					}
					return nil, nil, err
				}
			}
			var applied writers.Applied
			applied, err = f.apply(plan)
			written = append(written, applied.Written...)
			plan.Warnings = append(plan.Warnings, applied.Warnings...)
			if err == nil {
				return plan, written, nil
			}
			plan.Close()
		}
		if !errors.Is(err, writers.ErrChanged) && !errors.Is(err, writers.ErrUnsteady) {
			return nil, nil, syncFailed(f, written, err)
		}
		if attempt == maxAttempts {
			return nil, nil, syncFailed(f, written, fmt.Errorf("%w; gave up after %d attempts: run repo again when the tool is idle", err, attempt))
		}
		time.Sleep(retryWait(attempt)) // let the tool finish its save
	}
}

// ignoreBlock is what repo's block in the workspace's .gitignore is to
// list ([mcp] gitignore): the machine-specific files of the workspace's
// tools for servers — [mcp] tools or the detected ones, whatever --tool
// the run has, so that a run for some tools keeps the others' lines. Nil
// when the run keeps no block: without gitignore, or outside project scope.
func ignoreBlock(w *workspace, servers []extensions.Server, sel *selection, targets []*writers.Target, scope string) (*plan.IgnoreBlock, error) {
	if !w.Env.Gitignore || scope != toolprofiles.ScopeProject {
		return nil, nil
	}
	if sel.Source == "--tool" {
		all, err := selectTools(w, nil, scope)
		if err != nil {
			return nil, err
		}
		if targets, _, err = writers.BuildTargets(servers, all.Profiles, writers.Scope(scope), w.Env); err != nil {
			return nil, err
		}
		if err := plan.MarkTracked(w.Env, targets); err != nil {
			return nil, err
		}
	}
	return &plan.IgnoreBlock{Paths: plan.IgnoredFiles(w.Env, targets)}, nil
}

// syncFailed reports a run that stopped with an error. Apply puts back
// what it replaced before it stops, so nothing was written; a file it
// could not put back (another program changed it since, or putting it
// back failed) is named with a
// "wrote" line, so the report never says less than what happened.
func syncFailed(f *Factory, written []*writers.FilePlan, err error) error {
	for _, fp := range written {
		fr := fileResult{Scope: string(fp.Scope), Tools: fp.Tools, Changes: fp.Changes}
		fmt.Fprintf(f.IO.ErrOut, "%s %s (%s): %s\n", f.paint(f.IO.ErrOut, green, wroteVerb(fr)), termtext.Safe(fp.Display), who(fr), summary(fp.Changes))
	}
	return err
}

// wroteVerb is how a file written is reported: "wrote", or "deleted" for
// a file repo created that held nothing more.
func wroteVerb(fr fileResult) string {
	if slices.ContainsFunc(fr.Changes, func(c writers.Change) bool { return c.Action == plan.ActionDelete }) {
		return "deleted"
	}
	return "wrote"
}

// maxAttempts bounds re-planning when tools keep rewriting their files
// (with retryWait between attempts: about 1.5 s in all). Other repo runs
// never cause it: they wait for the locks of the workspace and of the
// per-user files instead.
const maxAttempts = 6

// lockWorkspace serialises writing runs on one workspace.
func lockWorkspace(f *Factory, w *workspace) (func(), error) {
	path, err := writers.LockPath(w.Env)
	if err != nil {
		return nil, err
	}
	timeout, err := lockTimeout(f)
	if err != nil {
		return nil, err
	}
	return writers.Lock(path, timeout, func() {
		fmt.Fprintf(f.IO.ErrOut, "repo: waiting for another repo sync on this workspace (lock %s)\n", termtext.Safe(w.Env.Display(path)))
	})
}

func mode(opts *SyncOptions) string {
	switch {
	case opts.Check && opts.DryRun:
		return "check+dry-run"
	case opts.Check:
		return "check"
	case opts.DryRun:
		return "dry-run"
	}
	return "sync"
}

func printText(f *Factory, opts *SyncOptions, res syncResult, plan *writers.Plan, sel *selection) {
	errOut := f.IO.ErrOut
	warn := func() {
		// The long form, every tool's warning on its own line (as the JSON
		// output has them), with -v; else each problem once.
		warnings := res.grouped
		if opts.Verbose {
			warnings = res.Warnings
		}
		for _, w := range warnings {
			fmt.Fprintf(errOut, "%s %s\n", f.paint(errOut, yellow, "warning:"), w)
		}
	}
	// Warnings were shown when the files were written; a run that changes
	// nothing (every commit's pre-commit hook) stays quiet unless asked.
	// --check shows them only with -v, after its verdict.
	// A run that selected no tool says why, the tools it left out included.
	if !opts.Quiet && !opts.Check && (len(plan.Stale()) > 0 || opts.Verbose || len(res.Tools) == 0) {
		warn()
	}
	if !opts.Quiet && (!opts.Check || opts.Verbose) {
		printYours(f, opts, res.Yours)
		printTracked(f, res.Tracked)
	}
	if opts.Verbose {
		printKeptEdits(f, res.KeptEdits)
	}
	if len(res.Tools) == 0 {
		if !opts.Quiet {
			fmt.Fprintf(errOut, "repo: %s\n", sel.None())
		}
		if countStatus(res.Files, statusUnchanged) == len(res.Files) {
			if opts.Verbose {
				printSelection(f, res, sel)
			}
			return
		}
		// What the tools that left the list had is still removed.
	}
	if opts.DryRun {
		color := f.colorOn(f.IO.Out)
		for _, fr := range res.Files {
			if color {
				fmt.Fprint(f.IO.Out, colorDiff(fr.Diff))
			} else {
				fmt.Fprint(f.IO.Out, fr.Diff)
			}
		}
	}
	// --check: the stale files and the fix come first, then what -v adds.
	if opts.Check {
		stale := 0
		for _, fr := range res.Files {
			if fr.Status != statusUnchanged {
				stale++
				fmt.Fprintf(errOut, "%s %s (%s): %s\n", f.paint(errOut, yellow, "out of date:"), termtext.Safe(fr.Path), who(fr), reasons(fr.Changes))
				printChanges(f, opts, fr)
			}
		}
		if stale > 0 && !opts.Quiet {
			for _, hint := range fixHints(opts, res) {
				fmt.Fprintln(errOut, hint)
			}
		}
		if opts.Verbose {
			printSelection(f, res, sel)
			for _, fr := range res.Files {
				if fr.Status == statusUnchanged {
					fmt.Fprintf(errOut, "unchanged %s (%s)\n", termtext.Safe(fr.Path), who(fr))
				}
			}
			for _, fp := range plan.Unchecked {
				fmt.Fprintf(errOut, "not checked %s (%s): this clone's own, git-ignored, and no commit holds it (--committed); repo sync keeps it\n", termtext.Safe(fp.Display), who(fileResult{Scope: string(fp.Scope), Tools: fp.Tools}))
			}
			warn()
		}
		return
	}
	if opts.Verbose {
		printSelection(f, res, sel)
	}
	for _, fr := range res.Files {
		if fr.Status == statusUnchanged {
			if opts.Verbose {
				fmt.Fprintf(errOut, "unchanged %s (%s)\n", termtext.Safe(fr.Path), who(fr))
			}
			continue
		}
		if fr.Status == statusWritten && !opts.Quiet {
			fmt.Fprintf(errOut, "%s %s (%s): %s\n", f.paint(errOut, green, wroteVerb(fr)), termtext.Safe(fr.Path), who(fr), summary(fr.Changes))
		}
		printChanges(f, opts, fr)
	}
	if !opts.Check && !opts.DryRun && !opts.Quiet && countStatus(res.Files, statusWritten) == 0 {
		fmt.Fprintf(errOut, "up to date: %d file(s), %s scope, tools: %s\n", countStatus(res.Files, statusWritten)+countStatus(res.Files, statusUnchanged), res.Scope, strings.Join(res.Tools, ", "))
	}
}

// printYours names each entry of the user's that already is what a
// server declares, which repo leaves to the user: one line each, on every
// run that prints more than errors (--check: with -v), so that nobody
// takes it for repo's.
func printYours(f *Factory, opts *SyncOptions, yours []yoursResult) {
	for _, y := range yours {
		fix := "repo sync --adopt-name " + shellquote.Join([]string{y.Entry})
		if opts.Scope != toolprofiles.ScopeProject {
			fix += " --scope " + opts.Scope
		}
		if y.Workspace != "" {
			fmt.Fprintf(f.IO.ErrOut, "held %s (%s: %s): entry %q already is what extension %s declares, and repo wrote it for the workspace %s, which keeps it: an entry of a file every workspace shares has one owner ('%s' moves it here)\n",
				termtext.Safe(y.Path), y.Scope, strings.Join(y.Tools, ", "), termtext.Safe(y.Entry), termtext.Safe(y.Extension), termtext.Safe(y.Workspace), termtext.Safe(fix))
			continue
		}
		fmt.Fprintf(f.IO.ErrOut, "yours %s (%s: %s): entry %q already is what extension %s declares; repo leaves it to you: it is not in repo's record, so repo never rewrites or removes it ('%s' lets repo manage it)\n",
			termtext.Safe(y.Path), y.Scope, strings.Join(y.Tools, ", "), termtext.Safe(y.Entry), termtext.Safe(y.Extension), termtext.Safe(fix))
	}
}

// printTracked says, for each machine-specific project file git tracks
// (plan.Tracked), what repo left as it is and what the user can do: a
// warning for one to untrack, a note for a settings file. Every run that
// prints more than errors says it (--check: with -v), as for printYours.
func printTracked(f *Factory, tracked []trackedResult) {
	for _, t := range tracked {
		label := f.paint(f.IO.ErrOut, yellow, "warning:")
		if t.Settings {
			label = f.paint(f.IO.ErrOut, cyan, "note:")
		}
		fmt.Fprintf(f.IO.ErrOut, "%s %s (project: %s): %s; %s\n", label, termtext.Safe(t.Path), strings.Join(t.Tools, ", "), t.Message, t.Fix)
	}
}

// printSelection says, with -v, which tools the run writes and why (see
// selection.describe), the team policy in force, and what it keeps of
// tools no longer selected.
func printSelection(f *Factory, res syncResult, sel *selection) {
	fmt.Fprintln(f.IO.ErrOut, sel.Describe())
	if res.Policy != nil && res.Scope == toolprofiles.ScopeProject {
		fmt.Fprintln(f.IO.ErrOut, res.Policy.describe(sel.Profiles))
	}
	switch res.ToolSource {
	case "config":
		fmt.Fprintf(f.IO.ErrOut, "repo's entries for tools not listed in [mcp] tools are removed\n")
	case "detected":
		for _, k := range res.Kept {
			fmt.Fprintf(f.IO.ErrOut, "kept %s (%s: %s): %s\n", termtext.Safe(k.Path), k.Scope, strings.Join(k.Tools, ", "), k.Reason)
		}
	}
}

// printChanges lists a file's changes, one per line, with -v.
func printChanges(f *Factory, opts *SyncOptions, fr fileResult) {
	if !opts.Verbose {
		return
	}
	for _, c := range fr.Changes {
		if c.Entry == "" {
			fmt.Fprintf(f.IO.ErrOut, "  %s: %s\n", c.Action, c.Reason)
			continue
		}
		fmt.Fprintf(f.IO.ErrOut, "  %s %s: %s\n", c.Action, termtext.Safe(c.Entry), c.Reason)
	}
}

// fixHints are the closing lines of a --check that found stale files:
// the command that stops git tracking the per-clone files it tracks; the
// sync that fixes the rest, with the selection of this run, and for a
// committed file (which teams commit) the reminder to commit — or, when
// only this clone's own per-clone files are stale, that there is nothing
// to commit, and the check that CI runs instead.
func fixHints(opts *SyncOptions, res syncResult) []string {
	var hints, untrack []string
	committed, perClone := false, false
	for _, fr := range res.Files {
		switch {
		case fr.Status == statusUnchanged:
		case slices.ContainsFunc(fr.Changes, func(c writers.Change) bool { return c.Action == plan.ActionUntrack }):
			untrack = append(untrack, fr.Path)
		case fr.PerClone:
			perClone = true
		default:
			committed = true
		}
	}
	if len(untrack) > 0 {
		hints = append(hints, fmt.Sprintf("run '%s' and commit: the team policy makes each clone write its own (repo sync says more)", termtext.Safe(untrackCommand(opts.Root, untrack...))))
	}
	cmd := syncCommand(opts)
	cmd += boolFlag("portable", opts.PortableSet, opts.Portable) + boolFlag("gitignore", opts.GitignoreSet, opts.Gitignore)
	switch {
	case committed && opts.Scope == toolprofiles.ScopeProject:
		hints = append(hints, fmt.Sprintf("run '%s' and commit the result", cmd))
	case committed:
		hints = append(hints, fmt.Sprintf("run '%s' to update them", cmd))
	case perClone:
		hints = append(hints, fmt.Sprintf("run '%s': the stale files are this clone's own, git-ignored, with nothing to commit (CI, which has none, runs 'repo sync --check --committed')", cmd))
	}
	return hints
}

// boolFlag is a bool flag the run was given, to repeat it: " --name",
// " --name=false", or "" when not given.
func boolFlag(name string, given, v bool) string {
	switch {
	case !given:
		return ""
	case v:
		return " --" + name
	}
	return " --" + name + "=false"
}

func who(fr fileResult) string {
	switch fr.Scope {
	case string(plan.ScopeRecord):
		return "ownership record"
	case string(plan.ScopeGitignore):
		return "ignore block"
	case scopeTrust:
		return "repo's state"
	}
	return fr.Scope + ": " + strings.Join(fr.Tools, ", ")
}

func reasons(changes []writers.Change) string {
	var out []string
	for _, c := range changes {
		if c.Entry == "" {
			out = appendUnique(out, string(c.Reason))
			continue
		}
		out = append(out, fmt.Sprintf("%s %q", c.Reason, c.Entry))
	}
	if len(out) == 0 {
		return "formatting"
	}
	return strings.Join(out, ", ")
}

func summary(changes []writers.Change) string {
	counts := map[plan.Action]int{}
	for _, c := range changes {
		counts[c.Action]++
	}
	var parts []string
	for _, a := range []plan.Action{plan.ActionAdd, plan.ActionUpdate, plan.ActionAdopt, plan.ActionRemove, plan.ActionForget} {
		if n := counts[a]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", a, n))
		}
	}
	if len(changes) == 1 && changes[0].Entry == "" && changes[0].Action == plan.ActionDelete {
		return string(changes[0].Reason) // a record or store of repo's that goes, and why
	}
	if len(parts) == 0 || (len(changes) == 1 && changes[0].Entry == "") {
		return "updated"
	}
	return strings.Join(parts, ", ")
}

// diffKind is whether a file's result carries its diff (--dry-run), and
// whether its secrets are shown (--show-secrets).
type diffKind int

const (
	noDiff       diffKind = iota
	diffRedacted          // writers.Diff: the user's credentials redacted
	diffRaw               // writers.RawDiff
)

// diffFor is the diff a file's result carries: none unless want, else
// redacted unless the user asked to see secrets.
func diffFor(want, showSecrets bool) diffKind {
	switch {
	case !want:
		return noDiff
	case showSecrets:
		return diffRaw
	}
	return diffRedacted
}

// newFileResult is fp as the commands report it, with its diff as kind
// says.
func newFileResult(fp *writers.FilePlan, status fileStatus, kind diffKind) fileResult {
	fr := fileResult{Path: fp.Display, Scope: string(fp.Scope), Tools: slices.Clone(fp.Tools), Changes: fp.Changes, Status: status, PerClone: fp.PerClone}
	if fr.Tools == nil {
		fr.Tools = []string{}
	}
	if fr.Changes == nil {
		fr.Changes = []writers.Change{}
	}
	// A diff shows files the workspace may have written (a committed
	// config, a comment in it): what is not printable is escaped, in the
	// text and the JSON alike (the action prints the JSON's).
	switch kind {
	case diffRedacted:
		fr.Diff = termtext.Lines(writers.Diff(fp))
	case diffRaw:
		fr.Diff = termtext.Lines(writers.RawDiff(fp))
	}
	return fr
}

// writeJSON prints a command's --output json document: indented, with
// <, > and & as they are (paths and commands are shown, not embedded in
// HTML).
func writeJSON(f *Factory, doc any) error {
	enc := json.NewEncoder(f.IO.Out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// fileStatus is what a run did to a file, or (--check, --dry-run) would do.
type fileStatus string

const (
	statusUnchanged fileStatus = "unchanged"
	statusStale     fileStatus = "stale" // would change
	statusWritten   fileStatus = "written"
)

func countStatus(files []fileResult, status fileStatus) int {
	n := 0
	for _, f := range files {
		if f.Status == status {
			n++
		}
	}
	return n
}

func appendUnique(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// syncResult is the --output json document of repo sync (schema version 1).
type syncResult struct {
	Version    int      `json:"version"`
	Mode       string   `json:"mode"`
	Root       string   `json:"root"`
	Scope      string   `json:"scope"`
	Tools      []string `json:"tools"`
	ToolSource string   `json:"tool_source"`
	// Committed: --committed, the run judged what a commit holds only.
	Committed bool         `json:"committed,omitempty"`
	Stale     bool         `json:"stale"`
	Files     []fileResult `json:"files"`
	Warnings  []string     `json:"warnings"`
	// grouped are the warnings as text output says them without -v.
	grouped []string
	// Kept are the files where repo's entries for tools no longer
	// detected stay (only when the tools are detected, not listed).
	Kept []keptResult `json:"kept,omitempty"`
	// Yours are the user's own entries that already are what a server
	// declares: repo leaves them to the user (plan.Yours).
	Yours []yoursResult `json:"yours,omitempty"`
	// Shadows are the servers repo writes under the name of one of the
	// user's in another scope of the same tool (plan.Shadow).
	Shadows []plan.Shadow `json:"shadows,omitempty"`
	// KeptEdits are the managed entries whose hand edits the run keeps
	// (plan.KeptEdit).
	KeptEdits []plan.KeptEdit `json:"kept_edits,omitempty"`
	// Untrusted are the servers the user has not trusted that the run
	// would write outside the workspace: the reason a sync wrote nothing
	// (exit 3), or, with --check and --dry-run, would.
	Untrusted []untrustedServer `json:"untrusted,omitempty"`
	// Since are the servers new or changed since the last sync in this
	// workspace (a writing project-scope sync), and how the tools that
	// were written start them.
	Since []sinceServer `json:"since_last_sync,omitempty"`
	// Policy is the team policy in force, and where each setting came
	// from (policy.go).
	Policy *policy `json:"policy,omitempty"`
	// Tracked are the machine-specific project files git tracks, which a
	// per-clone policy leaves as the repository has them (plan.Tracked);
	// each one to untrack is also a stale file.
	Tracked []trackedResult `json:"tracked,omitempty"`
}

// trackedResult is a machine-specific project file that git tracks.
type trackedResult struct {
	Path  string   `json:"path"`
	Tools []string `json:"tools"`
	// Settings: a settings file, which stays committed (repo writes no
	// servers into it); otherwise a file to untrack.
	Settings bool   `json:"settings"`
	Message  string `json:"message"`
	Fix      string `json:"fix"`
}

// yoursResult is an entry of the user's own that repo leaves as it is,
// though a server of the workspace declares exactly it.
type yoursResult struct {
	Path      string   `json:"path"`
	Scope     string   `json:"scope"`
	Tools     []string `json:"tools"`
	Entry     string   `json:"entry"`
	Extension string   `json:"extension"`
	// Workspace: the entry is another workspace's (plan.Yours.Workspace).
	Workspace string `json:"workspace,omitempty"`
}

// keptResult is a file and key whose entries a run leaves in place
// although their tools are not selected.
type keptResult struct {
	Path   string   `json:"path"`
	Scope  string   `json:"scope"`
	Tools  []string `json:"tools"`
	Reason string   `json:"reason"`
}

type fileResult struct {
	Path   string     `json:"path"`
	Scope  string     `json:"scope"`
	Tools  []string   `json:"tools"`
	Status fileStatus `json:"status"`
	// PerClone: this clone's own, git-ignored under the team policy
	// (plan.FilePlan.PerClone): no commit holds it.
	PerClone bool             `json:"per_clone,omitempty"`
	Changes  []writers.Change `json:"changes"`
	Diff     string           `json:"diff,omitempty"`
}
