package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/credential"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/runner"
	toolsel "github.com/repo-manager/repo/internal/selection"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/teampolicy"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/internal/trust"
	"github.com/repo-manager/repo/internal/trustgate"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/translator"
)

// MCPImportOptions are the flags of repo mcp import.
type MCPImportOptions struct {
	F         *Factory
	Tool      string
	Scope     string
	Extension string
	Servers   []string
	DryRun    bool
	// ShowSecrets prints diffs whole: the user's credentials unredacted.
	ShowSecrets bool
	Portable    bool
	// PortableSet: --portable was given (=false too).
	PortableSet bool
	Root        string
	Output      string
}

func newMCPImportCmd(f *Factory, runF func(*MCPImportOptions) error) *cobra.Command {
	opts := &MCPImportOptions{F: f}
	cmd := &cobra.Command{
		Use:   "import --tool ID --extension NAME",
		Short: "Make a new extension of your own servers in a tool's config",
		Long: `Turn your own entries in one tool's config file into a new extension,
.repository/extensions/NAME/ (extension.toml and mcp.json), in the neutral MCP
file format: environment references stay references, paths in the workspace
become <<root>>/…, paths in your home folder <<home>>/…. The entries then
belong to repo, as if repo sync had written them: the next repo sync changes
nothing in that file, and writes the servers into your other tools.

Every entry of yours is imported (entries repo manages are skipped), or those
named with --server. Nothing is written, and the exit code is 2, when the
extension folder exists, a name is already declared by another extension, an
entry holds what looks like a literal credential, or an entry has anything the
MCP file cannot say as the tool means it.`,
		Example: `  $ repo mcp import --tool claude --extension team
  $ repo mcp import --tool codex --scope user --extension tools --server fetch
  $ repo mcp import --tool opencode --extension team --dry-run   # the new files and changes as a diff`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			opts.PortableSet = c.Flags().Changed("portable")
			switch {
			case opts.Tool == "":
				return usagef("--tool is required: the tool whose config holds your servers (see repo tools)")
			case strings.Contains(opts.Tool, ","):
				return usagef("--tool %q: import from one tool at a time", opts.Tool)
			case opts.Extension == "":
				return usagef("--extension is required: the name of the new extension")
			}
			if err := checkScope(opts.Scope); err != nil {
				return err
			}
			if err := checkOutput(opts.Output); err != nil {
				return err
			}
			if err := extensions.CheckNewName(opts.Extension); err != nil {
				return usagef("--extension %v", err)
			}
			if runF != nil {
				return runF(opts)
			}
			return mcpImportRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Tool, "tool", "", "the tool whose config file holds the servers (see repo tools)")
	fl.StringVar(&opts.Scope, "scope", toolprofiles.ScopeProject, "project, local or user: which of the tool's files")
	fl.StringVar(&opts.Extension, "extension", "", "name of the new extension (.repository/extensions/NAME)")
	fl.StringSliceVar(&opts.Servers, "server", nil, "import only this entry (repeatable or comma-separated); default: all of yours")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "write nothing; print the new files and the changes as a unified diff")
	addShowSecretsFlag(cmd, &opts.ShowSecrets)
	fl.BoolVar(&opts.Portable, "portable", false, "as for repo sync --portable: a tool's workspace variable instead of the root (also [mcp] portable; the default in git)")
	fl.StringVar(&opts.Root, "root", "", "workspace root")
	fl.StringVarP(&opts.Output, "output", "o", "text", "text or json")
	return cmd
}

// importPlan is one attempt's plan: what is imported, and every file the
// import writes.
type importPlan struct {
	source   string // the tool's file, as shown
	imported []importedServer
	servers  []extensions.Server // the imported servers, as the new extension declares them
	skipped  []skippedEntry
	warnings []string
	plan     *plan.Plan // the new extension's files first, then the sync's
}

