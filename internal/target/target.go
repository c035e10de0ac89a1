// Package target is the first step of writing servers into tools' files:
// it translates every server for every selected tool profile (package
// translator) and groups the entries by the file and key they go into.
// A Target is one such (file, key) with the tools that read it and the
// entries repo wants there; the planner (package internal/plan) turns
// targets into file contents. The package also finds the literal
// credentials of servers and entries (LiteralSecrets, EntrySecrets,
// ProjectLeaks, with internal/credential) and picks a tool's file on this
// machine (Choose).
package target

import (
	"bytes"
	"fmt"
	"maps"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/cleanpath"
	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/gittrack"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/par"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/translator"
)

// Target is one (file, key path) that servers are written into, with the
// tools that read it. Two tools reading one file and key share a target.
type Target struct {
	Path    string   // absolute file path
	Display string   // the path as shown to people: root-relative, ~/…, or absolute
	Scope   Scope    // project, local or user
	Format  Format   // toolprofiles.Format*
	Key     []string // path of the server map, <<root>> filled in
	// Container, NameField and Skeleton describe the server map's shape
	// and a new file's content (see toolprofiles.Target).
	Container ContainerKind
	NameField string
	Skeleton  string
	Tools     []string // profile ids, sorted
	// Locks are the tools' locks on the file, taken around replacing it.
	Locks   []*fileio.ToolLock
	Entries []Desired
	// Written are the members the tools of the target write into an entry
	// (toolprofiles.EntryFormat.Written): the ones repo answers for. Any
	// other member of a managed entry is the tool's or the user's, kept.
	Written []string
	// Preserve are the written members the tool or the user may change as
	// well: merged with repo's offer rather than compared.
	Preserve []string
	// Machine: a project file whose content depends on the machine (see
	// MachineSpecific), which a team does not commit.
	Machine bool
	// Settings: the file holds its tools' other settings besides their
	// servers (toolprofiles.Target.SettingsFile), which a team commits:
	// never git-ignored whole while git tracks it.
	Settings bool
	// Tracked: git tracks the file, at Path or another of Candidates
	// (plan.MarkTracked; false until asked). A machine-specific file that
	// git tracks is left as the repository has it under a per-clone policy.
	Tracked bool
	// Candidates are every path the tools may read the target from (Path
	// is the one chosen on this machine): what a .gitignore lists, so that
	// it does not depend on which of them exists here.
	Candidates []string
	// Real is the file's path with its symbolic links resolved (RealPath),
	// which identifies it: two tools whose paths lead to one file share a
	// target. "" for a target Build did not make.
	Real string
	// Links are the other paths by which the target's tools reach the
	// file (a link such as .cursor/mcp.json -> ../.mcp.json), as shown to
	// people: named where the tools disagree on an entry.
	Links []string
	// Alias, when set, is the other path to the root (Env.Aliases) that Key
	// holds: a target the planner made that only removes the entries repo
	// wrote there.
	Alias string
	// Leaving, when set, is why the target's tools have left: a target
	// that only removes the entries repo wrote (see plan.LeavingTargets).
	Leaving string
	// Others are where the target's tools keep servers in their other
	// scopes on this machine, one target per tool, file and key, without
	// entries: a tool that reads two scopes knows one server by each name,
	// so the planner looks there for a server of the user's with the name
	// of one repo writes (shadowing).
	Others []*Target
	// Former are the places the target's tools read their servers from
	// before (toolprofiles.Target.Former). An entry repo wrote there that
	// the tool itself moved here (Devin does on startup) is repo's here.
	Former []Place
}

// Place is a file and the key path of a server map in it.
type Place struct {
	Path string
	Key  []string
}

// Desired is one managed entry as repo wants it.
type Desired struct {
	Name      string
	Extension string
	Value     ordered.Object
	// Fixed are the members the tool's profile writes into every entry
	// (entry.set): what a preserved member is when the author sets
	// nothing, so that a record which remembers no offer for it reads as
	// having offered this (see Owned.Defaults).
	Fixed ordered.Object
}

