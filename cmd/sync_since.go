package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/internal/trust"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/toolprofiles/gates"
	"github.com/repo-manager/repo/writers"
)

// Project files need no trust: the tools gate them, and the repository
// could commit them itself. But a pull can bring a new server, or change
// the command of one the user approved, and the tools differ in what they
// do then (gates.Asks). So a writing project-scope sync says which servers
// are new or changed since the last sync in this workspace — remembered in
// the trust store, per user — and which of the tools it wrote start them
// without asking.

// sinceServer is a server new or changed since the last sync.
type sinceServer struct {
	Server string `json:"server"`
	Change string `json:"change"` // new or changed
	// WithoutAsking are the tools written that start it without asking;
	// AfterFolderTrust those that do in a folder the user trusted.
	WithoutAsking    []string `json:"without_asking"`
	AfterFolderTrust []string `json:"after_folder_trust"`
	// OldApproval are the tools whose approval is bound to the name, which
	// start a changed server under the approval given to the old one.
	OldApproval []string `json:"old_approval,omitempty"`
}

// sinceLastSync compares the servers this sync wrote with those the last
// one did, remembers them, and lists what is new or changed. A store that
// cannot be used is a warning in res: the sync itself is done.
func sinceLastSync(w *workspace, sel *selection, targets []*writers.Target, res *syncResult) []sinceServer {
	written := map[string][]string{} // server → tools written
	for _, t := range targets {
		if t.Leaving != "" || t.Alias != "" {
			continue
		}
		for _, e := range t.Entries {
			for _, id := range t.Tools {
				if !slices.Contains(written[e.Name], id) {
					written[e.Name] = append(written[e.Name], id)
				}
			}
		}
	}
	if len(written) == 0 {
		return nil
	}
	store, err := openTrust(w)
	if err != nil {
		res.Warnings = appendUnique(res.Warnings, "repo cannot say which servers are new or changed since the last sync: "+err.Error())
		return nil
	}
	var out []sinceServer
	previous := map[string]string{}
	for _, s := range w.WS.Servers {
		tools, ok := written[s.Name]
		if !ok {
			continue
		}
		digest := trust.Define(s, nil).Digest()
		prev, seen := store.Synced[s.Name]
		store.Synced[s.Name] = digest
		if seen && prev == digest {
			continue
		}
		ss := sinceServer{Server: s.Name, Change: "new", WithoutAsking: []string{}, AfterFolderTrust: []string{}}
		if seen {
			ss.Change = "changed"
			previous[s.Name] = prev
		}
		for _, id := range tools {
			p := w.Profiles.Get(id)
			if p == nil {
				continue
			}
			switch gates.Asks(p, toolprofiles.ScopeProject) {
			case gates.AsksNever:
				ss.WithoutAsking = append(ss.WithoutAsking, id)
			case gates.AsksFolder:
				ss.AfterFolderTrust = append(ss.AfterFolderTrust, id)
			case gates.AsksByName:
				if seen {
					ss.OldApproval = append(ss.OldApproval, id)
				}
			}
		}
		out = append(out, ss)
	}
	for name := range store.Synced {
		if w.Server(name) == nil {
			delete(store.Synced, name)
		}
	}
	rememberApprovals(w, sel, store, out, previous)
	if err := store.Save(w.Env.Display); err != nil {
		res.Warnings = appendUnique(res.Warnings, "repo cannot remember which servers this sync wrote: "+err.Error())
	}
	return out
}

// rememberApprovals keeps, for each tool whose approvals are bound to the
// name, which definition an approval was given to, when a server it
// approved changes: repo doctor then says that the approval predates the
// change. An approval that is gone is forgotten; one for which a
// definition is remembered already keeps it (it was given to that one).
// A tool whose approvals cannot be read keeps what was remembered.
func rememberApprovals(w *workspace, sel *selection, store *trust.Store, since []sinceServer, previous map[string]string) {
	for _, p := range sel.Profiles {
		if gates.Asks(p, toolprofiles.ScopeProject) != gates.AsksByName {
			continue
		}
		g, ok := gates.For(p, toolprofiles.ScopeProject)
		if !ok {
			continue
		}
		var changed []string
		for _, ss := range since {
			if ss.Change == "changed" && slices.Contains(ss.OldApproval, p.ID) {
				changed = append(changed, ss.Server)
			}
		}
		if len(changed) == 0 {
			continue
		}
		c := gates.Context{Root: w.Root, Profile: p, Env: w.Env.Env, Show: w.Env.Display}
		for _, name := range changed {
			c.Entries = append(c.Entries, gates.Entry{Name: name})
		}
		st := g.Check(c)
		if st.Unreadable {
			continue
		}
		m := store.Approved[p.ID]
		if m == nil {
			m = map[string]string{}
			store.Approved[p.ID] = m
		}
		for _, name := range changed {
			switch {
			case !slices.Contains(st.ByName, name):
				delete(m, name)
			case m[name] == "":
				m[name] = previous[name]
			}
		}
	}
}

// printSince says, on stderr, which servers are new or changed since the
// last sync, and how the tools written start them.
func printSince(f *Factory, since []sinceServer) {
	for _, change := range []string{"new", "changed"} {
		var names, without, folder, old []string
		for _, ss := range since {
			if ss.Change != change {
				continue
			}
			names = append(names, termtext.Safe(ss.Server))
			for _, id := range ss.WithoutAsking {
				without = appendUnique(without, termtext.Safe(id))
			}
			for _, id := range ss.AfterFolderTrust {
				folder = appendUnique(folder, termtext.Safe(id))
			}
			for _, id := range ss.OldApproval {
				old = appendUnique(old, id)
			}
		}
		if len(names) == 0 {
			continue
		}
		var how []string
		if len(without) > 0 {
			how = append(how, "started without asking by "+strings.Join(without, ", "))
		}
		if len(folder) > 0 {
			how = append(how, "by "+strings.Join(folder, ", ")+" once the folder is trusted")
		}
		for _, id := range old {
			how = append(how, termtext.Safe(toolName(id))+" starts a changed server under the approval given to the old one (repo doctor says which)")
		}
		if len(how) == 0 {
			how = append(how, "each tool written asks before starting "+plural(len(names), "it", "them"))
		}
		fmt.Fprintf(f.IO.ErrOut, "%s since the last sync in this workspace: %s; %s\n", change, strings.Join(names, ", "), strings.Join(how, "; "))
	}
}

// toolName is the name of a built-in tool (Claude Code), else its id.
func toolName(id string) string {
	if set, err := toolprofiles.Builtin(); err == nil {
		if p := set.Get(id); p != nil {
			return p.Name
		}
	}
	return id
}
