package toolprofiles

import (
	"slices"
	"testing"
)

// TestKeptMembers: the members tools and users add to an entry that repo
// does not write itself (field survey 2026-11-26 §3, with each tool's
// source) are never drift: repo either never writes them — they are kept as
// they are — or merges them with its offer (preserve). A member in Written
// but not in Preserve would be compared and replaced, undoing the user.
func TestKeptMembers(t *testing.T) {
	s, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	kept := map[string][]string{
		// claude-code 2.1.332 MCP schemas: remote oauth and headersHelper, alwaysLoad,
		// the per-tool permissions, timeouts (timeout is also the toolTimeout setting).
		"claude": {"oauth", "headersHelper", "alwaysLoad", "timeout", "request_timeout_ms", "tools", "toolPermissions", "displayName"},
		// codex 0.171.0 RawMcpServerConfig.
		"codex": {"http_headers_helper", "startup_readiness", "oauth", "auth", "required", "scopes", "oauth_resource",
			"enabled", "tools", "enabled_tools", "startup_timeout_sec", "tool_timeout_sec", "environment_id"},
		"vscode":   {"oauth", "dev", "sandbox", "sandboxEnabled", "envFile"},
		"gemini":   {"oauth", "authProviderType", "targetAudience", "targetServiceAccount", "trust", "includeTools", "timeout"},
		"qwen":     {"trust", "discoveryTimeoutMs", "timeout"},
		"opencode": {"oauth", "enabled", "timeout"},
		"kilo":     {"oauth", "$schema", "enabled", "timeout"},
		"zed":      {"oauth", "enabled", "timeout"},
		"goose":    {"enabled", "timeout", "description", "bundled", "env_keys", "available_tools"},
		"copilot":  {"tools", "timeout"},
		"roo":      {"alwaysAllow", "disabled", "disabledTools", "timeout", "watchPaths"},
		"cline":    {"disabled", "timeout", "autoApprove"},
	}
	for id, members := range kept {
		p := s.Get(id)
		if p == nil {
			t.Errorf("%s: no such profile", id)
			continue
		}
		written := p.Entry.Written()
		for _, m := range members {
			if slices.Contains(written, m) && !slices.Contains(p.Entry.Preserve, m) {
				t.Errorf("%s: %s is written by repo and not preserved: a user's %s would be reported and replaced", id, m, m)
			}
		}
	}
	// And every member a built-in profile offers (a setting's, a fixed one)
	// is the user's to change: no built-in tool's UI or user is fought.
	for _, p := range s.All() {
		if !p.MCP {
			continue
		}
		for _, m := range p.Entry.Written() {
			offered := slices.Contains(p.Entry.Settings.Members(), m)
			if _, fixed := p.Entry.Set[m]; (offered || fixed) && !slices.Contains(p.Entry.Preserve, m) {
				t.Errorf("%s: %s carries a setting or a fixed value but is not in preserve", p.ID, m)
			}
		}
	}
}

// TestWritten lists what a profile writes: what it derives from the
// server, its settings' members and its fixed members, each once.
func TestWritten(t *testing.T) {
	s, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string][]string{
		"claude": {"command", "env", "args", "type", "headers", "url", "timeout"},
		"codex": {"command", "env", "args", "cwd", "env_vars", "http_headers", "bearer_token_env_var", "env_http_headers", "url",
			"enabled", "enabled_tools", "disabled_tools", "tools", "startup_timeout_sec", "tool_timeout_sec"},
		"goose": {"cmd", "envs", "args", "type", "name", "headers", "uri", "enabled", "timeout", "description"},
	} {
		if got := s.Get(id).Entry.Written(); !slices.Equal(got, want) {
			t.Errorf("%s: Written() = %q, want %q", id, got, want)
		}
	}
}
