package extensions

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/repo-manager/repo/internal/cleanpath"
	"github.com/repo-manager/repo/internal/termtext"
)

// Context is what resolution fills in.
type Context struct {
	Root   string // absolute workspace root
	Home   string // the user's home directory
	GOOS   string // decides the venv layout
	ExtDir string // absolute extension folder
	Venv   string // the manifest's runtime.python, relative to ExtDir
}

// Python is the extension's venv interpreter on this OS.
func (c Context) Python() string {
	venv := cleanpath.Join(c.ExtDir, filepath.FromSlash(c.Venv))
	if c.GOOS == "windows" {
		return cleanpath.Join(venv, "Scripts", "python.exe")
	}
	return cleanpath.Join(venv, "bin", "python")
}

func (c Context) templates() map[string]string {
	return map[string]string{
		"root":           c.Root,
		"extension.dir":  c.ExtDir,
		"runtime.python": c.Python(),
		"home":           c.Home,
	}
}

// TemplateNames lists the known templates, for error messages and docs.
func TemplateNames() []string {
	names := make([]string, 0, 4)
	for k := range (Context{}).templates() {
		names = append(names, "<<"+k+">>")
	}
	sort.Strings(names)
	return names
}

// isPythonCommand reports whether command names the Python interpreter
// the extension's venv provides: python, python3 or python3.N (what the
// pattern ^python(3(\.[0-9]+)?)?$ matches; read by hand, as compiling the
// pattern cost every run more than the rest of resolving).
func isPythonCommand(command string) bool {
	rest, ok := strings.CutPrefix(command, "python")
	if !ok || rest == "" {
		return ok
	}
	minor, ok := strings.CutPrefix(rest, "3")
	if !ok || minor == "" {
		return ok
	}
	digits, ok := strings.CutPrefix(minor, ".")
	return ok && digits != "" && strings.Trim(digits, "0123456789") == ""
}

// Resolve turns a declaration into a server for this machine
// (docs/extension-authors.md, "Resolution"):
// a bare python command becomes the venv's python, "--root ." and
// "--root=." get the absolute root, <<templates>> are filled in, and
// relative paths that exist in the server's folder are made absolute.
// Environment references (${NAME}) are left alone: they are for the tool to
// expand, and expanding them here would write secrets into files. Every
// piece of text resolution writes is recorded in s.Resolved, so that a
// tool can be told to keep it literal.
func Resolve(d Declaration, c Context, ext, source string) (Server, error) {
	s := Server{Name: d.Name, Extension: ext, ExtDir: c.ExtDir, Source: source, Line: d.Line,
		Spec: Spec{Transport: d.Transport, Auth: d.Auth}, Settings: d.Settings}
	fail := func(field, msg string) error {
		return &Error{File: source, Line: d.Line, Col: d.Col, Extension: ext, Server: d.Name, Field: field, Msg: msg}
	}
	vars := c.templates()
	fill := func(field, v string) (string, []Span, error) {
		out, spans, err := expandTemplates(v, vars)
		if err != nil {
			return "", nil, fail(field, err.Error())
		}
		return out, spans, nil
	}
	var err error
	if isPythonCommand(d.Command) {
		s.Command = c.Python()
		s.Resolved.Command = []Span{{0, len(s.Command), "runtime.python"}}
	} else if s.Command, s.Resolved.Command, err = fill("command", d.Command); err != nil {
		return s, err
	}
	if s.Args, s.Resolved.Args, err = resolveArgs(d.Args, c.Root, fill); err != nil {
		return s, err
	}
	if s.Env, s.Resolved.Env, err = fillMap(d.Env, "env", fill); err != nil {
		return s, err
	}
	if s.Headers, s.Resolved.Headers, err = fillMap(d.Headers, "headers", fill); err != nil {
		return s, err
	}
	if s.URL, s.Resolved.URL, err = fill("url", d.URL); err != nil {
		return s, err
	}
	if d.Cwd != "" {
		var spans []Span
		if s.Cwd, spans, err = fill("cwd", d.Cwd); err != nil {
			return s, err
		}
		s.Cwd, s.Resolved.Cwd = cwdUnderRoot(c.Root, s.Cwd, spans)
	}
	if s.Remote() {
		return s, nil
	}
	// A local server's relative paths are relative to its cwd, else the
	// root (Server.Dir), and made absolute where they exist.
	switch {
	case s.Cwd == "":
		s.Dir, s.Resolved.Dir = c.Root, []Span{{0, len(c.Root), "root"}}
	case filepath.IsAbs(s.Cwd) && !strings.Contains(s.Cwd, "${"):
		s.Dir, s.Resolved.Dir = s.Cwd, s.Resolved.Cwd
	}
	s.absolutize(c.GOOS)
	return s, nil
}

