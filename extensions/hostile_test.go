package extensions

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A filled-in value is never expanded again: a root folder literally named
// "r<<home>>x", a home holding "<<root>>" and an extension folder holding
// "<<runtime.python>>" come out verbatim, and no error is raised about
// templates the author never wrote.
func TestResolveDoesNotReexpandValues(t *testing.T) {
	c := Context{Root: "/w/r<<home>>x", Home: "/home/<<root>>", GOOS: "linux",
		ExtDir: "/w/r<<home>>x/.repository/extensions/<<runtime.python>>", Venv: "<<extension.dir>>"}
	d := Declaration{Name: "s", Line: 1, Col: 1, Spec: Spec{Transport: Stdio, Command: "python3",
		Args: []string{"--root", ".", "--root=.", "<<root>>/a", "<<extension.dir>>"},
		Env:  []KV{{"H", "<<home>>"}, {"R", "<<root>><<home>>"}, {"P", "<<runtime.python>>"}},
		Cwd:  "<<root>>/sub"}}
	s, err := Resolve(d, c, "ext", "m.json")
	if err != nil {
		t.Fatal(err)
	}
	py := "/w/r<<home>>x/.repository/extensions/<<runtime.python>>/<<extension.dir>>/bin/python"
	if s.Command != py {
		t.Errorf("command = %q, want %q", s.Command, py)
	}
	wantArgs := []string{"--root", c.Root, "--root=" + c.Root, c.Root + "/a", c.ExtDir}
	if !reflect.DeepEqual(s.Args, wantArgs) {
		t.Errorf("args = %q, want %q", s.Args, wantArgs)
	}
	wantEnv := []KV{{"H", c.Home}, {"R", c.Root + c.Home}, {"P", py}}
	if !reflect.DeepEqual(s.Env, wantEnv) {
		t.Errorf("env = %q, want %q", s.Env, wantEnv)
	}
	if s.Cwd != c.Root+"/sub" {
		t.Errorf("cwd = %q", s.Cwd)
	}
}

// ${VAR} is the tool's business: it is kept verbatim even when VAR is set
// in repo's own environment, and so are {{…}} and ${{…}} of other tools.
func TestResolveNeverExpandsEnvironment(t *testing.T) {
	t.Setenv("HOSTILE_TOKEN", "ghp_leakedvalue1234567890")
	t.Setenv("HOME", "/leaked/home")
	d := Declaration{Name: "s", Spec: Spec{Transport: Stdio, Command: "${HOSTILE_TOKEN}",
		Args: []string{"${HOSTILE_TOKEN}", "$HOSTILE_TOKEN", "${HOSTILE_TOKEN:-d}", "{{HOSTILE_TOKEN}}", "${{ secrets.HOSTILE_TOKEN }}", "~/x", "$HOME"},
		Env:  []KV{{"T", "${HOSTILE_TOKEN}"}, {"H", "${HOME}/x"}}, Cwd: "${HOME}"}}
	s, err := Resolve(d, Context{Root: "/w", Home: "/h", GOOS: "linux", ExtDir: "/w/e", Venv: ".venv"}, "e", "m.json")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(s)
	if strings.Contains(string(b), "ghp_leaked") || strings.Contains(string(b), "/leaked/home") {
		t.Fatalf("an environment variable was expanded: %s", b)
	}
	if !reflect.DeepEqual(s.Args, d.Args) || s.Command != d.Command || s.Cwd != "${HOME}" || !reflect.DeepEqual(s.Env, d.Env) {
		t.Fatalf("references were rewritten: %+v", s.Spec)
	}
}

// A relative cwd is made absolute under the root; an environment
// reference inside it must survive that.
func TestResolveCwdKeepsEnvReferences(t *testing.T) {
	for cwd, want := range map[string]string{
		"sub/${X:-a/../b}": "/w/sub/${X:-a/../b}",
		"a/${X}/..":        "/w/a/${X}/..",
	} {
		s, err := Resolve(Declaration{Name: "s", Spec: Spec{Transport: Stdio, Command: "x", Cwd: cwd}},
			Context{Root: "/w", Home: "/h", GOOS: "linux", ExtDir: "/w/e", Venv: ".venv"}, "e", "m.json")
		if err != nil || s.Cwd != want {
			t.Errorf("cwd %q -> %q (%v), want %q", cwd, s.Cwd, err, want)
		}
	}
}