func mcpImportRun(opts *MCPImportOptions) error {
	f := opts.F
	w, err := f.load(opts.Root)
	if err != nil {
		return err
	}
	sel, err := selectTools(w, []string{opts.Tool}, opts.Scope)
	if err != nil {
		return err
	}
	if _, err := loadPolicy(w, flagPointer(opts.PortableSet, opts.Portable), nil); err != nil {
		return err
	}
	// The workspace's lock, and those of the tool's per-user file (the
	// runner takes them, as for a sync).
	timeout, err := lockTimeout(f)
	if err != nil && !opts.DryRun {
		return err
	}
	var locked []*target.Target
	if !opts.DryRun {
		f.catchSignals()
		unlock, err := f.locking(timeout).Workspace(w.Env)
		if err != nil {
			return err
		}
		defer unlock()
		if locked, _, err = target.Build(nil, sel.Profiles[:1], target.Scope(opts.Scope), w.Env); err != nil {
			return err
		}
	}
	ip, p, err := runImport(f, w, sel, opts, locked, timeout)
	if err != nil {
		return err
	}
	defer p.Close()
	ip.warnings = append(ip.warnings, p.Warnings...)
	if !opts.DryRun && userScope(opts.Scope) {
		// What the user had in their own local or user file, they trust:
		// the next sync writes it into their other tools' files too.
		if err := trustImported(w, ip.servers); err != nil {
			ip.warnings = append(ip.warnings, "the imported servers are not recorded as trusted ("+err.Error()+"): run repo trust before syncing them into your other tools' local or user files")
		}
	}
	res := newImportResult(f, w, sel, ip, opts)
	if opts.Output == "json" {
		return writeJSON(f, res)
	}
	printImport(f, res)
	return nil
}

// runImport plans the import and, unless it is a dry run, writes it,
// under the locks of the locked targets. The plan it returns is the
// caller's to close. On failure it prints the files written before the
// failure, as a sync does.
func runImport(f *Factory, w *workspace, sel *selection, opts *MCPImportOptions, locked []*target.Target, timeout time.Duration) (*importPlan, *plan.Plan, error) {
	// As for sync: a tool that rewrites its file between the read and the
	// write makes the whole import be planned again from the new file.
	var ip *importPlan
	run := runner.Run{Env: w.Env, Targets: locked, Write: !opts.DryRun, Locking: f.locking(timeout), Interrupt: f.interrupt(!opts.DryRun),
		Plan: func() (*plan.Plan, error) {
			var err error
			if ip, err = planImport(f, w, sel.Profiles[0], opts); err != nil {
				return nil, err
			}
			return ip.plan, nil
		}}
	if userScope(opts.Scope) {
		// The imported servers came from the user's own file; any other
		// server of the workspace the import writes there needs the
		// user's trust, as for repo sync.
		run.Gate = func(p *plan.Plan) error {
			imported := func(name string) bool {
				return slices.ContainsFunc(ip.imported, func(s importedServer) bool { return s.Name == name })
			}
			return trustGate(w, p, imported, fmt.Sprintf("repo mcp import --tool %s --scope %s --extension %s", opts.Tool, opts.Scope, opts.Extension))
		}
	}
	p, _, err := run.Do()
	if err != nil {
		if p != nil {
			p.Close()
		}
		var failed *runner.Failed
		if errors.As(err, &failed) {
			for _, fp := range failed.Written {
				fr := newFileResult(fp, statusWritten, false, false)
				fmt.Fprintf(f.IO.ErrOut, "%s %s (%s): %s\n", f.paint(f.IO.ErrOut, green, wroteVerb(fr)), termtext.Safe(fr.Path), who(fr), summary(fr.Changes))
			}
			err = failed.Err
		}
		return nil, nil, f.interrupts.stopped(err)
	}
	return ip, p, nil
}

