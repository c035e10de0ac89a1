// Package gittrack tells which of a workspace's paths git tracks. Several
// of repo's promises depend on it and not on what the workspace says: a
// record meant to stay on one clone must not be committed, the committed
// record may claim entries only in files git tracks, a virtual environment
// is never committed, and a file the team's policy makes per-clone must not
// still be tracked.
//
// The answer is what git ls-files lists with the paths as literal
// pathspecs. repo reads it from the index file itself where git would read
// that file plainly (index.go: versions 2 to 4, a linked worktree's, and
// the index of the commit being made, which a hook sees through
// GIT_INDEX_FILE), and asks git wherever else — a split or sparse index, a
// SHA-256 repository, a submodule's work tree, a variable that points git
// at another work tree —, which git reads right. Tracked lists once per
// question; a Session once for all of a run's questions.
package gittrack

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/cleanpath"
)

// Top returns the top folder of the git work tree that holds dir: the
// nearest folder at or above dir with a .git folder or file (a linked
// worktree or a submodule has a file). ok is false outside git.
func Top(dir string) (top string, ok bool) {
	for d := filepath.Clean(dir); ; {
		if _, err := os.Lstat(cleanpath.Join(d, ".git")); err == nil {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// ErrNoGit: the folder is in a git work tree, but git cannot be run.
var ErrNoGit = errors.New("git is not installed")

// Tracked reports, for each of paths (absolute), whether git's index holds
// it or, for a folder, any file under it. top is the work tree's top folder
// (Top); a path outside it is not tracked. The error names the work tree
// and says what git said.
func Tracked(top string, paths []string) (map[string]bool, error) {
	out, rels := relsOf(top, paths)
	if len(rels) == 0 {
		return out, nil
	}
	names, err := listed(top, specs(rels))
	if err != nil {
		return nil, err
	}
	answer(out, rels, names)
	return out, nil
}

// relsOf maps each of paths inside top to its path relative to top, in
// git's spelling, and starts the answer with every path untracked.
func relsOf(top string, paths []string) (out map[string]bool, rels map[string]string) {
	out = make(map[string]bool, len(paths))
	rels = make(map[string]string, len(paths))
	for _, p := range paths {
		out[p] = false
		rel, err := cleanpath.Rel(top, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		rels[p] = filepath.ToSlash(rel)
	}
	return out, rels
}

// specs are the relative paths of rels, sorted and each once.
func specs(rels map[string]string) []string {
	list := make([]string, 0, len(rels))
	for _, rel := range rels {
		list = append(list, rel)
	}
	slices.Sort(list)
	return slices.Compact(list)
}

// listed returns the names in git's index under any of rels (paths
// relative to top, each a literal pathspec): read from the index file
// itself where git would read it so (fromIndex), else from git.
func listed(top string, rels []string) (map[string]bool, error) {
	if names, ok := fromIndex(top, rels); ok {
		return names, nil
	}
	return askGit(top, rels)
}

// askGit asks git for the names in its index under any of rels.
func askGit(top string, rels []string) (map[string]bool, error) {
	args := make([]string, 0, 6+len(rels))
	args = append(args, "-C", top, "ls-files", "-z", "--full-name", "--")
	for _, rel := range rels {
		args = append(args, ":(literal)"+rel)
	}
	cmd := exec.Command("git", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, fmt.Errorf("%s is a git work tree, but %w: install git so that repo can tell which files git tracks", top, ErrNoGit)
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("asking git which files it tracks in %s: %s", top, msg)
	}
	names := map[string]bool{}
	for _, name := range bytes.Split(out, []byte{0}) {
		if len(name) > 0 {
			names[string(name)] = true
		}
	}
	return names, nil
}

// answer marks tracked each path of rels that names holds, or that is a
// folder of a name. names may hold more than rels asked for (Session): a
// name matches rel only when the pathspec rel would have listed it.
func answer(out map[string]bool, rels map[string]string, names map[string]bool) {
	for p, rel := range rels {
		if rel == "." {
			out[p] = len(names) > 0
			continue
		}
		if names[rel] {
			out[p] = true
			continue
		}
		for name := range names {
			if strings.HasPrefix(name, rel+"/") {
				out[p] = true
				break
			}
		}
	}
}
