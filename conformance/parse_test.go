//go:build linux && repodev

package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Outputs below are trimmed from real runs of the pinned client versions.

func TestParseClaude(t *testing.T) {
	out := `Checking MCP server health…

fetch: uvx mcp-server-fetch - ✘ Failed to connect — ENOENT: Executable not found in $PATH: "uvx"
aifp: /w/.venv/bin/python -m aifp --root=/w - ✔ Connected
sudocode: node /w/dist/sudocode-mcp.js - ✔ Connected
later: node x.js - ⏸ Pending approval (run ` + "`claude`" + ` to approve)

MCP config diagnostics ⚠

For help configuring MCP servers, see: https://code.claude.com/docs/en/mcp

[Has warnings] Local config (private to you in this project)
 └ [Warning] [sudocode] mcpServers.sudocode: Missing environment variables: SUDOCODE_TOKEN
`
	r := parseClaude(out)
	got := statuses(r)
	want := "fetch=failed aifp=connected sudocode=connected later=pending"
	if got != want {
		t.Errorf("statuses = %s, want %s", got, want)
	}
	if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "SUDOCODE_TOKEN") {
		t.Errorf("notes = %q", r.Notes)
	}
	get := "aifp:\n  Scope: Local config (private to you in this project)\n  Status: ✔ Connected\n"
	if s := claudeScope(get); s != ScopeLocal {
		t.Errorf("claudeScope = %q", s)
	}
	if s := claudeScope("fetch:\n  Scope: Project config (shared via .mcp.json)\n"); s != ScopeProject {
		t.Errorf("claudeScope = %q", s)
	}
}

func TestParseGeminiList(t *testing.T) {
	out := clean("Configured MCP servers:\n\n" +
		"\x1b[31m✗\x1b[0m fetch: uvx mcp-server-fetch (stdio) - Disconnected\n" +
		"✓ aifp: /w/.venv/bin/python -m aifp --root=/w (stdio) - Connected\n" +
		"○ sudocode: node /w/dist/sudocode-mcp.js (stdio) - Disabled\n" +
		"◌ vs: /w/py serve --root /w (stdio) - Pending approval\n")
	if got, want := statuses(parseGeminiList(out)), "fetch=failed aifp=connected sudocode=disabled vs=pending"; got != want {
		t.Errorf("statuses = %s, want %s", got, want)
	}
}

func TestParseOpenCode(t *testing.T) {
	out := clean("┌  MCP Servers\n│\n" +
		"●  ✗ fetch \x1b[90mfailed\n│      Executable not found in $PATH: \"uvx\"\n│      \x1b[90muvx mcp-server-fetch\n│\n" +
		"●  ✓ aifp \x1b[90mconnected\n│      \x1b[90m/w/.venv/bin/python -m aifp --root=/w\n│\n" +
		"└  2 server(s)\n")
	r := parseOpenCode(out)
	if got, want := statuses(r), "fetch=failed aifp=connected"; got != want {
		t.Errorf("statuses = %s, want %s", got, want)
	}
	if d := r.Records[0].Detail; d != `failed: Executable not found in $PATH: "uvx"` {
		t.Errorf("detail = %q", d)
	}
}

func TestLineDiff(t *testing.T) {
	a := "{\n  \"mcpServers\": {}\n}\n"
	b := "{\n  \"mcpServers\": {},\n  \"$version\": 4\n}\n"
	got := lineDiff(a, b, 8)
	want := []string{`- "mcpServers": {}`, `+ "mcpServers": {},`, `+ "$version": 4`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("lineDiff = %q, want %q", got, want)
	}
}

func TestDescribe(t *testing.T) {
	qwenBefore := "// mine\n{\n  \"mcpServers\": {\"a\": {\"command\": \"x\",}}\n}\n"
	qwenAfter := "// mine\n{\n  \"mcpServers\": {\"a\": {\"command\": \"x\",}},\n  \"$version\": 4\n}\n"
	if got, want := describe("s.json", []byte(qwenBefore), []byte(qwenAfter)), []string{`added "$version": 4`}; !reflect.DeepEqual(got, want) {
		t.Errorf("describe = %q, want %q", got, want)
	}
	claudeBefore := "{\n  \"args\": [\"-m\", \"x\"]\n}"
	claudeAfter := "{\n  \"args\": [\n    \"-m\",\n    \"x\"\n  ],\n  \"userID\": \"u\"\n}"
	if got, want := describe(".claude.json", []byte(claudeBefore), []byte(claudeAfter)), []string{`added "userID": "u"`, "reformatted"}; !reflect.DeepEqual(got, want) {
		t.Errorf("describe = %q, want %q", got, want)
	}
	if got := describe("c.toml", []byte("a = 1\n"), []byte("a = 2\n")); !reflect.DeepEqual(got, []string{"- a = 1", "+ a = 2"}) {
		t.Errorf("describe toml = %q", got)
	}
}

