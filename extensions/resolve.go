package extensions

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
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
	venv := filepath.Join(c.ExtDir, filepath.FromSlash(c.Venv))
	if c.GOOS == "windows" {
		return filepath.Join(venv, "Scripts", "python.exe")
	}
	return filepath.Join(venv, "bin", "python")
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

var pythonCommand = regexp.MustCompile(`^python(3(\.[0-9]+)?)?$`)

// Resolve turns a declaration into a server for this machine (DESIGN §3.3):
// a bare python command becomes the venv's python, "--root ." and
// "--root=." get the absolute root, and <<templates>> are filled in.
// Environment references (${NAME}) are left alone: they are for the tool to
// expand, and expanding them here would write secrets into files.
func Resolve(d Declaration, c Context, ext, source string) (Server, error) {
	s := Server{Name: d.Name, Extension: ext, ExtDir: c.ExtDir, Source: source, Line: d.Line,
		Spec: Spec{Transport: d.Transport}}
	fail := func(field, msg string) error {
		return &Error{File: source, Line: d.Line, Col: d.Col, Extension: ext, Server: d.Name, Field: field, Msg: msg}
	}
	vars := c.templates()
	fill := func(field, v string) (string, error) {
		out, err := expandTemplates(v, vars)
		if err != nil {
			return "", fail(field, err.Error())
		}
		return out, nil
	}
	var err error
	if pythonCommand.MatchString(d.Command) {
		s.Command = c.Python()
	} else if s.Command, err = fill("command", d.Command); err != nil {
		return s, err
	}
	if d.Args != nil {
		s.Args = make([]string, len(d.Args))
	}
	for i, a := range d.Args {
		switch {
		case a == "." && i > 0 && d.Args[i-1] == "--root":
			s.Args[i] = c.Root
			continue
		case a == "--root=.":
			s.Args[i] = "--root=" + c.Root
			continue
		}
		if s.Args[i], err = fill(fmt.Sprintf("args[%d]", i), a); err != nil {
			return s, err
		}
	}
	if s.Env, err = fillMap(d.Env, "env", fill); err != nil {
		return s, err
	}
	if s.Headers, err = fillMap(d.Headers, "headers", fill); err != nil {
		return s, err
	}
	if s.URL, err = fill("url", d.URL); err != nil {
		return s, err
	}
	if d.Cwd != "" {
		if s.Cwd, err = fill("cwd", d.Cwd); err != nil {
			return s, err
		}
		// Tools disagree on what a relative cwd is relative to; the root is
		// what the author means, so say it absolutely.
		if !filepath.IsAbs(s.Cwd) && !strings.HasPrefix(s.Cwd, "${") {
			if strings.Contains(s.Cwd, "${") {
				// Cleaning would rewrite the reference's text ("${X:-a/../b}").
				s.Cwd = c.Root + string(filepath.Separator) + s.Cwd
			} else {
				s.Cwd = filepath.Join(c.Root, filepath.FromSlash(s.Cwd))
			}
		}
	}
	return s, nil
}

func fillMap(in []KV, field string, fill func(string, string) (string, error)) ([]KV, error) {
	if in == nil {
		return nil, nil
	}
	out := make([]KV, len(in))
	for i, kv := range in {
		v, err := fill(field+"."+kv.Key, kv.Value)
		if err != nil {
			return nil, err
		}
		out[i] = KV{Key: kv.Key, Value: v}
	}
	return out, nil
}

// expandTemplates replaces <<name>> with its value. Only <<…>> is ours:
// {{…}} and ${{…}} belong to other tools and pass through untouched.
// Values are inserted once and never rescanned, so a value containing <<
// cannot recurse.
func expandTemplates(s string, vars map[string]string) (string, error) {
	if !strings.Contains(s, "<<") {
		return s, nil
	}
	var b strings.Builder
	rest := s
	for {
		i := strings.Index(rest, "<<")
		if i < 0 {
			b.WriteString(rest)
			return b.String(), nil
		}
		b.WriteString(rest[:i])
		j := strings.Index(rest[i+2:], ">>")
		if j < 0 {
			return "", fmt.Errorf("unterminated template in %q: a << needs a closing >> (known: %s)", s, strings.Join(TemplateNames(), ", "))
		}
		name := rest[i+2 : i+2+j]
		v, ok := vars[strings.TrimSpace(name)]
		if !ok {
			return "", fmt.Errorf("unknown template <<%s>> (known: %s)", name, strings.Join(TemplateNames(), ", "))
		}
		b.WriteString(v)
		rest = rest[i+2+j+2:]
	}
}
