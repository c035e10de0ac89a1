package toolprofiles

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// workspaceProfile is a profile of a tool the workspace adds; body is
// appended after its header.
func workspaceProfile(id, body string) string {
	return `id = "` + id + `"
name = "Team tool"
mcp = true
evidence = "unverified"
sources = ["our wiki"]
` + body
}

// Each profile plays a workspace that tries to reach outside itself; each
// refusal names the file, the line of what is refused, and the rule.
func TestWorkspaceProfileConfined(t *testing.T) {
	for _, c := range []struct {
		name, file, body string
		want             []string // in the error
	}{
		{"builtin local scope", "claude.toml", `
[scopes.project]
paths = [".mcp.json"]
format = "json"
key = ["mcpServers"]

[scopes.local]
paths = ["~/.claude.json"]
format = "json"
key = ["mcpServers"]
`, []string{".repository/toolprofiles/claude.toml: line 12, column 2: scopes.local: a workspace profile describes only project-scope files", "~/.config/repo/toolprofiles/claude.toml"}},
		{"user scope of a new tool", "cargo.toml", `
[scopes.user]
paths = ["~/.cargo/config.toml"]
format = "toml"
key = ["target"]
[entry]
command = "array"
command_field = "runner"
`, []string{"cargo.toml: line 7, column 2: scopes.user:"}},
		{"user scope as a dotted key", "dotted.toml", `
scopes.user.paths = ["~/.x.json"]
scopes.user.format = "json"
scopes.user.key = ["mcpServers"]
`, []string{"dotted.toml: line 7, column 1: scopes.user:"}},
		{"home", "home.toml", "[scopes.project]\npaths = [\"~/.x.json\"]\nformat = \"json\"\nkey = [\"s\"]\n",
			[]string{"line 7, column 10: scopes.project.paths ~/.x.json: the home folder is outside the workspace"}},
		{"absolute", "abs.toml", "[scopes.project]\npaths = [\"a.json\", \"/etc/x.json\"]\nformat = \"json\"\nkey = [\"s\"]\n",
			[]string{"line 7, column 20: scopes.project.paths /etc/x.json: an absolute path"}},
		{"windows drive", "drive.toml", "[scopes.project]\npaths = [\"a.json\"]\npaths_windows = ['C:\\x.json']\nformat = \"json\"\nkey = [\"s\"]\n",
			[]string{`scopes.project.paths_windows C:\x.json: an absolute path`}},
		{"variable", "var.toml", "[scopes.project]\npaths = [\"${HOME}/x.json\"]\nformat = \"json\"\nkey = [\"s\"]\n",
			[]string{"scopes.project.paths ${HOME}/x.json: an environment variable can lead anywhere"}},
		{"variable inside", "var2.toml", "[scopes.project]\npaths = [\"sub${X}/x.json\"]\nformat = \"json\"\nkey = [\"s\"]\n",
			[]string{"an environment variable can lead anywhere"}},
		{"dot-dot", "up.toml", "[scopes.project]\npaths = [\"sub/../../x.json\"]\nformat = \"json\"\nkey = [\"s\"]\n",
			[]string{"'..' (or a name of only dots and spaces) leads out of the workspace"}},
		{"dot-dot backslash", "up2.toml", "[scopes.project]\npaths = ['sub\\..\\..\\x.json']\nformat = \"json\"\nkey = [\"s\"]\n",
			[]string{"leads out of the workspace"}},
		{"git config", "git.toml", "[scopes.project]\npaths = [\".git/config\"]\nformat = \"toml\"\nkey = [\"core\"]\n",
			[]string{"line 7, column 10: scopes.project.paths .git/config: .git is a version-control folder"}},
		{"git deep, upper case", "deep.toml", "[scopes.project]\npaths = [\"vendor/lib/.GIT/hooks/x.json\"]\nformat = \"json\"\nkey = [\"s\"]\n",
			[]string{".GIT is a version-control folder"}},
		{"git with a trailing dot", "dot.toml", "[scopes.project]\npaths = [\".git./config\"]\nformat = \"toml\"\nkey = [\"s\"]\n",
			[]string{"version-control folder"}},
		{"git short name", "short.toml", "[scopes.project]\npaths = [\"GIT~1/config\"]\nformat = \"toml\"\nkey = [\"s\"]\n",
			[]string{"version-control folder"}},
		{"git stream", "stream.toml", "[scopes.project]\npaths = [\".git::$INDEX_ALLOCATION/config\"]\nformat = \"toml\"\nkey = [\"s\"]\n",
			[]string{"version-control folder"}},
		{"zero-width joiner", "zwj.toml", "[scopes.project]\npaths = [\".g\u200cit/config\"]\nformat = \"toml\"\nkey = [\"s\"]\n",
			[]string{"unprintable character U+200C"}},
		{"mercurial", "hg.toml", "[scopes.project]\npaths = [\".hg/hgrc\"]\nformat = \"toml\"\nkey = [\"hooks\"]\n",
			[]string{".hg is a version-control folder"}},
		{"jujutsu", "jj.toml", "[scopes.project]\npaths = [\"x/.jj/repo/config.toml\"]\nformat = \"toml\"\nkey = [\"s\"]\n",
			[]string{".jj is a version-control folder"}},
		{"git file itself", "gitfile.toml", "[scopes.project]\npaths = [\"sub/.git\"]\nformat = \"json\"\nkey = [\"s\"]\n",
			[]string{".git is a version-control folder"}},
		{"repo's records", "records.toml", "[scopes.project]\npaths = [\".repository/mcp-managed.machine.json\"]\nformat = \"json\"\nkey = [\"targets\"]\n",
			[]string{"repo's own folder"}},
		{"control character", "esc.toml", "[scopes.project]\npaths = [\"a\\u001b]52;c;x\\u0007.json\"]\nformat = \"json\"\nkey = [\"s\"]\n",
			[]string{"line 7, column 10: must be printable: scopes.project.paths: control character U+001B at byte 1"}},
		{"installation", "inst.toml", "[scopes.project]\npaths = [\"a.json\"]\nformat = \"json\"\nkey = [\"s\"]\n[[scopes.project.installs]]\nname = \"pkg\"\nos = \"linux\"\nmarker = \"~/.pkg\"\npath = \"~/.pkg/mcp.json\"\nreason = \"x\"\n",
			[]string{"line 10, column 3: scopes.project.installs: an installation's file is outside the workspace"}},
		{"lock named .git", "lock.toml", "[scopes.project]\npaths = [\"sub/a.json\"]\nformat = \"json\"\nkey = [\"s\"]\nlock = { kind = \"mkdir\", path = \".git\" }\n",
			[]string{"scopes.project.lock.path .git"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := writeOverrides(t, map[string]string{c.file: workspaceProfile(strings.TrimSuffix(c.file, ".toml"), c.body)})
			_, err := Load(root, Env{Home: "/home/u", GOOS: "linux"})
			if err == nil {
				t.Fatal("loaded, want a refusal")
			}
			if !strings.Contains(err.Error(), ".repository/toolprofiles/"+c.file+":") {
				t.Errorf("error does not name the file:\n%v", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not contain %q:\n%v", w, err)
				}
			}
		})
	}
}

