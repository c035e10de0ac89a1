package plan

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/regfile"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers/internal/fileio"
	"github.com/repo-manager/repo/writers/target"
)

// The workspace's .gitignore, with a block of lines that repo keeps: the
// machine-specific files it writes (Target.Machine), so that a team
// commits the rest of the workspace and each clone writes its own. The
// block is delimited by two marker lines; every byte outside it is the
// user's and stays as it is.

// IgnoreFile is the .gitignore repo keeps its block in, relative to the
// workspace root: git reads it for the folder it is in, so the block's
// paths are anchored to the root whether or not the root is the top of
// the git repository (a workspace in a monorepo's subfolder).
const IgnoreFile = ".gitignore"

// The block's marker lines. A start marker is recognised by its prefix
// (IgnoreMarkerPrefix), so that the explanation after it may change
// between versions.
const (
	IgnoreMarkerStart  = "# >>> repo: machine-specific files, written by repo sync on each clone (repo rewrites this block; add your own lines outside it)"
	IgnoreMarkerEnd    = "# <<< repo: machine-specific files"
	IgnoreMarkerPrefix = "# >>> repo: machine-specific files"
)

// Reasons for changes to the .gitignore.
const (
	ReasonNotIgnored   Reason = "machine-specific file not ignored"
	ReasonNoLongerOurs Reason = "file repo no longer writes"
	ReasonUserLine     Reason = "named by a line of the user's"
	ReasonIgnoreBlock  Reason = "ignore block out of date"
	ReasonStaged       Reason = "repo's staged copies not ignored"
)

// IgnoreBlock is what repo's block in the .gitignore is to list (see
// Options.Ignore).
type IgnoreBlock struct {
	// Paths are root-relative and slash-separated (IgnoredFiles).
	Paths []string
}

// IgnoredFiles is what the .gitignore block lists for targets: every path
// a machine-specific target may be read from (all its candidates, so that
// the block is the same on a clone where another one exists), for the
// targets that get at least one entry, and the clone's own record of
// their entries — but not a settings file git tracks (Target.Settings,
// MarkTracked), which holds the team's other settings. Paths outside the root cannot be ignored there and are
// left out. The list is sorted.
func IgnoredFiles(env target.Env, targets []*target.Target) []string {
	var out []string
	add := func(p string) {
		r, err := filepath.Rel(env.Root, p)
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
			// The team's settings: never ignored whole (tracked.go).
			continue
		}
		add(t.Path)
		for _, c := range t.Candidates {
			add(c)
		}
	}
	if len(out) > 0 {
		add(MachineRecordPath(env.Root))
	}
	slices.Sort(out)
	return out
}

// ignoreLine is one line of a .gitignore, with its terminator.
type ignoreLine struct {
	text string // without the terminator
	eol  string // "\n", "\r\n" or "" (the last line, unterminated)
}

func splitIgnoreLines(data []byte) []ignoreLine {
	var lines []ignoreLine
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			lines = append(lines, ignoreLine{text: string(data)})
			break
		}
		text, eol := string(data[:i]), "\n"
		if strings.HasSuffix(text, "\r") {
			text, eol = text[:len(text)-1], "\r\n"
		}
		lines = append(lines, ignoreLine{text: text, eol: eol})
		data = data[i+1:]
	}
	return lines
}

// ignoreBlockAt is where repo's block is in lines: the indexes of its
// marker lines, or -1, -1. A marker without its partner, or two blocks,
// is an error at the line: repo never guesses which lines are its own.
func ignoreBlockAt(lines []ignoreLine) (start, end int, err error) {
	start, end = -1, -1
	for i, l := range lines {
		text := strings.TrimRight(strings.TrimPrefix(l.text, "\ufeff"), " \t")
		switch {
		case strings.HasPrefix(text, IgnoreMarkerPrefix):
			if start >= 0 {
				if end < 0 {
					return 0, 0, &FileError{File: IgnoreFile, Line: i + 1, Col: 1, Err: fmt.Errorf("repo's block that starts on line %d has no end marker before this second start marker; delete one of them, or end the block with the line %q", start+1, IgnoreMarkerEnd)}
				}
				return 0, 0, &FileError{File: IgnoreFile, Line: i + 1, Col: 1, Err: fmt.Errorf("a second block of repo's (the first is on lines %d-%d); delete one of them", start+1, end+1)}
			}
			start = i
		case text == IgnoreMarkerEnd:
			if start < 0 || end >= 0 {
				return 0, 0, &FileError{File: IgnoreFile, Line: i + 1, Col: 1, Err: fmt.Errorf("the end marker of repo's block, without its start marker before it; delete the line, or put the start marker back")}
			}
			end = i
		}
	}
	if start >= 0 && end < 0 {
		return 0, 0, &FileError{File: IgnoreFile, Line: start + 1, Col: 1, Err: fmt.Errorf("repo's block starts here but has no end marker; end it with the line %q, or delete the block", IgnoreMarkerEnd)}
	}
	return start, end, nil
}

// escapeIgnorePath writes a root-relative path as a .gitignore pattern
// that matches that one file: anchored with a leading slash, and with the
// characters git reads as a pattern escaped.
func escapeIgnorePath(p string) string {
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
	want := escapeIgnorePath(p)[1:]
	if rest, ok := strings.CutPrefix(text, "/"); ok {
		return rest == want
	}
	if !strings.Contains(want, "/") {
		text = strings.TrimPrefix(text, "**/")
	}
	return text == want
}

