//go:build linux && repodev

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// gemini: Gemini CLI. `gemini mcp list` health-checks every server and prints the list on stderr.
// In an untrusted folder every server (the user's too) is disabled: the check trusts the project
// in the private HOME's ~/.gemini/trustedFolders.json. The list shows no scope: a project check
// runs with a HOME that has no servers, so whatever it lists comes from the project.
type gemini struct{}

func (gemini) ID() string       { return "gemini" }
func (gemini) Name() string     { return "Gemini CLI" }
func (gemini) Tool() string     { return "gemini" }
func (gemini) Scopes() []string { return []string{ScopeProject} }
func (gemini) Install() InstallSpec {
	return InstallSpec{Package: "@google/gemini-cli", Version: "0.61.0", Bin: "gemini"}
}
func (gemini) Files(string) []string { return []string{".gemini/settings.json"} }

func (gemini) Prepare(c *Check) error {
	b, _ := json.Marshal(map[string]string{c.Project: "TRUST_FOLDER"})
	return writeFile(filepath.Join(c.Home, ".gemini", "trustedFolders.json"), string(b)+"\n")
}

func (g gemini) List(ctx context.Context, c *Check) (*Result, error) {
	return listGeminiLike(ctx, c, g.ID())
}

// listGeminiLike runs `<cli> mcp list` (Gemini CLI and its fork Qwen Code print the same list).
func listGeminiLike(ctx context.Context, c *Check, id string) (*Result, error) {
	o, err := c.Run(ctx, nil, c.Bin(), "mcp", "list")
	r := parseGeminiList(o.All())
	r.Output = o.All()
	for i := range r.Records {
		r.Records[i].Scope = c.Scope // by construction: the HOME (project check) or the folder (user check) is empty
	}
	text := o.All()
	if m := regexp.MustCompile(`(?s)(Invalid configuration in .*?)(?:\nConfigured MCP servers|\z)`).FindStringSubmatch(text); m != nil {
		r.note(m[1])
	}
	if strings.Contains(text, "untrusted") {
		r.note("folder untrusted: servers disabled")
	}
	if err != nil {
		return r, err
	}
	if o.Code != 0 {
		return r, fmt.Errorf("%s mcp list: exit %d: %s", id, o.Code, oneLine(text, 300))
	}
	return r, nil
}

// "✓ name: command args (stdio) - Connected"
var geminiLine = regexp.MustCompile(`^\s*(?:[✓✗○●◌⟳…⚠]\s+)?(\S[^:]*): (.*?)\s*\(([a-z-]+)\)\s+- (.+?)\s*$`)

func parseGeminiList(out string) *Result {
	r := &Result{}
	for _, ln := range strings.Split(out, "\n") {
		m := geminiLine.FindStringSubmatch(ln)
		if m == nil {
			continue
		}
		st, low := Failed, strings.ToLower(m[4])
		switch {
		case strings.HasPrefix(low, "connected"):
			st = Connected
		case strings.Contains(low, "pending") || strings.Contains(low, "approval") || strings.Contains(low, "connecting"):
			st = Pending
		case strings.HasPrefix(low, "disabled"):
			st = Disabled
		}
		detail := ""
		if st != Connected {
			detail = m[4]
		}
		r.add(m[1], st, detail)
	}
	return r
}