// Every refusal of a file is reported at once, one per line.
func TestWorkspaceProfileAllRefusals(t *testing.T) {
	root := writeOverrides(t, map[string]string{"x.toml": workspaceProfile("x", `
[scopes.project]
paths = ["~/a.json", ".git/b.json"]
format = "json"
key = ["s"]
[scopes.user]
paths = ["~/.x.json"]
format = "json"
key = ["s"]
`)})
	_, err := Load(root, Env{})
	if err == nil {
		t.Fatal("loaded")
	}
	if n := strings.Count(err.Error(), "\n") + 1; n != 3 {
		t.Errorf("%d refusals, want 3:\n%v", n, err)
	}
}

// What a workspace may describe loads: project files inside it, a path
// with "." segments, a built-in id's project scope.
func TestWorkspaceProfileInside(t *testing.T) {
	root := writeOverrides(t, map[string]string{
		"team.toml":   workspaceProfile("team", "[scopes.project]\npaths = [\"./.team/mcp.json\", \".config/team.json\"]\nformat = \"json\"\nkey = [\"mcpServers\"]\nlock = { kind = \"mkdir\", path = \"team.lock\" }\n"),
		"claude.toml": workspaceProfile("claude", "[scopes.project]\npaths = [\".claude/team-mcp.json\"]\nformat = \"json\"\nkey = [\"mcpServers\"]\n"),
	})
	s, err := Load(root, Env{})
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Get("claude"); !c.FromWorkspace() || c.Scopes.Local != nil {
		t.Errorf("project view of claude: %+v", c)
	}
	if c := s.ForScope(ScopeLocal).Get("claude"); c.FromWorkspace() || c.Scopes.Local == nil {
		t.Errorf("local view of claude: %+v", c)
	}
}

