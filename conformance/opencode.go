//go:build linux && repodev

package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// opencode: OpenCode. `opencode mcp list` health-checks every server (with the error of a failed
// one). It merges project and user configs without saying which is which: a project check runs
// with an empty HOME. At startup it would fetch plugins from npm (blocked: no network, and
// npm_config_offline); it inserts "$schema" into an opencode.json that lacks it and may create
// .opencode/.gitignore, which the runner restores and reports.
type opencode struct{}

func (opencode) ID() string       { return "opencode" }
func (opencode) Name() string     { return "OpenCode" }
func (opencode) Tool() string     { return "opencode" }
func (opencode) Scopes() []string { return []string{ScopeProject} }
func (opencode) Install() InstallSpec {
	return InstallSpec{Package: "opencode-ai", Version: "1.18.33", Bin: "opencode"}
}
func (opencode) Files(scope string) []string {
	if scope == ScopeProject {
		return []string{"opencode.json", "opencode.jsonc", ".opencode/opencode.json", ".opencode/opencode.jsonc"}
	}
	return []string{".config/opencode/opencode.json", ".config/opencode/opencode.jsonc", ".config/opencode/config.json"}
}

func (opencode) Prepare(*Check) error { return nil }

func (oc opencode) List(ctx context.Context, c *Check) (*Result, error) {
	o, err := c.Run(ctx, nil, c.Bin(), "mcp", "list")
	r := parseOpenCode(o.Stdout)
	r.Output = o.All()
	for i := range r.Records {
		r.Records[i].Scope = c.Scope // by construction (see above)
	}
	if err != nil {
		return r, err
	}
	if o.Code != 0 {
		return r, fmt.Errorf("opencode mcp list: exit %d: %s", o.Code, oneLine(o.All(), 300))
	}
	return r, nil
}

// ●  ✓ name connected
// │      error text (failed servers)
// │      command args
var opencodeHead = regexp.MustCompile(`^●\s*(?:[✓✗○⚠●]\s+)?(\S+)\s+(\S+(?:\s+\S+)*)$`)

func parseOpenCode(out string) *Result {
	r := &Result{}
	var name, status string
	var extra []string
	flush := func() {
		if name == "" {
			return
		}
		st := Failed
		switch {
		case status == "connected":
			st = Connected
		case status == "disabled":
			st = Disabled
		case status == "pending" || strings.HasPrefix(status, "needs"):
			st = Pending
		}
		detail := ""
		if st != Connected {
			detail = status
			if len(extra) > 1 { // the last line is the command
				detail += ": " + strings.Join(extra[:len(extra)-1], " ")
			}
		}
		r.add(name, st, detail)
		name, extra = "", nil
	}
	for _, ln := range strings.Split(out, "\n") {
		s := strings.TrimSpace(ln)
		switch {
		case strings.HasPrefix(s, "●"):
			flush()
			if m := opencodeHead.FindStringSubmatch(s); m != nil {
				name, status = m[1], strings.ReplaceAll(m[2], " ", "_")
			}
		case strings.HasPrefix(s, "│"):
			if t := strings.TrimSpace(strings.TrimPrefix(s, "│")); t != "" && name != "" {
				extra = append(extra, t)
			}
		case strings.HasPrefix(s, "└"):
			flush()
		}
	}
	flush()
	return r
}
