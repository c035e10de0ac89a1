// Package teampolicy is the team policy: how a workspace's project files
// are shared. A resolved entry holds the paths of the clone that wrote it, so a file a team
// commits must not hold them, and a file that holds them must not be
// committed. Two settings decide it, each from a flag, else
// .repository/config.toml [mcp], else the default:
//
//   - portable: a tool with a variable for the workspace folder (VS Code,
//     Cursor and Roo: ${workspaceFolder}) gets it instead of the root, so
//     its file is the same on every clone and is committed.
//   - gitignore: the other project files are each clone's own, listed in
//     a block of .gitignore and recorded in the clone's own record.
//
// In a git work tree both are on by default: a clone at any path syncs to
// a clean git status. Outside git nothing is shared through git, so the
// default is what serves one machine best: absolute paths (every tool
// reads them) and no .gitignore; a later git init switches to the team
// default at the next sync. A team that says no writes portable = false or
// gitignore = false: false is a setting, not the absence of one.
package teampolicy

import (
	"fmt"
	"strings"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/gittrack"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/selection"
	"github.com/repo-manager/repo/internal/shellquote"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/internal/workspace"
	"github.com/repo-manager/repo/toolprofiles"
)

// Where a policy setting came from.
const (
	FromDefault = "default"
	FromConfig  = "config"
	FromFlag    = "flag"
)

// Policy is the team policy of a run.
type Policy struct {
	Portable      bool   `json:"portable"`
	PortableFrom  string `json:"portable_source"`
	Gitignore     bool   `json:"gitignore"`
	GitignoreFrom string `json:"gitignore_source"`
	Git           bool   `json:"git"` // the workspace is in a git work tree
}

// Load reads the workspace's config, works out the policy from it, the
// flags of the run (nil: not given) and whether the workspace is in git,
// and sets it on w.Env.
func Load(w *workspace.Workspace, portable, gitignore *bool) (Policy, error) {
	cfg, err := w.Config()
	if err != nil {
		return Policy{}, err
	}
	pol := Resolve(w.Root, cfg, portable, gitignore)
	pol.Apply(&w.Env)
	return pol, nil
}

// Resolve works out the policy for the workspace at root from its
// config and the flags of the run (nil: not given).
func Resolve(root string, cfg extensions.Config, portableFlag, gitignoreFlag *bool) Policy {
	_, git := gittrack.Top(root)
	pol := Policy{Git: git}
	pol.Portable, pol.PortableFrom = policySetting(portableFlag, cfg.Portable, git)
	pol.Gitignore, pol.GitignoreFrom = policySetting(gitignoreFlag, cfg.Gitignore, git)
	return pol
}

func policySetting(flag, config *bool, def bool) (bool, string) {
	switch {
	case flag != nil:
		return *flag, FromFlag
	case config != nil:
		return *config, FromConfig
	}
	return def, FromDefault
}

// Apply sets the policy on the run's environment.
func (pol Policy) Apply(env *target.Env) {
	env.Portable, env.Gitignore = pol.Portable, pol.Gitignore
}

// source says where a setting came from, as -v and doctor print it.
func (pol Policy) source(name, from string, v bool) string {
	switch from {
	case FromFlag:
		return fmt.Sprintf("--%s=%t", name, v)
	case FromConfig:
		return fmt.Sprintf("[mcp] %s = %t in %s", name, v, extensions.ConfigFile)
	}
	if pol.Git {
		return "the default in a git work tree"
	}
	return "the default outside git"
}

