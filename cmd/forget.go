package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/repo-manager/repo/extensions"
	toolsel "github.com/repo-manager/repo/internal/selection"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers"
	"github.com/repo-manager/repo/writers/plan"
	"github.com/repo-manager/repo/writers/target"
)

// ForgetOptions are the flags of repo forget.
type ForgetOptions struct {
	F      *Factory
	Tools  []string
	All    bool
	Scope  string // "" for every scope
	Root   string
	DryRun bool
	// ShowSecrets prints diffs whole: the user's credentials unredacted.
	ShowSecrets bool
	Output      string
	Quiet       bool
	Verbose     bool
	// Workspace (--workspace ROOT) forgets what repo wrote for a workspace
	// that is gone: the local- and user-scope entries its record holds,
	// the record, and its trust store.
	Workspace string
}

func newForgetCmd(f *Factory, runF func(*ForgetOptions) error) *cobra.Command {
	opts := &ForgetOptions{F: f}
	cmd := &cobra.Command{
		Use:   "forget",
		Short: "Remove the entries repo wrote for tools you no longer use",
		Long: `Remove the MCP entries repo wrote for the given tools, in every scope the
ownership records know (or --scope), and forget them in the records. Your own
entries stay. A file or container repo created is removed once nothing else
is in it; a file repo did not create is never deleted.

A file that another tool listed in [mcp] tools (or detected) also writes
(Claude Code and Copilot CLI share .mcp.json) keeps its entries, also when
this machine lacks that tool: forget both tools to remove them.

A tool still listed in [mcp] tools, or detected in the workspace, is written
again by the next repo sync.

--workspace ROOT is for a workspace that is gone (deleted, or moved before
repo could recognise it): repo removes the local- and user-scope entries
its record holds (those edited by hand, or that another workspace holds,
stay), deletes the record, and deletes the workspace's trust store. It
runs from anywhere; a folder that still holds a workspace is refused (run
repo forget --all there).`,
		Example: `  $ repo forget --tool amazonq
  $ repo forget --tool cursor,windsurf --dry-run    # the diff, nothing written
  $ repo forget --tool claude --scope local
  $ repo forget --all                               # every tool, every scope
  $ repo forget --workspace ~/old/checkout          # a workspace that is gone`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if opts.Scope != "" {
				if err := checkScope(opts.Scope); err != nil {
					return err
				}
			}
			if err := checkOutput(opts.Output); err != nil {
				return err
			}
			if opts.Workspace != "" {
				if opts.All || len(opts.Tools) > 0 || opts.Root != "" {
					return usagef("--workspace forgets every tool of a workspace that is gone: leave out --tool, --all and --root")
				}
				if opts.Scope == "project" {
					return usagef("--workspace forgets local- and user-scope entries; the project files went with the workspace")
				}
				if runF != nil {
					return runF(opts)
				}
				return forgetWorkspaceRun(opts)
			}
			if !opts.All && len(splitIDs(opts.Tools)) == 0 {
				return usagef("name the tools to forget with --tool ID (see repo tools), or pass --all")
			}
			if runF != nil {
				return runF(opts)
			}
			return forgetRun(opts)
		},
	}
	fl := cmd.Flags()
	addToolFlag(cmd, f, &opts.Tools, "tool id whose entries to remove (repeatable or comma-separated; see repo tools)")
	fl.BoolVar(&opts.All, "all", false, "every tool")
	cmd.MarkFlagsMutuallyExclusive("tool", "all")
	fl.StringVar(&opts.Scope, "scope", "", "only this scope: project, local or user (default: every scope)")
	_ = cmd.RegisterFlagCompletionFunc("scope", fixedValues(toolprofiles.Scopes,
		"files in the workspace", "per-project entries in your home folder (Claude Code)", "your own config, every project"))
	fl.BoolVar(&opts.DryRun, "dry-run", false, "write nothing; print a unified diff of what forget would change")
	addShowSecretsFlag(cmd, &opts.ShowSecrets)
	fl.StringVar(&opts.Workspace, "workspace", "", "forget a workspace that is gone: the entries its record holds, the record and its trust store")
	addRootFlag(cmd, &opts.Root)
	addOutputFlag(cmd, &opts.Output)
	addVerbosityFlags(cmd, &opts.Quiet, &opts.Verbose,
		"print only errors",
		"also print each entry removed")
	return cmd
}

