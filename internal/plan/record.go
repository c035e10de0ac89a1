package plan

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/canon"
	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/record"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// The ownership record is package internal/record: its types, its
// codec, its digests. These names keep it where importers of plan found
// it (they go when the job packages move under internal/).
type (
	// Record is record.Record: repo's memory of the entries it wrote.
	Record = record.Record
	// RecordEntry is record.Entry: what repo owns in one target.
	RecordEntry = record.Entry
	// Created is record.Created: what repo made for a target.
	Created = record.Created
	// Owned is record.Owned: one managed entry.
	Owned = record.Owned
)

// RecordCache is record.Cache: the ownership records one run parsed,
// handed from the steps that read them first (LeavingTargets,
// FormerTargets) to the plan (Options.Records).
type RecordCache = record.Cache

// NewRecordCache is an empty cache of records, for one run.
func NewRecordCache() *RecordCache { return record.NewCache() }

// ReadRecord loads a record; a missing file is an empty record
// (record.Read).
func ReadRecord(path, display string) (*Record, []byte, error) { return record.Read(path, display) }

// ProjectRecordPath is where the record of project-scope entries lives
// (record.ProjectPath).
func ProjectRecordPath(root string) string { return record.ProjectPath(root) }

// MachineRecordPath is where the record of the machine-specific project
// files lives when they are git-ignored (record.MachinePath).
func MachineRecordPath(root string) string { return record.MachinePath(root) }

// owns reports whether an entry found in a file is the one recorded (or
// the one an interrupted sync was replacing), written at any root (see
// matchesDigestAt).
func owns(env target.Env, o record.Owned, raw []byte) bool {
	return matchesDigestAt(env, raw, o.Digest) || (o.Previous != "" && matchesDigestAt(env, raw, o.Previous))
}

// relocated reports whether cur is want with the workspace root replaced by
// some other absolute path everywhere it occurs: the same entry, written by
// repo in a checkout at another path.
func relocated(cur, want []byte, root string) bool {
	if root == "" {
		return false
	}
	c, w, r := string(canon.JSON(cur)), string(canon.JSON(want)), canon.Text(root)
	i := strings.Index(w, r)
	if i < 0 || !strings.HasPrefix(c, w[:i]) {
		return false
	}
	// The other root ends where the text after the root in want resumes;
	// that text is never empty (at least the string's closing quote).
	after := w[i+len(r):]
	if j := strings.Index(after, r); j >= 0 {
		after = after[:j]
	}
	k := strings.Index(c[i:], after)
	if k <= 0 {
		return false
	}
	other := c[i : i+k]
	if other == r || !(strings.HasPrefix(other, "/") || (len(other) > 2 && other[1] == ':')) {
		return false
	}
	return strings.ReplaceAll(w, r, other) == c
}

// The records a plan reads and writes: each once, by kind (recordKind),
// with the entries of each planned file put into the record its file
// belongs to (addFiles), and the records themselves planned last
// (addRecords).

// recordSet is the ownership records a plan reads, each once, by kind
// (recordProject, recordMachine, recordUser).
type recordSet struct {
	env       target.Env
	aliases   *aliasPlan
	clone     *cloneState       // the clone's identity, for a plan of per-user files
	reals     map[string]string // the targets' real paths, by path
	bases     *baseStore        // the bases of hand edits (bases.go)
	byKind    map[string]*recordState
	workspace *workspaceRecords // the two in the workspace, read together (claims.go)
	cache     *record.Cache     // the run's parsed records (Options.Records), or nil
}

