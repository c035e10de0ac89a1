package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/gittrack"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// committedSecrets is repo doctor's check of the MCP files a repository
// commits: every tool's project file that git tracks, each entry (repo's
// and the user's) judged field by field. A literal credential fails,
// naming the file, the line, the entry and the field, never the value.
// Outside git there is nothing committed to check.
func (d *doctor) committedSecrets() []finding {
	top, ok := gittrack.Top(d.w.Root)
	if !ok {
		return nil
	}
	var mcp []*toolprofiles.Profile
	for _, p := range d.w.Profiles.All() {
		if p.MCP && p.Scopes.Get(toolprofiles.ScopeProject) != nil {
			mcp = append(mcp, p)
		}
	}
	targets, _, err := target.Build(nil, mcp, target.Scope(toolprofiles.ScopeProject), d.w.Env)
	if err != nil {
		return []finding{{Level: levelWarn, Check: "secret", Message: err.Error(), Fix: "fix the tool profiles"}}
	}
	// Every path a tool may read its project file from: the one this
	// machine would write may not be the one committed.
	type place struct {
		t    *target.Target
		path string
	}
	var places []place
	var paths []string
	seen := map[string]bool{} // a file and a key: two tools reading one map share it
	for _, t := range targets {
		for _, p := range t.Candidates {
			if id := p + "\x00" + strings.Join(t.Key, "\x00"); !seen[id] {
				seen[id] = true
				places = append(places, place{t, p})
			}
			if !slices.Contains(paths, p) {
				paths = append(paths, p)
			}
		}
	}
	tracked, err := gittrack.Tracked(top, paths)
	if err != nil {
		return []finding{{Level: levelWarn, Check: "secret", Message: err.Error(), Fix: "make git work in this repository, then run repo doctor again"}}
	}
	var out []finding
	checked := map[string]bool{}
	for _, pl := range places {
		if !tracked[pl.path] {
			continue
		}
		t := *pl.t
		t.Path, t.Display = pl.path, d.w.Env.Display(pl.path)
		entries, err := plan.ReadEntries(d.w.Env, &t)
		if err != nil {
			out = append(out, finding{Level: levelWarn, Tool: strings.Join(t.Tools, ", "), Check: "secret",
				Message: fmt.Sprintf("cannot check the committed file for literal credentials: %v", err), Fix: "make the file valid"})
			continue
		}
		checked[pl.path] = true
		for _, e := range entries {
			out = append(out, entrySecrets(&t, e)...)
		}
	}
	if len(out) == 0 && len(checked) > 0 {
		out = append(out, finding{Level: levelOK, Check: "secret", Tool: "repo",
			Message: fmt.Sprintf("no literal credential in the %d MCP file(s) git tracks", len(checked))})
	}
	return out
}

// entrySecrets are the failures of one entry of a committed file t: one
// per field that holds what looks like a literal credential, however many
// it holds. The fix says where the reference belongs: in the extension's
// MCP file for an entry repo manages (a sync would write the credential
// back), else in the entry itself.
func entrySecrets(t *target.Target, e plan.Entry) []finding {
	var out []finding
	seen := map[string]bool{}
	for _, l := range target.EntrySecrets(e.Value) {
		if seen[l.Field] {
			continue
		}
		seen[l.Field] = true
		loc := t.Display
		if e.Line > 0 {
			loc = fmt.Sprintf("%s:%d", t.Display, e.Line)
		}
		fix := "write an environment reference in the tool's syntax instead, and revoke the credential: git history keeps it"
		if e.Owner != "" {
			fix = fmt.Sprintf("declare it as an environment reference in extension %s's MCP file and run repo sync; then revoke the credential: git history keeps it", e.Owner)
		}
		out = append(out, finding{Level: levelFail, Server: e.Name, Tool: strings.Join(t.Tools, ", "), Check: "secret",
			Message: fmt.Sprintf("%s: entry %q: %s holds what looks like a literal credential (%s), and git tracks the file", loc, e.Name, l, l.What),
			Fix:     fix})
	}
	return out
}
