package plan

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/cleanpath"
	"github.com/repo-manager/repo/internal/record"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// Tools that leave. repo writes the tools a run selects; what it wrote
// for a tool no run selects any more stays until something removes it:
// repo sync, for a tool that left the workspace's [mcp] tools list, and
// repo forget. Both plan the same targets: one per file and key that the
// ownership record lists for the leaving tools, with no entries, so that
// Build removes every entry repo wrote there (and, with the last, what
// repo created for them; see Created) and drops the target from the
// record. The user's entries in those files stay, as do entries repo
// wrote that were edited by hand since (they become the user's).

// Kept is a file and key where the record holds entries for leaving
// tools that a staying tool writes too (Claude Code and Copilot CLI share
// .mcp.json): the entries stay, as the staying tool still wants them.
type Kept struct {
	Display string       // the file, as shown to people
	Scope   target.Scope // project, local or user
	Tools   []string     // the leaving tools, sorted
	By      []string     // the staying tools that write it, sorted
}

// LeavingTargets returns, for the given scope, a target for each file and
// key of the leaving tools that the scope's ownership record lists, which
// removes repo's entries there (reason is the reason of each removal, as
// --check and -v print it). A file and key that one of the staying tools
// writes is left alone and returned as Kept. Every file a tool may write
// in the scope is looked at — each candidate path and installation, not
// only the one a sync would choose now — so a tool that was uninstalled
// since still has its entries found. records, when not nil, is the run's
// cache of parsed records, which the plan is given too (Options.Records).
func LeavingTargets(env target.Env, scope target.Scope, leaving, staying []*toolprofiles.Profile, reason Reason, records *RecordCache) ([]*target.Target, []Kept, error) {
	rs, err := scopeRecord(env, scope, records)
	if err != nil || len(rs.rec.Targets) == 0 {
		return nil, nil, err
	}
	lv := &leaver{places: newPlaces(env, scope, rs), reason: reason, byPlace: map[place]*target.Target{}, kept: map[place]*Kept{}}
	lv.stayingAt = lv.writers(staying)
	for _, p := range leaving {
		if err := lv.leave(p); err != nil {
			return nil, nil, err
		}
	}
	out := make([]*target.Target, 0, len(lv.order))
	for _, pl := range lv.order {
		out = append(out, lv.byPlace[pl])
	}
	sortTools(out)
	var ks []Kept
	for _, pl := range lv.keptOrder {
		ks = append(ks, *lv.kept[pl])
	}
	return out, ks, nil
}

// place is a file and key as a scope's record names them.
type place struct{ file, key string }

// places finds the places a scope's record lists (scopeRecord).
type places struct {
	env   target.Env
	scope target.Scope
	rs    *recordState
	// keys are the keys the record lists: only those can hold repo's
	// entries, so the paths of the others need not be resolved (at
	// follows symbolic links).
	keys map[string]bool
}

func newPlaces(env target.Env, scope target.Scope, rs *recordState) *places {
	ps := &places{env: env, scope: scope, rs: rs, keys: map[string]bool{}}
	for _, t := range rs.rec.Targets {
		ps.keys[strings.Join(t.Key, "\x00")] = true
	}
	return ps
}

// at is the place of a file and key.
func (ps *places) at(path string, key []string) place {
	return place{ps.rs.fileKey(&target.Target{Path: path, Display: ps.env.Display(path)}), strings.Join(key, "\x00")}
}

// listed reports whether the record lists key in some file.
func (ps *places) listed(key []string) bool { return ps.keys[strings.Join(key, "\x00")] }

// leaver is the state of LeavingTargets: the targets that remove the
// leaving tools' entries, by place, and the places kept for staying tools.
type leaver struct {
	*places
	reason           Reason
	stayingAt        map[place][]string // the staying tools that write each place
	byPlace          map[place]*target.Target
	kept             map[place]*Kept
	order, keptOrder []place
}

// writers are the tools of profiles that write each place the record
// lists, now or in a former place.
func (lv *leaver) writers(profiles []*toolprofiles.Profile) map[place][]string {
	at := map[place][]string{}
	for _, p := range profiles {
		st := p.Scopes.Get(string(lv.scope))
		if st == nil || !p.MCP {
			continue
		}
		for _, t := range withFormer(st) {
			key := target.ProfileKey(t, lv.env)
			if !lv.listed(key) {
				continue
			}
			for _, path := range candidatePaths(t, lv.env) {
				pl := lv.at(path, key)
				at[pl] = append(at[pl], p.ID)
			}
		}
	}
	return at
}

// leave adds leaving tool p to the targets of each place the record lists
// that it may have written, or to the places kept for a staying tool.
func (lv *leaver) leave(p *toolprofiles.Profile) error {
	lt := p.Scopes.Get(string(lv.scope))
	if lt == nil || !p.MCP || lv.scope != toolprofiles.ScopeProject && p.FromWorkspace() {
		return nil
	}
	sp := p.ForScope(string(lv.scope))
	for _, t := range withFormer(lt) {
		key := target.ProfileKey(t, lv.env)
		if !lv.listed(key) {
			continue
		}
		paths := candidatePaths(t, lv.env)
		if t.PerExtension() {
			paths = recordedDropIns(lv.rs, t, lv.env)
		}
		for _, path := range paths {
			if err := lv.leaveAt(sp, t, path, key); err != nil {
				return err
			}
		}
	}
	return nil
}

