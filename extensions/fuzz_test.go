package extensions

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
)

// mcpSeeds are MCP files from the hostile-input cases: broken syntax,
// wrong types, duplicate names, hostile server names, templates, env
// references, BOM and CRLF.
var mcpSeeds = []string{
	`{"mcpServers": {"s": {"command": "python", "args": ["s.py", "--root", "."], "env": {"R": "<<root>>", "T": "${TOKEN}"}}}}`,
	`{"mcpServers": {"r": {"type": "sse", "url": "https://h.invalid/<<root>>", "headers": {"Authorization": "Bearer ${T}"}}}}`,
	`{"mcpServers": {"i": {"url": "https://h.invalid/mcp"}}}`,
	`{"mcpServers": {}}`,
	`{"mcpServers": []}`,
	`{"mcpServers": "x"}`,
	`{"mcpServers": null}`,
	`{"mcpServers": 42}`,
	`{"servers": {}}`,
	`[]`,
	``,
	` `,
	`{`,
	`{"mcpServers": {,}}`,
	`{"mcpServers": {"a": {"command": "x"},}}`,
	"// c\n{\"mcpServers\": {}}",
	`{"mcpServers": {"s": {"command": "x"}, "s": {"command": "y"}}}`,
	`{"mcpServers": {}, "mcpServers": {"s": {"command": "x"}}}`,
	`{"mcpServers": {"": {"command": "x"}}}`,
	`{"mcpServers": {"s": {"command": "x", "command": "y"}}}`,
	`{"mcpServers": {"s": {"command": "x", "env": {"A": "1", "A": "2"}}}}`,
	`{"mcpServers": {"s": {"command": " "}}}`,
	`{"mcpServers": {"s": {"type": "http", "url": "u", "command": "x"}}}`,
	`{"mcpServers": {"s": {"type": "ws", "url": "u"}}}`,
	`{"mcpServers": {"s": {"type": "stdio", "url": "u", "command": "x"}}}`,
	`{"mcpServers": {"s": {"command": "x", "args": ["a", 1]}}}`,
	`{"mcpServers": {"s": {"command": "x", "args": "a"}}}`,
	`{"mcpServers": {"s": {"command": "x", "env": []}}}`,
	`{"mcpServers": {"s": {"command": "x", "timeout": 5}}}`,
	`{"mcpServers": {"s": {"command": "x", "enabled": false, "includeTools": ["a"], "excludeTools": ["b"], "autoApprove": ["a"], "startupTimeout": 30, "toolTimeout": 1e2}}}`,
	`{"mcpServers": {"s": {"command": "x", "enabled": 0, "includeTools": [], "autoApprove": ["a", "a"], "toolTimeout": 1.5, "startupTimeout": 86401}}}`,
	`{"mcpServers": {"s": 1}}`,
	`{"mcpServers": {"a.b": {"command": "x"}, "a*b?": {"command": "x"}, "#x": {"command": "x"}, "@p": {"command": "x"}, "a|b": {"command": "x"}, ":x": {"command": "x"}, "\\": {"command": "x"}, "\"": {"command": "x"}, "42": {"command": "x"}, "ünï": {"command": "x"}}}`,
	`{"mcpServers": {"` + strings.Repeat("n", 300) + `": {"command": "x"}}}`,
	`{"mcpServers": {"\u0000\ud800": {"command": "\u0000"}}}`,
	`{"mcpServers": {"s": {"command": "<<runtime.python>>", "args": ["<<extension.dir>>/a", "<<home>>/b", "{{keep}}", "${{ secrets.K }}", "<<rot>>", "<<root"], "cwd": "sub"}}}`,
	"\xef\xbb\xbf{\r\n  \"mcpServers\": {\r\n    \"s\": {\"command\": \"x\"}\r\n  }\r\n}\r\n",
	"{\"mcpServers\": {\"s\": {\"command\": \"caf\xe9\"}}}",
	"{\"mcpServers\": {}}\x00",
	"\xff\xfe{\x00}\x00",
	`{"mcpServers": {"s": {"command": "x"}}} {}`,
	`{"mcpServers": {"s": {"command": "x", "args": [], "env": {}, "cwd": "", "headers": {}}}}`,
	`{"a": {"mcpServers": {}}, "mcpServers": {"s": {"command": "x"}}}`,
	`{"mcpServers": {"s": {"command": "x"}}, "other": [1, {"mcpServers": 2}]}`,
}

