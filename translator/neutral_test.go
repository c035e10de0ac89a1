package translator

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/toolprofiles"
)

// The workspace the tests import into: extension "team" under /ws.
var neutralCtx = extensions.Context{Root: "/ws", Home: "/home/u", GOOS: "linux", ExtDir: "/ws/.repository/extensions/team", Venv: ".venv"}

var neutralOpts = NeutralOptions{Root: "/ws", Home: "/home/u", Python: neutralCtx.Python(), GOOS: "linux"}

func profile(t *testing.T, id string) *toolprofiles.Profile {
	t.Helper()
	set, err := toolprofiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	p := set.Get(id)
	if p == nil {
		t.Fatalf("no profile %s", id)
	}
	return p
}

func spec(transport string) extensions.Spec { return extensions.Spec{Transport: transport} }

func kv(pairs ...string) []extensions.KV {
	var out []extensions.KV
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, extensions.KV{Key: pairs[i], Value: pairs[i+1]})
	}
	return out
}

// TestNeutralDialects reads one entry of each dialect, as the tool's file
// holds it (as JSON, which is what every format's editor gives), back into
// the neutral format.
func TestNeutralDialects(t *testing.T) {
	stdio := func(cmd string, args []string, env []extensions.KV, cwd string) extensions.Spec {
		s := spec(extensions.Stdio)
		s.Command, s.Args, s.Env, s.Cwd = cmd, args, env, cwd
		return s
	}
	remote := func(transport, url string, headers []extensions.KV) extensions.Spec {
		s := spec(transport)
		s.URL, s.Headers = url, headers
		return s
	}
	cases := []struct {
		tool, name, entry string
		want              extensions.Spec
		warn              string // a warning that must be given
	}{
		// JSON map, string command: Claude Code. The venv python of the
		// extension becomes python, the root <<root>>, the home <<home>>,
		// references (with a default) stay references.
		{"claude", "venv", `{"type":"stdio","command":"/ws/.repository/extensions/team/.venv/bin/python","args":["/ws/lib/s.py","--root","/ws","--root=/ws"],"env":{"T":"${T}","L":"${L:-info}","CACHE":"/home/u/.cache"}}`,
			stdio("python", []string{"<<root>>/lib/s.py", "--root", "<<root>>", "--root=<<root>>"}, kv("T", "${T}", "L", "${L:-info}", "CACHE", "<<home>>/.cache"), ""), ""},
		{"claude", "no-type", `{"command":"npx","args":["-y","@scope/server"]}`,
			stdio("npx", []string{"-y", "@scope/server"}, nil, ""), ""},
		{"claude", "http", `{"type":"http","url":"https://mcp.example.invalid/${REGION}/mcp","headers":{"Authorization":"Bearer ${TOKEN}"}}`,
			remote(extensions.HTTP, "https://mcp.example.invalid/${REGION}/mcp", kv("Authorization", "Bearer ${TOKEN}")), ""},
		{"claude", "sse", `{"type":"sse","url":"https://e.invalid/sse"}`, remote(extensions.SSE, "https://e.invalid/sse", nil), ""},
		// VS Code: ${env:X} and the workspace variable.
		{"vscode", "vs", `{"type":"stdio","command":"node","args":["${workspaceFolder}/s.js"],"env":{"T":"${env:T}","R":"${workspaceFolder}"},"cwd":"${workspaceFolder}/sub"}`,
			stdio("node", []string{"<<root>>/s.js"}, kv("T", "${T}", "R", "<<root>>"), "<<root>>/sub"), ""},
		{"cursor", "cur", `{"command":"node","args":["${workspaceFolder}"],"env":{"T":"${env:T}"}}`,
			stdio("node", []string{"<<root>>"}, kv("T", "${T}"), ""), ""},
		{"cursor", "cur-remote", `{"url":"https://c.invalid/mcp"}`, remote(extensions.HTTP, "https://c.invalid/mcp", nil), ""},
		// OpenCode: one command array, environment, {env:X}, fixed members.
		{"opencode", "oc", `{"type":"local","command":["npx","-y","srv","--k={env:K}"],"environment":{"K":"{env:K}","P":"/ws/x"},"enabled":true,"timeout":5000}`,
			stdio("npx", []string{"-y", "srv", "--k=${K}"}, kv("K", "${K}", "P", "<<root>>/x"), ""), ""},
		{"opencode", "oc-remote", `{"type":"remote","url":"https://o.invalid","headers":{"A":"Bearer {env:T}"},"enabled":true}`,
			remote(extensions.HTTP, "https://o.invalid", kv("A", "Bearer ${T}")), ""},
		// Codex (TOML tables, as JSON): env_vars forward, bearer and env headers.
		{"codex", "cx", `{"command":"uvx","args":["srv"],"env":{"MODE":"dev"},"env_vars":["TOKEN"],"cwd":"/ws","startup_timeout_sec":20,"enabled":false}`,
			stdio("uvx", []string{"srv"}, kv("MODE", "dev", "TOKEN", "${TOKEN}"), "<<root>>"), ""},
		{"codex", "cx-remote", `{"url":"https://x.invalid/mcp","http_headers":{"X-A":"b"},"bearer_token_env_var":"TOK","env_http_headers":{"X-Key":"KEY"}}`,
			remote(extensions.HTTP, "https://x.invalid/mcp", kv("X-A", "b", "Authorization", "Bearer ${TOK}", "X-Key", "${KEY}")), ""},
		{"codex", "cx-literal-ref", `{"command":"srv","args":["${HOME}/x"]}`,
			stdio("srv", []string{"${HOME}/x"}, nil, ""), "keeps the text ${HOME} as written"},
		// Goose (YAML): cmd, envs, its own name and fixed members.
		{"goose", "gh", `{"name":"GitHub","type":"stdio","cmd":"npx","args":[],"envs":{"A":"b"},"enabled":true,"timeout":300,"description":"","bundled":null}`,
			stdio("npx", nil, kv("A", "b"), ""), ""},
		{"goose", "g-remote", `{"type":"streamable_http","uri":"https://g.invalid","enabled":true,"timeout":300,"description":"","name":"g-remote"}`,
			remote(extensions.HTTP, "https://g.invalid", nil), ""},
		// Continue (YAML list; its editor gives the entry without the name).
		{"continue", "ct", `{"type":"stdio","command":"npx","args":["a"],"cwd":"/ws/sub","env":{"X":"${{ secrets.X }}"}}`,
			stdio("npx", []string{"a"}, kv("X", "${{ secrets.X }}"), "<<root>>/sub"), ""},
		{"continue", "ct-sse", `{"type":"sse","url":"https://c.invalid/sse"}`, remote(extensions.SSE, "https://c.invalid/sse", nil), ""},
		// Crush: escapes undone, references kept.
		{"crush", "cr", "{\"type\":\"stdio\",\"command\":\"node\",\"args\":[\"\\\\$HOME\",\"${T}\",\"a\\\\\\\\b\",\"\\\\`\"]}",
			stdio("node", []string{"$HOME", "${T}", `a\b`, "`"}, nil, ""), ""},
		// Gemini CLI: the URL field says the transport.
		{"gemini", "gm-http", `{"httpUrl":"https://g.invalid","headers":{"A":"${T}"},"trust":true}`,
			remote(extensions.HTTP, "https://g.invalid", kv("A", "${T}")), ""},
		{"gemini", "gm-sse", `{"url":"https://g.invalid/sse"}`, remote(extensions.SSE, "https://g.invalid/sse", nil), ""},
		{"windsurf", "ws", `{"serverUrl":"https://w.invalid"}`, remote(extensions.HTTP, "https://w.invalid", nil), ""},
		{"zed", "z", `{"command":"node","args":[],"env":{}}`, stdio("node", nil, []extensions.KV(nil), ""), ""},
		{"goose", "g-minimal", `{"type":"stdio","cmd":"n","args":[]}`, stdio("n", nil, nil, ""), ""},
		// Paths: only whole path prefixes, and the home only outside the root.
		{"claude", "paths", `{"command":"/wsx/bin","args":["/ws","/ws/","x/ws/y","file:///ws/x","/home/u","/home/user","/ws-2","a=/ws"]}`,
			stdio("/wsx/bin", []string{"<<root>>", "<<root>>/", "x/ws/y", "file://<<root>>/x", "<<home>>", "/home/user", "/ws-2", "a=<<root>>"}, nil, ""), ""},
		// Another extension's venv python is a path, not python.
		{"claude", "other-venv", `{"command":"/ws/.repository/extensions/other/.venv/bin/python"}`,
			stdio("<<root>>/.repository/extensions/other/.venv/bin/python", nil, nil, ""), ""},
	}
	for _, c := range cases {
		t.Run(c.tool+"/"+c.name, func(t *testing.T) {
			got, warnings, err := Neutral(c.name, []byte(c.entry), profile(t, c.tool), neutralOpts)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Env) == 0 && len(c.want.Env) == 0 {
				got.Env, c.want.Env = nil, nil
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got  %+v\nwant %+v", got, c.want)
			}
			found := c.warn == ""
			for _, w := range warnings {
				found = found || strings.Contains(w.Msg, c.warn)
			}
			if !found {
				t.Errorf("no warning %q in %v", c.warn, warnings)
			}
			if c.warn == "" && len(warnings) > 0 {
				t.Errorf("unexpected warnings %v", warnings)
			}
		})
	}
}

