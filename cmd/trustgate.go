package cmd

import (
	"fmt"
	"strings"

	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/internal/trust"
	"github.com/repo-manager/repo/internal/trustgate"
	"github.com/repo-manager/repo/writers"
)

// reachedFile is the trust gate's (package trustgate), as the JSON
// document of repo trust says it.
type reachedFile = trustgate.Reached

// openTrust opens the workspace's trust store.
func openTrust(w *workspace) (*trust.Store, error) { return trustgate.Open(w) }

// untrustedError ends a run that would have written untrusted servers
// outside the workspace: nothing was written (exit 3).
type untrustedError struct {
	servers []gated
	command string // the run to repeat, as "repo sync --scope local"
}

// gated is a server the trust gate stopped, as the error says it.
type gated struct {
	server, extension, status string
	def                       trust.Definition // what it runs or connects to
	files                     []string         // the files it would reach, as shown
}

// newUntrustedError is the error of a sync the gate stopped
// (writers.UntrustedError).
func newUntrustedError(servers []writers.Untrusted, command string) *untrustedError {
	e := &untrustedError{command: command}
	for _, u := range servers {
		g := gated{server: u.Server, extension: u.Extension, status: u.Status, def: trust.Definition{Command: u.Command, Args: u.Args, URL: u.URL}}
		for _, f := range u.Files {
			g.files = append(g.files, trustgate.Reached(f).String())
		}
		e.servers = append(e.servers, g)
	}
	return e
}

// trustGate stops repo mcp import before it writes a server the user has
// not trusted outside the workspace (trustgate.Needs); trusted says which
// names count as trusted already (the servers it imports).
func trustGate(w *workspace, p *plan.Plan, trusted func(string) bool, command string) error {
	u, err := trustgate.Needs(w, p, trusted)
	if err != nil || len(u) == 0 {
		return err
	}
	e := &untrustedError{command: command}
	for _, s := range u {
		g := gated{server: s.Server, extension: s.Extension, status: s.Status, def: trust.Definition{Command: s.Command, Args: s.Args, URL: s.URL}}
		for _, f := range s.Files {
			g.files = append(g.files, f.String())
		}
		e.servers = append(e.servers, g)
	}
	return e
}

func (e *untrustedError) Error() string {
	var b strings.Builder
	n := len(e.servers)
	fmt.Fprintf(&b, "nothing written: %d %s not trusted on this machine, and this run would write %s outside the workspace, where no tool asks before starting %s\n",
		n, plural(n, "server is", "servers are"), plural(n, "it", "them"), plural(n, "it", "them"))
	for _, u := range e.servers {
		fmt.Fprintf(&b, "  %s (extension %s, %s): %s\n", termtext.Safe(u.server), termtext.Safe(u.extension), statusWords(u.status), u.def.Summary())
		files := make([]string, len(u.files))
		for i, f := range u.files {
			files[i] = termtext.Safe(f)
		}
		fmt.Fprintf(&b, "    would reach %s\n", strings.Join(files, ", "))
	}
	fmt.Fprintf(&b, "review and trust %s with 'repo trust' (it shows each definition and asks; 'repo trust --all' trusts what it shows, for scripts), then run '%s' again", plural(n, "it", "them"), e.command)
	return b.String()
}

// statusWords says a trust status in a sentence.
func statusWords(status string) string {
	switch trust.Status(status) {
	case trust.New:
		return "never trusted"
	case trust.Changed:
		return "changed since you trusted it"
	case trust.Gone:
		return "no longer in the workspace"
	}
	return status
}

func plural(n int, one, more string) string {
	if n == 1 {
		return one
	}
	return more
}

// trustNote is what --check and --dry-run say of servers a sync would
// stop at: they need no trust themselves, and run nothing.
func trustNote(untrusted []writers.Untrusted) string {
	names := make([]string, len(untrusted))
	for i, u := range untrusted {
		names[i] = termtext.Safe(u.Server)
	}
	return fmt.Sprintf("not trusted on this machine: %s; a sync would write nothing until 'repo trust' (exit 3)", strings.Join(names, ", "))
}
