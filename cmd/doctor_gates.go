package cmd

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

	"github.com/repo-manager/repo/internal/regfile"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers/target"
)

// A gate is what a user must still do, after repo wrote a tool's config,
// before the tool starts the servers in it: approve them or trust the
// folder (clients.md, "Findings for the Go tool" §3). Writing approvals is
// the user's decision, so repo only reports them, with the exact fix.
type gate struct {
	kind   string   // "approval" or "trust"
	scopes []string // scopes whose servers the gate holds back
	files  []string // the files check reads, as profile-style paths
	check  func(c gateCtx) gateState
	fix    func(c gateCtx) string
}

// gates, by profile id. A tool without a gate starts what it reads
// (OpenCode among them: opencode-ai 1.18.33 has no approve command and
// starts project servers as it reads them; one version of its docs
// describes `opencode mcp approve`, which no release checked has).
var gates = map[string]gate{
	"claude": {
		kind:   "approval",
		scopes: []string{toolprofiles.ScopeProject},
		files:  []string{claudeLocalSettings, claudeUserSettings, claudeState},
		check:  claudeApproved,
		fix: func(c gateCtx) string {
			names, _ := json.Marshal(c.names)
			return fmt.Sprintf(`add "enableAllProjectMcpServers": true (or "enabledMcpjsonServers": %s) to .claude/settings.local.json`, names)
		},
	},
	"codex": {
		kind:   "trust",
		scopes: []string{toolprofiles.ScopeProject},
		files:  []string{codexConfig},
		check:  codexTrusted,
		fix: func(c gateCtx) string {
			return fmt.Sprintf(`add [projects.%s] trust_level = "trusted" to %s`, tomlQuote(c.root), c.show(c.path(codexConfig)))
		},
	},
	"gemini": {
		kind:   "trust",
		scopes: []string{toolprofiles.ScopeProject, toolprofiles.ScopeUser}, // untrusted: user servers are disabled too
		files:  []string{geminiSettings, geminiTrustFile},
		check:  geminiTrusted,
		fix: func(c gateCtx) string {
			return fmt.Sprintf(`add %s: "TRUST_FOLDER" to %s, or start gemini with GEMINI_CLI_TRUST_WORKSPACE=true`, jsonQuote(c.root), c.show(c.path(geminiTrustFile)))
		},
	},
	"qwen": {
		kind:   "approval",
		scopes: []string{toolprofiles.ScopeProject},
		files:  []string{qwenApprovals},
		check:  qwenApproved,
		fix: func(gateCtx) string {
			return "run qwen mcp approve --all in the workspace root (again after every change to an entry)"
		},
	},
	"amp": {
		kind:   "approval",
		scopes: []string{toolprofiles.ScopeProject},
		files:  []string{ampSettings},
		check:  ampApproved,
		fix:    func(c gateCtx) string { return ampFix(c.names) },
	},
	"zed": {
		kind:   "trust",
		scopes: []string{toolprofiles.ScopeProject},
		files:  []string{zedSettings},
		check:  zedTrusted,
		fix:    zedFix,
	},
	"copilot": {
		kind:   "trust",
		scopes: []string{toolprofiles.ScopeProject},
		files:  []string{copilotConfig},
		check:  copilotTrusted,
		fix: func(c gateCtx) string {
			return fmt.Sprintf(`add %s to "trustedFolders" in %s, or start copilot with COPILOT_ALLOW_ALL=true`, jsonQuote(c.root), c.show(c.path(copilotConfig)))
		},
	},
}

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

// gateCtx is what a gate check may look at.
type gateCtx struct {
	root    string
	names   []string         // the servers written for the tool
	entries []target.Desired // their entries, as written
	profile *toolprofiles.Profile
	env     toolprofiles.Env
	show    func(string) string
}

// path expands a gate file path; on error (an unset variable) it returns
// the path as written, which then does not exist.
func (c gateCtx) path(p string) string {
	out, err := toolprofiles.ExpandPath(p, c.root, c.env)
	if err != nil {
		return p
	}
	return out
}

// gateState is a check's verdict: ok, or what is missing; problems reading
// a file are reported as not satisfied, naming the file. fix, when set,
// replaces the gate's usual fix.
type gateState struct {
	ok  bool
	msg string
	fix string
	// unreadable: a file the check reads could not be read or decoded, so
	// the gate's state is not known (a warning, not advice).
	unreadable bool
}

