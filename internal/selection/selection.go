// Package selection decides which tools a run writes, and why: --tool,
// else the workspace's [mcp] tools, else the tools detected — for the
// project scope by their markers in the workspace, for the user and local
// scopes by what this machine has (evidence.go), which also decides which
// of the [mcp] tools are written there.
package selection

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/internal/usage"
	"github.com/repo-manager/repo/internal/workspace"
	"github.com/repo-manager/repo/toolprofiles"
)

// Where a selection's tools came from (Selection.Source).
const (
	FromFlag     = "--tool"
	FromConfig   = "config"
	FromDetected = "detected"
)

// Selection is the tools a run writes, and why those.
type Selection struct {
	Profiles []*toolprofiles.Profile
	Source   string   // FromFlag, FromConfig, FromDetected
	Notes    []string // tools left out, and why; files whose creation changes a tool
	// evidence is what selected each tool (detected), or showed it on this
	// machine (config, user and local scope), as shown to people, by id.
	Evidence map[string][]string
	Scope    string
	// wanted are the tools the workspace asks for: named with --tool,
	// listed in [mcp] tools, or detected — profiles, and those a run
	// leaves out for now (not on this machine, a file whose creation
	// changes the tool, no file for the scope here). None of them has
	// left the selection: their entries stay (see LeftOut).
	Wanted []*toolprofiles.Profile
}

// UserScope reports whether a scope's files belong to the person on this
// machine rather than to the workspace.
func UserScope(scope string) bool { return scope != toolprofiles.ScopeProject }

// Select decides which tools a run writes: ids (--tool), else the
// workspace's [mcp] tools, else the tools detected. For the project scope
// a tool is detected by its markers in the workspace; for the user and
// local scopes by its folders in the home folder or its executable on PATH,
// which also decide which of the [mcp] tools are written there: a user
// file is never created for a tool this machine does not have.
func Select(w *workspace.Workspace, ids []string, scope string) (*Selection, error) {
	sel := &Selection{Evidence: map[string][]string{}, Scope: scope}
	// A workspace's profiles apply to the project scope only.
	set := w.Profiles.ForScope(scope)
	switch {
	case len(ids) > 0:
		sel.Source = FromFlag
		for _, id := range ids {
			p, err := LookupIn(w.Profiles, set, id, "--tool")
			if err != nil {
				return nil, err
			}
			if p.Scopes.Get(scope) == nil || NoPathHere(p, scope, w) {
				return nil, usage.Errorf("--tool %s: %s has no %s-scope config%s", id, p.Name, scope, OtherScopes(p, w))
			}
			sel.Profiles = append(sel.Profiles, p)
		}
		sel.Wanted = slices.Clone(sel.Profiles)
	default:
		cfg, err := w.Config()
		if err != nil {
			return nil, err
		}
		if cfg.Set {
			sel.Source = FromConfig
			for _, id := range cfg.Tools {
				p, err := LookupIn(w.Profiles, set, id, extensions.ConfigFile+" [mcp] tools")
				if err != nil {
					return nil, err
				}
				sel.Wanted = append(sel.Wanted, p)
				if p.Scopes.Get(scope) == nil || NoPathHere(p, scope, w) {
					sel.Notes = append(sel.Notes, fmt.Sprintf("%s has no %s-scope config; skipped%s", id, scope, OtherScopes(p, w)))
					continue
				}
				if UserScope(scope) {
					ev := OnMachine(p, w.Env.Env, w.Env.Display)
					if ev.Known && !ev.Installed() {
						sel.Notes = append(sel.Notes, fmt.Sprintf("%s is not on this machine (%s); skipped: name it with --tool %s to write its %s file anyway", id, ev.Absent(), id, scope))
						continue
					}
					sel.Evidence[p.ID] = ev.Found
				}
				sel.Profiles = append(sel.Profiles, p)
			}
			break
		}
		sel.Source = FromDetected
		for _, p := range set.All() {
			if !p.MCP || p.Scopes.Get(scope) == nil || NoPathHere(p, scope, w) {
				continue
			}
			var found []string
			if UserScope(scope) {
				found = OnMachine(p, w.Env.Env, w.Env.Display).Found
			} else {
				found = InWorkspace(p, w)
			}
			if len(found) == 0 {
				continue
			}
			sel.Evidence[p.ID] = found
			sel.Profiles = append(sel.Profiles, p)
			sel.Wanted = append(sel.Wanted, p)
		}
	}
	sel.Profiles = slices.DeleteFunc(sel.Profiles, func(p *toolprofiles.Profile) bool { return !sel.mayCreate(p, w) })
	return sel, nil
}

