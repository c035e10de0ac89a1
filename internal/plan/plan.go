package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/gittrack"
	"github.com/repo-manager/repo/internal/jsonvalue"
	"github.com/repo-manager/repo/internal/par"
	"github.com/repo-manager/repo/internal/record"
	"github.com/repo-manager/repo/internal/shellquote"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
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
	// Records, when set, is the run's cache of parsed ownership records,
	// shared with LeavingTargets and FormerTargets, so that each record
	// is parsed once per run (record.Cache: a record whose bytes changed
	// since, as on a retry after another program wrote it, is parsed
	// again).
	Records *RecordCache

	digests *record.Digests // the run's, made by Build
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
	records := &recordSet{env: env, aliases: aliases, clone: clone, reals: realsOf(targets), byKind: map[string]*recordState{}, cache: opts.Records}
	var basesWarning string
	records.bases, basesWarning = readBases(env) // see bases.go
	opts.digests = record.NewDigests()
	if records.bases != nil {
		records.bases.digests = opts.digests
	}
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
