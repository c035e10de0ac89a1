package extensions

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeTree creates files under dir from a map of slash paths to contents.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const manifest = `name = "ext"
version = "1.0.0"
[provides]
mcp = "mcp.json"
`

func loadOne(t *testing.T, mcp string, extra map[string]string) (*Workspace, string, error) {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		".repository/extensions/ext/extension.toml": manifest,
		".repository/extensions/ext/mcp.json":       mcp,
	}
	for k, v := range extra {
		files[k] = v
	}
	writeTree(t, root, files)
	ws, err := Load(Options{Root: root, Home: "/home/u", GOOS: "linux"})
	return ws, root, err
}

func TestResolution(t *testing.T) {
	mcp := `{"mcpServers": {
  "vs": {"command": "python", "args": ["s.py", "serve", "--root", "."], "env": {"ROOT": "<<root>>", "TOKEN": "${TOKEN}", "D": "${X:-y}"}},
  "py3": {"command": "python3.12", "args": ["--root=.", "--root", "x"]},
  "tpl": {"command": "<<runtime.python>>", "args": ["<<extension.dir>>/a", "<<home>>/b", "{{keep}}", "${{ secrets.K }}"], "cwd": "sub"},
  "remote": {"type": "sse", "url": "https://h.invalid/<<root>>", "headers": {"Authorization": "Bearer ${T}"}},
  "inferred": {"url": "https://h.invalid/mcp"}
}}`
	ws, root, err := loadOne(t, mcp, nil)
	if err != nil {
		t.Fatal(err)
	}
	ext := filepath.Join(root, ".repository", "extensions", "ext")
	py := filepath.Join(ext, ".venv", "bin", "python")
	byName := map[string]Server{}
	var order []string
	for _, s := range ws.Servers {
		byName[s.Name] = s
		order = append(order, s.Name)
	}
	if want := []string{"vs", "py3", "tpl", "remote", "inferred"}; !reflect.DeepEqual(order, want) {
		t.Fatalf("order = %v, want file order %v", order, want)
	}
	vs := byName["vs"]
	if vs.Command != py || !reflect.DeepEqual(vs.Args, []string{"s.py", "serve", "--root", root}) {
		t.Errorf("vs: %q %q", vs.Command, vs.Args)
	}
	if want := []KV{{"ROOT", root}, {"TOKEN", "${TOKEN}"}, {"D", "${X:-y}"}}; !reflect.DeepEqual(vs.Env, want) {
		t.Errorf("vs env = %v, want %v (order kept, references untouched)", vs.Env, want)
	}
	if p := byName["py3"]; p.Command != py || !reflect.DeepEqual(p.Args, []string{"--root=" + root, "--root", "x"}) {
		t.Errorf("py3: %q %q", p.Command, p.Args)
	}
	tpl := byName["tpl"]
	if want := []string{ext + "/a", "/home/u/b", "{{keep}}", "${{ secrets.K }}"}; tpl.Command != py || !reflect.DeepEqual(tpl.Args, want) {
		t.Errorf("tpl: %q %q", tpl.Command, tpl.Args)
	}
	if tpl.Cwd != filepath.Join(root, "sub") {
		t.Errorf("relative cwd = %q, want it under the root", tpl.Cwd)
	}
	r := byName["remote"]
	if r.Transport != SSE || r.URL != "https://h.invalid/"+root || r.Headers[0].Value != "Bearer ${T}" {
		t.Errorf("remote: %+v", r)
	}
	if byName["inferred"].Transport != HTTP {
		t.Errorf("url without type should be http, got %q", byName["inferred"].Transport)
	}
}