// TestNeutralRefusals: what the neutral format cannot say is refused,
// naming the member and what to do.
func TestNeutralRefusals(t *testing.T) {
	cases := []struct{ tool, entry, want string }{
		// headers is Claude Code's member of a remote entry: in a stdio one the
		// neutral format has no place for it. A member Claude's dialect never
		// writes (alwaysLoad) is the user's and stays in the file instead.
		{"claude", `{"command":"node","headers":{"A":"b"}}`, `headers: an extension's MCP file has no such field`},
		{"claude", `{"command":"python3","args":["-m","srv"]}`, `command: "python3": in an extension's MCP file python3 means the extension's own venv python (.repository/extensions/team/.venv/bin/python)`},
		{"opencode", `{"type":"local","command":["python"]}`, `command: "python"`},
		{"claude", `{"command":"node","args":["<<EOF"]}`, `args[0]: "<<EOF" holds <<`},
		{"claude", `{"command":"node","args":[1]}`, `args[0]: must be a string, not the number 1`},
		{"claude", `{"command":"node","env":{"A":true}}`, `env.A: must be a string, not the boolean true`},
		{"claude", `{"command":["node"]}`, `command: must be a string, not a list`},
		{"claude", `{"type":"websocket","url":"wss://x"}`, `type: "websocket" is not a transport repo knows for Claude Code ("stdio" (stdio), "http" (http), "sse" (sse))`},
		{"claude", `{"args":["x"]}`, `has neither a command nor a URL`},
		{"claude", `[]`, `the entry is a list, not an object`},
		{"jetbrains", `{"url":"https://x"}`, `has no command; JetBrains`},
		{"vscode", `{"type":"stdio","command":"node","args":["${input:token}"]}`, `args[0]: "${input:token}" holds ${input:token}, which VS Code (Copilot Chat) expands but which is no environment reference (${env:NAME} there)`},
		{"vscode", `{"type":"stdio","command":"node","env":{"A":"${A}"}}`, `env.A: "${A}" holds ${A}, which VS Code`},
		{"gemini", `{"command":"node","args":["$HOME"]}`, `args[0]: "$HOME" holds $HOME, which Gemini CLI expands`},
		{"crush", `{"type":"stdio","command":"node","args":["$(id)"]}`, `args[0]: "$(id)" has an unescaped $, which Crush expands (it writes \$ for the character itself)`},
		{"crush", `{"type":"stdio","command":"node","args":["\\${T}"]}`, `args[0]: "\\${T}" holds the literal text ${T}, which Crush keeps as written`},
		{"opencode", `{"type":"local","command":["node","${T}"]}`, `command[1]: "${T}" holds the literal text ${T}`},
		{"opencode", `{"type":"local","command":["node","{file:x}"]}`, `command[1]: "{file:x}" holds {file:x}, which OpenCode expands`},
		{"codex", `{"command":"n","env":{"T":"x"},"env_vars":["T"]}`, `env_vars: T is both set in env and forwarded`},
		{"codex", `{"url":"https://x","http_headers":{"authorization":"x"},"bearer_token_env_var":"T"}`, `bearer_token_env_var: header Authorization is also given in http_headers`},
		{"codex", `{"url":"https://x","bearer_token_env_var":"not a name"}`, `bearer_token_env_var: must be the name of an environment variable`},
		{"codex", `{"command":"n","env_vars":[{"name":"T"}]}`, `env_vars[0]: must be a string, not an object`},
		{"goose", `{"type":"sse","uri":"https://x"}`, `type: "sse" is not a transport repo knows for Goose`},
		{"opencode", `{"type":"local","command":[]}`, `command: is empty`},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			_, _, err := Neutral("s", []byte(c.entry), profile(t, c.tool), neutralOpts)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%s\n got %v\nwant …%s…", c.entry, err, c.want)
			}
			if !strings.HasPrefix(err.Error(), c.tool+`: server "s": `) {
				t.Errorf("%v does not name the tool and server", err)
			}
		})
	}
}

