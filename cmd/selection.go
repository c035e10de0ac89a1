package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	toolsel "github.com/repo-manager/repo/internal/selection"
)

// selection is the tools a run writes, and why those (package selection).
type selection = toolsel.Selection

// selectTools selects the tools of a run from --tool as given (see
// selection.Select).
func selectTools(w *workspace, requested []string, scope string) (*selection, error) {
	return toolsel.Select(w, splitIDs(requested), scope)
}

// userScope reports whether a scope's files belong to the person on this
// machine rather than to the workspace.
func userScope(scope string) bool { return toolsel.UserScope(scope) }

// splitIDs accepts --tool a --tool b,c.
func splitIDs(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, id := range strings.Split(v, ",") {
			if id = strings.TrimSpace(id); id != "" && !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}

// checkToolFlag refuses a --tool that was given but names no tool, or
// holds an empty id: --tool "$TOOLS" with TOOLS unset must not fall back
// to detection and write every detected tool's file.
func checkToolFlag(c *cobra.Command, ids []string) error {
	if !c.Flags().Changed("tool") {
		return nil
	}
	given := fmt.Sprintf("--tool %q", strings.Join(ids, ","))
	switch {
	case len(splitIDs(ids)) == 0:
		return usagef("%s: no tool id (an unset variable?); give tool ids, or leave --tool out to use the workspace's tools (see repo tools)", given)
	case slices.ContainsFunc(ids, func(id string) bool { return strings.TrimSpace(id) == "" }):
		return usagef("%s: an empty tool id (an unset variable?); give tool ids, see repo tools", given)
	}
	return nil
}
