package gates

import (
	"github.com/repo-manager/repo/internal/lazy"
	"github.com/repo-manager/repo/toolprofiles"
)

// Asking is how a tool asks its user before it starts a server it read
// from a file: what a new or changed server in a project file meets.
type Asking string

const (
	// AsksNever: the tool starts every server it reads.
	AsksNever Asking = "never"
	// AsksFolder: the tool asks once whether to trust the folder, then
	// starts every server in it, new or changed, without asking.
	AsksFolder Asking = "folder"
	// AsksByName: the tool asks once per server name, and a changed
	// server starts under the approval given to the old one.
	AsksByName Asking = "name"
	// AsksByContent: the tool asks per server, and again when its
	// definition changes.
	AsksByContent Asking = "content"
)

// asking is what each tool does with the servers of its project file. A
// tool not listed starts what it reads. No tool asks about its local or
// user file (which is why repo trust gates those). Built on first use.
var asking = lazy.Value[map[string]Asking]{New: func() map[string]Asking {
	return map[string]Asking{
		"claude":  AsksByName,    // enabledMcpjsonServers holds names
		"qwen":    AsksByContent, // ~/.qwen/mcpApprovals.json binds each approval to a hash of the entry
		"amp":     AsksByContent, // amp.mcpTrustedServers binds each approval to a hash of the launch spec
		"vscode":  AsksByContent, // asks before starting a workspace server, again after its configuration changes
		"cursor":  AsksByContent, // asks to enable each new project server, again after it changes
		"warp":    AsksByContent, // starts no project server on its own: each one is started per session
		"codex":   AsksFolder,    // reads .codex/config.toml in a trusted project only
		"gemini":  AsksFolder,    // folder trust (trustedFolders.json)
		"copilot": AsksFolder,    // trustedFolders
		"zed":     AsksFolder,    // worktree trust
		"kimi":    AsksFolder,    // workspace trust
		"tabnine": AsksFolder,    // trusted workspaces
		"trae":    AsksFolder,    // project MCP switched on once per workspace
	}
}}

// Asks says how the tool of profile p asks before it starts a server of
// scope.
func Asks(p *toolprofiles.Profile, scope string) Asking {
	if scope != toolprofiles.ScopeProject {
		return AsksNever
	}
	if a, ok := asking.Get()[p.ID]; ok {
		return a
	}
	return AsksNever
}
