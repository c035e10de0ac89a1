package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/internal/trust"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers"
	"github.com/repo-manager/repo/writers/plan"
	"github.com/repo-manager/repo/writers/target"
)

// The trust gate: a server a workspace defines reaches a file outside the
// workspace's project scope (a tool's local or user file, which no tool
// gates) only while the user trusts its definition (package trust, repo
// trust). Removing repo's own entries, and leaving an entry as it is,
// need no trust: nothing of the workspace's reaches the file.

// openTrust opens the workspace's trust store.
func openTrust(w *workspace) (*trust.Store, error) {
	dir, err := plan.StateDir(w.env)
	if err != nil {
		return nil, err
	}
	return trust.Open(trust.Path(dir, w.root), w.root, w.env.Display)
}

// definitions are the workspace's servers as trust judges them, by name.
func (w *workspace) definitions() map[string]trust.Definition {
	profiles := trust.WorkspaceProfiles(w.profiles)
	out := make(map[string]trust.Definition, len(w.ws.Servers))
	for _, s := range w.ws.Servers {
		out[s.Name] = trust.Define(s, profiles)
	}
	return out
}

// shownDefinition is d, the definition of s, as it may be shown and kept:
// its literal credentials redacted (see trust.Definition.Redact).
func shownDefinition(s extensions.Server, d trust.Definition) trust.Definition {
	var fields []string
	for _, l := range target.LiteralSecrets(s) {
		switch {
		case strings.HasPrefix(l.Field, "env."):
			fields = append(fields, "env "+l.Key)
		case strings.HasPrefix(l.Field, "headers."):
			fields = append(fields, "header "+l.Key)
		default: // url, args[i], command, cwd, headersHelper, oauth.*
			fields = append(fields, l.Field)
		}
	}
	return d.Redact(fields)
}

// server is the workspace's server of that name, or nil.
func (w *workspace) server(name string) *extensions.Server {
	for i := range w.ws.Servers {
		if w.ws.Servers[i].Name == name {
			return &w.ws.Servers[i]
		}
	}
	return nil
}

// untrustedServer is a server a run would write outside the workspace
// without the user's trust, as --output json says it.
type untrustedServer struct {
	Server    string `json:"server"`
	Extension string `json:"extension"`
	// Status is new (never trusted) or changed (trusted with another
	// definition, which repo trust shows next to this one).
	Status    string        `json:"status"`
	Transport string        `json:"transport"`
	Command   string        `json:"command,omitempty"`
	Args      []string      `json:"args,omitempty"`
	URL       string        `json:"url,omitempty"`
	Files     []reachedFile `json:"files"`
}

// reachedFile is a file outside the workspace's project scope that a
// server would be written into.
type reachedFile struct {
	Path  string   `json:"path"`
	Scope string   `json:"scope"`
	Tools []string `json:"tools"`
}

func (f reachedFile) String() string {
	return fmt.Sprintf("%s (%s: %s)", f.Path, f.Scope, strings.Join(f.Tools, ", "))
}

// needsTrust opens the store when p would write a workspace server into a
// file outside the project scope, and lists those of them the user has
// not trusted; trusted says which names count as trusted already (the
// servers repo mcp import brings in). A run that writes no such server
// does not open the store.
func needsTrust(w *workspace, p *writers.Plan, trusted func(string) bool) ([]untrustedServer, error) {
	var store *trust.Store
	var defs map[string]trust.Definition
	var out []untrustedServer
	for _, fp := range p.Files {
		if !outsideProject(string(fp.Scope)) {
			continue
		}
		for _, c := range fp.Changes {
			if !writesEntry(c.Action) || c.Entry == "" || (trusted != nil && trusted(c.Entry)) {
				continue
			}
			s := w.server(c.Entry)
			if s == nil {
				continue // not a server of the workspace's: nothing of it is written
			}
			if store == nil {
				var err error
				if store, err = openTrust(w); err != nil {
					return nil, err
				}
				defs = w.definitions()
			}
			d := defs[s.Name]
			status, _ := store.Check(s.Name, d)
			if status == trust.Trusted {
				continue
			}
			i := slices.IndexFunc(out, func(u untrustedServer) bool { return u.Server == s.Name })
			if i < 0 {
				d := shownDefinition(*s, d)
				out = append(out, untrustedServer{Server: s.Name, Extension: s.Extension, Status: string(status),
					Transport: d.Transport, Command: d.Command, Args: d.Args, URL: d.URL, Files: []reachedFile{}})
				i = len(out) - 1
			}
			out[i].Files = append(out[i].Files, reachedFile{Path: fp.Display, Scope: string(fp.Scope), Tools: slices.Clone(fp.Tools)})
		}
	}
	return out, nil
}

// outsideProject reports whether a plan's file scope is one whose files
// need trust: local and user (a local file may live in the repository,
// as Devin's .devin/config.local.json does, and its tool gates it no more
// than a user file).
func outsideProject(scope string) bool {
	return scope == toolprofiles.ScopeLocal || scope == toolprofiles.ScopeUser
}

// writesEntry reports whether a change puts a server's entry into a file
// (or takes one over, after which repo writes it).
func writesEntry(a plan.Action) bool {
	return a == plan.ActionAdd || a == plan.ActionUpdate || a == plan.ActionAdopt
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
