package writers

import (
	"slices"

	"github.com/repo-manager/repo/internal/selection"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/trust"
	"github.com/repo-manager/repo/internal/trustgate"
	"github.com/repo-manager/repo/internal/workspace"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/toolprofiles/gates"
)

// Project files need no trust: the tools gate them, and the repository
// could commit them itself. But a pull can bring a new server, or change
// the command of one the user approved, and the tools differ in what they
// do then (gates.Asks). So a writing project-scope sync says which servers
// are new or changed since the last sync in this workspace — remembered in
// the trust store, per user — and which of the tools it wrote start them
// without asking.

// sinceLastSync compares the servers this sync wrote with those the last
// one did, remembers them, and lists what is new or changed. A store that
// cannot be used is a warning in res: the sync itself is done.
func sinceLastSync(w *workspace.Workspace, sel *selection.Selection, targets []*target.Target, res *Report) []Since {
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
	store, err := trustgate.Open(w)
	if err != nil {
		res.Warnings = appendUnique(res.Warnings, "repo cannot say which servers are new or changed since the last sync: "+err.Error())
		return nil
	}
	var out []Since
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
		ss := Since{Server: s.Name, Change: "new", WithoutAsking: []string{}, AfterFolderTrust: []string{}}
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
func rememberApprovals(w *workspace.Workspace, sel *selection.Selection, store *trust.Store, since []Since, previous map[string]string) {
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