// get reads the record of a kind, the first time it is asked for.
func (rs *recordSet) get(kind string) (*recordState, error) {
	if st, ok := rs.byKind[kind]; ok {
		return st, nil
	}
	env := rs.env
	var path string
	var rec *record.Record
	var raw []byte
	var err error
	switch kind {
	case recordProject, recordMachine:
		if rs.workspace == nil {
			if rs.workspace, err = readWorkspaceRecords(env, rs.cache); err != nil {
				return nil, err
			}
		}
		path, rec, raw = record.ProjectPath(env.Root), rs.workspace.project, rs.workspace.projectRaw
		if kind == recordMachine {
			path, rec, raw = record.MachinePath(env.Root), rs.workspace.machine, rs.workspace.machineRaw
		}
	default:
		if path, err = UserRecordPath(env); err != nil {
			return nil, err
		}
		if rec, raw, err = rs.cache.Read(path, env.Display(path)); err != nil {
			return nil, err
		}
		rec.Root = env.Root
		rs.aliases.adoptInto(rec)
	}
	canonicalFiles(env, kind, rec, rs.reals) // see samefile.go
	st := &recordState{kind: kind, env: env, path: path, rec: rec, intent: rec.Clone(), before: raw, bases: rs.bases}
	if kind == recordUser {
		if st.others, err = readOthers(env, path, rs.reals); err != nil { // see workspaces.go
			return nil, err
		}
	}
	rs.byKind[kind] = st
	return st, nil
}

// warnings are what reading the records found to say (claims.go).
func (rs *recordSet) warnings() []string {
	if rs.workspace == nil {
		return nil
	}
	return rs.workspace.warnings
}

// ofFiles is the record each file's entries go into.
func (rs *recordSet) ofFiles(files []*fileGroup) ([]*recordState, error) {
	states := make([]*recordState, len(files))
	for i, file := range files {
		var err error
		if states[i], err = rs.get(recordKind(rs.env, file.targets)); err != nil {
			return nil, err
		}
		if file.targets[0].Scope == target.ScopeProject {
			// A project file's entries are in the committed record or in
			// the clone's own (the machine-specific files, when they are
			// git-ignored): one that the other record holds, from before
			// [mcp] gitignore was turned on or off, moves over.
			other := recordMachine
			if states[i].kind == recordMachine {
				other = recordProject
			}
			from, err := rs.get(other)
			if err != nil {
				return nil, err
			}
			states[i].takeOver(from, file.targets)
			if states[i].kind == recordMachine {
				// The committed record's claims on a per-clone file that
				// do not count here (claims.go) are not kept for later
				// either: no committed record claims a per-clone file,
				// and every clone, dropping them, agrees.
				rs.workspace.forgetInactive(file.targets)
			}
		}
	}
	return states, nil
}

// addRecords adds the ownership records the plan read to p, as they are
// to be after it. A record that is to change and that this user may not
// write is refused, as a tool's file is (checkWritable).
func (p *Plan) addRecords(env target.Env, records *recordSet, opts Options) error {
	configsChange := slices.ContainsFunc(p.Files, func(f *FilePlan) bool { return f.Changed() })
	var errs []error
	for _, kind := range []string{recordProject, recordMachine, recordUser} {
		rs, ok := records.byKind[kind]
		if !ok || (kind == recordMachine && opts.CommittedOnly && env.Gitignore) {
			continue
		}
		rs.rec.Version, rs.intent.Version = rs.rec.MinVersion(), rs.intent.MinVersion()
		after := rs.rec.Bytes()
		if rs.before == nil && len(rs.rec.Targets) == 0 {
			continue // nothing owned, nothing to remember
		}
		fp := &FilePlan{Path: rs.path, Display: env.Display(rs.path), Scope: ScopeRecord,
			Existed: rs.before != nil, Before: rs.before, After: after, Mode: newFileMode(rs.kind != recordUser), PerClone: rs.kind == recordMachine}
		// A per-user record that owns nothing goes: it is outside the
		// workspace, and would outlive it.
		fp.Delete = kind == recordUser && len(rs.rec.Targets) == 0
		if fp.Changed() {
			fp.Changes = []Change{{Action: ActionUpdate, Reason: ReasonRecord}}
			if fp.Delete {
				fp.Changes[0] = Change{Action: ActionDelete, Reason: ReasonRecordEmpty}
			}
			// A record that changes with the files is written first, as
			// its intent, so that no entry repo writes is ever on disk
			// unrecorded: an entry a killed run left unrecorded would be
			// indistinguishable from the user's own.
			if intent := rs.intent.Bytes(); !bytes.Equal(intent, after) || configsChange {
				fp.Intent = intent
			}
			if fi, err := os.Stat(rs.path); err == nil && fp.Existed && !opts.ReadOnly {
				if err := fileio.CheckWritable(rs.path, fi); err != nil {
					errs = append(errs, &FileError{File: fp.Display, Err: err})
				}
			}
		}
		p.Files = append(p.Files, fp)
	}
	return errors.Join(errs...)
}