func forgetRun(opts *ForgetOptions) error {
	f := opts.F
	w, err := f.load(opts.Root)
	if err != nil {
		return err
	}
	// As sync has them: a machine-specific project file's entries are in
	// the clone's own record under a per-clone policy (LeavingTargets finds
	// them in either record; this keeps Build to the one sync uses).
	if _, err := loadPolicy(w, nil, nil); err != nil {
		return err
	}
	var forgotten []*toolprofiles.Profile // as the project scope has them; each scope looks its own up (forgottenIn)
	if opts.All {
		for _, p := range w.Profiles.All() {
			if p.MCP {
				forgotten = append(forgotten, p)
			}
		}
	} else {
		for _, id := range splitIDs(opts.Tools) {
			p, err := toolsel.Lookup(w.Profiles, id, "--tool")
			if err != nil {
				return err
			}
			forgotten = append(forgotten, p)
		}
	}
	scopes := toolprofiles.Scopes
	if opts.Scope != "" {
		scopes = []string{opts.Scope}
	}
	res := forgetResult{Version: 1, Mode: "forget", Root: w.Root, Tools: []string{}, Scopes: scopes,
		Files: []fileResult{}, Kept: []forgetKept{}, Warnings: []string{}}
	if opts.DryRun {
		res.Mode = "dry-run"
	}
	for _, p := range forgotten {
		res.Tools = append(res.Tools, p.ID)
	}
	var targets []*writers.Target
	for _, scope := range scopes {
		// The tools the workspace still asks for keep what they share with
		// the forgotten ones (--all forgets them all), those this machine
		// lacks included, as sync keeps them.
		var staying []*toolprofiles.Profile
		if !opts.All {
			sel, err := selectTools(w, nil, scope)
			if err != nil {
				return err
			}
			for _, p := range sel.Wanted {
				if !slices.ContainsFunc(forgotten, func(f *toolprofiles.Profile) bool { return f.ID == p.ID }) {
					staying = append(staying, p)
				}
			}
		}
		lt, kept, err := plan.LeavingTargets(w.Env, target.Scope(scope), forgottenIn(w.Profiles.ForScope(scope), forgotten, opts.All), staying, plan.ReasonForgotten)
		if err != nil {
			return err
		}
		targets = append(targets, lt...)
		for _, k := range kept {
			res.Kept = append(res.Kept, forgetKept{Path: k.Display, Scope: string(k.Scope), Tools: k.Tools, By: k.By})
		}
	}
	res.Warnings = append(res.Warnings, againWarnings(w, forgotten, opts.All)...)
	if !opts.DryRun && len(targets) > 0 {
		unlock, err := lockWorkspace(f, w)
		if err != nil {
			return err
		}
		defer unlock()
	}
	plan, written, err := planAndApply(f, w.Env, targets, writers.Options{}, !opts.DryRun, nil)
	if err != nil {
		return err
	}
	defer plan.Close()
	for _, pw := range plan.Warnings {
		res.Warnings = appendUnique(res.Warnings, pw)
	}
	for _, fp := range plan.Files {
		if !fp.Changed() && !slices.ContainsFunc(written, func(x *writers.FilePlan) bool { return x.Path == fp.Path }) {
			continue
		}
		if opts.DryRun {
			res.Files = append(res.Files, newFileResult(fp, statusStale, diffFor(true, opts.ShowSecrets)))
		} else {
			res.Files = append(res.Files, newFileResult(fp, statusWritten, noDiff))
		}
	}
	if opts.Output == "json" {
		return writeJSON(f, res)
	}
	printForget(f, opts, res)
	return nil
}

// forgottenIn are the forgotten tools as the profiles of one scope have
// them (a workspace's profile applies to the project scope only; the local
// and user scopes use the built-in or the user's own of its id, or none).
func forgottenIn(set *toolprofiles.Set, forgotten []*toolprofiles.Profile, all bool) []*toolprofiles.Profile {
	if all {
		var out []*toolprofiles.Profile
		for _, p := range set.All() {
			if p.MCP {
				out = append(out, p)
			}
		}
		return out
	}
	var out []*toolprofiles.Profile
	for _, f := range forgotten {
		if p := set.Get(f.ID); p != nil {
			out = append(out, p)
		}
	}
	return out
}

