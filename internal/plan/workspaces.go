package plan

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/canon"
	"github.com/repo-manager/repo/internal/lazy"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/record"
	"github.com/repo-manager/repo/internal/shellquote"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
)

// One owner per entry in a file every workspace shares. A user-scope file
// (~/.claude.json's mcpServers, ~/.codex/config.toml) is one per machine,
// while each workspace keeps its own per-user record. So a plan of local-
// or user-scope files reads the other workspaces' records too (otherClaims)
// and holds each entry to one of them:
//
//   - An entry another workspace's record claims is that workspace's. A
//     server of this workspace with its name stops the run (ClaimedError:
//     the other workspace's path, and the ways out), unless the entry
//     already is what the server wants (then it stays the other's, and
//     sync says so), or --adopt / --adopt-name moves it here: this
//     workspace's record takes it, and the other's drops it in the same
//     run. The other workspace then finds it is not its own any more, and
//     stops the same way: nothing flips back without a deliberate --adopt.
//   - Two records that both claim an entry (a run killed between the
//     records, or an --adopt of an earlier repo, which left both) are
//     settled by the entry: the workspace it is written for (by its digest
//     at that root, else by the root its paths name) keeps it, and drops
//     the other's claim; the other is stopped as above.
//   - An entry this workspace no longer wants that another also claims is
//     only forgotten here.
//   - The record of a workspace that is gone (no .repository folder at its
//     root any more) is reported where it claims entries of files a run
//     plans; repo forget --workspace ROOT removes them and the record.

// otherRecord is the per-user record of another workspace on this machine.
type otherRecord struct {
	path string
	root string
	rec  *record.Record
	raw  []byte
	gone bool // its workspace is gone
	// drops are what the plan takes from it (ActionForget changes).
	drops []Change
}

// otherClaims are the other workspaces' records, and who claims what.
type otherClaims struct {
	records []*otherRecord
	byEntry map[string][]*otherRecord
}

// recordName is the name of a per-user record file (UserRecordPath).
var recordName = lazy.Regexp{Expr: `^[0-9a-f]{16}\.json$`}

// readOthers reads the per-user records of the other workspaces on this
// machine: every record in the state folder but own, and those of this
// workspace under other paths (env.Aliases, or a root that is this one).
// A record repo cannot read stops the run: its claims are not known.
func readOthers(env target.Env, own string, reals map[string]string) (*otherClaims, error) {
	oc := &otherClaims{byEntry: map[string][]*otherRecord{}}
	skip := []string{own}
	for _, alias := range env.Aliases {
		// This workspace's own record under another path: planAliases
		// reads it (or, damaged, leaves it alone).
		aenv := env
		aenv.Root = alias
		if path, err := UserRecordPath(aenv); err == nil {
			skip = append(skip, path)
		}
	}
	dir := filepath.Dir(own)
	list, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return oc, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: cannot list the records of the workspaces on this machine: %w", env.Display(dir), err)
	}
	for _, de := range list {
		path := filepath.Join(dir, de.Name())
		if !recordName.Get().MatchString(de.Name()) || slices.Contains(skip, path) || !de.Type().IsRegular() {
			continue
		}
		rec, raw, err := record.Read(path, env.Display(path))
		if err != nil {
			return nil, fmt.Errorf("%w (it is another workspace's record of its local and user entries; repo cannot tell which entries it claims: restore it, or delete it to leave them to you)", err)
		}
		if rec.Root == "" || rec.Root == env.Root || slices.Contains(env.Aliases, rec.Root) || sameDir(rec.Root, env.Root) {
			continue // this workspace's, under another path (planAliases)
		}
		canonicalFiles(env, recordUser, rec, reals)
		o := &otherRecord{path: path, root: rec.Root, rec: rec, raw: raw}
		if _, err := os.Lstat(filepath.Join(rec.Root, ".repository")); errors.Is(err, fs.ErrNotExist) {
			o.gone = true
		}
		oc.records = append(oc.records, o)
		for _, t := range rec.Targets {
			for name := range t.Entries {
				k := claimKey(t.File, t.Key, name)
				oc.byEntry[k] = append(oc.byEntry[k], o)
			}
		}
	}
	return oc, nil
}

func claimKey(file string, key []string, name string) string {
	return file + "\x00" + strings.Join(key, "\x00") + "\x00\x00" + name
}

// claims are the other records that claim an entry (nil for none).
func (oc *otherClaims) claims(file string, key []string, name string) []*otherRecord {
	if oc == nil {
		return nil
	}
	return oc.byEntry[claimKey(file, key, name)]
}

// claimDrop is an entry a plan takes from another workspace's record.
type claimDrop struct {
	from *otherRecord
	file string
	key  []string
	name string
}

