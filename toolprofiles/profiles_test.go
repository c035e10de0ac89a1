package toolprofiles

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var wantIDs = []string{
	"abacus", "aider", "amazonq", "amp", "antigravity", "augment", "claude", "claude-desktop", "cline",
	"codex", "cody", "continue", "copilot", "crush", "cursor", "devin", "factory", "firebase-studio",
	"gemini", "goose", "jetbrains", "jetbrains-ai", "jetbrains-air", "kilo", "kilo-legacy", "kimi", "kiro",
	"lmstudio", "mistral-vibe", "opencode", "qoder", "qwen", "roo", "rovodev", "tabnine", "trae",
	"visual-studio", "vscode", "warp", "windsurf", "zed",
}

// noMCP lists the tools repo knows but never writes to: no MCP client, or
// no configuration file repo can write (see each profile's notes).
var noMCP = []string{"aider", "cody", "jetbrains-ai", "mistral-vibe"}

func builtinSet(t *testing.T) *Set {
	t.Helper()
	s, err := Builtin()
	if err != nil {
		t.Fatalf("Builtin: %v", err)
	}
	return s
}

func TestBuiltinIDs(t *testing.T) {
	s := builtinSet(t)
	if got := s.IDs(); !slices.Equal(got, wantIDs) {
		t.Fatalf("ids = %q\nwant  %q", got, wantIDs)
	}
	if n := len(s.All()); n != len(wantIDs) {
		t.Fatalf("All() has %d profiles, want %d", n, len(wantIDs))
	}
	for _, id := range wantIDs {
		p := s.Get(id)
		if p == nil {
			t.Fatalf("Get(%q) = nil", id)
		}
		if want := "builtin:" + id + ".toml"; p.Origin() != want {
			t.Errorf("%s: origin %q, want %q (file name must match the id)", id, p.Origin(), want)
		}
	}
	if s.Get("nope") != nil {
		t.Error(`Get("nope") != nil`)
	}
}

// varsFor is what a plausible machine of each OS has set; every other
// variable is unset, so profiles must give a default for anything optional.
var varsFor = map[string]map[string]string{
	"linux":   {},
	"darwin":  {},
	"windows": {"APPDATA": "/h/AppData/Roaming", "LOCALAPPDATA": "/h/AppData/Local"},
}

func TestBuiltinProfilesComplete(t *testing.T) {
	root := filepath.FromSlash("/r")
	for _, p := range builtinSet(t).All() {
		t.Run(p.ID, func(t *testing.T) {
			if p.MCP == slices.Contains(noMCP, p.ID) {
				t.Errorf("mcp = %v; the tools without MCP are %q", p.MCP, noMCP)
			}
			if p.Name == "" || p.Notes == "" {
				t.Errorf("name %q, notes %q: both are required for built-in profiles", p.Name, p.Notes)
			}
			if !slices.Contains(evidenceLevels, p.Evidence) {
				t.Errorf("evidence %q", p.Evidence)
			}
			if len(p.Sources) == 0 || slices.Contains(p.Sources, "") {
				t.Errorf("sources %q", p.Sources)
			}
			// Each scope is chosen by its own evidence: workspace markers for
			// the project scope, the tool's folders or executable on this
			// machine for the user and local scopes.
			if p.Scopes.Project != nil && len(p.Detect) == 0 {
				t.Errorf("a project scope without detect markers")
			}
			if (p.Scopes.User != nil || p.Scopes.Local != nil) && !p.KnowsUserEvidence() {
				t.Errorf("a user or local scope without detect_user or binaries")
			}
			if p.MCP && len(p.Detect) == 0 && !p.KnowsUserEvidence() {
				t.Errorf("no evidence of any kind")
			}
			for goos, vars := range varsFor {
				for _, d := range p.DetectUserFor(goos) {
					got, err := ExpandPath(d, root, fakeEnv(goos, vars))
					if err != nil {
						t.Errorf("detect_user %q on %s: %v", d, goos, err)
						continue
					}
					if !strings.HasPrefix(slashed(goos, got), "/h/") {
						t.Errorf("detect_user %q on %s expands to %q, outside the fake home", d, goos, got)
					}
				}
			}
			n := 0
			for _, scope := range Scopes {
				tg := p.Scopes.Get(scope)
				if tg == nil {
					continue
				}
				n++
				if scope == ScopeProject {
					for _, paths := range [][]string{tg.Paths, tg.PathsLinux, tg.PathsDarwin, tg.PathsWindows} {
						for _, path := range paths {
							if filepath.IsAbs(path) || strings.ContainsAny(path, "~$") || strings.HasPrefix(path, "..") {
								t.Errorf("project path %q is not plain relative", path)
							}
						}
					}
					continue
				}
				for goos, vars := range varsFor {
					paths := tg.PathsFor(goos)
					if slices.Contains(tg.UnsupportedOS, goos) {
						if paths != nil {
							t.Errorf("%s: PathsFor(%s) = %q, want nil (unsupported_os)", scope, goos, paths)
						}
						continue
					}
					if len(paths) == 0 {
						t.Errorf("%s: no paths for %s", scope, goos)
					}
					for _, path := range paths {
						got, err := ExpandPath(path, root, fakeEnv(goos, vars))
						if err != nil {
							t.Errorf("%s/%s: %v", scope, goos, err)
							continue
						}
						// A local file is in the home folder or, kept out of git, in the repository.
						if scope == ScopeLocal && strings.HasPrefix(slashed(goos, got), "/r/") {
							continue
						}
						if !strings.HasPrefix(slashed(goos, got), "/h/") {
							t.Errorf("%s/%s: %q expands to %q, outside the fake home", scope, goos, path, got)
						}
					}
				}
			}
			if n == 0 && p.MCP {
				t.Errorf("no scopes")
			}
			if n > 0 && !p.MCP {
				t.Errorf("mcp = false with %d scopes", n)
			}
		})
	}
}