func TestOnlyLoopback(t *testing.T) {
	head := "Inter-|   Receive\n face |bytes    packets\n"
	if !onlyLoopback(head + "    lo:       0       0\n") {
		t.Error("lo only: want true")
	}
	if onlyLoopback(head + "    lo:       0       0\n  eth0: 1 2\n") {
		t.Error("eth0: want false")
	}
	if onlyLoopback("") {
		t.Error("empty: want false")
	}
}

func TestSyncCovers(t *testing.T) {
	demo := SyncRun{Args: []string{"examples/demo.sh"}}
	user := SyncRun{Args: []string{"sync", "--tool", "continue", "--scope", "user"}}
	switch {
	case !demo.covers("gemini", ScopeProject), demo.covers("codex", ScopeUser):
		t.Error("demo.sh covers project scope of every tool, nothing else")
	case !user.covers("continue", ScopeUser), user.covers("codex", ScopeUser), user.covers("continue", ScopeProject):
		t.Error("--tool continue --scope user covers only that")
	}
}

func statuses(r *Result) string {
	var s []string
	for _, rec := range r.Records {
		s = append(s, rec.Server+"="+string(rec.Status))
	}
	return strings.Join(s, " ")
}

func TestParseDroid(t *testing.T) {
	out := "Connecting to configured MCP servers to check status...\nConfigured MCP servers:\n" +
		"  aifp  stdio  connected  [project]\n" +
		"  rem  http  needs auth  [user]\n" +
		"  broken  stdio  failed  [project]\n" +
		"  off  stdio  disabled  [user]\n"
	r := parseDroid(out)
	if got, want := statuses(r), "aifp=connected rem=pending broken=failed off=disabled"; got != want {
		t.Errorf("statuses = %s, want %s", got, want)
	}
	if r.Records[0].Scope != ScopeProject || r.Records[1].Scope != ScopeUser {
		t.Errorf("scopes %q %q", r.Records[0].Scope, r.Records[1].Scope)
	}
}

func TestParseAmp(t *testing.T) {
	out := "User settings: /h/.config/amp/settings.json\nWorkspace settings: /w/.amp/settings.json\n\n" +
		"aifp (workspace: untrusted): connected (2 tools: aifp_status, aifp_run)\n" +
		"sudocode (workspace: untrusted, server: untrusted): awaiting approval\n" +
		"mine (user): connected (1 tools: x)\n" +
		"gone (workspace: untrusted): failed: spawn ENOENT\n"
	r := parseAmp(out)
	if got, want := statuses(r), "aifp=connected sudocode=pending mine=connected gone=failed"; got != want {
		t.Errorf("statuses = %s, want %s", got, want)
	}
	if r.Records[0].Scope != ScopeProject || r.Records[2].Scope != ScopeUser || r.Records[3].Detail != "failed: spawn ENOENT" {
		t.Errorf("records %+v", r.Records)
	}
}

func TestParseQoder(t *testing.T) {
	out := "Configured MCP servers:\n\n" +
		"✗ fetch: uvx mcp-server-fetch (stdio) - Disconnected\n" +
		"✓ aifp: /w/.venv/bin/python -m aifp --root=/w (stdio) - Connected · Direct MCP Server\n"
	if got, want := statuses(parseQoder(out)), "fetch=failed aifp=connected"; got != want {
		t.Errorf("statuses = %s, want %s", got, want)
	}
}

func TestKiloSkipped(t *testing.T) {
	log := "timestamp=… level=INFO message=loading path=/w/kilo.json\n" +
		"WARN  2026-11-23T21:24:02 +104ms service=kilocode.config source=/w/kilo.json err=ConfigInvalidError skipped config due to error\n"
	if got := kiloSkipped(log); len(got) != 1 || got[0] != "kilo skipped /w/kilo.json: ConfigInvalidError" {
		t.Errorf("kiloSkipped = %q", got)
	}
}

