package plan

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers/internal/record"
	"github.com/repo-manager/repo/writers/target"
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
// since still has its entries found.
func LeavingTargets(env target.Env, scope target.Scope, leaving, staying []*toolprofiles.Profile, reason Reason) ([]*target.Target, []Kept, error) {
	rs, err := scopeRecord(env, scope)
	if err != nil || len(rs.rec.Targets) == 0 {
		return nil, nil, err
	}
	type place struct{ file, key string }
	placeOf := func(path string, key []string) place {
		return place{rs.fileKey(&target.Target{Path: path, Display: env.Display(path)}), strings.Join(key, "\x00")}
	}
	// Only a key the record lists can hold repo's entries: the paths of
	// the others need not be resolved (placeOf follows symbolic links).
	recorded := map[string]bool{}
	for _, t := range rs.rec.Targets {
		recorded[strings.Join(t.Key, "\x00")] = true
	}
	stayingAt := map[place][]string{}
	for _, p := range staying {
		st := p.Scopes.Get(string(scope))
		if st == nil || !p.MCP {
			continue
		}
		for _, t := range withFormer(st) {
			key := target.ProfileKey(t, env)
			if !recorded[strings.Join(key, "\x00")] {
				continue
			}
			for _, path := range candidatePaths(t, env) {
				pl := placeOf(path, key)
				stayingAt[pl] = append(stayingAt[pl], p.ID)
			}
		}
	}
	byPlace := map[place]*target.Target{}
	kept := map[place]*Kept{}
	var order, keptOrder []place
	for _, p := range leaving {
		lt := p.Scopes.Get(string(scope))
		if lt == nil || !p.MCP || scope != toolprofiles.ScopeProject && p.FromWorkspace() {
			continue
		}
		sp := p.ForScope(string(scope))
		for _, t := range withFormer(lt) {
			key := target.ProfileKey(t, env)
			if !recorded[strings.Join(key, "\x00")] {
				continue
			}
			paths := candidatePaths(t, env)
			if t.PerExtension() {
				paths = recordedDropIns(rs, t, env)
			}
			for _, path := range paths {
				pl := placeOf(path, key)
				if rs.rec.Find(pl.file, key) == nil {
					continue
				}
				if by := stayingAt[pl]; len(by) > 0 {
					k, ok := kept[pl]
					if !ok {
						k = &Kept{Display: env.Display(path), Scope: scope, By: sortedUnique(by)}
						kept[pl] = k
						keptOrder = append(keptOrder, pl)
					}
					k.Tools = sortedUnique(append(k.Tools, p.ID))
					continue
				}
				tg, ok := byPlace[pl]
				if !ok {
					tg = target.New(env, scope, path, key, t)
					tg.Leaving = string(reason)
					byPlace[pl] = tg
					order = append(order, pl)
				}
				if slices.Contains(tg.Tools, p.ID) {
					continue
				}
				if err := tg.AddTool(sp, t, env); err != nil {
					return nil, nil, err
				}
			}
		}
	}
	out := make([]*target.Target, 0, len(order))
	for _, pl := range order {
		tg := byPlace[pl]
		slices.Sort(tg.Tools)
		slices.Sort(tg.Preserve)
		slices.Sort(tg.Written)
		out = append(out, tg)
	}
	var ks []Kept
	for _, pl := range keptOrder {
		ks = append(ks, *kept[pl])
	}
	return out, ks, nil
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
// reason that the tool reads its servers from its file now. The user's
// entries there stay, as do those edited by hand since. A place that a
// selected tool writes now is left to that tool's own target.
func FormerTargets(env target.Env, scope target.Scope, profiles []*toolprofiles.Profile, built []*target.Target) ([]*target.Target, error) {
	var rs *recordState
	written := map[string]bool{}
	for _, p := range profiles {
		if t := p.Scopes.Get(string(scope)); t != nil && p.MCP {
			for _, path := range candidatePaths(t, env) {
				written[path+"\x00"+strings.Join(target.ProfileKey(t, env), "\x00")] = true
			}
		}
	}
	for _, t := range built {
		written[t.Path+"\x00"+strings.Join(t.Key, "\x00")] = true
	}
	byPlace := map[string]*target.Target{}
	var out []*target.Target
	for _, p := range profiles {
		cur := p.Scopes.Get(string(scope))
		if cur == nil || !p.MCP || len(cur.Former) == 0 && !cur.PerExtension() {
			continue
		}
		if rs == nil {
			var err error
			if rs, err = scopeRecord(env, scope); err != nil {
				return nil, err
			}
		}
		if cur.PerExtension() {
			// The drop-ins of extensions that have no server for the tool
			// any more (removed, or every server switched off).
			sp := p.ForScope(string(scope))
			key := target.ProfileKey(cur, env)
			for _, path := range recordedDropIns(rs, cur, env) {
				id := path + "\x00" + strings.Join(key, "\x00")
				if written[id] || byPlace[id] != nil {
					continue
				}
				tg := target.New(env, scope, path, key, cur)
				tg.Leaving = "its extension declares no server for " + p.Name + " any more"
				if err := tg.AddTool(sp, cur, env); err != nil {
					return nil, err
				}
				byPlace[id] = tg
				out = append(out, tg)
			}
			continue
		}
		now := "its own file"
		if paths := candidatePaths(cur, env); len(paths) > 0 {
			now = env.Display(paths[0])
		}
		for i := range cur.Former {
			f := &cur.Former[i]
			key := target.ProfileKey(f, env)
			for _, path := range candidatePaths(f, env) {
				id := path + "\x00" + strings.Join(key, "\x00")
				if written[id] {
					continue
				}
				file := rs.fileKey(&target.Target{Path: path, Display: env.Display(path)})
				if rs.rec.Find(file, key) == nil {
					continue
				}
				tg, ok := byPlace[id]
				if !ok {
					tg = target.New(env, scope, path, key, f)
					tg.Leaving = fmt.Sprintf("%s reads its servers from %s now", p.Name, now)
					byPlace[id] = tg
					out = append(out, tg)
				}
				if slices.Contains(tg.Tools, p.ID) {
					continue
				}
				if err := tg.AddTool(p, f, env); err != nil {
					return nil, err
				}
			}
		}
	}
	for _, tg := range out {
		slices.Sort(tg.Tools)
		slices.Sort(tg.Preserve)
		slices.Sort(tg.Written)
	}
	return out, nil
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
				out = append(out, filepath.Join(env.Root, filepath.FromSlash(rt.File)))
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
// belongs to now, taking it over from the other one (takeOver).
func scopeRecord(env target.Env, scope target.Scope) (*recordState, error) {
	if scope == toolprofiles.ScopeProject {
		// Read as they are, without git's word (claims.go): the targets
		// come from the profiles, inside the workspace, and a record only
		// says which of them to look at; Build, which reads the records
		// with git's word, decides what in them is repo's. That saves a
		// run of git per sync.
		rs := &recordState{kind: recordProject, env: env, path: record.ProjectPath(env.Root)}
		rec, _, err := record.Read(rs.path, env.Display(rs.path))
		if err != nil {
			return nil, err
		}
		machine := record.MachinePath(env.Root)
		mrec, _, err := record.Read(machine, env.Display(machine))
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
	rec, raw, err := record.Read(rs.path, env.Display(rs.path))
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
