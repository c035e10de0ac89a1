//go:build linux && repodev

package main

import (
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
