package plan

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/repo-manager/repo/internal/gittrack"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/record"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// A per-clone policy (Env.Gitignore) meets git. A machine-specific
// project file is each clone's own, listed in the .gitignore block and
// written with this clone's paths. Two kinds of file do not fit:
//
//   - One git still tracks (committed before the policy, or added since).
//     Writing this clone's paths into it would change a file of the
//     repository on every clone — the ping-pong the policy exists to end —
//     and a clone that changed it could no longer pull the commit that
//     stops tracking it. So repo leaves it as the repository has it, and
//     says how to stop tracking it (git rm --cached), after which it is
//     this clone's own. What repo wrote into it on another clone is
//     recognised then as repo's (fromRepository).
//   - A settings file (Target.Settings: .zed/settings.json) that git
//     tracks holds the team's other settings. It is never ignored as a
//     whole nor untracked; repo leaves it alone, and the user chooses
//     another place for the servers (the tool's local or user scope) or
//     commits this clone's paths on purpose ([mcp] gitignore = false).

// TrackedFile is a machine-specific project file that git tracks, which a
// plan under a per-clone policy leaves as the repository has it (see
// above): Plan.Tracked.
type TrackedFile struct {
	Path    string   // as the target names it
	Display string   // as shown to people
	Tools   []string // the tools reading it, sorted
	// Settings: the file holds its tools' other settings; it stays
	// committed, and repo writes no servers into it at project scope.
	// Otherwise it is to be untracked (git rm --cached) to become this
	// clone's own.
	Settings bool
}

