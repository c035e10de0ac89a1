package plan

import (
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/gittrack"
	"github.com/repo-manager/repo/internal/record"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/termtext"
)

// Ownership is never taken on the repository's word. The two records kept
// in the workspace are read with what git says of them:
//
//   - The clone's own record (MachineRecordPath) is meant to stay on one
//     clone, ignored with the files it describes. One that git tracks came,
//     or will go, through the repository, and would claim the entries of
//     every clone's ignored files: it is refused, with the fix — git rm,
//     which deletes it too: its claims cannot be told from ones the
//     repository made, so none of them is taken as this clone's.
//   - The committed record (ProjectRecordPath) may claim entries only in
//     files git tracks, which come from the repository anyway. A claim on
//     a file git does not track — an ignored .mcp.json that holds the
//     user's own servers — is this clone's only if this clone wrote it:
//     a claim that the record as git holds it (HEAD or the index) makes
//     came with the repository, and is dropped, with a warning. Unless
//     the file's bytes are what git held for it (gittrack.FromRepository:
//     a file a per-clone policy had untracked, as the commit that did so
//     left it): then what is in it came with the repository too, and the
//     record's claims on it count, to move into the clone's own record.
//
// A workspace outside git keeps both records as they are. The records of
// local- and user-scope entries are outside the workspace, in the user's
// state folder (UserRecordPath), and only they claim entries there
// (recordKind): no record in the workspace names a file outside it.

// workspaceRecords are the committed record and the clone's own, as a
// plan may use them.
type workspaceRecords struct {
	project, machine       *record.Record
	projectRaw, machineRaw []byte // as read; nil when missing
	warnings               []string
	// inactive are the committed record's claims that do not count
	// (dropForeignClaims), taken out of project while the plan is made
	// and put back after it (restoreInactive): repo does not act on them,
	// but it does not rewrite the committed record for them either, and
	// one counts again once git tracks its file.
	inactive []*record.Entry
}

// readWorkspaceRecords reads both records of the workspace and applies
// git's word to them (see above). cache, when not nil, is the run's
// (Options.Records).
func readWorkspaceRecords(env target.Env, cache *record.Cache) (*workspaceRecords, error) {
	ppath, mpath := record.ProjectPath(env.Root), record.MachinePath(env.Root)
	wr := &workspaceRecords{}
	var err error
	if wr.project, wr.projectRaw, err = cache.Read(ppath, env.Display(ppath)); err != nil {
		return nil, err
	}
	if wr.machine, wr.machineRaw, err = cache.Read(mpath, env.Display(mpath)); err != nil {
		return nil, err
	}
	wr.dropMalformed(env, ppath, wr.project)
	wr.dropMalformed(env, mpath, wr.machine)
	if wr.projectRaw == nil && wr.machineRaw == nil {
		return wr, nil
	}
	top, ok := gittrack.Top(env.Root)
	if !ok {
		return wr, nil
	}
	var paths []string
	if wr.machineRaw != nil {
		paths = append(paths, mpath)
	}
	if wr.projectRaw != nil && len(wr.project.Targets) > 0 {
		paths = append(paths, ppath)
		for _, t := range wr.project.Targets {
			paths = append(paths, claimedPath(env, t))
		}
	}
	if len(paths) == 0 {
		return wr, nil
	}
	tracked, err := env.Git.Tracked(top, paths)
	if err != nil {
		return nil, err
	}
	if wr.machineRaw != nil && tracked[mpath] {
		rel := env.Display(mpath)
		// Not git rm --cached: the copy in the work tree would stay, and
		// its claims (which came through git, or can have) would count
		// as this clone's once git no longer tracks it.
		return nil, fmt.Errorf("%s: git tracks this clone's own ownership record, which must stay on this clone: committed, its claims could come from anyone; from the workspace root, run 'git rm %s' and commit, then repo sync again (the entries it listed are then yours until repo sync --adopt takes them over)", rel, rel)
	}
	if wr.projectRaw != nil && tracked[ppath] {
		if err := wr.dropForeignClaims(env, top, ppath, tracked); err != nil {
			return nil, err
		}
	}
	return wr, nil
}

// claimedPath is the file a workspace record's target names.
func claimedPath(env target.Env, t *record.Entry) string {
	return filepath.Join(env.Root, filepath.FromSlash(t.File))
}

