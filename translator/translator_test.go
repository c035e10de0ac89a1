package translator

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/toolprofiles"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// servers covers every shape a tool's dialect has to express.
var servers = []extensions.Server{
	{Name: "venv-python", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "/ws/.repository/extensions/vs/.venv/bin/python",
		Args: []string{"/ws/.repository/extensions/vs/subagent.py", "serve", "--root", "/ws"},
		Env:  []extensions.KV{{Key: "VAULTSPEC_MCP_ROOT_DIR", Value: "/ws"}}}},
	{Name: "no-args", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "reference-manager"}},
	{Name: "env-refs", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "node", Args: []string{"s.js", "--token=${API_TOKEN}"},
		Env: []extensions.KV{{Key: "SUDOCODE_TOKEN", Value: "${SUDOCODE_TOKEN}"}, {Key: "LEVEL", Value: "${LOG_LEVEL:-info}"}, {Key: "RENAMED", Value: "${OTHER}"}}}},
	{Name: "with-cwd", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "python3", Args: []string{"-m", "aifp"}, Cwd: "/ws/sub",
		Env: []extensions.KV{{Key: "PYTHONPATH", Value: "/ws/src"}}}},
	{Name: "remote-http", Spec: extensions.Spec{Transport: extensions.HTTP, URL: "https://docs.example.invalid/mcp?a=1&b=2",
		Headers: []extensions.KV{{Key: "Authorization", Value: "Bearer ${DOCS_TOKEN}"}}}},
	{Name: "remote-sse", Spec: extensions.Spec{Transport: extensions.SSE, URL: "https://events.example.invalid/sse"}},
	// The neutral authentication: each tool's own fields, a warning for the parts it has none for.
	{Name: "remote-auth", Spec: extensions.Spec{Transport: extensions.HTTP, URL: "https://docs.example.invalid/mcp",
		Auth: &extensions.Auth{HeadersHelper: "docs-token --json", OAuth: &extensions.OAuth{ClientID: "repo-docs",
			ClientSecret: "${DOCS_CLIENT_SECRET}", CallbackPort: 8912, Scopes: []string{"read", "search"},
			AuthServerMetadataURL: "https://id.example.invalid/.well-known/oauth-authorization-server"}}}},
}

// literalCase is a server resolved for a workspace whose paths, or whose
// author, hold text some tool reads as a reference or an expansion.
type literalCase struct {
	name string
	root string
	goos string // the OS the tool runs on (linux when empty)
	spec extensions.Spec
	// files are created under the root, which is then made in a temporary
	// folder, for relative paths that exist there; the golden shows that
	// folder as "".
	files []string
}