// runtime.python with a space and non-ASCII letters is used as written:
// the command is that exact path, and it survives a JSON round trip.
func TestVenvWithSpacesAndUnicode(t *testing.T) {
	m := "name = \"ext\"\n[provides]\nmcp = \"mcp.json\"\n[runtime]\npython = \"my venv/ünï\"\n"
	ws, root, err := loadOne(t, `{"mcpServers": {"s": {"command": "python3", "args": ["<<runtime.python>>"]}}}`,
		map[string]string{".repository/extensions/ext/extension.toml": m})
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(root, ".repository", "extensions", "ext", "my venv", "ünï", "bin", "python")
	s := ws.Servers[0]
	if s.Command != want || s.Args[0] != want || ws.Extensions[0].Python != want {
		t.Fatalf("command %q args %q, want %q", s.Command, s.Args, want)
	}
	b, _ := json.Marshal(s.Command)
	var back string
	if err := json.Unmarshal(b, &back); err != nil || back != want {
		t.Fatalf("JSON round trip: %s -> %q", b, back)
	}
}

// A manifest written on Windows: CRLF line endings are ordinary TOML.
func TestManifestWithCRLF(t *testing.T) {
	m := "name = \"ext\"\r\nversion = \"1\"\r\n[provides]\r\nmcp = \"mcp.json\"\r\n[runtime]\r\npython = \"v\"\r\n"
	ws, _, err := loadOne(t, "{\r\n  \"mcpServers\": {\r\n    \"s\": {\"command\": \"node\"}\r\n  }\r\n}\r\n",
		map[string]string{".repository/extensions/ext/extension.toml": m})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws.Servers) != 1 || ws.Servers[0].Command != "node" || !strings.HasSuffix(ws.Extensions[0].Venv, string(filepath.Separator)+"v") {
		t.Fatalf("servers = %+v, venv %q", ws.Servers, ws.Extensions[0].Venv)
	}
}

// An MCP file with a BOM and CRLF (Notepad) is read.
func TestMCPFileWithBOMAndCRLF(t *testing.T) {
	ws, _, err := loadOne(t, "\xef\xbb\xbf{\r\n  \"mcpServers\": {\r\n    \"s\": {\"command\": \"node\"}\r\n  }\r\n}\r\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ws.Servers) != 1 || ws.Servers[0].Line != 3 {
		t.Fatalf("servers = %+v", ws.Servers)
	}
}

// A manifest saved with a BOM (Notepad, some Windows editors) should be
// read like the MCP file is; at the least the error must say "BOM".
func TestManifestWithBOM(t *testing.T) {
	ws, _, err := loadOne(t, `{"mcpServers": {"s": {"command": "node"}}}`,
		map[string]string{".repository/extensions/ext/extension.toml": "\xef\xbb\xbf" + manifest})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws.Servers) != 1 {
		t.Fatalf("servers = %+v", ws.Servers)
	}
}

func symlinkOrSkip(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skip("symlinks not available:", err)
	}
}

// extension.toml -> extension.toml: an error naming the manifest, never a
// hang and never a silently skipped extension.
func TestManifestSymlinkLoop(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".repository", "extensions", "ext")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	symlinkOrSkip(t, "extension.toml", filepath.Join(dir, "extension.toml"))
	_, err := Load(Options{Root: root, GOOS: "linux"})
	if err == nil || !strings.Contains(err.Error(), ".repository/extensions/ext/extension.toml: extension ext: cannot read: too many levels of symbolic links") {
		t.Fatalf("err = %v", err)
	}
}

// provides.mcp -> itself: an error naming the manifest field.
func TestMCPFileSymlinkLoop(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".repository/extensions/ext/extension.toml": manifest})
	symlinkOrSkip(t, "mcp.json", filepath.Join(root, ".repository/extensions/ext/mcp.json"))
	_, err := Load(Options{Root: root, GOOS: "linux"})
	if err == nil || !strings.Contains(err.Error(), "extension.toml: extension ext, field provides.mcp: mcp.json: ") ||
		!strings.Contains(err.Error(), "too many links") {
		t.Fatalf("err = %v", err)
	}
}

// provides.mcp naming a folder is an error naming the file.
func TestMCPFileIsAFolder(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".repository/extensions/ext/extension.toml": manifest, ".repository/extensions/ext/mcp.json/x": ""})
	_, err := Load(Options{Root: root, GOOS: "linux"})
	if err == nil || !strings.Contains(err.Error(), ".repository/extensions/ext/mcp.json: extension ext: cannot read: is a directory") {
		t.Fatalf("err = %v", err)
	}
}