// Env is where per-user paths come from, and how paths are written.
type Env struct {
	Root string
	// Portable writes a tool's workspace variable instead of the root where
	// the tool has one (see translator.Options).
	Portable bool
	// Gitignore: the machine-specific project files (Target.Machine) are
	// git-ignored, each clone's own. Their entries are recorded in the
	// clone's own record (MachineRecordPath), which is ignored with them,
	// rather than in the committed one; and a check leaves them out
	// (Options.CommittedOnly).
	Gitignore bool
	// Aliases are other paths to Root (through a symlink) that this run came
	// by. Before roots were resolved, repo recorded a workspace under the
	// path it was reached by: Build takes such a per-user record over once,
	// and removes the entries written under an alias in a key.
	Aliases []string
	// Paths, when set, remembers for the run what the file system said
	// about each path (see Paths); workspace.Host.Env sets a new one.
	Paths *Paths
	// Git, when set, lists which files git tracks once for the run's
	// questions (gittrack.Session); workspace.Host.Env sets a new one.
	Git *gittrack.Session
	toolprofiles.Env
}

// Display shows p relative to the root, else to the home folder, else as is.
func (e Env) Display(p string) string {
	if r, err := cleanpath.Rel(e.Root, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(r)
	}
	if e.Home != "" {
		if r, err := cleanpath.Rel(e.Home, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return "~/" + filepath.ToSlash(r)
		}
	}
	return filepath.ToSlash(p)
}

// Build translates every server for every profile that has the
// scope, and groups the results by file and key. Profiles without the scope
// are skipped by the caller's choice, not here.
func Build(servers []extensions.Server, profiles []*toolprofiles.Profile, scope Scope, env Env) ([]*Target, []translator.Warning, error) {
	g := grouping{env: env, scope: scope, byKey: map[string]*group{}}
	// First the file each tool writes, in the tools' order, which decides
	// which tool's entries the others sharing a file must agree with; then
	// the translations, on every core, for they are most of the work and
	// each stands alone; then their entries, in the tools' order again. An
	// error is the first the tools meet in order, as when each tool was
	// placed and translated before the next.
	jobs, placeErr := g.place(servers, profiles)
	results := make([][]translator.Result, len(jobs))
	par.Each(len(jobs), runtime.GOMAXPROCS(0), func(i int) {
		results[i] = jobs[i].translate(g.env, g.scope)
	})
	for i := range jobs {
		if err := g.add(&jobs[i], results[i]); err != nil {
			return nil, nil, err
		}
	}
	if placeErr != nil {
		return nil, nil, placeErr
	}
	return g.targets(), g.warnings, nil
}

// job is one tool's servers for one target: what the tool's entries are
// translated from and added to.
type job struct {
	grp     *group
	p       *toolprofiles.Profile
	t       *toolprofiles.Target
	servers []extensions.Server
	first   bool // the target's first tool: its entries are the target's
	links   int  // the target's links when the tool was placed (disagreement names them)
}

// place finds the target of each profile (a drop-in per extension: one
// each), in order, and returns what is to be translated for each, up to
// the first error.
func (g *grouping) place(servers []extensions.Server, profiles []*toolprofiles.Profile) ([]job, error) {
	var jobs []job
	add := func(p *toolprofiles.Profile, t *toolprofiles.Target, servers []extensions.Server) error {
		grp, err := g.targetFor(p, t)
		if err != nil || grp == nil {
			return err // nil, nil: no file for this scope on this OS
		}
		jobs = append(jobs, job{grp: grp, p: p, t: t, servers: servers, first: len(grp.Tools) == 1, links: len(grp.Links)})
		return nil
	}
	for _, p := range profiles {
		if g.scope != toolprofiles.ScopeProject && p.FromWorkspace() {
			// toolprofiles.Load refuses such a profile and Set.ForScope
			// leaves the workspace's out; a host program's mistake must
			// not let one shape a file outside the workspace either.
			return jobs, fmt.Errorf("%s: the workspace's profile %s applies to the project scope only, not to %s scope", p.ID, p.Origin(), g.scope)
		}
		t := p.Scopes.Get(string(g.scope))
		if t == nil || !p.MCP {
			continue
		}
		p = p.ForScope(string(g.scope)) // the scope's own dialect, where it has one
		if t.PerExtension() {
			// A drop-in per extension (Goose's .agents/plugins/<name>/.mcp.json),
			// each holding that extension's servers only.
			for _, ext := range byExtension(servers) {
				if err := add(p, t.ForExtension(ext[0].Extension), ext); err != nil {
					return jobs, err
				}
			}
			continue
		}
		if err := add(p, t, servers); err != nil {
			return jobs, err
		}
	}
	return jobs, nil
}

// byExtension groups servers by their extension, in the order the
// extensions first come.
func byExtension(servers []extensions.Server) [][]extensions.Server {
	var out [][]extensions.Server
	at := map[string]int{}
	for _, s := range servers {
		i, ok := at[s.Extension]
		if !ok {
			i = len(out)
			at[s.Extension] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], s)
	}
	return out
}

