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
			offered := slices.Contains(p.Entry.Settings.Members(), m) || slices.Contains(p.Entry.AuthMembers(), m)
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
		"claude": {"command", "env", "args", "type", "headers", "url", "timeout", "oauth", "headersHelper"},
		"codex": {"command", "env", "args", "cwd", "env_vars", "http_headers", "bearer_token_env_var", "env_http_headers", "url",
			"enabled", "enabled_tools", "disabled_tools", "tools", "startup_timeout_sec", "tool_timeout_sec", "oauth", "scopes", "http_headers_helper"},
		"goose": {"cmd", "envs", "args", "type", "name", "headers", "uri", "enabled", "timeout", "description"},
	} {
		if got := s.Get(id).Entry.Written(); !slices.Equal(got, want) {
			t.Errorf("%s: Written() = %q, want %q", id, got, want)
		}
	}
}

// TestDevinFiles: since Devin CLI v3000.3 the servers live in
// mcp_config.json files of their own, and the mcpServers key of
// config.json, where repo wrote them before, is each scope's former place.
func TestDevinFiles(t *testing.T) {
	s, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	p := s.Get("devin")
	for _, c := range []struct {
		scope, goos   string
		paths, former []string
	}{
		{ScopeProject, "linux", []string{".devin/mcp_config.json"}, []string{".devin/config.json"}},
		{ScopeLocal, "linux", []string{".devin/mcp_config.local.json"}, []string{".devin/config.local.json"}},
		{ScopeUser, "linux", []string{"~/.config/devin/mcp_config.json"}, []string{"~/.config/devin/config.json"}},
		{ScopeUser, "darwin", []string{"~/.config/devin/mcp_config.json"}, []string{"~/.config/devin/config.json"}},
		{ScopeUser, "windows", []string{"${APPDATA}/devin/mcp_config.json"}, []string{"${APPDATA}/devin/config.json"}},
	} {
		tg := p.Scopes.Get(c.scope)
		if got := tg.PathsFor(c.goos); !slices.Equal(got, c.paths) {
			t.Errorf("%s/%s: paths %q, want %q", c.scope, c.goos, got, c.paths)
		}
		if len(tg.Former) != 1 {
			t.Fatalf("%s: %d former places, want 1", c.scope, len(tg.Former))
		}
		f := tg.Former[0]
		if got := f.PathsFor(c.goos); !slices.Equal(got, c.former) || !slices.Equal(f.Key, []string{"mcpServers"}) || f.Format != FormatJSON || f.Container != ContainerMap {
			t.Errorf("%s/%s: former %q key %q format %s container %s, want %q [mcpServers] json map", c.scope, c.goos, got, f.Key, f.Format, f.Container, c.former)
		}
	}
}

// TestGooseDropIn: Goose's project scope is a Claude-style drop-in per
// extension (block/goose plugins/mcp_servers.rs), with its own dialect;
// the user scope keeps Goose's config.yaml entries.
func TestGooseDropIn(t *testing.T) {
	s, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	p := s.Get("goose")
	proj := p.Scopes.Project
	if proj == nil || !proj.PerExtension() || !slices.Equal(proj.Paths, []string{".agents/plugins/<<extension>>/.mcp.json"}) ||
		proj.Format != FormatJSON || !slices.Equal(proj.Key, []string{"mcpServers"}) {
		t.Fatalf("goose project scope: %+v", proj)
	}
	if got := proj.ForExtension("vault").Paths; !slices.Equal(got, []string{".agents/plugins/vault/.mcp.json"}) {
		t.Errorf("ForExtension: %q", got)
	}
	e := p.ForScope(ScopeProject).Entry
	if e.CommandField != "command" || e.ArgsField != "args" || e.EnvField != "env" || e.CwdField != "cwd" ||
		e.TypeField != "" || e.Remote != nil || e.NameField != "" || len(e.Set) != 0 || e.NamePattern != "" {
		t.Errorf("goose project entry: %+v", e)
	}
	if len(e.BlockedEnv) != len(p.Entry.BlockedEnv) || len(e.Expands) != 1 || !e.Expands[0].Regexp().MatchString("${PLUGIN_ROOT}/x") {
		t.Errorf("goose project entry: blocked_env %d, expands %+v", len(e.BlockedEnv), e.Expands)
	}
	if u := p.ForScope(ScopeUser).Entry; u.CommandField != "cmd" || u.EnvField != "envs" {
		t.Errorf("goose user entry changed: %+v", u)
	}
}