// provides.mcp through a symlinked folder that leads outside.
func TestMCPFileInSymlinkedFolderOutside(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	writeTree(t, root, map[string]string{".repository/extensions/ext/extension.toml": "name = \"ext\"\n[provides]\nmcp = \"lib/mcp.json\"\n"})
	writeTree(t, outside, map[string]string{"mcp.json": `{"mcpServers": {"s": {"command": "x"}}}`})
	symlinkOrSkip(t, outside, filepath.Join(root, ".repository/extensions/ext/lib"))
	_, err := Load(Options{Root: root, GOOS: "linux"})
	if err == nil || !strings.Contains(err.Error(), "field provides.mcp: lib/mcp.json is a link to") || !strings.Contains(err.Error(), "outside the extension folder") {
		t.Fatalf("err = %v", err)
	}
}

// An extension folder that is a symlink loop cannot be read: that must be
// an error, not a skipped extension, or sync removes the servers it
// declared (Load's own rule: a half-read workspace is an error).
func TestExtensionFolderSymlinkLoop(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".repository", "extensions"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlinkOrSkip(t, "ext", filepath.Join(root, ".repository", "extensions", "ext"))
	_, err := Load(Options{Root: root, GOOS: "linux"})
	if err == nil || !strings.Contains(err.Error(), "extensions/ext") {
		t.Fatalf("err = %v", err)
	}
}

// The MCP file's hostile bytes: each is an error naming file:line:col.
func TestMCPFileHostileBytes(t *testing.T) {
	for name, c := range map[string]struct{ data, want string }{
		"binary":       {"\x00\x01\x02\xff", "mcp.json:1:4: extension ext: byte 0xff is not UTF-8"},
		"latin-1":      {"{\"mcpServers\": {\"s\": {\"command\": \"caf\xe9\"}}}", "mcp.json:1:38: extension ext: byte 0xe9 is not UTF-8; an MCP file is UTF-8 text"},
		"utf-16":       {"\xff\xfe{\x00}\x00", "mcp.json:1:1: extension ext: byte 0xff is not UTF-8"},
		"nul":          {"{\"mcpServers\": {\"s\\u0000\": {\"command\": \"x\"}}}", `server "s\x00": a server name is printed by repo and the tools, and must be printable: control character U+0000 at byte 1`},
		"nul after":    {"{\"mcpServers\": {}}\x00", "mcp.json:1:19: extension ext: invalid JSON: data after the top-level object"},
		"comment":      {"// c\n{\"mcpServers\": {}}", "mcp.json:1:1: extension ext: invalid JSON"},
		"two objects":  {"{\"mcpServers\": {}} {}", "mcp.json:1:20: extension ext: invalid JSON: data after the top-level object"},
		"not object":   {"[]", "mcp.json:1:1: extension ext: the file must hold a JSON object"},
		"string map":   {`{"mcpServers": "x"}`, `mcp.json:1:16: extension ext, field mcpServers: must be an object of servers, not a string`},
		"null map":     {`{"mcpServers": null}`, `field mcpServers: must be an object of servers, not null`},
		"number map":   {`{"mcpServers": 42}`, `field mcpServers: must be an object of servers, not a number`},
		"dup top":      {"{\"mcpServers\": {},\n \"mcpServers\": {\"s\": {\"command\": \"x\"}}}", `mcp.json:2:2: extension ext, field mcpServers: key appears twice`},
		"dup field":    {`{"mcpServers": {"s": {"command": "x", "command": "y"}}}`, `server "s", field command: appears twice`},
		"dup env":      {`{"mcpServers": {"s": {"command": "x", "env": {"A": "1", "A": "2"}}}}`, `field env.A: appears twice`},
		"server array": {`{"mcpServers": {"s": [1]}}`, `server "s": a server must be an object, not an array`},
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := loadOne(t, c.data, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

// Data after the object is invalid JSON: it must be refused, at its
// position, like any other syntax error.
func TestMCPFileTrailingData(t *testing.T) {
	for data, want := range map[string]string{
		`{"mcpServers": {"s": {"command": "node"}}}} and then garbage`: "mcp.json:1:43:",
		`{"mcpServers": {"s": {"command": "node"}}}]`:                  "mcp.json:1:43:",
		"{\"mcpServers\": {}}\n\n{}":                                   "mcp.json:3:1:",
	} {
		_, _, err := loadOne(t, data, nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %s", data, err, want)
		}
	}
}
