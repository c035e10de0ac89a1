//go:build linux && repodev

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// codex: OpenAI Codex. `codex mcp list` shows configuration only, so the check talks to
// `codex app-server` (JSON-RPC over stdio): config/read names the layer (project or user) each
// server comes from, an ephemeral thread starts the servers, and mcpServerStatus/list says how
// each one did. The project's .codex/config.toml is read only in a trusted project: the check
// trusts it in the private HOME's ~/.codex/config.toml.
type codex struct{}

func (codex) ID() string       { return "codex" }
func (codex) Name() string     { return "Codex" }
func (codex) Tool() string     { return "codex" }
func (codex) Scopes() []string { return []string{ScopeProject, ScopeUser} }
func (codex) Install() InstallSpec {
	return InstallSpec{Package: "@openai/codex", Version: "0.171.0", Bin: "codex"}
}

// Files: .codex/config.toml, in the project or in HOME.
func (codex) Files(string) []string { return []string{".codex/config.toml"} }

func (codex) Prepare(c *Check) error {
	if c.Scope != ScopeProject {
		return nil // user scope runs outside the project; ~/.codex/config.toml is repo's
	}
	trust := fmt.Sprintf("[projects.%s]\ntrust_level = \"trusted\"\n", strconv.Quote(c.Project))
	return writeFile(filepath.Join(c.Home, ".codex", "config.toml"), trust)
}

type codexServer struct {
	Command string   `json:"command"`
	URL     string   `json:"url"`
	Args    []string `json:"args"`
	Enabled *bool    `json:"enabled"`
	// The settings, as Codex parsed them.
	StartupTimeoutSec *float64 `json:"startup_timeout_sec"`
	ToolTimeoutSec    *float64 `json:"tool_timeout_sec"`
	Tools             map[string]struct {
		ApprovalMode string `json:"approval_mode"`
	} `json:"tools"`
}

// config is what the conformance expectations read of a server's settings (settings.go).
func (s codexServer) config() map[string]string {
	out := map[string]string{}
	if s.StartupTimeoutSec != nil {
		out["startupTimeout"] = fmt.Sprint(*s.StartupTimeoutSec)
	}
	if s.ToolTimeoutSec != nil {
		out["toolTimeout"] = fmt.Sprint(*s.ToolTimeoutSec)
	}
	var approved []string
	for name, t := range s.Tools {
		if t.ApprovalMode == "approve" {
			approved = append(approved, name)
		}
	}
	sort.Strings(approved)
	out["autoApprove"] = strings.Join(approved, ",")
	return out
}

type codexOrigin struct {
	Name struct {
		Type string `json:"type"`
		File string `json:"file"`
		Dir  string `json:"dotCodexFolder"`
	} `json:"name"`
}

type codexStatus struct {
	Name          string          `json:"name"`
	RuntimeStatus string          `json:"runtimeStatus"`
	Tools         json.RawMessage `json:"tools"`
	ToolsError    *string         `json:"toolsError"`
}

type codexStartup struct {
	Name   string  `json:"name"`
	Status string  `json:"status"`
	Error  *string `json:"error"`
}

