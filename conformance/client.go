//go:build linux && repodev

package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Status is what a client says about one server.
type Status string

const (
	Connected Status = "connected"
	Failed    Status = "failed"
	Pending   Status = "pending" // waiting for approval or trust, or still starting
	Disabled  Status = "disabled"
	Missing   Status = "missing" // expected, but the client did not list it
)

// Scopes a check can cover.
const (
	ScopeProject = "project"
	ScopeLocal   = "local"
	ScopeUser    = "user"
)

// Record is one server as one client sees it in one scope.
type Record struct {
	Client  string `json:"client"`
	Version string `json:"version"`
	Scope   string `json:"scope"`
	Server  string `json:"server"`
	Status  Status `json:"status"`
	Detail  string `json:"detail,omitempty"`
	// Tools are the server's tools the client offers, where it reports them offline (nil: not
	// reported); Config the server's settings as the client parsed them (startupTimeout and
	// toolTimeout in seconds, autoApprove the approved tools), where it reports them.
	Tools  []string          `json:"tools,omitempty"`
	Config map[string]string `json:"config,omitempty"`
}

// InstallSpec says how a client is installed from npm and started.
type InstallSpec struct {
	Package string // npm package
	Version string // default pin (override with --pin)
	Bin     string // command in node_modules/.bin
	// Path, when set, is the executable inside node_modules instead of .bin/<Bin>: for a client
	// whose npm wrapper only finds its native binary through an install script (which npm no
	// longer runs unasked), Package is the platform package that ships the binary itself.
	Path string
}

// Client is one AI coding CLI. Each adapter lives in its own file.
type Client interface {
	ID() string   // short id used by --clients and in the records: claude, codex, …
	Name() string // display name
	Tool() string // repo's tool id (repo tools), the target of repo sync --tool
	Install() InstallSpec
	// Scopes lists the scopes the client is checked in (the first is the one a quick run uses).
	Scopes() []string
	// Files names the config file(s) the client reads in a scope, relative to the project
	// (project scope) or to HOME (local, user); the report quotes them when a check fails.
	Files(scope string) []string
	// Prepare writes into the check's private HOME what the client needs to load the scope
	// without asking anything: trust, approvals, an offline model. It never touches the project.
	Prepare(c *Check) error
	// List asks the client which servers it loads in c.Scope and whether they start.
	List(ctx context.Context, c *Check) (*Result, error)
}

// Result is what List found.
type Result struct {
	Records []Record
	Notes   []string // the client's own diagnostics worth reading (warnings, config errors)
	Output  string   // raw client output, kept for the report when something fails
}

func (r *Result) add(server string, st Status, detail string) {
	r.Records = append(r.Records, Record{Server: server, Status: st, Detail: oneLine(detail, 300)})
}

func (r *Result) note(text string) {
	s := oneLine(text, 600)
	if s == "" {
		return
	}
	for _, n := range r.Notes {
		if n == s {
			return
		}
	}
	r.Notes = append(r.Notes, s)
}

// allClients in report order.
func allClients() []Client {
	return []Client{claude{}, codex{}, gemini{}, qwen{}, opencode{}, copilot{}, continueCLI{},
		amp{}, droid{}, kilo{}, qoder{}, auggie{}, cline{}}
}

var ansiRE = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]`)

// clean strips terminal escapes and carriage returns from client output.
func clean(s string) string {
	return strings.ReplaceAll(ansiRE.ReplaceAllString(s, ""), "\r", "")
}

// oneLine folds whitespace and cuts s to max runes.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(clean(s)), " ")
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}

func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}
