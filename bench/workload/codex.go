package workload

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// CodexConfig returns a user's ~/.codex/config.toml as Codex and its user
// leave it: comments, model and sandbox settings, a profile, the projects
// Codex was trusted in (one [projects."<path>"] table each), two servers of
// the user's (one with the approval tables Codex writes), and [features]
// after them. It holds no managed block.
func CodexConfig(projects int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 0xc0de))
	var b strings.Builder
	b.WriteString(`# Codex configuration: https://developers.openai.com/codex/config
model = "gpt-5-codex"
model_reasoning_effort = "high"
approval_policy = "on-request"
sandbox_mode = "workspace-write"
file_opener = "vscode"

[sandbox_workspace_write]
network_access = true
writable_roots = ["/tmp", "/home/dev/.cache"]

[tui]
notifications = ["agent-turn-complete", "approval-requested"]

# Quick questions: a small model, no approvals.
[profiles.fast]
model = "gpt-5-mini"
approval_policy = "never"
model_reasoning_effort = "low"

[shell_environment_policy]
inherit = "core"
exclude = ["AWS_*", "AZURE_*"]
`)
	for i := range projects {
		fmt.Fprintf(&b, "\n[projects.\"/home/dev/src/%s/%s-%d\"]\ntrust_level = \"trusted\"\n",
			words[r.IntN(len(words))], words[r.IntN(len(words))], i)
	}
	b.WriteString(`
# My own servers, added with codex mcp add.
[mcp_servers.postgres]
command = "docker"
args = ["run", "-i", "--rm", "ghcr.io/acme/db-mcp:1.4"]
startup_timeout_sec = 20

[mcp_servers.postgres.env]
DB_URL = "postgres://localhost/dev"

[mcp_servers.docs]
url = "https://mcp.docs.example.com/mcp"
bearer_token_env_var = "DOCS_TOKEN"

[mcp_servers.docs.tools.search]
approval_mode = "approve"

[features]
web_search_request = true
unified_exec = false
`)
	return []byte(b.String())
}