// dropMalformed drops the targets of a workspace record that do not name
// a file inside the workspace by a plain relative path, which no project
// target has: a record in the workspace never speaks for a file outside
// it.
func (wr *workspaceRecords) dropMalformed(env target.Env, recPath string, rec *record.Record) {
	rec.Targets = slices.DeleteFunc(rec.Targets, func(t *record.Entry) bool {
		f := t.File
		if f != "" && !strings.HasPrefix(f, "/") && !strings.Contains(f, `\`) && !(len(f) > 1 && f[1] == ':') &&
			path.Clean(f) == f && f != ".." && !strings.HasPrefix(f, "../") {
			return false
		}
		wr.warnings = append(wr.warnings, fmt.Sprintf("%s: ignored its claim on %s: a record in the workspace names only files inside it, by a path relative to the root", env.Display(recPath), termtext.Safe(f)))
		return true
	})
}

// dropForeignClaims drops the claims of the committed record on files git
// does not track that the record as git holds it makes: they came with the
// repository. The ones only the work tree's record makes are this clone's
// (a tool's new file, not added to git yet).
func (wr *workspaceRecords) dropForeignClaims(env target.Env, top, ppath string, tracked map[string]bool) error {
	var fromGit []*record.Record
	loaded := false
	for _, t := range slices.Clone(wr.project.Targets) {
		if tracked[claimedPath(env, t)] {
			continue
		}
		if !loaded {
			head, index, err := gittrack.Versions(top, ppath)
			if err != nil {
				return err
			}
			for _, data := range [][]byte{head, index} {
				if data == nil {
					continue
				}
				rec, err := record.Parse(data, "")
				if err != nil {
					// A version repo cannot read could claim anything.
					rec = nil
				}
				fromGit = append(fromGit, rec)
			}
			loaded = true
		}
		if !slices.ContainsFunc(fromGit, func(g *record.Record) bool { return g == nil || g.Find(t.File, t.Key) != nil }) {
			continue // only this clone's record claims the file
		}
		// Asked only now: it can look through the file's history.
		fromRepo, err := gittrack.FromRepository(top, claimedPath(env, t))
		if err != nil {
			return err
		}
		if fromRepo {
			continue
		}
		off := &record.Entry{File: t.File, Key: slices.Clone(t.Key), Entries: map[string]record.Owned{}}
		var dropped []string
		for _, name := range sortedKeys(t.Entries) {
			if slices.ContainsFunc(fromGit, func(g *record.Record) bool { return g == nil || g.Claims(t.File, t.Key, name) }) {
				off.Entries[name] = t.Entries[name]
				delete(t.Entries, name)
				dropped = append(dropped, fmt.Sprintf("%q", termtext.Safe(name)))
			}
		}
		if slices.ContainsFunc(fromGit, func(g *record.Record) bool { return g == nil || g.Find(t.File, t.Key) != nil }) {
			off.Created, t.Created = t.Created, nil // what it says repo created came from the repository too
		}
		if len(t.Entries) == 0 {
			wr.project.Put(t.File, t.Key, nil)
		}
		if len(off.Entries) > 0 || off.Created != nil {
			wr.inactive = append(wr.inactive, off)
		}
		if _, err := os.Lstat(claimedPath(env, t)); len(dropped) > 0 && err == nil {
			// (A missing file holds nothing of anyone's: no warning.)
			first := strings.Trim(dropped[0], `"`)
			wr.warnings = append(wr.warnings, fmt.Sprintf("%s: ignored its claim on %s in %s: git does not track that file, and the record as git holds it makes the claim, so it may have come with the repository (a committed record claims entries only in files git tracks). The entries are yours; if repo wrote them on this clone, add the file to git ('git add %s') or take them over ('repo sync --adopt-name %s')",
				env.Display(ppath), strings.Join(dropped, ", "), termtext.Safe(t.File), termtext.Safe(t.File), first))
		}
	}
	return nil
}

// restoreInactive puts the claims that did not count back into the
// committed record as a plan leaves it (rec, and its intent), where the
// plan did not make a claim of its own on the name: the record is
// rewritten only for what the plan changed.
func (wr *workspaceRecords) restoreInactive(st *recordState) {
	for _, off := range wr.inactive {
		for _, rec := range []*record.Record{st.rec, st.intent} {
			entries := map[string]record.Owned{}
			var created *record.Created
			if e := rec.Find(off.File, off.Key); e != nil {
				maps.Copy(entries, e.Entries)
				created = e.Created
			}
			for name, o := range off.Entries {
				if _, own := entries[name]; !own {
					entries[name] = o
				}
			}
			rec.Put(off.File, off.Key, entries)
			if created == nil {
				created = off.Created
			}
			rec.SetCreated(off.File, off.Key, created)
		}
	}
}

// forgetInactive drops the claims that do not count on the files of
// targets from those restoreInactive puts back.
func (wr *workspaceRecords) forgetInactive(targets []*target.Target) {
	wr.inactive = slices.DeleteFunc(wr.inactive, func(off *record.Entry) bool {
		return slices.ContainsFunc(targets, func(t *target.Target) bool { return t.Display == off.File && slices.Equal(t.Key, off.Key) })
	})
}
