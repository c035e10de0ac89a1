package toolprofiles

import (
	"fmt"
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

// ExpandPath turns a profile path into a file path: ${VAR} and
// ${VAR:-default} are replaced from the environment (an unset variable with
// no default is an error, since guessing a config location would write the
// wrong file), a leading ~ becomes the home directory, and a relative path is
// joined to root.
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
		val := ""
		if env.Getenv != nil {
			val = env.Getenv(name)
		}
		if val == "" {
			if !hasDef {
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
			return "", fmt.Errorf("path %q: the home directory is not known (set HOME)", p)
		}
		out = env.Home + out[1:]
	}
	out = filepath.FromSlash(out)
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	return filepath.Clean(out), nil
}
