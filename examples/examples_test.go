// Package examples holds the example workspace used by `make demo`, the test suite and the MCP
// conformance check. This test proves that every example extension is well formed and that every
// server it declares really speaks MCP over stdio, started the way an AI client starts it after
// `repo sync` has resolved the declaration.
package examples

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"
)

const (
	testTimeout = 90 * time.Second // whole session; a hung server fails the test instead of hanging it
	replyWait   = 30 * time.Second // one reply
	exitWait    = 15 * time.Second // from closing stdin to exit
)

// expectation describes what one declared server must offer.
type expectation struct {
	extension string
	runtime   bool // the extension has a [runtime] table (python extensions)
	tools     []string
	calls     []toolCall
}

type toolCall struct {
	tool  string
	args  map[string]any
	check func(t *testing.T, text string)
}

var expected = map[string]expectation{
	"vs-subagent-mcp": {
		extension: "vault-spec", runtime: true,
		tools: []string{"get_locks", "list_agents"},
		calls: []toolCall{
			{tool: "list_agents", check: func(t *testing.T, text string) {
				var got struct {
					Root   string
					Agents []struct{ Name, File string }
				}
				decodeText(t, text, &got)
				var names []string
				for _, a := range got.Agents {
					names = append(names, a.Name+"="+a.File)
				}
				want := []string{"researcher=.vaultspec/agents/researcher.md", "reviewer=.vaultspec/agents/reviewer.md"}
				if !slices.Equal(names, want) || got.Root != workspaceRoot(t) {
					t.Errorf("list_agents = root %q agents %v, want root %q agents %v", got.Root, names, workspaceRoot(t), want)
				}
			}},
			{tool: "get_locks", check: func(t *testing.T, text string) {
				var locks []any
				decodeText(t, text, &locks)
				if locks == nil || len(locks) != 0 {
					t.Errorf("get_locks = %s, want []", text)
				}
			}},
		},
	},
	"sync-ai-rules": {
		extension: "sync-ai-rules", runtime: true,
		tools: []string{"sync_status"},
		calls: []toolCall{
			{tool: "sync_status", check: func(t *testing.T, text string) {
				var got struct {
					RuleCount int      `json:"rule_count"`
					Rules     []string `json:"rules"`
				}
				decodeText(t, text, &got)
				want := []string{"commit-messages.md", "python-style.md"}
				if got.RuleCount != 2 || !slices.Equal(got.Rules, want) {
					t.Errorf("sync_status = %s, want rule_count 2 and rules %v", text, want)
				}
			}},
		},
	},
	"aifp": {
		extension: "aifp", runtime: true,
		tools: []string{"aifp_run", "aifp_status"},
		calls: []toolCall{
			{tool: "aifp_status", check: func(t *testing.T, text string) {
				var got struct{ Root, Version string }
				decodeText(t, text, &got)
				// The server runs in a scratch folder, so this proves `--root=.` was resolved.
				if got.Root != workspaceRoot(t) || got.Version != "0.9.0" {
					t.Errorf("aifp_status = %s, want root %q and version 0.9.0", text, workspaceRoot(t))
				}
			}},
			{tool: "aifp_run", args: map[string]any{"command": "check --all"}, check: func(t *testing.T, text string) {
				var got struct{ Command string }
				decodeText(t, text, &got)
				if got.Command != "check --all" {
					t.Errorf("aifp_run = %s, want the command echoed back", text)
				}
			}},
		},
	},
	"reference-manager": {
		extension: "reference-manager",
		tools:     []string{"list", "search"},
		calls: []toolCall{
			{tool: "search", args: map[string]any{"query": "CONTEXT protocol"}, check: func(t *testing.T, text string) {
				if ids := refIDs(t, text); !slices.Equal(ids, []string{"anthropic2024mcp"}) {
					t.Errorf("search = %v, want [anthropic2024mcp]", ids)
				}
			}},
			{tool: "list", check: func(t *testing.T, text string) {
				want := []string{"vaswani2017attention", "lewis2020rag", "anthropic2024mcp"}
				if ids := refIDs(t, text); !slices.Equal(ids, want) {
					t.Errorf("list = %v, want %v", ids, want)
				}
			}},
		},
	},
	"sudocode": {
		extension: "sudocode",
		tools:     []string{"list_issues", "ready"},
		calls: []toolCall{
			{tool: "ready", check: func(t *testing.T, text string) {
				var got struct {
					WorkingDir string `json:"working_dir"`
					Issues     []struct{ ID string }
				}
				decodeText(t, text, &got)
				if got.WorkingDir != workspaceRoot(t) || len(got.Issues) != 1 || got.Issues[0].ID != "ISSUE-001" {
					t.Errorf("ready = %s, want ISSUE-001 only, working dir %q", text, workspaceRoot(t))
				}
			}},
			{tool: "list_issues", check: func(t *testing.T, text string) {
				if ids := issueIDs(t, text); !slices.Equal(ids, []string{"ISSUE-001", "ISSUE-002"}) {
					t.Errorf("list_issues = %v, want [ISSUE-001 ISSUE-002]", ids)
				}
			}},
			{tool: "list_issues", args: map[string]any{"status": "blocked"}, check: func(t *testing.T, text string) {
				if ids := issueIDs(t, text); !slices.Equal(ids, []string{"ISSUE-002"}) {
					t.Errorf("list_issues(status=blocked) = %v, want [ISSUE-002]", ids)
				}
			}},
		},
	},
}

