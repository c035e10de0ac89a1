package toolprofiles

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Env is what path expansion may look at: the home directory, environment
// variables and the OS. Injected so tests decide all three.
type Env struct {
	Home   string
	GOOS   string
	Getenv func(string) string
}

// DirVar reads a directory variable: one whose value is the folder a path
// starts in (XDG_CONFIG_HOME, XDG_STATE_HOME, CODEX_HOME, APPDATA, …). A
// value must name one folder wherever repo runs: an absolute path, or ~ or
// ~/… (the home folder, as profile paths spell it). A relative value would
// put files under the working directory — inside the workspace, in another
// place from each subfolder — so, as the XDG Base Directory spec says of
// its variables, it is ignored: DirVar returns "" as for an unset variable,
// with ignored true so that repo doctor can say so.
func (e Env) DirVar(name string) (value string, ignored bool) {
	if e.Getenv == nil {
		return "", false
	}
	v := e.Getenv(name)
	if v == "" {
		return "", false
	}
	if v == "~" || strings.HasPrefix(v, "~/") {
		if e.Home == "" {
			return "", true
		}
		return e.Home + v[1:], false
	}
	if !Absolute(v) {
		return "", true
	}
	return v, false
}

// Absolute reports whether p names one folder whatever the working
// directory: an absolute path, or on Windows also a path rooted on the
// current drive (\Users\x).
func Absolute(p string) bool {
	return filepath.IsAbs(p) || p != "" && os.IsPathSeparator(p[0])
}

// LeadingVar is the variable a profile path starts with (${NAME} or
// ${NAME:-default}), or "" when it starts otherwise.
func LeadingVar(p string) string {
	if !strings.HasPrefix(p, "${") {
		return ""
	}
	j := strings.IndexByte(p, '}')
	if j < 0 {
		return ""
	}
	name, _, _ := strings.Cut(p[2:j], ":-")
	return name
}

// ExpandPath turns a profile path into a file path: ${VAR} and
// ${VAR:-default} are replaced from the environment (an unset variable with
// no default is an error, since guessing a config location would write the
// wrong file), a leading ~ becomes the home directory, and a relative path is
// joined to root. A variable the path starts with is a directory variable
// (see DirVar): a relative value is ignored, as if it were unset.
func ExpandPath(p, root string, env Env) (string, error) {
	var b strings.Builder
	rest := p
	for {
		i := strings.Index(rest, "${")
		if i < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:i])
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("path %q: unterminated ${", p)
		}
		expr := rest[i+2 : i+j]
		name, def, hasDef := strings.Cut(expr, ":-")
		val, ignored := "", false
		switch {
		case b.Len() == 0 && i == 0:
			val, ignored = env.DirVar(name)
		case env.Getenv != nil:
			val = env.Getenv(name)
		}
		if val == "" {
			if !hasDef {
				if ignored {
					return "", fmt.Errorf("path %q: environment variable %s is %q, which is not an absolute path, so repo ignores it; set it to an absolute path", p, name, env.Getenv(name))
				}
				return "", fmt.Errorf("path %q: environment variable %s is not set", p, name)
			}
			val = def
		}
		b.WriteString(val)
		rest = rest[i+j+1:]
	}
	out := b.String()
	if out == "~" || strings.HasPrefix(out, "~/") {
		if env.Home == "" {
			return "", fmt.Errorf("path %q: the home directory is not known (set HOME to an absolute path)", p)
		}
		out = env.Home + out[1:]
	}
	out = filepath.FromSlash(out)
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	return filepath.Clean(out), nil
}
