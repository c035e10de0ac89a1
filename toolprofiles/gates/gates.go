// Package gates knows the steps a tool asks of its user before it starts
// the MCP servers written for it: approving them, or trusting the folder.
// Each gate reads the tool's own files to say whether the step was taken,
// and gives the exact command or setting when it was not. Writing
// approvals is the user's decision, so repo only reports them (repo
// doctor).
package gates

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/tidwall/jsonc"

	"github.com/repo-manager/repo/internal/lazy"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/regfile"
	"github.com/repo-manager/repo/internal/shellquote"
	"github.com/repo-manager/repo/toolprofiles"
)

// Kinds of gate, as repo doctor names its findings.
const (
	Approval = "approval" // each server must be approved
	Trust    = "trust"    // the folder must be trusted
)

// A Gate is what a user must still do, after repo wrote a tool's config,
// before the tool starts the servers in it.
type Gate struct {
	Kind   string   // Approval or Trust
	Scopes []string // scopes whose servers the gate holds back
	Files  []string // the files the check reads, as profile-style paths
	check  func(c Context) State
	fix    func(c Context) string
}

// For returns the gate of profile p that holds back servers of scope.
func For(p *toolprofiles.Profile, scope string) (Gate, bool) {
	g, ok := gates.Get()[p.ID]
	if !ok || !slices.Contains(g.Scopes, scope) {
		return Gate{}, false
	}
	return g, true
}

// Files are the files the gates of profiles read for scope, by tool id.
func Files(profiles []*toolprofiles.Profile, scope string) map[string][]string {
	files := map[string][]string{}
	for _, p := range profiles {
		if g, ok := For(p, scope); ok {
			files[p.ID] = g.Files
		}
	}
	return files
}

// Entry is a server entry as repo wrote it for the tool.
type Entry struct {
	Name  string
	Value ordered.Object
}

// Context is what a gate check may look at.
type Context struct {
	Root    string
	Entries []Entry // the entries written for the tool, in file order
	Profile *toolprofiles.Profile
	Env     toolprofiles.Env
	Show    func(string) string // how a path is shown to the user
}

// State is a check's verdict: OK, or what is missing (Msg) and the step
// that takes it (Fix). Problems reading a file are reported as not
// satisfied, naming the file, with Unreadable set: the gate's state is not
// known (a warning, not advice), and Fix is the step itself.
type State struct {
	OK         bool
	Msg        string
	Fix        string // empty when OK
	Unreadable bool
	// ByName are the servers the tool has approved by their name alone
	// (Claude Code): it starts a changed definition under that approval.
	ByName []string
}

// Check reads the tool's files and says whether the gate is passed.
func (g Gate) Check(c Context) State {
	st := g.check(c)
	switch {
	case st.Unreadable:
		st.Fix = g.fix(c)
	case !st.OK && st.Fix == "":
		st.Fix = g.fix(c)
	}
	return st
}