// gateFiles are the files the gates of the selected tools read for scope,
// by tool id.
func gateFiles(profiles []*toolprofiles.Profile, scope string) map[string][]string {
	files := map[string][]string{}
	for _, p := range profiles {
		if g, ok := gates[p.ID]; ok && slices.Contains(g.scopes, scope) {
			files[p.ID] = g.files
		}
	}
	return files
}

// toolSteps reports what the user must still do in a tool before it starts
// the servers written for it: its gate, checked, and its profile's advice.
// They concern the tool on this machine, so for a tool that is not here
// (none of its folders in the home folder, none of its executables on PATH)
// one ok finding says they were skipped. A profile that names nothing to
// look for gets them all.
func (d *doctor) toolSteps(p *toolprofiles.Profile, scope string, names []string, entries []target.Desired) []finding {
	if len(names) == 0 {
		return nil
	}
	g, hasGate := gates[p.ID]
	hasGate = hasGate && slices.Contains(g.scopes, scope)
	advice := p.AdviceFor(scope)
	if !hasGate && len(advice) == 0 {
		return nil
	}
	if ev := onMachine(p, d.w.env.Env, d.show); ev.known && !ev.installed() {
		var kinds []string
		if hasGate {
			kinds = append(kinds, stepNames[g.kind])
		}
		for _, a := range advice {
			kinds = appendUnique(kinds, stepNames[a.Check])
		}
		verb := "is"
		if len(kinds) > 1 || kinds[0] == "switches" {
			verb = "are"
		}
		return []finding{{Level: levelOK, Tool: p.ID, Check: "installed",
			Message: fmt.Sprintf("%s is not on this machine (%s), so its %s %s not checked", p.Name, ev.absent(), andList(kinds), verb)}}
	}
	var out []finding
	if hasGate {
		c := gateCtx{root: d.w.root, names: names, entries: entries, profile: p, env: d.w.env.Env, show: d.show}
		st := g.check(c)
		fd := finding{Level: levelOK, Tool: p.ID, Check: g.kind, Message: st.msg}
		switch {
		case st.unreadable:
			fd.Level = levelWarn
			fd.Fix = "make that file readable and valid; the step itself: " + g.fix(c)
		case !st.ok:
			fd.Level = levelAdvice
			fd.Fix = st.fix
			if fd.Fix == "" {
				fd.Fix = g.fix(c)
			}
		}
		out = append(out, fd)
	}
	return append(out, d.advice(p, scope, names)...)
}

// stepNames name the kinds of gate and advice in a sentence.
var stepNames = map[string]string{"approval": "approval", "trust": "folder trust", "toggle": "switches", "name": "name advice"}

// andList joins "a", "b", "c" as "a, b and c".
func andList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
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

func unreadable(c gateCtx, path string, err error) gateState {
	return gateState{msg: fmt.Sprintf("cannot read %s: %v", c.show(path), err), unreadable: true}
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

func claudeApproved(c gateCtx) gateState {
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
	} else if s, ok := st.Projects[filepath.ToSlash(c.root)]; found && ok {
		sources = append(sources, source{state, s})
	}
	var rejected, rejectedIn, approvedIn []string
	approved := map[string]bool{}
	for _, src := range sources {
		for _, n := range c.names {
			if slices.Contains(src.settings.Disabled, n) {
				rejected = appendUnique(rejected, n)
				rejectedIn = appendUnique(rejectedIn, c.show(src.path))
			}
			if src.settings.EnableAll || slices.Contains(src.settings.Enabled, n) {
				if !approved[n] {
					approvedIn = appendUnique(approvedIn, c.show(src.path))
				}
				approved[n] = true
			}
		}
	}
	if len(rejected) > 0 {
		names, _ := json.Marshal(rejected)
		return gateState{msg: "project servers rejected (disabledMcpjsonServers): " + strings.Join(rejected, ", "),
			fix: fmt.Sprintf("remove %s from disabledMcpjsonServers in %s", strings.Trim(string(names), "[]"), strings.Join(rejectedIn, " and "))}
	}
	var pending []string
	for _, n := range c.names {
		if !approved[n] {
			pending = append(pending, n)
		}
	}
	if len(pending) > 0 {
		return gateState{msg: "project servers stay pending until approved: " + strings.Join(pending, ", ")}
	}
	return gateState{ok: true, msg: "project servers approved in " + strings.Join(approvedIn, ", ")}
}