func TestWindowsVenvLayout(t *testing.T) {
	c := Context{ExtDir: "/x/ext", Venv: ".venv", GOOS: "windows"}
	if got := filepath.ToSlash(c.Python()); got != "/x/ext/.venv/Scripts/python.exe" {
		t.Errorf("windows python = %s", got)
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name  string
		mcp   string
		extra map[string]string
		want  []string
	}{
		{"unknown template", `{"mcpServers": {"s": {"command": "x", "args": ["<<rot>>"]}}}`, nil,
			[]string{"mcp.json:1:17", "extension ext", `server "s"`, "field args[0]", "unknown template <<rot>>", "<<root>>"}},
		{"unterminated template", `{"mcpServers": {"s": {"command": "x", "env": {"A": "<<root"}}}}`, nil,
			[]string{"field env.A", "unterminated"}},
		{"bad json", "{\n  \"mcpServers\": {,}\n}", nil, []string{"mcp.json:2:", "invalid JSON"}},
		{"servers not an object", `{"mcpServers": []}`, nil, []string{"mcpServers", "must be an object"}},
		{"args not strings", `{"mcpServers": {"s": {"command": "x", "args": ["a", 1]}}}`, nil, []string{"field args[1]", "must be a string"}},
		{"unknown field", `{"mcpServers": {"s": {"command": "x", "timeout": 5}}}`, nil, []string{"field timeout", "unknown field"}},
		{"empty command", `{"mcpServers": {"s": {"command": " "}}}`, nil, []string{"field command", "non-empty"}},
		{"remote with command", `{"mcpServers": {"s": {"type": "http", "url": "u", "command": "x"}}}`, nil, []string{"field command", "takes url"}},
		{"bad type", `{"mcpServers": {"s": {"type": "ws", "url": "u"}}}`, nil, []string{"field type", "stdio, http (or streamable-http) or sse"}},
		{"duplicate server", `{"mcpServers": {"s": {"command": "x"}, "s": {"command": "y"}}}`, nil, []string{"appears twice"}},
		{"empty name", `{"mcpServers": {"": {"command": "x"}}}`, nil, []string{"must not be empty"}},
		{"missing map", `{"servers": {}}`, nil, []string{"mcpServers", "missing"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := loadOne(t, c.mcp, c.extra)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestManifestErrors(t *testing.T) {
	cases := []struct {
		name     string
		manifest string
		want     []string
	}{
		{"unknown key", "name = \"ext\"\nversion = \"1\"\nprovide = 1\n", []string{"extension.toml:3", "unknown key provide"}},
		{"wrong name", "name = \"other\"\n", []string{"must equal the folder name"}},
		{"escaping mcp", "name = \"ext\"\n[provides]\nmcp = \"../x.json\"\n", []string{"provides.mcp", "outside the extension folder"}},
		{"absolute mcp", "name = \"ext\"\n[provides]\nmcp = \"/etc/passwd\"\n", []string{"provides.mcp", "absolute"}},
		{"escaping venv", "name = \"ext\"\n[runtime]\npython = \"../../v\"\n", []string{"runtime.python", "outside"}},
		{"bad toml", "name = \n", []string{"extension.toml:1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, map[string]string{".repository/extensions/ext/extension.toml": c.manifest})
			_, err := Load(Options{Root: root, GOOS: "linux"})
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestSymlinkedMCPFileOutsideIsRefused(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".repository/extensions/ext/extension.toml": manifest,
		"elsewhere.json": `{"mcpServers": {}}`,
	})
	if err := os.Symlink(filepath.Join(root, "elsewhere.json"), filepath.Join(root, ".repository/extensions/ext/mcp.json")); err != nil {
		t.Skip("symlinks not available:", err)
	}
	_, err := Load(Options{Root: root, GOOS: "linux"})
	if err == nil || !strings.Contains(err.Error(), "outside the extension folder") {
		t.Fatalf("err = %v", err)
	}
}

func TestDuplicateServerAcrossExtensions(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".repository/extensions/a/extension.toml": "name = \"a\"\n[provides]\nmcp = \"mcp.json\"\n",
		".repository/extensions/a/mcp.json":       `{"mcpServers": {"same": {"command": "x"}}}`,
		".repository/extensions/b/extension.toml": "name = \"b\"\n[provides]\nmcp = \"mcp.json\"\n",
		".repository/extensions/b/mcp.json":       `{"mcpServers": {"same": {"command": "y"}}}`,
	})
	_, err := Load(Options{Root: root, GOOS: "linux"})
	if err == nil || !strings.Contains(err.Error(), "extension b") || !strings.Contains(err.Error(), "also declared by extension a") {
		t.Fatalf("err = %v", err)
	}
}

// Extensions load at once, but the error reported is the first in folder
// order, as when they loaded one by one, however the loads interleave.
func TestFirstBrokenExtensionInOrder(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for _, name := range []string{"a-ok", "b-broken", "c-ok", "d-broken", "e-ok", "f-broken"} {
		files[".repository/extensions/"+name+"/extension.toml"] = "name = \"" + name + "\"\n[provides]\nmcp = \"mcp.json\"\n"
		body := `{"mcpServers": {"` + name + `": {"command": "x"}}}`
		if strings.HasSuffix(name, "broken") {
			body = `{"mcpServers": {"` + name + `": {"command": 1}}}`
		}
		files[".repository/extensions/"+name+"/mcp.json"] = body
	}
	writeTree(t, root, files)
	for range 20 {
		_, err := Load(Options{Root: root, GOOS: "linux"})
		if err == nil || !strings.Contains(err.Error(), "b-broken") {
			t.Fatalf("err = %v, want the one of b-broken", err)
		}
	}
}

func TestFindRoot(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".repository/x": "", "a/b/c": ""})
	got, err := FindRoot(filepath.Join(root, "a", "b"))
	if err != nil || got != root {
		t.Fatalf("FindRoot = %q, %v", got, err)
	}
	if _, err := FindRoot(t.TempDir()); err != ErrNoRoot {
		t.Fatalf("err = %v, want ErrNoRoot", err)
	}
}

func TestConfig(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".repository/config.toml": "owner = \"rm\"\n[rules]\nx = 1\n[mcp]\ntools = [\"claude\"]\n"})
	cfg, err := LoadConfig(root)
	if err != nil || !cfg.Set || !reflect.DeepEqual(cfg.Tools, []string{"claude"}) {
		t.Fatalf("cfg = %+v, %v (the repo manager's own keys must be ignored)", cfg, err)
	}
	writeTree(t, root, map[string]string{".repository/config.toml": "[mcp]\ntool = [\"claude\"]\n"})
	if _, err := LoadConfig(root); err == nil || !strings.Contains(err.Error(), "config.toml:2") {
		t.Fatalf("misspelt key: err = %v", err)
	}
}