// planIgnore plans the workspace's .gitignore: repo's block made to list
// the paths of b that no line of the user's names, in place; created at
// the end of the file; removed when it would be empty. The file's line
// ending is kept, and a file that does not end in a newline still does
// not: the block then owns the line break before it.
func planIgnore(env target.Env, root realRoot, b *IgnoreBlock) (*FilePlan, error) {
	path := filepath.Join(env.Root, IgnoreFile)
	t := &target.Target{Path: path, Display: IgnoreFile, Scope: toolprofiles.ScopeProject}
	file := &fileGroup{path: path}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		file.path, file.real = real, true
	} else if !fileio.IsMissing(err) {
		return nil, &FileError{File: IgnoreFile, Err: err}
	}
	if err := checkWritable(env, root, file, t); err != nil {
		return nil, err
	}
	fp := &FilePlan{Path: file.path, Display: IgnoreFile, Scope: ScopeGitignore, Mode: newFileMode(true)}
	data, err := regfile.ReadFile(file.path)
	switch {
	case err == nil:
		fp.Existed, fp.Before = true, data
	case errors.Is(err, fs.ErrNotExist):
	default:
		return nil, &FileError{File: IgnoreFile, Err: fmt.Errorf("cannot read: %w", fileio.UnwrapPath(err))}
	}
	lines := splitIgnoreLines(data)
	start, end, err := ignoreBlockAt(lines)
	if err != nil {
		return nil, err
	}
	var user, old []ignoreLine
	for i, l := range lines {
		if start >= 0 && i >= start && i <= end {
			if i > start && i < end {
				old = append(old, l)
			}
			continue
		}
		user = append(user, l)
	}
	var paths []string
	for _, p := range slices.Sorted(slices.Values(b.Paths)) {
		if !slices.ContainsFunc(user, func(l ignoreLine) bool { return userNames(l.text, p) }) {
			paths = append(paths, p)
		}
	}
	eol := "\n"
	if len(lines) > 0 && lines[0].eol != "" {
		eol = lines[0].eol
	}
	// A last line without a newline that ends in a carriage return gets
	// the newline that makes it CRLF, and when it is the only line, the
	// block is CRLF: as the file will read back.
	lastCR := len(lines) > 0 && lines[len(lines)-1].eol == "" && strings.HasSuffix(lines[len(lines)-1].text, "\r")
	if lastCR && len(lines) == 1 {
		eol = "\r\n"
	}
	// The block's lines: the files, then the names repo stages their new
	// versions under next to them (fileio.StagedPattern), which exist
	// during a run and after a killed one until the next: a copy of an
	// ignored file, secrets and all, that git add -A must not take.
	var want []string
	for _, p := range paths {
		want = append(want, escapeIgnorePath(p))
	}
	if len(want) > 0 {
		want = append(want, fileio.StagedPattern)
	}
	var block []ignoreLine
	if len(want) > 0 {
		block = append(block, ignoreLine{text: IgnoreMarkerStart, eol: eol})
		for _, p := range want {
			block = append(block, ignoreLine{text: p, eol: eol})
		}
		block = append(block, ignoreLine{text: IgnoreMarkerEnd, eol: eol})
	}
	var out []ignoreLine
	switch {
	case start >= 0:
		out = append(out, lines[:start]...)
		if lines[end].eol == "" && len(block) > 0 {
			block[len(block)-1].eol = "" // the file did not end in a newline
		}
		if lines[end].eol == "" && len(block) == 0 && start > 0 {
			// The block was put after a last line without a newline:
			// that line break was the block's.
			out[len(out)-1].eol = ""
		}
		out = append(out, block...)
		out = append(out, lines[end+1:]...)
	case len(block) > 0:
		out = append(out, lines...)
		if n := len(out); n > 0 && out[n-1].eol == "" {
			out[n-1].eol = eol
			if lastCR {
				out[n-1].text, out[n-1].eol = strings.TrimSuffix(out[n-1].text, "\r"), "\r\n"
			}
			block[len(block)-1].eol = ""
		}
		out = append(out, block...)
	default:
		out = lines
	}
	var after bytes.Buffer
	for _, l := range out {
		after.WriteString(l.text)
		after.WriteString(l.eol)
	}
	fp.After = after.Bytes()
	if !fp.Existed && len(block) == 0 {
		fp.After = nil
	}
	if !fp.Changed() {
		fp.After = fp.Before
		return fp, nil
	}
	had := make([]string, 0, len(old))
	for _, l := range old {
		had = append(had, strings.TrimRight(l.text, " \t"))
	}
	// The staged copies' line is part of the block, as its markers are:
	// a change only when a block of an earlier version lacks it.
	for _, p := range want {
		switch {
		case slices.Contains(had, p):
		case p != fileio.StagedPattern:
			fp.Changes = append(fp.Changes, Change{Action: ActionAdd, Entry: p, Reason: ReasonNotIgnored})
		case start >= 0:
			fp.Changes = append(fp.Changes, Change{Action: ActionAdd, Entry: p, Reason: ReasonStaged})
		}
	}
	for _, p := range had {
		if p != "" && p != fileio.StagedPattern && !strings.HasPrefix(p, "#") && !slices.Contains(want, p) {
			reason := ReasonNoLongerOurs
			if slices.ContainsFunc(b.Paths, func(q string) bool { return escapeIgnorePath(q) == p }) {
				reason = ReasonUserLine
			}
			fp.Changes = append(fp.Changes, Change{Action: ActionRemove, Entry: p, Reason: reason})
		}
	}
	if len(fp.Changes) == 0 {
		fp.Changes = []Change{{Action: ActionUpdate, Reason: ReasonIgnoreBlock}}
	}
	return fp, nil
}