func (cx codex) List(ctx context.Context, c *Check) (*Result, error) {
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	r := &Result{}
	conn, err := startRPC(c.Command(ctx, nil, c.Bin(), "app-server"))
	if err != nil {
		return r, err
	}
	defer func() {
		conn.close()
		r.Output = transcript(conn)
	}()
	if err := conn.call(ctx, "initialize", map[string]any{
		"clientInfo": map[string]string{"name": "repo-conformance", "version": "1"}}, nil); err != nil {
		return r, err
	}
	_ = conn.notify("initialized", nil)

	var cfg struct {
		Config struct {
			MCPServers map[string]codexServer `json:"mcp_servers"`
		} `json:"config"`
		Origins map[string]codexOrigin `json:"origins"`
		Layers  []struct {
			codexOrigin
			DisabledReason *string `json:"disabledReason"`
			Config         struct {
				MCPServers map[string]json.RawMessage `json:"mcp_servers"`
			} `json:"config"`
		} `json:"layers"`
	}
	if err := conn.call(ctx, "config/read", map[string]any{"cwd": c.Dir, "includeLayers": true}, &cfg); err != nil {
		return r, err
	}
	for _, l := range cfg.Layers {
		if l.DisabledReason != nil && len(l.Config.MCPServers) > 0 {
			r.note(fmt.Sprintf("%s layer %s%s ignored: %s", l.Name.Type, l.Name.Dir, l.Name.File, *l.DisabledReason))
		}
	}
	var thread struct {
		Thread struct {
			ID string `json:"id"`
		} `json:"thread"`
	}
	if err := conn.call(ctx, "thread/start", map[string]any{"cwd": c.Dir, "ephemeral": true}, &thread); err != nil {
		return r, err
	}
	// Wait until every enabled server reported ready or failed.
	want := map[string]bool{}
	for name, s := range cfg.Config.MCPServers {
		if s.Enabled == nil || *s.Enabled {
			want[name] = true
		}
	}
	final := map[string]codexStartup{}
	wctx, wcancel := context.WithTimeout(ctx, c.Timeout*2/3)
	conn.waitNotes(wctx, func(notes []rpcMsg) bool {
		for _, n := range notes {
			if n.Method != "mcpServer/startupStatus/updated" {
				continue
			}
			var p codexStartup
			if json.Unmarshal(n.Params, &p) == nil && (p.Status == "ready" || p.Status == "failed" || p.Status == "cancelled") {
				final[p.Name] = p
			}
		}
		for name := range want {
			if _, ok := final[name]; !ok {
				return false
			}
		}
		return true
	})
	wcancel()
	statuses := map[string]codexStatus{}
	cursor := ""
	for {
		params := map[string]any{"threadId": thread.Thread.ID}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var page struct {
			Data       []codexStatus `json:"data"`
			NextCursor *string       `json:"nextCursor"`
		}
		if err := conn.call(ctx, "mcpServerStatus/list", params, &page); err != nil {
			r.note(err.Error())
			break
		}
		for _, s := range page.Data {
			statuses[s.Name] = s
		}
		if page.NextCursor == nil || *page.NextCursor == "" {
			break
		}
		cursor = *page.NextCursor
	}
	for _, n := range conn.notifications() {
		if n.Method == "configWarning" && !strings.Contains(string(n.Params), "bubblewrap") {
			var p struct {
				Summary string `json:"summary"`
				Details any    `json:"details"`
			}
			_ = json.Unmarshal(n.Params, &p)
			r.note(fmt.Sprintf("config warning: %s %v", p.Summary, orEmpty(p.Details)))
		}
	}
	names := map[string]bool{}
	for n := range cfg.Config.MCPServers {
		names[n] = true
	}
	for n := range statuses {
		names[n] = true
	}
	var sorted []string
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	for _, name := range sorted {
		sc, s, fin := cfg.Config.MCPServers[name], statuses[name], final[name]
		var st Status
		detail := ""
		switch {
		case sc.Enabled != nil && !*sc.Enabled:
			st = Disabled
		case s.RuntimeStatus == "connected" || fin.Status == "ready":
			st = Connected
		case s.RuntimeStatus == "failed" || fin.Status == "failed" || fin.Status == "cancelled" || s.ToolsError != nil:
			st = Failed
		default:
			st = Pending
			detail = "runtime status " + orEmpty(s.RuntimeStatus)
		}
		if st != Connected {
			if fin.Error != nil {
				detail = *fin.Error
			} else if s.ToolsError != nil {
				detail = *s.ToolsError
			}
		}
		scope := ""
		o, ok := cfg.Origins["mcp_servers."+name+".command"]
		if !ok {
			o = cfg.Origins["mcp_servers."+name+".url"]
		}
		switch o.Name.Type {
		case "project", "user":
			scope = o.Name.Type
		case "":
		default:
			scope = o.Name.Type // system, sessionFlags, …: another scope
		}
		rec := Record{Server: name, Scope: scope, Status: st, Detail: oneLine(detail, 300), Config: sc.config()}
		if st == Connected && len(s.Tools) > 0 {
			rec.Tools = toolNames(s.Tools, name)
		}
		r.Records = append(r.Records, rec)
	}
	return r, nil
}

func orEmpty(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// transcript is what the report shows of a codex session: its notifications and stderr.
func transcript(conn *rpcConn) string {
	var b strings.Builder
	for _, n := range conn.notifications() {
		if strings.HasPrefix(n.Method, "mcpServer/") || n.Method == "configWarning" {
			fmt.Fprintf(&b, "%s %s\n", n.Method, n.Params)
		}
	}
	b.WriteString(conn.stderr.String())
	return b.String()
}
