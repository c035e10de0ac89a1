package cmd

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/toolprofiles"
)

// selection is the tools a run writes, and why those.
type selection struct {
	profiles []*toolprofiles.Profile
	source   string   // "--tool", "config", "detected"
	notes    []string // tools left out, and why
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

// selectTools decides which tools a run writes: --tool, else the
// workspace's [mcp] tools, else the tools detected in the workspace.
func selectTools(w *workspace, requested []string, scope string) (*selection, error) {
	ids := splitIDs(requested)
	if len(ids) > 0 {
		sel := &selection{source: "--tool"}
		for _, id := range ids {
			p, err := lookup(w.profiles, id, "--tool")
			if err != nil {
				return nil, err
			}
			if p.Scopes.Get(scope) == nil || noPathHere(p, scope, w) {
				return nil, usagef("--tool %s: %s has no %s-scope config%s", id, p.Name, scope, otherScopes(p, w))
			}
			sel.profiles = append(sel.profiles, p)
		}
		return sel, nil
	}
	cfg, err := extensions.LoadConfig(w.root)
	if err != nil {
		return nil, err
	}
	if cfg.Set {
		sel := &selection{source: "config"}
		for _, id := range cfg.Tools {
			p, err := lookup(w.profiles, id, extensions.ConfigFile+" [mcp] tools")
			if err != nil {
				return nil, err
			}
			if p.Scopes.Get(scope) == nil || noPathHere(p, scope, w) {
				sel.notes = append(sel.notes, fmt.Sprintf("%s has no %s-scope config; skipped%s", id, scope, otherScopes(p, w)))
				continue
			}
			sel.profiles = append(sel.profiles, p)
		}
		return sel, nil
	}
	sel := &selection{source: "detected"}
	for _, p := range w.profiles.All() {
		if !p.MCP || p.Scopes.Get(scope) == nil || noPathHere(p, scope, w) || !detected(p, w) {
			continue
		}
		sel.profiles = append(sel.profiles, p)
	}
	return sel, nil
}

func lookup(set *toolprofiles.Set, id, where string) (*toolprofiles.Profile, error) {
	p := set.Get(id)
	if p == nil {
		return nil, usagef("%s: unknown tool %q (known: %s)", where, id, strings.Join(set.IDs(), ", "))
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
		if t := p.Scopes.Get(s); t != nil && len(t.PathsFor(w.env.GOOS)) > 0 {
			have = append(have, s)
		}
	}
	if len(have) == 0 {
		return " (none on " + w.env.GOOS + ")"
	}
	return fmt.Sprintf(" (it has: %s; choose one with --scope)", strings.Join(have, ", "))
}

// detected reports whether any of the profile's marker paths exists.
func detected(p *toolprofiles.Profile, w *workspace) bool {
	for _, d := range p.Detect {
		path, err := toolprofiles.ExpandPath(d, w.root, w.env.Env)
		if err != nil {
			continue
		}
		if _, err := os.Lstat(path); err == nil {
			return true
		}
	}
	return false
}