// grouping is Build's state: the targets so far, by file and key, in
// the order their first tool came.
type grouping struct {
	env      Env
	scope    Scope
	byKey    map[string]*group
	order    []string
	warnings []translator.Warning
}

// group is one target being built, with which tool produced which entry
// (by server name), to check that the tools sharing it agree.
type group struct {
	*Target
	seen map[string]produced
}

// produced is the entry a tool produced for a server, and where it is in
// the target's entries.
type produced struct {
	tool     string
	entry    ordered.Object
	settings []string
	index    int
}

// targetFor finds (or starts) the target profile p's scope target t
// writes into, with p added to its tools; nil when t has no file on
// this OS.
func (g *grouping) targetFor(p *toolprofiles.Profile, t *toolprofiles.Target) (*group, error) {
	path, err := choosePath(t, g.env)
	if err != nil {
		return nil, fmt.Errorf("%s (%s scope): %w", p.ID, g.scope, err)
	}
	if path == "" {
		return nil, nil // no file for this scope on this OS
	}
	key := ProfileKey(t, g.env)
	// A file is identified by what it is, not by the path that reached
	// it: .cursor/mcp.json -> ../.mcp.json is Claude Code's file, and the
	// two tools must agree on each entry of it.
	real := g.env.RealPath(path)
	id := real + "\x00" + strings.Join(key, "\x00")
	grp, ok := g.byKey[id]
	if !ok {
		grp = &group{Target: New(g.env, g.scope, path, key, t)}
		grp.Real = real
		g.byKey[id] = grp
		g.order = append(g.order, id)
	} else if path != grp.Path && !slices.Contains(grp.Links, g.env.Display(path)) {
		grp.Links = append(grp.Links, g.env.Display(path))
	}
	if err := grp.AddTool(p, t, g.env); err != nil {
		return nil, err
	}
	grp.addOthers(p, g.scope, g.env)
	return grp, nil
}

// addOthers adds to tg.Others the files of p's other scopes on this
// machine (a scope whose path cannot be worked out here is left out: the
// tool cannot read it either).
func (tg *Target) addOthers(p *toolprofiles.Profile, scope Scope, env Env) {
	for _, other := range toolprofiles.Scopes {
		ot := p.Scopes.Get(other)
		if other == string(scope) || ot == nil {
			continue
		}
		path, err := choosePath(ot, env)
		if err != nil || path == "" {
			continue
		}
		key := ProfileKey(ot, env)
		if slices.ContainsFunc(tg.Others, func(o *Target) bool {
			return o.Path == path && slices.Equal(o.Key, key) && slices.Contains(o.Tools, p.ID)
		}) {
			continue
		}
		o := New(env, Scope(other), path, key, ot)
		o.Tools = []string{p.ID}
		tg.Others = append(tg.Others, o)
	}
}

// translate translates the job's servers for its tool, up to the first
// that fails. It only reads the job: jobs are translated at once.
func (j *job) translate(env Env, scope Scope) []translator.Result {
	// Portable forms are for files a team commits: a tool's workspace
	// variable in a local or user file would name whichever folder the
	// tool has open, not this workspace.
	portable := env.Portable && scope == toolprofiles.ScopeProject
	out := make([]translator.Result, 0, len(j.servers))
	for _, s := range j.servers {
		res := translator.TranslateWith(s, j.p, translator.Options{Portable: portable, Root: env.Root, GOOS: env.GOOS, NoEnvRef: j.t.NoEnvRef})
		out = append(out, res)
		if res.Err != nil {
			break
		}
	}
	return out
}

// add adds the job's entries to its target: the first tool of a target
// gives the entries, every later one must produce the same (its settings
// merged in), or the target cannot be written.
func (g *grouping) add(j *job, results []translator.Result) error {
	grp := j.grp
	for i, res := range results {
		s := j.servers[i]
		if res.Err != nil {
			return res.Err
		}
		g.warnings = append(g.warnings, res.Warnings...)
		if !j.first {
			if err := grp.agree(s.Name, j.p.ID, res, j.links); err != nil {
				return err
			}
			continue
		}
		if res.Entry == nil {
			continue
		}
		if grp.seen == nil {
			// sized once: grown entry by entry, the map and the entries
			// were a tenth of what a first sync allocates in Build
			grp.seen = make(map[string]produced, len(results))
			grp.Entries = make([]Desired, 0, len(results))
		}
		grp.seen[s.Name] = produced{tool: j.p.ID, entry: res.Entry, settings: res.Settings, index: len(grp.Entries)}
		grp.Entries = append(grp.Entries, Desired{Name: s.Name, Extension: s.Extension, Value: res.Entry, Fixed: fixedMembers(j.p)})
	}
	return nil
}

