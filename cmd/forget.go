package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers"
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

// forgetRun runs repo forget, and forgetWorkspaceRun repo forget
// --workspace, through writers.Run.
func forgetRun(opts *ForgetOptions) error {
	tools := splitIDs(opts.Tools)
	if opts.All {
		tools = nil
	}
	return forget(opts, writers.Options{Root: opts.Root, Tools: tools})
}

func forgetWorkspaceRun(opts *ForgetOptions) error {
	return forget(opts, writers.Options{Root: opts.Workspace, Gone: true})
}

func forget(opts *ForgetOptions, wo writers.Options) error {
	f := opts.F
	wo.Mode, wo.Scope, wo.DryRun, wo.ShowSecrets = writers.Forget, opts.Scope, opts.DryRun, opts.ShowSecrets
	ctx, err := f.runContext(&wo, !opts.DryRun)
	if err != nil {
		return err
	}
	rep, err := writers.Run(ctx, wo)
	if err != nil {
		return runFailed(f, err)
	}
	if opts.Output == "json" {
		return writeJSON(f, rep)
	}
	printForget(f, opts, rep)
	return nil
}

func printForget(f *Factory, opts *ForgetOptions, res *writers.Report) {
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
