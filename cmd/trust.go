package cmd

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/repo-manager/repo/internal/gittrack"
	toolsel "github.com/repo-manager/repo/internal/selection"
	"github.com/repo-manager/repo/internal/serverpaths"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/internal/trust"
	"github.com/repo-manager/repo/internal/trustgate"
	"github.com/repo-manager/repo/toolprofiles"
)

// TrustOptions are the flags of repo trust.
type TrustOptions struct {
	F     *Factory
	Root  string
	Tools []string
	// Scope narrows the files shown to one scope (local or user); empty:
	// both. Trust itself is per server, whatever the scope.
	Scope  string
	All    bool // trust what is shown without asking (with Revoke: every server)
	List   bool
	Revoke bool
	Output string
	Names  []string // the servers to trust or revoke; none: every one
}

func newTrustCmd(f *Factory, runF func(*TrustOptions) error) *cobra.Command {
	opts := &TrustOptions{F: f}
	cmd := &cobra.Command{
		Use:   "trust [NAME...]",
		Short: "Review the workspace's servers and trust them to reach your own files",
		Long: `A server a workspace defines is written into a tool's local or user file
(~/.claude.json, ~/.codex/config.toml, .devin/config.local.json, …), which no
tool asks about before starting it, only after you have trusted its
definition on this machine. repo trust shows each server that is not
trusted — its extension, command, arguments, environment, URL and headers
as resolved, whether its command and scripts are files of the workspace
that git tracks, and the files it would reach — and asks, on a terminal,
whether to trust it. A server whose definition changed since you trusted it
is shown as a diff of the two, and is untrusted until you trust it again.

Without a terminal repo trust asks nothing: it shows the servers and exits 3.
--all trusts what it shows without asking, for a script that has shown it
(repo trust --output json, or repo trust, first). Trust is kept in your state
folder ($XDG_STATE_HOME/repo/trust, else ~/.local/state/repo/trust), one file
per workspace, never in the workspace; a store there, or one git tracks,
another user owns or others may write, is refused.

Project-scope files need no trust: the tools ask about them (repo doctor),
and the repository could commit them itself. --check and --dry-run need
none either.

Exit codes: 0 every server shown is trusted, 2 error, 3 some stay untrusted.`,
		Example: `  $ repo trust                     # show each untrusted server and ask
  $ repo trust helper              # only this one
  $ repo trust --all               # trust what it shows, without asking (scripts)
  $ repo trust --list              # every server: trusted, new or changed
  $ repo trust --revoke helper     # or --revoke --all`,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Names = args
			if opts.Scope != "" && opts.Scope != toolprofiles.ScopeLocal && opts.Scope != toolprofiles.ScopeUser {
				return usagef("--scope %q: use local or user (project-scope files need no trust)", opts.Scope)
			}
			if err := checkOutput(opts.Output); err != nil {
				return err
			}
			if err := checkToolFlag(c, opts.Tools); err != nil {
				return err
			}
			switch {
			case opts.List && (opts.All || opts.Revoke):
				return usagef("--list shows trust and changes none: leave out --all and --revoke")
			case opts.List && len(args) > 0:
				return usagef("--list takes no server names")
			case opts.Revoke && opts.All && len(args) > 0:
				return usagef("--revoke --all revokes every server: leave out the names")
			case opts.Revoke && !opts.All && len(args) == 0:
				return usagef("--revoke needs the servers to revoke, or --all")
			}
			if runF != nil {
				return runF(opts)
			}
			return trustRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.All, "all", false, "trust every server shown without asking (with --revoke: revoke every one)")
	fl.BoolVar(&opts.List, "list", false, "list every server of the workspace and whether it is trusted")
	fl.BoolVar(&opts.Revoke, "revoke", false, "revoke the trust of the servers named (or, with --all, of every one)")
	addToolFlag(cmd, f, &opts.Tools, "show the files of these tools (repeatable or comma-separated; default: as repo sync selects them)")
	fl.StringVar(&opts.Scope, "scope", "", "show the files of this scope only: local or user (default: both)")
	_ = cmd.RegisterFlagCompletionFunc("scope", fixedValues([]string{toolprofiles.ScopeLocal, toolprofiles.ScopeUser},
		"per-project entries in your home folder, or private files in the workspace", "your own config, every project"))
	addRootFlag(cmd, &opts.Root)
	addOutputFlag(cmd, &opts.Output)
	return cmd
}