// MarkTracked asks git, once, which machine-specific project files of
// targets it tracks, at the path chosen or another of the tool's
// candidates (so that every clone, whichever candidate exists there,
// comes to the same answer), and sets Target.Tracked. Outside git it
// marks nothing.
//
// The same listing of git's index answers the run's later questions
// (env.Git): the records and the files they claim, the clone's identity,
// and the project files a credential would go into (writers' leak check).
// Each would otherwise be a listing of its own — where repo leaves the
// index to git, a git process — in every pre-commit hook.
func MarkTracked(env target.Env, targets []*target.Target) error {
	top, ok := gittrack.Top(env.Root)
	if !ok {
		return nil
	}
	var paths []string
	for _, t := range targets {
		if t.Scope != toolprofiles.ScopeProject || !t.Machine {
			continue
		}
		paths = append(paths, t.Path)
		paths = append(paths, t.Candidates...)
	}
	if len(paths) == 0 {
		return nil
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	env.Git.Ask(top, laterQuestions(env, targets, paths))
	tracked, err := env.Git.Tracked(top, paths)
	if err != nil {
		return err
	}
	for _, t := range targets {
		if t.Scope != toolprofiles.ScopeProject || !t.Machine {
			continue
		}
		t.Tracked = tracked[t.Path] || slices.ContainsFunc(t.Candidates, func(c string) bool { return tracked[c] })
	}
	return nil
}

// AskGit starts listing git's index, in the background (env.Git), for
// every path a project-scope run of profiles is to ask about: each path
// where a profile's project file may be (for a drop-in per extension, the
// folder of the drop-ins), both records and the folder of the clone's
// identity.
// The index is then read (or git run) on another core while the run
// translates, and MarkTracked and the questions after it are answered from
// that one listing. Outside git it does nothing.
func AskGit(env target.Env, profiles []*toolprofiles.Profile) {
	top, ok := gittrack.Top(env.Root)
	if !ok {
		return
	}
	paths := workspaceQuestions(env.Root)
	for _, p := range profiles {
		t := p.Scopes.Get(toolprofiles.ScopeProject)
		if t == nil || !p.MCP {
			continue
		}
		for _, c := range t.PathsFor(env.GOOS) {
			if i := strings.Index(c, toolprofiles.ExtensionVar); i >= 0 {
				// The drop-ins' folder; never the whole work tree, whose
				// every name git would list.
				if c = c[:strings.LastIndexByte(c[:i], '/')+1]; c == "" {
					continue
				}
			}
			if cp, err := toolprofiles.ExpandPath(c, env.Root, env.Env); err == nil {
				paths = append(paths, filepath.Clean(cp))
			}
		}
	}
	env.Git.Ask(top, paths)
}

// laterQuestions are paths, the run's questions about git after MarkTracked's,
// and what they will ask about in a run that keeps its records as it wrote
// them: both records, every project file of targets (the files the
// committed record claims, and those a credential would go into) and the
// folder of the clone's identity. A question about any other path lists
// again (gittrack.Session).
func laterQuestions(env target.Env, targets []*target.Target, paths []string) []string {
	all := append(slices.Clip(paths), workspaceQuestions(env.Root)...)
	for _, t := range targets {
		if t.Scope == toolprofiles.ScopeProject {
			all = append(all, t.Path)
		}
	}
	return all
}

// workspaceQuestions are the workspace's own paths a run asks about:
// both records (claims.go) and the folder of the clone's identity
// (identity.go).
func workspaceQuestions(root string) []string {
	return []string{record.ProjectPath(root), record.MachinePath(root), filepath.Dir(IdentityPath(root))}
}

// leaveTracked takes out of files those that a per-clone policy leaves as
// the repository has them (MarkTracked), and returns them as Plan.Tracked
// lists them.
func leaveTracked(env target.Env, files []*fileGroup) ([]*fileGroup, []TrackedFile) {
	if !env.Gitignore {
		return files, nil
	}
	var left []TrackedFile
	kept := files[:0:0]
	for _, file := range files {
		machine := slices.ContainsFunc(file.targets, func(t *target.Target) bool { return t.Machine })
		tracked := slices.ContainsFunc(file.targets, func(t *target.Target) bool { return t.Tracked })
		if file.targets[0].Scope != toolprofiles.ScopeProject || !machine || !tracked {
			kept = append(kept, file)
			continue
		}
		left = append(left, trackedFile(file.targets))
	}
	return kept, left
}

// trackedFile is the TrackedFile of the targets of one file.
func trackedFile(targets []*target.Target) TrackedFile {
	tf := TrackedFile{Path: targets[0].Path, Display: targets[0].Display}
	for _, t := range targets {
		tf.Tools = append(tf.Tools, t.Tools...)
		tf.Settings = tf.Settings || t.Settings
	}
	slices.Sort(tf.Tools)
	tf.Tools = slices.Compact(tf.Tools)
	return tf
}

// TrackedFiles are the machine-specific project files of targets that git
// tracks (MarkTracked), as a plan under a per-clone policy leaves them
// (Plan.Tracked), for a caller that does not plan (repo doctor).
func TrackedFiles(targets []*target.Target) []TrackedFile {
	var paths []string
	byPath := map[string][]*target.Target{}
	for _, t := range targets {
		if t.Scope != toolprofiles.ScopeProject {
			continue
		}
		if _, ok := byPath[t.Path]; !ok {
			paths = append(paths, t.Path)
		}
		byPath[t.Path] = append(byPath[t.Path], t)
	}
	var out []TrackedFile
	for _, p := range paths {
		group := byPath[p]
		if slices.ContainsFunc(group, func(t *target.Target) bool { return t.Machine }) && slices.ContainsFunc(group, func(t *target.Target) bool { return t.Tracked }) {
			out = append(out, trackedFile(group))
		}
	}
	return out
}

// fromRepository is, for a per-clone file in the git work tree whose top
// folder is top, whether its bytes are what git held for it
// (gittrack.FromRepository): asked at most once per file, and only when
// an entry in it is not this clone's by its record.
func fromRepository(top, path string) func() (bool, error) {
	return sync.OnceValues(func() (bool, error) {
		return gittrack.FromRepository(top, filepath.Clean(path))
	})
}

// recognised reports whether an entry no record of this clone's claims,
// cur, was written by repo on another clone: the file holds what git held
// for it (it came with the repository, see fromRepository), and cur is
// what repo writes for the server, here or at another workspace root.
// Such an entry is repo's, never the user's own: the user of this clone
// did not write it, and the repository could have committed the file
// anyway. An error asking git is kept in tp.err.
func (tp *targetPlan) recognised(name string, cur []byte, want ordered.Object) bool {
	if tp.fromRepo == nil {
		return false
	}
	w := ordered.JSON(want)
	if !sameJSON(cur, w) && !relocated(cur, w, tp.env.Root) {
		return false
	}
	ok, err := tp.fromRepo()
	if err != nil {
		tp.err = &FileError{File: tp.t.Display, Err: err}
		return true
	}
	if ok {
		tp.out.warnings = append(tp.out.warnings, fmt.Sprintf("%s: entry %q is taken as repo's: it is what repo writes for it, and git held this file as it is, so repo wrote it on another clone (the file came with the repository)", tp.t.Display, name))
	}
	return ok
}

// What --check reports for a file git tracks that a per-clone policy makes
// this clone's own (TrackedFile, not Settings): repo does not write it,
// the user stops tracking it.
const (
	ActionUntrack Action = "untrack"
	ReasonTracked Reason = "per-clone file git tracks"
)