// againWarnings are the forgotten tools the next repo sync writes again:
// those listed in [mcp] tools, or, without a list, detected.
func againWarnings(w *workspace, forgotten []*toolprofiles.Profile, all bool) []string {
	cfg, err := extensions.LoadConfig(w.Root)
	if err != nil {
		return nil // selectTools has read it already: not reached
	}
	var out []string
	for _, p := range forgotten {
		switch {
		case cfg.Set && slices.Contains(cfg.Tools, p.ID):
			out = append(out, fmt.Sprintf("%s is listed in [mcp] tools of %s: the next repo sync writes its entries again; take it out of the list to keep them out", p.ID, extensions.ConfigFile))
		case !cfg.Set && !all && len(toolsel.InWorkspace(p, w)) > 0:
			out = append(out, fmt.Sprintf("%s is detected in this workspace (see repo tools): the next repo sync writes its entries again; list the tools repo writes in [mcp] tools of %s to leave it out", p.ID, extensions.ConfigFile))
		}
	}
	if all && !cfg.Set {
		out = append(out, fmt.Sprintf("the next repo sync writes the tools detected in this workspace again; list the tools repo writes in [mcp] tools of %s (an empty list writes none)", extensions.ConfigFile))
	}
	return out
}

func printForget(f *Factory, opts *ForgetOptions, res forgetResult) {
	errOut := f.IO.ErrOut
	if !opts.Quiet {
		for _, w := range res.Warnings {
			fmt.Fprintf(errOut, "%s %s\n", f.paint(errOut, yellow, "warning:"), w)
		}
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
	if opts.Quiet {
		return
	}
	for _, k := range res.Kept {
		fmt.Fprintf(errOut, "kept %s (%s: %s): %s writes it too; forget %s as well to remove the entries\n",
			termtext.Safe(k.Path), k.Scope, strings.Join(k.Tools, ", "), strings.Join(k.By, ", "), strings.Join(k.By, ","))
	}
	for _, fr := range res.Files {
		if fr.Status == statusWritten {
			fmt.Fprintf(errOut, "%s %s (%s): %s\n", f.paint(errOut, green, wroteVerb(fr)), termtext.Safe(fr.Path), who(fr), summary(fr.Changes))
		}
		if opts.Verbose {
			for _, c := range fr.Changes {
				if c.Entry == "" {
					fmt.Fprintf(errOut, "  %s: %s\n", c.Action, c.Reason)
					continue
				}
				fmt.Fprintf(errOut, "  %s %s: %s\n", c.Action, termtext.Safe(c.Entry), c.Reason)
			}
		}
	}
	switch {
	case len(res.Files) > 0 || len(res.Kept) > 0:
	case opts.Workspace != "":
		fmt.Fprintf(errOut, "nothing to forget: the record of %s holds no entries in the %s scope\n", termtext.Safe(res.Root), scopeWords(res.Scopes))
	default:
		fmt.Fprintf(errOut, "nothing to forget: the ownership records hold no entries of %s in the %s scope\n", strings.Join(res.Tools, ", "), scopeWords(res.Scopes))
	}
}

// scopeWords is "project", "project, local or user".
func scopeWords(scopes []string) string {
	if len(scopes) == 1 {
		return scopes[0]
	}
	return strings.Join(scopes[:len(scopes)-1], ", ") + " or " + scopes[len(scopes)-1]
}

// forgetResult is the --output json document of repo forget (schema
// docs/schema/forget.v1.json).
type forgetResult struct {
	Version  int          `json:"version"`
	Mode     string       `json:"mode"`
	Root     string       `json:"root"`
	Tools    []string     `json:"tools"`
	Scopes   []string     `json:"scopes"`
	Files    []fileResult `json:"files"`
	Kept     []forgetKept `json:"kept"`
	Warnings []string     `json:"warnings"`
}

// forgetKept is a file whose entries stay because a tool still selected
// writes it too.
type forgetKept struct {
	Path  string   `json:"path"`
	Scope string   `json:"scope"`
	Tools []string `json:"tools"`
	By    []string `json:"by"`
}