// Codex reads .codex/config.toml only in a trusted project.
func codexTrusted(c gateCtx) gateState {
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
	switch level := cfg.Projects[c.root].TrustLevel; level {
	case "trusted":
		return gateState{ok: true, msg: "project trusted in " + c.show(path)}
	case "":
		return gateState{msg: "Codex ignores .codex/config.toml until the project is trusted"}
	default:
		return gateState{msg: fmt.Sprintf("the project's trust_level is %q in %s, so Codex ignores .codex/config.toml", level, c.show(path))}
	}
}

// Gemini CLI disables every MCP server, user ones too, in an untrusted
// folder. Trust: GEMINI_CLI_TRUST_WORKSPACE=true, a TRUST_FOLDER rule for
// the root or a folder above it, a TRUST_PARENT rule for a folder in the
// root's parent, or folder trust switched off in the user's settings.
func geminiTrusted(c gateCtx) gateState {
	if c.env.Getenv != nil && c.env.Getenv("GEMINI_CLI_TRUST_WORKSPACE") == "true" {
		return gateState{ok: true, msg: "folder trusted by GEMINI_CLI_TRUST_WORKSPACE=true (in this environment; the tools need it too)"}
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
		return gateState{ok: true, msg: "folder trust is switched off in " + c.show(settings)}
	}
	path := c.path(geminiTrustFile)
	rules := map[string]string{}
	if _, err := readJSON(path, &rules); err != nil {
		return unreadable(c, path, err)
	}
	for folder, rule := range rules {
		if (rule == "TRUST_FOLDER" && under(folder, c.root)) || (rule == "TRUST_PARENT" && under(filepath.Dir(folder), c.root)) {
			return gateState{ok: true, msg: fmt.Sprintf("folder trusted in %s", c.show(path))}
		}
	}
	if rules[c.root] == "DO_NOT_TRUST" {
		return gateState{msg: fmt.Sprintf("the folder is marked DO_NOT_TRUST in %s, so Gemini CLI disables every MCP server", c.show(path))}
	}
	return gateState{msg: "the folder is not trusted, so Gemini CLI disables every MCP server, user servers too"}
}

// Qwen Code keeps project servers pending until `qwen mcp approve`; an
// approval is bound to a hash of the entry, which repo does not reproduce,
// so the check only looks for an approval that names the root and every
// server.
func qwenApproved(c gateCtx) gateState {
	path := c.path(qwenApprovals)
	var v any
	found, err := readJSON(path, &v)
	if err != nil {
		return unreadable(c, path, err)
	}
	seen := map[string]bool{}
	collectStrings(v, seen)
	ok := found && (seen[c.root] || seen[filepath.ToSlash(c.root)])
	var pending []string
	for _, n := range c.names {
		if !ok || !seen[n] {
			pending = append(pending, n)
		}
	}
	if len(pending) > 0 {
		return gateState{msg: "project servers stay pending until approved: " + strings.Join(pending, ", ")}
	}
	return gateState{ok: true, msg: fmt.Sprintf("approvals for every server found in %s (each is bound to its entry: approve again after a change)", c.show(path))}
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
func copilotTrusted(c gateCtx) gateState {
	if c.env.Getenv != nil && c.env.Getenv("COPILOT_ALLOW_ALL") == "true" {
		return gateState{ok: true, msg: "folder trusted by COPILOT_ALLOW_ALL=true (in this environment; the tools need it too)"}
	}
	path := c.path(copilotConfig)
	var cfg struct {
		TrustedFolders []string `json:"trustedFolders"`
	}
	if _, err := readJSON(path, &cfg); err != nil {
		return unreadable(c, path, err)
	}
	for _, folder := range cfg.TrustedFolders {
		if under(folder, c.root) {
			return gateState{ok: true, msg: "folder trusted in " + c.show(path)}
		}
	}
	return gateState{msg: "Copilot CLI ignores workspace servers until the folder is trusted"}
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// tomlQuote spells s as a TOML basic string.
func tomlQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
