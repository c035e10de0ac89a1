//go:build linux && repodev

package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// qoder: Qoder CLI (qodercli). `qodercli mcp list` connects to every server and prints one line
// each, "✓ name: command args (stdio) - Connected · …". It reads the project's .mcp.json (as Claude
// Code does; `qodercli mcp add -s project` writes there), .qoder/settings.local.json (local) and
// ~/.qoder/settings.json (user), without naming the source in the list: a project check runs with
// an empty HOME, a user check in an empty folder.
type qoder struct{}

func (qoder) ID() string       { return "qoder" }
func (qoder) Name() string     { return "Qoder CLI" }
func (qoder) Tool() string     { return "qoder" }
func (qoder) Scopes() []string { return []string{ScopeProject, ScopeUser} }
func (qoder) Install() InstallSpec {
	return InstallSpec{Package: "@qoder-ai/qodercli", Version: "1.1.52", Bin: "qodercli"}
}
func (qoder) Files(scope string) []string {
	if scope == ScopeProject {
		return []string{".mcp.json"}
	}
	return []string{".qoder/settings.json"}
}

func (qoder) Prepare(*Check) error { return nil }

func (q qoder) List(ctx context.Context, c *Check) (*Result, error) {
	o, err := c.Run(ctx, nil, c.Bin(), "mcp", "list")
	r := parseQoder(o.All())
	r.Output = o.All()
	for i := range r.Records {
		r.Records[i].Scope = c.Scope // by construction (see above)
	}
	if err != nil {
		return r, err
	}
	if o.Code != 0 {
		return r, fmt.Errorf("qodercli mcp list: exit %d: %s", o.Code, oneLine(o.All(), 300))
	}
	return r, nil
}

// "✓ name: command args (stdio) - Connected · Direct MCP Server", "✗ name: … - Disconnected"
var qoderLine = regexp.MustCompile(`^[✓✗○⚠!?]\s+([^:]+): .* \((\w+)\) - (.+)$`)

func parseQoder(out string) *Result {
	r := &Result{}
	for _, ln := range strings.Split(out, "\n") {
		m := qoderLine.FindStringSubmatch(strings.TrimSpace(ln))
		if m == nil {
			continue
		}
		state := strings.TrimSpace(m[3])
		st, detail := Failed, state
		low := strings.ToLower(state)
		switch {
		case strings.HasPrefix(low, "connected"):
			st, detail = Connected, ""
		case strings.HasPrefix(low, "disabled"):
			st = Disabled
		case strings.Contains(low, "pending"), strings.Contains(low, "approval"), strings.Contains(low, "auth"):
			st = Pending
		}
		r.add(m[1], st, detail)
	}
	return r
}
