package toolprofiles

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/repo-manager/repo/internal/cleanpath"
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
	if e.GOOS == "windows" && !windowsAbs(strings.ReplaceAll(v, `\`, "/")) || e.GOOS != "windows" && !Absolute(v) {
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
// (see DirVar): a relative value is ignored, as if it were unset. With
// env.GOOS "windows" the result is a Windows path (backslashes; absolute
// with a drive letter, a UNC prefix or a leading separator) on whatever OS
// repo runs, so that Windows locations can be resolved and tested
// anywhere; otherwise the host's path rules apply.
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
	if env.GOOS == "windows" {
		return windowsPath(out, root), nil
	}
	out = filepath.FromSlash(out)
	if !filepath.IsAbs(out) {
		out = cleanpath.Join(root, out)
	}
	return cleanpath.Clean(out), nil
}

// windowsPath joins p to root unless p is absolute, and cleans it, by
// Windows rules: both separators are accepted, backslashes are returned.
func windowsPath(p, root string) string {
	s := strings.ReplaceAll(p, `\`, "/")
	if !windowsAbs(s) {
		s = strings.TrimSuffix(strings.ReplaceAll(root, `\`, "/"), "/") + "/" + s
	}
	if strings.HasPrefix(s, "//") { // \\server\share\…: keep the UNC prefix
		s = "/" + path.Clean(s[1:])
	} else {
		s = path.Clean(s)
	}
	return strings.ReplaceAll(s, "/", `\`)
}

// windowsAbs: C:/…, //server/…, or rooted on the current drive (/…).
func windowsAbs(s string) bool {
	if strings.HasPrefix(s, "/") {
		return true
	}
	return len(s) >= 3 && s[1] == ':' && s[2] == '/' &&
		(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z')
}

// Choice is the file a target resolves to on one machine, and why.
type Choice struct {
	Path    string // "" when the scope has no file on this OS
	Install string // the installation that decided (Install.Name), if one did
	Reason  string // why this file, for repo doctor and repo tools
}

// Choose picks the file repo writes for t on env.GOOS. An installation of
// this OS whose marker folder exists decides first: its file is the one the
// tool reads, whether or not it exists yet. Otherwise the first candidate
// path that exists is chosen, else the first candidate, which repo creates.
// exists is Choose's only look at the machine, so the choice is a pure
// function of the OS, the environment and what exists.
func (t *Target) Choose(root string, env Env, exists func(string) (bool, error)) (Choice, error) {
	var absent []string
	for _, in := range t.Installs {
		if in.OS != env.GOOS {
			continue
		}
		marker, err := ExpandPath(in.Marker, root, env)
		if err != nil {
			return Choice{}, fmt.Errorf("%s: %w", in.Name, err)
		}
		ok, err := exists(marker)
		if err != nil {
			return Choice{}, err
		}
		if !ok {
			absent = append(absent, fmt.Sprintf("no %s (%s does not exist)", in.Name, marker))
			continue
		}
		p, err := ExpandPath(in.Path, root, env)
		if err != nil {
			return Choice{}, fmt.Errorf("%s: %w", in.Name, err)
		}
		return Choice{Path: p, Install: in.Name,
			Reason: fmt.Sprintf("%s is installed (%s exists): %s", in.Name, marker, in.Reason)}, nil
	}
	cands := t.PathsFor(env.GOOS)
	if len(cands) == 0 {
		return Choice{}, nil
	}
	var first string
	for i, c := range cands {
		p, err := ExpandPath(c, root, env)
		if err != nil {
			return Choice{}, err
		}
		if i == 0 {
			first = p
		}
		ok, err := exists(p)
		if err != nil {
			return Choice{}, err
		}
		if ok {
			return Choice{Path: p, Reason: joinReasons(absent, "the file exists")}, nil
		}
	}
	why := "no candidate exists: the first is created"
	if len(cands) == 1 {
		why = "the file does not exist yet: it is created"
	}
	return Choice{Path: first, Reason: joinReasons(absent, why)}, nil
}

func joinReasons(absent []string, why string) string {
	if len(absent) == 0 {
		return why
	}
	return strings.Join(absent, "; ") + "; " + why
}