// newImportResult is the report of a planned (and, unless a dry run,
// written) import: what was imported and skipped, every file with its
// status, and the warnings of the selection, the environment and the
// plan, each once.
func newImportResult(f *Factory, w *workspace, sel *selection, ip *importPlan, opts *MCPImportOptions) importResult {
	res := importResult{Version: 1, Mode: "import", Root: w.Root, Tool: opts.Tool, Scope: opts.Scope, Source: ip.source,
		Extension: opts.Extension, Folder: w.Env.Display(extensions.Dir(w.Root, opts.Extension)),
		Imported: ip.imported, Skipped: ip.skipped, Files: []fileResult{}, Warnings: []string{}}
	if opts.DryRun {
		res.Mode = "dry-run"
	}
	if res.Skipped == nil {
		res.Skipped = []skippedEntry{}
	}
	for _, n := range sel.Notes {
		res.Warnings = appendUnique(res.Warnings, n)
	}
	for _, v := range f.host().IgnoredVars(w.Env, sel.Profiles, opts.Scope, nil) {
		res.Warnings = appendUnique(res.Warnings, v.Name+": "+v.Message())
	}
	for _, s := range ip.warnings {
		res.Warnings = appendUnique(res.Warnings, s)
	}
	for _, fp := range ip.plan.Files {
		status := statusUnchanged
		switch {
		case fp.Changed() && opts.DryRun:
			status = statusStale
		case fp.Changed():
			status = statusWritten
		}
		res.Files = append(res.Files, newFileResult(fp, status, status == statusStale, opts.ShowSecrets))
	}
	return res
}

// planImport reads the tool's file, makes the new extension of the chosen
// entries, and plans the sync that takes them over: the extension's files
// first, then the tool's file and the ownership record as repo sync would
// leave them with that extension installed.
func planImport(f *Factory, w *workspace, p *toolprofiles.Profile, opts *MCPImportOptions) (*importPlan, error) {
	name := opts.Extension
	dir := extensions.Dir(w.Root, name)
	if err := checkNewExtension(w, dir); err != nil {
		return nil, err
	}
	targets, _, err := target.Build(nil, []*toolprofiles.Profile{p}, target.Scope(opts.Scope), w.Env)
	if err != nil {
		return nil, err
	}
	t := targets[0]
	ip := &importPlan{source: t.Display}
	entries, err := plan.ReadEntries(w.Env, t)
	if err != nil {
		return nil, err
	}
	picked, err := pickEntries(ip, t, entries, splitIDs(opts.Servers))
	if err != nil {
		return nil, err
	}
	if err := checkImportNames(w, t, picked); err != nil {
		return nil, err
	}

	lo := extensions.Options{Root: w.Root, Home: f.Home(), GOOS: f.GOOS}
	ctx := extensions.DraftContext(lo, name)
	nopts := translator.NeutralOptions{Root: w.Root, Home: f.Home(), Python: ctx.Python(), GOOS: w.Env.GOOS}
	mcpDisplay := w.Env.Display(filepath.Join(dir, extensions.MCPFileName))
	decls, err := neutralDeclarations(ip, w, t, p, picked, nopts, mcpDisplay)
	if err != nil {
		return nil, err
	}

	manifest := extensions.RenderManifest(name, fmt.Sprintf("Imported by repo mcp import from %s (%s, %s scope).", oneLine(t.Display), p.Name, opts.Scope))
	mcp := extensions.RenderMCPFile(decls)
	draft, err := extensions.Draft(lo, name, manifest, mcp)
	if err != nil {
		return nil, fmt.Errorf("the new extension does not read back (a bug in repo): %w", err)
	}
	if err := checkFaithful(w, p, draft.Servers, ctx, nopts, t); err != nil {
		return nil, err
	}
	for _, s := range draft.Servers {
		ip.imported = append(ip.imported, importedServer{Name: s.Name, Transport: s.Transport})
		ip.servers = append(ip.servers, s)
	}

	pl, err := planTakeover(ip, w, p, opts.Scope, draft.Servers, picked)
	if err != nil {
		return nil, err
	}
	pl.Files = append(newExtensionFiles(w, dir, manifest, mcp, decls), pl.Files...)
	ip.plan = pl
	return ip, nil
}

