// Package trustgate is the trust gate: a server a workspace defines
// reaches a file outside the workspace's project scope (a tool's local or
// user file, which no tool gates) only while the user trusts its
// definition (package trust; repo trust). Removing repo's own entries,
// and leaving an entry as it is, need no trust: nothing of the
// workspace's reaches the file.
package trustgate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/trust"
	"github.com/repo-manager/repo/internal/workspace"
	"github.com/repo-manager/repo/toolprofiles"
)

// Open opens the workspace's trust store.
func Open(w *workspace.Workspace) (*trust.Store, error) {
	dir, err := plan.StateDir(w.Env)
	if err != nil {
		return nil, err
	}
	return trust.Open(trust.Path(dir, w.Root), w.Root, w.Env.Display)
}

// Definitions are the workspace's servers as trust judges them, by name.
func Definitions(w *workspace.Workspace) map[string]trust.Definition {
	profiles := trust.WorkspaceProfiles(w.Profiles)
	out := make(map[string]trust.Definition, len(w.WS.Servers))
	for _, s := range w.WS.Servers {
		out[s.Name] = trust.Define(s, profiles)
	}
	return out
}

// Shown is d, the definition of s, as it may be shown and kept: its
// literal credentials redacted (see trust.Definition.Redact).
func Shown(s extensions.Server, d trust.Definition) trust.Definition {
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

// Trust records that the user trusts the server name with definition d,
// as shown to them: what repo trust does for each server the user says
// yes to (and --all for every one it showed). An approval remembered as
// older than a change of the server is answered by it (repo doctor).
// The caller saves the store.
func Trust(store *trust.Store, name string, d, shown trust.Definition) {
	store.Trust(name, d, shown)
	for _, m := range store.Approved {
		delete(m, name) // seen and trusted: doctor's "predates a change" is answered
	}
}

// Server is a server a run would write outside the workspace without
// the user's trust.
type Server struct {
	Server    string `json:"server"`
	Extension string `json:"extension"`
	// Status is new (never trusted) or changed (trusted with another
	// definition, which repo trust shows next to this one).
	Status    string    `json:"status"`
	Transport string    `json:"transport"`
	Command   string    `json:"command,omitempty"`
	Args      []string  `json:"args,omitempty"`
	URL       string    `json:"url,omitempty"`
	Files     []Reached `json:"files"`
	// Definition is the definition as shown (credentials redacted), and
	// Digest the one of the definition trust would record.
	Definition trust.Definition `json:"-"`
	Digest     string           `json:"-"`
}

// Reached is a file outside the workspace's project scope that a server
// would be written into.
type Reached struct {
	Path  string   `json:"path"`
	Scope string   `json:"scope"`
	Tools []string `json:"tools"`
}

func (f Reached) String() string {
	return fmt.Sprintf("%s (%s: %s)", f.Path, f.Scope, strings.Join(f.Tools, ", "))
}

// Needs opens the store when p would write a workspace server into a
// file outside the project scope, and lists those of them the user has
// not trusted; trusted says which names count as trusted already (the
// servers repo mcp import brings in). A run that writes no such server
// does not open the store.
func Needs(w *workspace.Workspace, p *plan.Plan, trusted func(string) bool) ([]Server, error) {
	var store *trust.Store
	var defs map[string]trust.Definition
	var out []Server
	for _, fp := range p.Files {
		if !Outside(string(fp.Scope)) {
			continue
		}
		for _, c := range fp.Changes {
			if !writesEntry(c.Action) || c.Entry == "" || (trusted != nil && trusted(c.Entry)) {
				continue
			}
			s := w.Server(c.Entry)
			if s == nil {
				continue // not a server of the workspace's: nothing of it is written
			}
			if store == nil {
				var err error
				if store, err = Open(w); err != nil {
					return nil, err
				}
				defs = Definitions(w)
			}
			d := defs[s.Name]
			status, _ := store.Check(s.Name, d)
			if status == trust.Trusted {
				continue
			}
			i := slices.IndexFunc(out, func(u Server) bool { return u.Server == s.Name })
			if i < 0 {
				out = append(out, newServer(*s, d, string(status)))
				i = len(out) - 1
			}
			out[i].Files = append(out[i].Files, Reached{Path: fp.Display, Scope: string(fp.Scope), Tools: slices.Clone(fp.Tools)})
		}
	}
	return out, nil
}

func newServer(s extensions.Server, d trust.Definition, status string) Server {
	shown := Shown(s, d)
	return Server{Server: s.Name, Extension: s.Extension, Status: status, Transport: shown.Transport,
		Command: shown.Command, Args: shown.Args, URL: shown.URL, Files: []Reached{}, Definition: shown, Digest: d.Digest()}
}

// Outside reports whether a plan's file scope is one whose files need
// trust: local and user (a local file may live in the repository, as
// Devin's .devin/config.local.json does, and its tool gates it no more
// than a user file).
func Outside(scope string) bool {
	return scope == toolprofiles.ScopeLocal || scope == toolprofiles.ScopeUser
}

// writesEntry reports whether a change puts a server's entry into a file
// (or takes one over, after which repo writes it).
func writesEntry(a plan.Action) bool {
	return a == plan.ActionAdd || a == plan.ActionUpdate || a == plan.ActionAdopt
}