// gates, by profile id. A tool without a gate starts what it reads
// (OpenCode among them: opencode-ai 1.18.33 has no approve command and
// starts project servers as it reads them; one version of its docs
// describes `opencode mcp approve`, which no release checked has). Built
// on first use: most commands never ask about a gate (internal/lazy).
var gates = lazy.Value[map[string]Gate]{New: func() map[string]Gate {
	return map[string]Gate{
		"claude": {
			Kind:   Approval,
			Scopes: []string{toolprofiles.ScopeProject},
			Files:  []string{claudeLocalSettings, claudeUserSettings, claudeState},
			check:  claudeApproved,
			fix: func(c Context) string {
				// By name, never enableAllProjectMcpServers: that approves every
				// server a later commit adds as well.
				names, _ := json.Marshal(c.names())
				return fmt.Sprintf(`add "enabledMcpjsonServers": %s to .claude/settings.local.json, after reading each server's entry in .mcp.json (or approve each one when Claude Code asks)`, names)
			},
		},
		"codex": {
			Kind:   Trust,
			Scopes: []string{toolprofiles.ScopeProject},
			Files:  []string{codexConfig},
			check:  codexTrusted,
			fix: func(c Context) string {
				return fmt.Sprintf(`add [projects.%s] trust_level = "trusted" to %s`, tomlQuote(c.Root), c.Show(c.path(codexConfig)))
			},
		},
		"gemini": {
			Kind:   Trust,
			Scopes: []string{toolprofiles.ScopeProject, toolprofiles.ScopeUser}, // untrusted: user servers are disabled too
			Files:  []string{geminiSettings, geminiTrustFile},
			check:  geminiTrusted,
			fix: func(c Context) string {
				return fmt.Sprintf(`add %s: "TRUST_FOLDER" to %s (or trust the folder when Gemini CLI asks)`, jsonQuote(c.Root), c.Show(c.path(geminiTrustFile)))
			},
		},
		"qwen": {
			Kind:   Approval,
			Scopes: []string{toolprofiles.ScopeProject},
			Files:  []string{qwenApprovals},
			check:  qwenApproved,
			fix:    func(c Context) string { return qwenFix(c.names()) },
		},
		"amp": {
			Kind:   Approval,
			Scopes: []string{toolprofiles.ScopeProject},
			Files:  []string{ampSettings},
			check:  ampApproved,
			fix:    func(c Context) string { return ampFix(c.names()) },
		},
		"zed": {
			Kind:   Trust,
			Scopes: []string{toolprofiles.ScopeProject},
			Files:  []string{zedSettings},
			check:  zedTrusted,
			fix:    zedFix,
		},
		"copilot": {
			Kind:   Trust,
			Scopes: []string{toolprofiles.ScopeProject},
			Files:  []string{copilotConfig},
			check:  copilotTrusted,
			fix: func(c Context) string {
				return fmt.Sprintf(`add %s to "trustedFolders" in %s (or trust the folder when Copilot CLI asks)`, jsonQuote(c.Root), c.Show(c.path(copilotConfig)))
			},
		},
	}
}}

// Where the gates are recorded, as profile-style paths (~, ${VAR:-default}).
const (
	claudeLocalSettings = ".claude/settings.local.json"
	claudeUserSettings  = "${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json"
	claudeState         = "${CLAUDE_CONFIG_DIR:-~}/.claude.json"
	codexConfig         = "${CODEX_HOME:-~/.codex}/config.toml"
	geminiTrustFile     = "${GEMINI_CLI_HOME:-~}/.gemini/trustedFolders.json"
	geminiSettings      = "${GEMINI_CLI_HOME:-~}/.gemini/settings.json"
	qwenApprovals       = "${QWEN_HOME:-~/.qwen}/mcpApprovals.json"
	copilotConfig       = "${COPILOT_HOME:-~/.copilot}/config.json"
	zedSettings         = "${XDG_CONFIG_HOME:-~/.config}/zed/settings.json" // for ignoredVars; zedSettingsFile finds it per OS from the profile
)

// names are the servers written for the tool, in file order.
func (c Context) names() []string {
	out := make([]string, len(c.Entries))
	for i, e := range c.Entries {
		out[i] = e.Name
	}
	return out
}

// path expands a gate file path; on error (an unset variable) it returns
// the path as written, which then does not exist.
func (c Context) path(p string) string {
	out, err := toolprofiles.ExpandPath(p, c.Root, c.Env)
	if err != nil {
		return p
	}
	return out
}

// readJSON decodes a JSON (or JSON-with-comments) file into v; a missing
// file is (false, nil).
func readJSON(path string, v any) (bool, error) {
	data, err := regfile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return true, nil
	}
	if err := json.Unmarshal(jsonc.ToJSON(data), v); err != nil {
		return true, err
	}
	return true, nil
}

func unreadable(c Context, path string, err error) State {
	return State{Msg: fmt.Sprintf("cannot read %s: %v", c.Show(path), err), Unreadable: true}
}

// Claude Code: .mcp.json servers stay pending until approved, in the
// project's local settings, the user's settings or (when approved in the
// dialog) ~/.claude.json. A server listed in disabledMcpjsonServers was
// rejected and stays off.
type claudeSettings struct {
	EnableAll bool     `json:"enableAllProjectMcpServers"`
	Enabled   []string `json:"enabledMcpjsonServers"`
	Disabled  []string `json:"disabledMcpjsonServers"`
}