// agree checks a later tool's entry for server name against the one the
// first tool produced, merging the server settings each writes.
func (grp *group) agree(name, tool string, res translator.Result, links int) error {
	prev, had := grp.seen[name]
	if had != (res.Entry != nil) {
		return disagreement(grp.Display, grp.Links[:links], name, prev.tool, prev.entry, tool, res.Entry)
	}
	if !had {
		return nil
	}
	merged, ok := mergeSettings(prev.entry, prev.settings, res.Entry, res.Settings)
	if !ok {
		return disagreement(grp.Display, grp.Links[:links], name, prev.tool, prev.entry, tool, res.Entry)
	}
	grp.Entries[prev.index].Value = merged
	prev.entry = merged
	for _, k := range res.Settings {
		if !slices.Contains(prev.settings, k) {
			prev.settings = append(prev.settings, k)
		}
	}
	grp.seen[name] = prev
	return nil
}

// targets are the targets in order, their tools and preserved members
// sorted.
func (g *grouping) targets() []*Target {
	out := make([]*Target, 0, len(g.order))
	for _, id := range g.order {
		tg := g.byKey[id].Target
		slices.Sort(tg.Tools)
		slices.Sort(tg.Preserve)
		slices.Sort(tg.Written)
		out = append(out, tg)
	}
	return out
}

// New is the target of a profile's scope target t at path, its
// key's <<root>> filled in, without tools (AddTool) or entries yet.
func New(env Env, scope Scope, path string, key []string, t *toolprofiles.Target) *Target {
	return &Target{Path: path, Display: env.Display(path), Scope: scope, Format: Format(t.Format), Key: key,
		Container: ContainerKind(t.Container), NameField: t.NameField, Skeleton: t.Skeleton}
}

// AddTool adds profile p, whose scope target t lands in tg, to the tools
// of tg: its lock, the members it preserves, whether it makes a project
// file machine-specific (Machine) and the paths it may read the file from
// (Candidates). Two tools must read the file and its server map alike.
func (tg *Target) AddTool(p *toolprofiles.Profile, t *toolprofiles.Target, env Env) error {
	if len(tg.Tools) > 0 && (tg.Format != Format(t.Format) || tg.Container != ContainerKind(t.Container) || tg.NameField != t.NameField) {
		return fmt.Errorf("%s: profiles %s and %s read it differently (format %s/%s, container %s/%s)", tg.Display, strings.Join(tg.Tools, ", "), p.ID, tg.Format, t.Format, tg.Container, t.Container)
	}
	tg.Tools = append(tg.Tools, p.ID)
	if tg.Scope == toolprofiles.ScopeProject && !portableTool(p, env) {
		tg.Machine = true
	}
	if t.SettingsFile {
		tg.Settings = true
	}
	for _, c := range t.PathsFor(env.GOOS) {
		if cp, err := toolprofiles.ExpandPath(c, env.Root, env.Env); err == nil && !slices.Contains(tg.Candidates, cp) {
			tg.Candidates = append(tg.Candidates, cp)
		}
	}
	if l := fileio.ToolLockFor(t.Lock, tg.Path); l != nil && !slices.ContainsFunc(tg.Locks, func(o *fileio.ToolLock) bool { return *o == *l }) {
		tg.Locks = append(tg.Locks, l)
	}
	for _, f := range p.Entry.Preserve {
		if !slices.Contains(tg.Preserve, f) {
			tg.Preserve = append(tg.Preserve, f)
		}
	}
	for _, f := range p.Entry.Written() {
		if !slices.Contains(tg.Written, f) {
			tg.Written = append(tg.Written, f)
		}
	}
	for i := range t.Former {
		f := &t.Former[i]
		key := ProfileKey(f, env)
		for _, c := range f.PathsFor(env.GOOS) {
			cp, err := toolprofiles.ExpandPath(c, env.Root, env.Env)
			if err != nil {
				continue
			}
			if !slices.ContainsFunc(tg.Former, func(pl Place) bool { return pl.Path == cp && slices.Equal(pl.Key, key) }) {
				tg.Former = append(tg.Former, Place{Path: cp, Key: key})
			}
		}
	}
	return nil
}

