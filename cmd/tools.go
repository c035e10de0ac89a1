package cmd

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers"
)

// ToolsOptions are the flags of repo tools.
type ToolsOptions struct {
	F      *Factory
	Root   string
	Output string
}

func newToolsCmd(f *Factory) *cobra.Command {
	opts := &ToolsOptions{F: f}
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "List the AI tools repo knows: MCP support, detection, target file per scope",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if opts.Output != "text" && opts.Output != "json" {
				return usagef("--output %q: use text or json", opts.Output)
			}
			return toolsRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Root, "root", "", "workspace root")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "text", "text or json")
	return cmd
}

func toolsRun(opts *ToolsOptions) error {
	f := opts.F
	root, err := f.Root(opts.Root)
	if err != nil {
		return err
	}
	profiles, err := toolprofiles.Load(root)
	if err != nil {
		return err
	}
	w := &workspace{root: root, env: f.Env(root), profiles: profiles}
	type row struct {
		p        *toolprofiles.Profile
		detected bool
		files    map[string]string
	}
	var rows []row
	for _, p := range profiles.All() {
		r := row{p: p, detected: detected(p, w), files: map[string]string{}}
		for _, scope := range toolprofiles.Scopes {
			t := p.Scopes.Get(scope)
			if t == nil {
				continue
			}
			if len(t.PathsFor(f.GOOS)) == 0 && len(t.Installs) == 0 {
				continue
			}
			// The file repo sync would write on this machine (an installation's, or the first
			// candidate that exists, else the first).
			c, err := writers.Choose(t, w.env)
			if err != nil {
				r.files[scope] = "(" + err.Error() + ")"
				continue
			}
			if c.Path == "" {
				continue
			}
			r.files[scope] = w.env.Display(c.Path)
		}
		rows = append(rows, r)
	}
	if opts.Output == "json" {
		out := []any{}
		for _, r := range rows {
			targets := ordered.Object{}
			for _, scope := range toolprofiles.Scopes {
				t := r.p.Scopes.Get(scope)
				file, ok := r.files[scope]
				if t == nil || !ok {
					continue
				}
				targets = append(targets, ordered.Member{Key: scope, Value: ordered.Object{
					{Key: "file", Value: file},
					{Key: "format", Value: t.Format},
					{Key: "key", Value: resolvedKey(t.Key, root)},
				}})
			}
			out = append(out, ordered.Object{
				{Key: "id", Value: r.p.ID},
				{Key: "name", Value: r.p.Name},
				{Key: "mcp", Value: r.p.MCP},
				{Key: "detected", Value: r.detected},
				{Key: "evidence", Value: r.p.Evidence},
				{Key: "origin", Value: r.p.Origin()},
				{Key: "targets", Value: targets},
			})
		}
		_, err := fmt.Fprintf(f.IO.Out, "%s\n", indentJSON(ordered.JSON(out)))
		return err
	}
	tw := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tMCP\tDETECTED\tPROJECT\tLOCAL\tUSER\tFORMAT\tEVIDENCE")
	for _, r := range rows {
		cells := []string{r.p.ID, r.p.Name, yesNo(r.p.MCP), yesNo(r.detected)}
		var formats []string
		for _, scope := range toolprofiles.Scopes {
			file := r.files[scope]
			if file == "" {
				file = "-"
			} else if t := r.p.Scopes.Get(scope); !slices.Contains(formats, t.Format) {
				formats = append(formats, t.Format)
			}
			cells = append(cells, file)
		}
		if len(formats) == 0 {
			formats = []string{"-"}
		}
		cells = append(cells, strings.Join(formats, "/"), r.p.Evidence)
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// resolvedKey fills <<root>> into a key path, as the writer does.
func resolvedKey(key []string, root string) []string {
	out := make([]string, len(key))
	for i, k := range key {
		out[i] = strings.ReplaceAll(k, "<<root>>", filepath.ToSlash(root))
	}
	return out
}