// recordPut is a Record.Put to make when the plan is merged: entries to
// the record, intent to its intent (see FilePlan.Intent).
type recordPut struct {
	file    string
	key     []string
	entries map[string]record.Owned
	intent  map[string]record.Owned
	// created is what repo created for the target (Created), in the
	// record and in its intent alike: it only grows while the target has
	// entries, and goes with the target.
	created *record.Created
}

// The records a plan reads and writes (recordState.kind).
const (
	recordProject = "project" // .repository/mcp-managed.json, committed
	recordMachine = "machine" // .repository/mcp-managed.machine.json, git-ignored
	recordUser    = "user"    // the per-user record of local and user scope
)

// recordKind is the record of the entries in a file (the targets of one
// file group): the per-user record for local and user scope; for a project
// file the committed record, or the clone's own when the file is
// machine-specific and git-ignored (Env.Gitignore). Entries in a file each
// clone writes for itself are that clone's: a committed claim on them
// would make a teammate's own entry of the same name look like repo's,
// and would forget, when a commit removes an extension, the entries a
// teammate's file still holds.
func recordKind(env target.Env, group []*target.Target) string {
	switch {
	case group[0].Scope != toolprofiles.ScopeProject:
		return recordUser
	case env.Gitignore && slices.ContainsFunc(group, func(t *target.Target) bool { return t.Machine }):
		return recordMachine
	}
	return recordProject
}

type recordState struct {
	kind   string
	env    target.Env
	others *otherClaims // of a per-user record: the other workspaces' (workspaces.go)
	bases  *baseStore   // the bases of hand edits (bases.go)
	path   string
	rec    *record.Record // as it will be
	intent *record.Record // as it is while the sync is applied
	before []byte
}

// takeOver moves into rs what the other workspace record holds of the
// targets and rs does not, with what repo created for them (record.Record.Take).
// The other record's intent keeps it until the sync is applied, so a run
// killed halfway leaves it owned in one of them.
func (rs *recordState) takeOver(from *recordState, targets []*target.Target) {
	for _, t := range targets {
		file := rs.fileKey(t)
		e := from.rec.Find(file, t.Key)
		if e == nil {
			continue
		}
		if rs.rec.Find(file, t.Key) != nil {
			// Both claim it (a run that wrote the one record only, as
			// repo sync --hook does): the other's claim goes.
			from.rec.Put(file, t.Key, nil)
			continue
		}
		rs.rec.Take(e)
		rs.intent.Take(e)
		from.rec.Put(file, t.Key, nil)
	}
}

// handOver keeps what a dropped target knew of its file, which stays
// (another target of the record still has entries in it, or the user
// added to it): the record's other targets in that file now say that repo
// created it, so the last of them to go deletes it when it is empty.
func handOver(r *record.Record, puts []recordPut) {
	for _, put := range puts {
		if len(put.entries) > 0 || put.created == nil || !put.created.File {
			continue
		}
		for _, t := range r.Targets {
			if t.File != put.file {
				continue
			}
			c := t.Created.Clone()
			if c == nil {
				c = &record.Created{}
			}
			c.File, c.Folders = true, max(c.Folders, put.created.Folders)
			t.Created = c
		}
	}
}

// heldEntries is how many entries the record says repo wrote into the
// file of a group of targets.
func heldEntries(rs *recordState, group []*target.Target) int {
	n := 0
	for _, t := range group {
		if e := rs.rec.Find(rs.fileKey(t), t.Key); e != nil {
			n += len(e.Entries)
		}
	}
	return n
}

// fileKey is how the record names a target's file: by its real path,
// root-relative in the project record, absolute in a per-user one (see
// recordFile).
func (rs *recordState) fileKey(t *target.Target) string {
	return targetFile(rs.env, rs.kind, t)
}
