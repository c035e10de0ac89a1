//go:build linux && repodev

package main

import (
	"context"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"strings"
)

// npmArch is the architecture as npm platform packages spell it.
func npmArch() string {
	if runtime.GOARCH == "arm64" {
		return "arm64"
	}
	return "x64"
}

// amp: Amp (ampcode.com). `amp mcp doctor` starts every server and prints one line per server
// with its source and state; with no API key at all it starts a login flow instead, so the check
// gives it a dummy key (nothing is sent: there is no network). Workspace servers
// (.amp/settings.json) wait for `amp mcp approve NAME`, which stores an approval bound to a hash of
// the entry in the user settings (~/.config/amp/settings.json, "amp.mcpTrustedServers"): the check
// approves each expected server first, in the project, with the private HOME. The npm wrapper
// @ampcode/cli finds its binary through an install script; the platform package ships it.
type amp struct{}

func (amp) ID() string       { return "amp" }
func (amp) Name() string     { return "Amp" }
func (amp) Tool() string     { return "amp" }
func (amp) Scopes() []string { return []string{ScopeProject, ScopeUser} }
func (amp) Install() InstallSpec {
	pkg := "@ampcode/cli-linux-" + npmArch()
	return InstallSpec{Package: pkg, Version: "0.0.1790142911-g7618fb", Bin: "amp", Path: pkg + "/amp"}
}
func (amp) Files(scope string) []string {
	if scope == ScopeProject {
		return []string{".amp/settings.json"}
	}
	return []string{".config/amp/settings.json"}
}

func (amp) Prepare(*Check) error { return nil } // approval needs the client: see List

// ampEnv keeps amp from starting its login flow; the key is never checked offline.
var ampEnv = []string{"AMP_API_KEY=conformance-offline"}

func (a amp) List(ctx context.Context, c *Check) (*Result, error) {
	if c.Scope == ScopeProject {
		for _, name := range append(slices.Clone(expectedServers), confInclude, confExclude, confRemote) { // conf-off is not written
			o, err := c.Run(ctx, ampEnv, c.Bin(), "mcp", "approve", name)
			if err != nil || o.Code != 0 {
				return &Result{Output: o.All()}, fmt.Errorf("amp mcp approve %s: exit %d %v: %s", name, o.Code, err, oneLine(o.All(), 300))
			}
		}
	}
	o, err := c.Run(ctx, ampEnv, c.Bin(), "mcp", "doctor")
	r := parseAmp(o.All())
	r.Output = o.All()
	if err != nil {
		return r, err
	}
	if o.Code != 0 {
		return r, fmt.Errorf("amp mcp doctor: exit %d: %s", o.Code, oneLine(o.All(), 300))
	}
	return r, nil
}

// "name (workspace: untrusted): connected (2 tools: a, b)"
// "name (workspace: untrusted, server: untrusted): awaiting approval"
var ampLine = regexp.MustCompile(`^(\S+) \(([^)]*)\): (.+)$`)

func parseAmp(out string) *Result {
	r := &Result{}
	for _, ln := range strings.Split(out, "\n") {
		m := ampLine.FindStringSubmatch(strings.TrimSpace(ln))
		if m == nil {
			continue
		}
		name, source, state := m[1], m[2], m[3]
		st, detail := Failed, state
		switch {
		case strings.HasPrefix(state, "connected"):
			st, detail = Connected, ""
		case strings.Contains(state, "approval"):
			st = Pending
		case strings.HasPrefix(state, "disabled"):
			st = Disabled
		}
		r.Records = append(r.Records, Record{Server: name, Scope: ampScope(source), Status: st, Detail: oneLine(detail, 300)})
	}
	return r
}

// ampScope maps amp's source ("workspace: untrusted", "user", …) to a scope.
func ampScope(source string) string {
	kind, _, _ := strings.Cut(source, ":")
	switch strings.TrimSpace(kind) {
	case "workspace":
		return ScopeProject
	case "user", "global":
		return ScopeUser
	}
	return ""
}
