package cmd

import (
	"fmt"
	"strings"

	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers"
)

// Project files need no trust: the tools gate them, and the repository
// could commit them itself. But a pull can bring a new server, or change
// the command of one the user approved, and the tools differ in what they
// do then (gates.Asks). So a writing project-scope sync says which servers
// are new or changed since the last sync in this workspace — remembered in
// the trust store, per user — and which of the tools it wrote start them
// without asking.

// printSince says, on stderr, which servers are new or changed since the
// last sync, and how the tools written start them.
func printSince(f *Factory, since []writers.Since) {
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