var literalCases = []literalCase{
	// Paths: the venv python, --root ., <<root>>, <<extension.dir>>, a relative cwd.
	{name: "root-home", root: "/ws/${HOME}", spec: extensions.Spec{Transport: extensions.Stdio, Command: "python",
		Args: []string{"--root", ".", "--token=${TOKEN}"}, Env: []extensions.KV{{Key: "ROOT", Value: "<<root>>"}}, Cwd: "sub"}},
	{name: "root-env-brace", root: "/ws/{env:X}", spec: extensions.Spec{Transport: extensions.Stdio, Command: "node",
		Args: []string{"<<extension.dir>>/s.js"}, Env: []extensions.KV{{Key: "ROOT", Value: "<<root>>"}}}},
	{name: "root-dollars", root: "/ws/pa$$word", spec: extensions.Spec{Transport: extensions.Stdio, Command: "python",
		Args: []string{"--root=."}}},
	{name: "root-subst", root: "/ws/$(id)", spec: extensions.Spec{Transport: extensions.Stdio, Command: "node",
		Args: []string{"<<root>>/s.js"}, Env: []extensions.KV{{Key: "ROOT", Value: "<<root>>"}}}},
	{name: "root-percent-linux", root: "/ws/%PATH%", spec: extensions.Spec{Transport: extensions.Stdio, Command: "node",
		Args: []string{"<<root>>/s.js"}, Env: []extensions.KV{{Key: "ROOT", Value: "<<root>>"}}}},
	{name: "root-percent-windows", root: "/ws/%PATH%", goos: "windows", spec: extensions.Spec{Transport: extensions.Stdio, Command: "node",
		Args: []string{"<<root>>/s.js"}, Env: []extensions.KV{{Key: "ROOT", Value: "<<root>>"}}}},
	{name: "root-template", root: "/ws/${{ x }}", spec: extensions.Spec{Transport: extensions.Stdio, Command: "node",
		Args: []string{"<<root>>/s.js", "${{ secrets.K }}"}}},
	// Relative paths that exist under the root are made absolute: the root
	// is a path, the author's part is the author's text.
	{name: "relative-root-home", root: "/ws/${HOME}", files: []string{"lib/s.py"}, spec: extensions.Spec{Transport: extensions.Stdio,
		Command: "node", Args: []string{"lib/s.py", "serve"}}},
	{name: "relative-root-dollars", root: "/ws/pa$$word", files: []string{"bin/server", "conf.json"}, spec: extensions.Spec{Transport: extensions.Stdio,
		Command: "./bin/server", Args: []string{"--config", "conf.json"}}},
	{name: "relative-author-dollar", root: "/ws", files: []string{"$x.py"}, spec: extensions.Spec{Transport: extensions.Stdio,
		Command: "node", Args: []string{"$x.py"}}},
	{name: "remote-root-home", root: "/ws/${HOME}", spec: extensions.Spec{Transport: extensions.HTTP, URL: "https://h.invalid/<<root>>"}},
	// The author's text that is not a ${NAME} reference.
	{name: "author-opencode-syntax", root: "/ws", spec: extensions.Spec{Transport: extensions.Stdio, Command: "node", Args: []string{"--x={env:X}"}}},
	{name: "author-vscode-syntax", root: "/ws", spec: extensions.Spec{Transport: extensions.Stdio, Command: "node", Args: []string{"--x=${env:X}"}}},
	{name: "author-dollars", root: "/ws", spec: extensions.Spec{Transport: extensions.Stdio, Command: "node",
		Args: []string{"--password=pa$$word", "$(id)"}}},
	{name: "author-dollar-var-windows", root: "/ws", goos: "windows", spec: extensions.Spec{Transport: extensions.Stdio, Command: "node", Args: []string{"$X"}}},
	// References per value: where the tool expands them and where not.
	{name: "refs-every-value", root: "/ws", spec: extensions.Spec{Transport: extensions.Stdio, Command: "${BIN}/node",
		Args: []string{"--t=${T}"}, Env: []extensions.KV{{Key: "K", Value: "${K}"}}, Cwd: "${WORK}/x"}},
	{name: "remote-refs-every-value", root: "/ws", spec: extensions.Spec{Transport: extensions.HTTP, URL: "https://${HOST}/mcp",
		Headers: []extensions.KV{{Key: "X-Key", Value: "${KEY}"}}}},
}