// checkImportNames refuses entries whose names the new extension cannot
// declare: names another extension declares would make the workspace
// invalid, and unprintable ones would keep the extension from loading.
func checkImportNames(w *workspace, t *target.Target, picked []plan.Entry) error {
	declared := map[string]extensions.Server{}
	for _, s := range w.WS.Servers {
		declared[s.Name] = s
	}
	var errs []error
	for _, e := range picked {
		if err := termtext.Check(e.Name); err != nil {
			// An extension declaring it would not load (its names are
			// printed, and must be printable).
			errs = append(errs, fmt.Errorf("%s: server %q: an extension's server names must be printable (%v); rename the entry, or import the others with --server", at(t, e), e.Name, err))
			continue
		}
		if s, ok := declared[e.Name]; ok {
			errs = append(errs, fmt.Errorf("%s: server %q: extension %s declares a server of that name (%s:%d); rename your entry, or import the others with --server",
				at(t, e), e.Name, s.Extension, termtext.Safe(s.Source), s.Line))
		}
	}
	return errors.Join(errs...)
}

// neutralDeclarations says the picked entries in the neutral format, as
// the new extension's MCP file (shown as mcpDisplay) declares them. It
// refuses what that file cannot say, and literal credentials, which would
// be committed with it; the translator's warnings go to ip.
func neutralDeclarations(ip *importPlan, w *workspace, t *target.Target, p *toolprofiles.Profile, picked []plan.Entry, nopts translator.NeutralOptions, mcpDisplay string) ([]extensions.Declaration, error) {
	var decls []extensions.Declaration
	var errs []error
	for _, e := range picked {
		spec, warnings, err := translator.Neutral(e.Name, e.Value, p, nopts)
		// What the translator quotes of the entry is the user's: a
		// credential in it stays out of the message.
		secrets := target.SecretStrings(e.Value)
		for _, tw := range warnings {
			ip.warnings = append(ip.warnings, target.HideSecrets(tw.String(), secrets))
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", at(t, e), hiddenError{err, secrets}))
			continue
		}
		if err := unprintable(spec); err != nil {
			errs = append(errs, fmt.Errorf("%s: server %q: %v, which an extension's MCP file cannot hold; leave the server out (--server)", at(t, e), e.Name, err))
			continue
		}
		if p.Entry.RootVar != "" && !w.Env.Portable && bytes.Contains(e.Value, []byte(p.Entry.RootVar)) {
			ip.warnings = append(ip.warnings, fmt.Sprintf("%s: server %q: %s is imported as <<root>>, which repo writes as the absolute workspace root unless configs are committed: pass --portable, or set [mcp] portable = true, to keep %s in the file",
				p.ID, e.Name, p.Entry.RootVar, p.Entry.RootVar))
		}
		seen := map[string]bool{}
		for _, lit := range target.LiteralSecrets(extensions.Server{Name: e.Name, Spec: spec}) {
			if !seen[lit.Field] { // one error per field, however many it holds
				seen[lit.Field] = true
				errs = append(errs, secretError(t, p, e, spec, lit, mcpDisplay))
			}
		}
		decls = append(decls, extensions.Declaration{Name: e.Name, Spec: spec})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return decls, nil
}

// checkFaithful checks that each server as repo will write it reads back
// as the same server: else the import would change what the tool starts.
func checkFaithful(w *workspace, p *toolprofiles.Profile, servers []extensions.Server, ctx extensions.Context, nopts translator.NeutralOptions, t *target.Target) error {
	var errs []error
	for _, s := range servers {
		if err := faithful(w, p, s, ctx, nopts, t); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// planTakeover plans the sync that takes the entries over: every server
// of the workspace with the new extension's, in the order Load gives
// them, for this tool and scope, adopting exactly the picked entries.
func planTakeover(ip *importPlan, w *workspace, p *toolprofiles.Profile, scope string, drafted []extensions.Server, picked []plan.Entry) (*plan.Plan, error) {
	servers := append(slices.Clone(w.WS.Servers), drafted...)
	sort.SliceStable(servers, func(i, j int) bool { return servers[i].Extension < servers[j].Extension })
	targets, twarn, err := target.Build(servers, []*toolprofiles.Profile{p}, target.Scope(scope), w.Env)
	if err != nil {
		return nil, err
	}
	for _, tw := range twarn {
		ip.warnings = appendUnique(ip.warnings, tw.String())
	}
	names := make([]string, len(picked))
	for i, e := range picked {
		names[i] = e.Name
	}
	// The workspace's .gitignore block follows the new servers, as the
	// sync after the import would have it.
	ignore, err := teampolicy.IgnoreBlock(w, servers, &selection{Source: toolsel.FromFlag}, targets, scope)
	if err != nil {
		return nil, err
	}
	pl, err := plan.Build(w.Env, targets, plan.Options{AdoptNames: names, Ignore: ignore})
	if err != nil {
		return nil, err
	}
	ip.warnings = append(ip.warnings, pl.Warnings...)
	return pl, nil
}

// newExtensionFiles are the plans of the new extension's two files, in
// dir: its manifest, and its MCP file with one added entry per import.
func newExtensionFiles(w *workspace, dir string, manifest, mcp []byte, decls []extensions.Declaration) []*plan.FilePlan {
	var mcpChanges []plan.Change
	for _, d := range decls {
		mcpChanges = append(mcpChanges, plan.Change{Action: plan.ActionAdd, Entry: d.Name, Reason: reasonImported})
	}
	newFile := func(base string, data []byte, changes []plan.Change) *plan.FilePlan {
		path := filepath.Join(dir, base)
		return &plan.FilePlan{Path: path, Display: w.Env.Display(path), Scope: scopeExtension, Tools: []string{},
			After: data, Mode: 0o666, Changes: changes}
	}
	return []*plan.FilePlan{
		newFile("extension.toml", manifest, []plan.Change{{Action: plan.ActionAdd, Reason: reasonNewExtension}}),
		newFile(extensions.MCPFileName, mcp, mcpChanges),
	}
}

// hiddenError is an error about a user's entry with the entry's
// credentials kept out of its text.
type hiddenError struct {
	err     error
	secrets []string
}

func (e hiddenError) Error() string { return target.HideSecrets(e.err.Error(), e.secrets) }
func (e hiddenError) Unwrap() error { return e.err }

// Scope and reasons of the new extension's files in the output.
const (
	scopeExtension     = "extension"
	reasonNewExtension = "new extension"
	reasonImported     = "imported entry"
)

// unprintable says which env or header name, URL or header value of spec
// an MCP file refuses (extensions: it must be printable), or nil.
func unprintable(spec extensions.Spec) error {
	for _, kv := range spec.Env {
		if err := termtext.Check(kv.Key); err != nil {
			return fmt.Errorf("env name %s: %v", termtext.Safe(kv.Key), err)
		}
	}
	for _, kv := range spec.Headers {
		if err := termtext.Check(kv.Key); err != nil {
			return fmt.Errorf("header name %s: %v", termtext.Safe(kv.Key), err)
		}
		if err := termtext.Check(kv.Value); err != nil {
			return fmt.Errorf("header %s: %v", kv.Key, err)
		}
	}
	if err := termtext.Check(spec.URL); err != nil {
		return fmt.Errorf("url: %v", err)
	}
	return nil
}

// checkNewExtension refuses an extension folder that exists: an import
// creates an extension and never edits one. A folder holding nothing but
// the default venv is new still: the venv can be made before the import,
// so that entries running its python import as python.
func checkNewExtension(w *workspace, dir string) error {
	display := termtext.Safe(w.Env.Display(dir))
	refuse := fmt.Errorf("%s already exists; repo mcp import creates a new extension and never changes an existing one: choose another --extension name (to add servers to an extension, edit its MCP file)", display)
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%s: %w", display, err)
	case !fi.IsDir():
		return refuse
	}
	list, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", display, err)
	}
	for _, e := range list {
		if e.Name() != extensions.DefaultVenv || !e.IsDir() {
			return refuse
		}
	}
	return nil
}

// pickEntries chooses the entries to import: those named, else every entry
// of the user's; entries repo manages are skipped (noted), or refused when
// named.
func pickEntries(ip *importPlan, t *target.Target, entries []plan.Entry, names []string) ([]plan.Entry, error) {
	var picked []plan.Entry
	var errs []error
	if len(names) > 0 {
		for _, name := range names {
			i := slices.IndexFunc(entries, func(e plan.Entry) bool { return e.Name == name })
			switch {
			case i < 0:
				var have []string
				for _, e := range entries {
					if e.Owner == "" {
						have = append(have, fmt.Sprintf("%q", e.Name))
					}
				}
				list := "it has none of yours"
				if len(have) > 0 {
					list = "yours there: " + strings.Join(have, ", ")
				}
				errs = append(errs, fmt.Errorf("--server %s: %s has no entry %q (%s)", termtext.Safe(name), termtext.Safe(t.Display), name, list))
			case entries[i].Owner != "":
				errs = append(errs, fmt.Errorf("--server %s: %s: entry %q is managed by repo (extension %s): it belongs to an extension already", termtext.Safe(name), at(t, entries[i]), name, termtext.Safe(entries[i].Owner)))
			default:
				picked = append(picked, entries[i])
			}
		}
		if len(errs) > 0 {
			return nil, usageError{errors.Join(errs...)}
		}
		return picked, nil
	}
	for _, e := range entries {
		if e.Owner != "" {
			ip.skipped = append(ip.skipped, skippedEntry{Name: e.Name, Extension: e.Owner, Reason: "managed by repo"})
			continue
		}
		picked = append(picked, e)
	}
	if len(picked) == 0 {
		switch {
		case len(entries) > 0:
			return nil, fmt.Errorf("%s: no entries of yours to import: the %d there are managed by repo", termtext.Safe(t.Display), len(entries))
		default:
			return nil, fmt.Errorf("%s: no servers to import (the file has none, or does not exist)", termtext.Safe(t.Display))
		}
	}
	return picked, nil
}

// faithful checks that the imported server s, written for the tool as the
// sync will write it, reads back as s: the neutral format said the entry
// as the tool means it.
func faithful(w *workspace, p *toolprofiles.Profile, s extensions.Server, ctx extensions.Context, nopts translator.NeutralOptions, t *target.Target) error {
	fail := func(why string) error {
		return fmt.Errorf("%s: %s: server %q cannot be imported as it is: %s; leave it out (--server)", termtext.Safe(t.Display), p.ID, s.Name, why)
	}
	res := translator.TranslateWith(s, p, translator.Options{Portable: w.Env.Portable, Root: w.Root, GOOS: w.Env.GOOS})
	if res.Err != nil {
		return fail(res.Err.Error())
	}
	if res.Entry == nil {
		return fail(fmt.Sprintf("%s could not be given the server as an extension declares it", p.Name))
	}
	entry := ordered.JSON(res.Entry)
	back, _, err := translator.Neutral(s.Name, entry, p, nopts)
	var again extensions.Server
	if err == nil {
		again, err = extensions.Resolve(extensions.Declaration{Name: s.Name, Spec: back}, ctx, s.Extension, s.Source)
	}
	if err != nil || !sameServer(again.Spec, s.Spec) {
		return fail(fmt.Sprintf("repo would write it as %s, which is not the same server", termtext.Safe(string(entry))))
	}
	return nil
}

// sameServer compares two resolved servers; env and headers as maps.
func sameServer(a, b extensions.Spec) bool {
	norm := func(s extensions.Spec) extensions.Spec {
		for _, kvs := range []*[]extensions.KV{&s.Env, &s.Headers} {
			sorted := slices.Clone(*kvs)
			slices.SortFunc(sorted, func(x, y extensions.KV) int { return strings.Compare(x.Key, y.Key) })
			if len(sorted) == 0 {
				sorted = nil
			}
			*kvs = sorted
		}
		if len(s.Args) == 0 {
			s.Args = nil
		}
		return s
	}
	return reflect.DeepEqual(norm(a), norm(b))
}

// secretError refuses to import a literal credential into the committed
// extension: it names the entry's place, the field and what it looks like
// (never the value), and says what to write instead — the tool's own
// reference syntax where it has one in that field (the import turns it
// into ${NAME}), else the tool's own way to take the value from the
// environment.
func secretError(t *target.Target, p *toolprofiles.Profile, e plan.Entry, spec extensions.Spec, lit target.Literal, mcp string) error {
	kind, _, _ := strings.Cut(lit.Field, ".")
	kind, _, _ = strings.Cut(kind, "[")
	member := lit.String()
	variable := credential.VarName(lit.Name)
	value := fieldValue(spec, kind, lit)
	// What the reference replaces: the whole value, or the part of it
	// that holds the credential. A variable's whole value comes from the
	// environment as it is.
	place := "in place of the credential"
	switch {
	case lit.Rule == credential.RuleDefault:
		variable, place = lit.Name, "in place of the whole reference, without its default"
	case kind == "env":
		variable, place = lit.Key, "in its place"
	case lit.Start == 0 && lit.End == len(value):
		place = "in its place"
	case lit.Rule == credential.RuleURLPass:
		place = "in place of the password in the URL"
	case lit.Rule == credential.RuleURLQuery:
		place = "in place of the query parameter's value"
	}
	switch {
	case kind == "env" || lit.Rule == credential.RuleDefault:
	case kind == "headers":
		variable = envName(lit.Key)
	case lit.Rule == credential.RuleURLPass:
		variable = credential.VarName(e.Name + "_PASSWORD")
	case lit.Name == "":
		variable = credential.VarName(e.Name + "_TOKEN")
	}
	e2 := &p.Entry
	var how string
	switch {
	case e2.ExpandsRefsIn(kind):
		how = fmt.Sprintf("write %s (%s's reference) %s", strings.Replace(e2.EnvRef, "NAME", variable, 1), p.Name, place)
	case kind == "env" && e2.EnvForward != "" && lit.Rule != credential.RuleDefault:
		how = fmt.Sprintf("remove it from %s and list %s in %s (%s passes it on from its environment)", e2.EnvField, variable, e2.EnvForward, p.Name)
	case kind == "headers" && e2.Remote != nil && e2.Remote.BearerEnvField != "" && strings.EqualFold(lit.Key, "Authorization") && strings.HasPrefix(value, "Bearer "):
		how = fmt.Sprintf("replace the header with %s = %q", e2.Remote.BearerEnvField, variable)
	case kind == "headers" && e2.Remote != nil && e2.Remote.EnvHeadersField != "":
		how = fmt.Sprintf("move the header to %s as %q = %q", e2.Remote.EnvHeadersField, lit.Key, variable)
	default:
		how = fmt.Sprintf("take it out of the entry (%s has no reference there), and after the import write ${%s} %s in %s", p.Name, variable, place, mcp)
	}
	return fmt.Errorf("%s: server %q: %s holds what looks like a literal credential (%s), and repo does not copy one into %s, which is committed: set %s in your environment and %s, then import again; or leave the server out (--server)",
		at(t, e), e.Name, member, lit.What, mcp, variable, how)
}

// fieldValue is the value of a server's field that holds lit.
func fieldValue(spec extensions.Spec, kind string, lit target.Literal) string {
	switch kind {
	case "command":
		return spec.Command
	case "cwd":
		return spec.Cwd
	case "url":
		return spec.URL
	case "args":
		var i int
		if _, err := fmt.Sscanf(lit.Field, "args[%d]", &i); err == nil && i < len(spec.Args) {
			return spec.Args[i]
		}
	case "env", "headers":
		kvs := spec.Env
		if kind == "headers" {
			kvs = spec.Headers
		}
		for _, kv := range kvs {
			if kv.Key == lit.Key {
				return kv.Value
			}
		}
	}
	return ""
}

// envName makes a variable name of a header name: X-Api-Key → X_API_KEY.
func envName(header string) string {
	if strings.EqualFold(header, "Authorization") {
		return "AUTH_TOKEN"
	}
	b := []byte(strings.ToUpper(header))
	for i, c := range b {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	return string(b)
}

// at is an entry's place in its file.
func at(t *target.Target, e plan.Entry) string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d", termtext.Safe(t.Display), e.Line)
	}
	return termtext.Safe(t.Display)
}