// TestBuiltinDialects pins the facts that are easiest to get wrong and
// hardest to notice: where the server map is and how an entry is spelled.
func TestBuiltinDialects(t *testing.T) {
	s := builtinSet(t)
	type want struct {
		projectPath string // "" when the tool has no project scope
		format      string // of the first scope
		key         string // segments joined with " > "
		typeField   string
		stdioType   string
		cwdField    string
		envField    string
		command     string
		envRef      string
		httpType    string // "-" when there is no http
		httpURL     string
		sseURL      string // "-" when there is no sse
	}
	tests := map[string]want{
		"claude":         {".mcp.json", "json", "mcpServers", "type", "stdio", "", "env", "string", "${NAME}", "http", "url", "url"},
		"cursor":         {".cursor/mcp.json", "json", "mcpServers", "", "", "", "env", "string", "${env:NAME}", "", "url", "url"},
		"vscode":         {".vscode/mcp.json", "jsonc", "servers", "type", "stdio", "cwd", "env", "string", "${env:NAME}", "http", "url", "url"},
		"copilot":        {".mcp.json", "json", "mcpServers", "type", "stdio", "cwd", "env", "string", "${NAME}", "http", "url", "url"},
		"roo":            {".roo/mcp.json", "json", "mcpServers", "type", "stdio", "cwd", "env", "string", "${env:NAME}", "streamable-http", "url", "url"},
		"jetbrains":      {".junie/mcp/mcp.json", "json", "mcpServers", "", "", "", "env", "string", "", "-", "", "-"},
		"zed":            {".zed/settings.json", "jsonc", "context_servers", "", "", "", "env", "string", "", "", "url", "-"},
		"gemini":         {".gemini/settings.json", "json-comments", "mcpServers", "", "", "cwd", "env", "string", "${NAME}", "", "httpUrl", "url"},
		"qwen":           {".qwen/settings.json", "json-comments", "mcpServers", "", "", "cwd", "env", "string", "${NAME}", "", "httpUrl", "url"},
		"opencode":       {"opencode.json", "jsonc", "mcp", "type", "local", "cwd", "environment", "array", "{env:NAME}", "remote", "url", "url"},
		"kiro":           {".kiro/settings/mcp.json", "json", "mcpServers", "", "", "", "env", "string", "${NAME}", "", "url", "-"},
		"amazonq":        {".amazonq/mcp.json", "json", "mcpServers", "type", "", "", "env", "string", "${env:NAME}", "http", "url", "-"},
		"crush":          {".crush.json", "jsonc", "mcp", "type", "stdio", "", "env", "string", "${NAME}", "http", "url", "url"},
		"amp":            {".amp/settings.json", "jsonc", "amp.mcpServers", "", "", "", "env", "string", "${NAME}", "", "url", "-"},
		"windsurf":       {"", "json", "mcpServers", "", "", "", "env", "string", "${env:NAME}", "", "serverUrl", "serverUrl"},
		"cline":          {"", "json", "mcpServers", "type", "stdio", "cwd", "env", "string", "", "streamableHttp", "url", "url"},
		"claude-desktop": {"", "json", "mcpServers", "", "", "", "env", "string", "", "-", "", "-"},
		// The rest of the catalog.
		"codex":           {".codex/config.toml", "toml", "mcp_servers", "", "", "cwd", "env", "string", "", "", "url", "-"},
		"continue":        {".continue/mcpServers/repo-managed.yaml", "yaml", "mcpServers", "type", "stdio", "cwd", "env", "string", "", "streamable-http", "url", "url"},
		"goose":           {".agents/plugins/<<extension>>/.mcp.json", "json", "mcpServers", "type", "stdio", "", "envs", "string", "", "streamable_http", "uri", "-"},
		"lmstudio":        {"", "json", "mcpServers", "", "", "", "env", "string", "", "", "url", "-"},
		"kilo":            {"kilo.json", "jsonc", "mcp", "type", "local", "", "environment", "array", "{env:NAME}", "remote", "url", "url"},
		"kilo-legacy":     {".kilocode/mcp.json", "json", "mcpServers", "type", "stdio", "cwd", "env", "string", "${env:NAME}", "streamable-http", "url", "url"},
		"augment":         {".augment/settings.json", "jsonc", "mcpServers", "type", "stdio", "", "env", "string", "", "http", "url", "url"},
		"warp":            {".warp/.mcp.json", "json", "mcpServers", "", "", "working_directory", "env", "string", "", "", "url", "url"},
		"trae":            {".trae/mcp.json", "json", "mcpServers", "", "", "", "env", "string", "", "-", "", "-"},
		"factory":         {".factory/mcp.json", "json", "mcpServers", "type", "stdio", "", "env", "string", "", "http", "url", "url"},
		"antigravity":     {".agents/mcp_config.json", "json", "mcpServers", "", "", "", "env", "string", "", "", "serverUrl", "-"},
		"visual-studio":   {".vs/mcp.json", "json", "servers", "type", "stdio", "", "env", "string", "", "http", "url", "url"},
		"firebase-studio": {".idx/mcp.json", "json", "mcpServers", "", "", "", "env", "string", "", "-", "", "-"},
		// Added 2026-11-23.
		"devin":         {".devin/mcp_config.json", "json", "mcpServers", "transport", "", "", "env", "string", "", "http", "url", "url"},
		"qoder":         {".mcp.json", "json", "mcpServers", "type", "stdio", "cwd", "env", "string", "${NAME}", "http", "url", "url"},
		"kimi":          {".kimi-code/mcp.json", "json", "mcpServers", "transport", "", "cwd", "env", "string", "", "", "url", "url"},
		"rovodev":       {"", "json", "mcpServers", "transport", "stdio", "", "env", "string", "", "-", "", "-"},
		"tabnine":       {".tabnine/agent/settings.json", "json", "mcpServers", "", "", "cwd", "env", "string", "", "-", "", "-"},
		"jetbrains-air": {".air/mcp.json", "json", "mcpServers", "", "", "", "env", "string", "", "-", "", "-"},
		"abacus":        {".abacusai/mcp.json", "json", "mcpServers", "", "", "", "env", "string", "", "", "url", "-"},
	}
	if want := len(wantIDs) - len(noMCP); len(tests) != want {
		t.Fatalf("table has %d tools, want %d (every tool with mcp = true)", len(tests), want)
	}
	for id, w := range tests {
		p := s.Get(id)
		if p == nil {
			t.Errorf("%s: missing", id)
			continue
		}
		var first *Target
		for _, scope := range Scopes {
			if first = p.Scopes.Get(scope); first != nil {
				break
			}
		}
		projectPath := ""
		if p.Scopes.Project != nil {
			projectPath = p.Scopes.Project.Paths[0]
		}
		e := p.Entry
		httpType, httpURL, sseURL := "-", "", "-"
		if e.Remote != nil && e.Remote.HTTP != nil {
			httpType, httpURL = e.Remote.HTTP.Type, e.Remote.HTTP.URLField
		}
		if e.Remote != nil && e.Remote.SSE != nil {
			sseURL = e.Remote.SSE.URLField
		}
		got := want{projectPath, first.Format, strings.Join(first.Key, " > "), e.TypeField, e.StdioType,
			e.CwdField, e.EnvField, e.Command, e.EnvRef, httpType, httpURL, sseURL}
		if got != w {
			t.Errorf("%s:\n got %+v\nwant %+v", id, got, w)
		}
		for _, scope := range Scopes {
			// A scope with a dialect of its own (Goose's project drop-ins) may
			// have its own format too.
			if tg := p.Scopes.Get(scope); tg != nil && tg.Entry == nil && first.Entry == nil && tg.Format != first.Format {
				t.Errorf("%s: scopes disagree on the format (%s vs %s)", id, tg.Format, first.Format)
			}
		}
	}

	if p := s.Get("opencode"); p.Entry.Set["enabled"] != true {
		t.Errorf("opencode: entry.set.enabled = %v, want true", p.Entry.Set["enabled"])
	}
	for _, id := range []string{"zed", "kiro", "warp", "abacus"} {
		if !s.Get(id).Entry.AlwaysArgs {
			t.Errorf("%s: always_args = false", id)
		}
	}
	for _, id := range []string{"gemini", "crush", "claude", "copilot"} {
		if !s.Get(id).Entry.EnvRefDefault {
			t.Errorf("%s: env_ref_default = false", id)
		}
	}
	// Qwen Code 0.24.4 has no ${NAME:-default} (its resolver looks up "NAME:-default").
	if s.Get("qwen").Entry.EnvRefDefault {
		t.Error("qwen: env_ref_default = true")
	}
	if got := s.Get("claude-desktop").Scopes.User.UnsupportedOS; !slices.Equal(got, []string{"linux"}) {
		t.Errorf("claude-desktop: unsupported_os = %q", got)
	}
}

