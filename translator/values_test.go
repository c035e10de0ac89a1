package translator

import (
	"errors"
	"strings"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/toolprofiles"
)

// testProfile decodes a profile whose [entry] holds entry, as a workspace
// override would be.
func testProfile(t *testing.T, entry string) *toolprofiles.Profile {
	t.Helper()
	src := `id = "t"
name = "Tool T"
mcp = true
evidence = "docs"
sources = ["test"]

[scopes.project]
paths = [".t.json"]
format = "json"
key = ["mcpServers"]

[entry]
command = "string"
cwd_field = "cwd"
` + entry
	p, err := toolprofiles.Decode([]byte(src), "t.toml")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// server resolves a declaration against a root, home and extension folder as
// repo would, so that the paths carry their spans.
func server(t *testing.T, root string, spec extensions.Spec) extensions.Server {
	t.Helper()
	c := extensions.Context{Root: root, Home: "/home/u", GOOS: "linux", ExtDir: root + "/.repository/extensions/e", Venv: ".venv"}
	s, err := extensions.Resolve(extensions.Declaration{Name: "s", Spec: spec}, c, "e", ".repository/extensions/e/mcp.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func entryJSON(r Result) string { return string(ordered.JSON(r.Entry)) }

// A tool that substitutes ${…} and has no escape: the author's references
// are written in its syntax, and literal ${…} — from a path or from the
// author — is refused, naming the tool, the value and the path.
func TestRefusedWithoutEscape(t *testing.T) {
	p := testProfile(t, "env_ref = \"${env:NAME}\"\n\n[[entry.expands]]\nfields = [\"command\", \"args\", \"env\", \"cwd\"]\npattern = '\\$\\{[^}]*\\}'\n")

	ok := server(t, "/ws/pa$$word", extensions.Spec{Transport: extensions.Stdio, Command: "node",
		Args: []string{"<<root>>/s.js", "--t=${TOKEN}"}, Env: []extensions.KV{{Key: "K", Value: "${K:-d}<<home>>"}}})
	res := TranslateWith(ok, p, Options{})
	if res.Err != nil {
		t.Fatalf("a $ that is not ${…} needs no escape here: %v", res.Err)
	}
	if want := `{"command":"node","args":["/ws/pa$$word/s.js","--t=${env:TOKEN}"],"env":{"K":"${env:K}/home/u"}}`; entryJSON(res) != want {
		t.Errorf("got  %s\nwant %s", entryJSON(res), want)
	}

	root := "/ws/${HOME}"
	for _, tc := range []struct {
		spec  extensions.Spec
		field string
	}{
		{extensions.Spec{Command: "python"}, "command"}, // the venv python, under the root
		{extensions.Spec{Command: "n", Args: []string{"--root", "."}}, "args[1]"},
		{extensions.Spec{Command: "n", Args: []string{"<<extension.dir>>/x"}}, "args[0]"},
		{extensions.Spec{Command: "n", Env: []extensions.KV{{Key: "R", Value: "<<root>>"}}}, "env.R"},
		{extensions.Spec{Command: "n", Cwd: "sub"}, "cwd"},
	} {
		tc.spec.Transport = extensions.Stdio
		res := TranslateWith(server(t, root, tc.spec), p, Options{})
		var r *Refusal
		if !errors.As(res.Err, &r) || res.Entry != nil {
			t.Errorf("%s: got %s, %v; want a refusal", tc.field, entryJSON(res), res.Err)
			continue
		}
		if r.Field != tc.field || r.Text != "${HOME}" || r.Path == "" || r.From == "" {
			t.Errorf("%s: refusal %+v", tc.field, r)
		}
		for _, part := range []string{"t: server \"s\"", tc.field, "${HOME}", "Tool T", "has no way to write it literally", "--tool"} {
			if !strings.Contains(r.Error(), part) {
				t.Errorf("%s: %q does not say %q", tc.field, r.Error(), part)
			}
		}
	}

	// The author's literal ${env:X} is not a reference (only ${NAME} is).
	res = TranslateWith(server(t, "/ws", extensions.Spec{Transport: extensions.Stdio, Command: "n", Args: []string{"${env:X}"}}), p, Options{})
	var r *Refusal
	if !errors.As(res.Err, &r) || r.From != "" || r.Text != "${env:X}" || !strings.Contains(r.Error(), ".repository/extensions/e/mcp.json") {
		t.Errorf("author's ${env:X}: %+v", res)
	}
}

// A tool with an escape gets every literal piece escaped, and its
// references written as references.
func TestEscaped(t *testing.T) {
	p := testProfile(t, "env_ref = \"${NAME}\"\nenv_ref_default = true\n\n[[entry.expands]]\nfields = [\"command\", \"args\", \"env\"]\nescape = { '\\' = '\\\\', '$' = '\\$', '`' = '\\`' }\n")
	s := server(t, "/ws/a$b`c\\d", extensions.Spec{Transport: extensions.Stdio, Command: "python",
		Args: []string{"--root", ".", "pa$$word", "$(id)", "${TOKEN}", "x${A:-$y}"}, Cwd: "/abs/$x"})
	res := TranslateWith(s, p, Options{})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	want := `{"command":"/ws/a\\$b\\` + "`" + `c\\\\d/.repository/extensions/e/.venv/bin/python",` +
		`"args":["--root","/ws/a\\$b\\` + "`" + `c\\\\d","pa\\$\\$word","\\$(id)","${TOKEN}","x${A:-$y}"],"cwd":"/abs/$x"}`
	if got := entryJSON(res); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// References are written only in the values the tool expands them in;
// elsewhere they stay literal with a warning, and an env member that only
// forwards its own variable is left out when env is not among them.
func TestReferenceScope(t *testing.T) {
	p := testProfile(t, "env_ref = \"${env:NAME}\"\nenv_ref_fields = [\"headers\"]\n\n[entry.remote]\nhttp = {}\n")
	s := server(t, "/ws", extensions.Spec{Transport: extensions.Stdio, Command: "n", Args: []string{"--t=${T}"},
		Env: []extensions.KV{{Key: "TOKEN", Value: "${TOKEN}"}, {Key: "O", Value: "${OTHER}"}}})
	res := TranslateWith(s, p, Options{})
	if want := `{"command":"n","args":["--t=${T}"],"env":{"O":"${OTHER}"}}`; entryJSON(res) != want {
		t.Errorf("got  %s\nwant %s", entryJSON(res), want)
	}
	warned := strings.Join(warnings(res), "\n")
	for _, w := range []string{
		"Tool T expands environment references only in headers; args[0] keeps the literal text ${T}",
		"Tool T expands environment references only in headers; env TOKEN is left out",
		"Tool T expands environment references only in headers; env.O keeps the literal text ${OTHER}",
	} {
		if !strings.Contains(warned, w) {
			t.Errorf("no warning %q in\n%s", w, warned)
		}
	}
	r := server(t, "/ws", extensions.Spec{Transport: extensions.HTTP, URL: "https://h/${U}",
		Headers: []extensions.KV{{Key: "Authorization", Value: "Bearer ${T}"}}})
	if want := `{"url":"https://h/${U}","headers":{"Authorization":"Bearer ${env:T}"}}`; entryJSON(TranslateWith(r, p, Options{})) != want {
		t.Errorf("remote: %s", entryJSON(TranslateWith(r, p, Options{})))
	}
	// A value that is all path, and reads "${TOKEN}", is not the author's
	// forwarding member: it stays, literal.
	f := server(t, "/${TOKEN}", extensions.Spec{Transport: extensions.Stdio, Command: "n", Env: []extensions.KV{{Key: "TOKEN", Value: "<<root>>"}}})
	if got := entryJSON(TranslateWith(f, p, Options{})); !strings.Contains(got, `"TOKEN":"/${TOKEN}"`) {
		t.Errorf("path taken for a forwarding member: %s", got)
	}
}

func warnings(r Result) []string {
	var out []string
	for _, w := range r.Warnings {
		out = append(out, w.Msg)
	}
	return out
}

// In portable mode the tool's workspace variable is one of its own
// references: the check lets it through, while the rest of the path is
// still checked.
func TestPortableRootVarIsChecked(t *testing.T) {
	p := testProfile(t, "env_ref = \"${env:NAME}\"\nroot_var = \"${workspaceFolder}\"\n\n[[entry.expands]]\nfields = [\"args\"]\npattern = '\\$\\{[^}]*\\}'\n")
	o := Options{Portable: true, Root: "/ws/${X}"}
	res := TranslateWith(server(t, "/ws/${X}", extensions.Spec{Transport: extensions.Stdio, Command: "n",
		Args: []string{"--root", ".", "<<extension.dir>>/s.js", "${T}"}}), p, o)
	if want := `{"command":"n","args":["--root","${workspaceFolder}","${workspaceFolder}/.repository/extensions/e/s.js","${env:T}"]}`; entryJSON(res) != want || res.Err != nil {
		t.Errorf("got %s %v\nwant %s", entryJSON(res), res.Err, want)
	}
	// A root that is not a whole path prefix stays the path: refused.
	res = TranslateWith(server(t, "/ws/${X}", extensions.Spec{Transport: extensions.Stdio, Command: "n",
		Args: []string{"<<root>>/a", "<<root>>.bak"}}), p, Options{Portable: true, Root: "/ws/${X}"})
	if res.Err == nil || !strings.Contains(res.Err.Error(), "args[1]") {
		t.Errorf("got %s %v", entryJSON(res), res.Err)
	}
}

// A rule limited to an OS applies there only, and a resolved_only rule
// leaves the author's text alone.
func TestRuleOSAndResolvedOnly(t *testing.T) {
	p := testProfile(t, "\n[[entry.expands]]\nfields = [\"args\"]\nos = [\"windows\"]\npattern = '%\\w+%'\n\n"+
		"[[entry.expands]]\nfields = [\"args\"]\npattern = '\\$\\{\\{[^}]*\\}\\}'\nresolved_only = true\n")
	s := server(t, "/ws/%P%", extensions.Spec{Transport: extensions.Stdio, Command: "n", Args: []string{"<<root>>", "${{ secrets.K }}"}})
	if res := TranslateWith(s, p, Options{GOOS: "linux"}); res.Err != nil {
		t.Errorf("linux: %v", res.Err)
	}
	if res := TranslateWith(s, p, Options{GOOS: "windows"}); res.Err == nil {
		t.Errorf("windows: %%P%% in the root went through: %s", entryJSON(res))
	}
	s = server(t, "/ws/${{ x }}", extensions.Spec{Transport: extensions.Stdio, Command: "n", Args: []string{"<<root>>"}})
	if res := TranslateWith(s, p, Options{}); res.Err == nil {
		t.Errorf("a path holding ${{ x }} went through: %s", entryJSON(res))
	}
}

// TestKeysCheckedLikeValues: a tool that expands its syntax in keys too
// (OpenCode and Kilo read the file's raw text, Roo Code a serialised entry)
// gets no key that it would read as something to substitute: the server's
// name, an env name or a header name matching a rule that covers keys is
// refused for the tool, naming the key; an escape rule escapes env and
// header names; tools whose rules cover values only write the keys as
// they are.
func TestKeysCheckedLikeValues(t *testing.T) {
	remote := func(name, header string) extensions.Server {
		return server(t, "/ws", extensions.Spec{Transport: extensions.HTTP, URL: "https://example.invalid/mcp",
			Headers: []extensions.KV{{Key: header, Value: "v"}}})
	}
	stdio := func(env string) extensions.Server {
		return server(t, "/ws", extensions.Spec{Transport: extensions.Stdio, Command: "node", Env: []extensions.KV{{Key: env, Value: "v"}}})
	}
	named := func(name string) extensions.Server {
		s := stdio("A")
		s.Name = name
		return s
	}
	for _, c := range []struct {
		tool string
		s    extensions.Server
		want string // the refusal, "" for none
	}{
		{"opencode", remote("r", "X-Client-{file:~/.git-credentials}"),
			`opencode: server "s": header name "X-Client-{file:~/.git-credentials}" contains "{file:~/.git-credentials}", which OpenCode would expand (it reads keys as it reads values), and OpenCode has no way to write it literally; rename it in .repository/extensions/e/mcp.json, or leave opencode out (--tool)`},
		{"kilo", remote("r", "X-{env:HOME}"), `kilo: server "s": header name "X-{env:HOME}" contains "{env:HOME}"`},
		{"opencode", stdio("K_{env:AWS_SECRET_ACCESS_KEY}"), `opencode: server "s": env name "K_{env:AWS_SECRET_ACCESS_KEY}" contains "{env:AWS_SECRET_ACCESS_KEY}"`},
		{"kilo", stdio("{file:/etc/passwd}"), `kilo: server "s": env name "{file:/etc/passwd}" contains "{file:/etc/passwd}"`},
		{"opencode", named("x{file:~/.ssh/id_ed25519}"), `opencode: server "x{file:~/.ssh/id_ed25519}": the server's name contains "{file:~/.ssh/id_ed25519}", which OpenCode would expand (it reads keys as it reads values), and OpenCode has no way to write it literally; rename the server in .repository/extensions/e/mcp.json, or leave opencode out (--tool)`},
		{"kilo", named("{env:X}"), `kilo: server "{env:X}": the server's name contains "{env:X}"`},
		{"roo", stdio("${env:HOME}"), `roo: server "s": env name "${env:HOME}" contains "${env:HOME}", which Roo Code would expand`},
		{"roo", remote("r", "X-${workspaceFolder}"), `roo: server "s": header name "X-${workspaceFolder}" contains "${workspaceFolder}"`},
		{"kilo-legacy", stdio("${env:HOME}"), `kilo-legacy: server "s": env name "${env:HOME}"`},
		// Roo Code's injectVariables runs on each entry, not on the map's keys.
		{"roo", named("${env:HOME}"), ""},
		// Text that is not the tool's syntax is a key like any other.
		{"opencode", remote("r", "X-{envy:HOME}"), ""},
		// Tools that substitute in values only take these keys as they are.
		{"claude", stdio("${HOME}"), ""},
		{"cursor", remote("r", "X-${env:HOME}"), ""},
		{"cline", named("${env:HOME}"), ""},
	} {
		res := TranslateWith(c.s, profile(t, c.tool), Options{GOOS: "linux"})
		switch {
		case c.want == "" && res.Err != nil:
			t.Errorf("%s %s: refused: %v", c.tool, c.s.Name, res.Err)
		case c.want != "" && (res.Err == nil || !strings.HasPrefix(res.Err.Error(), c.want)):
			t.Errorf("%s %s: got %v, want %s", c.tool, c.s.Name, res.Err, c.want)
		case c.want != "" && res.Entry != nil:
			t.Errorf("%s %s: refused, but an entry was made", c.tool, c.s.Name)
		}
	}

	// An escape rule that covers keys escapes env and header names.
	p := testProfile(t, "[[entry.expands]]\nfields = [\"env\"]\nkeys = [\"env\"]\nescape = { '$' = '$$' }\n")
	res := TranslateWith(stdio("A$B"), p, Options{})
	if res.Err != nil || entryJSON(res) != `{"command":"node","env":{"A$$B":"v"}}` {
		t.Errorf("escaped key: %s, %v", entryJSON(res), res.Err)
	}
}