func claudeApproved(c Context) State {
	type source struct {
		path     string
		settings claudeSettings
	}
	var sources []source
	for _, p := range []string{claudeLocalSettings, claudeUserSettings} {
		path := c.path(p)
		var s claudeSettings
		if found, err := readJSON(path, &s); err != nil {
			return unreadable(c, path, err)
		} else if found {
			sources = append(sources, source{path, s})
		}
	}
	state := c.path(claudeState)
	var st struct {
		Projects map[string]claudeSettings `json:"projects"`
	}
	if found, err := readJSON(state, &st); err != nil {
		return unreadable(c, state, err)
	} else if s, ok := st.Projects[filepath.ToSlash(c.Root)]; found && ok {
		sources = append(sources, source{state, s})
	}
	names := c.names()
	var rejected, rejectedIn, approvedIn, blanketIn []string
	approved := map[string]bool{}
	for _, src := range sources {
		if src.settings.EnableAll {
			blanketIn = appendUnique(blanketIn, c.Show(src.path))
		}
		for _, n := range names {
			if slices.Contains(src.settings.Disabled, n) {
				rejected = appendUnique(rejected, n)
				rejectedIn = appendUnique(rejectedIn, c.Show(src.path))
			}
			if src.settings.EnableAll || slices.Contains(src.settings.Enabled, n) {
				if !approved[n] {
					approvedIn = appendUnique(approvedIn, c.Show(src.path))
				}
				approved[n] = true
			}
		}
	}
	var byName []string
	for _, n := range names {
		if approved[n] {
			byName = append(byName, n)
		}
	}
	if len(rejected) > 0 {
		names, _ := json.Marshal(rejected)
		return State{Msg: "project servers rejected (disabledMcpjsonServers): " + strings.Join(rejected, ", "),
			Fix: fmt.Sprintf("remove %s from disabledMcpjsonServers in %s", strings.Trim(string(names), "[]"), strings.Join(rejectedIn, " and "))}
	}
	var pending []string
	for _, n := range names {
		if !approved[n] {
			pending = append(pending, n)
		}
	}
	if len(pending) > 0 {
		return State{Msg: "project servers stay pending until approved: " + strings.Join(pending, ", "), ByName: byName}
	}
	if len(blanketIn) > 0 {
		// Every server is approved, also each one a later commit adds or
		// changes: the approval is not the user's look at any of them.
		list, _ := json.Marshal(names)
		return State{Msg: "enableAllProjectMcpServers in " + strings.Join(blanketIn, " and ") + " approves every project server, also those a later commit adds or changes, without asking",
			Fix:    fmt.Sprintf(`remove it, and add "enabledMcpjsonServers": %s to .claude/settings.local.json after reading each server's entry in .mcp.json`, list),
			ByName: byName}
	}
	return State{OK: true, Msg: "project servers approved by name in " + strings.Join(approvedIn, ", ") + " (a changed server keeps its approval)", ByName: byName}
}

// Codex reads .codex/config.toml only in a trusted project.
func codexTrusted(c Context) State {
	path := c.path(codexConfig)
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return unreadable(c, path, err)
	}
	var cfg struct {
		Projects map[string]struct {
			TrustLevel string `toml:"trust_level"`
		} `toml:"projects"`
	}
	if err := toml.Unmarshal(data, &cfg); err != nil {
		return unreadable(c, path, err)
	}
	switch level := cfg.Projects[c.Root].TrustLevel; level {
	case "trusted":
		return State{OK: true, Msg: "project trusted in " + c.Show(path)}
	case "":
		return State{Msg: "Codex ignores .codex/config.toml until the project is trusted"}
	default:
		return State{Msg: fmt.Sprintf("the project's trust_level is %q in %s, so Codex ignores .codex/config.toml", level, c.Show(path))}
	}
}

