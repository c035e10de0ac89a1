package selection

import (
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/workspace"
	"github.com/repo-manager/repo/toolprofiles"
)

// LinkedReaders is profiles, the tools a run writes in scope, with the
// other tools of the scope that read one of those files under another
// name: a symbolic link such as .cursor/mcp.json -> ../.mcp.json makes
// Cursor's file Claude Code's, whichever of the two a run names. Those
// tools read what the run writes there, so they are written with it, and
// target.Build makes them agree on each entry (or refuses, naming both).
// Tools that read a file by the same name (Claude Code and Copilot CLI
// share .mcp.json) are not added: the profiles say so, and a run for one
// of them writes what both read.
func LinkedReaders(w *workspace.Workspace, profiles []*toolprofiles.Profile, scope string) []*toolprofiles.Profile {
	type place struct{ real, key string }
	fileOf := func(p *toolprofiles.Profile) (path string, pl place, ok bool) {
		t := p.Scopes.Get(scope)
		if t == nil || !p.MCP {
			return "", place{}, false
		}
		c, err := target.Choose(t, w.Env)
		if err != nil || c.Path == "" {
			return "", place{}, false
		}
		return c.Path, place{w.Env.RealPath(c.Path), strings.Join(target.ProfileKey(t, w.Env), "\x00")}, true
	}
	written := map[place][]string{} // the paths the run's tools reach each file by
	for _, p := range profiles {
		if path, pl, ok := fileOf(p); ok {
			written[pl] = append(written[pl], path)
		}
	}
	out := profiles
	for _, p := range w.Profiles.ForScope(scope).All() {
		if slices.ContainsFunc(profiles, func(s *toolprofiles.Profile) bool { return s.ID == p.ID }) {
			continue
		}
		path, pl, ok := fileOf(p)
		if paths := written[pl]; ok && len(paths) > 0 && !slices.Contains(paths, path) {
			out = append(slices.Clip(out), p)
		}
	}
	return out
}

// LeftOut are the MCP tools of set that the workspace does not ask for
// (Selection.Wanted, not the tools a run writes: a listed tool skipped on
// this machine has not left): those whose entries a sync of an [mcp]
// tools list removes.
func LeftOut(set *toolprofiles.Set, wanted []*toolprofiles.Profile) []*toolprofiles.Profile {
	var out []*toolprofiles.Profile
	for _, p := range set.All() {
		if p.MCP && !slices.ContainsFunc(wanted, func(w *toolprofiles.Profile) bool { return w.ID == p.ID }) {
			out = append(out, p)
		}
	}
	return out
}
