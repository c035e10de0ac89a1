package toolprofiles

import (
	"maps"
	"path/filepath"
	"strings"
	"testing"
)

func TestExpandPath(t *testing.T) {
	root := filepath.FromSlash("/work/repo")
	tests := []struct {
		name    string
		path    string
		vars    map[string]string
		home    string // default /h
		want    string // slash form; empty when an error is expected
		wantErr string
	}{
		{name: "default used when X unset", path: "${X:-~/.x}/f", want: "/h/.x/f"},
		{name: "default used when X empty", path: "${X:-~/.x}/f", vars: map[string]string{"X": ""}, want: "/h/.x/f"},
		{name: "X set", path: "${X:-~/.x}/f", vars: map[string]string{"X": "/opt/x"}, want: "/opt/x/f"},
		{name: "X set to a ~ path", path: "${X:-/d}/f", vars: map[string]string{"X": "~/y"}, want: "/h/y/f"},
		{name: "tilde alone", path: "~", want: "/h"},
		{name: "tilde slash", path: "~/a", want: "/h/a"},
		{name: "tilde inside a name is literal", path: "~a/b", want: "/work/repo/~a/b"},
		{name: "two variables", path: "${A}/${B:-b}/c", vars: map[string]string{"A": "/a"}, want: "/a/b/c"},
		{name: "absolute", path: "/etc/x.json", want: "/etc/x.json"},
		{name: "relative joined to root", path: ".cursor/mcp.json", want: "/work/repo/.cursor/mcp.json"},
		{name: "relative cleaned", path: "./a/../b.json", want: "/work/repo/b.json"},
		{name: "unset variable without default", path: "${APPDATA}/Code/User/mcp.json", wantErr: "environment variable APPDATA is not set"},
		{name: "unterminated", path: "${X:-~/.x/f", wantErr: "unterminated ${"},
		{name: "no home", path: "~/a", home: "-", wantErr: "home directory is not known"},
		// A variable the path starts with names a folder: a relative value
		// is ignored as if unset (XDG Base Directory spec).
		{name: "relative X ignored", path: "${X:-~/.x}/f", vars: map[string]string{"X": "rel"}, want: "/h/.x/f"},
		{name: "dot-relative X ignored", path: "${X:-~/.x}/f", vars: map[string]string{"X": "./cfg"}, want: "/h/.x/f"},
		{name: "parent-relative X ignored", path: "${X:-~/.x}/f", vars: map[string]string{"X": "../cfg"}, want: "/h/.x/f"},
		{name: "~ alone as X", path: "${X:-/d}/f", vars: map[string]string{"X": "~"}, want: "/h/f"},
		{name: "~name X is relative", path: "${X:-/d}/f", vars: map[string]string{"X": "~y"}, want: "/d/f"},
		{name: "relative X without default", path: "${APPDATA}/Code/User/mcp.json", vars: map[string]string{"APPDATA": "AppData"},
			wantErr: `environment variable APPDATA is "AppData", which is not an absolute path`},
		{name: "relative variable after the start is a name", path: "~/.config/${P:-p}/f", vars: map[string]string{"P": "work"}, want: "/h/.config/work/f"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := fakeEnv("linux", tt.vars)
			switch tt.home {
			case "-":
				env.Home = ""
			case "":
			default:
				env.Home = tt.home
			}
			got, err := ExpandPath(tt.path, root, env)
			if tt.wantErr != "" {
				if err == nil {
					t.Fatalf("ExpandPath(%q) = %q, want an error containing %q", tt.path, got, tt.wantErr)
				}
				if !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), tt.path) {
					t.Fatalf("ExpandPath(%q) error %q, want it to name the path and contain %q", tt.path, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ExpandPath(%q): %v", tt.path, err)
			}
			if want := filepath.FromSlash(tt.want); got != want {
				t.Fatalf("ExpandPath(%q) = %q, want %q", tt.path, got, want)
			}
		})
	}
}

