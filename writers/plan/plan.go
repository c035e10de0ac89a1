package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/gittrack"
	"github.com/repo-manager/repo/internal/jsonvalue"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/par"
	"github.com/repo-manager/repo/internal/regfile"
	"github.com/repo-manager/repo/internal/shellquote"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers/internal/canon"
	"github.com/repo-manager/repo/writers/internal/fileio"
	"github.com/repo-manager/repo/writers/internal/record"
	"github.com/repo-manager/repo/writers/target"
)

// Action is what a Change does to an entry (ActionDelete: to the whole
// file).
type Action string

// Actions a plan can take on an entry.
const (
	ActionAdd    Action = "add"
	ActionUpdate Action = "update"
	ActionRemove Action = "remove"
	ActionAdopt  Action = "adopt"
	ActionForget Action = "forget" // dropped from the record, left in the file
	ActionDelete Action = "delete" // the whole file: repo created it, and nothing is left in it
)

// The scopes of the planned files that no tool reads.
const (
	// ScopeGitignore is the scope of a plan's .gitignore (see IgnoreFile).
	ScopeGitignore target.Scope = "gitignore"
	// ScopeRecord is the scope of an ownership record.
	ScopeRecord target.Scope = "record"
)

// Reason is why a Change is made, as --check prints it.
type Reason string

// Reasons, as --check prints them.
const (
	ReasonMissing    Reason = "missing entry"
	ReasonStale      Reason = "stale entry"
	ReasonHandEdited Reason = "hand-edited entry"
	ReasonGone       Reason = "entry of a removed server"
	ReasonAdopted    Reason = "user entry adopted"
	ReasonRelocated  Reason = "entry written at another workspace root"
	ReasonRecord     Reason = "ownership record out of date"
	// ReasonDeselected: the tool left the [mcp] tools list.
	ReasonDeselected Reason = "entry of a tool no longer selected"
	// ReasonForgotten: repo forget named the tool.
	ReasonForgotten Reason = "entry of a forgotten tool"
	// ReasonCreatedEmpty: a file repo created holds nothing any more.
	ReasonCreatedEmpty Reason = "file repo created, left empty"
)

// Change is one thing a plan does to a file.
type Change struct {
	Action Action `json:"action"`
	Entry  string `json:"entry,omitempty"`
	Reason Reason `json:"reason"`
}

// FilePlan is one file's planned new content.
type FilePlan struct {
	Path    string       // absolute path to write (symlinks resolved)
	Display string       // as shown to people
	Scope   target.Scope // project, local, user; ScopeRecord, ScopeGitignore
	Tools   []string     // profile ids reading the file
	Existed bool
	Before  []byte
	After   []byte
	Mode    fs.FileMode // of a new file, before the umask (see newFileMode)
	// Intent, for an ownership record that changes with tool configs, is
	// what Apply writes into it before any of them: After plus the entries
	// as they are now (Owned.Previous) and those the sync removes, so that
	// a run killed halfway leaves a record that knows every entry of
	// repo's in whichever version the files hold, and every entry it adds
	// before the entry is on disk. Equal to After when that already does:
	// Apply then writes the record once, first. Nil when no config changes.
	Intent []byte
	// Delete: the file goes. It is a file repo created, left holding
	// nothing but what a new file of its format holds (see Created.File).
	// After is then that content: what the file keeps where it cannot be
	// removed (see deleteFile), and Mode the file's mode.
	Delete  bool
	Changes []Change
	// Format is the file's format for a tool's file (Diff redacts what a
	// user's values hold in it), empty for a record or a .gitignore.
	Format target.Format
	// PerClone: the file is this clone's own under a per-clone policy
	// (Env.Gitignore): a machine-specific file git ignores, or the
	// clone's record of it. A commit never holds it.
	PerClone bool
	// ours are repo's entries in the file, as it writes them
	// (ordered.Object) and as the file holds those it removes ([]byte):
	// their values are never redacted.
	ours  []any
	locks []*fileio.ToolLock // of the tools reading the file (Target.Locks)
	// folders are the folders repo created for the file, innermost first
	// (Created.Folders): removed after the file is deleted, if empty.
	folders []string
}

// ToolLocks are the locks of the tools reading the file, which Apply takes
// around replacing it (see target.Target.Locks).
func (f *FilePlan) ToolLocks() []*fileio.ToolLock { return f.locks }

// CreatedFolders are the folders repo created for a file it deletes,
// innermost first: Apply removes them after the file, if they are empty.
func (f *FilePlan) CreatedFolders() []string { return f.folders }

// newFileMode is the mode a new file is created with, less the umask as
// for any program's new file: 0666 for a project file, which is meant to
// be shared, and 0600 for a per-user file (local and user scope, and the
// per-user record), which can hold tokens and is nobody else's business.
func newFileMode(project bool) fs.FileMode {
	if project {
		return 0o666
	}
	return 0o600
}

// Changed reports whether applying the plan would write the file.
func (f *FilePlan) Changed() bool {
	if f.Delete {
		return f.Existed
	}
	if !f.Existed {
		return f.After != nil
	}
	return !bytes.Equal(f.Before, f.After)
}

// Plan is everything a sync would do.
type Plan struct {
	Files    []*FilePlan
	Warnings []string
	// Unchecked are the machine-specific files that a plan with
	// Options.CommittedOnly left out (only Display, Scope and Tools are
	// set).
	Unchecked []*FilePlan
	// Yours are the user's own entries that already are what a server
	// wants, which repo leaves as they are: not recorded, not written, not
	// removed when the server goes.
	Yours []Yours
	// Shadows are the names repo writes that an entry of the user's has
	// in another scope of the same tool (shadow.go).
	Shadows []Shadow
	// Tracked are the machine-specific files git tracks, which a plan
	// under a per-clone policy leaves as the repository has them
	// (tracked.go; the targets must have been through MarkTracked).
	Tracked []TrackedFile
	unmap   []func()       // the mappings of a ReadOnly plan
	checks  []*shadowCheck // what Build looks for in other scopes

	// KeptEdits are the managed entries whose hand edits the plan keeps
	// (handedit.go).
	KeptEdits []KeptEdit
	// State are repo's own files that the plan keeps besides the tools'
	// and the records: the clone's identity (identity.go) and the bases of
	// hand edits (bases.go). Apply writes them once the rest is written.
	// They are never out of date: Stale and --check do not look at them.
	State []*FilePlan
}

