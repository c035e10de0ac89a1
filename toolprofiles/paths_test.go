package toolprofiles

import (
	"errors"
	"maps"
	"path/filepath"
	"slices"
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

// TestExpandPathWindows: Windows locations resolve by Windows rules on any
// host, from the variables a Windows machine sets.
func TestExpandPathWindows(t *testing.T) {
	vars := map[string]string{
		"APPDATA":      `C:\Users\ann\AppData\Roaming`,
		"LOCALAPPDATA": `C:\Users\ann\AppData\Local`,
		"SHARE":        `\\srv\profiles\ann`,
	}
	env := Env{Home: `C:\Users\ann`, GOOS: "windows", Getenv: func(n string) string { return vars[n] }}
	root := `D:\src\ws`
	tests := []struct{ path, want string }{
		{"${APPDATA}/Claude/claude_desktop_config.json", `C:\Users\ann\AppData\Roaming\Claude\claude_desktop_config.json`},
		{"${LOCALAPPDATA}/Packages/Claude_pzs8sxrjxfjjc/LocalCache/Roaming/Claude/claude_desktop_config.json",
			`C:\Users\ann\AppData\Local\Packages\Claude_pzs8sxrjxfjjc\LocalCache\Roaming\Claude\claude_desktop_config.json`},
		{"~/.lmstudio/mcp.json", `C:\Users\ann\.lmstudio\mcp.json`},
		{"~/.config/../.codex/config.toml", `C:\Users\ann\.codex\config.toml`},
		{".vscode/mcp.json", `D:\src\ws\.vscode\mcp.json`},
		{`.vs\mcp.json`, `D:\src\ws\.vs\mcp.json`},
		{"${SHARE}/.cursor/mcp.json", `\\srv\profiles\ann\.cursor\mcp.json`},
		{"${XDG_CONFIG_HOME:-~/.config}/kilo/kilo.json", `C:\Users\ann\.config\kilo\kilo.json`},
		{"c:/tools/x.json", `c:\tools\x.json`},
	}
	for _, tt := range tests {
		got, err := ExpandPath(tt.path, root, env)
		if err != nil {
			t.Errorf("ExpandPath(%q): %v", tt.path, err)
			continue
		}
		if got != tt.want {
			t.Errorf("ExpandPath(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
	if _, err := ExpandPath("${LOCALAPPDATA}/x", root, Env{GOOS: "windows", Home: `C:\Users\ann`}); err == nil {
		t.Error("an unset LOCALAPPDATA expanded without an error")
	}
}

// TestChoose decides Claude Desktop's file on each OS from the environment
// and what exists, with the built-in profile: on Windows the MSIX package,
// when its folder exists, wins over the classic %APPDATA% file even where
// that file exists (the packaged app ignores it).
func TestChoose(t *testing.T) {
	user := builtinSet(t).Get("claude-desktop").Scopes.User
	win := map[string]string{"APPDATA": `C:\Users\ann\AppData\Roaming`, "LOCALAPPDATA": `C:\Users\ann\AppData\Local`}
	const (
		pkg     = `C:\Users\ann\AppData\Local\Packages\Claude_pzs8sxrjxfjjc`
		msix    = pkg + `\LocalCache\Roaming\Claude\claude_desktop_config.json`
		classic = `C:\Users\ann\AppData\Roaming\Claude\claude_desktop_config.json`
		mac     = "/Users/ann/Library/Application Support/Claude/claude_desktop_config.json"
	)
	tests := []struct {
		name        string
		goos, home  string
		vars        map[string]string
		exists      []string
		want        string
		wantInstall string
		reason      string // part of the reason
	}{
		{name: "windows, nothing installed yet: the classic file is created",
			goos: "windows", home: `C:\Users\ann`, vars: win,
			want: classic, reason: "no Claude Desktop MSIX package (" + pkg + " does not exist)"},
		{name: "windows, classic installation with its file",
			goos: "windows", home: `C:\Users\ann`, vars: win, exists: []string{classic},
			want: classic, reason: "the file exists"},
		{name: "windows, MSIX package without a config file yet",
			goos: "windows", home: `C:\Users\ann`, vars: win, exists: []string{pkg},
			want: msix, wantInstall: "Claude Desktop MSIX package", reason: "ignores %APPDATA%"},
		{name: "windows, MSIX package and a leftover classic file: the package's file",
			goos: "windows", home: `C:\Users\ann`, vars: win, exists: []string{pkg, classic},
			want: msix, wantInstall: "Claude Desktop MSIX package", reason: pkg + " exists"},
		{name: "windows, MSIX package with its file",
			goos: "windows", home: `C:\Users\ann`, vars: win, exists: []string{pkg, msix},
			want: msix, wantInstall: "Claude Desktop MSIX package"},
		{name: "macos ignores the Windows package",
			goos: "darwin", home: "/Users/ann", vars: win, exists: []string{pkg},
			want: mac, reason: "does not exist yet"},
		{name: "macos with its file",
			goos: "darwin", home: "/Users/ann", exists: []string{mac},
			want: mac, reason: "the file exists"},
		{name: "linux: no Claude Desktop", goos: "linux", home: "/home/ann", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := Env{Home: tt.home, GOOS: tt.goos, Getenv: func(n string) string { return tt.vars[n] }}
			var asked []string
			c, err := user.Choose(`D:\ws`, env, func(p string) (bool, error) {
				asked = append(asked, p)
				return slices.Contains(tt.exists, p), nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if c.Path != tt.want || c.Install != tt.wantInstall || !strings.Contains(c.Reason, tt.reason) {
				t.Errorf("Choose = %+v (asked %q)\nwant path %q install %q, reason containing %q", c, asked, tt.want, tt.wantInstall, tt.reason)
			}
		})
	}
}

// TestChooseCandidates: without installations, the first candidate that
// exists wins, else the first (LM Studio's older home is used only where it
// alone exists); an error from the look at the disk is returned.
func TestChooseCandidates(t *testing.T) {
	user := builtinSet(t).Get("lmstudio").Scopes.User
	env := fakeEnv("darwin", nil)
	for _, tt := range []struct {
		exists []string
		want   string
	}{
		{nil, "/h/.lmstudio/mcp.json"},
		{[]string{"/h/.cache/lm-studio/mcp.json"}, "/h/.cache/lm-studio/mcp.json"},
		{[]string{"/h/.cache/lm-studio/mcp.json", "/h/.lmstudio/mcp.json"}, "/h/.lmstudio/mcp.json"},
	} {
		c, err := user.Choose("/r", env, func(p string) (bool, error) {
			return slices.Contains(tt.exists, filepath.ToSlash(p)), nil
		})
		if err != nil || filepath.ToSlash(c.Path) != tt.want {
			t.Errorf("exists %q: Choose = %+v, %v; want %s", tt.exists, c, err, tt.want)
		}
	}
	boom := errors.New("permission denied")
	if _, err := user.Choose("/r", env, func(string) (bool, error) { return false, boom }); !errors.Is(err, boom) {
		t.Errorf("Choose error = %v, want %v", err, boom)
	}
}

// TestUserFilesPerOS pins the user-scope file of every tool on macOS and on
// Windows, resolved as repo sync resolves it on a machine where none exists
// yet, from the variables each OS sets (a pure function of the OS and the
// environment). Claude Desktop's MSIX package is covered by TestChoose.
func TestUserFilesPerOS(t *testing.T) {
	winVars := map[string]string{"APPDATA": `C:\Users\ann\AppData\Roaming`, "LOCALAPPDATA": `C:\Users\ann\AppData\Local`}
	envs := map[string]Env{
		"darwin":  {Home: "/Users/ann", GOOS: "darwin", Getenv: func(string) string { return "" }},
		"windows": {Home: `C:\Users\ann`, GOOS: "windows", Getenv: func(n string) string { return winVars[n] }},
	}
	want := map[string]map[string]string{
		"darwin": {
			"abacus":         `/Users/ann/.abacusai/mcp.json`,
			"amazonq":        `/Users/ann/.aws/amazonq/mcp.json`,
			"amp":            `/Users/ann/.config/amp/settings.json`,
			"antigravity":    `/Users/ann/.gemini/config/mcp_config.json`,
			"augment":        `/Users/ann/.augment/settings.json`,
			"claude":         `/Users/ann/.claude.json`,
			"claude-desktop": `/Users/ann/Library/Application Support/Claude/claude_desktop_config.json`,
			"cline":          `/Users/ann/.cline/data/settings/cline_mcp_settings.json`,
			"codex":          `/Users/ann/.codex/config.toml`,
			"continue":       `/Users/ann/.continue/config.yaml`,
			"copilot":        `/Users/ann/.copilot/mcp-config.json`,
			"crush":          `/Users/ann/.config/crush/crush.json`,
			"cursor":         `/Users/ann/.cursor/mcp.json`,
			"devin":          `/Users/ann/.config/devin/mcp_config.json`,
			"factory":        `/Users/ann/.factory/mcp.json`,
			"gemini":         `/Users/ann/.gemini/settings.json`,
			"goose":          `/Users/ann/.config/goose/config.yaml`,
			"jetbrains":      `/Users/ann/.junie/mcp/mcp.json`,
			"kilo":           `/Users/ann/.config/kilo/kilo.json`,
			"kilo-legacy":    `/Users/ann/Library/Application Support/Code/User/globalStorage/kilocode.kilo-code/settings/mcp_settings.json`,
			"kimi":           `/Users/ann/.kimi-code/mcp.json`,
			"kiro":           `/Users/ann/.kiro/settings/mcp.json`,
			"lmstudio":       `/Users/ann/.lmstudio/mcp.json`,
			"opencode":       `/Users/ann/.config/opencode/opencode.json`,
			"qoder":          `/Users/ann/.qoder/settings.json`,
			"qwen":           `/Users/ann/.qwen/settings.json`,
			"roo":            `/Users/ann/Library/Application Support/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json`,
			"rovodev":        `/Users/ann/.rovodev/mcp.json`,
			"tabnine":        `/Users/ann/.tabnine/agent/settings.json`,
			"trae":           `/Users/ann/Library/Application Support/Trae/User/mcp.json`,
			"visual-studio":  "", // Windows only
			"vscode":         `/Users/ann/Library/Application Support/Code/User/mcp.json`,
			"warp":           `/Users/ann/.warp/.mcp.json`,
			"windsurf":       `/Users/ann/.codeium/windsurf/mcp_config.json`,
			"zed":            `/Users/ann/.config/zed/settings.json`,
		},
		"windows": {
			"abacus":         `C:\Users\ann\.abacusai\mcp.json`,
			"amazonq":        `C:\Users\ann\.aws\amazonq\mcp.json`,
			"amp":            `C:\Users\ann\.config\amp\settings.json`,
			"antigravity":    `C:\Users\ann\.gemini\config\mcp_config.json`,
			"augment":        `C:\Users\ann\.augment\settings.json`,
			"claude":         `C:\Users\ann\.claude.json`,
			"claude-desktop": `C:\Users\ann\AppData\Roaming\Claude\claude_desktop_config.json`,
			"cline":          `C:\Users\ann\.cline\data\settings\cline_mcp_settings.json`,
			"codex":          `C:\Users\ann\.codex\config.toml`,
			"continue":       `C:\Users\ann\.continue\config.yaml`,
			"copilot":        `C:\Users\ann\.copilot\mcp-config.json`,
			"crush":          `C:\Users\ann\.config\crush\crush.json`,
			"cursor":         `C:\Users\ann\.cursor\mcp.json`,
			"devin":          `C:\Users\ann\AppData\Roaming\devin\mcp_config.json`,
			"factory":        `C:\Users\ann\.factory\mcp.json`,
			"gemini":         `C:\Users\ann\.gemini\settings.json`,
			"goose":          `C:\Users\ann\AppData\Roaming\Block\goose\config\config.yaml`,
			"jetbrains":      `C:\Users\ann\.junie\mcp\mcp.json`,
			"kilo":           `C:\Users\ann\.config\kilo\kilo.json`,
			"kilo-legacy":    `C:\Users\ann\AppData\Roaming\Code\User\globalStorage\kilocode.kilo-code\settings\mcp_settings.json`,
			"kimi":           `C:\Users\ann\.kimi-code\mcp.json`,
			"kiro":           `C:\Users\ann\.kiro\settings\mcp.json`,
			"lmstudio":       `C:\Users\ann\.lmstudio\mcp.json`,
			"opencode":       `C:\Users\ann\.config\opencode\opencode.json`,
			"qoder":          `C:\Users\ann\.qoder\settings.json`,
			"qwen":           `C:\Users\ann\.qwen\settings.json`,
			"roo":            `C:\Users\ann\AppData\Roaming\Code\User\globalStorage\rooveterinaryinc.roo-cline\settings\mcp_settings.json`,
			"rovodev":        `C:\Users\ann\.rovodev\mcp.json`,
			"tabnine":        `C:\Users\ann\.tabnine\agent\settings.json`,
			"trae":           `C:\Users\ann\AppData\Roaming\Trae\User\mcp.json`,
			"visual-studio":  `C:\Users\ann\.mcp.json`,
			"vscode":         `C:\Users\ann\AppData\Roaming\Code\User\mcp.json`,
			"warp":           `C:\Users\ann\.warp\.mcp.json`,
			"windsurf":       `C:\Users\ann\.codeium\windsurf\mcp_config.json`,
			"zed":            `C:\Users\ann\AppData\Roaming\Zed\settings.json`,
		},
	}
	nothing := func(string) (bool, error) { return false, nil }
	s := builtinSet(t)
	for goos, files := range want {
		n := 0
		for _, p := range s.All() {
			if p.Scopes.User == nil {
				continue
			}
			n++
			w, ok := files[p.ID]
			if !ok {
				t.Errorf("%s/%s: not in the table", goos, p.ID)
				continue
			}
			c, err := p.Scopes.User.Choose(`D:\ws`, envs[goos], nothing)
			if err != nil || c.Path != w {
				t.Errorf("%s/%s: user file %q (%v), want %q", goos, p.ID, c.Path, err, w)
			}
		}
		if n != len(files) {
			t.Errorf("%s: %d tools have a user scope, the table has %d", goos, n, len(files))
		}
	}
}