// resolve resolves c's declaration against its root, home /home/u and the
// extension folder under the root, as repo does.
// With files, the root is made under a temporary folder, returned as tmp.
func (c literalCase) resolve(t *testing.T) (s extensions.Server, tmp string) {
	t.Helper()
	root := c.root
	if len(c.files) > 0 {
		tmp = t.TempDir()
		root = tmp + c.root
		for _, f := range c.files {
			p := filepath.Join(root, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, nil, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	ctx := extensions.Context{Root: root, Home: "/home/u", GOOS: "linux", ExtDir: root + "/.repository/extensions/e", Venv: ".venv"}
	s, err := extensions.Resolve(extensions.Declaration{Name: c.name, Spec: c.spec}, ctx, "e", ".repository/extensions/e/mcp.json")
	if err != nil {
		t.Fatal(err)
	}
	return s, tmp
}

// TestGolden pins every tool's dialect: one golden file per profile with
// the entry for each server shape and the warnings the tool produces, then
// what each tool makes of text it could read as a reference (literalCases):
// the escaped entry, or the refusal.
func TestGolden(t *testing.T) {
	set, err := toolprofiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range set.All() {
		if !p.MCP {
			continue
		}
		t.Run(p.ID, func(t *testing.T) {
			var b bytes.Buffer
			type run struct {
				s    extensions.Server
				goos string
				root string
				tmp  string // shown as ""
			}
			var runs []run
			for _, s := range servers {
				runs = append(runs, run{s: s})
			}
			for _, c := range literalCases {
				s, tmp := c.resolve(t)
				runs = append(runs, run{s: s, goos: c.goos, root: c.root, tmp: tmp})
			}
			for _, r := range runs {
				start := b.Len()
				s := r.s
				goos := r.goos
				if goos == "" {
					goos = "linux"
				}
				res := TranslateWith(s, p, Options{GOOS: goos})
				if r.root != "" {
					fmt.Fprintf(&b, "== %s (root %s, %s)\n", s.Name, r.root, goos)
				} else {
					fmt.Fprintf(&b, "== %s\n", s.Name)
				}
				if res.Err != nil {
					fmt.Fprintf(&b, "refused: %s\n", res.Err)
				} else if res.Entry == nil {
					b.WriteString("(not written)\n")
				} else {
					var pretty bytes.Buffer
					if err := json.Indent(&pretty, ordered.JSON(res.Entry), "", "  "); err != nil {
						t.Fatal(err)
					}
					b.Write(pretty.Bytes())
					b.WriteByte('\n')
				}
				for _, w := range res.Warnings {
					fmt.Fprintf(&b, "warning: %s\n", w.Msg)
				}
				if r.tmp != "" {
					out := strings.ReplaceAll(b.String()[start:], r.tmp, "")
					b.Truncate(start)
					b.WriteString(out)
				}
			}
			golden := filepath.Join("testdata", p.ID+".golden")
			if *update {
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./translator -update to create it)", err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Errorf("%s differs from the translation; if the change is intended run go test ./translator -update\n--- got\n%s", golden, b.String())
			}
		})
	}
}

// TestDeterministic: translating twice gives the same bytes, whatever the
// map iteration order of the profile's fixed members.
func TestDeterministic(t *testing.T) {
	set, _ := toolprofiles.Builtin()
	for _, p := range set.All() {
		for _, s := range servers {
			a := ordered.JSON(TranslateWith(s, p, Options{}).Entry)
			for i := 0; i < 20; i++ {
				if b := ordered.JSON(TranslateWith(s, p, Options{}).Entry); !bytes.Equal(a, b) {
					t.Fatalf("%s/%s: %s != %s", p.ID, s.Name, a, b)
				}
			}
		}
	}
}

func TestEnvReferenceSyntax(t *testing.T) {
	set, _ := toolprofiles.Builtin()
	cases := map[string]string{
		"claude":   `"LEVEL":"${LOG_LEVEL:-info}"`,
		"cursor":   `"SUDOCODE_TOKEN":"${env:SUDOCODE_TOKEN}"`,
		"vscode":   `"SUDOCODE_TOKEN":"${env:SUDOCODE_TOKEN}"`,
		"roo":      `"SUDOCODE_TOKEN":"${env:SUDOCODE_TOKEN}"`,
		"opencode": `"SUDOCODE_TOKEN":"{env:SUDOCODE_TOKEN}"`,
		"gemini":   `"LEVEL":"${LOG_LEVEL:-info}"`,
	}
	for id, want := range cases {
		got := string(ordered.JSON(TranslateWith(servers[2], set.Get(id), Options{}).Entry))
		if !strings.Contains(got, want) {
			t.Errorf("%s: %s does not contain %s", id, got, want)
		}
	}
	// A tool with no syntax: the forwarding member is left out (inherited),
	// a renamed one stays literal, and both are warned about.
	res := TranslateWith(servers[2], set.Get("zed"), Options{})
	got := string(ordered.JSON(res.Entry))
	if strings.Contains(got, "SUDOCODE_TOKEN") || !strings.Contains(got, `"RENAMED":"${OTHER}"`) {
		t.Errorf("zed: %s", got)
	}
	if len(res.Warnings) == 0 {
		t.Error("zed: no warning for references it cannot expand")
	}
}

func TestRemoteOnStdioOnlyTool(t *testing.T) {
	set, _ := toolprofiles.Builtin()
	res := TranslateWith(servers[4], set.Get("jetbrains"), Options{})
	if res.Entry != nil || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].String(), `jetbrains: server "remote-http"`) {
		t.Fatalf("got %+v", res)
	}
}

// In portable mode a tool with a workspace variable gets it instead of the
// root, only where the root is a whole path prefix; other tools keep the
// absolute path.
func TestPortableRootVar(t *testing.T) {
	set, _ := toolprofiles.Builtin()
	s := extensions.Server{Name: "s", Spec: extensions.Spec{Transport: extensions.Stdio,
		Command: "/ws/.repository/extensions/e/.venv/bin/python",
		Args:    []string{"--root", "/ws", "--other=/ws2/x", "/ws/a"},
		Env:     []extensions.KV{{Key: "ROOT", Value: "/ws"}}}}
	o := Options{Portable: true, Root: "/ws"}
	got := string(ordered.JSON(TranslateWith(s, set.Get("vscode"), o).Entry))
	want := `{"type":"stdio","command":"${workspaceFolder}/.repository/extensions/e/.venv/bin/python","args":["--root","${workspaceFolder}","--other=/ws2/x","${workspaceFolder}/a"],"env":{"ROOT":"${workspaceFolder}"}}`
	if got != want {
		t.Errorf("vscode:\n got %s\nwant %s", got, want)
	}
	if got := string(ordered.JSON(TranslateWith(s, set.Get("claude"), o).Entry)); !strings.Contains(got, `"/ws/a"`) {
		t.Errorf("claude has no workspace variable and must keep the root: %s", got)
	}
}