// The user's own folder may describe any scope and any path; its profiles
// apply in every scope, under a workspace's for the project scope.
func TestUserProfiles(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".config", "repo", "toolprofiles")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "cargo.toml"), []byte(workspaceProfile("cargo", `
[scopes.user]
paths = ["~/.cargo/mcp.toml"]
format = "toml"
key = ["mcp_servers"]
`)), 0o644)
	os.WriteFile(filepath.Join(dir, "claude.toml"), []byte(workspaceProfile("claude", `
[scopes.project]
paths = [".mcp.json"]
format = "json"
key = ["mcpServers"]
[scopes.local]
paths = ["~/.claude-work.json"]
format = "json"
key = ["mcpServers"]
`)), 0o644)
	root := writeOverrides(t, map[string]string{
		"claude.toml": workspaceProfile("claude", "[scopes.project]\npaths = [\".claude/team.json\"]\nformat = \"json\"\nkey = [\"mcpServers\"]\n"),
	})
	env := Env{Home: home, GOOS: "linux", Getenv: func(string) string { return "" }}
	s, err := Load(root, env)
	if err != nil {
		t.Fatal(err)
	}
	if p := s.ForScope(ScopeUser).Get("cargo"); p == nil || p.Origin() != "~/.config/repo/toolprofiles/cargo.toml" || p.FromWorkspace() {
		t.Errorf("user scope cargo = %+v", p)
	}
	if p := s.ForScope(ScopeLocal).Get("claude"); p == nil || p.Scopes.Local.Paths[0] != "~/.claude-work.json" {
		t.Errorf("local scope claude = %+v, want the user's", p)
	}
	if p := s.Get("claude"); !p.FromWorkspace() {
		t.Errorf("project scope claude = %+v, want the workspace's", p)
	}
	// A new id joins the sorted list; claude's keeps its place.
	wantUser := append(slices.Clone(wantIDs), "cargo")
	slices.Sort(wantUser)
	if got := s.ForScope(ScopeUser).IDs(); !slices.Equal(got, wantUser) {
		t.Errorf("user scope ids = %q\nwant %q", got, wantUser)
	}

	// XDG_CONFIG_HOME moves the folder; a relative value is ignored.
	xdg := t.TempDir()
	env.Getenv = func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return xdg
		}
		return ""
	}
	if got := UserDir(env); got != filepath.Join(xdg, "repo", "toolprofiles") {
		t.Errorf("UserDir = %s", got)
	}
	env.Getenv = func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return "rel/cfg"
		}
		return ""
	}
	if got := UserDir(env); got != dir {
		t.Errorf("UserDir with a relative XDG_CONFIG_HOME = %s, want %s", got, dir)
	}
	env.GOOS = "windows"
	env.Getenv = func(k string) string {
		if k == "APPDATA" {
			return `C:\Users\u\AppData\Roaming`
		}
		return ""
	}
	if got := UserDir(env); !strings.HasPrefix(got, `C:\Users\u\AppData\Roaming`) || !strings.HasSuffix(filepath.ToSlash(got), "repo/toolprofiles") {
		t.Errorf("UserDir on Windows = %s", got)
	}
}

func TestVCSFolder(t *testing.T) {
	for path, want := range map[string]string{
		".git/config": ".git", "a/b/.Git/x": ".Git", `a\.svn\x`: ".svn", ".hg": ".hg", "CVS/Root": "CVS",
		".git ./x": ".git .", "GIT~12/x": "GIT~12", "_DARCS~1/p": "_DARCS~1", ".bzr::$DATA/x": ".bzr::$DATA",
		".gitignore": "", ".github/x.json": "", "git/x": "", ".gitx/y": "", "my.git/x": "", "GIT~/x": "", ".mcp.json": "",
	} {
		if got := VCSFolder(path); got != want {
			t.Errorf("VCSFolder(%q) = %q, want %q", path, got, want)
		}
	}
}

// tomlPositions never fails on what the parser takes, and places every
// key the decoder could report.
func FuzzTOMLPositions(f *testing.F) {
	f.Add([]byte(validProfile))
	f.Add([]byte("a.b = { c = [1, \"x\", [2]] }\n[[t]]\nk = 1\n[[t]]\nk = 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		pos := tomlPositions(data)
		for k, p := range pos {
			if p.line < 1 || p.col < 1 {
				t.Fatalf("%q at %+v", k, p)
			}
		}
	})
}