// Gemini CLI disables every MCP server, user ones too, in an untrusted
// folder. Trust: GEMINI_CLI_TRUST_WORKSPACE=true, a TRUST_FOLDER rule for
// the root or a folder above it, a TRUST_PARENT rule for a folder in the
// root's parent, or folder trust switched off in the user's settings.
func geminiTrusted(c Context) State {
	if c.Env.Getenv != nil && c.Env.Getenv("GEMINI_CLI_TRUST_WORKSPACE") == "true" {
		return State{OK: true, Msg: "folder trusted by GEMINI_CLI_TRUST_WORKSPACE=true (in this environment; the tools need it too)"}
	}
	settings := c.path(geminiSettings)
	var s struct {
		Security struct {
			FolderTrust struct {
				Enabled *bool `json:"enabled"`
			} `json:"folderTrust"`
		} `json:"security"`
	}
	if _, err := readJSON(settings, &s); err != nil {
		return unreadable(c, settings, err)
	}
	if e := s.Security.FolderTrust.Enabled; e != nil && !*e {
		return State{OK: true, Msg: "folder trust is switched off in " + c.Show(settings)}
	}
	path := c.path(geminiTrustFile)
	rules := map[string]string{}
	if _, err := readJSON(path, &rules); err != nil {
		return unreadable(c, path, err)
	}
	for folder, rule := range rules {
		if (rule == "TRUST_FOLDER" && under(folder, c.Root)) || (rule == "TRUST_PARENT" && under(filepath.Dir(folder), c.Root)) {
			return State{OK: true, Msg: fmt.Sprintf("folder trusted in %s", c.Show(path))}
		}
	}
	if rules[c.Root] == "DO_NOT_TRUST" {
		return State{Msg: fmt.Sprintf("the folder is marked DO_NOT_TRUST in %s, so Gemini CLI disables every MCP server", c.Show(path))}
	}
	return State{Msg: "the folder is not trusted, so Gemini CLI disables every MCP server, user servers too"}
}

// Qwen Code keeps project servers pending until `qwen mcp approve`; an
// approval is bound to a hash of the entry, which repo does not reproduce,
// so the check only looks for an approval that names the root and every
// server.
func qwenApproved(c Context) State {
	path := c.path(qwenApprovals)
	var v any
	found, err := readJSON(path, &v)
	if err != nil {
		return unreadable(c, path, err)
	}
	seen := map[string]bool{}
	collectStrings(v, seen)
	ok := found && (seen[c.Root] || seen[filepath.ToSlash(c.Root)])
	var pending []string
	for _, n := range c.names() {
		if !ok || !seen[n] {
			pending = append(pending, n)
		}
	}
	if len(pending) > 0 {
		return State{Msg: "project servers stay pending until approved: " + strings.Join(pending, ", "), Fix: qwenFix(pending)}
	}
	return State{OK: true, Msg: fmt.Sprintf("approvals for every server found in %s (each is bound to its entry: approve again after a change)", c.Show(path))}
}

// qwenFix approves names one by one, never with --all: each approval is
// the user's look at that entry.
func qwenFix(names []string) string {
	cmds := make([]string, len(names))
	for i, n := range names {
		cmds[i] = "qwen mcp approve " + shellquote.Join([]string{n})
	}
	return "in the workspace root, after reading each entry in .qwen/settings.json, run " + strings.Join(cmds, " && ") + " (again after every change to an entry)"
}

// collectStrings gathers every string, key or value, in decoded JSON.
func collectStrings(v any, into map[string]bool) {
	switch t := v.(type) {
	case string:
		into[t] = true
	case []any:
		for _, e := range t {
			collectStrings(e, into)
		}
	case map[string]any:
		for k, e := range t {
			into[k] = true
			collectStrings(e, into)
		}
	}
}

// Copilot CLI loads workspace servers only in a trusted folder (or with
// COPILOT_ALLOW_ALL=true).
func copilotTrusted(c Context) State {
	if c.Env.Getenv != nil && c.Env.Getenv("COPILOT_ALLOW_ALL") == "true" {
		return State{OK: true, Msg: "folder trusted by COPILOT_ALLOW_ALL=true (in this environment; the tools need it too)"}
	}
	path := c.path(copilotConfig)
	var cfg struct {
		TrustedFolders []string `json:"trustedFolders"`
	}
	if _, err := readJSON(path, &cfg); err != nil {
		return unreadable(c, path, err)
	}
	for _, folder := range cfg.TrustedFolders {
		if under(folder, c.Root) {
			return State{OK: true, Msg: "folder trusted in " + c.Show(path)}
		}
	}
	return State{Msg: "Copilot CLI ignores workspace servers until the folder is trusted"}
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// tomlQuote spells s as a TOML basic string.
func tomlQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// under reports whether p is dir or inside it.
func under(dir, p string) bool {
	r, err := filepath.Rel(dir, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

func appendUnique(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
