package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/repo-manager/repo/toolprofiles"
)

// The flags several commands share, with their checks and the values shell
// completion offers.

var outputFormats = []string{"text", "json"}

func addOutputFlag(cmd *cobra.Command, p *string) {
	cmd.Flags().StringVarP(p, "output", "o", "text", "text or json")
	_ = cmd.RegisterFlagCompletionFunc("output", fixedValues(outputFormats, "lines for people", "a document for programs (docs/schema/)"))
}

func checkOutput(v string) error {
	if !slices.Contains(outputFormats, v) {
		return usagef("--output %q: use text or json", v)
	}
	return nil
}

func addScopeFlag(cmd *cobra.Command, p *string) {
	cmd.Flags().StringVar(p, "scope", toolprofiles.ScopeProject, "project, local or user")
	_ = cmd.RegisterFlagCompletionFunc("scope", fixedValues(toolprofiles.Scopes,
		"files in the workspace", "per-project entries in your home folder (Claude Code)", "your own config, every project"))
}

func checkScope(v string) error {
	if !slices.Contains(toolprofiles.Scopes, v) {
		return usagef("--scope %q: use project, local or user", v)
	}
	return nil
}

func addRootFlag(cmd *cobra.Command, p *string) {
	cmd.Flags().StringVar(p, "root", "", "workspace root (default: the nearest folder with .repository/ at or above the working directory)")
	_ = cmd.RegisterFlagCompletionFunc("root", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveFilterDirs
	})
}

// addToolFlag adds --tool, completed with the ids of the tools repo can
// write to (the workspace's own profiles included).
func addToolFlag(cmd *cobra.Command, f *Factory, p *[]string, usage string) {
	cmd.Flags().Var(&toolsValue{p: p}, "tool", usage)
	_ = cmd.RegisterFlagCompletionFunc("tool", func(c *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return completeTools(f, c, toComplete), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	})
}

// toolsValue is --tool: repeatable, each value a comma-separated list of
// ids. Every id is kept as given, an empty one too, so that checkToolFlag
// can refuse it; pflag's string slice drops an empty value.
type toolsValue struct {
	p *[]string
}

func (v *toolsValue) Set(s string) error {
	*v.p = append(*v.p, strings.Split(s, ",")...)
	return nil
}

func (v *toolsValue) String() string { return strings.Join(*v.p, ",") }

func (v *toolsValue) Type() string { return "strings" }

// completeTools offers "id<TAB>name" for every MCP-capable tool; after
// "claude," it offers the rest of the list, so --tool claude,vscode
// completes one id at a time.
func completeTools(f *Factory, c *cobra.Command, toComplete string) []string {
	rootFlag, _ := c.Flags().GetString("root")
	root, err := f.Root(rootFlag)
	if err != nil {
		root = "" // outside a workspace: the built-in profiles
	}
	profiles, err := toolprofiles.Load(root, f.Env(root).Env)
	if err != nil {
		if profiles, err = toolprofiles.Builtin(); err != nil {
			return nil
		}
	}
	prefix, chosen := "", []string(nil)
	if i := strings.LastIndex(toComplete, ","); i >= 0 {
		prefix, chosen = toComplete[:i+1], strings.Split(toComplete[:i], ",")
	}
	var out []string
	for _, p := range profiles.All() {
		if !p.MCP || slices.Contains(chosen, p.ID) {
			continue
		}
		out = append(out, prefix+p.ID+"\t"+p.Name)
	}
	return out
}

// fixedValues completes one of values, each with its description. The
// list is built when a shell asks for it, not with every command line:
// every run registers these, few complete (bench/startup.sh).
func fixedValues(values []string, descriptions ...string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		out := make([]string, len(values))
		for i, v := range values {
			out[i] = v
			if i < len(descriptions) {
				out[i] += "\t" + descriptions[i]
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// addVerbosityFlags adds -q/--quiet and -v/--verbose, which exclude each
// other.
func addVerbosityFlags(cmd *cobra.Command, quiet, verbose *bool, quietUsage, verboseUsage string) {
	cmd.Flags().BoolVarP(quiet, "quiet", "q", false, quietUsage)
	cmd.Flags().BoolVarP(verbose, "verbose", "v", false, verboseUsage)
	cmd.MarkFlagsMutuallyExclusive("quiet", "verbose")
}

// noArgs refuses arguments, as a usage error.
func noArgs(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		return unknownCommand(c, args[0])
	}
	return nil
}

// unknownCommand is a usage error naming the command and, when one is
// close, the subcommand that was probably meant.
func unknownCommand(c *cobra.Command, arg string) error {
	msg := fmt.Sprintf("unknown command %q for %q", arg, c.CommandPath())
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2 // cobra's default, which SuggestionsFor does not apply itself
	}
	if s := c.SuggestionsFor(arg); len(s) > 0 {
		msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(s, " or "))
	}
	return usageError{fmt.Errorf("%s", msg)}
}

// groupCommand makes a command with subcommands (repo, repo mcp) print
// its help when called alone and refuse an unknown subcommand as a usage
// error, instead of printing help and exiting 0.
func groupCommand(c *cobra.Command) {
	c.Args = func(c *cobra.Command, args []string) error {
		if len(args) > 0 {
			return unknownCommand(c, args[0])
		}
		return nil
	}
	c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
}

// addShowSecretsFlag adds --show-secrets to a command that prints diffs.
func addShowSecretsFlag(cmd *cobra.Command, p *bool) {
	cmd.Flags().BoolVar(p, "show-secrets", false, "print diffs whole: by default a value outside repo's entries that looks like a credential is shown as <redacted>, and a line holding a whole file by what changed in it")
}
