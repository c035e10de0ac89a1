package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/shellquote"
	"github.com/repo-manager/repo/internal/teampolicy"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers"
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
			if err := checkSyncFlags(c, opts); err != nil {
				return err
			}
			// Given, not just true: --portable=false overrides [mcp] portable too.
			opts.PortableSet, opts.GitignoreSet = c.Flags().Changed("portable"), c.Flags().Changed("gitignore")
			if runF != nil {
				return runF(opts)
			}
			return syncRun(opts)
		},
	}
	addSyncFlags(cmd, f, opts)
	return cmd
}

// checkSyncFlags rejects, before anything is read, the flag values and
// combinations repo sync cannot honour, each with what to do instead.
func checkSyncFlags(c *cobra.Command, opts *SyncOptions) error {
	if err := checkScope(opts.Scope); err != nil {
		return err
	}
	if err := checkOutput(opts.Output); err != nil {
		return err
	}
	if err := checkToolFlag(c, opts.Tools); err != nil {
		return err
	}
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
	return checkMergeFlags(c, opts)
}

// addSyncFlags defines repo sync's flags, in the order --help has always
// listed them.
func addSyncFlags(cmd *cobra.Command, f *Factory, opts *SyncOptions) {
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
}

// syncRun runs repo sync through the door every host uses
// (writers.Run): the policy is the library's; the command line turns the
// flags into its options and prints its report.
func syncRun(opts *SyncOptions) error {
	if opts.Hook {
		return hookRun(opts)
	}
	f := opts.F
	wo := opts.door()
	ctx, err := f.runContext(&wo, !opts.Check && !opts.DryRun)
	if err != nil {
		return err
	}
	rep, err := writers.Run(ctx, wo)
	var untrusted *writers.UntrustedError
	if errors.As(err, &untrusted) {
		// Nothing written: the report says what would have been, and which
		// servers stopped it.
		if opts.Output == "json" {
			if err := writeJSON(f, rep); err != nil {
				return err
			}
		}
		return newUntrustedError(untrusted.Servers, syncCommand(opts))
	}
	if err != nil {
		return runFailed(f, err)
	}
	if opts.Output == "json" {
		if err := writeJSON(f, rep); err != nil {
			return err
		}
	} else {
		printText(f, opts, rep)
		if !opts.Quiet {
			if len(rep.Untrusted) > 0 {
				fmt.Fprintf(f.IO.ErrOut, "%s %s\n", f.paint(f.IO.ErrOut, yellow, "note:"), trustNote(rep.Untrusted))
			}
			printSince(f, rep.Since)
		}
	}
	if opts.Check && rep.Stale {
		return errStale
	}
	return nil
}

