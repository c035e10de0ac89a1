//go:build linux && repodev

package main

import (
	"context"
	"fmt"
)

// qwen: Qwen Code, a Gemini CLI fork with the same `mcp list`. Project servers stay "pending
// approval" until `qwen mcp approve` (stored in ~/.qwen/mcpApprovals.json, bound to a hash of each
// entry), which the check runs first, in the project, with the private HOME. Qwen adds
// "$version" to the project's .qwen/settings.json when it reads it; the runner restores it.
type qwen struct{}

func (qwen) ID() string       { return "qwen" }
func (qwen) Name() string     { return "Qwen Code" }
func (qwen) Tool() string     { return "qwen" }
func (qwen) Scopes() []string { return []string{ScopeProject} }
func (qwen) Install() InstallSpec {
	return InstallSpec{Package: "@qwen-code/qwen-code", Version: "0.24.4", Bin: "qwen"}
}
func (qwen) Files(string) []string { return []string{".qwen/settings.json"} }

func (qwen) Prepare(*Check) error { return nil } // approval needs the client: see List

func (q qwen) List(ctx context.Context, c *Check) (*Result, error) {
	if c.Scope == ScopeProject {
		o, err := c.Run(ctx, nil, c.Bin(), "mcp", "approve", "--all")
		if err != nil || o.Code != 0 {
			r := &Result{Output: o.All()}
			return r, fmt.Errorf("qwen mcp approve --all: exit %d %v: %s", o.Code, err, oneLine(o.All(), 300))
		}
	}
	return listGeminiLike(ctx, c, q.ID())
}