// FuzzParseMCPFile: parseMCPFile never panics; when it succeeds, every
// declaration has a unique non-empty name and a transport whose required
// fields are there, and the file is valid JSON; when it fails, the error
// names the file and a position.
func FuzzParseMCPFile(f *testing.F) {
	for _, s := range mcpSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		decls, err := parseMCPFile(data, "x/mcp.json", "ext")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error is %T, not *Error: %v", err, err)
			}
			if e.File != "x/mcp.json" || e.Extension != "ext" || e.Line < 1 || e.Col < 1 {
				t.Fatalf("error does not locate the problem (file %q, ext %q, %d:%d): %v", e.File, e.Extension, e.Line, e.Col, err)
			}
			if !strings.HasPrefix(err.Error(), "x/mcp.json:") {
				t.Fatalf("error does not start with the file: %v", err)
			}
			return
		}
		if !json.Valid(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))) {
			if closerAfterValue(data) {
			}
			t.Fatalf("accepted invalid JSON %q", data)
		}
		seen := map[string]bool{}
		for _, d := range decls {
			if d.Name == "" {
				t.Fatalf("accepted an empty server name in %q", data)
			}
			if seen[d.Name] {
				t.Fatalf("accepted server %q twice in %q", d.Name, data)
			}
			seen[d.Name] = true
			if d.Line < 1 || d.Col < 1 {
				t.Fatalf("server %q has no position (%d:%d)", d.Name, d.Line, d.Col)
			}
			switch d.Transport {
			case Stdio:
				if strings.TrimSpace(d.Command) == "" {
					t.Fatalf("stdio server %q without a command in %q", d.Name, data)
				}
				if d.URL != "" || d.Headers != nil {
					t.Fatalf("stdio server %q with url or headers in %q", d.Name, data)
				}
			case HTTP, SSE:
				if d.URL == "" {
					t.Fatalf("%s server %q without a url in %q", d.Transport, d.Name, data)
				}
				if d.Command != "" || d.Args != nil || d.Env != nil || d.Cwd != "" {
					t.Fatalf("%s server %q with stdio fields in %q", d.Transport, d.Name, data)
				}
			default:
				t.Fatalf("server %q has transport %q", d.Name, d.Transport)
			}
			st := d.Settings
			for _, n := range []int64{st.StartupTimeout, st.ToolTimeout} {
				if n < 0 || n > MaxTimeout {
					t.Fatalf("server %q: accepted a timeout of %d s in %q", d.Name, n, data)
				}
			}
			if st.IncludeTools != nil && len(st.IncludeTools) == 0 {
				t.Fatalf("server %q: accepted an empty includeTools in %q", d.Name, data)
			}
			for _, list := range [][]string{st.IncludeTools, st.ExcludeTools, st.AutoApprove} {
				names := map[string]bool{}
				for _, n := range list {
					if strings.TrimSpace(n) == "" || names[n] {
						t.Fatalf("server %q: accepted tool name %q (empty or repeated) in %q", d.Name, n, data)
					}
					names[n] = true
				}
			}
		}
		// What encoding/json sees as the server map has the same number of
		// members (names may differ only in how invalid escapes decode).
		var top map[string]json.RawMessage
		if json.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &top) == nil {
			var servers map[string]json.RawMessage
			if json.Unmarshal(top["mcpServers"], &servers) == nil && len(servers) != len(decls) && !hasLossyKeys(data) {
				t.Fatalf("encoding/json sees %d servers, parseMCPFile %d, in %q", len(servers), len(decls), data)
			}
		}
	})
}

// closerAfterValue: the first JSON value of data is followed by '}' or ']'.
func closerAfterValue(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	dec := json.NewDecoder(bytes.NewReader(data))
	var v json.RawMessage
	if dec.Decode(&v) != nil {
		return false
	}
	rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")
	return len(rest) > 0 && (rest[0] == '}' || rest[0] == ']')
}

// hasLossyKeys: invalid UTF-8 or lone surrogates decode to U+FFFD in
// encoding/json, so two distinct keys may collapse into one there.
func hasLossyKeys(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	return bytes.Contains(data, []byte(`\ud`)) || bytes.Contains(data, []byte(`\uD`)) || !json.Valid(data) || !bytes.Equal(bytes.ToValidUTF8(data, nil), data)
}

