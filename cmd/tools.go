package cmd

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/ordered"
	toolsel "github.com/repo-manager/repo/internal/selection"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
)

// ToolsOptions are the flags of repo tools.
type ToolsOptions struct {
	F       *Factory
	Root    string
	Output  string
	Quiet   bool
	Verbose bool
}

func newToolsCmd(f *Factory) *cobra.Command {
	opts := &ToolsOptions{F: f}
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "List the AI tools repo knows: MCP support, detection, target file per scope",
		Long: `List the AI tools repo knows: whether they take MCP servers, whether the
workspace uses them (detected: a marker such as .cursor/ in the workspace,
which selects them for the project scope), whether this machine has them
(installed: their own folder in your home folder, or their executable on
PATH, which selects them for the user and local scopes; "-" where repo
cannot tell), and the file repo writes for each scope. -v says what was
found.

In a workspace, the files are the ones a sync would write (opencode.jsonc
when the workspace has one rather than opencode.json) and the workspace's own
profiles (.repository/toolprofiles/) are included. Outside one, the built-in
catalog, with project files relative to a workspace root.`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			if err := checkOutput(opts.Output); err != nil {
				return err
			}
			return toolsRun(opts)
		},
	}
	addRootFlag(cmd, &opts.Root)
	addOutputFlag(cmd, &opts.Output)
	addVerbosityFlags(cmd, &opts.Quiet, &opts.Verbose,
		"no note on stderr outside a workspace", "also list every candidate file and the tool's notes")
	return cmd
}

func toolsRun(opts *ToolsOptions) error {
	f := opts.F
	root, err := f.Root(opts.Root)
	inside := err == nil
	if err != nil && (opts.Root != "" || !errors.Is(err, extensions.ErrNoRoot)) {
		return err
	}
	if !inside && !opts.Quiet && opts.Output == "text" {
		fmt.Fprintf(f.IO.ErrOut, "not in a workspace (no %s folder here or above): the built-in catalog and your own profiles; project files are relative to the workspace root\n", extensions.RepoDir)
	}
	profiles, err := toolprofiles.Load(root, f.Env(root).Env)
	if err != nil {
		return err
	}
	w := &workspace{Root: root, Env: f.Env(root), Profiles: profiles}
	var rows []toolRow
	for _, p := range profiles.All() {
		rows = append(rows, newToolRow(f, w, p, inside))
	}
	if opts.Output == "json" {
		return printToolsJSON(f, rows, root)
	}
	if err := printToolsTable(f, rows, inside); err != nil {
		return err
	}
	if opts.Verbose {
		printToolsVerbose(f, rows)
	}
	return nil
}

// toolRow is what repo tools says about one profile.
type toolRow struct {
	p          *toolprofiles.Profile
	detectedBy []string // workspace markers found
	machine    toolsel.Machine
	files      map[string]string
	candidates map[string][]string
	// targets are the profile's scope targets as runs use them: the
	// local and user scopes from the built-in or the user's own
	// profile, whatever the workspace's replaces (ForScope).
	targets map[string]*toolprofiles.Target
}

// newToolRow looks up where profile p is found and, per scope, the
// candidate files and the one repo sync would write.
func newToolRow(f *Factory, w *workspace, p *toolprofiles.Profile, inside bool) toolRow {
	profiles := w.Profiles
	mp := p // the profile the machine's scopes use
	if m := profiles.ForScope(toolprofiles.ScopeUser).Get(p.ID); m != nil {
		mp = m
	}
	r := toolRow{p: p, machine: toolsel.OnMachine(mp, w.Env.Env, w.Env.Display), files: map[string]string{}, candidates: map[string][]string{}, targets: map[string]*toolprofiles.Target{}}
	if inside {
		r.detectedBy = toolsel.InWorkspace(p, w)
	}
	for _, scope := range toolprofiles.Scopes {
		sp := profiles.ForScope(scope).Get(p.ID)
		if sp == nil || sp.Scopes.Get(scope) == nil {
			continue
		}
		t := sp.Scopes.Get(scope)
		r.targets[scope] = t
		if len(t.PathsFor(f.GOOS)) == 0 && len(t.Installs) == 0 {
			continue
		}
		paths := t.PathsFor(f.GOOS)
		r.candidates[scope] = paths
		if !inside && scope == toolprofiles.ScopeProject {
			if len(paths) > 0 {
				r.files[scope] = paths[0]
			}
			continue
		}
		// The file repo sync would write on this machine (an installation's, or the first
		// candidate that exists, else the first).
		c, err := target.Choose(t, w.Env)
		if err != nil {
			r.files[scope] = "(" + err.Error() + ")" // escaped where printed
			continue
		}
		if c.Path == "" {
			continue
		}
		r.files[scope] = w.Env.Display(c.Path)
	}
	return r
}