// Yours is an entry of the user's own (not in this workspace's record)
// that is exactly what an extension's server wants, which repo leaves to
// the user (Options.Adopt takes it over).
type Yours struct {
	File      string       // as shown to people
	Scope     target.Scope // project, local or user
	Tools     []string     // the tools reading the file
	Entry     string       // the entry's name
	Extension string       // the extension declaring the server
	Line      int          // of the entry; 0 when unknown
	// Workspace, when set, is the root of the other workspace whose
	// per-user record holds the entry (workspaces.go): it stays that
	// workspace's.
	Workspace string
}

// Close releases the files a ReadOnly plan mapped. After it, the Before
// and After of an unchanged mapped file must not be read. Close is a no-op
// on other plans.
func (p *Plan) Close() {
	for _, u := range p.unmap {
		u()
	}
	p.unmap = nil
}

// Mapped is how many files a ReadOnly plan holds mapped until Close.
func (p *Plan) Mapped() int { return len(p.unmap) }

// Stale returns the files a sync would write.
func (p *Plan) Stale() []*FilePlan {
	var out []*FilePlan
	for _, f := range p.Files {
		if f.Changed() {
			out = append(out, f)
		}
	}
	return out
}

// Options change what a plan may do.
type Options struct {
	// Adopt lets repo take over a user's own entry that has the name of a
	// managed server, instead of refusing.
	Adopt bool
	// AdoptNames lets repo take over the user's own entries of these names
	// only (repo mcp import: the entries it made an extension of).
	AdoptNames []string
	// AcceptRelocated counts an entry that differs from the wanted one only
	// by the workspace root as up to date: configs committed by a teammate,
	// checked out at another path (portable mode, --check).
	AcceptRelocated bool
	// CommittedOnly plans what a commit holds (--check): with
	// Env.Gitignore, the machine-specific files and the clone's record of
	// them are left out. They are each clone's own, written by repo sync:
	// a fresh clone or a CI checkout has none, and one a pull made stale
	// is no reason to stop a commit.
	CommittedOnly bool
	// Ignore, when not nil, plans the workspace's .gitignore: repo's block
	// in it made to list the block's paths (gitignore.go).
	Ignore *IgnoreBlock
	// Committed, when set, says whether git commits a project target's
	// file (it may be asked from several files at once). The user's own
	// entries in such a file are checked for literal credentials: each
	// is a warning naming the entry and the field, never the value.
	Committed func(*target.Target) bool
	// Ours and Theirs name entries whose hand edits collide with the
	// extension's changes (handedit.go): for those in Ours the user's
	// value of each such field is kept, for those in Theirs the
	// extension's is taken.
	Ours, Theirs []string
	// ReadOnly promises that the plan is only looked at, never applied
	// (--check): large files are then mapped instead of read, which for a
	// 100 MB ~/.claude.json saves more time than checking it takes. Such a
	// plan holds the mapping of every large file it left unchanged until
	// Close. A plan to apply needs a snapshot of what it planned from.
	ReadOnly bool
}

// ConflictError is a user's own entry in the way of a managed one.
type ConflictError struct {
	File  string
	Line  int
	Entry string
	Tools []string
	// FromRepository: the file holds what git held for it, so the entry
	// came with the repository rather than from this clone's user.
	FromRepository bool
}

func (e *ConflictError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.FromRepository {
		return fmt.Sprintf("%s: entry %q already exists and is not what repo writes for it: it came with the repository (git held this file as it is), and no record of this clone's says repo wrote it; rename or delete it to keep both, or run `repo sync --adopt-name %s` to let repo manage it", loc, e.Entry, termtext.Safe(shellquote.Join([]string{e.Entry})))
	}
	return fmt.Sprintf("%s: entry %q already exists and was not written by repo (it is your own); rename or delete it to keep both, or run `repo sync --adopt` to let repo manage it", loc, e.Entry)
}

// FileError is a problem with one target file.
type FileError struct {
	File      string
	Line, Col int
	Err       error
}