// The stand-in model's log, as the Cline CLI (OpenAI tools) and auggie (Augment
// tool_definitions) send requests: the first request that offers tools counts.
func TestOfferedTools(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	body := `/get-models {}
/v1/chat/completions {"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"read_files"}},{"type":"function","function":{"name":"aifp__aifp_status"}},{"type":"function","function":{"name":"sudocode__ready"}}]}
/chat-stream {"tool_definitions":[{"name":"ready_sudocode"}]}
`
	if err := os.WriteFile(log, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	tools, err := offeredTools(log)
	if err != nil || strings.Join(tools, " ") != "read_files aifp__aifp_status sudocode__ready" {
		t.Fatalf("offeredTools = %q, %v", tools, err)
	}
	r := &Result{}
	byOfferedTools(r, []string{"aifp", "sudocode", "sync-ai-rules"}, tools, func(tool, s string) bool { return strings.HasPrefix(tool, s+"__") })
	if got, want := statuses(r), "aifp=connected sudocode=connected sync-ai-rules=failed"; got != want {
		t.Errorf("statuses = %s, want %s", got, want)
	}

	if err := os.WriteFile(log, []byte("/chat-stream {\"tool_definitions\":[{\"name\":\"list_reference-manager\"},{\"name\":\"view\"}]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tools, _ = offeredTools(log)
	r = &Result{}
	byOfferedTools(r, []string{"reference-manager", "aifp"}, tools, func(tool, s string) bool { return strings.HasSuffix(tool, "_"+s) })
	if got, want := statuses(r), "reference-manager=connected aifp=failed"; got != want {
		t.Errorf("statuses = %s, want %s", got, want)
	}

	if err := os.WriteFile(log, []byte("/get-models {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := offeredTools(log); err == nil {
		t.Error("no request with tools: want an error")
	}
	if _, err := offeredTools(filepath.Join(dir, "none")); err == nil {
		t.Error("no log: want an error")
	}
}

// TestSettingRows: the conformance servers' expectations read the records as the clients gave
// them: a switched-off server that connected fails, a tool list that is not exactly the named
// tools fails, and a remote server repo warned about is not counted as the tool's failure.
func TestSettingRows(t *testing.T) {
	rec := func(server string, st Status, tools []string, cfg map[string]string) Record {
		return Record{Server: server, Status: st, Tools: tools, Config: cfg}
	}
	good := map[string]string{"startupTimeout": "45", "toolTimeout": "90", "autoApprove": "alpha"}
	r := &CheckResult{checkSpec: checkSpec{client: codex{}, scope: ScopeProject}, Records: []Record{
		rec(confOff, Disabled, nil, nil),
		rec(confInclude, Connected, []string{"alpha", "beta"}, good),
		rec(confExclude, Connected, []string{"alpha", "beta"}, nil),
		rec(confRemote, Connected, nil, nil),
	}}
	verdicts := func(rows []settingRow) []string {
		var out []string
		for _, row := range rows {
			out = append(out, row.verdict)
		}
		return out
	}
	if got := verdicts(r.settingRows(true)); !reflect.DeepEqual(got, []string{"PASS", "PASS", "PASS", "PASS"}) {
		t.Errorf("all well: %q", got)
	}
	r.Records[0].Status = Connected                         // the switched-off server started
	r.Records[1].Tools = []string{"alpha", "beta", "gamma"} // the filter did not arrive
	r.Records[1].Config = map[string]string{"startupTimeout": "45", "toolTimeout": "90000", "autoApprove": ""}
	r.Records[3].Status = Failed
	if got := verdicts(r.settingRows(true)); !reflect.DeepEqual(got, []string{"FAIL", "FAIL", "FAIL", "FAIL"}) {
		t.Errorf("nothing arrived: %q", got)
	}
	r.RemoteWarning = `codex: server "conf-remote": … headers.Authorization keeps the literal text ${CONF_TOKEN}`
	if got := r.settingRows(true)[1]; got.verdict != "NOT SUPPORTED (repo warned)" {
		t.Errorf("repo warned: %+v", got)
	}
	if got := r.settingRows(false)[1]; got.verdict != "NOT CHECKED" && got.verdict != "NOT SUPPORTED (repo warned)" {
		t.Errorf("no namespace: %+v", got)
	}
	// A client that reports no tools and no config gets neither row.
	r.Records[1].Tools, r.Records[1].Config, r.Records[2].Tools = nil, nil, nil
	if n := len(r.settingRows(true)); n != 2 {
		t.Errorf("%d rows for a client that reports no tools, want 2", n)
	}
	// The check before repo trust expects nothing written: no setting
	// can arrive, and none is judged (its own verdict is that none started).
	r.untrusted = true
	if rows := r.settingRows(true); len(rows) != 0 {
		t.Errorf("rows for the check before repo trust: %+v", rows)
	}
}

func TestToolNames(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{`{"mcp__s__beta": {}, "alpha": {}}`, "alpha,beta"},
		{`[{"name": "s__beta"}, {"name": "alpha"}]`, "alpha,beta"},
		{`[]`, ""},
	} {
		if got := strings.Join(toolNames([]byte(c.raw), "s"), ","); got != c.want {
			t.Errorf("toolNames(%s) = %q, want %q", c.raw, got, c.want)
		}
	}
}