// Describe says, in one line, which policy is in force and why; profiles
// are the run's tools (those with a workspace variable are named).
func (pol Policy) Describe(profiles []*toolprofiles.Profile) string {
	var vars []string
	for _, p := range profiles {
		if p.Entry.RootVar != "" {
			vars = append(vars, p.ID)
		}
	}
	var b strings.Builder
	b.WriteString("policy: ")
	if pol.Portable {
		fmt.Fprintf(&b, "portable (%s): tools with a workspace variable get it instead of this clone's root, and their files are committed", pol.source("portable", pol.PortableFrom, true))
		if len(vars) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(vars, ", "))
		}
	} else {
		fmt.Fprintf(&b, "not portable (%s): every file gets this clone's absolute root", pol.source("portable", pol.PortableFrom, false))
	}
	b.WriteString("; ")
	switch {
	case pol.Gitignore:
		fmt.Fprintf(&b, "per-clone files (%s): the files that hold this clone's paths are git-ignored, listed in %s, and each clone writes its own; a settings file git tracks is left as it is", pol.source("gitignore", pol.GitignoreFrom, true), plan.IgnoreFile)
	case pol.Git:
		fmt.Fprintf(&b, "no per-clone files (%s): every project file is committed, with the paths of the clone that synced it last", pol.source("gitignore", pol.GitignoreFrom, false))
	default:
		fmt.Fprintf(&b, "no per-clone files (%s): nothing is git-ignored", pol.source("gitignore", pol.GitignoreFrom, false))
	}
	if pol.PortableFrom == FromDefault || pol.GitignoreFrom == FromDefault {
		fmt.Fprintf(&b, " ([mcp] portable and gitignore in %s choose another)", extensions.ConfigFile)
	}
	return b.String()
}

// UntrackCommand is the command that stops git tracking paths (relative
// to the workspace root): run in the root, or in the folder --root names
// (root, as given) from where the run was.
func UntrackCommand(root string, paths ...string) string {
	cmd := "git rm --cached -- "
	if root != "" {
		cmd = "git -C " + shellquote.Join([]string{root}) + " rm --cached -- "
	}
	return cmd + shellquote.Join(paths)
}

// TrackedNote says what repo did with a machine-specific file git tracks
// (plan.TrackedFile) and what the user can do, for sync's warnings and
// doctor. set: the profiles, for the tools' other scopes; root: --root, as
// given.
func TrackedNote(tf plan.TrackedFile, set *toolprofiles.Set, root string) (what, fix string) {
	if !tf.Settings {
		what = "per-clone under the workspace's policy, but git tracks it, so repo leaves it as the repository has it (with the paths of the clone that committed it)"
		fix = fmt.Sprintf("run '%s' and commit; then repo sync writes this clone's own (servers of the team's own in it: first make them an extension, 'repo mcp import --tool %s --extension team'); or commit it with each clone's paths: [mcp] gitignore = false",
			termtext.Safe(UntrackCommand(root, tf.Display)), tf.Tools[0])
		return what, fix
	}
	what = fmt.Sprintf("git tracks it, and it holds the team's other %s settings: repo never git-ignores it, and writes no servers into it (they would hold this clone's paths)", strings.Join(tf.Tools, "/"))
	var ways []string
	for _, id := range tf.Tools {
		p := set.Get(id)
		if p == nil {
			continue
		}
		for _, scope := range []string{toolprofiles.ScopeLocal, toolprofiles.ScopeUser} {
			if p.Scopes.Get(scope) != nil {
				cmd := fmt.Sprintf("repo sync --scope %s --tool %s", scope, id)
				if root != "" {
					cmd += " --root " + shellquote.Join([]string{root})
				}
				ways = append(ways, fmt.Sprintf("'%s' (after repo trust)", termtext.Safe(cmd)))
			}
		}
	}
	ways = append(ways, "commit this clone's paths in it on purpose ([mcp] gitignore = false: every clone then writes its own paths into the committed files)")
	return what, "instead: " + strings.Join(ways, "; or ")
}

// IgnoreBlock is what repo's block in the workspace's .gitignore is to
// list ([mcp] gitignore): the machine-specific files of the workspace's
// tools for servers — [mcp] tools or the detected ones, whatever --tool
// the run has (sel, targets), so that a run for some tools keeps the
// others' lines. Nil when the run keeps no block: without gitignore, or
// outside project scope.
func IgnoreBlock(w *workspace.Workspace, servers []extensions.Server, sel *selection.Selection, targets []*target.Target, scope string) (*plan.IgnoreBlock, error) {
	if !w.Env.Gitignore || scope != toolprofiles.ScopeProject {
		return nil, nil
	}
	if sel.Source == selection.FromFlag {
		all, err := selection.Select(w, nil, scope)
		if err != nil {
			return nil, err
		}
		if targets, _, err = target.Build(servers, all.Profiles, target.Scope(scope), w.Env); err != nil {
			return nil, err
		}
		if err := plan.MarkTracked(w.Env, targets); err != nil {
			return nil, err
		}
	}
	return &plan.IgnoreBlock{Paths: plan.IgnoredFiles(w.Env, targets)}, nil
}
