// Package serverpaths finds the files a server names that are not there:
// the venv its command runs in, its command when that is a path, and the
// scripts and paths its arguments name. repo sync warns when one is
// missing (the path is still written: it is known in advance, and CI has
// no venvs); repo doctor fails the server with the fix.
package serverpaths

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/cleanpath"
	"github.com/repo-manager/repo/internal/termtext"
)

// Missing is a file a stdio server names that is not there.
type Missing struct {
	Check string // venv, command or script
	Field string // command, args[2]
	What  string // the sentence, without the fix: "script lib/s.py does not exist in the workspace root"
	Fix   string
}

// Find lists what a stdio server names that does not exist: the venv of
// a command inside it, an absolute or relative command, and each argument
// that names a script (by its ending: extensions.ScriptExts) or is an
// absolute path inside the root or the extension folder. A relative path
// still relative after resolution did not exist in the server's folder
// (its cwd, else the root). Flags, bare command names (looked up on PATH)
// and values holding an environment reference are not checked.
//
// The sentences are printed: every path and argument in them goes through
// termtext.Safe (display gives a path as shown, not yet escaped).
func Find(s extensions.Server, ext *extensions.Extension, root string, display func(string) string) []Missing {
	if s.Remote() {
		return nil
	}
	f := &finder{s: s, ext: ext, root: root, display: display, where: fmt.Sprintf("%s:%d", termtext.Safe(s.Source), s.Line)}
	if ext != nil {
		if _, err := os.Stat(ext.Venv); errors.Is(err, fs.ErrNotExist) {
			f.venvGone = true
		}
	}
	cmd := s.Command
	switch {
	case strings.Contains(cmd, "${"):
	case filepath.IsAbs(cmd):
		f.lost("command", "command", cmd)
	case strings.ContainsAny(cmd, `/\`):
		f.relative("command", "command", cmd)
	}
	for i, a := range s.Args {
		if strings.HasPrefix(a, "-") || strings.Contains(a, "${") {
			continue
		}
		field := fmt.Sprintf("args[%d]", i)
		switch {
		case filepath.IsAbs(a):
			if extensions.IsScript(a) || Under(root, a) || (ext != nil && Under(ext.Dir, a)) {
				f.lost("script", field, a)
			}
		case extensions.IsScript(a):
			f.relative("script", field, a)
		}
	}
	return f.out
}

// finder is one server's search.
type finder struct {
	s        extensions.Server
	ext      *extensions.Extension
	root     string
	display  func(string) string
	where    string // the server's place in its MCP file
	venvGone bool
	out      []Missing
}

func (f *finder) show(p string) string { return termtext.Safe(f.display(p)) }

// lost reports p, an absolute path, when it does not exist: once as the
// venv when p is in a venv that is gone.
func (f *finder) lost(check, field, p string) {
	if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
		return
	}
	if f.venvGone && f.ext != nil && Under(f.ext.Venv, p) {
		for _, m := range f.out {
			if m.Check == "venv" {
				return
			}
		}
		f.out = append(f.out, Missing{Check: "venv", Field: field,
			What: fmt.Sprintf("venv %s does not exist", f.show(f.ext.Venv))})
		return
	}
	fix := "fix " + fieldName(field) + " in " + f.where
	noun := check
	if check == "script" {
		fix = "create it, or " + fix
		if !extensions.IsScript(p) {
			noun = "path"
		}
	}
	f.out = append(f.out, Missing{Check: check, Field: field,
		What: fmt.Sprintf("%s %s does not exist", noun, f.show(p)), Fix: fix})
}

// relative reports p, a path resolution left relative: it is not in the
// server's folder. The extension folder is where authors often mean, so
// the fix says when it is there.
func (f *finder) relative(check, field, p string) {
	s := f.s
	if s.Dir == "" {
		return
	}
	folder := "the workspace root"
	if s.Dir != f.root {
		folder = f.show(s.Dir)
	}
	fix := fmt.Sprintf("create %s, or fix %s in %s", f.show(cleanpath.Join(s.Dir, p)), fieldName(field), f.where)
	if f.ext != nil {
		if _, err := os.Stat(cleanpath.Join(f.ext.Dir, p)); err == nil {
			fix = fmt.Sprintf("it is in the extension folder: write <<extension.dir>>/%s in %s", termtext.Safe(filepath.ToSlash(filepath.Clean(p))), f.where)
		}
	}
	f.out = append(f.out, Missing{Check: check, Field: field,
		What: fmt.Sprintf("%s %s does not exist in %s", check, termtext.Safe(p), folder), Fix: fix})
}

// Warning is repo sync's one line for a server whose files are missing.
func Warning(s extensions.Server, missing []Missing) string {
	whats := make([]string, len(missing))
	for i, m := range missing {
		whats[i] = m.What
	}
	return fmt.Sprintf("repo: server %q will not start on this machine: %s (repo doctor says how to fix it)",
		s.Name, strings.Join(whats, ", "))
}

// fieldName is "the command" or "args[2]", for a fix.
func fieldName(field string) string {
	if field == "command" {
		return "the command"
	}
	return field
}

// Under reports whether p is dir or inside it.
func Under(dir, p string) bool {
	r, err := cleanpath.Rel(dir, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}