// TestResolvedSpans: every byte resolution writes is marked with the
// template it came from, and nothing the author wrote is, even where the
// paths themselves contain what looks like a reference.
func TestResolvedSpans(t *testing.T) {
	c := Context{Root: "/ws/a${HOME}$b", Home: "/home/${USER}", GOOS: "linux",
		ExtDir: "/ws/a${HOME}$b/.repository/extensions/e", Venv: ".venv"}
	d := Declaration{Name: "s", Spec: Spec{Transport: Stdio, Command: "python",
		Args: []string{"--root", ".", "--root=.", "<<extension.dir>>/x-${TOKEN}", "${A}<<home>>${B}", "plain ${C}"},
		Env:  []KV{{"R", "<<root>>"}, {"T", "${T}"}, {"P", "<< runtime.python >>:${PATH}"}},
		Cwd:  "sub/<<home>>"}}
	s, err := Resolve(d, c, "e", "mcp.json")
	if err != nil {
		t.Fatal(err)
	}
	py := "/ws/a${HOME}$b/.repository/extensions/e/.venv/bin/python"
	got := []string{marked(s.Command, s.Resolved.Command)}
	for i, a := range s.Args {
		got = append(got, marked(a, At(s.Resolved.Args, i)))
	}
	for i, kv := range s.Env {
		got = append(got, kv.Key+"="+marked(kv.Value, At(s.Resolved.Env, i)))
	}
	got = append(got, marked(s.Cwd, s.Resolved.Cwd))
	want := []string{
		"[runtime.python:" + py + "]",
		"--root",
		"[root:/ws/a${HOME}$b]",
		"--root=[root:/ws/a${HOME}$b]",
		"[extension.dir:/ws/a${HOME}$b/.repository/extensions/e]/x-${TOKEN}",
		"${A}[home:/home/${USER}]${B}",
		"plain ${C}",
		"R=[root:/ws/a${HOME}$b]",
		"T=${T}",
		"P=[runtime.python:" + py + "]:${PATH}",
		"[root:/ws/a${HOME}$b]/sub/[home:/home/${USER}]",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("spans:\n got %q\nwant %q", got, want)
	}
	// A relative cwd without templates is still cleaned, and its root marked.
	d.Cwd = "sub/../x"
	if s, err = Resolve(d, c, "e", "mcp.json"); err != nil {
		t.Fatal(err)
	}
	if m := marked(s.Cwd, s.Resolved.Cwd); m != "[root:/ws/a${HOME}$b]/x" {
		t.Errorf("cleaned cwd = %q", m)
	}
}