// trustReport is the --output json document of repo trust (schema
// docs/schema/trust.v1.json).
type trustReport struct {
	Version int           `json:"version"`
	Mode    string        `json:"mode"` // trust, list, revoke
	Root    string        `json:"root"`
	Store   string        `json:"store"`
	Servers []trustServer `json:"servers"`
}

// trustServer is one server as repo trust shows it.
type trustServer struct {
	Server    string `json:"server"`
	Extension string `json:"extension"`
	// Status is how the server stood before this run: trusted, new,
	// changed, or gone (trusted, and no longer in the workspace).
	Status string `json:"status"`
	// Trusted is whether it is trusted after this run.
	Trusted bool `json:"trusted"`
	// Definition is the current one (none for a server gone);
	// TrustedDefinition the one trusted before, when it differs.
	Definition        *trust.Definition `json:"definition,omitempty"`
	TrustedDefinition *trust.Definition `json:"trusted_definition,omitempty"`
	// WorkspaceFiles are the files of the workspace its command and
	// arguments name, and whether git tracks each.
	WorkspaceFiles []workspaceFile `json:"workspace_files"`
	// Files are the tools' files outside the project scope it would reach.
	Files []reachedFile `json:"files"`
}

// workspaceFile is a file of the workspace that a server runs.
type workspaceFile struct {
	Path    string `json:"path"`
	Field   string `json:"field"`   // command, args[1]
	Tracked bool   `json:"tracked"` // git tracks it: a commit can change what runs
}

func trustRun(opts *TrustOptions) error {
	f := opts.F
	w, err := f.load(opts.Root)
	if err != nil {
		return err
	}
	if !opts.List {
		unlock, err := lockWorkspace(f, w)
		if err != nil {
			return err
		}
		defer unlock()
	}
	store, err := openTrust(w)
	if err != nil {
		return err
	}
	rep := trustReport{Version: 1, Mode: "trust", Root: w.Root, Store: w.Env.Display(store.File()), Servers: []trustServer{}}
	switch {
	case opts.List:
		rep.Mode = "list"
		return trustList(f, w, store, opts, rep)
	case opts.Revoke:
		rep.Mode = "revoke"
		return trustRevoke(f, w, store, opts, rep)
	}
	defs := trustgate.Definitions(w)
	names, err := trustNames(w, opts.Names)
	if err != nil {
		return err
	}
	reach, err := reachedFiles(w, opts, func(msg string) {
		fmt.Fprintf(f.IO.ErrOut, "%s %s\n", f.paint(f.IO.ErrOut, yellow, "warning:"), msg)
	})
	if err != nil {
		return err
	}
	shown := notYetTrusted(w, store, defs, names, reach)
	if err := markWorkspaceFiles(w, shown); err != nil {
		return err
	}
	if len(shown) == 0 {
		if opts.Output == "json" {
			return writeJSON(f, rep)
		}
		fmt.Fprintf(f.IO.ErrOut, "%s trusted on this machine (%s)\n", everyTrusted(len(names), len(opts.Names) > 0), rep.Store)
		return nil
	}
	ask := !opts.All && opts.Output != "json" && f.canAsk()
	decideTrust(f, opts, store, defs, shown, ask)
	if err := store.Save(w.Env.Display); err != nil {
		return err
	}
	rep.Servers = shown
	return reportTrust(f, opts, rep, ask)
}

// notYetTrusted is the named servers whose definition this machine has not
// trusted as it is, each with the files it would reach.
func notYetTrusted(w *workspace, store *trust.Store, defs map[string]trust.Definition, names []string, reach map[string][]reachedFile) []trustServer {
	var shown []trustServer
	for _, name := range names {
		d := defs[name]
		status, old := store.Check(name, d)
		if status == trust.Trusted {
			continue
		}
		s := w.Server(name)
		view := trustgate.Shown(*s, d)
		ts := trustServer{Server: name, Extension: s.Extension, Status: string(status), Definition: &view, TrustedDefinition: old,
			WorkspaceFiles: []workspaceFile{}, Files: reach[name]}
		if ts.Files == nil {
			ts.Files = []reachedFile{}
		}
		shown = append(shown, ts)
	}
	return shown
}

