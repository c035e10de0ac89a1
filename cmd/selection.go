package cmd

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers/target"
)

// selection is the tools a run writes, and why those.
type selection struct {
	profiles []*toolprofiles.Profile
	source   string   // "--tool", "config", "detected"
	notes    []string // tools left out, and why; files whose creation changes a tool
	// evidence is what selected each tool (detected), or showed it on this
	// machine (config, user and local scope), as shown to people, by id.
	evidence map[string][]string
	scope    string
	// wanted are the tools the workspace asks for: named with --tool,
	// listed in [mcp] tools, or detected — profiles, and those a run
	// leaves out for now (not on this machine, a file whose creation
	// changes the tool, no file for the scope here). None of them has
	// left the selection: their entries stay (see leftOut).
	wanted []*toolprofiles.Profile
}

// splitIDs accepts --tool a --tool b,c.
func splitIDs(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, id := range strings.Split(v, ",") {
			if id = strings.TrimSpace(id); id != "" && !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}

// checkToolFlag refuses a --tool that was given but names no tool, or
// holds an empty id: --tool "$TOOLS" with TOOLS unset must not fall back
// to detection and write every detected tool's file.
func checkToolFlag(c *cobra.Command, ids []string) error {
	if !c.Flags().Changed("tool") {
		return nil
	}
	given := fmt.Sprintf("--tool %q", strings.Join(ids, ","))
	switch {
	case len(splitIDs(ids)) == 0:
		return usagef("%s: no tool id (an unset variable?); give tool ids, or leave --tool out to use the workspace's tools (see repo tools)", given)
	case slices.ContainsFunc(ids, func(id string) bool { return strings.TrimSpace(id) == "" }):
		return usagef("%s: an empty tool id (an unset variable?); give tool ids, see repo tools", given)
	}
	return nil
}

// userScope reports whether a scope's files belong to the person on this
// machine rather than to the workspace.
func userScope(scope string) bool { return scope != toolprofiles.ScopeProject }

// selectTools decides which tools a run writes: --tool, else the
// workspace's [mcp] tools, else the tools detected. For the project scope
// a tool is detected by its markers in the workspace; for the user and
// local scopes by its folders in the home folder or its executable on PATH,
// which also decide which of the [mcp] tools are written there: a user
// file is never created for a tool this machine does not have.
func selectTools(w *workspace, requested []string, scope string) (*selection, error) {
	ids := splitIDs(requested)
	sel := &selection{evidence: map[string][]string{}, scope: scope}
	// A workspace's profiles apply to the project scope only.
	set := w.profiles.ForScope(scope)
	switch {
	case len(ids) > 0:
		sel.source = "--tool"
		for _, id := range ids {
			p, err := lookupIn(w.profiles, set, id, "--tool")
			if err != nil {
				return nil, err
			}
			if p.Scopes.Get(scope) == nil || noPathHere(p, scope, w) {
				return nil, usagef("--tool %s: %s has no %s-scope config%s", id, p.Name, scope, otherScopes(p, w))
			}
			sel.profiles = append(sel.profiles, p)
		}
		sel.wanted = slices.Clone(sel.profiles)
	default:
		cfg, err := extensions.LoadConfig(w.root)
		if err != nil {
			return nil, err
		}
		if cfg.Set {
			sel.source = "config"
			for _, id := range cfg.Tools {
				p, err := lookupIn(w.profiles, set, id, extensions.ConfigFile+" [mcp] tools")
				if err != nil {
					return nil, err
				}
				sel.wanted = append(sel.wanted, p)
				if p.Scopes.Get(scope) == nil || noPathHere(p, scope, w) {
					sel.notes = append(sel.notes, fmt.Sprintf("%s has no %s-scope config; skipped%s", id, scope, otherScopes(p, w)))
					continue
				}
				if userScope(scope) {
					ev := onMachine(p, w.env.Env, w.env.Display)
					if ev.known && !ev.installed() {
						sel.notes = append(sel.notes, fmt.Sprintf("%s is not on this machine (%s); skipped: name it with --tool %s to write its %s file anyway", id, ev.absent(), id, scope))
						continue
					}
					sel.evidence[p.ID] = ev.found
				}
				sel.profiles = append(sel.profiles, p)
			}
			break
		}
		sel.source = "detected"
		for _, p := range set.All() {
			if !p.MCP || p.Scopes.Get(scope) == nil || noPathHere(p, scope, w) {
				continue
			}
			var found []string
			if userScope(scope) {
				found = onMachine(p, w.env.Env, w.env.Display).found
			} else {
				found = workspaceEvidence(p, w)
			}
			if len(found) == 0 {
				continue
			}
			sel.evidence[p.ID] = found
			sel.profiles = append(sel.profiles, p)
			sel.wanted = append(sel.wanted, p)
		}
	}
	sel.profiles = slices.DeleteFunc(sel.profiles, func(p *toolprofiles.Profile) bool { return !sel.mayCreate(p, w) })
	return sel, nil
}

// mayCreate decides a tool whose file for the scope, once created, changes
// how the tool works (profile creation_changes): an existing file is
// written as any other; a new one only for a tool named with --tool, with
// a warning, and otherwise the tool is left out, with a note.
func (sel *selection) mayCreate(p *toolprofiles.Profile, w *workspace) bool {
	t := p.Scopes.Get(sel.scope)
	if t.CreationChanges == "" {
		return true
	}
	c, err := target.Choose(t, w.env)
	if err != nil || c.Path == "" {
		return true // the sync reports it
	}
	if _, err := os.Lstat(c.Path); err == nil {
		return true
	}
	file := termtext.Safe(w.env.Display(c.Path))
	if sel.source == "--tool" {
		sel.notes = append(sel.notes, fmt.Sprintf("%s: creating %s %s", p.ID, file, t.CreationChanges))
		return true
	}
	sel.notes = append(sel.notes, fmt.Sprintf("%s: %s does not exist, and creating it %s; skipped: run with --tool %s to create it", p.ID, file, t.CreationChanges, p.ID))
	return false
}

// describe says which tools were selected and why, for -v:
// "tools (detected in the workspace): claude (.mcp.json), …; project scope".
func (sel *selection) describe() string {
	source := sel.source
	switch {
	case sel.source == "detected" && userScope(sel.scope):
		source = "detected on this machine"
	case sel.source == "detected":
		source = "detected in the workspace"
	}
	var tools []string
	for _, p := range sel.profiles {
		if ev := sel.evidence[p.ID]; len(ev) > 0 {
			tools = append(tools, fmt.Sprintf("%s (%s)", p.ID, safeList(ev)))
		} else {
			tools = append(tools, p.ID)
		}
	}
	list := strings.Join(tools, ", ")
	if list == "" {
		list = "none"
	}
	return fmt.Sprintf("tools (%s): %s; %s scope", source, list, sel.scope)
}

// safeList joins paths as a message prints them, each through
// termtext.Safe.
func safeList(items []string) string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = termtext.Safe(s)
	}
	return strings.Join(out, ", ")
}