// neutralDecls are declarations as an author (or an import) writes them,
// covering what resolution fills in.
var neutralDecls = []extensions.Declaration{
	{Name: "py", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "python",
		Args: []string{"<<root>>/lib/s.py", "--root", "<<root>>", "--cache=<<home>>/.cache"},
		Env:  kv("ROOT", "<<root>>", "TOKEN", "${TOKEN}", "LEVEL", "${LEVEL:-info}", "MODE", "dev")}},
	{Name: "npx", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "npx", Args: []string{"-y", "@scope/srv", "--flag=${FLAG}"}}},
	{Name: "cwd", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "node", Cwd: "<<root>>/sub", Env: kv("P", "$literal\\`x`")}},
	{Name: "http", Spec: extensions.Spec{Transport: extensions.HTTP, URL: "https://h.invalid/mcp",
		Headers: kv("Authorization", "Bearer ${TOKEN}", "X-Key", "${KEY}", "X-Plain", "v")}},
	{Name: "sse", Spec: extensions.Spec{Transport: extensions.SSE, URL: "https://h.invalid/sse"}},
}

// TestNeutralRoundTrip: for every built-in profile, what repo writes for a
// declaration reads back as a declaration that repo writes the same way —
// in portable mode too — and, where the tool can say every part of the
// server (no warning), as the declaration itself.
func TestNeutralRoundTrip(t *testing.T) {
	set, err := toolprofiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range set.All() {
		if !p.MCP {
			continue
		}
		for _, portable := range []bool{false, true} {
			for _, d := range neutralDecls {
				s, err := extensions.Resolve(d, neutralCtx, "team", ".repository/extensions/team/mcp.json")
				if err != nil {
					t.Fatal(err)
				}
				o := Options{Portable: portable, Root: "/ws", GOOS: "linux"}
				res := TranslateWith(s, p, o)
				if res.Err != nil || res.Entry == nil {
					continue // the tool cannot take it: nothing to read back
				}
				entry := ordered.JSON(res.Entry)
				back, _, err := Neutral(d.Name, entry, p, neutralOpts)
				if err != nil {
					t.Errorf("%s/%s (portable %t): %s: %v", p.ID, d.Name, portable, entry, err)
					continue
				}
				s2, err := extensions.Resolve(extensions.Declaration{Name: d.Name, Spec: back}, neutralCtx, "team", ".repository/extensions/team/mcp.json")
				if err != nil {
					t.Errorf("%s/%s: the declaration read back does not resolve: %v", p.ID, d.Name, err)
					continue
				}
				again := TranslateWith(s2, p, o)
				if got := ordered.JSON(again.Entry); string(got) != string(entry) {
					t.Errorf("%s/%s (portable %t): written again differently\n first %s\nagain %s", p.ID, d.Name, portable, entry, got)
				}
				if back.Transport == extensions.HTTP && d.Transport == extensions.SSE && sameRemoteSpelling(p) {
					back.Transport = extensions.SSE // the tool writes both alike: what it has is read as http
				}
				if len(res.Warnings) == 0 && !sameSpec(back, d.Spec) {
					t.Errorf("%s/%s (portable %t): read back as\n %+v\nwant %+v", p.ID, d.Name, portable, back, d.Spec)
				}
			}
		}
	}
}

// sameSpec compares two specs, env and headers as maps.
func sameSpec(a, b extensions.Spec) bool {
	sorted := func(kvs []extensions.KV) []extensions.KV {
		out := slices.Clone(kvs)
		slices.SortFunc(out, func(x, y extensions.KV) int { return strings.Compare(x.Key, y.Key) })
		if len(out) == 0 {
			return nil
		}
		return out
	}
	a.Env, b.Env, a.Headers, b.Headers = sorted(a.Env), sorted(b.Env), sorted(a.Headers), sorted(b.Headers)
	if len(a.Args) == 0 && len(b.Args) == 0 {
		a.Args, b.Args = nil, nil
	}
	return reflect.DeepEqual(a, b)
}

// sameRemoteSpelling: the tool writes http and sse servers alike.
func sameRemoteSpelling(p *toolprofiles.Profile) bool {
	r := p.Entry.Remote
	return r != nil && r.HTTP != nil && r.SSE != nil && *r.HTTP == *r.SSE
}