// Claude Code, the Copilot CLI and the Qoder CLI read the same .mcp.json: a
// server written for one is read by the others, so their profiles must spell
// a stdio entry alike.
func TestSharedMCPJSONAgrees(t *testing.T) {
	s := builtinSet(t)
	claude := s.Get("claude")
	a := claude.Scopes.Project
	if a == nil {
		t.Fatal("claude needs a project scope")
	}
	if a.Format != FormatJSON {
		t.Errorf("shared .mcp.json must be strict JSON (Claude ignores it whole on a comment), got %s", a.Format)
	}
	for _, id := range []string{"copilot", "qoder"} {
		other := s.Get(id)
		b := other.Scopes.Project
		if b == nil {
			t.Fatalf("%s needs a project scope", id)
		}
		if !slices.Equal(a.Paths, b.Paths) || a.Format != b.Format || !slices.Equal(a.Key, b.Key) {
			t.Fatalf("project targets differ: claude %q %s %q, %s %q %s %q", a.Paths, a.Format, a.Key, id, b.Paths, b.Format, b.Key)
		}
		ea, eb := claude.Entry, other.Entry
		for _, f := range []struct{ what, a, b string }{
			{"type field", ea.TypeField, eb.TypeField},
			{"stdio type", ea.StdioType, eb.StdioType},
			{"command shape", ea.Command, eb.Command},
			{"command field", ea.CommandField, eb.CommandField},
			{"args field", ea.ArgsField, eb.ArgsField},
			{"env field", ea.EnvField, eb.EnvField},
			{"env reference", ea.EnvRef, eb.EnvRef},
		} {
			if f.a != f.b {
				t.Errorf("%s: claude %q, %s %q", f.what, f.a, id, f.b)
			}
		}
		if ea.AlwaysArgs != eb.AlwaysArgs {
			t.Errorf("always_args: claude %v, %s %v", ea.AlwaysArgs, id, eb.AlwaysArgs)
		}
	}
}
