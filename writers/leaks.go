package writers

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/repo-manager/repo/internal/credential"
	"github.com/repo-manager/repo/internal/gittrack"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/workspace"
	"github.com/repo-manager/repo/toolprofiles"
)

// commits tells which project files git commits: those it tracks, and
// those the workspace means to commit — every project file repo writes but
// the ones [mcp] gitignore makes each clone's own. Git is asked once, and
// only when an answer depends on it (a file the block ignores that may
// still be tracked); a plan asks from several files at once.
type commits struct {
	w       *workspace.Workspace
	targets []*target.Target
	once    sync.Once
	tracked map[string]bool
	err     error
}

func newCommits(w *workspace.Workspace, targets []*target.Target) *commits {
	return &commits{w: w, targets: targets}
}

// ignored: the workspace's .gitignore block lists the file (plan.IgnoredFiles).
func (c *commits) ignored(t *target.Target) bool {
	return c.w.Env.Gitignore && t.Machine
}

// committed reports whether git commits t's file. An error asking git
// counts the file as committed: when in doubt, no credential goes in.
func (c *commits) committed(t *target.Target) (bool, error) {
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
		c.tracked, c.err = c.w.Env.Git.Tracked(top, paths)
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
