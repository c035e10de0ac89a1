//go:build linux && repodev

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// cline: the Cline CLI. It has no command that lists servers (`cline mcp` only adds and removes,
// `cline config` needs a terminal, `cline doctor` reports its hub), so the check runs one prompt
// against the stand-in model (standin.go), set up as the CLI's OpenAI-compatible provider in the
// private HOME. Cline offers the model each tool of each connected server as <server>__<tool>.
// The CLI reads only the user file, ~/.cline/data/settings/cline_mcp_settings.json.
type cline struct{}

func (cline) ID() string       { return "cline" }
func (cline) Name() string     { return "Cline CLI" }
func (cline) Tool() string     { return "cline" }
func (cline) Scopes() []string { return []string{ScopeUser} }
func (cline) Install() InstallSpec {
	return InstallSpec{Package: "cline", Version: "3.0.65", Bin: "cline"}
}
func (cline) Files(string) []string { return []string{".cline/data/settings/cline_mcp_settings.json"} }

func (cline) Prepare(c *Check) error {
	// Cline's own layout: without its modes and updatedAt members, cline 3.0.65 rewrote the file
	// and dropped baseUrl and apiKey.
	providers := map[string]any{
		"version":          1,
		"lastUsedProvider": "openai-compatible",
		"modes":            map[string]any{},
		"providers": map[string]any{"openai-compatible": map[string]any{
			"settings": map[string]any{"provider": "openai-compatible", "apiKey": "offline", "model": "gpt-4o",
				"baseUrl": "http://127.0.0.1:" + standinPort + "/v1"},
			"updatedAt":   "2026-01-01T00:00:00.000Z",
			"tokenSource": "manual",
		}},
	}
	b, err := json.MarshalIndent(providers, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(c.Home, ".cline", "data", "settings", "providers.json"), string(b)+"\n")
}

func (cl cline) List(ctx context.Context, c *Check) (*Result, error) {
	r := &Result{}
	tools, o, err := askStandin(ctx, c, nil, c.Bin(), "--json", "-P", "openai-compatible", "--timeout", "60", "list the tools you have")
	r.Output = o.All()
	if err != nil {
		return r, fmt.Errorf("cline: %v: %s", err, oneLine(o.All(), 300))
	}
	configured, err := configuredServers(filepath.Join(c.Home, filepath.FromSlash(cl.Files(c.Scope)[0])))
	if err != nil {
		return r, err
	}
	byOfferedTools(r, configured, tools, func(tool, server string) bool { return strings.HasPrefix(tool, server+"__") })
	for i := range r.Records {
		r.Records[i].Scope = c.Scope // the only file the CLI reads
	}
	return r, nil
}
