package plan

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/repo-manager/repo/internal/canon"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/record"
	"github.com/repo-manager/repo/internal/target"
)

// Deciding each entry of a target: planTarget compares the entries the
// file holds at the target's key with the ones repo wants and the ones
// the record says repo wrote, decides each (want and its steps for a
// wanted entry, dropGone for one no server wants any more;
// TestEntryDecisions is their table), and edits the document (edit).

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
	// The maps are sized for the entries at once: grown one entry at a
	// time, they were a tenth of what planning a first sync allocated.
	n := len(t.Entries)
	tp := &targetPlan{env: env, t: t, fp: fp, opts: opts, out: out, committed: rs.kind == recordProject, fromRepo: fromRepo,
		current: make(map[string]Member, len(members)), next: make(map[string]record.Owned, n), intent: make(map[string]record.Owned, n)}
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
		if tp.adds == nil {
			tp.adds = make([]target.Desired, 0, len(tp.t.Entries))
		}
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
	var members fileMembers
	if e.present {
		members = readMembers(e.cur.Value)
		var kept []keptMember
		e.want, offered, kept = mergePreserved(tp.opts.digests, e.want, members, t.Preserve, d.Fixed, e.rec.Defaults)
		for _, k := range kept {
			tp.out.warnings = append(tp.out.warnings, k.warning(t.Display, d.Name))
		}
	} else {
		offered = offers(tp.opts.digests, e.want, t.Preserve, d.Fixed)
	}
	digest := tp.opts.digests.Entry(e.want.Without(t.Preserve...), tp.env.Root)
	// What repo writes, before the members it keeps: a diff never redacts
	// a value of repo's own (see redact.go), and never shows a kept one.
	tp.fp.ours = append(tp.fp.ours, e.want)
	if e.present {
		// The members no tool of the target writes are the tool's or the
		// user's: they stay in the entry, and are no part of the digest.
		e.want = keepUnwritten(e.want, members, t.Written)
	}
	tp.next[d.Name] = record.Owned{Extension: d.Extension, Digest: digest, Defaults: offered}
	if tp.wanted == nil {
		tp.wanted = make(map[string]ordered.Object, len(t.Entries))
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
