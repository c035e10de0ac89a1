//go:build linux && repodev

package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// copilot: GitHub Copilot CLI. `copilot mcp list --json` shows each configured server and its
// source, without health; the health comes from the runtime itself, through the SDK the CLI
// unpacks into $XDG_CACHE_HOME/copilot (copilot_probe.mjs). Workspace servers (.mcp.json) load only
// in a trusted folder: the check trusts the project in the private HOME's ~/.copilot/config.json.
type copilot struct{}

//go:embed copilot_probe.mjs
var copilotProbe string

func (copilot) ID() string       { return "copilot" }
func (copilot) Name() string     { return "Copilot CLI" }
func (copilot) Tool() string     { return "copilot" }
func (copilot) Scopes() []string { return []string{ScopeProject} }
func (copilot) Install() InstallSpec {
	return InstallSpec{Package: "@github/copilot", Version: "1.0.102", Bin: "copilot"}
}
func (copilot) Files(scope string) []string {
	if scope == ScopeProject {
		return []string{".mcp.json"}
	}
	return []string{".copilot/mcp-config.json"}
}

func (copilot) Prepare(c *Check) error {
	b, _ := json.Marshal(map[string][]string{"trustedFolders": {c.Project}})
	return writeFile(filepath.Join(c.Home, ".copilot", "config.json"), string(b)+"\n")
}

var copilotEnv = []string{"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=http://127.0.0.1:9/v1",
	"COPILOT_MODEL=conformance-offline", "COPILOT_AUTO_UPDATE=false"}

type copilotServer struct {
	Source  string `json:"source"`
	Enabled *bool  `json:"enabled"`
}

func (cp copilot) List(ctx context.Context, c *Check) (*Result, error) {
	r := &Result{}
	o, err := c.Run(ctx, copilotEnv, c.Bin(), "mcp", "list", "--json")
	r.Output = o.All()
	if err != nil {
		return r, err
	}
	for _, ln := range strings.Split(o.Stderr, "\n") {
		if strings.HasPrefix(strings.TrimSpace(ln), "Warning") {
			r.note(ln)
		}
	}
	var conf struct {
		MCPServers map[string]copilotServer `json:"mcpServers"`
	}
	i := strings.Index(o.Stdout, "{")
	if o.Code != 0 || i < 0 || json.Unmarshal([]byte(o.Stdout[i:]), &conf) != nil {
		return r, fmt.Errorf("copilot mcp list --json: exit %d: %s", o.Code, oneLine(o.All(), 300))
	}

	runtime, sdk := copilotRuntime(c)
	if runtime == "" || sdk == "" {
		return r, fmt.Errorf("copilot's runtime binary or SDK not found (runtime %q, sdk %q)", runtime, sdk)
	}
	probe := filepath.Join(c.Tmp, "copilot_probe.mjs")
	if err := os.WriteFile(probe, []byte(copilotProbe), 0o644); err != nil {
		return r, err
	}
	p, err := c.Run(ctx, copilotEnv, filepath.Join(c.tb.NodeDir, "node"), probe, sdk, c.Dir, runtime)
	r.Output += "\n--- SDK probe\n" + p.All()
	if err != nil {
		return r, err
	}
	var live struct {
		Error   string `json:"error"`
		Servers []struct {
			Name   string `json:"name"`
			Status string `json:"status"`
			Source string `json:"source"`
			Error  string `json:"error"`
		} `json:"servers"`
	}
	lines := strings.Split(strings.TrimSpace(p.Stdout), "\n")
	if json.Unmarshal([]byte(lines[len(lines)-1]), &live) != nil || live.Error != "" {
		return r, fmt.Errorf("copilot SDK probe: %s", oneLine(live.Error+" "+p.All(), 300))
	}
	seen := map[string]bool{}
	for _, s := range live.Servers {
		seen[s.Name] = true
		st := Failed
		switch s.Status {
		case "connected":
			st = Connected
		case "pending":
			st = Pending
		case "disabled":
			st = Disabled
		}
		detail := s.Error
		if st != Connected && detail == "" {
			detail = s.Status
		}
		r.Records = append(r.Records, Record{Server: s.Name, Scope: copilotScope(s.Source), Status: st, Detail: oneLine(detail, 300)})
	}
	var rest []string
	for name := range conf.MCPServers {
		if !seen[name] {
			rest = append(rest, name)
		}
	}
	sort.Strings(rest)
	for _, name := range rest { // configured, but the session did not start it
		s := conf.MCPServers[name]
		st, detail := Failed, "listed by `copilot mcp list`, not started by a session"
		if s.Enabled != nil && !*s.Enabled {
			st, detail = Disabled, "enabled: false"
		}
		r.Records = append(r.Records, Record{Server: name, Scope: copilotScope(s.Source), Status: st, Detail: detail})
	}
	return r, nil
}

func copilotScope(source string) string {
	switch source {
	case "workspace":
		return ScopeProject
	case "user", "":
		return ScopeUser
	}
	return source
}

// copilotRuntime finds the platform binary npm installed and the SDK the CLI unpacked on its
// first start (`copilot --version` during installation).
func copilotRuntime(c *Check) (runtime, sdk string) {
	in := c.tb.Clients["copilot"]
	if in == nil {
		return "", ""
	}
	if m, _ := filepath.Glob(filepath.Join(in.Prefix, "node_modules", "@github", "copilot-*", "copilot")); len(m) > 0 {
		runtime = m[0]
	}
	m, _ := filepath.Glob(filepath.Join(c.tb.XDGCache, "copilot", "pkg", "*", in.Version, "copilot-sdk", "index.js"))
	if len(m) == 0 {
		m, _ = filepath.Glob(filepath.Join(c.tb.XDGCache, "copilot", "pkg", "*", "*", "copilot-sdk", "index.js"))
	}
	if len(m) > 0 {
		sdk = m[len(m)-1]
	}
	return runtime, sdk
}