func oneLine(s string) string { return strings.NewReplacer("\n", " ", "\r", " ").Replace(s) }

func printImport(f *Factory, res importResult) {
	errOut := f.IO.ErrOut
	for _, s := range res.Skipped {
		fmt.Fprintf(errOut, "note: %s: entry %q is managed by repo (extension %s); skipped\n", termtext.Safe(res.Source), s.Name, termtext.Safe(s.Extension))
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(errOut, "%s %s\n", f.paint(f.IO.ErrOut, yellow, "warning:"), w)
	}
	names := make([]string, len(res.Imported))
	for i, s := range res.Imported {
		names[i] = s.Name
	}
	if res.Mode == "dry-run" {
		for _, fr := range res.Files {
			fmt.Fprint(f.IO.Out, fr.Diff)
		}
		fmt.Fprintf(errOut, "would import %d server(s) from %s into extension %s (%s): %s; nothing written (--dry-run)\n",
			len(names), termtext.Safe(res.Source), res.Extension, termtext.Safe(res.Folder), toolsel.SafeList(names))
		return
	}
	for _, fr := range res.Files {
		switch {
		case fr.Status != statusWritten:
		case fr.Scope == scopeExtension:
			fmt.Fprintf(errOut, "%s %s\n", f.paint(f.IO.ErrOut, green, "created"), termtext.Safe(fr.Path))
		default:
			fmt.Fprintf(errOut, "%s %s (%s): %s\n", f.paint(f.IO.ErrOut, green, "wrote"), termtext.Safe(fr.Path), who(fr), summary(fr.Changes))
		}
	}
	fmt.Fprintf(errOut, "imported %d server(s) from %s into extension %s: %s; repo sync writes them into your other tools\n",
		len(names), termtext.Safe(res.Source), res.Extension, toolsel.SafeList(names))
}

