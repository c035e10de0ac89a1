package cmd

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/repo-manager/repo/internal/credential"
	"github.com/repo-manager/repo/internal/gittrack"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers"
	"github.com/repo-manager/repo/writers/plan"
	"github.com/repo-manager/repo/writers/target"
)

// commits tells which project files git commits: those it tracks, and
// those the workspace means to commit — every project file repo writes but
// the ones [mcp] gitignore makes each clone's own. Git is asked once, and
// only when an answer depends on it (a file the block ignores that may
// still be tracked); a plan asks from several files at once.
type commits struct {
	w       *workspace
	targets []*writers.Target
	once    sync.Once
	tracked map[string]bool
	err     error
}

func newCommits(w *workspace, targets []*writers.Target) *commits {
	return &commits{w: w, targets: targets}
}

// ignored: the workspace's .gitignore block lists the file (plan.IgnoredFiles).
func (c *commits) ignored(t *writers.Target) bool {
	return c.w.Env.Gitignore && t.Machine
}

// committed reports whether git commits t's file. An error asking git
// counts the file as committed: when in doubt, no credential goes in.
func (c *commits) committed(t *writers.Target) (bool, error) {
	if t.Scope != toolprofiles.ScopeProject {
		return false, nil
	}
	if !c.ignored(t) {
		return true, nil
	}
	c.once.Do(func() {
		top, ok := gittrack.Top(c.w.Root)
		if !ok {
			c.tracked = map[string]bool{}
			return
		}
		var paths []string
		for _, o := range c.targets {
			if o.Scope == toolprofiles.ScopeProject && c.ignored(o) {
				paths = append(paths, o.Path)
			}
		}
		c.tracked, c.err = gittrack.Tracked(top, paths)
	})
	if c.err != nil {
		return true, c.err
	}
	return c.tracked[t.Path], nil
}

// checkLeaks stops a sync that would write an extension's literal
// credential into a project file git commits (exit 2, nothing written),
// naming the extension, the server, the field and the files. A literal
// that goes only into files each clone keeps to itself (git-ignored by
// [mcp] gitignore, and not tracked) is a warning: the file is not
// committed, but the extension that holds the value is.
func checkLeaks(c *commits, leaks []target.Leak) (warnings []string, err error) {
	var errs []error
	for _, l := range leaks {
		var into, clone []string
		for _, t := range l.Targets {
			ok, gitErr := c.committed(t)
			if gitErr != nil {
				return nil, gitErr
			}
			if ok {
				into = append(into, t.Display)
			} else {
				clone = append(clone, t.Display)
			}
		}
		s, lit := l.Server, l.Literal
		where := fmt.Sprintf("%s:%d: server %q (extension %s): %s holds what looks like a literal credential (%s)", s.Source, s.Line, s.Name, s.Extension, lit, lit.What)
		instead := fmt.Sprintf("declare it as an environment reference, %s, in %s; repo writes each tool's own syntax for it", leakRef(s.Name, lit), s.Source)
		if len(into) > 0 {
			errs = append(errs, fmt.Errorf("%s, and repo does not write one into %s, which git commits: %s", where, strings.Join(into, ", "), instead))
			continue
		}
		warnings = appendUnique(warnings, fmt.Sprintf("%s; it goes only into %s, which each clone keeps to itself (git-ignored), but the extension holds it: %s", where, strings.Join(clone, ", "), instead))
	}
	return warnings, errors.Join(errs...)
}

// leakRef is the reference to write instead of a literal of a server.
func leakRef(server string, l target.Literal) string {
	switch {
	case l.Rule == credential.RuleDefault:
		return "${" + l.Name + "} without its default"
	case strings.HasPrefix(l.Field, "env.") && l.Key != "":
		return "${" + l.Key + "}"
	case l.Rule == credential.RuleURLPass:
		return "${" + credential.VarName(server+"_PASSWORD") + "} for the password in the URL"
	case l.Name != "":
		return "${" + credential.VarName(l.Name) + "}"
	}
	return "${" + credential.VarName(server+"_TOKEN") + "}"
}

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
	targets, _, err := writers.BuildTargets(nil, mcp, writers.Scope(toolprofiles.ScopeProject), d.w.Env)
	if err != nil {
		return []finding{{Level: levelWarn, Check: "secret", Message: err.Error(), Fix: "fix the tool profiles"}}
	}
	// Every path a tool may read its project file from: the one this
	// machine would write may not be the one committed.
	type place struct {
		t    *writers.Target
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
		}
	}
	if len(out) == 0 && len(checked) > 0 {
		out = append(out, finding{Level: levelOK, Check: "secret", Tool: "repo",
			Message: fmt.Sprintf("no literal credential in the %d MCP file(s) git tracks", len(checked))})
	}
	return out
}