// ClaimedError is an entry of a shared per-user file that another
// workspace's record claims, in the way of a server of this workspace.
type ClaimedError struct {
	File      string // as shown
	Line      int
	Entry     string
	Scope     target.Scope
	Workspace string // the root of the workspace that holds it
	Gone      bool   // that workspace is gone
}

func (e *ClaimedError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	adopt := fmt.Sprintf("repo sync --scope %s --adopt-name %s", e.Scope, shellWord(e.Entry))
	ws := termtext.Safe(e.Workspace)
	if e.Gone {
		return fmt.Sprintf("%s: entry %q was written by repo for the workspace %s, which is gone (no .repository folder there any more), and a server of this workspace has that name; 'repo forget --workspace %s' removes what repo wrote for it, or '%s' takes the entry over here (as for a workspace moved here from there)",
			loc, termtext.Safe(e.Entry), ws, shellWord(e.Workspace), adopt)
	}
	return fmt.Sprintf("%s: entry %q was written by repo for the workspace %s, and a server of this workspace has that name; an entry of a file every workspace shares has one owner: leave it to %s (and write this workspace's server at another scope), or move it here with '%s' (%s then finds it is not its own any more)",
		loc, termtext.Safe(e.Entry), ws, ws, adopt, ws)
}

// shellWord is s as one word to paste into a shell, printable.
func shellWord(s string) string { return shellquote.Join([]string{s}) }

// writtenHere reports whether an entry that this workspace's record (o)
// and another's (other) both claim is written for this one: by its digest
// at this root or one of its aliases (what repo wrote, or an interrupted
// run was replacing), else by the paths in it: this root's and not the
// other's. An entry whose value names no root matches both digests: the
// first workspace to sync keeps it.
func writtenHere(env target.Env, preserve []string, raw []byte, o record.Owned, other *otherRecord) bool {
	c := canon.Without(raw, preserve)
	for _, root := range append([]string{env.Root}, env.Aliases...) {
		if d := record.NormalizedDigest(c, root); d == o.Digest || o.Previous != "" && d == o.Previous {
			return true
		}
	}
	sep := string(filepath.Separator)
	text := string(c)
	return strings.Contains(text, canon.Text(env.Root+sep)) && !strings.Contains(text, canon.Text(other.root+sep))
}

// recogniseFor is recognise (identity.go) for a plan of targets that
// includes a per-user one; nil where there is none.
func recogniseFor(env target.Env, targets []*target.Target) (target.Env, *cloneState, error) {
	if !slices.ContainsFunc(targets, func(t *target.Target) bool { return t.Scope != toolprofiles.ScopeProject }) {
		return env, nil, nil
	}
	return recognise(env)
}

// addWorkspaceState adds to p what a plan of per-user files changes in the
// other workspaces' records (the claims it took over), deletes the records
// it took over from this workspace's old paths, reports the records of
// gone workspaces that claim entries in the files it plans, and keeps the
// clone's identity (Plan.State). Called before addRecords, so that the
// workspace's own record holds the clone's id.
func (p *Plan) addWorkspaceState(env target.Env, records *recordSet, opts Options) error {
	st, ok := records.byKind[recordUser]
	if !ok {
		return nil
	}
	cs := records.clone
	if cs != nil && cs.movedFrom != "" {
		p.Warnings = append(p.Warnings, fmt.Sprintf("this workspace was at %s: its record of local and user entries follows it (the entries written there are updated; trust its servers again: repo trust)", termtext.Safe(cs.movedFrom)))
	}
	if cs != nil && cs.copyOf != "" {
		p.Warnings = append(p.Warnings, fmt.Sprintf("this workspace is a copy of %s, which is still there: it is a workspace of its own, whose entries in shared files are its own", termtext.Safe(cs.copyOf)))
	}
	if cs != nil && len(st.rec.Targets) > 0 {
		// The record names the clone it is of (a plan that is only looked
		// at plans the same record); the identity is written only by a
		// plan that may be applied.
		st.rec.ID = cs.id
		if !opts.ReadOnly {
			files, err := cs.identityFiles(env)
			if err != nil {
				return err
			}
			p.State = append(p.State, files...)
		}
	}
	if records.aliases != nil && st.before == nil {
		for _, r := range records.aliases.retired {
			empty := (&record.Record{Version: 1, Root: r.root}).Bytes()
			p.Files = append(p.Files, &FilePlan{Path: r.path, Display: env.Display(r.path), Scope: ScopeRecord, Existed: true, Before: r.raw, After: empty, Delete: true, Mode: 0o600,
				Changes: []Change{{Action: ActionDelete, Reason: ReasonRecordTaken}}})
		}
	}
	if st.others == nil {
		return nil
	}
	for _, o := range st.others.records {
		if len(o.drops) > 0 {
			o.rec.Version = o.rec.MinVersion()
			after := o.rec.Bytes()
			fp := &FilePlan{Path: o.path, Display: env.Display(o.path), Scope: ScopeRecord, Existed: true, Before: o.raw, After: after, Mode: 0o600, Changes: o.drops}
			if len(o.rec.Targets) == 0 {
				// It owns nothing any more (as addRecords deletes this
				// workspace's own then).
				fp.Delete = true
				fp.Changes = append(fp.Changes, Change{Action: ActionDelete, Reason: ReasonRecordEmpty})
			}
			p.Files = append(p.Files, fp)
		}
		if o.gone {
			p.reportGone(env, o, records)
		}
	}
	return nil
}