// ProfileKey is t's key path with <<root>> filled in.
func ProfileKey(t *toolprofiles.Target, env Env) []string {
	key := make([]string, len(t.Key))
	for i, k := range t.Key {
		key[i] = strings.ReplaceAll(k, "<<root>>", rootKey(env))
	}
	return key
}

// mergeSettings is the entry two tools reading one file agree on: the same
// entry apart from the members their settings wrote, where each keeps the
// other's (a tool ignores a member it does not know: Claude Code and
// Copilot CLI share .mcp.json, and only Copilot reads "tools"). A member
// both write must have one value. ok is false when they disagree.
func mergeSettings(a ordered.Object, aSettings []string, b ordered.Object, bSettings []string) (ordered.Object, bool) {
	if !bytes.Equal(ordered.JSON(a.Without(aSettings...)), ordered.JSON(b.Without(bSettings...))) {
		return nil, false
	}
	out := a
	for _, k := range bSettings {
		v, _ := b.Get(k)
		if prev, ok := a.Get(k); ok {
			if !bytes.Equal(ordered.JSON(prev), ordered.JSON(v)) {
				return nil, false
			}
			continue
		}
		out = append(out[:len(out):len(out)], ordered.Member{Key: k, Value: v})
	}
	return out, true
}

// fixedMembers are a profile's entry.set members, sorted by key.
func fixedMembers(p *toolprofiles.Profile) ordered.Object {
	var out ordered.Object
	for _, k := range slices.Sorted(maps.Keys(p.Entry.Set)) {
		out = append(out, ordered.Member{Key: k, Value: p.Entry.Set[k]})
	}
	return out
}

// portableTool: the tool's entries are the same at every workspace root,
// because in portable mode it gets its own variable for the root. A
// project file is machine-specific unless every tool reading it is
// portable: the others get the absolute root, the venv python under it,
// and so on.
func portableTool(p *toolprofiles.Profile, env Env) bool {
	return env.Portable && p.Entry.RootVar != ""
}

func disagreement(display string, links []string, server, toolA string, a ordered.Object, toolB string, b ordered.Object) error {
	show := func(o ordered.Object) string {
		if o == nil {
			return "(not written)"
		}
		return string(ordered.JSON(o))
	}
	if len(links) > 0 {
		// One file under two names: syncing the tools one at a time would
		// write each one's entry over the other's.
		return fmt.Errorf("%s and %s are one file (through a symbolic link), read by both %s and %s, and they need different entries for server %q:\n  %s: %s\n  %s: %s\nreplace the link with a file of its own, so that repo writes each tool its entry, or make the server expressible in both",
			display, strings.Join(links, " and "), toolA, toolB, server, toolA, show(a), toolB, show(b))
	}
	return fmt.Errorf("%s is read by both %s and %s, and they need different entries for server %q:\n  %s: %s\n  %s: %s\nsync them one at a time with --tool, or make the server expressible in both",
		display, toolA, toolB, server, toolA, show(a), toolB, show(b))
}

// RealPath is p with its symbolic links resolved: those of the file, or,
// where it does not exist yet, of the longest part of p that does (so a
// file not created yet is judged by where its folder really is). Two paths
// with one real path are one file. Where nothing can be resolved, p.
func RealPath(p string) string {
	rest := ""
	for cur := p; ; {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return cleanpath.Join(real, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = cleanpath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// rootKey is the root as tools spell it in keys: Claude Code writes
// project keys with forward slashes on every OS.
func rootKey(env Env) string { return filepath.ToSlash(env.Root) }

// choosePath picks the file of a target on this machine (see Choose).
func choosePath(t *toolprofiles.Target, env Env) (string, error) {
	c, err := Choose(t, env)
	return c.Path, err
}

// Choose is toolprofiles.Target.Choose on this machine: an installation whose
// folder exists, else the first candidate that exists, else the first.
func Choose(t *toolprofiles.Target, env Env) (toolprofiles.Choice, error) {
	return t.Choose(env.Root, env.Env, func(p string) (bool, error) {
		ok, err := env.Exists(p)
		if err != nil {
			return false, fmt.Errorf("%s: %w", env.Display(p), err)
		}
		return ok, nil
	})
}

// Judged lists the members of an entry that repo compares with what it
// wants and fingerprints in the ownership record: the written members but
// the preserved ones, which are merged instead. Everything else in an
// entry is left out of both.
func (tg *Target) Judged() []string {
	out := make([]string, 0, len(tg.Written))
	for _, f := range tg.Written {
		if !slices.Contains(tg.Preserve, f) {
			out = append(out, f)
		}
	}
	return out
}