func TestExpandPathNilGetenv(t *testing.T) {
	got, err := ExpandPath("${X:-~/.x}/f", "/r", Env{Home: "/h"})
	if err != nil || got != filepath.FromSlash("/h/.x/f") {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestDirVar(t *testing.T) {
	vars := map[string]string{"ABS": "/opt/x", "REL": "x/y", "DOT": ".", "TILDE": "~/s", "EMPTY": ""}
	env := fakeEnv("linux", vars)
	for _, tt := range []struct {
		name, want string
		ignored    bool
	}{
		{"ABS", "/opt/x", false},
		{"REL", "", true},
		{"DOT", "", true},
		{"TILDE", "/h/s", false},
		{"EMPTY", "", false},
		{"UNSET", "", false},
	} {
		got, ignored := env.DirVar(tt.name)
		if got != tt.want || ignored != tt.ignored {
			t.Errorf("DirVar(%s) with %s=%q = %q, %v; want %q, %v", tt.name, tt.name, vars[tt.name], got, ignored, tt.want, tt.ignored)
		}
	}
	env.Home = ""
	if got, ignored := env.DirVar("TILDE"); got != "" || !ignored {
		t.Errorf("DirVar(TILDE) without a home = %q, %v; want it ignored", got, ignored)
	}
	if got, ignored := (Env{}).DirVar("ABS"); got != "" || ignored {
		t.Errorf("DirVar without Getenv = %q, %v", got, ignored)
	}
}

func TestLeadingVar(t *testing.T) {
	for p, want := range map[string]string{
		"${XDG_CONFIG_HOME:-~/.config}/zed/settings.json": "XDG_CONFIG_HOME",
		"${APPDATA}/Code/User/mcp.json":                   "APPDATA",
		"~/.config/${P}/f":                                "",
		".cursor/mcp.json":                                "",
		"${UNTERMINATED":                                  "",
	} {
		if got := LeadingVar(p); got != want {
			t.Errorf("LeadingVar(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestBuiltinPathsIgnoreRelativeVars: for every variable a built-in
// profile path starts with (XDG_CONFIG_HOME, CLAUDE_CONFIG_DIR, CODEX_HOME,
// APPDATA, …), a relative value gives the path the variable's absence
// gives, or, without a default, an error naming the variable — never a
// file under the working directory.
func TestBuiltinPathsIgnoreRelativeVars(t *testing.T) {
	root := filepath.FromSlash("/r")
	seen := map[string]bool{}
	for _, p := range builtinSet(t).All() {
		for _, scope := range Scopes {
			tg := p.Scopes.Get(scope)
			if tg == nil {
				continue
			}
			for goos, vars := range varsFor {
				for _, path := range tg.PathsFor(goos) {
					name := LeadingVar(path)
					if name == "" {
						continue
					}
					seen[name] = true
					unset := maps.Clone(vars)
					delete(unset, name)
					want, wantErr := ExpandPath(path, root, fakeEnv(goos, unset))
					for _, rel := range []string{"rel", "./rel", "../rel", "rel/sub"} {
						relVars := maps.Clone(vars)
						relVars[name] = rel
						got, err := ExpandPath(path, root, fakeEnv(goos, relVars))
						switch {
						case wantErr != nil:
							if err == nil || !strings.Contains(err.Error(), name+` is "`+rel+`", which is not an absolute path`) {
								t.Errorf("%s %s/%s: %s=%s: %q, %v; want an error naming the relative %s", p.ID, scope, goos, name, rel, got, err, name)
							}
						case err != nil || got != want:
							t.Errorf("%s %s/%s: %s=%s expands %q to %q, %v; want %q, as when unset", p.ID, scope, goos, name, rel, path, got, err, want)
						}
					}
				}
			}
		}
	}
	for _, name := range []string{"XDG_CONFIG_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "APPDATA"} {
		if !seen[name] {
			t.Errorf("no built-in path starts with %s; the test no longer covers it", name)
		}
	}
}