// decideTrust shows each server (text output) and trusts it in the store
// with --all, or when the user says yes on a terminal.
func decideTrust(f *Factory, opts *TrustOptions, store *trust.Store, defs map[string]trust.Definition, shown []trustServer, ask bool) {
	in := bufio.NewReader(f.IO.In)
	for i := range shown {
		ts := &shown[i]
		if opts.Output != "json" {
			printTrustServer(f, *ts)
		}
		switch {
		case opts.All:
			ts.Trusted = true
		case ask:
			ts.Trusted = askYes(f, in, fmt.Sprintf("trust %s? [y/N] ", termtext.Safe(ts.Server)))
		}
		if ts.Trusted {
			store.Trust(ts.Server, defs[ts.Server], *ts.Definition)
			for _, m := range store.Approved {
				delete(m, ts.Server) // seen and trusted: doctor's "predates a change" is answered
			}
		}
	}
}

// reportTrust prints what was trusted and what was not, and fails the run
// (errUntrustedShown) when a shown server stays untrusted.
func reportTrust(f *Factory, opts *TrustOptions, rep trustReport, ask bool) error {
	untrusted := 0
	for _, ts := range rep.Servers {
		if !ts.Trusted {
			untrusted++
		}
	}
	if opts.Output == "json" {
		if err := writeJSON(f, rep); err != nil {
			return err
		}
	} else {
		for _, ts := range rep.Servers {
			if ts.Trusted {
				fmt.Fprintf(f.IO.ErrOut, "%s %s\n", f.paint(f.IO.ErrOut, green, "trusted"), termtext.Safe(ts.Server))
			}
		}
		if untrusted > 0 {
			why := "not trusted"
			if !opts.All && !ask {
				why = "not trusted: repo trust asks only on a terminal; after reviewing what is shown, 'repo trust --all' trusts it"
			}
			fmt.Fprintf(f.IO.ErrOut, "%d %s %s\n", untrusted, plural(untrusted, "server", "servers"), why)
		}
	}
	if untrusted > 0 {
		return errUntrustedShown
	}
	return nil
}

// everyTrusted is the sentence for a run with nothing to show.
func everyTrusted(n int, named bool) string {
	switch {
	case n == 0:
		return "no extension declares an MCP server; nothing to trust"
	case named:
		return fmt.Sprintf("%s already", plural(n, "that server is", "those servers are"))
	}
	return fmt.Sprintf("every server of this workspace (%d) is", n)
}

// trustNames are the servers named (each must be the workspace's), or
// every server of the workspace, in its order.
func trustNames(w *workspace, named []string) ([]string, error) {
	var all []string
	for _, s := range w.WS.Servers {
		all = append(all, s.Name)
	}
	if len(named) == 0 {
		return all, nil
	}
	for _, n := range named {
		if !slices.Contains(all, n) {
			return nil, usagef("%s: the workspace declares no server of that name (its servers: %s)", termtext.Safe(n), safeNames(all))
		}
	}
	return named, nil
}

func safeNames(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = termtext.Safe(n)
	}
	return strings.Join(out, ", ")
}