func decodeText(t *testing.T, text string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(text), v); err != nil {
		t.Fatalf("tool result is not the expected JSON: %v\n%s", err, text)
	}
}

func refIDs(t *testing.T, text string) []string {
	var refs []struct{ ID, Title string }
	decodeText(t, text, &refs)
	ids := []string{}
	for _, r := range refs {
		ids = append(ids, r.ID)
	}
	return ids
}

func issueIDs(t *testing.T, text string) []string {
	var issues []struct{ ID string }
	decodeText(t, text, &issues)
	ids := []string{}
	for _, i := range issues {
		ids = append(ids, i.ID)
	}
	return ids
}

func workspaceRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("workspace")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func extensionsDir(t *testing.T) string {
	return filepath.Join(workspaceRoot(t), ".repository", "extensions")
}

// --- manifests -------------------------------------------------------------------------------

type manifest struct {
	Name     string `toml:"name"`
	Version  string `toml:"version"`
	Provides struct {
		MCP string `toml:"mcp"`
	} `toml:"provides"`
	Runtime *struct {
		Python string `toml:"python"`
	} `toml:"runtime"`
}

func decodeManifest(data []byte) (manifest, error) {
	var m manifest
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(&m)
	return m, err
}

func TestManifestDecodingIsStrict(t *testing.T) {
	t.Parallel()
	_, err := decodeManifest([]byte("name = \"x\"\nversion = \"1.0.0\"\nicon = \"x.png\"\n[provides]\nmcp = \"mcp.json\"\n"))
	var strict *toml.StrictMissingError
	if !errors.As(err, &strict) {
		t.Fatalf("an unknown key must be rejected, got err = %v", err)
	}
}

func TestExtensionManifests(t *testing.T) {
	t.Parallel()
	entries, err := os.ReadDir(extensionsDir(t))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	want := []string{"aifp", "reference-manager", "sudocode", "sync-ai-rules", "vault-spec"}
	if !slices.Equal(names, want) {
		t.Fatalf("extensions = %v, want %v", names, want)
	}
	semver := regexp.MustCompile(`^\d+\.\d+\.\d+$`)
	pythonExt := map[string]bool{}
	for _, e := range expected {
		pythonExt[e.extension] = e.runtime
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(extensionsDir(t), name)
			data, err := os.ReadFile(filepath.Join(dir, "extension.toml"))
			if err != nil {
				t.Fatal(err)
			}
			m, err := decodeManifest(data)
			if err != nil {
				t.Fatalf("extension.toml: %v", err)
			}
			if m.Name != name {
				t.Errorf("name = %q, want the folder name %q", m.Name, name)
			}
			if !semver.MatchString(m.Version) {
				t.Errorf("version = %q, want x.y.z", m.Version)
			}
			if m.Provides.MCP != "mcp.json" {
				t.Errorf("provides.mcp = %q, want mcp.json", m.Provides.MCP)
			}
			if _, err := os.Stat(filepath.Join(dir, m.Provides.MCP)); err != nil {
				t.Errorf("provides.mcp: %v", err)
			}
			switch {
			case pythonExt[name] && (m.Runtime == nil || m.Runtime.Python != ".venv"):
				t.Errorf("runtime = %+v, want python = \".venv\"", m.Runtime)
			case !pythonExt[name] && m.Runtime != nil:
				t.Errorf("runtime = %+v, want no [runtime] table", m.Runtime)
			}
			if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
				t.Errorf("README.md: %v", err)
			}
		})
	}
}

