package toolprofiles

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/repo-manager/repo/internal/termtext"
)

// Where a profile was defined decides what it may describe. The built-in
// profiles and the user's own (UserDir) describe every scope; a
// workspace's (.repository/toolprofiles/) comes with the repository, which
// may be hostile, so it describes only project-scope files inside the
// workspace — what the repository could commit itself — and is never used
// for the local and user scopes, whose files are the user's.
type source int

const (
	sourceBuiltin source = iota
	sourceUser
	sourceWorkspace
)

// FromWorkspace reports whether the profile was defined by the workspace
// (.repository/toolprofiles/): one that applies to the project scope only.
func (p *Profile) FromWorkspace() bool { return p.source == sourceWorkspace }

// vcsFolders are the folders in which version-control systems keep their
// own state: a file written there can make the system run a command (a
// hook, git's core.fsmonitor or core.sshCommand, a Mercurial hook), so
// repo writes no file under one.
var vcsFolders = []string{".git", ".hg", ".svn", "_svn", ".jj", ".bzr", "cvs", "_darcs", ".pijul", ".sl", ".fslckout", "_fossil_"}

// VCSFolder returns the segment of path (relative, either separator) that
// names a version-control folder, as its file system may read it, or "".
// Names are compared as Windows and macOS file systems compare them: case
// folded, without trailing dots and spaces (".git. " is ".git" on Windows),
// without an NTFS stream suffix (".git::$INDEX_ALLOCATION"), without the
// invisible format characters HFS+ ignores (".g\u200cit"), and as an 8.3
// short name ("GIT~1"). Refusing these on every OS costs nothing: no tool
// reads its MCP servers from such a folder.
func VCSFolder(path string) string {
	for _, seg := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '\\' }) {
		if isVCSName(seg) {
			return seg
		}
	}
	return ""
}

func isVCSName(seg string) bool {
	s := strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return unicode.ToLower(r)
	}, seg)
	if i := strings.IndexByte(s, ':'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimRight(s, ". ")
	for _, v := range vcsFolders {
		if s == v {
			return true
		}
		// The 8.3 short name: the first six characters without the
		// leading dot, "~" and a number.
		short := strings.TrimPrefix(v, ".")
		if len(short) > 6 {
			short = short[:6]
		}
		if rest, ok := strings.CutPrefix(s, short+"~"); ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
			return true
		}
	}
	return false
}

// confine checks a workspace profile against what a workspace may
// describe, and returns every refusal, each naming the file, the line and
// the rule. userDir is where the user's own profiles go, for the message.
func (p *Profile) confine(data []byte, userDir string) error {
	pos := tomlPositions(data)
	var errs []error
	refuse := func(path []string, format string, args ...any) {
		where := ""
		if at, ok := pos.at(path...); ok {
			where = fmt.Sprintf(" line %d, column %d:", at.line, at.col)
		}
		errs = append(errs, fmt.Errorf("%s:%s %s", p.origin, where, fmt.Sprintf(format, args...)))
	}
	own := "your own folder"
	if userDir != "" {
		own = userDir
	}
	for _, scope := range []string{ScopeLocal, ScopeUser} {
		if p.Scopes.Get(scope) == nil {
			continue
		}
		refuse([]string{"scopes", scope}, "scopes.%s: a workspace profile describes only project-scope files inside the workspace; %s-scope files are yours, outside it, so a profile for them goes in %s (for a tool repo knows, its built-in %s scope applies whatever the workspace says)", scope, scope, own, scope)
	}
	if t := p.Scopes.Project; t != nil {
		for _, field := range []struct {
			name  string
			paths []string
		}{{"paths", t.Paths}, {"paths_linux", t.PathsLinux}, {"paths_darwin", t.PathsDarwin}, {"paths_windows", t.PathsWindows}} {
			for i, path := range field.paths {
				if why := workspacePath(path); why != "" {
					refuse([]string{"scopes", "project", field.name, fmt.Sprint(i)}, "scopes.project.%s %s: %s", field.name, termtext.Safe(path), why)
				}
			}
		}
		if len(t.Installs) > 0 {
			refuse([]string{"scopes", "project", "installs"}, "scopes.project.installs: an installation's file is outside the workspace, where a workspace profile may not lead; describe installations in %s", own)
		}
		if l := t.Lock; l != nil && (VCSFolder(l.Path) != "" || strings.EqualFold(l.Path, ".repository")) {
			refuse([]string{"scopes", "project", "lock", "path"}, "scopes.project.lock.path %s: repo creates no lock named like a version-control folder or its own", termtext.Safe(l.Path))
		}
	}
	return errors.Join(errs...)
}

// workspacePath says why a project path of a workspace profile could lead
// outside the workspace or into a folder repo must not write, or "".
func workspacePath(p string) string {
	if err := termtext.Check(p); err != nil {
		return fmt.Sprintf("%v; give a plain path relative to the workspace root", err)
	}
	segs := strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' })
	switch {
	case strings.TrimSpace(p) == "":
		return "give a path relative to the workspace root"
	case strings.HasPrefix(p, "~"):
		return "the home folder is outside the workspace; a workspace profile describes only files inside it"
	case strings.Contains(p, "${"):
		return "an environment variable can lead anywhere; a workspace profile gives a plain path relative to the workspace root"
	case strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || len(p) >= 2 && p[1] == ':':
		return "an absolute path; a workspace profile gives a path relative to the workspace root"
	}
	for _, s := range segs {
		if strings.Trim(s, ". ") == "" && s != "." {
			return "'..' (or a name of only dots and spaces) leads out of the workspace; give a path inside it"
		}
	}
	if v := VCSFolder(p); v != "" {
		return fmt.Sprintf("%s is a version-control folder, whose files can make it run commands; repo writes nothing there", termtext.Safe(v))
	}
	if len(segs) > 0 && strings.EqualFold(strings.TrimRight(segs[0], ". "), ".repository") {
		return "repo's own folder (.repository/) holds the workspace's extensions and ownership records, not a tool's file"
	}
	return ""
}