// reachedFiles are, per server, the files of the local and user scopes
// (or opts.Scope) that a sync of the tools selected as repo sync selects
// them (or opts.Tools) would write it into.
func reachedFiles(w *workspace, opts *TrustOptions, warn func(string)) (map[string][]reachedFile, error) {
	out := map[string][]reachedFile{}
	scopes := []string{toolprofiles.ScopeLocal, toolprofiles.ScopeUser}
	if opts.Scope != "" {
		scopes = []string{opts.Scope}
	}
	for _, scope := range scopes {
		ids := splitIDs(opts.Tools)
		if len(ids) > 0 && opts.Scope == "" {
			// Both scopes shown: each tool in the scopes it has.
			ids = slices.DeleteFunc(ids, func(id string) bool {
				p := w.Profiles.Get(id)
				return p != nil && (p.Scopes.Get(scope) == nil || toolsel.NoPathHere(p, scope, w))
			})
			if len(ids) == 0 {
				continue
			}
		}
		sel, err := selectTools(w, ids, scope)
		if err != nil {
			return nil, err
		}
		targets, _, err := target.Build(w.WS.Servers, sel.Profiles, target.Scope(scope), w.Env)
		if err != nil {
			// A tool that cannot take a server as written: repo sync refuses
			// it; what the user trusts is the server, whatever the files.
			warn(fmt.Sprintf("the %s-scope files are not shown: %v", scope, err))
			continue
		}
		for _, t := range targets {
			for _, e := range t.Entries {
				out[e.Name] = append(out[e.Name], reachedFile{Path: t.Display, Scope: scope, Tools: slices.Clone(t.Tools)})
			}
		}
	}
	return out, nil
}