// resolveArgs resolves a server's arguments: "--root ." and "--root=."
// get the absolute root, and templates are filled in the others. On an
// error it returns the arguments resolved so far.
func resolveArgs(args []string, root string, fill func(field, v string) (string, []Span, error)) ([]string, [][]Span, error) {
	if args == nil {
		return nil, nil, nil
	}
	out := make([]string, len(args))
	spans := make([][]Span, len(args))
	for i, a := range args {
		switch {
		case a == "." && i > 0 && args[i-1] == "--root":
			out[i] = root
			spans[i] = []Span{{0, len(root), "root"}}
			continue
		case a == "--root=.":
			out[i] = "--root=" + root
			spans[i] = []Span{{len("--root="), len(out[i]), "root"}}
			continue
		}
		var err error
		if out[i], spans[i], err = fill(fmt.Sprintf("args[%d]", i), a); err != nil {
			return out, spans, err
		}
	}
	return out, spans, nil
}

// cwdUnderRoot returns a relative cwd (its template filled in, with the
// spans of what resolution wrote) joined to the root, and any other as it
// is. Tools disagree on what a relative cwd is relative to; the root is
// what the author means, so say it absolutely.
func cwdUnderRoot(root, cwd string, spans []Span) (string, []Span) {
	if filepath.IsAbs(cwd) || strings.HasPrefix(cwd, "${") {
		return cwd, spans
	}
	if strings.Contains(cwd, "${") || len(spans) > 0 {
		// Cleaning would rewrite the reference's text ("${X:-a/../b}")
		// and move the spans.
		prefix := root + string(filepath.Separator)
		cwd = prefix + cwd
		spans = shift(spans, len(prefix))
	} else {
		cwd = cleanpath.Join(root, filepath.FromSlash(cwd))
	}
	if strings.HasPrefix(cwd, root) {
		spans = append([]Span{{0, len(root), "root"}}, spans...)
	}
	return cwd, spans
}

// ScriptExts are the endings of the scripts an interpreter runs: an
// argument ending in one names a file, even with no folder in it.
var ScriptExts = []string{".py", ".js", ".mjs", ".cjs", ".ts", ".sh"}

// IsScript reports whether a names a script by its ending.
func IsScript(a string) bool {
	for _, e := range ScriptExts {
		if len(a) > len(e) && strings.HasSuffix(a, e) {
			return true
		}
	}
	return false
}