// envRef is an environment reference with no template syntax inside.
var envRef = regexp.MustCompile(`\$\{[^{}<>]*\}`)

// FuzzResolve: Resolve never panics; when it succeeds,
//   - no output holds "<<" unless a context value does (every template was
//     filled, and a filled-in value is never expanded again);
//   - a context value that holds template syntax appears verbatim (a root
//     folder literally named "<<home>>" is not expanded a second time);
//   - every ${…} environment reference of an input is in the output
//     verbatim: repo never expands, drops or rewrites one.
//
// When it fails, the error names the file, extension and server.
func FuzzResolve(f *testing.F) {
	f.Add("python", "--root", ".", "<<root>>", "${TOKEN}", "sub", "https://h.invalid/<<root>>", "/w/root", "/home/u", "my venv/ünï")
	f.Add("<<runtime.python>>", "<<extension.dir>>/a", "--root=.", "<<home>>/b", "${X:-y}", "", "", "/w/r<<home>>x", "/home/<<root>>", ".venv")
	f.Add("node", "{{keep}}", "${{ secrets.K }}", "<<rot>>", "Bearer ${T}", "<<root", "u", "/w", "/h", ".venv")
	f.Add("python3.12", "<< root >>", "<<<root>>>", "<<root>>>>", "${A}${B}", "${X}/a", "${U}", "/w/${HOME}", "/h/<<", ".venv")
	f.Add("x", "<<", ">>", "<<>>", "${<<root>>}", "a/${X:-b/../c}", "<<home>><<root>>", "/w", "/h", "v")
	f.Add("python3", "--root", "--root", ".", "$", "${", "${}", "/", "", "")
	f.Fuzz(func(t *testing.T, command, arg0, arg1, env, header, cwd, url, root, home, venv string) {
		d := Declaration{Name: "s", Line: 1, Col: 1, Spec: Spec{
			Transport: Stdio, Command: command, Args: []string{arg0, arg1},
			Env: []KV{{Key: "E", Value: env}}, Cwd: cwd, URL: url, Headers: []KV{{Key: "H", Value: header}},
		}}
		c := Context{Root: root, Home: home, GOOS: "linux", ExtDir: root + "/.repository/extensions/ext", Venv: venv}
		s, err := Resolve(d, c, "ext", "x/mcp.json")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.File != "x/mcp.json" || e.Extension != "ext" || e.Server != "s" || e.Field == "" {
				t.Fatalf("error does not name file, extension, server and field: %v", err)
			}
			return
		}
		outs := map[string]string{"command": s.Command, "args[0]": s.Args[0], "args[1]": s.Args[1],
			"env.E": s.Env[0].Value, "headers.H": s.Headers[0].Value, "cwd": s.Cwd, "url": s.URL}
		ins := map[string]string{"command": command, "args[0]": arg0, "args[1]": arg1,
			"env.E": env, "headers.H": header, "cwd": cwd, "url": url}
		ctxHasTemplate := false
		for _, v := range []string{c.Root, c.Home, c.ExtDir, c.Python()} {
			if strings.Contains(v, "<") || strings.Contains(v, ">") {
				ctxHasTemplate = true
			}
		}
		for field, out := range outs {
			if !ctxHasTemplate && strings.Contains(out, "<<") {
				t.Fatalf("%s = %q still holds a template (input %q)", field, out, ins[field])
			}
			if field == "cwd" && ins[field] != "" && !strings.HasPrefix(ins[field], "${") && strings.Contains(ins[field], "..") {
				continue // a relative cwd is cleaned under the root: see TestResolveCwdKeepsEnvReferences
			}
			for _, ref := range envRef.FindAllString(ins[field], -1) {
				if !strings.Contains(out, ref) {
					t.Fatalf("%s: environment reference %q of %q is not in the output %q", field, ref, ins[field], out)
				}
			}
		}
		// A field that is exactly one template is exactly its value, with
		// no second expansion, whatever the value holds.
		want := map[string]string{"<<root>>": c.Root, "<<home>>": c.Home, "<<extension.dir>>": c.ExtDir, "<<runtime.python>>": c.Python()}
		for _, field := range []string{"env.E", "headers.H", "url"} {
			if v, ok := want[ins[field]]; ok && outs[field] != v {
				t.Fatalf("%s: %q became %q, want the value %q verbatim", field, ins[field], outs[field], v)
			}
		}
	})
}
