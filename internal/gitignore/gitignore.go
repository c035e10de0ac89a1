// Package gitignore is repo's block in the workspace's .gitignore: the
// machine-specific files repo writes (target.Target.Machine), so that a
// team commits the rest of the workspace and each clone writes its own.
// The block is delimited by two marker lines; every byte outside it is
// the user's and stays as it is. The package says what the block lists
// (Paths) and rewrites a .gitignore's bytes to hold it (Block.Rewrite);
// reading and writing the file, and the plan it is part of, are package
// internal/plan's.
package gitignore

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/cleanpath"
	"github.com/repo-manager/repo/internal/record"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// File is the .gitignore repo keeps its block in, relative to the
// workspace root: git reads it for the folder it is in, so the block's
// paths are anchored to the root whether or not the root is the top of
// the git repository (a workspace in a monorepo's subfolder).
const File = ".gitignore"

// The block's marker lines. A start marker is recognised by its prefix
// (MarkerPrefix), so that the explanation after it may change between
// versions.
const (
	MarkerStart  = "# >>> repo: machine-specific files, written by repo sync on each clone (repo rewrites this block; add your own lines outside it)"
	MarkerEnd    = "# <<< repo: machine-specific files"
	MarkerPrefix = "# >>> repo: machine-specific files"
)

// Paths is what the block lists for targets: every path a
// machine-specific target may be read from (all its candidates, so that
// the block is the same on a clone where another one exists), for the
// targets that get at least one entry, and the clone's own record of
// their entries (record.MachinePath) — but not a settings file git tracks
// (Target.Settings and Tracked), which holds the team's other settings.
// Paths outside root cannot be ignored there and are left out. The list is
// root-relative, slash-separated and sorted.
func Paths(root string, targets []*target.Target) []string {
	var out []string
	add := func(p string) {
		r, err := cleanpath.Rel(root, p)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
			return
		}
		if r = filepath.ToSlash(r); !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	for _, t := range targets {
		if t.Scope != toolprofiles.ScopeProject || !t.Machine || len(t.Entries) == 0 {
			continue
		}
		if t.Settings && t.Tracked {
			// The team's settings: never ignored whole (plan's tracked.go).
			continue
		}
		add(t.Path)
		for _, c := range t.Candidates {
			add(c)
		}
	}
	if len(out) > 0 {
		add(record.MachinePath(root))
	}
	slices.Sort(out)
	return out
}

// LineError is a .gitignore whose block repo cannot tell apart from the
// user's lines, at the line (1-based) where that shows.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("%s:%d:1: %v", File, e.Line, e.Err) }

func (e *LineError) Unwrap() error { return e.Err }

// escape writes a root-relative path as a .gitignore pattern that matches
// that one file: anchored with a leading slash, and with the characters
// git reads as a pattern escaped.
func escape(p string) string {
	var b strings.Builder
	b.WriteByte('/')
	for _, r := range p {
		if strings.ContainsRune(`\*?[`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	s := b.String()
	if strings.HasSuffix(s, " ") { // git trims unescaped trailing spaces
		s = s[:len(s)-1] + `\ `
	}
	return s
}

// userNames reports whether a user's own line (outside the block) names
// the file p, ignoring or un-ignoring it: the block then leaves p to the
// user. Only lines that name exactly p count (/p; p, or **/p, for a file
// in the root; p for a path with a slash in it, which git anchors), not
// wider patterns.
func userNames(line, p string) bool {
	text := strings.TrimRight(strings.TrimPrefix(line, "\ufeff"), " \t")
	if text == "" || strings.HasPrefix(text, "#") {
		return false
	}
	text = strings.TrimPrefix(text, "!")
	want := escape(p)[1:]
	if rest, ok := strings.CutPrefix(text, "/"); ok {
		return rest == want
	}
	if !strings.Contains(want, "/") {
		text = strings.TrimPrefix(text, "**/")
	}
	return text == want
}