// leaveAt adds tool p, whose scope target t may have written key in the
// file at path, to that place's target, when the record lists the place.
func (lv *leaver) leaveAt(p *toolprofiles.Profile, t *toolprofiles.Target, path string, key []string) error {
	pl := lv.at(path, key)
	if lv.rs.rec.Find(pl.file, key) == nil {
		return nil
	}
	if by := lv.stayingAt[pl]; len(by) > 0 {
		k, ok := lv.kept[pl]
		if !ok {
			k = &Kept{Display: lv.env.Display(path), Scope: lv.scope, By: sortedUnique(by)}
			lv.kept[pl] = k
			lv.keptOrder = append(lv.keptOrder, pl)
		}
		k.Tools = sortedUnique(append(k.Tools, p.ID))
		return nil
	}
	tg, ok := lv.byPlace[pl]
	if !ok {
		tg = target.New(lv.env, lv.scope, path, key, t)
		tg.Leaving = string(lv.reason)
		lv.byPlace[pl] = tg
		lv.order = append(lv.order, pl)
	}
	if slices.Contains(tg.Tools, p.ID) {
		return nil
	}
	return tg.AddTool(p, t, lv.env)
}

// sortTools sorts the tools and members of targets a plan made.
func sortTools(targets []*target.Target) {
	for _, tg := range targets {
		slices.Sort(tg.Tools)
		slices.Sort(tg.Preserve)
		slices.Sort(tg.Written)
	}
}

// withFormer is a scope target followed by its former places
// (toolprofiles.Target.Former): everywhere repo may have written for it.
func withFormer(t *toolprofiles.Target) []*toolprofiles.Target {
	out := []*toolprofiles.Target{t}
	for i := range t.Former {
		out = append(out, &t.Former[i])
	}
	return out
}

// FormerTargets returns, for the given scope, a target for each former
// place of a selected tool (toolprofiles.Target.Former: where it read its
// servers before, as Devin read config.json) that the scope's ownership
// record lists, which removes the entries repo wrote there, each with the
// reason that the tool reads its servers from its file now; and one for
// each drop-in of a per-extension target that the record lists and no
// extension writes now. The user's entries there stay, as do those edited
// by hand since. A place that a selected tool writes now is left to that
// tool's own target. records is as for LeavingTargets.
func FormerTargets(env target.Env, scope target.Scope, profiles []*toolprofiles.Profile, built []*target.Target, records *RecordCache) ([]*target.Target, error) {
	fm := &formers{env: env, scope: scope, written: map[string]bool{}, byPlace: map[string]*target.Target{}}
	for _, p := range profiles {
		if t := p.Scopes.Get(string(scope)); t != nil && p.MCP {
			for _, path := range candidatePaths(t, env) {
				fm.written[placeID(path, target.ProfileKey(t, env))] = true
			}
		}
	}
	for _, t := range built {
		fm.written[placeID(t.Path, t.Key)] = true
	}
	for _, p := range profiles {
		cur := p.Scopes.Get(string(scope))
		if cur == nil || !p.MCP || len(cur.Former) == 0 && !cur.PerExtension() {
			continue
		}
		if fm.rs == nil {
			var err error
			if fm.rs, err = scopeRecord(env, scope, records); err != nil {
				return nil, err
			}
		}
		var err error
		if cur.PerExtension() {
			err = fm.dropIns(p, cur)
		} else {
			err = fm.former(p, cur)
		}
		if err != nil {
			return nil, err
		}
	}
	sortTools(fm.out)
	return fm.out, nil
}

// formers is the state of FormerTargets.
type formers struct {
	env     target.Env
	scope   target.Scope
	rs      *recordState              // the scope's record, read when a tool has former places
	written map[string]bool           // the places the selected tools write now (placeID)
	byPlace map[string]*target.Target // the targets made, by placeID
	out     []*target.Target
}

// placeID is a file and key, as FormerTargets tells places apart.
func placeID(path string, key []string) string { return path + "\x00" + strings.Join(key, "\x00") }

// dropIns adds a target for each drop-in of p's per-extension target cur
// that the record lists, of an extension that has no server for the tool
// any more (removed, or every server switched off).
func (fm *formers) dropIns(p *toolprofiles.Profile, cur *toolprofiles.Target) error {
	sp := p.ForScope(string(fm.scope))
	key := target.ProfileKey(cur, fm.env)
	for _, path := range recordedDropIns(fm.rs, cur, fm.env) {
		id := placeID(path, key)
		if fm.written[id] || fm.byPlace[id] != nil {
			continue
		}
		tg := target.New(fm.env, fm.scope, path, key, cur)
		tg.Leaving = "its extension declares no server for " + p.Name + " any more"
		if err := tg.AddTool(sp, cur, fm.env); err != nil {
			return err
		}
		fm.byPlace[id] = tg
		fm.out = append(fm.out, tg)
	}
	return nil
}