// printToolsJSON prints the rows as --output json has them.
func printToolsJSON(f *Factory, rows []toolRow, root string) error {
	out := []any{}
	for _, r := range rows {
		targets := ordered.Object{}
		for _, scope := range toolprofiles.Scopes {
			t := r.targets[scope]
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
		var installed any // null: the profile gives nothing to look for
		if r.machine.Known {
			installed = r.machine.Installed()
		}
		out = append(out, ordered.Object{
			{Key: "id", Value: r.p.ID},
			{Key: "name", Value: r.p.Name},
			{Key: "mcp", Value: r.p.MCP},
			{Key: "detected", Value: len(r.detectedBy) > 0},
			{Key: "detected_by", Value: nonNil(r.detectedBy)},
			{Key: "installed", Value: installed},
			{Key: "installed_by", Value: nonNil(r.machine.Found)},
			{Key: "evidence", Value: r.p.Evidence},
			{Key: "origin", Value: r.p.Origin()},
			{Key: "targets", Value: targets},
		})
	}
	_, err := fmt.Fprintf(f.IO.Out, "%s\n", indentJSON(ordered.JSON(out)))
	return err
}

// printToolsTable prints one line per tool, with a column per scope.
func printToolsTable(f *Factory, rows []toolRow, inside bool) error {
	tw := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tMCP\tDETECTED\tINSTALLED\tPROJECT\tLOCAL\tUSER\tFORMAT\tEVIDENCE")
	for _, r := range rows {
		detectedCell := yesNo(len(r.detectedBy) > 0)
		if !inside {
			detectedCell = "-" // nothing to detect outside a workspace
		}
		installedCell := yesNo(r.machine.Installed())
		if !r.machine.Known {
			installedCell = "-" // nothing to look for
		}
		cells := []string{r.p.ID, r.p.Name, yesNo(r.p.MCP), detectedCell, installedCell}
		var formats []string
		for _, scope := range toolprofiles.Scopes {
			file := r.files[scope]
			if file == "" {
				file = "-"
			} else if t := r.targets[scope]; !slices.Contains(formats, t.Format) {
				formats = append(formats, t.Format)
			}
			cells = append(cells, termtext.Safe(file))
		}
		if len(formats) == 0 {
			formats = []string{"-"}
		}
		cells = append(cells, strings.Join(formats, "/"), r.p.Evidence)
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// printToolsVerbose adds, for -v, each tool's candidate files, what was
// found of it and its notes.
func printToolsVerbose(f *Factory, rows []toolRow) {
	for _, r := range rows {
		fmt.Fprintf(f.IO.Out, "\n%s (%s, %s)\n", r.p.ID, r.p.Name, r.p.Origin())
		for _, scope := range toolprofiles.Scopes {
			if c := r.candidates[scope]; len(c) > 0 {
				fmt.Fprintf(f.IO.Out, "  %s: %s\n", scope, toolsel.SafeList(c))
			}
		}
		if len(r.detectedBy) > 0 {
			fmt.Fprintf(f.IO.Out, "  detected: %s\n", toolsel.SafeList(r.detectedBy))
		}
		switch {
		case r.machine.Installed():
			fmt.Fprintf(f.IO.Out, "  installed: %s\n", toolsel.SafeList(r.machine.Found))
		case r.machine.Known:
			fmt.Fprintf(f.IO.Out, "  not installed: %s\n", r.machine.Absent())
		}
		if r.p.Notes != "" {
			fmt.Fprintf(f.IO.Out, "  %s\n", r.p.Notes)
		}
	}
}

// nonNil keeps an empty list a JSON [] rather than null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// resolvedKey fills <<root>> into a key path, as the writer does.
func resolvedKey(key []string, root string) []string {
	if root == "" { // the catalog, outside a workspace
		return key
	}
	out := make([]string, len(key))
	for i, k := range key {
		out[i] = strings.ReplaceAll(k, "<<root>>", filepath.ToSlash(root))
	}
	return out
}