// A value of the wrong type in extension.toml or config.toml is explained
// in the MCP file's words, with TOML's type names and never Go's.
func TestTOMLTypeErrors(t *testing.T) {
	cases := []struct {
		file, body, want string
	}{
		{"extensions/ext/extension.toml", "name = \"ext\"\nversion = 1\n",
			".repository/extensions/ext/extension.toml:2:11: extension ext, field version: must be a string, not an integer"},
		{"extensions/ext/extension.toml", "name = \"ext\"\nversion = 2024-01-01\n",
			".repository/extensions/ext/extension.toml:2:11: extension ext, field version: must be a string, not a date"},
		{"extensions/ext/extension.toml", "name = \"ext\"\nprovides = \"mcp.json\"\n",
			".repository/extensions/ext/extension.toml:2:12: extension ext, field provides: must be a table, not a string"},
		{"extensions/ext/extension.toml", "name = \"ext\"\n[provides]\nmcp = [\"mcp.json\"]\n",
			".repository/extensions/ext/extension.toml:3:7: extension ext, field provides.mcp: must be a string, not an array"},
		{"extensions/ext/extension.toml", "name = \"ext\"\n[runtime]\npython = 3.12\n",
			".repository/extensions/ext/extension.toml:3:10: extension ext, field runtime.python: must be a string, not a float"},
		{"config.toml", "[mcp]\ntools = \"claude\"\n",
			".repository/config.toml:2:9: field mcp.tools: must be an array of strings, not a string"},
		{"config.toml", "[mcp]\ntools = [\"claude\", 3]\n",
			".repository/config.toml:2:20: field mcp.tools[1]: must be a string, not an integer"},
		{"config.toml", "[mcp]\nportable = \"yes\"\n",
			".repository/config.toml:2:12: field mcp.portable: must be a boolean, not a string"},
		{"config.toml", "[mcp]\ngitignore = 1\n",
			".repository/config.toml:2:13: field mcp.gitignore: must be a boolean, not an integer"},
		{"config.toml", "mcp = true\n",
			".repository/config.toml:1:7: field mcp: must be a table, not a boolean"},
	}
	for _, c := range cases {
		t.Run(c.body, func(t *testing.T) {
			root := t.TempDir()
			files := map[string]string{".repository/extensions/ext/extension.toml": "name = \"ext\"\n"}
			files[".repository/"+c.file] = c.body
			writeTree(t, root, files)
			var err error
			if c.file == "config.toml" {
				_, err = LoadConfig(root)
			} else {
				_, err = Load(Options{Root: root, GOOS: "linux"})
			}
			if err == nil || err.Error() != c.want {
				t.Errorf("error:\n got %v\nwant %s", err, c.want)
			}
		})
	}
}

// marked renders a value with its spans in brackets: [from:text].
func marked(v string, spans []Span) string {
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(v[last:sp.Start] + "[" + sp.From + ":" + v[sp.Start:sp.End] + "]")
		last = sp.End
	}
	return b.String() + v[last:]
}