// door is the run the flags ask for, as writers.Run takes it.
func (opts *SyncOptions) door() writers.Options {
	mode := writers.Sync
	if opts.Check {
		mode = writers.Check
	}
	return writers.Options{Root: opts.Root, Mode: mode, DryRun: opts.DryRun, ShowSecrets: opts.ShowSecrets, Scope: opts.Scope,
		Tools: splitIDs(opts.Tools), Adopt: opts.Adopt, AdoptNames: splitIDs(opts.AdoptNames), Ours: splitIDs(opts.Ours), Theirs: splitIDs(opts.Theirs),
		Portable: flagPointer(opts.PortableSet, opts.Portable), Gitignore: flagPointer(opts.GitignoreSet, opts.Gitignore),
		Committed: opts.Committed, Hook: opts.Hook}
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

// policy is the team policy of a run (package teampolicy).
type policy = teampolicy.Policy

// loadPolicy reads the workspace's config and sets the team policy on
// w.Env; the flags are nil when not given.
func loadPolicy(w *workspace, portable, gitignore *bool) (policy, error) {
	return teampolicy.Load(w, portable, gitignore)
}

// flagPointer is the value of a bool flag the user gave, nil when not.
func flagPointer(given bool, v bool) *bool {
	if !given {
		return nil
	}
	return &v
}

// runFailed reports a run that stopped with an error. A run puts back
// what it replaced before it stops, so nothing was written; a file it
// could not put back (another program changed it since, or putting it
// back failed) is named with a "wrote" line, so the report never says
// less than what happened. A run a signal stopped ends as Main says
// (interrupt.go).
func runFailed(f *Factory, err error) error {
	var pe *writers.PartialError
	if errors.As(err, &pe) {
		for _, fr := range pe.Written {
			fmt.Fprintf(f.IO.ErrOut, "%s %s (%s): %s\n", f.paint(f.IO.ErrOut, green, wroteVerb(fr)), termtext.Safe(fr.Path), who(fr), summary(fr.Changes))
		}
		err = pe.Err
	}
	return f.interrupts.stopped(err)
}

// wroteVerb is how a file written is reported: "wrote", or "deleted" for
// a file repo created that held nothing more.
func wroteVerb(fr fileResult) string {
	if slices.ContainsFunc(fr.Changes, func(c writers.Change) bool { return c.Action == string(plan.ActionDelete) }) {
		return "deleted"
	}
	return "wrote"
}

// lockWorkspace serialises writing runs on one workspace (the commands
// that write outside writers.Run: repo trust, repo mcp import).
func lockWorkspace(f *Factory, w *workspace) (func(), error) {
	f.catchSignals()
	timeout, err := lockTimeout(f)
	if err != nil {
		return nil, err
	}
	return f.locking(timeout).Workspace(w.Env)
}

func printText(f *Factory, opts *SyncOptions, res *writers.Report) {
	errOut := f.IO.ErrOut
	// Warnings were shown when the files were written; a run that changes
	// nothing (every commit's pre-commit hook) stays quiet unless asked.
	// --check shows them only with -v, after its verdict.
	// A run that selected no tool says why, the tools it left out included.
	if !opts.Quiet && !opts.Check && (changed(res) || opts.Verbose || len(res.Tools) == 0) {
		printWarnings(f, opts, res)
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
			fmt.Fprintf(errOut, "repo: %s\n", res.Text.NoTools)
		}
		if countStatus(res.Files, statusUnchanged) == len(res.Files) {
			if opts.Verbose {
				printSelection(f, res)
			}
			return
		}
		// What the tools that left the list had is still removed.
	}
	if opts.DryRun {
		printDiffs(f, res)
	}
	if opts.Check {
		printCheck(f, opts, res)
		return
	}
	if opts.Verbose {
		printSelection(f, res)
	}
	printFiles(f, opts, res)
}

// printWarnings prints the run's warnings: the long form, every tool's
// warning on its own line (as the JSON output has them), with -v; else
// each problem once.
func printWarnings(f *Factory, opts *SyncOptions, res *writers.Report) {
	warnings := res.Text.Grouped
	if opts.Verbose {
		warnings = res.Warnings
	}
	for _, w := range warnings {
		fmt.Fprintf(f.IO.ErrOut, "%s %s\n", f.paint(f.IO.ErrOut, yellow, "warning:"), w)
	}
}

// printDiffs prints --dry-run's unified diff of each file, coloured on a
// terminal.
func printDiffs(f *Factory, res *writers.Report) {
	color := f.colorOn(f.IO.Out)
	for _, fr := range res.Files {
		if color {
			fmt.Fprint(f.IO.Out, colorDiff(fr.Diff))
		} else {
			fmt.Fprint(f.IO.Out, fr.Diff)
		}
	}
}

// printCheck prints --check's verdict: the stale files and the fix come
// first, then what -v adds.
func printCheck(f *Factory, opts *SyncOptions, res *writers.Report) {
	errOut := f.IO.ErrOut
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
		printSelection(f, res)
		for _, fr := range res.Files {
			if fr.Status == statusUnchanged {
				fmt.Fprintf(errOut, "unchanged %s (%s)\n", termtext.Safe(fr.Path), who(fr))
			}
		}
		for _, fr := range res.Unchecked {
			fmt.Fprintf(errOut, "not checked %s (%s): this clone's own, git-ignored, and no commit holds it (--committed); repo sync keeps it\n", termtext.Safe(fr.Path), who(fr))
		}
		printWarnings(f, opts, res)
	}
}

