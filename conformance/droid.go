//go:build linux && repodev

package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// droid: Factory's Droid CLI. `droid mcp list` connects to every configured server and prints
// name, transport, status and the source in brackets ([project], [user]); it needs no login.
// The npm wrapper @factory/cli finds its binary through an install script; the platform package
// ships it.
type droid struct{}

func (droid) ID() string       { return "droid" }
func (droid) Name() string     { return "Factory Droid" }
func (droid) Tool() string     { return "factory" }
func (droid) Scopes() []string { return []string{ScopeProject, ScopeUser} }
func (droid) Install() InstallSpec {
	pkg := "@factory/cli-linux-" + npmArch()
	return InstallSpec{Package: pkg, Version: "0.225.2", Bin: "droid", Path: pkg + "/bin/droid"}
}
func (droid) Files(scope string) []string {
	if scope == ScopeProject {
		return []string{".factory/mcp.json"}
	}
	return []string{".factory/mcp.json"}
}

func (droid) Prepare(*Check) error { return nil }

func (d droid) List(ctx context.Context, c *Check) (*Result, error) {
	o, err := c.Run(ctx, nil, c.Bin(), "mcp", "list")
	r := parseDroid(o.All())
	r.Output = o.All()
	if err != nil {
		return r, err
	}
	if o.Code != 0 {
		return r, fmt.Errorf("droid mcp list: exit %d: %s", o.Code, oneLine(o.All(), 300))
	}
	return r, nil
}

// "  name  stdio  connected  [project]" (the status may be several words: "needs auth").
var droidLine = regexp.MustCompile(`^(\S+)\s+(stdio|http|sse)\s+(.+?)\s+\[(\w+)\]$`)

func parseDroid(out string) *Result {
	r := &Result{}
	for _, ln := range strings.Split(out, "\n") {
		m := droidLine.FindStringSubmatch(strings.TrimSpace(ln))
		if m == nil {
			continue
		}
		st, detail := Failed, m[3]
		switch {
		case m[3] == "connected":
			st, detail = Connected, ""
		case strings.Contains(m[3], "disabled"):
			st = Disabled
		case strings.Contains(m[3], "auth"), strings.Contains(m[3], "pending"):
			st = Pending
		}
		scope := ""
		switch m[4] {
		case "project":
			scope = ScopeProject
		case "user", "global":
			scope = ScopeUser
		}
		r.Records = append(r.Records, Record{Server: m[1], Scope: scope, Status: st, Detail: detail})
	}
	return r
}
