package toolprofiles

import (
	"path/filepath"
	"strings"
)

// fakeEnv is an Env with home /h and exactly the variables in vars.
func fakeEnv(goos string, vars map[string]string) Env {
	return Env{
		Home:   "/h",
		GOOS:   goos,
		Getenv: func(name string) string { return vars[name] },
	}
}

// slashed writes a path that ExpandPath returned for goos with forward
// slashes, so that tables can spell every OS's paths alike.
func slashed(goos, p string) string {
	if goos == "windows" {
		return strings.ReplaceAll(p, `\`, "/")
	}
	return filepath.ToSlash(p)
}