// --- declared servers and their resolution -----------------------------------------------------

type server struct {
	name, extension, extDir string
	decl                    struct {
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env"`
	}
}

// declaredServers reads every extension's mcp.json (strictly: only command, args and env).
func declaredServers(t *testing.T) []server {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(extensionsDir(t), "*", "mcp.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no mcp.json found: %v", err)
	}
	var out []server
	for _, f := range files {
		var doc struct {
			MCPServers map[string]json.RawMessage `json:"mcpServers"`
		}
		data, err := os.ReadFile(f)
		if err == nil {
			err = json.Unmarshal(data, &doc)
		}
		if err != nil || len(doc.MCPServers) == 0 {
			t.Fatalf("%s: want {\"mcpServers\": {...}}: %v", f, err)
		}
		for name, raw := range doc.MCPServers {
			s := server{name: name, extDir: filepath.Dir(f), extension: filepath.Base(filepath.Dir(f))}
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&s.decl); err != nil {
				t.Fatalf("%s: server %q: %v", f, name, err)
			}
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

func serverNamed(t *testing.T, name string) server {
	t.Helper()
	for _, s := range declaredServers(t) {
		if s.name == name {
			return s
		}
	}
	t.Fatalf("no extension declares server %q", name)
	return server{}
}

var pythonCommand = regexp.MustCompile(`^python(3(\.\d+)?)?$`)

// resolve does what `repo` does for the test machine: templates, python -> python3 from PATH (the
// test has no venvs), `--root .` / `--root=.` -> the workspace root. ${VAR} references stay literal.
// It skips the test when the interpreter is not installed.
func resolve(t *testing.T, s server) (command string, args, env []string) {
	t.Helper()
	root := workspaceRoot(t)
	home, _ := os.UserHomeDir()
	fill := strings.NewReplacer(
		"<<root>>", root, "<<extension.dir>>", s.extDir, "<<runtime.python>>", "python3", "<<home>>", home,
	).Replace
	check := func(field, v string) string {
		v = fill(v)
		if strings.Contains(v, "<<") {
			t.Fatalf("server %s: %s %q has an unknown template", s.name, field, v)
		}
		return v
	}
	command = check("command", s.decl.Command)
	if pythonCommand.MatchString(command) {
		command = "python3"
	}
	for i, a := range s.decl.Args {
		a = check("args", a)
		switch {
		case a == "." && i > 0 && s.decl.Args[i-1] == "--root":
			a = root
		case a == "--root=.":
			a = "--root=" + root
		}
		args = append(args, a)
	}
	path, err := exec.LookPath(command)
	if err != nil {
		t.Skipf("server %s: %s is not on PATH", s.name, command)
	}
	env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1") // keep __pycache__ out of the workspace
	// An extension with a src/ package installs it into its venv (demo.sh writes a .pth file, as
	// `pip install -e` would); the test has no venvs, so the package goes on PYTHONPATH instead.
	if fi, err := os.Stat(filepath.Join(s.extDir, "src")); err == nil && fi.IsDir() {
		env = append(env, "PYTHONPATH="+filepath.Join(s.extDir, "src"))
	}
	for k, v := range s.decl.Env {
		env = append(env, k+"="+check("env "+k, v)) // later entries win
	}
	return path, args, env
}

// --- an MCP client session over stdio ------------------------------------------------------------

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// lineWriter is the server's stdout: it hands each complete line to the session.
type lineWriter struct {
	partial []byte
	lines   chan []byte
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		w.lines <- bytes.Clone(w.partial[:i])
		w.partial = w.partial[i+1:]
	}
}