// mayCreate decides a tool whose file for the scope, once created, changes
// how the tool works (profile creation_changes): an existing file is
// written as any other; a new one only for a tool named with --tool, with
// a warning, and otherwise the tool is left out, with a note.
func (sel *Selection) mayCreate(p *toolprofiles.Profile, w *workspace.Workspace) bool {
	t := p.Scopes.Get(sel.Scope)
	if t.CreationChanges == "" {
		return true
	}
	c, err := target.Choose(t, w.Env)
	if err != nil || c.Path == "" {
		return true // the sync reports it
	}
	if _, err := os.Lstat(c.Path); err == nil {
		return true
	}
	file := termtext.Safe(w.Env.Display(c.Path))
	if sel.Source == FromFlag {
		sel.Notes = append(sel.Notes, fmt.Sprintf("%s: creating %s %s", p.ID, file, t.CreationChanges))
		return true
	}
	sel.Notes = append(sel.Notes, fmt.Sprintf("%s: %s does not exist, and creating it %s; skipped: run with --tool %s to create it", p.ID, file, t.CreationChanges, p.ID))
	return false
}

// Describe says which tools were selected and why, for -v:
// "tools (detected in the workspace): claude (.mcp.json), …; project scope".
func (sel *Selection) Describe() string {
	source := sel.Source
	switch {
	case sel.Source == FromDetected && UserScope(sel.Scope):
		source = "detected on this machine"
	case sel.Source == FromDetected:
		source = "detected in the workspace"
	}
	var tools []string
	for _, p := range sel.Profiles {
		if ev := sel.Evidence[p.ID]; len(ev) > 0 {
			tools = append(tools, fmt.Sprintf("%s (%s)", p.ID, SafeList(ev)))
		} else {
			tools = append(tools, p.ID)
		}
	}
	list := strings.Join(tools, ", ")
	if list == "" {
		list = "none"
	}
	return fmt.Sprintf("tools (%s): %s; %s scope", source, list, sel.Scope)
}

// SafeList joins paths as a message prints them, each through
// termtext.Safe.
func SafeList(items []string) string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = termtext.Safe(s)
	}
	return strings.Join(out, ", ")
}

// None says why no tool was selected.
func (sel *Selection) None() string {
	switch {
	case sel.Source == FromConfig:
		return fmt.Sprintf("no tools to write: none of %s [mcp] tools has a %s-scope file to write here (see the warnings); pass --tool ID (see repo tools)", extensions.ConfigFile, sel.Scope)
	case UserScope(sel.Scope):
		return fmt.Sprintf("no tools to write: none listed in %s [mcp] tools and none installed on this machine (no tool's own folder in the home folder, no tool's executable on PATH); pass --tool ID (see repo tools)", extensions.ConfigFile)
	}
	return fmt.Sprintf("no tools to write: none listed in %s [mcp] tools and none detected; pass --tool ID (see repo tools)", extensions.ConfigFile)
}

// Lookup is the MCP tool id of set, or a usage error naming where the id
// came from.
func Lookup(set *toolprofiles.Set, id, where string) (*toolprofiles.Profile, error) {
	return LookupIn(set, set, id, where)
}

// LookupIn looks id up in the profiles of one scope (scoped); all, every
// profile, tells an id no profile defines (an error) from a tool the
// workspace defines for the project scope only, which has no file in
// scoped's scope: that profile is returned as it is, without the scope.
func LookupIn(all, scoped *toolprofiles.Set, id, where string) (*toolprofiles.Profile, error) {
	p := scoped.Get(id)
	if p == nil {
		p = all.Get(id)
	}
	if p == nil {
		return nil, usage.Errorf("%s: unknown tool %q (known: %s)", where, id, strings.Join(all.IDs(), ", "))
	}
	if !p.MCP {
		return nil, usage.Errorf("%s: %s (%s) has no MCP support; repo never writes to it", where, p.Name, id)
	}
	return p, nil
}

// NoPathHere: the scope exists, but not on this OS (Claude Desktop on Linux).
func NoPathHere(p *toolprofiles.Profile, scope string, w *workspace.Workspace) bool {
	return len(p.Scopes.Get(scope).PathsFor(w.Env.GOOS)) == 0
}

// OtherScopes names the scopes the tool has a file in on this OS, for a
// message about one it lacks.
func OtherScopes(p *toolprofiles.Profile, w *workspace.Workspace) string {
	var have []string
	for _, s := range toolprofiles.Scopes {
		sp := w.Profiles.ForScope(s).Get(p.ID)
		if sp == nil {
			continue
		}
		if t := sp.Scopes.Get(s); t != nil && len(t.PathsFor(w.Env.GOOS)) > 0 {
			have = append(have, s)
		}
	}
	if len(have) == 0 {
		return " (none on " + w.Env.GOOS + ")"
	}
	return fmt.Sprintf(" (it has: %s; choose one with --scope)", strings.Join(have, ", "))
}
