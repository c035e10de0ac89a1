package cmd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/termtext"
)

// A server's files: the venv its command runs in, its command when that is
// a path, and the scripts and paths its arguments name. sync warns when
// one is missing (the path is still written: it is known in advance, and
// CI has no venvs), doctor fails the server with the fix.

// missingPath is a file a stdio server names that is not there.
type missingPath struct {
	check string // venv, command or script
	field string // command, args[2]
	what  string // the sentence, without the fix: "script lib/s.py does not exist in the workspace root"
	fix   string
}

// missingPaths lists what a stdio server names that does not exist: the
// venv of a command inside it, an absolute or relative command, and each
// argument that names a script (by its ending: extensions.ScriptExts) or
// is an absolute path inside the root or the extension folder. A relative
// path still relative after resolution did not exist in the server's
// folder (its cwd, else the root). Flags, bare command names (looked up on
// PATH) and values holding an environment reference are not checked.
//
// The sentences are printed: every path and argument in them goes through
// termtext.Safe (display gives a path as shown, not yet escaped).
func missingPaths(s extensions.Server, ext *extensions.Extension, root string, display func(string) string) []missingPath {
	if s.Remote() {
		return nil
	}
	show := func(p string) string { return termtext.Safe(display(p)) }
	var out []missingPath
	venvGone := false
	if ext != nil {
		if _, err := os.Stat(ext.Venv); errors.Is(err, fs.ErrNotExist) {
			venvGone = true
		}
	}
	in := func(p string) bool { return ext != nil && under(ext.Venv, p) }
	where := fmt.Sprintf("%s:%d", termtext.Safe(s.Source), s.Line)
	// lost reports p, an absolute path, when it does not exist.
	lost := func(check, field, p string) {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			return
		}
		if venvGone && in(p) {
			for _, m := range out {
				if m.check == "venv" {
					return
				}
			}
			out = append(out, missingPath{check: "venv", field: field,
				what: fmt.Sprintf("venv %s does not exist", show(ext.Venv))})
			return
		}
		fix := "fix " + fieldName(field) + " in " + where
		noun := check
		if check == "script" {
			fix = "create it, or " + fix
			if !extensions.IsScript(p) {
				noun = "path"
			}
		}
		out = append(out, missingPath{check: check, field: field,
			what: fmt.Sprintf("%s %s does not exist", noun, show(p)), fix: fix})
	}
	// relative reports p, a path resolution left relative: it is not in
	// the server's folder. The extension folder is where authors often
	// mean, so the fix says when it is there.
	relative := func(check, field, p string) {
		if s.Dir == "" {
			return
		}
		folder := "the workspace root"
		if s.Dir != root {
			folder = show(s.Dir)
		}
		fix := fmt.Sprintf("create %s, or fix %s in %s", show(filepath.Join(s.Dir, p)), fieldName(field), where)
		if ext != nil {
			if _, err := os.Stat(filepath.Join(ext.Dir, p)); err == nil {
				fix = fmt.Sprintf("it is in the extension folder: write <<extension.dir>>/%s in %s", termtext.Safe(filepath.ToSlash(filepath.Clean(p))), where)
			}
		}
		out = append(out, missingPath{check: check, field: field,
			what: fmt.Sprintf("%s %s does not exist in %s", check, termtext.Safe(p), folder), fix: fix})
	}
	cmd := s.Command
	switch {
	case strings.Contains(cmd, "${"):
	case filepath.IsAbs(cmd):
		lost("command", "command", cmd)
	case strings.ContainsAny(cmd, `/\`):
		relative("command", "command", cmd)
	}
	for i, a := range s.Args {
		if strings.HasPrefix(a, "-") || strings.Contains(a, "${") {
			continue
		}
		field := fmt.Sprintf("args[%d]", i)
		switch {
		case filepath.IsAbs(a):
			if extensions.IsScript(a) || under(root, a) || (ext != nil && under(ext.Dir, a)) {
				lost("script", field, a)
			}
		case extensions.IsScript(a):
			relative("script", field, a)
		}
	}
	return out
}

// missingWarning is sync's one line for a server whose files are missing.
func missingWarning(s extensions.Server, missing []missingPath) string {
	whats := make([]string, len(missing))
	for i, m := range missing {
		whats[i] = m.what
	}
	return fmt.Sprintf("repo: server %q will not start on this machine: %s (repo doctor says how to fix it)",
		s.Name, strings.Join(whats, ", "))
}

// extension is the workspace's extension of that name, or nil.
func (w *workspace) extension(name string) *extensions.Extension {
	for i := range w.ws.Extensions {
		if w.ws.Extensions[i].Name == name {
			return &w.ws.Extensions[i]
		}
	}
	return nil
}

// fieldName is "the command" or "args[2]", for a fix.
func fieldName(field string) string {
	if field == "command" {
		return "the command"
	}
	return field
}