// printFiles prints, for a run that is not --check, each file written
// and its changes, or that everything was up to date.
func printFiles(f *Factory, opts *SyncOptions, res *writers.Report) {
	errOut := f.IO.ErrOut
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
func printYours(f *Factory, opts *SyncOptions, yours []writers.Yours) {
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
func printTracked(f *Factory, tracked []writers.Tracked) {
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
func printSelection(f *Factory, res *writers.Report) {
	fmt.Fprintln(f.IO.ErrOut, res.Text.Selection)
	if res.Policy != nil && res.Scope == toolprofiles.ScopeProject {
		fmt.Fprintln(f.IO.ErrOut, res.Text.Policy)
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
func fixHints(opts *SyncOptions, res *writers.Report) []string {
	var hints, untrack []string
	committed, perClone := false, false
	for _, fr := range res.Files {
		switch {
		case fr.Status == statusUnchanged:
		case slices.ContainsFunc(fr.Changes, func(c writers.Change) bool { return c.Action == string(plan.ActionUntrack) }):
			untrack = append(untrack, fr.Path)
		case fr.PerClone:
			perClone = true
		default:
			committed = true
		}
	}
	if len(untrack) > 0 {
		hints = append(hints, fmt.Sprintf("run '%s' and commit: the team policy makes each clone write its own (repo sync says more)", termtext.Safe(teampolicy.UntrackCommand(opts.Root, untrack...))))
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
	case scopeState:
		return "repo's state"
	}
	return fr.Scope + ": " + strings.Join(fr.Tools, ", ")
}

func reasons(changes []writers.Change) string {
	var out []string
	for _, c := range changes {
		if c.Entry == "" {
			out = appendUnique(out, c.Reason)
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
	counts := map[string]int{}
	for _, c := range changes {
		counts[c.Action]++
	}
	var parts []string
	for _, a := range []plan.Action{plan.ActionAdd, plan.ActionUpdate, plan.ActionAdopt, plan.ActionRemove, plan.ActionForget} {
		if n := counts[string(a)]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", a, n))
		}
	}
	if len(changes) == 1 && changes[0].Entry == "" && changes[0].Action == string(plan.ActionDelete) {
		return changes[0].Reason // a record or store of repo's that goes, and why
	}
	if len(parts) == 0 || (len(changes) == 1 && changes[0].Entry == "") {
		return "updated"
	}
	return strings.Join(parts, ", ")
}

// newFileResult is fp as repo mcp import reports it (a sync's report
// makes its own, writers.Report); with diff, its diff (plan.DiffText).
func newFileResult(fp *plan.FilePlan, status string, diff, showSecrets bool) fileResult {
	fr := fileResult{Path: fp.Display, Scope: string(fp.Scope), Tools: slices.Clone(fp.Tools), Changes: []writers.Change{}, Status: status, PerClone: fp.PerClone}
	if fr.Tools == nil {
		fr.Tools = []string{}
	}
	for _, c := range fp.Changes {
		fr.Changes = append(fr.Changes, writers.Change{Action: string(c.Action), Entry: c.Entry, Reason: string(c.Reason)})
	}
	if diff {
		fr.Diff = plan.DiffText(fp, showSecrets)
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

// What a run did to a file, or (--check, --dry-run) would do.
const (
	statusUnchanged = "unchanged"
	statusStale     = "stale" // would change
	statusWritten   = "written"
)

func countStatus(files []fileResult, status string) int {
	n := 0
	for _, f := range files {
		if f.Status == status {
			n++
		}
	}
	return n
}

// changed reports whether the run changes a file (or would): a file git
// tracks that is to be untracked is not one the run changes.
func changed(res *writers.Report) bool {
	return slices.ContainsFunc(res.Files, func(fr fileResult) bool {
		return fr.Status != statusUnchanged && !slices.ContainsFunc(fr.Changes, func(c writers.Change) bool { return c.Action == string(plan.ActionUntrack) })
	})
}

func appendUnique(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// fileResult is one file of a command's report.
type fileResult = writers.File

// scopeState is the scope of what repo keeps of a workspace in the state
// folder besides its record (its trust store, what repo last wrote), as a
// report says it deleted.
const scopeState = "state"
