package commit

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/translator"
)

func targetFor(t *testing.T, env target.Env, id string, scope target.Scope) *target.Target {
	t.Helper()
	targets, _, err := target.Build(nil, profiles(t, id), scope, env)
	if err != nil {
		t.Fatal(err)
	}
	if len(targets) != 1 {
		t.Fatalf("%s %s: %d targets", id, scope, len(targets))
	}
	return targets[0]
}

// TestReadEntriesEveryFormat reads the user's entries from each kind of
// file — a JSON map, JSONC with comments, Codex's TOML tables, Goose's YAML
// map, Continue's YAML list — and turns them back into the neutral format.
func TestReadEntriesEveryFormat(t *testing.T) {
	env := testEnv(t)
	root, home := env.Root, env.Home
	cases := []struct {
		tool       string
		scope      target.Scope
		file, body string
		want       map[string]extensions.Spec
	}{
		{"claude", "project", ".mcp.json", `{"mcpServers": {
  "gh": {"type": "stdio", "command": "npx", "args": ["-y", "gh-mcp"], "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}},
  "docs": {"type": "http", "url": "https://docs.invalid/mcp"}
}}`, map[string]extensions.Spec{
			"gh":   {Transport: "stdio", Command: "npx", Args: []string{"-y", "gh-mcp"}, Env: []extensions.KV{{Key: "GITHUB_TOKEN", Value: "${GITHUB_TOKEN}"}}},
			"docs": {Transport: "http", URL: "https://docs.invalid/mcp"},
		}},
		{"opencode", "project", "opencode.json", `{
  // mine
  "$schema": "https://opencode.ai/config.json",
  "mcp": {
    "oc": {"type": "local", "command": ["node", "` + root + `/srv.js"], "environment": {"K": "{env:K}"}, "enabled": true,},
  },
}`, map[string]extensions.Spec{
			"oc": {Transport: "stdio", Command: "node", Args: []string{"<<root>>/srv.js"}, Env: []extensions.KV{{Key: "K", Value: "${K}"}}},
		}},
		{"vscode", "project", ".vscode/mcp.json", `{"servers": {"vs": {"type": "stdio", "command": "node", "args": ["${workspaceFolder}/a.js"], "env": {"T": "${env:T}"}}}}`,
			map[string]extensions.Spec{
				"vs": {Transport: "stdio", Command: "node", Args: []string{"<<root>>/a.js"}, Env: []extensions.KV{{Key: "T", Value: "${T}"}}},
			}},
		{"codex", "project", ".codex/config.toml", `model = "gpt-5"

[mcp_servers.fetch]
command = "uvx"
args = ["mcp-server-fetch"]
env_vars = ["TOKEN"]
startup_timeout_sec = 20

[mcp_servers.fetch.env]
MODE = "dev"

[mcp_servers."remote.docs"]
url = "https://docs.invalid/mcp"
bearer_token_env_var = "DOCS_TOKEN"
`, map[string]extensions.Spec{
			"fetch":       {Transport: "stdio", Command: "uvx", Args: []string{"mcp-server-fetch"}, Env: []extensions.KV{{Key: "MODE", Value: "dev"}, {Key: "TOKEN", Value: "${TOKEN}"}}},
			"remote.docs": {Transport: "http", URL: "https://docs.invalid/mcp", Headers: []extensions.KV{{Key: "Authorization", Value: "Bearer ${DOCS_TOKEN}"}}},
		}},
		{"goose", "user", "home/.config/goose/config.yaml", `GOOSE_PROVIDER: openai
extensions:
  developer:
    bundled: true
    enabled: true
    name: developer
    timeout: 300
    type: builtin
  fetch:
    name: fetch
    type: stdio
    cmd: uvx
    args:
      - mcp-server-fetch
    envs:
      CACHE: ` + home + `/.cache/fetch
    enabled: true
    timeout: 300
`, map[string]extensions.Spec{
			"fetch": {Transport: "stdio", Command: "uvx", Args: []string{"mcp-server-fetch"}, Env: []extensions.KV{{Key: "CACHE", Value: "<<home>>/.cache/fetch"}}},
		}},
		{"continue", "user", "home/.continue/config.yaml", `name: Local Config
version: 1.0.0
schema: v1
mcpServers:
  - name: sqlite
    type: stdio
    command: npx
    args: ["-y", "mcp-sqlite", "` + root + `/db.sqlite"]
  - name: remote
    type: sse
    url: https://sse.invalid/sse
`, map[string]extensions.Spec{
			"sqlite": {Transport: "stdio", Command: "npx", Args: []string{"-y", "mcp-sqlite", "<<root>>/db.sqlite"}},
			"remote": {Transport: "sse", URL: "https://sse.invalid/sse"},
		}},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			write(t, filepath.Join(root, c.file), c.body)
			p := profiles(t, c.tool)[0]
			entries, err := plan.ReadEntries(env, targetFor(t, env, c.tool, c.scope))
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]extensions.Spec{}
			for _, e := range entries {
				if e.Owner != "" {
					t.Errorf("%s: owned by %q without a record", e.Name, e.Owner)
				}
				s, _, err := translator.Neutral(e.Name, e.Value, p, translator.NeutralOptions{Root: root, Home: home, GOOS: "linux"})
				if err != nil {
					if c.tool == "goose" && e.Name == "developer" {
						continue // a built-in Goose extension, no server: refused, see below
					}
					t.Fatalf("%s: %v", e.Name, err)
				}
				got[e.Name] = s
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
	t.Run("goose built-in", func(t *testing.T) {
		entries, err := plan.ReadEntries(env, targetFor(t, env, "goose", "user"))
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = translator.Neutral(entries[0].Name, entries[0].Value, profiles(t, "goose")[0], translator.NeutralOptions{})
		if err == nil || entries[0].Name != "developer" {
			t.Fatalf("a Goose builtin extension is no server an MCP file can declare: %s %v", entries[0].Name, err)
		}
	})
}

// TestReadEntriesOwner: the record decides which entries are repo's.
func TestReadEntriesOwner(t *testing.T) {
	env := testEnv(t)
	mustSync(t, env, []extensions.Server{server}, "claude")
	path := filepath.Join(env.Root, ".mcp.json")
	write(t, path, `{"mcpServers": {"mine": {"command": "uvx"}, "s": {"type": "stdio", "command": "node", "args": ["s.js"]}}}`)
	entries, err := plan.ReadEntries(env, targetFor(t, env, "claude", "project"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[0].Name != "mine" || entries[0].Owner != "" || entries[1].Name != "s" || entries[1].Owner != "ext" {
		t.Fatalf("got %+v", entries)
	}
	if entries[0].Line != 1 {
		t.Errorf("line %d", entries[0].Line)
	}
	// No file: no entries, no error.
	none, err := plan.ReadEntries(env, targetFor(t, env, "claude", "user"))
	if err != nil || none != nil {
		t.Fatalf("got %v, %v", none, err)
	}
}

// TestAdoptNames: only the named entries are adopted; another user entry
// in the way is still refused.
func TestAdoptNames(t *testing.T) {
	env := testEnv(t)
	write(t, filepath.Join(env.Root, ".mcp.json"), `{"mcpServers": {"a": {"command": "a"}, "b": {"command": "b"}}}`)
	servers := []extensions.Server{
		{Name: "a", Extension: "team", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "a"}},
		{Name: "b", Extension: "other", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "b"}},
	}
	targets, _, err := target.Build(servers, profiles(t, "claude"), toolprofiles.ScopeProject, env)
	if err != nil {
		t.Fatal(err)
	}
	_, err = plan.Build(env, targets, plan.Options{AdoptNames: []string{"a"}})
	var conflict *plan.ConflictError
	if !errors.As(err, &conflict) || conflict.Entry != "b" {
		t.Fatalf("want a conflict on b, got %v", err)
	}
	p, err := plan.Build(env, targets, plan.Options{AdoptNames: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Files[0].Changes; len(got) != 2 || got[0].Action != plan.ActionAdopt || got[1].Action != plan.ActionAdopt {
		t.Fatalf("changes %+v", got)
	}
}