// former adds p to a target for each former place of its scope target
// cur that the record lists and no selected tool writes now.
func (fm *formers) former(p *toolprofiles.Profile, cur *toolprofiles.Target) error {
	now := "its own file"
	if paths := candidatePaths(cur, fm.env); len(paths) > 0 {
		now = fm.env.Display(paths[0])
	}
	for i := range cur.Former {
		f := &cur.Former[i]
		key := target.ProfileKey(f, fm.env)
		for _, path := range candidatePaths(f, fm.env) {
			id := placeID(path, key)
			if fm.written[id] {
				continue
			}
			file := fm.rs.fileKey(&target.Target{Path: path, Display: fm.env.Display(path)})
			if fm.rs.rec.Find(file, key) == nil {
				continue
			}
			tg, ok := fm.byPlace[id]
			if !ok {
				tg = target.New(fm.env, fm.scope, path, key, f)
				tg.Leaving = fmt.Sprintf("%s reads its servers from %s now", p.Name, now)
				fm.byPlace[id] = tg
				fm.out = append(fm.out, tg)
			}
			if slices.Contains(tg.Tools, p.ID) {
				continue
			}
			if err := tg.AddTool(p, f, fm.env); err != nil {
				return err
			}
		}
	}
	return nil
}

// recordedDropIns are the files of a per-extension target (a drop-in per
// extension, toolprofiles.Target.PerExtension) that the record lists.
func recordedDropIns(rs *recordState, t *toolprofiles.Target, env target.Env) []string {
	var out []string
	key := target.ProfileKey(t, env)
	for _, pattern := range t.Paths {
		glob := strings.ReplaceAll(pattern, toolprofiles.ExtensionVar, "*")
		for _, rt := range rs.rec.Targets {
			if ok, _ := path.Match(glob, rt.File); ok && rs.kind != recordUser && slices.Equal(rt.Key, key) {
				out = append(out, cleanpath.Join(env.Root, filepath.FromSlash(rt.File)))
			}
		}
	}
	return out
}

// candidatePaths are the files a profile's scope target may write on this
// machine: the file of each installation of this OS, then each candidate
// path (see toolprofiles.Target.Choose), once each. A path that cannot be
// expanded here (a variable that is not set) is left out.
func candidatePaths(t *toolprofiles.Target, env target.Env) []string {
	var out []string
	add := func(p string) {
		if path, err := toolprofiles.ExpandPath(p, env.Root, env.Env); err == nil && !slices.Contains(out, path) {
			out = append(out, path)
		}
	}
	for _, in := range t.Installs {
		if in.OS == env.GOOS {
			add(in.Path)
		}
	}
	for _, p := range t.PathsFor(env.GOOS) {
		add(p)
	}
	return out
}

// scopeRecord reads what the ownership records say repo wrote in a scope,
// as Build reads them: for local and user scope the per-user record, where
// the records an earlier repo kept under another path to the workspace are
// taken over while the workspace has none (see planAliases); for project
// scope the committed record and the clone's own (MachineRecordPath) both,
// as the entries of a machine-specific file are in the clone's when [mcp]
// gitignore is on, or was when they were written. The result is only
// looked at: Build writes each target's change into the record its file
// belongs to now, taking it over from the other one (takeOver). cache,
// when not nil, is the run's (Options.Records).
func scopeRecord(env target.Env, scope target.Scope, cache *record.Cache) (*recordState, error) {
	if scope == toolprofiles.ScopeProject {
		// Read as they are, without git's word (claims.go): the targets
		// come from the profiles, inside the workspace, and a record only
		// says which of them to look at; Build, which reads the records
		// with git's word, decides what in them is repo's. That saves a
		// run of git per sync.
		rs := &recordState{kind: recordProject, env: env, path: record.ProjectPath(env.Root)}
		rec, _, err := cache.Read(rs.path, env.Display(rs.path))
		if err != nil {
			return nil, err
		}
		machine := record.MachinePath(env.Root)
		mrec, _, err := cache.Read(machine, env.Display(machine))
		if err != nil {
			return nil, err
		}
		for _, t := range mrec.Targets {
			if rec.Find(t.File, t.Key) == nil {
				rec.Take(t)
			}
		}
		canonicalFiles(env, recordProject, rec, nil)
		rs.rec = rec
		return rs, nil
	}
	// A workspace moved here takes its old record (identity.go).
	env, _, err := recognise(env)
	if err != nil {
		return nil, err
	}
	rs := &recordState{kind: recordUser, env: env}
	if rs.path, err = UserRecordPath(env); err != nil {
		return nil, err
	}
	rec, raw, err := cache.Read(rs.path, env.Display(rs.path))
	if err != nil {
		return nil, err
	}
	if raw == nil {
		for _, alias := range env.Aliases {
			if old, _, _, ok := aliasRecord(env, alias); ok {
				for _, t := range old.Targets {
					if rec.Find(t.File, t.Key) == nil {
						rec.Take(t)
					}
				}
			}
		}
	}
	canonicalFiles(env, recordUser, rec, nil)
	rs.rec = rec
	return rs, nil
}

func sortedUnique(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}
