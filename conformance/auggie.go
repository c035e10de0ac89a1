//go:build linux && repodev

package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
)

// auggie: Augment's Auggie CLI. `auggie mcp list` lists the configured servers but starts none,
// and `auggie --acp` starts them only for a prompt, which needs Augment's service. So the check
// runs one prompt (`auggie --print`) against the stand-in model (standin.go), given to auggie as
// its Augment service through AUGMENT_SESSION_AUTH (a dummy token and a loopback tenant URL):
// auggie offers the model each tool of each connected server, named <tool>_<server>. It reads the
// project file (.augment/settings.json in the working directory) and the user file
// (~/.augment/settings.json): a project check runs with an empty HOME, a user check in an empty
// folder.
type auggie struct{}

func (auggie) ID() string       { return "auggie" }
func (auggie) Name() string     { return "Auggie CLI" }
func (auggie) Tool() string     { return "augment" }
func (auggie) Scopes() []string { return []string{ScopeProject, ScopeUser} }
func (auggie) Install() InstallSpec {
	return InstallSpec{Package: "@augmentcode/auggie", Version: "0.36.0", Bin: "auggie"}
}
func (auggie) Files(string) []string { return []string{".augment/settings.json"} }

func (auggie) Prepare(*Check) error { return nil }

func (a auggie) List(ctx context.Context, c *Check) (*Result, error) {
	r := &Result{}
	auth := `AUGMENT_SESSION_AUTH={"accessToken":"conformance-offline","tenantURL":"http://127.0.0.1:` + standinPort + `/","scopes":["email"]}`
	tools, o, err := askStandin(ctx, c, []string{auth}, c.Bin(), "--print", "--quiet", "list the tools you have")
	r.Output = o.All()
	if err != nil {
		return r, fmt.Errorf("auggie: %v: %s", err, oneLine(o.All(), 300))
	}
	file := filepath.Join(c.Dir, ".augment", "settings.json")
	if c.Scope != ScopeProject {
		file = filepath.Join(c.Home, ".augment", "settings.json")
	}
	configured, err := configuredServers(file)
	if err != nil {
		return r, err
	}
	byOfferedTools(r, configured, tools, func(tool, server string) bool { return strings.HasSuffix(tool, "_"+server) })
	for i := range r.Records {
		r.Records[i].Scope = c.Scope // by construction (see above)
	}
	return r, nil
}