// TestRelativePathsBecomeAbsolute: a command or argument that names a file
// or folder existing relative to the root is written absolute, its root
// marked as resolved, so that the server starts whatever folder the tool
// starts it in; everything else is left as the author wrote it.
func TestRelativePathsBecomeAbsolute(t *testing.T) {
	mcp := `{"mcpServers": {
  "adr": {"command": "python", "args": [".vaultspec/lib/scripts/subagent.py", "serve", "--root", "."]},
  "bin": {"command": "./bin/server", "args": ["./conf/../conf/x.json", "config.json", ".env", ".", "data/"]},
  "bare": {"command": "bin/server"},
  "path-lookup": {"command": "server", "args": ["-m", "aifp", "serve", "--config", "--config=conf/x.json", "-c", "missing.py", "missing/x.py"]},
  "kept": {"command": "node", "args": ["${DIR}/s.js", "<<extension.dir>>/only-in-ext.js", "only-in-ext.js", "~/x.js", "https://h.invalid/x.js", "pkg.mod"]},
  "in-cwd": {"command": "./tool.sh", "args": ["x.py", "top.py", "."], "cwd": "sub"},
  "ref-cwd": {"command": "node", "args": ["top.py"], "cwd": "${WORK}/sub"}
}}`
	ws, root, err := loadOne(t, mcp, map[string]string{
		".vaultspec/lib/scripts/subagent.py": "",
		"bin/server":                         "",
		"server":                             "",
		"conf/x.json":                        "",
		"config.json":                        "",
		".env":                               "",
		"data/.keep":                         "",
		"aifp/__init__.py":                   "",
		"serve/.keep":                        "",
		"top.py":                             "",
		"sub/x.py":                           "",
		"sub/tool.sh":                        "",
		".repository/extensions/ext/only-in-ext.js": "",
	})
	if err != nil {
		t.Fatal(err)
	}
	ext := filepath.Join(root, ".repository", "extensions", "ext")
	got := map[string][]string{}
	for _, s := range ws.Servers {
		vals := []string{marked(s.Command, s.Resolved.Command)}
		for i, a := range s.Args {
			vals = append(vals, marked(a, At(s.Resolved.Args, i)))
		}
		got[s.Name] = vals
	}
	R := "[root:" + root + "]"
	want := map[string][]string{
		"adr": {"[runtime.python:" + filepath.Join(ext, ".venv", "bin", "python") + "]",
			R + "/.vaultspec/lib/scripts/subagent.py", "serve", "--root", R},
		"bin":         {R + "/bin/server", R + "/conf/x.json", R + "/config.json", R + "/.env", R, R + "/data"},
		"bare":        {R + "/bin/server"},
		"path-lookup": {"server", "-m", "aifp", "serve", "--config", "--config=conf/x.json", "-c", "missing.py", "missing/x.py"},
		"kept": {"node", "${DIR}/s.js", "[extension.dir:" + ext + "]/only-in-ext.js", "only-in-ext.js", "~/x.js",
			"https://h.invalid/x.js", "pkg.mod"},
		"in-cwd":  {"[root:" + root + "]/sub/tool.sh", "[root:" + root + "]/sub/x.py", "top.py", "[root:" + root + "]/sub"},
		"ref-cwd": {"node", "top.py"},
	}
	if !reflect.DeepEqual(got, want) {
		for name := range want {
			if !reflect.DeepEqual(got[name], want[name]) {
				t.Errorf("%s:\n got %q\nwant %q", name, got[name], want[name])
			}
		}
	}
	for _, s := range ws.Servers {
		if s.Name == "ref-cwd" && s.Dir != "" {
			t.Errorf("ref-cwd: Dir = %q, want none: its cwd is only known to the tool", s.Dir)
		}
	}
}

// TestRelativePathsKeepDotDot: a path that climbs out of the root keeps
// its "..", so the root stays a whole prefix that portable mode can write
// as a workspace variable; a root holding what reads as a reference is
// marked as a path, and the author's part is not.
func TestRelativePathsKeepDotDot(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "ws-${HOME}")
	writeTree(t, top, map[string]string{"shared/x.py": "", "ws-${HOME}/lib/s.py": ""})
	c := Context{Root: root, Home: "/h", GOOS: "linux", ExtDir: root + "/.repository/extensions/e", Venv: ".venv"}
	s, err := Resolve(Declaration{Name: "s", Spec: Spec{Transport: Stdio, Command: "node",
		Args: []string{"../shared/x.py", "lib/../lib/s.py", "../nope.py"}}}, c, "e", "m.json")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, a := range s.Args {
		got = append(got, marked(a, At(s.Resolved.Args, i)))
	}
	want := []string{"[root:" + root + "]/../shared/x.py", "[root:" + root + "]/lib/s.py", "../nope.py"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