// none says why no tool was selected.
func (sel *selection) none() string {
	switch {
	case sel.source == "config":
		return fmt.Sprintf("no tools to write: none of %s [mcp] tools has a %s-scope file to write here (see the warnings); pass --tool ID (see repo tools)", extensions.ConfigFile, sel.scope)
	case userScope(sel.scope):
		return fmt.Sprintf("no tools to write: none listed in %s [mcp] tools and none installed on this machine (no tool's own folder in the home folder, no tool's executable on PATH); pass --tool ID (see repo tools)", extensions.ConfigFile)
	}
	return fmt.Sprintf("no tools to write: none listed in %s [mcp] tools and none detected; pass --tool ID (see repo tools)", extensions.ConfigFile)
}

func lookup(set *toolprofiles.Set, id, where string) (*toolprofiles.Profile, error) {
	return lookupIn(set, set, id, where)
}

// lookupIn looks id up in the profiles of one scope (scoped); all, every
// profile, tells an id no profile defines (an error) from a tool the
// workspace defines for the project scope only, which has no file in
// scoped's scope: that profile is returned as it is, without the scope.
func lookupIn(all, scoped *toolprofiles.Set, id, where string) (*toolprofiles.Profile, error) {
	p := scoped.Get(id)
	if p == nil {
		p = all.Get(id)
	}
	if p == nil {
		return nil, usagef("%s: unknown tool %q (known: %s)", where, id, strings.Join(all.IDs(), ", "))
	}
	if !p.MCP {
		return nil, usagef("%s: %s (%s) has no MCP support; repo never writes to it", where, p.Name, id)
	}
	return p, nil
}

// noPathHere: the scope exists, but not on this OS (Claude Desktop on Linux).
func noPathHere(p *toolprofiles.Profile, scope string, w *workspace) bool {
	return len(p.Scopes.Get(scope).PathsFor(w.env.GOOS)) == 0
}

func otherScopes(p *toolprofiles.Profile, w *workspace) string {
	var have []string
	for _, s := range toolprofiles.Scopes {
		sp := w.profiles.ForScope(s).Get(p.ID)
		if sp == nil {
			continue
		}
		if t := sp.Scopes.Get(s); t != nil && len(t.PathsFor(w.env.GOOS)) > 0 {
			have = append(have, s)
		}
	}
	if len(have) == 0 {
		return " (none on " + w.env.GOOS + ")"
	}
	return fmt.Sprintf(" (it has: %s; choose one with --scope)", strings.Join(have, ", "))
}