// reportGone warns of the entries the record of a gone workspace claims
// in the files of the plan.
func (p *Plan) reportGone(env target.Env, o *otherRecord, records *recordSet) {
	var where []string
	for _, t := range o.rec.Targets {
		if len(t.Entries) == 0 || !slices.ContainsFunc(p.Files, func(f *FilePlan) bool {
			return f.Scope != ScopeRecord && recordFile(env, recordUser, f.Path, f.Path) == t.File
		}) {
			continue
		}
		names := make([]string, 0, len(t.Entries))
		for _, n := range sortedKeys(t.Entries) {
			names = append(names, fmt.Sprintf("%q", termtext.Safe(n)))
		}
		where = append(where, fmt.Sprintf("%s (%s)", termtext.Safe(env.Display(filepath.FromSlash(t.File))), strings.Join(names, ", ")))
	}
	if len(where) > 0 {
		p.Warnings = append(p.Warnings, fmt.Sprintf("the workspace %s is gone, and its record still holds entries repo wrote for it in %s: 'repo forget --workspace %s' removes them",
			termtext.Safe(o.root), strings.Join(where, "; "), shellWord(o.root)))
	}
}

// ReasonRecordEmpty is why a per-user record is deleted: it owns
// nothing any more, and would outlive its workspace.
const ReasonRecordEmpty Reason = "ownership record left empty"

// ReasonRecordTaken is why a per-user record kept under another path to
// the workspace (where it was before it moved, or a symlink to it) is
// deleted: the workspace's own record took its entries over.
const ReasonRecordTaken Reason = "record of this workspace under another path, taken over"

// ReasonTakenOver is why another workspace's record forgets an entry: a
// sync took it over (--adopt), or settled a claim both records made.
const ReasonTakenOver Reason = "entry taken over by another workspace"

// ReasonHeldElsewhere is why an entry this workspace no longer wants is
// only forgotten: another workspace's record claims it too.
const ReasonHeldElsewhere Reason = "entry another workspace holds"

// drop takes the entry from the other workspace's record.
func (d claimDrop) drop() {
	e := d.from.rec.Find(d.file, d.key)
	if e == nil {
		return
	}
	if _, ok := e.Entries[d.name]; !ok {
		return
	}
	entries := maps.Clone(e.Entries)
	delete(entries, d.name)
	d.from.rec.Put(d.file, d.key, entries)
	d.from.drops = append(d.from.drops, Change{Action: ActionForget, Entry: d.name, Reason: ReasonTakenOver})
}

// settleClaims decides server d's entry when other workspaces' records
// claim its name in tp's file (see the comment at the top): stop is true
// when the plan leaves the entry to the other workspace. Otherwise the
// entry is this workspace's from now on, and the other claims are
// dropped.
func (tp *targetPlan) settleClaims(doc Document, e wanted) (stop bool, err error) {
	d, cur := e.d, e.cur
	claims := tp.others.claims(tp.recFile, tp.t.Key, d.Name)
	if len(claims) == 0 {
		return false, nil
	}
	t := tp.t
	ours := !e.present || tp.adopting(d.Name) || e.owned && writtenHere(tp.env, t.Preserve, cur.Value, e.rec, claims[0])
	if !ours && !e.owned && sameJSON(cur.Value, ordered.JSON(e.want)) {
		// Already what this workspace's server wants: it stays the
		// other's, as one of the user's own would stay theirs.
		delete(tp.next, d.Name)
		delete(tp.intent, d.Name)
		tp.out.yours = append(tp.out.yours, Yours{File: t.Display, Scope: t.Scope, Tools: slices.Clone(t.Tools), Entry: d.Name, Extension: d.Extension, Line: lineOf(doc, t, cur), Workspace: claims[0].root})
		return true, nil
	}
	if !ours {
		return true, &ClaimedError{File: t.Display, Line: lineOf(doc, t, cur), Entry: d.Name, Scope: t.Scope, Workspace: claims[0].root, Gone: claims[0].gone}
	}
	for _, o := range claims {
		tp.out.drops = append(tp.out.drops, claimDrop{from: o, file: tp.recFile, key: t.Key, name: d.Name})
	}
	return false, nil
}

// heldElsewhere reports whether another workspace's record claims an
// entry of tp's file.
func (tp *targetPlan) heldElsewhere(name string) bool {
	return len(tp.others.claims(tp.recFile, tp.t.Key, name)) > 0
}