// absolutize writes the relative paths of the command and arguments that
// exist in s.Dir as absolute paths there. A tool starts a server in a
// folder of its own choosing — Claude Code in the folder it was started
// from, Claude Desktop with no project, a user-scope entry wherever the
// tool runs — so "lib/server.py" finds its file only when that folder is
// the root, which is what its author tried. The working directory could be set
// instead, but Claude Code ignores cwd and many tools have no such field;
// an absolute path means the same in every tool.
//
// Only text that names an existing file or folder relative to s.Dir is
// changed, and only text that reads as a path: for the command, one with
// a folder in it (a bare name is looked up on PATH); for an argument, one
// with a folder in it, ".", "..", or a file name with an extension
// (server.py, config.json, .env) — never a flag, a plain word (serve, or
// the module of "-m aifp" even where a folder aifp exists), a value
// resolution already filled in, or one holding an environment reference.
// s.Dir's bytes are marked as resolved, as for a relative cwd; the rest
// is the author's text.
func (s *Server) absolutize(goos string) {
	if s.Dir == "" {
		return
	}
	sep := "/"
	if goos == "windows" {
		sep = `/\`
	}
	if len(s.Resolved.Command) == 0 && strings.ContainsAny(s.Command, sep) {
		s.Command, s.Resolved.Command = s.under(s.Command, s.Resolved.Command)
	}
	for i, a := range s.Args {
		if len(At(s.Resolved.Args, i)) > 0 || strings.HasPrefix(a, "-") {
			continue
		}
		if a == "." || a == ".." || strings.ContainsAny(a, sep) || len(filepath.Ext(a)) > 1 {
			s.Args[i], s.Resolved.Args[i] = s.under(a, nil)
		}
	}
}

// under returns p as an absolute path in s.Dir when p is a relative path
// that exists there, else p and its spans unchanged. The author's ".."
// is kept ("<root>/../shared/x.py"), so that portable mode can still
// write the root as a workspace variable.
func (s *Server) under(p string, spans []Span) (string, []Span) {
	if p == "" || strings.Contains(p, "${") || strings.HasPrefix(p, "~") ||
		filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || filepath.VolumeName(p) != "" {
		return p, spans
	}
	rel := filepath.Clean(filepath.FromSlash(p))
	if _, err := os.Stat(cleanpath.Join(s.Dir, rel)); err != nil {
		return p, spans
	}
	dirSpans := append([]Span(nil), s.Resolved.Dir...)
	if rel == "." {
		return s.Dir, dirSpans
	}
	dir := s.Dir
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return dir + rel, dirSpans
}

// shift moves spans n bytes to the right.
func shift(spans []Span, n int) []Span {
	for i := range spans {
		spans[i].Start += n
		spans[i].End += n
	}
	return spans
}

func fillMap(in []KV, field string, fill func(string, string) (string, []Span, error)) ([]KV, [][]Span, error) {
	if in == nil {
		return nil, nil, nil
	}
	out := make([]KV, len(in))
	spans := make([][]Span, len(in))
	for i, kv := range in {
		v, sp, err := fill(field+"."+kv.Key, kv.Value)
		if err != nil {
			return nil, nil, err
		}
		out[i] = KV{Key: kv.Key, Value: v}
		spans[i] = sp
	}
	return out, spans, nil
}

// expandTemplates replaces <<name>> with its value and returns where each
// value landed. Only <<…>> is ours: {{…}} and ${{…}} belong to other tools
// and pass through untouched. Values are inserted once and never rescanned,
// so a value containing << cannot recurse.
func expandTemplates(s string, vars map[string]string) (string, []Span, error) {
	if !strings.Contains(s, "<<") {
		return s, nil, nil
	}
	var b strings.Builder
	var spans []Span
	rest := s
	for {
		i := strings.Index(rest, "<<")
		if i < 0 {
			b.WriteString(rest)
			return b.String(), spans, nil
		}
		b.WriteString(rest[:i])
		j := strings.Index(rest[i+2:], ">>")
		if j < 0 {
			return "", nil, fmt.Errorf("unterminated template in %q: a << needs a closing >> (known: %s)", s, strings.Join(TemplateNames(), ", "))
		}
		name := rest[i+2 : i+2+j]
		v, ok := vars[strings.TrimSpace(name)]
		if !ok {
			return "", nil, fmt.Errorf("unknown template <<%s>> (known: %s)", termtext.Safe(name), strings.Join(TemplateNames(), ", "))
		}
		if !utf8.ValidString(v) {
			// The home folder, say: the tools' files are UTF-8 text, and the
			// path would be written with U+FFFD, a folder that does not exist.
			return "", nil, fmt.Errorf("<<%s>> is %s, which is not UTF-8: a config file cannot name it", strings.TrimSpace(name), termtext.Safe(v))
		}
		if v != "" {
			spans = append(spans, Span{b.Len(), b.Len() + len(v), strings.TrimSpace(name)})
		}
		b.WriteString(v)
		rest = rest[i+2+j+2:]
	}
}
