//go:build linux && repodev

package main

import (
	"context"
	"fmt"
	"regexp"
)

// kilo: Kilo Code's CLI, an OpenCode fork: `kilo mcp list` health-checks every server and prints
// the list in OpenCode's layout. It merges project (kilo.json) and user (~/.config/kilo/kilo.json)
// without saying which is which: a project check runs with an empty HOME, a user check in an
// empty folder. A config file it cannot accept is skipped with a warning on its log
// (--print-logs), which the check keeps as a note. The npm wrapper @kilocode/cli finds its binary
// through an install script; the platform package ships it.
type kilo struct{}

func (kilo) ID() string       { return "kilo" }
func (kilo) Name() string     { return "Kilo CLI" }
func (kilo) Tool() string     { return "kilo" }
func (kilo) Scopes() []string { return []string{ScopeProject, ScopeUser} }
func (kilo) Install() InstallSpec {
	pkg := "@kilocode/cli-linux-" + npmArch()
	return InstallSpec{Package: pkg, Version: "7.7.9", Bin: "kilo", Path: pkg + "/bin/kilo"}
}
func (kilo) Files(scope string) []string {
	if scope == ScopeProject {
		return []string{"kilo.json", "kilo.jsonc", ".kilo/kilo.json", ".kilo/kilo.jsonc"}
	}
	return []string{".config/kilo/kilo.json", ".config/kilo/kilo.jsonc"}
}

func (kilo) Prepare(*Check) error { return nil }

func (k kilo) List(ctx context.Context, c *Check) (*Result, error) {
	o, err := c.Run(ctx, []string{"KILO_DISABLE_AUTOUPDATE=1", "KILO_TELEMETRY_DISABLED=1"},
		c.Bin(), "mcp", "list", "--print-logs")
	r := parseOpenCode(o.Stdout + "\n" + o.Stderr)
	r.Output = o.All()
	for i := range r.Records {
		r.Records[i].Scope = c.Scope // by construction (see above)
	}
	for _, n := range kiloSkipped(o.Stderr) {
		r.note(n)
	}
	if err != nil {
		return r, err
	}
	if o.Code != 0 {
		return r, fmt.Errorf("kilo mcp list: exit %d: %s", o.Code, oneLine(o.All(), 300))
	}
	return r, nil
}

// kiloSkipped finds the config files kilo's log says it skipped:
// "WARN … service=kilocode.config source=/abs/kilo.json err=ConfigInvalidError skipped config due to error"
var kiloSkipRE = regexp.MustCompile(`service=kilocode\.config source=(\S+) err=(\S+) skipped config`)

func kiloSkipped(log string) []string {
	var out []string
	for _, m := range kiloSkipRE.FindAllStringSubmatch(log, -1) {
		out = append(out, fmt.Sprintf("kilo skipped %s: %s", m[1], m[2]))
	}
	return out
}
