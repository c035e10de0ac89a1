package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/writers"
)

// checkMergeFlags refuses an --ours or --theirs that names no entry (an
// unset variable), and an entry named in both.
func checkMergeFlags(c *cobra.Command, opts *SyncOptions) error {
	for _, fl := range []struct {
		name string
		vals []string
	}{{"ours", opts.Ours}, {"theirs", opts.Theirs}} {
		if c.Flags().Changed(fl.name) && (len(splitIDs(fl.vals)) == 0 || slices.ContainsFunc(fl.vals, func(n string) bool { return strings.TrimSpace(n) == "" })) {
			return usagef("--%s %q: an empty name (an unset variable?); give the names of the entries whose hand edits collide", fl.name, strings.Join(fl.vals, ","))
		}
	}
	for _, n := range splitIDs(opts.Ours) {
		if slices.Contains(splitIDs(opts.Theirs), n) {
			return usagef("--ours and --theirs both name %q: take one side of its fields", termtext.Safe(n))
		}
	}
	return nil
}

// printKeptEdits says, with -v, which managed entries keep hand edits, and
// which fields.
func printKeptEdits(f *Factory, kept []writers.KeptEdit) {
	for _, k := range kept {
		fields := make([]string, len(k.Fields))
		for i, fl := range k.Fields {
			fields[i] = termtext.Safe(fl)
		}
		fmt.Fprintf(f.IO.ErrOut, "kept edit %s (%s: %s): entry %q keeps your edit of %s\n",
			termtext.Safe(k.Path), k.Scope, strings.Join(k.Tools, ", "), termtext.Safe(k.Entry), strings.Join(fields, ", "))
	}
}
