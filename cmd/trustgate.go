package cmd

import (
	"fmt"
	"strings"

	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/internal/trust"
	"github.com/repo-manager/repo/internal/trustgate"
	"github.com/repo-manager/repo/writers"
)

// untrustedServer and reachedFile are the trust gate's (package
// trustgate), as the JSON documents of sync and trust say them.
type (
	untrustedServer = trustgate.Server
	reachedFile     = trustgate.Reached
)

// openTrust opens the workspace's trust store.
func openTrust(w *workspace) (*trust.Store, error) { return trustgate.Open(w) }

// needsTrust lists the servers p would write outside the workspace that
// the user has not trusted (trustgate.Needs).
func needsTrust(w *workspace, p *writers.Plan, trusted func(string) bool) ([]untrustedServer, error) {
	return trustgate.Needs(w, p, trusted)
}

// untrustedError ends a run that would have written untrusted servers
// outside the workspace: nothing was written (exit 3).
type untrustedError struct {
	servers []untrustedServer
	plan    *writers.Plan // what the run would have written; the caller closes it
	command string        // the run to repeat, as "repo sync --scope local"
}

func (e *untrustedError) Error() string {
	var b strings.Builder
	n := len(e.servers)
	fmt.Fprintf(&b, "nothing written: %d %s not trusted on this machine, and this run would write %s outside the workspace, where no tool asks before starting %s\n",
		n, plural(n, "server is", "servers are"), plural(n, "it", "them"), plural(n, "it", "them"))
	for _, u := range e.servers {
		fmt.Fprintf(&b, "  %s (extension %s, %s): %s\n", termtext.Safe(u.Server), termtext.Safe(u.Extension), statusWords(u.Status), summaryOf(u))
		files := make([]string, len(u.Files))
		for i, f := range u.Files {
			files[i] = termtext.Safe(f.String())
		}
		fmt.Fprintf(&b, "    would reach %s\n", strings.Join(files, ", "))
	}
	fmt.Fprintf(&b, "review and trust %s with 'repo trust' (it shows each definition and asks; 'repo trust --all' trusts what it shows, for scripts), then run '%s' again", plural(n, "it", "them"), e.command)
	return b.String()
}

// summaryOf is what an untrusted server runs or connects to.
func summaryOf(u untrustedServer) string {
	return trust.Definition{Command: u.Command, Args: u.Args, URL: u.URL}.Summary()
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
func trustNote(untrusted []untrustedServer) string {
	names := make([]string, len(untrusted))
	for i, u := range untrusted {
		names[i] = termtext.Safe(u.Server)
	}
	return fmt.Sprintf("not trusted on this machine: %s; a sync would write nothing until 'repo trust' (exit 3)", strings.Join(names, ", "))
}