// A relative path made absolute is under the root like any resolved path:
// portable mode writes it with the tool's workspace variable, so the
// committed file stays the same on every machine; a tool without one gets
// the absolute path.
func TestPortableRelativePath(t *testing.T) {
	set, _ := toolprofiles.Builtin()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".vaultspec", "lib", "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".vaultspec", "lib", "scripts", "subagent.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := extensions.Resolve(extensions.Declaration{Name: "vs", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "node",
		Args: []string{".vaultspec/lib/scripts/subagent.py", "serve", "--root", "."}}},
		extensions.Context{Root: root, Home: "/home/u", GOOS: "linux", ExtDir: root + "/.repository/extensions/e", Venv: ".venv"},
		"e", ".repository/extensions/e/mcp.json")
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Portable: true, Root: root}
	for _, id := range []string{"vscode", "cursor", "roo"} {
		got := string(ordered.JSON(TranslateWith(s, set.Get(id), o).Entry))
		if want := `"args":["${workspaceFolder}/.vaultspec/lib/scripts/subagent.py","serve","--root","${workspaceFolder}"]`; !strings.Contains(got, want) || strings.Contains(got, root) {
			t.Errorf("%s: %s\nwant %s", id, got, want)
		}
	}
	got := string(ordered.JSON(TranslateWith(s, set.Get("claude"), o).Entry))
	if want := `"args":["` + root + `/.vaultspec/lib/scripts/subagent.py","serve","--root","` + root + `"]`; !strings.Contains(got, want) {
		t.Errorf("claude: %s\nwant %s", got, want)
	}
}

// TestNoEnvRef: a file in which the tool takes no references (Kilo's
// project kilo.json) is written as for a tool without a reference syntax,
// and the profile itself is left as it is for the tool's other files.
func TestNoEnvRef(t *testing.T) {
	set, err := toolprofiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	p := set.Get("kilo")
	s := extensions.Server{Name: "s", Extension: "e", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "node",
		Env: []extensions.KV{{Key: "TOKEN", Value: "${TOKEN}"}, {Key: "URL", Value: "https://x/${REGION}"}}}}
	with := TranslateWith(s, p, Options{})
	without := TranslateWith(s, p, Options{NoEnvRef: true})
	if got := string(ordered.JSON(with.Entry)); !strings.Contains(got, `"TOKEN":"{env:TOKEN}"`) {
		t.Errorf("user file: %s", got)
	}
	got := string(ordered.JSON(without.Entry))
	if strings.Contains(got, "TOKEN") || !strings.Contains(got, `"URL":"https://x/${REGION}"`) {
		t.Errorf("project file: %s, want TOKEN left out and ${REGION} literal", got)
	}
	if len(without.Warnings) != 2 {
		t.Errorf("warnings: %v", without.Warnings)
	}
	if p.Entry.EnvRef != "{env:NAME}" {
		t.Error("the profile was changed")
	}
}

// TestGroup: the same problem of one server in several tools is one line
// naming the tools, in the order they came; other servers, other problems
// and warnings made by hand stay apart.
func TestGroup(t *testing.T) {
	ws := []Warning{
		{Tool: "claude", Server: "s", Msg: "Claude Code has no cwd", Problem: "the tool has no cwd"},
		{Tool: "kiro", Server: "s", Msg: "Kiro has no cwd", Problem: "the tool has no cwd"},
		{Tool: "kiro", Server: "t", Msg: "Kiro has no cwd", Problem: "the tool has no cwd"},
		{Tool: "zed", Server: "s", Msg: "Zed expands nothing", Problem: "the tool expands nothing"},
		{Tool: "repo", Server: "s", Msg: "by hand"},
		{Tool: "cursor", Server: "s", Msg: "Cursor has no cwd", Problem: "the tool has no cwd"},
	}
	want := []string{
		`claude, kiro, cursor: server "s": the tool has no cwd`,
		`kiro: server "t": Kiro has no cwd`,
		`zed: server "s": Zed expands nothing`,
		`repo: server "s": by hand`,
	}
	if got := Group(ws); !slices.Equal(got, want) {
		t.Errorf("Group:\n got %q\nwant %q", got, want)
	}
	// A translation's warnings carry the problem without the tool's name.
	s := extensions.Server{Name: "x", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "node", Cwd: "/w"}}
	for _, id := range []string{"claude", "kiro"} {
		res := TranslateWith(s, profile(t, id), Options{})
		if len(res.Warnings) != 1 || res.Warnings[0].Problem != `the tool has no working-directory field; cwd "/w" is not written (the server starts where the tool starts it)` {
			t.Errorf("%s: warnings %+v", id, res.Warnings)
		}
	}
}