func (e *FileError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Col)
	}
	return fmt.Sprintf("%s: %v", loc, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// Build plans every target. It reads files and records but writes nothing.
// Every file is checked before any error is returned, so one run reports
// every broken file at once.
func Build(env target.Env, targets []*target.Target, opts Options) (*Plan, error) {
	p := &Plan{}
	env, clone, err := recogniseFor(env, targets) // a moved workspace: see identity.go
	if err != nil {
		return nil, err
	}
	targets, aliases, err := planAliases(env, targets) // see alias.go
	if err != nil {
		return nil, err
	}
	records := &recordSet{env: env, aliases: aliases, clone: clone, reals: realsOf(targets), byKind: map[string]*recordState{}}
	var basesWarning string
	records.bases, basesWarning = readBases(env) // see bases.go
	files, err := groupByFile(targets)
	if err != nil {
		return nil, err
	}
	files, p.Tracked = leaveTracked(env, files)
	states, err := records.ofFiles(files)
	if err != nil {
		return nil, err
	}
	if top, ok := gittrack.Top(env.Root); ok {
		for i, file := range files {
			if states[i].kind == recordMachine {
				file.fromRepo = fromRepository(top, file.path)
			}
		}
	}
	if opts.CommittedOnly && env.Gitignore {
		files, states = p.leaveOutMachineFiles(files, states)
	}
	root := resolveRoot(env.Root)
	errs := p.addFiles(files, states, planFiles(env, root, files, states, opts))
	if opts.Ignore != nil {
		fp, err := planIgnore(env, root, opts.Ignore)
		switch {
		case err != nil:
			errs = append(errs, err)
		case fp.Existed || fp.Changed():
			p.Files = append(p.Files, fp)
		}
	}
	if len(errs) == 0 {
		if err := p.addShadows(env, records, p.checks, opts); err != nil {
			errs = append(errs, err)
		}
	}
	p.checks = nil
	if len(errs) > 0 {
		p.Close()
		return nil, errors.Join(errs...)
	}
	p.Warnings = append(records.warnings(), p.Warnings...)
	if basesWarning != "" {
		p.Warnings = append(p.Warnings, basesWarning)
	}
	if st, ok := records.byKind[recordProject]; ok {
		records.workspace.restoreInactive(st)
	}
	if err := p.addWorkspaceState(env, records, opts); err != nil { // workspaces.go
		p.Close()
		return nil, err
	}
	if err := p.addRecords(env, records, opts); err != nil {
		return nil, err
	}
	if !opts.ReadOnly {
		p.State = append(p.State, records.keepBases()...)
	}
	return p, nil
}

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
			if rs.workspace, err = readWorkspaceRecords(env); err != nil {
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
		if rec, raw, err = record.Read(path, env.Display(path)); err != nil {
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

// leaveOutMachineFiles drops the files whose entries go into the clone's
// own record (Options.CommittedOnly), listing them as Unchecked.
func (p *Plan) leaveOutMachineFiles(files []*fileGroup, states []*recordState) ([]*fileGroup, []*recordState) {
	kept, keptStates := files[:0:0], states[:0:0]
	for i, file := range files {
		if states[i].kind == recordMachine {
			first := file.targets[0]
			left := &FilePlan{Path: file.path, Display: first.Display, Scope: first.Scope}
			for _, t := range file.targets {
				left.Tools = append(left.Tools, t.Tools...)
			}
			slices.Sort(left.Tools)
			left.Tools = slices.Compact(left.Tools)
			p.Unchecked = append(p.Unchecked, left)
			continue
		}
		kept, keptStates = append(kept, file), append(keptStates, states[i])
	}
	return kept, keptStates
}

// planFiles plans the files at once, each on its own; addFiles merges what
// they add to the plan in file order, so that the plan is the same as one
// made a file at a time.
func planFiles(env target.Env, root realRoot, files []*fileGroup, states []*recordState, opts Options) []planned {
	results := make([]planned, len(files))
	par.Each(len(files), runtime.GOMAXPROCS(0), func(i int) {
		r := &results[i]
		r.err = fileio.WithFaults(func() (err error) {
			r.fp, err = planFile(env, root, files[i], states[i], opts, &r.out)
			return err
		})
	})
	return results
}

// addFiles adds the planned files to p and their entries to their
// records, and returns the files' errors.
func (p *Plan) addFiles(files []*fileGroup, states []*recordState, results []planned) []error {
	var errs []error
	for i, r := range results {
		p.unmap = append(p.unmap, r.out.unmap...)
		err := r.err
		if errors.Is(err, fileio.ErrFault) {
			err = &FileError{File: files[i].targets[0].Display, Err: err}
		}
		if joined, ok := err.(interface{ Unwrap() []error }); ok {
			errs = append(errs, joined.Unwrap()...) // each its own line
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		p.Warnings = append(p.Warnings, r.out.warnings...)
		p.Yours = append(p.Yours, r.out.yours...)
		for _, d := range r.out.drops {
			d.drop()
		}
		p.KeptEdits = append(p.KeptEdits, r.out.kept...)
		for _, b := range r.out.bases {
			states[i].bases.add(b.section, b.digest, b.text)
		}
		p.checks = append(p.checks, r.out.shadows...)
		for _, put := range r.out.puts {
			states[i].rec.Put(put.file, put.key, put.entries)
			states[i].rec.SetCreated(put.file, put.key, put.created)
			states[i].intent.Put(put.file, put.key, put.intent)
			states[i].intent.SetCreated(put.file, put.key, put.created)
		}
		if !r.fp.Delete {
			handOver(states[i].rec, r.out.puts)
		}
		p.Files = append(p.Files, r.fp)
	}
	return errs
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

// planned is one file's plan and what it adds to the whole plan.
type planned struct {
	fp  *FilePlan
	err error
	out fileOut
}

// fileOut is what planning a file adds to the plan besides its FilePlan,
// kept apart until the files planned at once are merged.
type fileOut struct {
	warnings []string
	yours    []Yours
	drops    []claimDrop // claims taken from other workspaces' records
	kept     []KeptEdit  // entries whose hand edits are kept
	bases    []baseText  // the bases of entries written (bases.go)
	shadows  []*shadowCheck
	unmap    []func() // mappings of a ReadOnly plan
	puts     []recordPut
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

// fileGroup is the targets that land in one file.
type fileGroup struct {
	path    string // symlinks resolved, where the file exists
	real    bool   // path is the file's resolved path: it existed
	targets []*target.Target
	// fromRepo, for a per-clone file in git, says whether the file holds
	// what git held for it (tracked.go): what repo wrote into it on
	// another clone is then recognised as repo's.
	fromRepo func() (bool, error)
}

// groupByFile puts targets that land in one file together, in the order of
// their first target: the file is read, edited and written once. Symlinks
// are resolved so that two paths to one file are one file, and so the
// write goes through the link.
func groupByFile(targets []*target.Target) ([]*fileGroup, error) {
	byPath := map[string]*fileGroup{}
	var files []*fileGroup
	for _, t := range targets {
		real, resolved := t.Path, false
		if t.Real != "" {
			// Resolved by target.Build already; it is the file's own path
			// only if the file exists.
			if _, err := os.Stat(t.Real); err == nil {
				real, resolved = t.Real, true
			}
		} else if r, err := filepath.EvalSymlinks(t.Path); err == nil {
			real, resolved = r, true
		} else if !fileio.IsMissing(err) {
			return nil, &FileError{File: t.Display, Err: err}
		}
		g, ok := byPath[real]
		if !ok {
			g = &fileGroup{path: real, real: resolved}
			byPath[real] = g
			files = append(files, g)
		}
		g.targets = append(g.targets, t)
	}
	return files, nil
}

func planFile(env target.Env, root realRoot, file *fileGroup, rs *recordState, opts Options, out *fileOut) (*FilePlan, error) {
	path, group := file.path, file.targets
	first := group[0]
	fp := &FilePlan{Path: path, Display: first.Display, Scope: first.Scope, Mode: newFileMode(first.Scope == toolprofiles.ScopeProject), Format: first.Format, PerClone: rs.kind == recordMachine}
	for _, t := range group {
		fp.Tools = append(fp.Tools, t.Tools...)
		for _, l := range t.Locks {
			if !slices.ContainsFunc(fp.locks, func(o *fileio.ToolLock) bool { return *o == *l }) {
				fp.locks = append(fp.locks, l)
			}
		}
		if t.Format != first.Format {
			return nil, &FileError{File: first.Display, Err: fmt.Errorf("tools %s and %s read this file with different formats", strings.Join(first.Tools, ","), strings.Join(t.Tools, ","))}
		}
	}
	slices.Sort(fp.Tools)
	fp.Tools = slices.Compact(fp.Tools)
	format, err := FormatFor(first)
	if err != nil {
		return nil, &FileError{File: first.Display, Err: err}
	}
	if err := checkWritable(env, root, file, first); err != nil {
		return nil, err
	}
	doc, snap, err := openDocument(first.Display, path, format, heldEntries(rs, group), opts.ReadOnly, &out.unmap)
	if err != nil {
		return nil, err
	}
	fp.Existed, fp.Before = snap.existed, snap.data
	before := doc
	checks := len(out.shadows)
	for _, t := range group {
		doc, err = planTarget(env, doc, t, fp, rs, opts, out, file.fromRepo)
		if err != nil {
			return nil, err
		}
	}
	for _, sc := range out.shadows[checks:] {
		// The tools' other scopes may be in this very file (Claude
		// Code's local and user scopes): look there while it is parsed.
		if err := sc.lookInFile(path, before); err != nil {
			return nil, err
		}
	}
	if doc == before && fp.Existed {
		fp.After = fp.Before // untouched, byte for byte
	} else {
		fp.After = doc.Bytes()
		if opts.ReadOnly && fp.Existed {
			// Before may be a mapping; what outlives Close must be a copy.
			fp.Before = bytes.Clone(fp.Before)
		}
	}
	if !fp.Existed && len(fp.Changes) == 0 {
		fp.After = nil // no entries for a file that does not exist: do not create it
	}
	if fp.Existed {
		if err := planDelete(fp, first, doc, out.puts, root); err != nil {
			return nil, err
		}
	}
	if snap.mapped {
		if err := fileio.CheckSteady(path, snap.ver); err != nil {
			return nil, &FileError{File: first.Display, Err: err}
		}
	}
	return fp, nil
}

// planDelete makes fp the deletion of its file when repo created it and
// nothing is left in it: a target whose record says it created the file
// (Created.File) loses its last entry in this plan, and the file holds no
// more than a new file of its format ({} for JSON, nothing for TOML, the
// skeleton for YAML). A file that is a symbolic link now is never deleted
// (its target is not what repo created; the folders on the way may be
// links). The folders repo created for it go too, when empty.
func planDelete(fp *FilePlan, t *target.Target, doc Document, puts []recordPut, root realRoot) error {
	folders, ours := 0, false
	for _, put := range puts {
		if len(put.entries) == 0 && put.created != nil && put.created.File {
			ours = true
			folders = max(folders, put.created.Folders)
		}
	}
	if !ours || !doc.Bare() {
		return nil
	}
	fi, err := os.Lstat(t.Path)
	if err != nil || !fi.Mode().IsRegular() {
		return nil // a link now: what it points to is not what repo created
	}
	fp.Delete, fp.Mode = true, fi.Mode().Perm()
	fp.Changes = append(fp.Changes, Change{Action: ActionDelete, Reason: ReasonCreatedEmpty})
	dir := filepath.Dir(t.Path)
	for range folders {
		if parent := filepath.Dir(dir); parent == dir {
			break
		}
		// A project file's folders are the workspace's: whatever a
		// record says repo created, the root and what is above it stay.
		if t.Scope == toolprofiles.ScopeProject && (!within(root.path, existingRealPath(dir)) || existingRealPath(dir) == root.path) {
			break
		}
		fp.folders = append([]string{dir}, fp.folders...)
		dir = filepath.Dir(dir)
	}
	return nil
}

// missingFolders is how many of the folders above path do not exist.
func missingFolders(path string) int {
	n := 0
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(dir); err == nil || filepath.Dir(dir) == dir {
			return n
		}
		n++
	}
}

// noteCreated adds to c (what the record says repo created for t) what
// writing t's first entries into doc creates: the file, when it does not
// exist (with the folders it needs), and the containers of the key path
// that are missing (found is whether Entries found the server map).
func noteCreated(c *record.Created, doc Document, t *target.Target, newFile, found bool) *record.Created {
	if c == nil {
		c = &record.Created{}
	}
	if newFile {
		c.File, c.Folders = true, missingFolders(t.Path)
	}
	if !found {
		// TOML's Depth is always len(t.Key): it has no containers to make.
		if depth, err := doc.Depth(t.Key); err == nil && depth < len(t.Key) {
			if !isKeyPrefix(c.Key, t.Key) || len(c.Key) > depth+1 {
				c.Key = slices.Clone(t.Key[:depth+1])
			}
		}
	}
	return c
}

// dropCreated removes, from the innermost up, the containers of t's key
// path that repo created (c.Key and those under it) and that are empty:
// what is left when a target's last entry has gone.
func dropCreated(doc Document, t *target.Target, c *record.Created) (Document, error) {
	if c == nil || len(c.Key) == 0 || !isKeyPrefix(c.Key, t.Key) {
		return doc, nil
	}
	for i := len(t.Key); i >= len(c.Key); i-- {
		nd, removed, err := doc.DeleteEmpty(t.Key[:i])
		if err != nil {
			return nil, fmt.Errorf("removing the empty %s repo created: %w", keyString(t.Key[:i]), err)
		}
		if !removed {
			break
		}
		doc = nd
	}
	return doc, nil
}

// isKeyPrefix reports whether p is a non-empty prefix of key.
func isKeyPrefix(p, key []string) bool {
	return len(p) > 0 && len(p) <= len(key) && slices.Equal(p, key[:len(p)])
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

// planTarget plans one target of a file: it compares the entries the file
// holds at t.Key with the ones repo wants and the record says repo wrote,
// notes each change, edits doc and returns it, and adds the target's part
// of the record to out.
//
// fromRepo, when not nil, says whether the file holds what git held for
// it: an entry no record claims that is what repo writes for a server
// (here, or at another root) was written by repo on another clone, and is
// recognised as repo's.
func planTarget(env target.Env, doc Document, t *target.Target, fp *FilePlan, rs *recordState, opts Options, out *fileOut, fromRepo func() (bool, error)) (Document, error) {
	members, found, err := doc.Entries(t.Key)
	if err != nil {
		l, c := position(err)
		return nil, &FileError{File: t.Display, Line: l, Col: c,
			Err: fmt.Errorf("%v (repo expects the server map %s here)", stripPosition(err), keyString(t.Key))}
	}
	tp := &targetPlan{env: env, t: t, fp: fp, opts: opts, out: out, committed: rs.kind == recordProject, fromRepo: fromRepo,
		current: map[string]Member{}, next: map[string]record.Owned{}, intent: map[string]record.Owned{}}
	for _, m := range members {
		tp.current[m.Key] = m
	}
	recFile := rs.fileKey(t)
	tp.others, tp.recFile = rs.others, recFile
	tp.bases, tp.section = rs.bases, basesWorkspace
	if rs.kind == recordUser {
		tp.section = basesUser
	}
	if e := rs.rec.Find(recFile, t.Key); e != nil {
		tp.owned = e.Entries
		tp.created = e.Created.Clone()
	}
	tp.movedHere(rs)
	var conflicts []error // every entry whose hand edits collide, at once
	for _, d := range t.Entries {
		if err := tp.want(doc, d); err != nil {
			if _, ok := err.(*EditConflictError); ok {
				conflicts = append(conflicts, err)
				continue
			}
			return nil, err
		}
	}
	if len(conflicts) > 0 {
		return nil, errors.Join(conflicts...)
	}
	tp.dropGone()
	tp.noteBases()
	if sc := tp.shadowCheck(); sc != nil {
		out.shadows = append(out.shadows, sc)
	}
	if opts.Committed != nil && t.Scope == target.ScopeProject {
		tp.warnUserSecrets(doc, members)
	}
	if doc, err = tp.edit(doc, found); err != nil {
		return nil, err
	}
	out.puts = append(out.puts, recordPut{file: recFile, key: t.Key, entries: tp.next, intent: tp.intent, created: tp.created})
	return doc, nil
}

// movedHere counts as repo's the entries the tool moved into this file
// from a place it read its servers from before (Target.Former): each one
// whose name the record lists there, and whose members repo answers for
// still hold what repo wrote. An entry of that name that differs is the
// user's, as it would be anywhere else.
func (tp *targetPlan) movedHere(rs *recordState) {
	for _, pl := range tp.t.Former {
		e := rs.rec.Find(rs.fileKey(&target.Target{Path: pl.Path, Display: tp.env.Display(pl.Path)}), pl.Key)
		if e == nil {
			continue
		}
		for _, name := range sortedKeys(e.Entries) {
			if _, ok := tp.owned[name]; ok {
				continue
			}
			cur, present := tp.current[name]
			if !present || !owns(tp.env, e.Entries[name], canon.Only(cur.Value, tp.t.Judged())) {
				continue
			}
			owned := make(map[string]record.Owned, len(tp.owned)+1)
			maps.Copy(owned, tp.owned)
			owned[name] = e.Entries[name]
			tp.owned = owned
		}
	}
}

// targetPlan is the state of planTarget: what the file holds, what the
// record says, and what the plan does so far.
type targetPlan struct {
	env  target.Env
	t    *target.Target
	fp   *FilePlan
	opts Options
	out  *fileOut
	// committed: the file's entries are in the committed record (a file
	// the team commits), not a per-clone or per-user one.
	committed bool
	fromRepo  func() (bool, error) // see planTarget
	err       error                // from fromRepo, returned by want

	current map[string]Member       // the file's entries
	owned   map[string]record.Owned // what the record says repo wrote
	created *record.Created         // what repo created for the target
	next    map[string]record.Owned // the record after the plan
	intent  map[string]record.Owned // next, and what the file holds of repo's now
	// Entries already in the file are replaced together, after the loop,
	// in one edit (a moved root or an upgrade changes every entry).
	updates []target.Desired
	adds    []target.Desired // written together at the end, in one edit
	gone    []string         // deleted together after the loop
	added   []string         // names the plan adds or takes over (shadow.go)

	recFile string       // the file, as the record names it
	others  *otherClaims // the other workspaces' claims (per-user files: workspaces.go)
	bases   *baseStore   // the bases of hand edits, and their section (bases.go)
	section string
	wanted  map[string]ordered.Object // what each server wants, for its base
}

func (tp *targetPlan) change(action Action, entry string, reason Reason) {
	tp.fp.Changes = append(tp.fp.Changes, Change{Action: action, Entry: entry, Reason: reason})
}

// replacing notes that the file's entry name, cur, is replaced by repo's
// o: until the file is written, the record's intent knows cur as repo's.
func (tp *targetPlan) replacing(name string, o record.Owned, cur []byte) {
	o.Previous = record.NormalizedDigest(canon.Only(cur, tp.t.Judged()), tp.env.Root)
	if o.Previous == o.Digest {
		o.Previous = ""
	}
	o.Defaults = tp.intent[name].Defaults // the offers the file's values still reflect
	tp.intent[name] = o
}

func (tp *targetPlan) set(name string, v ordered.Object) {
	tp.updates = append(tp.updates, target.Desired{Name: name, Value: v})
}

// wanted is one entry a server wants, as want meets it: what repo writes,
// what the file holds, what the record says.
type wanted struct {
	d target.Desired
	// want is what repo writes: the server's entry, with the file's
	// values of the members the tool or the user owns (preserve.go) and of
	// those no tool of the target writes.
	want    ordered.Object
	cur     Member       // the file's entry of that name
	present bool         // the file has one
	rec     record.Owned // what this clone's record says repo wrote
	owned   bool         // the record holds the entry
}

// want plans the entry repo wants for server d. The cases, in order (the
// first that applies decides; TestEntryDecisions is their table):
//   - another workspace's record claims the entry (settleClaims);
//   - the file has none: add it;
//   - no record of this clone's holds it, but repo wrote it on another
//     clone (recognised): take it;
//   - it is what repo writes: keep it, or leave it to the user when no
//     record holds it (unrecorded);
//   - the record holds it, written at another root: update it (relocate);
//   - no record holds it, and it differs: the user's (adoptOrRefuse);
//   - the record holds it, and it differs: update it, keeping hand edits
//     (update).
func (tp *targetPlan) want(doc Document, d target.Desired) error {
	e := tp.prepare(d)
	if stop, err := tp.settleClaims(doc, e); stop || err != nil {
		return err
	}
	switch {
	case !e.present:
		tp.change(ActionAdd, d.Name, ReasonMissing)
		tp.added = append(tp.added, d.Name)
		tp.adds = append(tp.adds, target.Desired{Name: d.Name, Extension: d.Extension, Value: e.want})
	case !e.owned && tp.recognised(d.Name, e.cur.Value, e.want):
		return tp.takeRecognised(e)
	case sameJSON(e.cur.Value, ordered.JSON(e.want)):
		if !e.owned {
			tp.unrecorded(doc, e)
		}
	case e.owned && relocated(e.cur.Value, ordered.JSON(e.want), tp.env.Root):
		tp.relocate(e)
	case !e.owned:
		return tp.adoptOrRefuse(doc, e)
	default:
		return tp.update(doc, e)
	}
	return nil
}

// prepare is what server d wants in the file, and what the file and the
// record hold of it; it notes the entry in the record as repo writes it
// (next), and in the record's intent as the file holds it until written.
func (tp *targetPlan) prepare(d target.Desired) wanted {
	t := tp.t
	e := wanted{d: d, want: d.Value}
	e.cur, e.present = tp.current[d.Name]
	e.rec, e.owned = tp.owned[d.Name]
	var offered map[string]string
	if e.present {
		var kept []keptMember
		e.want, offered, kept = mergePreserved(e.want, e.cur.Value, t.Preserve, d.Fixed, e.rec.Defaults)
		for _, k := range kept {
			tp.out.warnings = append(tp.out.warnings, k.warning(t.Display, d.Name))
		}
	} else {
		offered = offers(e.want, t.Preserve, d.Fixed)
	}
	digest := record.EntryDigest(e.want.Without(t.Preserve...), tp.env.Root)
	// What repo writes, before the members it keeps: a diff never redacts
	// a value of repo's own (see redact.go), and never shows a kept one.
	tp.fp.ours = append(tp.fp.ours, e.want)
	if e.present {
		// The members no tool of the target writes are the tool's or the
		// user's: they stay in the entry, and are no part of the digest.
		e.want = keepUnwritten(e.want, e.cur.Value, t.Written)
	}
	tp.next[d.Name] = record.Owned{Extension: d.Extension, Digest: digest, Defaults: offered}
	if tp.wanted == nil {
		tp.wanted = map[string]ordered.Object{}
	}
	tp.wanted[d.Name] = e.want
	tp.intent[d.Name] = tp.next[d.Name]
	if e.present && e.owned {
		// Until the file is written it holds the values the old offers
		// describe: a run killed before then must still read them as
		// repo's (see FilePlan.Intent).
		o := tp.intent[d.Name]
		o.Defaults = e.rec.Defaults
		tp.intent[d.Name] = o
	}
	return e
}

// takeRecognised takes over an entry that repo wrote on another clone
// (recognised): this clone's now, updated if it was written at another
// root.
func (tp *targetPlan) takeRecognised(e wanted) error {
	if err := tp.err; err != nil {
		return err
	}
	name := e.d.Name
	tp.added = append(tp.added, name)
	if !sameJSON(e.cur.Value, ordered.JSON(e.want)) {
		tp.change(ActionUpdate, name, ReasonRelocated)
		tp.replacing(name, tp.next[name], e.cur.Value)
		tp.set(name, e.want)
	}
	return nil
}

// unrecorded decides an entry that is exactly what repo writes, but not in
// the record. Only the record says what is repo's: a run killed between
// writing the file and the record leaves the entry in the record's intent
// (FilePlan.Intent), so this is the user's own entry (or another
// workspace's, or one whose record is gone). It stays theirs — never
// rewritten, never removed when the server goes — unless they ask repo to
// take it over (--adopt; repo mcp import adopts what it imported).
func (tp *targetPlan) unrecorded(doc Document, e wanted) {
	t, d := tp.t, e.d
	if !tp.adopting(d.Name) {
		delete(tp.next, d.Name)
		delete(tp.intent, d.Name)
		tp.out.yours = append(tp.out.yours, Yours{File: t.Display, Scope: t.Scope, Tools: slices.Clone(t.Tools), Entry: d.Name, Extension: d.Extension, Line: lineOf(doc, t, e.cur)})
		return
	}
	tp.change(ActionAdopt, d.Name, ReasonAdopted)
	tp.added = append(tp.added, d.Name)
}

// relocate updates what repo wrote for this server at another root. Only
// an entry the record owns: a user's own entry that happens to differ
// from the wanted one by a path prefix is the user's. Accepted as it is
// only in a committed file, which a checkout elsewhere cannot hold with
// its own paths (Options.AcceptRelocated).
func (tp *targetPlan) relocate(e wanted) {
	if tp.opts.AcceptRelocated && tp.committed {
		return
	}
	name := e.d.Name
	tp.change(ActionUpdate, name, ReasonRelocated)
	tp.fp.ours = append(tp.fp.ours, e.cur.Value)
	tp.replacing(name, tp.next[name], e.cur.Value)
	tp.set(name, e.want)
}

// adoptOrRefuse decides a user's own entry that differs from what repo
// writes: a ConflictError, unless the user asked repo to take it over.
func (tp *targetPlan) adoptOrRefuse(doc Document, e wanted) error {
	t, name := tp.t, e.d.Name
	if !tp.adopting(name) {
		fromRepo := false
		if tp.fromRepo != nil {
			var err error
			if fromRepo, err = tp.fromRepo(); err != nil {
				return &FileError{File: t.Display, Err: err}
			}
		}
		return &ConflictError{File: t.Display, Line: lineOf(doc, t, e.cur), Entry: name, Tools: t.Tools, FromRepository: fromRepo}
	}
	tp.change(ActionAdopt, name, ReasonAdopted)
	tp.added = append(tp.added, name)
	tp.replacing(name, tp.next[name], e.cur.Value)
	tp.set(name, e.want)
	return nil
}

// update updates an entry of repo's that differs from what repo writes
// now: the extension changed it, or the user edited it by hand since repo
// wrote it (the file does not hold what the record says). Hand edits
// survive where the extension did not change the field (handedit.go);
// where that cannot be known, the managed entry is put back, with a
// warning.
func (tp *targetPlan) update(doc Document, e wanted) error {
	t, name := tp.t, e.d.Name
	edited := !owns(tp.env, e.rec, canon.Only(e.cur.Value, t.Judged()))
	if edited {
		if done, err := tp.keepHandEdit(doc, e.d, e.want, e.cur, e.rec); done || err != nil {
			return err
		}
	}
	tp.replacing(name, tp.next[name], e.cur.Value)
	reason := ReasonStale
	if edited {
		reason = ReasonHandEdited
		tp.out.warnings = append(tp.out.warnings, fmt.Sprintf("%s: entry %q was edited by hand since repo wrote it; repo sync puts the managed version back, as it cannot merge the extension's change into your edit (what repo last wrote there is not known on this machine); keep your version under another name", t.Display, name))
	} else {
		tp.fp.ours = append(tp.fp.ours, e.cur.Value) // what repo wrote; a hand edit is the user's
	}
	tp.change(ActionUpdate, name, reason)
	tp.set(name, e.want)
	return nil
}

// adopting reports whether the user asked repo to take over the user's
// own entry of this name (Options.Adopt, AdoptNames).
func (tp *targetPlan) adopting(name string) bool {
	return tp.opts.Adopt || slices.Contains(tp.opts.AdoptNames, name)
}

// warnUserSecrets warns of the literal credentials in the user's own
// entries of a file git commits: every entry repo neither writes nor
// removes (one it forgets is the user's now). The warning names the entry
// and the field, never the value.
func (tp *targetPlan) warnUserSecrets(doc Document, members []Member) {
	asked, committed := false, false
	for _, m := range members {
		if _, ours := tp.next[m.Key]; ours || slices.Contains(tp.gone, m.Key) {
			continue
		}
		lits := target.EntrySecrets(m.Value)
		if len(lits) == 0 {
			continue
		}
		if !asked { // git is asked only when there is something to say
			asked, committed = true, tp.opts.Committed(tp.t)
		}
		if !committed {
			return
		}
		loc := tp.t.Display
		if l := lineOf(doc, tp.t, m); l > 0 {
			loc = fmt.Sprintf("%s:%d", loc, l)
		}
		seen := map[string]bool{}
		for _, l := range lits {
			if seen[l.Field] {
				continue
			}
			seen[l.Field] = true
			tp.out.warnings = append(tp.out.warnings, fmt.Sprintf("%s: your entry %q: %s holds what looks like a literal credential (%s), and git commits this file: take the value from the environment (an environment reference in the tool's syntax), or move the entry to your user or local config",
				loc, m.Key, l, l.What))
		}
	}
}

// dropGone plans the entries repo wrote that no server wants any more:
// removed, unless edited by hand since (then forgotten, left to the user).
func (tp *targetPlan) dropGone() {
	env, t := tp.env, tp.t
	for _, name := range sortedKeys(tp.owned) {
		if _, still := tp.next[name]; still {
			continue
		}
		cur, present := tp.current[name]
		if !present {
			continue // already gone: just forget it
		}
		if tp.heldElsewhere(name) {
			tp.change(ActionForget, name, ReasonHeldElsewhere)
			continue
		}
		if !owns(env, tp.owned[name], canon.Only(cur.Value, t.Judged())) {
			tp.change(ActionForget, name, goneReason(t))
			tp.out.warnings = append(tp.out.warnings, fmt.Sprintf("%s: entry %q belongs to a server no extension declares any more, but it was edited by hand; it is left in place and is yours now", t.Display, name))
			continue
		}
		tp.change(ActionRemove, name, goneReason(t))
		tp.fp.ours = append(tp.fp.ours, cur.Value)
		tp.intent[name] = tp.owned[name]
		tp.gone = append(tp.gone, name)
	}
}

// edit makes the planned changes to doc: deletions, then replacements and
// additions, each set in one edit. found: the server map was in the file.
func (tp *targetPlan) edit(doc Document, found bool) (Document, error) {
	t, gone, updates, adds, created := tp.t, tp.gone, tp.updates, tp.adds, tp.created
	fileErr := func(line int, err error) error {
		l, c := position(err)
		if l == 0 {
			l = line
		}
		return &FileError{File: t.Display, Line: l, Col: c, Err: stripPosition(err)}
	}
	if len(gone) > 0 {
		nd, err := doc.Delete(t.Key, gone)
		switch {
		case err != nil && len(gone) == 1:
			return nil, fileErr(lineOf(doc, t, tp.current[gone[0]]), fmt.Errorf("removing entry %q: %w", gone[0], err))
		case err != nil:
			return nil, fileErr(0, fmt.Errorf("removing entries: %w", err))
		}
		doc = nd
	}
	if len(adds) > 0 {
		// Before the edit: the file and containers it is going to create.
		created = noteCreated(created, doc, t, !tp.fp.Existed, found)
	}
	if len(updates) > 0 || len(adds) > 0 {
		var err error
		if doc, err = doc.Write(t.Key, editorEntries(updates), editorEntries(adds)); err != nil {
			return nil, fileErr(0, fmt.Errorf("writing entries: %w", err))
		}
	}
	if len(tp.next) == 0 {
		var err error
		if doc, err = dropCreated(doc, t, created); err != nil {
			return nil, fileErr(0, err)
		}
	}
	tp.created = created
	return doc, nil
}

// lineOf is the line of an entry, for a message. An editor whose Entries
// leaves lines out (numbering them can cost more than the whole plan)
// numbers one on demand.
func lineOf(doc Document, t *target.Target, m Member) int {
	if m.Line > 0 {
		return m.Line
	}
	return doc.Line(t.Key, m.Key)
}

func sameJSON(a, b []byte) bool {
	if bytes.Equal(a, b) { // what repo wrote, read back: the common case
		return true
	}
	return jsonvalue.Equal(a, b, jsonvalue.SameFloat)
}

func sortedKeys(m map[string]record.Owned) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func keyString(key []string) string {
	b, _ := json.Marshal(key)
	return string(b)
}

// realRoot is the workspace root with its symlinks resolved, once per
// Build rather than once per file; ok is false if it could not be.
type realRoot struct {
	path string
	ok   bool
}

func resolveRoot(root string) realRoot {
	if real, err := filepath.EvalSymlinks(root); err == nil {
		return realRoot{path: real, ok: true}
	}
	return realRoot{path: root}
}

// checkWritable refuses, before anything is written, a target that a write
// would damage or that the user has marked as not to be written:
//   - anything but a regular file: a FIFO, socket or device, also behind
//     a symlink;
//   - a project file that leads out of the workspace through a symlink;
//   - a read-only file (rename would replace it regardless of its mode),
//     and one this user may not write by the system's full check (owner,
//     group, ACL, read-only mount, immutable): a rename needs only the
//     folder's permission, and would take the file from its owner;
//   - a file with other hard links (an atomic write gives this name a new
//     file and silently leaves the other names with the old content);
//   - a new file whose folder cannot be created because a file is in the way.
func checkWritable(env target.Env, root realRoot, file *fileGroup, t *target.Target) error {
	fail := func(format string, args ...any) error {
		return &FileError{File: t.Display, Err: fmt.Errorf(format, args...)}
	}
	path := file.path
	if t.Scope == toolprofiles.ScopeProject {
		real := path // already resolved by groupByFile, when it exists
		if !file.real {
			real = existingRealPath(path)
		}
		if !within(root.path, real) {
			return fail("leads outside the workspace (to %s) through a symbolic link; repo writes project files only inside the workspace", real)
		}
		// A profile's path cannot name a version-control folder
		// (toolprofiles.VCSFolder), but a symbolic link in the workspace
		// can lead into one.
		if rel, err := filepath.Rel(root.path, real); err == nil {
			if v := toolprofiles.VCSFolder(rel); v != "" {
				return fail("is inside %s, a version-control folder (its files can make it run commands), by way of %s; repo writes nothing there", termtext.Safe(v), termtext.Safe(filepath.ToSlash(rel)))
			}
		}
	}
	// Lstat gives what Stat would for anything but a symlink: only a
	// symlink needs the second look.
	fi, err := os.Lstat(path)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if fi, err = os.Stat(path); fileio.IsMissing(err) {
			dest, _ := os.Readlink(path)
			target := dest
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(existingRealPath(path)), target)
			}
			if root.ok && t.Scope == toolprofiles.ScopeProject && !within(root.path, existingRealPath(target)) {
				return fail("leads outside the workspace (to %s) through a symbolic link; repo writes project files only inside the workspace", target)
			}
			return fail("is a symbolic link to %s, which does not exist; create the file it points to (or remove the link) and run repo sync again", dest)
		}
	}
	switch {
	case err == nil:
		if fi.IsDir() {
			return fail("cannot read: is a directory")
		}
		if err := regfile.Check(fi); err != nil {
			// A FIFO would block the run; a device behind a link
			// (~/.claude.json -> /dev/null) would be replaced by a file.
			return fail("%v", err)
		}
		if fi.Mode().Perm()&0o200 == 0 {
			return fail("is read-only; make it writable (chmod u+w) to let repo update it")
		}
		if err := fileio.CheckWritable(path, fi); err != nil {
			return fail("%v", err)
		}
		if n := fileio.LinkCount(fi); n > 1 {
			return fail("has %d hard links; an atomic write would give this name a new file and leave the other links unchanged. Replace the hard link with a symbolic link (repo writes through those)", n)
		}
	case fileio.IsMissing(err):
		for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
			fi, err := os.Stat(dir)
			if err == nil {
				if !fi.IsDir() {
					return fail("cannot create it: %s is a file, not a folder", env.Display(dir))
				}
				break
			}
			if parent := filepath.Dir(dir); parent == dir {
				break
			}
		}
	}
	return nil
}

// existingRealPath resolves the symlinks of the longest existing prefix of
// p, so a path not created yet is judged by where its folder really is.
func existingRealPath(p string) string { return target.RealPath(p) }

func within(dir, p string) bool {
	r, err := filepath.Rel(dir, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}