// markWorkspaceFiles fills in the files of the workspace that each server
// runs — its command, and the arguments that name a file there — and asks
// git, once, which of them it tracks.
func markWorkspaceFiles(w *workspace, servers []trustServer) error {
	var paths []string
	for i := range servers {
		d := servers[i].Definition
		if d == nil || d.Command == "" {
			continue
		}
		add := func(field, p string) {
			if !filepath.IsAbs(p) || !serverpaths.Under(w.Root, p) {
				return
			}
			if fi, err := os.Stat(p); err != nil || fi.IsDir() {
				return
			}
			servers[i].WorkspaceFiles = append(servers[i].WorkspaceFiles, workspaceFile{Path: p, Field: field})
			paths = append(paths, p)
		}
		add("command", d.Command)
		for j, a := range d.Args {
			add(fmt.Sprintf("args[%d]", j), a)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	top, ok := gittrack.Top(w.Root)
	var tracked map[string]bool
	if ok {
		var err error
		if tracked, err = gittrack.Tracked(top, paths); err != nil {
			return err
		}
	}
	for i := range servers {
		for j := range servers[i].WorkspaceFiles {
			wf := &servers[i].WorkspaceFiles[j]
			wf.Tracked = tracked[wf.Path]
			wf.Path = w.Env.Display(wf.Path)
		}
	}
	return nil
}

// printTrustServer shows one server for review, on stdout: its definition
// (or, when it changed, the diff from the one trusted), the workspace
// files it runs, and the files it would reach.
func printTrustServer(f *Factory, ts trustServer) {
	out := f.IO.Out
	fmt.Fprintf(out, "%s (extension %s): %s\n", termtext.Safe(ts.Server), termtext.Safe(ts.Extension), statusWords(ts.Status))
	if ts.TrustedDefinition != nil {
		for _, l := range trust.Diff(*ts.TrustedDefinition, *ts.Definition) {
			line := "  " + l.String()
			switch l.Op {
			case '-':
				line = f.paint(out, red, line)
			case '+':
				line = f.paint(out, green, line)
			}
			fmt.Fprintln(out, line)
		}
	} else {
		for _, l := range ts.Definition.Lines() {
			fmt.Fprintln(out, "    "+l)
		}
	}
	for _, wf := range ts.WorkspaceFiles {
		state := "not tracked by git"
		if wf.Tracked {
			state = "tracked by git: a commit can change what runs"
		}
		fmt.Fprintf(out, "  %s is a file in the workspace: %s (%s)\n", wf.Field, termtext.Safe(wf.Path), state)
	}
	if len(ts.Files) == 0 {
		fmt.Fprintln(out, "  would reach no file of the tools selected on this machine (local and user scopes)")
	}
	for _, rf := range ts.Files {
		fmt.Fprintf(out, "  would reach %s\n", termtext.Safe(rf.String()))
	}
}

// askYes asks a question on stderr and reads the answer: yes only for y or
// yes.
func askYes(f *Factory, in *bufio.Reader, question string) bool {
	fmt.Fprint(f.IO.ErrOut, question)
	line, err := in.ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(f.IO.ErrOut)
		return false
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}

// canAsk reports whether repo may ask the user a question: both the input
// and the error stream are terminals. A pipe, a file, CI: never.
func (f *Factory) canAsk() bool {
	in, ok := f.IO.In.(io.Writer)
	if !ok {
		return false
	}
	term := f.IsTerminal
	if term == nil {
		term = charDevice
	}
	return term(in) && term(f.IO.ErrOut)
}

// charDevice reports whether w is a terminal (a character device).
func charDevice(w io.Writer) bool {
	file, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := file.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// trustList lists every server of the workspace, and those trusted that
// it no longer has.
func trustList(f *Factory, w *workspace, store *trust.Store, opts *TrustOptions, rep trustReport) error {
	defs := trustgate.Definitions(w)
	for _, s := range w.WS.Servers {
		d := defs[s.Name]
		status, old := store.Check(s.Name, d)
		shown := trustgate.Shown(s, d)
		rep.Servers = append(rep.Servers, trustServer{Server: s.Name, Extension: s.Extension, Status: string(status),
			Trusted: status == trust.Trusted, Definition: &shown, TrustedDefinition: old, WorkspaceFiles: []workspaceFile{}, Files: []reachedFile{}})
	}
	for _, name := range store.Names() {
		if w.Server(name) == nil {
			old := store.Trusted[name].Definition
			rep.Servers = append(rep.Servers, trustServer{Server: name, Extension: old.Extension, Status: string(trust.Gone),
				Trusted: true, TrustedDefinition: &old, WorkspaceFiles: []workspaceFile{}, Files: []reachedFile{}})
		}
	}
	if opts.Output == "json" {
		return writeJSON(f, rep)
	}
	if len(rep.Servers) == 0 {
		fmt.Fprintf(f.IO.ErrOut, "no extension declares an MCP server, and nothing is trusted (%s)\n", rep.Store)
		return nil
	}
	for _, ts := range rep.Servers {
		d := ts.Definition
		if d == nil {
			d = ts.TrustedDefinition
		}
		label := map[string]string{string(trust.Trusted): "trusted", string(trust.New): "not trusted", string(trust.Changed): "changed", string(trust.Gone): "trusted, gone"}[ts.Status]
		fmt.Fprintf(f.IO.Out, "%-13s %s (extension %s): %s\n", label, termtext.Safe(ts.Server), termtext.Safe(ts.Extension), d.Summary())
	}
	return nil
}

// trustRevoke forgets the trust of the servers named, or of every one.
func trustRevoke(f *Factory, w *workspace, store *trust.Store, opts *TrustOptions, rep trustReport) error {
	names := opts.Names
	if opts.All {
		names = store.Names()
	}
	var unknown []string
	for _, n := range names {
		if _, ok := store.Trusted[n]; !ok {
			unknown = append(unknown, termtext.Safe(n))
		}
	}
	if len(unknown) > 0 {
		return usagef("%s: not trusted in this workspace (trusted: %s)", strings.Join(unknown, ", "), safeNames(store.Names()))
	}
	defs := trustgate.Definitions(w)
	for _, n := range names {
		old := store.Trusted[n].Definition
		status := string(trust.Gone)
		ts := trustServer{Server: n, Extension: old.Extension, WorkspaceFiles: []workspaceFile{}, Files: []reachedFile{}}
		if d, ok := defs[n]; ok {
			st, _ := store.Check(n, d)
			status = string(st)
			shown := trustgate.Shown(*w.Server(n), d)
			ts.Definition = &shown
		}
		if status != string(trust.Trusted) {
			ts.TrustedDefinition = &old
		}
		ts.Status = status
		store.Revoke(n)
		rep.Servers = append(rep.Servers, ts)
	}
	if err := store.Save(w.Env.Display); err != nil {
		return err
	}
	if opts.Output == "json" {
		return writeJSON(f, rep)
	}
	if len(names) == 0 {
		fmt.Fprintln(f.IO.ErrOut, "nothing was trusted in this workspace")
	}
	for _, n := range names {
		fmt.Fprintf(f.IO.ErrOut, "revoked %s: repo sync writes it outside the workspace only after repo trust again (what it wrote stays until then; repo forget removes it)\n", termtext.Safe(n))
	}
	return nil
}