type session struct {
	t      *testing.T
	ctx    context.Context
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *lineWriter
	stderr *lockedBuffer
	done   chan error
}

func startSession(t *testing.T, command string, args, env []string) *session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, command, args...)
	cmd.Env = env
	cmd.Dir = t.TempDir() // clients start servers anywhere: nothing may depend on the cwd
	cmd.WaitDelay = 2 * time.Second
	s := &session{t: t, ctx: ctx, cmd: cmd, stdout: &lineWriter{lines: make(chan []byte, 64)},
		stderr: &lockedBuffer{}, done: make(chan error, 1)}
	cmd.Stdout, cmd.Stderr = s.stdout, s.stderr
	var err error
	if s.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s %v: %v", command, args, err)
	}
	go func() { s.done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = s.stdin.Close()
		cancel()
		<-s.done
		if t.Failed() {
			t.Logf("server stderr:\n%s", s.stderr.String())
		}
	})
	return s
}

func (s *session) writeLine(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.stdin, line+"\n"); err != nil {
		s.t.Fatalf("write %s: %v", line, err)
	}
}

func (s *session) send(msg map[string]any) {
	s.t.Helper()
	msg["jsonrpc"] = "2.0"
	data, err := json.Marshal(msg)
	if err != nil {
		s.t.Fatal(err)
	}
	s.writeLine(string(data))
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *rpcError       `json:"error"`
}

// recv reads the next message, which must be the response with the given id (as JSON text).
// Replies arrive in order, so an answer to a notification would show up here as a wrong message.
func (s *session) recv(wantID string) response {
	s.t.Helper()
	select {
	case line := <-s.stdout.lines:
		var r response
		if err := json.Unmarshal(line, &r); err != nil {
			s.t.Fatalf("stdout line is not JSON-RPC (%v): %q", err, line)
		}
		if r.JSONRPC != "2.0" || string(r.ID) != wantID {
			s.t.Fatalf("got %s, want the response with id %s", line, wantID)
		}
		if (r.Error == nil) == (r.Result == nil) {
			s.t.Fatalf("response needs exactly one of result and error: %s", line)
		}
		return r
	case err := <-s.done:
		s.done <- err
		s.t.Fatalf("server exited (%v) while waiting for id %s", err, wantID)
	case <-time.After(replyWait):
		s.t.Fatalf("no response with id %s within %s", wantID, replyWait)
	case <-s.ctx.Done():
		s.t.Fatalf("test timeout waiting for id %s", wantID)
	}
	return response{}
}

func (s *session) request(id int, method string, params any) response {
	s.t.Helper()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	s.send(msg)
	return s.recv(fmt.Sprint(id))
}

func (s *session) expectError(r response, code int) {
	s.t.Helper()
	if r.Error == nil || r.Error.Code != code {
		s.t.Fatalf("got result %s / error %+v, want error %d", r.Result, r.Error, code)
	}
}

func (s *session) result(r response, v any) {
	s.t.Helper()
	if r.Error != nil {
		s.t.Fatalf("got error %+v, want a result", *r.Error)
	}
	if err := json.Unmarshal(r.Result, v); err != nil {
		s.t.Fatalf("result %s: %v", r.Result, err)
	}
}

