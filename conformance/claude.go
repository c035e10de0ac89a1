//go:build linux && repodev

package main

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// claude: Claude Code. `claude mcp list` health-checks every approved server; project servers
// (.mcp.json) need approval, given here by enableAllProjectMcpServers in the private HOME's
// settings. Local scope lives in ~/.claude.json under projects["<abs root>"] and wins over the
// project scope for the same name, so a local check asks `claude mcp get` for each server's scope.
type claude struct{}

func (claude) ID() string       { return "claude" }
func (claude) Name() string     { return "Claude Code" }
func (claude) Tool() string     { return "claude" }
func (claude) Scopes() []string { return []string{ScopeProject, ScopeLocal} }
func (claude) Install() InstallSpec {
	return InstallSpec{Package: "@anthropic-ai/claude-code", Version: "2.1.332", Bin: "claude"}
}

func (claude) Files(scope string) []string {
	if scope == ScopeProject {
		return []string{".mcp.json"}
	}
	return []string{".claude.json"}
}

func (claude) Prepare(c *Check) error {
	if c.Scope != ScopeProject {
		return nil // a local check must not approve the project's own servers
	}
	return writeFile(filepath.Join(c.Home, ".claude", "settings.json"), `{"enableAllProjectMcpServers": true}`+"\n")
}

// "name: command args - ✔ Connected" (the status after the last " - ").
var claudeLine = regexp.MustCompile(`^(\S[^:]*): (.*) - ([✔✘⏸⚠○✗△!] ?.*)$`)

func (cl claude) List(ctx context.Context, c *Check) (*Result, error) {
	o, err := c.Run(ctx, []string{"MCP_TIMEOUT=30000"}, c.Bin(), "mcp", "list")
	r := parseClaude(o.Stdout)
	r.Output = o.All()
	if err != nil {
		return r, err
	}
	if o.Code != 0 {
		return r, fmt.Errorf("claude mcp list: exit %d: %s", o.Code, oneLine(o.All(), 300))
	}
	if c.Scope == ScopeProject {
		for i := range r.Records {
			r.Records[i].Scope = ScopeProject // the private HOME has no other scope
		}
		return r, nil
	}
	// Whose entry is it? `claude mcp get` names the scope.
	var wg sync.WaitGroup
	sem := make(chan struct{}, 3)
	for i := range r.Records {
		wg.Add(1)
		go func(rec *Record) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			g, err := c.Run(ctx, nil, c.Bin(), "mcp", "get", rec.Server)
			if err == nil {
				rec.Scope = claudeScope(g.Stdout)
			}
		}(&r.Records[i])
	}
	wg.Wait()
	return r, nil
}

func parseClaude(out string) *Result {
	r := &Result{}
	diag := false
	var notes []string
	for _, ln := range strings.Split(out, "\n") {
		if strings.HasPrefix(ln, "MCP config diagnostics") {
			diag = true
			continue
		}
		if diag {
			if t := strings.TrimSpace(ln); t != "" && !strings.HasPrefix(t, "For help") {
				notes = append(notes, t)
			}
			continue
		}
		m := claudeLine.FindStringSubmatch(ln)
		if m == nil {
			continue
		}
		st, detail := claudeStatus(m[3])
		r.add(m[1], st, detail)
	}
	if len(notes) > 0 {
		r.note(strings.Join(notes, " | "))
	}
	return r
}

func claudeStatus(s string) (Status, string) {
	switch {
	case strings.Contains(s, "Connected"):
		return Connected, ""
	case strings.Contains(s, "Pending") || strings.Contains(s, "approval"):
		return Pending, s
	case strings.Contains(strings.ToLower(s), "disabled"):
		return Disabled, s
	}
	return Failed, s
}

func claudeScope(getOut string) string {
	for _, ln := range strings.Split(getOut, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(ln), "Scope:"); ok {
			v = strings.ToLower(strings.TrimSpace(v))
			for _, s := range []string{ScopeLocal, ScopeProject, ScopeUser} {
				if strings.HasPrefix(v, s) {
					return s
				}
			}
			return v
		}
	}
	return ""
}
