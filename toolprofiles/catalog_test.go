package toolprofiles

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestCatalog pins, for every built-in tool, whether repo writes to it, the
// evidence behind it and its scopes, and reports how many profiles rest on
// each level of evidence.
func TestCatalog(t *testing.T) {
	s := builtinSet(t)
	type row struct {
		mcp      bool
		evidence string
		scopes   string // scope names joined with "+", "-" for none
	}
	want := map[string]row{
		"abacus":          {true, "docs", "project+user"},
		"aider":           {false, "2nd", "-"},
		"amazonq":         {true, "src", "project+user"},
		"amp":             {true, "run", "project+user"},
		"antigravity":     {true, "2nd", "project+user"},
		"augment":         {true, "run", "project+user"},
		"claude":          {true, "run", "project+local+user"},
		"claude-desktop":  {true, "docs", "user"},
		"cline":           {true, "run", "user"},
		"codex":           {true, "run", "project+user"},
		"cody":            {false, "unverified", "-"},
		"continue":        {true, "run", "project+user"},
		"copilot":         {true, "run", "project+user"},
		"crush":           {true, "src", "project+user"},
		"cursor":          {true, "2nd", "project+user"},
		"devin":           {true, "2nd", "project+local+user"},
		"factory":         {true, "run", "project+user"},
		"firebase-studio": {true, "docs", "project"},
		"gemini":          {true, "run", "project+user"},
		"goose":           {true, "src", "project+user"},
		"jetbrains":       {true, "2nd", "project+user"},
		"jetbrains-ai":    {false, "2nd", "-"},
		"jetbrains-air":   {true, "docs", "project"},
		"kilo":            {true, "run", "project+user"},
		"kilo-legacy":     {true, "src", "project+user"},
		"kimi":            {true, "docs", "project+user"},
		"kiro":            {true, "docs", "project+user"},
		"lmstudio":        {true, "docs", "user"},
		"mistral-vibe":    {false, "2nd", "-"},
		"opencode":        {true, "run", "project+user"},
		"qoder":           {true, "run", "project+local+user"},
		"qwen":            {true, "run", "project+user"},
		"roo":             {true, "src", "project+user"},
		"rovodev":         {true, "docs", "user"},
		"tabnine":         {true, "docs", "project+user"},
		"trae":            {true, "docs", "project+user"},
		"visual-studio":   {true, "docs", "project+user"},
		"vscode":          {true, "src", "project+user"},
		"warp":            {true, "docs", "project+user"},
		"windsurf":        {true, "docs", "user"},
		"zed":             {true, "src", "project+user"},
	}
	if len(want) != len(wantIDs) {
		t.Fatalf("table has %d tools, want %d", len(want), len(wantIDs))
	}
	byLevel := map[string][]string{}
	writable := map[string]int{}
	for _, p := range s.All() {
		w, ok := want[p.ID]
		if !ok {
			t.Errorf("%s: not in the table", p.ID)
			continue
		}
		var scopes []string
		for _, scope := range Scopes {
			if p.Scopes.Get(scope) != nil {
				scopes = append(scopes, scope)
			}
		}
		got := row{p.MCP, p.Evidence, strings.Join(scopes, "+")}
		if got.scopes == "" {
			got.scopes = "-"
		}
		if got != w {
			t.Errorf("%s: got %+v, want %+v", p.ID, got, w)
		}
		byLevel[p.Evidence] = append(byLevel[p.Evidence], p.ID)
		if p.MCP {
			writable[p.Evidence]++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d profiles (%d written to, %d with mcp = false) by evidence level:", len(s.All()), len(s.All())-len(noMCP), len(noMCP))
	total := 0
	for _, level := range evidenceLevels {
		ids := byLevel[level]
		total += len(ids)
		fmt.Fprintf(&b, "\n  %-10s %2d (mcp %2d): %s", level, len(ids), writable[level], strings.Join(ids, ", "))
	}
	if total != len(wantIDs) {
		t.Errorf("counted %d profiles, want %d", total, len(wantIDs))
	}
	t.Log(b.String())
}

// TestCatalogDetails pins what TestBuiltinDialects does not: container
// shapes, skeletons, renamed fields, forwarding lists, name rules, blocked
// variables, preserved and fixed members.
func TestCatalogDetails(t *testing.T) {
	s := builtinSet(t)
	type want struct {
		container    string // of every scope
		nameField    string // list entries' name member ("" for maps)
		skeletons    map[string]string
		commandField string
		argsField    string
		alwaysArgs   bool
		entryName    string // entry.name_field
		envForward   string
		headersField string // "-" without remote
		namePattern  string
		blockedEnv   int
		preserve     []string
		set          map[string]any
		unsupported  map[string][]string // scope -> unsupported_os
	}
	tests := map[string]want{
		"codex": {
			container: "map", commandField: "command", argsField: "args",
			envForward: "env_vars", headersField: "http_headers", namePattern: `^[A-Za-z0-9_:@/.-]+$`,
			preserve: []string{"enabled", "startup_timeout_sec", "tool_timeout_sec", "enabled_tools", "disabled_tools", "tools",
				"oauth", "scopes", "http_headers_helper"},
		},
		"continue": {
			container: "list", nameField: "name",
			skeletons: map[string]string{
				ScopeProject: "name: MCP servers managed by repo\nversion: 0.0.1\nschema: v1\nmcpServers: []\n",
				ScopeUser:    "name: Local Config\nversion: 1.0.0\nschema: v1\nmcpServers: []\n",
			},
			commandField: "command", argsField: "args", headersField: "headers",
			preserve: []string{"connectionTimeout"},
		},
		"goose": {
			container: "map", commandField: "cmd", argsField: "args", alwaysArgs: true, entryName: "name",
			headersField: "headers", namePattern: `^[a-z0-9_-]+$`, blockedEnv: 31,
			preserve: []string{"enabled", "timeout", "description"},
			set:      map[string]any{"enabled": true, "timeout": int64(300), "description": ""},
		},
		"lmstudio": {container: "map", commandField: "command", argsField: "args", headersField: "headers"},
		"kilo": {
			container: "map", commandField: "command", argsField: "args", headersField: "headers",
			preserve: []string{"enabled", "timeout", "oauth"}, set: map[string]any{"enabled": true},
		},
		"kilo-legacy": {
			container: "map", commandField: "command", argsField: "args", headersField: "headers",
			preserve: []string{"alwaysAllow", "disabled", "disabledTools", "timeout"},
		},
		"augment":     {container: "map", commandField: "command", argsField: "args", headersField: "headers"},
		"warp":        {container: "map", commandField: "command", argsField: "args", alwaysArgs: true, headersField: "headers"},
		"trae":        {container: "map", commandField: "command", argsField: "args", headersField: "-"},
		"factory":     {container: "map", commandField: "command", argsField: "args", headersField: "headers"},
		"antigravity": {container: "map", commandField: "command", argsField: "args", headersField: "headers"},
		"kimi": {
			container: "map", commandField: "command", argsField: "args", headersField: "headers",
		},
		"tabnine": {container: "map", commandField: "command", argsField: "args", headersField: "-"},
		"abacus":  {container: "map", commandField: "command", argsField: "args", alwaysArgs: true, headersField: "headers"},
		"visual-studio": {
			container: "map", commandField: "command", argsField: "args", headersField: "headers",
			unsupported: map[string][]string{ScopeProject: {"linux", "darwin"}, ScopeUser: {"linux", "darwin"}},
		},
		"firebase-studio": {container: "map", commandField: "command", argsField: "args", headersField: "-"},
	}
	for id, w := range tests {
		p := s.Get(id)
		if p == nil {
			t.Errorf("%s: missing", id)
			continue
		}
		for _, scope := range Scopes {
			tg := p.Scopes.Get(scope)
			if tg == nil {
				continue
			}
			if tg.Container != w.container || tg.NameField != w.nameField {
				t.Errorf("%s/%s: container %q name_field %q, want %q %q", id, scope, tg.Container, tg.NameField, w.container, w.nameField)
			}
			if tg.Skeleton != w.skeletons[scope] {
				t.Errorf("%s/%s: skeleton %q, want %q", id, scope, tg.Skeleton, w.skeletons[scope])
			}
			if !slices.Equal(tg.UnsupportedOS, w.unsupported[scope]) {
				t.Errorf("%s/%s: unsupported_os %q, want %q", id, scope, tg.UnsupportedOS, w.unsupported[scope])
			}
		}
		e := p.Entry
		if e.CommandField != w.commandField || e.ArgsField != w.argsField || e.AlwaysArgs != w.alwaysArgs {
			t.Errorf("%s: command_field %q args_field %q always_args %v, want %q %q %v", id, e.CommandField, e.ArgsField, e.AlwaysArgs, w.commandField, w.argsField, w.alwaysArgs)
		}
		if e.NameField != w.entryName || e.EnvForward != w.envForward || e.NamePattern != w.namePattern {
			t.Errorf("%s: entry name_field %q env_forward_field %q name_pattern %q, want %q %q %q", id, e.NameField, e.EnvForward, e.NamePattern, w.entryName, w.envForward, w.namePattern)
		}
		headers := "-"
		if e.Remote != nil {
			headers = e.Remote.HeadersField
		}
		if headers != w.headersField {
			t.Errorf("%s: headers_field %q, want %q", id, headers, w.headersField)
		}
		if len(e.BlockedEnv) != w.blockedEnv {
			t.Errorf("%s: %d blocked_env names, want %d", id, len(e.BlockedEnv), w.blockedEnv)
		}
		if !slices.Equal(e.Preserve, w.preserve) {
			t.Errorf("%s: preserve %q, want %q", id, e.Preserve, w.preserve)
		}
		if len(e.Set) != len(w.set) {
			t.Errorf("%s: entry.set %v, want %v", id, e.Set, w.set)
		}
		for k, v := range w.set {
			if e.Set[k] != v {
				t.Errorf("%s: entry.set.%s = %#v, want %#v", id, k, e.Set[k], v)
			}
		}
	}

	// Goose drops these from envs (Envs::DISALLOWED_KEYS); spot-check the
	// spelling of a few, including the Windows names in mixed case.
	goose := s.Get("goose").Entry.BlockedEnv
	for _, name := range []string{"PATH", "LD_PRELOAD", "PYTHONPATH", "NODE_OPTIONS", "SystemRoot", "windir", "ComSpec", "HOMEPATH"} {
		if !slices.Contains(goose, name) {
			t.Errorf("goose: blocked_env lacks %s", name)
		}
	}
	// Codex has no type key and no SSE; Goose has no SSE any more.
	if e := s.Get("codex").Entry; e.TypeField != "" || e.StdioType != "" || e.Remote.SSE != nil || e.EnvRef != "" {
		t.Errorf("codex: type_field %q stdio_type %q sse %v env_ref %q, want none", e.TypeField, e.StdioType, e.Remote.SSE, e.EnvRef)
	}
	if s.Get("goose").Entry.Remote.SSE != nil {
		t.Error("goose: remote.sse is set; Goose no longer supports SSE")
	}
	// The Continue drop-in file is owned whole: its skeleton must be a
	// valid block file header (name, version, schema v1) with an empty list.
	sk := s.Get("continue").Scopes.Project.Skeleton
	for _, line := range []string{"name: ", "version: ", "schema: v1", "mcpServers: []"} {
		if !strings.Contains(sk, "\n"+line) && !strings.HasPrefix(sk, line) {
			t.Errorf("continue: project skeleton lacks %q", line)
		}
	}
	// Kilo (current) speaks OpenCode's dialect.
	k, o := s.Get("kilo").Entry, s.Get("opencode").Entry
	if k.Command != o.Command || k.EnvField != o.EnvField || k.TypeField != o.TypeField || k.StdioType != o.StdioType || k.EnvRef != o.EnvRef {
		t.Errorf("kilo and opencode dialects differ: kilo %+v, opencode %+v", k, o)
	}
}

// TestCatalogUserPaths pins where the user-scope files of the new tools
// land on each OS, with and without the variables that move them.
func TestCatalogUserPaths(t *testing.T) {
	s := builtinSet(t)
	appdata := map[string]string{"APPDATA": "/h/AppData/Roaming"}
	tests := []struct {
		id, goos string
		vars     map[string]string
		want     []string // nil: no user file on this OS
	}{
		{"codex", "linux", nil, []string{"/h/.codex/config.toml"}},
		{"codex", "darwin", nil, []string{"/h/.codex/config.toml"}},
		{"codex", "windows", appdata, []string{"/h/.codex/config.toml"}},
		{"codex", "linux", map[string]string{"CODEX_HOME": "/opt/codex"}, []string{"/opt/codex/config.toml"}},
		{"continue", "linux", nil, []string{"/h/.continue/config.yaml"}},
		{"continue", "windows", appdata, []string{"/h/.continue/config.yaml"}},
		{"continue", "darwin", map[string]string{"CONTINUE_GLOBAL_DIR": "/c"}, []string{"/c/config.yaml"}},
		{"goose", "linux", nil, []string{"/h/.config/goose/config.yaml"}},
		{"goose", "linux", map[string]string{"XDG_CONFIG_HOME": "/x"}, []string{"/x/goose/config.yaml"}},
		{"goose", "darwin", map[string]string{"XDG_CONFIG_HOME": "/x"}, []string{"/h/.config/goose/config.yaml"}},
		{"goose", "windows", appdata, []string{"/h/AppData/Roaming/Block/goose/config/config.yaml"}},
		{"lmstudio", "linux", nil, []string{"/h/.lmstudio/mcp.json", "/h/.cache/lm-studio/mcp.json"}},
		{"lmstudio", "windows", appdata, []string{"/h/.lmstudio/mcp.json", "/h/.cache/lm-studio/mcp.json"}},
		{"devin", "linux", nil, []string{"/h/.config/devin/mcp_config.json"}},
		{"devin", "darwin", nil, []string{"/h/.config/devin/mcp_config.json"}},
		{"devin", "windows", appdata, []string{"/h/AppData/Roaming/devin/mcp_config.json"}},
		{"kimi", "linux", nil, []string{"/h/.kimi-code/mcp.json"}},
		{"kimi", "darwin", map[string]string{"KIMI_CODE_HOME": "/k"}, []string{"/k/mcp.json"}},
		{"rovodev", "windows", appdata, []string{"/h/.rovodev/mcp.json"}},
		{"tabnine", "darwin", nil, []string{"/h/.tabnine/agent/settings.json"}},
		{"qoder", "linux", nil, []string{"/h/.qoder/settings.json"}},
		{"abacus", "windows", appdata, []string{"/h/.abacusai/mcp.json"}},
		{"kilo", "linux", nil, []string{"/h/.config/kilo/kilo.json", "/h/.config/kilo/kilo.jsonc"}},
		{"kilo", "windows", appdata, []string{"/h/.config/kilo/kilo.json", "/h/.config/kilo/kilo.jsonc"}},
		{"kilo-legacy", "linux", nil, []string{"/h/.config/Code/User/globalStorage/kilocode.kilo-code/settings/mcp_settings.json"}},
		{"kilo-legacy", "darwin", nil, []string{"/h/Library/Application Support/Code/User/globalStorage/kilocode.kilo-code/settings/mcp_settings.json"}},
		{"kilo-legacy", "windows", appdata, []string{"/h/AppData/Roaming/Code/User/globalStorage/kilocode.kilo-code/settings/mcp_settings.json"}},
		{"augment", "linux", nil, []string{"/h/.augment/settings.json"}},
		{"warp", "darwin", nil, []string{"/h/.warp/.mcp.json"}},
		{"trae", "linux", nil, []string{"/h/.config/Trae/User/mcp.json"}},
		{"trae", "darwin", nil, []string{"/h/Library/Application Support/Trae/User/mcp.json"}},
		{"trae", "windows", appdata, []string{"/h/AppData/Roaming/Trae/User/mcp.json"}},
		{"factory", "windows", appdata, []string{"/h/.factory/mcp.json"}},
		{"antigravity", "linux", nil, []string{"/h/.gemini/config/mcp_config.json", "/h/.gemini/antigravity/mcp_config.json"}},
		{"visual-studio", "windows", appdata, []string{"/h/.mcp.json"}},
		{"visual-studio", "linux", nil, nil},
		{"visual-studio", "darwin", nil, nil},
	}
	for _, tt := range tests {
		name := tt.id + "/" + tt.goos
		if len(tt.vars) > 0 {
			name += fmt.Sprint(tt.vars)
		}
		t.Run(name, func(t *testing.T) {
			p := s.Get(tt.id)
			if p == nil || p.Scopes.User == nil {
				t.Fatalf("%s: no user scope", tt.id)
			}
			var got []string
			for _, path := range p.Scopes.User.PathsFor(tt.goos) {
				x, err := ExpandPath(path, filepath.FromSlash("/r"), fakeEnv(tt.goos, tt.vars))
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, slashed(tt.goos, x))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestNamePatterns checks the server-name rules against names the tools
// are known to accept or refuse.
func TestNamePatterns(t *testing.T) {
	s := builtinSet(t)
	tests := []struct {
		id     string
		accept []string
		refuse []string
	}{
		// codex mcp add: letters, numbers, '-', '_', ':', '@', '/', '.'.
		{"codex", []string{"alpha", "a.b", "org/srv", "x:y@1", "A_B-c"}, []string{"bad name", "ünï", "", "a,b"}},
		// Goose keys: name_to_key lowercases, drops whitespace, maps the rest to '_'.
		{"goose", []string{"github", "my_ext-2"}, []string{"GitHub", "my ext", "a.b", ""}},
	}
	for _, tt := range tests {
		re := regexp.MustCompile(s.Get(tt.id).Entry.NamePattern)
		for _, n := range tt.accept {
			if !re.MatchString(n) {
				t.Errorf("%s: %q refused, want accepted", tt.id, n)
			}
		}
		for _, n := range tt.refuse {
			if re.MatchString(n) {
				t.Errorf("%s: %q accepted, want refused", tt.id, n)
			}
		}
	}
}

// TestSharedTargetsAgree: when two profiles name the same file and key in
// the same scope, the writer keeps one target for both, so they must read
// it alike (format, container, name member) — the same check the writer
// makes at sync time, here for every OS.
func TestSharedTargetsAgree(t *testing.T) {
	s := builtinSet(t)
	for goos, vars := range varsFor {
		type owner struct {
			id string
			tg *Target
		}
		seen := map[string]owner{}
		for _, p := range s.All() {
			for _, scope := range Scopes {
				tg := p.Scopes.Get(scope)
				if tg == nil {
					continue
				}
				for _, path := range tg.PathsFor(goos) {
					x, err := ExpandPath(path, filepath.FromSlash("/r"), fakeEnv(goos, vars))
					if err != nil {
						t.Fatalf("%s/%s/%s: %v", p.ID, scope, goos, err)
					}
					id := filepath.ToSlash(x) + " " + strings.Join(tg.Key, ">")
					prev, ok := seen[id]
					if !ok {
						seen[id] = owner{p.ID, tg}
						continue
					}
					if prev.tg.Format != tg.Format || prev.tg.Container != tg.Container || prev.tg.NameField != tg.NameField {
						t.Errorf("%s on %s: %s reads it as %s/%s, %s as %s/%s", id, goos, prev.id, prev.tg.Format, prev.tg.Container, p.ID, tg.Format, tg.Container)
					}
				}
			}
		}
	}
}