func (s *session) initialize(id int, version any) (got struct {
	ProtocolVersion string                     `json:"protocolVersion"`
	Capabilities    map[string]json.RawMessage `json:"capabilities"`
	ServerInfo      struct{ Name, Version string }
}) {
	s.t.Helper()
	params := map[string]any{"capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "examples_test", "version": "1.0.0"}}
	if version != nil {
		params["protocolVersion"] = version
	}
	s.result(s.request(id, "initialize", params), &got)
	if _, ok := got.Capabilities["tools"]; !ok || got.ServerInfo.Name == "" || got.ServerInfo.Version == "" {
		s.t.Fatalf("initialize result = %+v, want capabilities.tools and serverInfo name+version", got)
	}
	return got
}

func (s *session) callTool(id int, tool string, args map[string]any) (text string, isError bool) {
	s.t.Helper()
	params := map[string]any{"name": tool}
	if args != nil {
		params["arguments"] = args
	}
	var res struct {
		Content []struct{ Type, Text string }
		IsError *bool `json:"isError"`
	}
	s.result(s.request(id, "tools/call", params), &res)
	if len(res.Content) != 1 || res.Content[0].Type != "text" || res.IsError == nil {
		s.t.Fatalf("tools/call %s = %+v, want one text content and isError", tool, res)
	}
	return res.Content[0].Text, *res.IsError
}

// close ends stdin and expects a clean exit with no output left unread.
func (s *session) close() {
	s.t.Helper()
	if err := s.stdin.Close(); err != nil {
		s.t.Fatal(err)
	}
	select {
	case err := <-s.done:
		s.done <- err
		if err != nil {
			s.t.Fatalf("after stdin EOF: %v, want exit status 0", err)
		}
	case <-time.After(exitWait):
		s.t.Fatalf("server still running %s after stdin EOF", exitWait)
	}
	select {
	case line := <-s.stdout.lines:
		s.t.Fatalf("unexpected extra output: %s", line)
	default:
	}
	if len(s.stdout.partial) > 0 {
		s.t.Fatalf("unterminated output line: %q", s.stdout.partial)
	}
}

// --- the tests -------------------------------------------------------------------------------------

func TestEveryDeclaredServerHasExpectations(t *testing.T) {
	t.Parallel()
	var got []string
	for _, s := range declaredServers(t) {
		got = append(got, s.name)
		if e, ok := expected[s.name]; !ok || e.extension != s.extension {
			t.Errorf("server %s (extension %s) has no expectation in this test", s.name, s.extension)
		}
	}
	if len(got) != len(expected) {
		t.Errorf("declared servers %v, want exactly the %d in the expectations", got, len(expected))
	}
}

func TestServersSpeakMCP(t *testing.T) {
	t.Parallel()
	for _, srv := range declaredServers(t) {
		t.Run(srv.name, func(t *testing.T) {
			t.Parallel()
			want, ok := expected[srv.name]
			if !ok {
				t.Fatalf("no expectation for server %s", srv.name)
			}
			command, args, env := resolve(t, srv)
			s := startSession(t, command, args, env)

			// Claude Code and Copilot CLI probe before initialize.
			s.send(map[string]any{"id": "discover-0", "method": "server/discover", "params": map[string]any{}})
			s.expectError(s.recv(`"discover-0"`), -32601)

			if got := s.initialize(1, "2025-06-18"); got.ProtocolVersion != "2025-06-18" {
				t.Errorf("protocolVersion = %q, want 2025-06-18", got.ProtocolVersion)
			}
			s.send(map[string]any{"method": "notifications/initialized"})

			var list struct {
				Tools []struct {
					Name        string
					Description string
					InputSchema struct{ Type string }
				}
			}
			s.result(s.request(2, "tools/list", map[string]any{}), &list)
			var names []string
			for _, tool := range list.Tools {
				names = append(names, tool.Name)
				if tool.Description == "" || tool.InputSchema.Type != "object" {
					t.Errorf("tool %s: want a description and an object inputSchema", tool.Name)
				}
			}
			sort.Strings(names)
			if !slices.Equal(names, want.tools) {
				t.Fatalf("tools/list = %v, want %v", names, want.tools)
			}

			for i, c := range want.calls {
				text, isError := s.callTool(10+i, c.tool, c.args)
				if isError {
					t.Fatalf("tools/call %s: isError, text %q", c.tool, text)
				}
				c.check(t, text)
			}
			if _, isError := s.callTool(3, "no_such_tool", nil); !isError {
				t.Errorf("tools/call of an unknown tool: want isError true")
			}

			var pong map[string]any
			s.result(s.request(4, "ping", nil), &pong)
			if len(pong) != 0 {
				t.Errorf("ping = %v, want {}", pong)
			}
			s.writeLine(`{"jsonrpc": "2.0", "id": 5, "method": `) // malformed
			s.expectError(s.recv("null"), -32700)
			s.expectError(s.request(6, "resources/templates/list", map[string]any{}), -32601)
			s.send(map[string]any{"method": "notifications/cancelled", "params": map[string]any{"requestId": 6}})
			s.result(s.request(7, "ping", map[string]any{}), &pong) // nothing was sent for the notification
			s.close()
		})
	}
}

func TestProtocolVersionNegotiation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		asked any
		want  string
	}{
		{"2024-11-05", "2024-11-05"},
		{"2025-03-26", "2025-03-26"},
		{"2025-11-25", "2025-11-25"},
		{"1999-01-01", "2025-06-18"},
		{nil, "2025-06-18"},
	}
	for _, srv := range declaredServers(t) {
		t.Run(srv.name, func(t *testing.T) {
			t.Parallel()
			command, args, env := resolve(t, srv)
			for i, c := range cases {
				s := startSession(t, command, args, env)
				if got := s.initialize(i, c.asked); got.ProtocolVersion != c.want {
					t.Errorf("asked %v: protocolVersion = %q, want %q", c.asked, got.ProtocolVersion, c.want)
				}
				s.close()
			}
		})
	}
}