// importResult is the --output json document of repo mcp import (schema
// docs/schema/mcp-import.v1.json).
type importResult struct {
	Version   int              `json:"version"`
	Mode      string           `json:"mode"` // import, dry-run
	Root      string           `json:"root"`
	Tool      string           `json:"tool"`
	Scope     string           `json:"scope"`
	Source    string           `json:"source"`
	Extension string           `json:"extension"`
	Folder    string           `json:"folder"`
	Imported  []importedServer `json:"imported"`
	Skipped   []skippedEntry   `json:"skipped"`
	Files     []fileResult     `json:"files"`
	Warnings  []string         `json:"warnings"`
}

type importedServer struct {
	Name      string `json:"name"`
	Transport string `json:"transport"`
}

type skippedEntry struct {
	Name      string `json:"name"`
	Extension string `json:"extension"`
	Reason    string `json:"reason"`
}

// trustImported records the imported servers as trusted.
func trustImported(w *workspace, servers []extensions.Server) error {
	store, err := openTrust(w)
	if err != nil {
		return err
	}
	profiles := trust.WorkspaceProfiles(w.Profiles)
	for _, s := range servers {
		d := trust.Define(s, profiles)
		store.Trust(s.Name, d, trustgate.Shown(s, d))
	}
	return store.Save(w.Env.Display)
}