func TestSudocodeStartsWithoutToken(t *testing.T) {
	t.Parallel()
	command, args, env := resolve(t, serverNamed(t, "sudocode"))
	env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "SUDOCODE_TOKEN=") })
	s := startSession(t, command, args, env)
	s.initialize(1, "2025-06-18")
	s.send(map[string]any{"method": "notifications/initialized"})
	if text, isError := s.callTool(2, "ready", nil); isError || !strings.Contains(text, "ISSUE-001") {
		t.Errorf("ready without SUDOCODE_TOKEN = %q (isError %v)", text, isError)
	}
	s.close()
}

// runOnce runs a command with no stdin and returns its exit code and stderr.
func runOnce(t *testing.T, command string, args, env []string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, command, args...)
	cmd.Env, cmd.Dir = env, t.TempDir()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("run %s: %v", command, err)
	}
	return code, out.String(), errOut.String()
}

func TestVaultSpecRejectsBadRoot(t *testing.T) {
	t.Parallel()
	command, args, env := resolve(t, serverNamed(t, "vs-subagent-mcp"))
	script, missing := args[0], filepath.Join(t.TempDir(), "missing")
	cases := []struct {
		name, wantErr string
		args, env     []string
	}{
		{"missing root dir", "--root", []string{script, "serve", "--root", missing}, nil},
		{"no --root", "--root", []string{script, "serve"}, nil},
		{"no serve", "serve", []string{script}, nil},
		{"bad VAULTSPEC_MCP_ROOT_DIR", "VAULTSPEC_MCP_ROOT_DIR", args, []string{"VAULTSPEC_MCP_ROOT_DIR=" + missing}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runOnce(t, command, c.args, append(slices.Clone(env), c.env...))
			if code != 2 || !strings.Contains(stderr, c.wantErr) || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and a message naming %s on stderr only",
					code, stdout, stderr, c.wantErr)
			}
		})
	}
}

func TestReferenceManagerCLI(t *testing.T) {
	t.Parallel()
	command, args, env := resolve(t, serverNamed(t, "reference-manager"))
	script := args[0]
	if code, stdout, _ := runOnce(t, command, []string{script, "--help"}, env); code != 0 || !strings.Contains(stdout, "mcp") {
		t.Errorf("--help: exit %d, stdout %q", code, stdout)
	}
	code, stdout, _ := runOnce(t, command, []string{script, "list"}, env)
	if lines := strings.Split(strings.TrimSpace(stdout), "\n"); code != 0 || len(lines) != 3 {
		t.Errorf("list: exit %d, stdout %q; want the 3 references", code, stdout)
	}
	if code, _, stderr := runOnce(t, command, []string{script, "frobnicate"}, env); code != 2 || stderr == "" {
		t.Errorf("unknown command: exit %d, stderr %q; want exit 2 with usage", code, stderr)
	}
}
